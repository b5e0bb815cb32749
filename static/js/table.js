// Live tables: the turn clock's countdown and the connection state. Moves travel over
// htmx's WebSocket extension (ws-send forms); the server sends each seat its own view.
(function () {
  "use strict";

  function tick() {
    const live = document.getElementById("table-live");
    if (!live) return;
    const deadline = Date.parse(live.dataset.deadline || "");
    live.querySelectorAll("[data-clock]").forEach(function (el) {
      if (Number.isNaN(deadline)) { el.textContent = ""; return; }
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      el.textContent = left + " s";
      el.classList.toggle("is-low", left <= 5);
    });
  }
  setInterval(tick, 250);

  function status(text) {
    const el = document.getElementById("connection-status");
    if (el) el.textContent = text;
  }
  document.addEventListener("htmx:wsOpen", function () { status(""); });
  document.addEventListener("htmx:wsClose", function () { status("Connection lost: reconnecting… The game goes on and your clock keeps running."); });
  document.addEventListener("htmx:wsAfterMessage", tick);
})();

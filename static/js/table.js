// Live tables: the turn clock's countdown, the connection state, what changed said aloud,
// and focus kept across updates. Moves travel over htmx's WebSocket extension (ws-send
// forms); the server sends each seat its own view, which replaces #table-live whole.
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
      // Only a person's own turn running out is an alarm; a tie replay's pause is not.
      el.classList.toggle("is-low", left <= 5 && !el.hasAttribute("data-calm"));
    });
  }
  setInterval(tick, 250);

  // The socket's address says which version and seat the page shows (the socket comes back
  // at the same address after a drop, so it is read anew each time): a started table that has
  // not moved since is not sent again, and the part under the pointer is not swapped. It also
  // names the newest chat message shown: the socket sends those said since.
  function newestSaid() {
    let newest = 0;
    document.querySelectorAll("#table-chat [data-said]").forEach(function (li) {
      newest = Math.max(newest, Number(li.dataset.said) || 0);
    });
    return String(newest);
  }
  const createWebSocket = htmx.createWebSocket;
  htmx.createWebSocket = function (url) {
    const live = document.getElementById("table-live");
    const shown = new URLSearchParams({ said: newestSaid() });
    if (live && live.dataset.version) {
      shown.set("seen", live.dataset.version);
      shown.set("me", live.dataset.me || "");
    }
    return createWebSocket(url + (url.indexOf("?") < 0 ? "?" : "&") + shown.toString());
  };

  function status(text) {
    const el = document.getElementById("connection-status");
    if (el) el.textContent = text;
  }
  // A hidden page (another tab, a locked phone) says so, and the server draws it nothing
  // until it is shown again; then it sends the table as it stands (games/consumers.py).
  let socket = null;
  function tellVisibility() {
    if (socket) socket.send(JSON.stringify({ page: document.hidden ? "hidden" : "shown" }));
  }
  document.addEventListener("visibilitychange", tellVisibility);
  document.addEventListener("htmx:wsOpen", function (event) {
    status("");
    socket = event.detail.socketWrapper;
    if (document.hidden) tellVisibility();
  });
  document.addEventListener("htmx:wsClose", function () { status(gettext("Connection lost: reconnecting… The game goes on and your clock keeps running.")); });

  // What the page last said: the newest move it has read out, and the turn line.
  let heardSeq = -1;
  let heardLine = null;

  function logEntries(live) {
    return Array.prototype.map.call(live.querySelectorAll(".table-log [data-seq]"), function (li) {
      return { seq: Number(li.dataset.seq), text: li.textContent.trim() };
    });
  }

  function remember(live) {
    logEntries(live).forEach(function (e) { heardSeq = Math.max(heardSeq, e.seq); });
    heardLine = live.dataset.announce || "";
  }

  function announce(live) {
    const region = document.getElementById("table-announce");
    if (!region) return;
    const fresh = logEntries(live).filter(function (e) { return e.seq > heardSeq; });
    const line = live.dataset.announce || "";
    if (!fresh.length && line === heardLine) return;
    const parts = fresh.map(function (e) { return e.text; });
    if (line) parts.push(line);
    remember(live);
    // The same words twice would not be read again: clear, then say them on the next frame.
    region.textContent = "";
    window.requestAnimationFrame(function () { region.textContent = parts.join(" "); });
  }

  // Focus: which control had it before the swap, so the same control has it after.
  let focusKey = null;
  let wasMyTurn = false;

  function keyOf(el) {
    if (!el || el === document.body) return null;
    const keyed = el.closest("[data-focus-key]");
    if (keyed) return { key: keyed.dataset.focusKey };
    if (el.id) return { id: el.id };
    return { lost: true };
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    const live = document.getElementById("table-live");
    if (!live) return;
    wasMyTurn = live.dataset.myTurn === "1";
    const active = document.activeElement;
    focusKey = active && live.contains(active) ? keyOf(active) : null;
  });

  function firstControl(root) {
    return root && root.querySelector("button:not([disabled]), input:not([type=hidden]):not([disabled]), select, a[href]");
  }

  function restoreFocus(live) {
    const nowMyTurn = live.dataset.myTurn === "1";
    if (nowMyTurn && !wasMyTurn) {
      const control = firstControl(document.getElementById("action-bar"));
      if (control) { control.focus(); return; }
    }
    if (!focusKey || live.contains(document.activeElement)) return;
    let target = null;
    if (focusKey.key) target = live.querySelector('[data-focus-key="' + CSS.escape(focusKey.key) + '"]');
    else if (focusKey.id) target = document.getElementById(focusKey.id);
    if (target && target.matches("[disabled]")) target = null;
    // The control is gone (its seat was filled, the turn passed): the nearest sensible
    // place is the first control of the table, else its heading; never the page's top.
    target = target || firstControl(live.querySelector(".seating, .table-links, #action-bar")) || document.getElementById("table-live-heading");
    if (target) target.focus();
  }

  // Invitations are to a seat: once the game has begun, the page drawn while the table was
  // open takes back its invite form and an invitee's Accept (the server refuses both then);
  // the list of invitations sent stays.
  function closeInvitations(live) {
    if (live.dataset.open === "1") return;
    const panel = document.querySelector("[data-testid=table-invitations]");
    if (!panel) return;
    panel.querySelectorAll(".invite-form, [data-testid=my-invitation], .invitation-answer").forEach(function (el) { el.remove(); });
    if (!panel.querySelector("[data-testid=table-invitation]")) panel.hidden = true;
  }

  document.addEventListener("htmx:wsAfterMessage", function () {
    tick();
    const live = document.getElementById("table-live");
    if (!live) return;
    restoreFocus(live);
    announce(live);
    closeInvitations(live);
  });

  document.addEventListener("DOMContentLoaded", function () {
    const live = document.getElementById("table-live");
    if (live) remember(live);
  });
})();

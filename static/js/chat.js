// Table chat: a message sent over the socket (htmx's ws-send) empties its box and the chat's
// last notice, and each room's log keeps its newest line in sight.
(function () {
  "use strict";

  function scrollLogs(root) {
    (root || document).querySelectorAll(".chat-log").forEach(function (log) {
      log.scrollTop = log.scrollHeight;
    });
  }

  document.addEventListener("htmx:wsAfterSend", function (event) {
    const form = event.target && event.target.closest && event.target.closest("#table-chat form");
    if (!form) return;
    const status = document.getElementById("chat-status");
    if (status) { status.textContent = ""; status.classList.remove("is-error"); }
    const box = form.querySelector("input[name=chat]");
    if (box) { box.value = ""; box.focus(); }
  });

  document.addEventListener("htmx:wsAfterMessage", function () { scrollLogs(); });
  document.addEventListener("htmx:afterSwap", function () { scrollLogs(); });
  document.addEventListener("DOMContentLoaded", function () { scrollLogs(); });
})();

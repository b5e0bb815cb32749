// Counts the "starts in ..." of upcoming tournaments (and an event's "closes in ...") down live, in the words the server
// writes (tournaments.selectors.starts_in). Each counts from the seconds the page gave it, not
// from this machine's clock, which may be wrong; rows the lists' poll swaps in are picked up.
(() => {
  "use strict";
  // data-countdown-verb ("starts", "closes") and data-countdown-done ("starting now") let
  // another countdown speak the same way.
  const phrase = (el, seconds) => {
    const verb = el.dataset.countdownVerb || "starts";
    if (seconds <= 0) return el.dataset.countdownDone || "starting now";
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const secs = seconds % 60;
    if (days) return `${verb} in ${days} day${days > 1 ? "s" : ""} ${hours} h`;
    if (hours) return `${verb} in ${hours} h ${minutes} min`;
    if (minutes) return `${verb} in ${minutes} min ${secs} s`;
    return `${verb} in ${secs} s`;
  };
  const tick = () => {
    const now = performance.now();
    for (const el of document.querySelectorAll("[data-countdown]")) {
      if (!el.dataset.seenAt) el.dataset.seenAt = String(now);
      const left = Number(el.dataset.countdown) - Math.floor((now - Number(el.dataset.seenAt)) / 1000);
      const text = phrase(el, left);
      if (el.textContent !== text) el.textContent = text;
    }
  };
  tick();
  setInterval(tick, 1000);
})();

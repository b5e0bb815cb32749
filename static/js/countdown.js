// Counts the "starts in ..." of upcoming tournaments down live, in the words the server
// writes (tournaments.selectors.starts_in). Each counts from the seconds the page gave it, not
// from this machine's clock, which may be wrong; rows the lists' poll swaps in are picked up.
(() => {
  "use strict";
  const startsIn = (seconds) => {
    if (seconds <= 0) return "starting now";
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const secs = seconds % 60;
    if (days) return `starts in ${days} day${days > 1 ? "s" : ""} ${hours} h`;
    if (hours) return `starts in ${hours} h ${minutes} min`;
    if (minutes) return `starts in ${minutes} min ${secs} s`;
    return `starts in ${secs} s`;
  };
  const tick = () => {
    const now = performance.now();
    for (const el of document.querySelectorAll("[data-countdown]")) {
      if (!el.dataset.seenAt) el.dataset.seenAt = String(now);
      const left = Number(el.dataset.countdown) - Math.floor((now - Number(el.dataset.seenAt)) / 1000);
      const text = startsIn(left);
      if (el.textContent !== text) el.textContent = text;
    }
  };
  tick();
  setInterval(tick, 1000);
})();

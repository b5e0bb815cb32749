// Counts the "starts in ..." of upcoming tournaments (and an event's "closes in ...") down live, in the words the server
// writes (tournaments.selectors.starts_in). Each counts from the seconds the page gave it, not
// from this machine's clock, which may be wrong; rows the lists' poll swaps in are picked up.
// Its words are in the page's language: Django's JavaScript catalogue (base.html) gives gettext.
(() => {
  "use strict";
  // data-countdown-verb ("starts", "closes") and data-countdown-done ("starting now") let
  // another countdown speak the same way.
  const say = (text, words) => interpolate(text, words, true);
  const phrase = (el, seconds) => {
    const verb = el.dataset.countdownVerb || gettext("starts");
    if (seconds <= 0) return el.dataset.countdownDone || gettext("starting now");
    const days = Math.floor(seconds / 86400);
    const hours = Math.floor((seconds % 86400) / 3600);
    const minutes = Math.floor((seconds % 3600) / 60);
    const secs = seconds % 60;
    const words = { verb: verb, days: days, hours: hours, minutes: minutes, seconds: secs };
    if (days) return say(ngettext("%(verb)s in %(days)s day %(hours)s h", "%(verb)s in %(days)s days %(hours)s h", days), words);
    if (hours) return say(gettext("%(verb)s in %(hours)s h %(minutes)s min"), words);
    if (minutes) return say(gettext("%(verb)s in %(minutes)s min %(seconds)s s"), words);
    return say(gettext("%(verb)s in %(seconds)s s"), words);
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

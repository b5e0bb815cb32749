// Replays: step links, the slider, play/pause at a chosen speed and the arrow keys. Every
// move between steps is an htmx request for that step, which also puts ?step=N in the
// address. Clicks and key presses faster than the server answers add up: the page catches
// up to the step last asked for. A link may name its step as #step-N too (the server never sees a
// fragment, so this script goes there).
(function () {
  "use strict";
  const PLAY = '<span aria-hidden="true">&#x25B6;</span> ' + gettext("Play");
  const PAUSE = '<span aria-hidden="true">&#x23F8;</span> ' + gettext("Pause");
  let timer = null;
  let wanted = null; // the step asked for while a request was in flight
  let busy = false;
  let replaceAddress = false; // going to a #step-N link's step: that address is kept, not added to
  let refocus = null; // the control that had the focus, given it back in the new step's controls

  function root() { return document.getElementById("replay"); }
  function current() { return Number(root().dataset.step); }
  function total() { return Number(root().dataset.steps); }

  function goTo(step) {
    const r = root();
    if (!r) return;
    wanted = Math.max(0, Math.min(total(), step));
    if (busy || wanted === current()) return;
    busy = true;
    const focused = document.activeElement;
    if (focused && r.contains(focused)) {
      const mark = ["data-step-link", "data-play", "data-slider", "data-speed"].find(function (a) { return focused.hasAttribute(a); });
      if (mark) refocus = "[" + mark + (focused.getAttribute(mark) ? '="' + focused.getAttribute(mark) + '"' : "") + "]";
    }
    const url = "?step=" + wanted + "&view=" + encodeURIComponent(r.dataset.view);
    htmx.ajax("GET", url, { target: "#replay", swap: "outerHTML" }).then(function () {
      if (replaceAddress) history.replaceState({}, "", url); else history.pushState({}, "", url);
      replaceAddress = false;
    });
  }

  document.addEventListener("htmx:afterSwap", function () {
    // A swap this script did not ask for leaves nothing to catch up with.
    const ours = busy;
    busy = false;
    if (!ours) wanted = null;
    const button = root() && root().querySelector("[data-play]");
    if (button && timer) button.innerHTML = PAUSE;
    // The swap replaced the control in use: the keyboard stays on its twin, not on <body>.
    const twin = refocus && root() && root().querySelector(refocus);
    if (twin && (document.activeElement === document.body || !document.activeElement)) twin.focus();
    if (ours && root() && wanted !== null && wanted !== current()) { goTo(wanted); return; }
    refocus = null;
  });

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    const button = root() && root().querySelector("[data-play]");
    if (button) button.innerHTML = PLAY;
  }

  function play() {
    // Play at the last step watches the game again from the deal.
    if (current() >= total()) goTo(0);
    const speed = Number(root().querySelector("[data-speed]").value);
    timer = setInterval(function () {
      if (!root() || (current() >= total() && !busy)) { stop(); return; }
      if (!busy) goTo(current() + 1);
    }, speed);
    root().querySelector("[data-play]").innerHTML = PAUSE;
  }

  // A step's position counting the steps already asked for and not yet shown.
  function base() { return wanted !== null && busy ? wanted : current(); }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-play]")) { if (timer) stop(); else play(); return; }
    const link = event.target.closest("[data-step-link]");
    if (!link || !root() || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    stop();
    const to = { first: 0, previous: base() - 1, next: base() + 1, last: total() };
    goTo(to[link.dataset.stepLink]);
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-slider]")) { stop(); goTo(Number(event.target.value)); }
    if (event.target.matches("[data-speed]") && timer) { stop(); play(); }
    // The page's policy forbids inline handlers: the perspective picker submits from here.
    if (event.target.matches("[data-perspective]")) event.target.form.submit();
  });
  document.addEventListener("keydown", function (event) {
    if (!root() || event.target.closest("input, select, textarea")) return;
    const moves = { ArrowRight: base() + 1, ArrowLeft: base() - 1, Home: 0, End: total() };
    if (event.key in moves) { stop(); goTo(moves[event.key]); event.preventDefault(); }
    if (event.key === " ") { if (timer) stop(); else play(); event.preventDefault(); }
  });

  function followFragment() {
    const named = /^#step-(\d+)$/.exec(window.location.hash);
    if (!root() || !named || new URLSearchParams(window.location.search).has("step")) return;
    replaceAddress = true;
    goTo(Number(named[1]));
  }
  // A deferred script runs before DOMContentLoaded, and htmx (loaded first) is ready by then.
  document.addEventListener("DOMContentLoaded", followFragment);
})();

// Replays: step links, the slider, play/pause at a chosen speed and the arrow keys. Every
// move between steps is an htmx request for that step, which also puts ?step=N in the
// address. Key presses faster than the server answers add up: the page catches up to the
// step last asked for.
(function () {
  "use strict";
  let timer = null;
  let wanted = null; // the step asked for while a request was in flight
  let busy = false;

  function root() { return document.getElementById("replay"); }
  function current() { return Number(root().dataset.step); }
  function total() { return Number(root().dataset.steps); }

  function goTo(step) {
    const r = root();
    if (!r) return;
    wanted = Math.max(0, Math.min(total(), step));
    if (busy || wanted === current()) return;
    busy = true;
    const url = "?step=" + wanted + "&view=" + encodeURIComponent(r.dataset.view);
    htmx.ajax("GET", url, { target: "#replay", swap: "outerHTML" }).then(function () {
      history.pushState({}, "", url);
    });
  }

  document.addEventListener("htmx:afterSwap", function () {
    busy = false;
    const button = root() && root().querySelector("[data-play]");
    if (button && timer) button.innerHTML = "&#x23F8; Pause";
    if (root() && wanted !== null && wanted !== current()) goTo(wanted);
  });

  function stop() {
    if (timer) clearInterval(timer);
    timer = null;
    const button = root() && root().querySelector("[data-play]");
    if (button) button.innerHTML = "&#x25B6; Play";
  }

  function play() {
    const speed = Number(root().querySelector("[data-speed]").value);
    timer = setInterval(function () {
      if (!root() || current() >= total()) { stop(); return; }
      if (!busy) goTo(current() + 1);
    }, speed);
    root().querySelector("[data-play]").innerHTML = "&#x23F8; Pause";
  }

  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-play]")) { if (timer) stop(); else play(); }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches("[data-slider]")) { stop(); goTo(Number(event.target.value)); }
    if (event.target.matches("[data-speed]") && timer) { stop(); play(); }
    // The page's policy forbids inline handlers: the perspective picker submits from here.
    if (event.target.matches("[data-perspective]")) event.target.form.submit();
  });
  document.addEventListener("keydown", function (event) {
    if (!root() || event.target.closest("input, select, textarea")) return;
    const base = wanted !== null && busy ? wanted : current();
    const moves = { ArrowRight: base + 1, ArrowLeft: base - 1, Home: 0, End: total() };
    if (event.key in moves) { stop(); goTo(moves[event.key]); event.preventDefault(); }
    if (event.key === " ") { if (timer) stop(); else play(); event.preventDefault(); }
  });
})();

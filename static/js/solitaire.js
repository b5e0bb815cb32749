// Solitaire play: picks cards, sends moves through htmx, keyboard shortcuts, the clock.
// The server is the referee: this script never decides whether a move is legal; it
// sends the cards a click picked (a card, and for a pair its partner) or a button's move
// ("draw"), and shows the answer. The engine turns picked cards into its move.
(function () {
  "use strict";

  let selected = null; // the card text waiting for a partner (Pyramid)
  // Not a class on #game: htmx's settle step copies the old element's classes onto the
  // new one for a moment after each swap, which would drop a quick next keypress.
  let inFlight = false;

  function game() { return document.getElementById("game"); }

  function isKing(card) { return card && card[0] === "K"; }

  function post(url, values) {
    const root = game();
    if (!root || root.dataset.canPlay !== "1" || inFlight) return;
    selected = null;
    inFlight = true;
    root.classList.add("is-busy");
    htmx.ajax("POST", url, { target: "#game", swap: "outerHTML", values: values });
  }

  function send(action) {
    const root = game();
    if (root) post(root.dataset.actUrl, { action: action, version: root.dataset.version });
  }

  function sendCards(card, partner) {
    const root = game();
    if (root) post(root.dataset.actUrl, { card: card, partner: partner || "", version: root.dataset.version });
  }

  // Every form of the game posts through post(): pressing a key right after a swap
  // must not race htmx's processing of the new elements and fall back to a page load.
  // Without JavaScript the same forms post normally and the server redirects back.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    const root = game();
    if (!root || !root.contains(form)) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    // getAttribute: an input named "action" shadows the form.action property.
    post(form.getAttribute("action"), Object.fromEntries(new FormData(form)));
  });

  function markSelection() {
    const root = game();
    if (!root) return;
    root.querySelectorAll("button[data-card]").forEach(function (el) {
      const on = el.dataset.card === selected;
      el.classList.toggle("is-selected", on);
      el.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  function pick(card) {
    const root = game();
    if (root.dataset.pairs !== "1") { sendCards(card); return; }
    if (selected === card) { selected = null; markSelection(); return; }
    if (selected) { sendCards(selected, card); return; }
    if (isKing(card)) { sendCards(card); return; }
    selected = card;
    markSelection();
  }

  document.addEventListener("click", function (event) {
    const root = game();
    if (!root || !root.contains(event.target)) return;
    const action = event.target.closest("[data-action]");
    if (action && !action.disabled) { send(action.dataset.action); return; }
    const card = event.target.closest("button[data-card]");
    if (card && !card.disabled) pick(card.dataset.card);
  });

  function cardButtons() {
    const root = game();
    return root ? Array.from(root.querySelectorAll("button[data-card]:not([disabled])")) : [];
  }

  function moveFocus(step) {
    const buttons = cardButtons().filter(function (b) { return b.classList.contains("is-available"); });
    if (!buttons.length) return;
    const at = buttons.indexOf(document.activeElement);
    const next = at < 0 ? 0 : (at + step + buttons.length) % buttons.length;
    buttons[next].focus();
  }

  function clickKey(key) {
    const root = game();
    const target = root && root.querySelector('[data-key="' + key + '"]:not([disabled])');
    if (target) target.click();
    return Boolean(target);
  }

  document.addEventListener("keydown", function (event) {
    if (!game() || event.ctrlKey || event.metaKey || event.altKey) return;
    const typing = event.target.closest("input, textarea, select");
    if (typing) {
      if (event.key === "Escape") event.target.blur();
      return;
    }
    const key = event.key.toLowerCase();
    if (key === "arrowright" || key === "arrowdown") { moveFocus(1); event.preventDefault(); return; }
    if (key === "arrowleft" || key === "arrowup") { moveFocus(-1); event.preventDefault(); return; }
    if (key === "escape") { selected = null; markSelection(); return; }
    if (key === "/") { const input = document.getElementById("move-input"); if (input) { input.focus(); event.preventDefault(); } return; }
    if (["d", "r", "u", "h", "n"].includes(key) && clickKey(key)) event.preventDefault();
  });

  document.addEventListener("htmx:afterRequest", function () { inFlight = false; });

  // After each swap: keep the hint visible on the board and restore keyboard focus.
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target.id !== "game" && !(event.detail.elt && event.detail.elt.id === "game")) return;
    const root = game();
    if (!root) return;
    const hint = root.querySelector("[data-hint]");
    if (hint) {
      hint.dataset.hintCards.split(" ").filter(Boolean).forEach(function (card) {
        const el = root.querySelector('button[data-card="' + card + '"]');
        if (el) el.classList.add("is-hinted");
      });
      if (hint.dataset.hint === "draw" || hint.dataset.hint === "redeal") {
        const el = root.querySelector('[data-action="' + hint.dataset.hint + '"]');
        if (el) el.classList.add("is-hinted");
      }
    }
    const first = cardButtons().find(function (b) { return b.classList.contains("is-available"); });
    if (first && document.activeElement === document.body) first.focus({ preventScroll: true });
    startClock();
  });

  let clockTimer = null;
  function startClock() {
    if (clockTimer) clearInterval(clockTimer);
    const root = game();
    const clock = document.getElementById("clock");
    if (!root || !clock || !root.dataset.started) return;
    const started = Date.parse(root.dataset.started);
    function tick() {
      const seconds = Math.max(0, Math.floor((Date.now() - started) / 1000));
      const m = Math.floor(seconds / 60);
      const s = String(seconds % 60).padStart(2, "0");
      clock.textContent = m ? m + ":" + s : seconds + "s";
    }
    tick();
    clockTimer = setInterval(tick, 1000);
  }

  document.addEventListener("DOMContentLoaded", startClock);
})();

// Solitaire play: picks cards, sends moves through htmx, keyboard shortcuts, the clock.
// The server is the referee: this script never decides whether a move is legal; it
// sends the cards a click picked (a card, and for a pair its partner) or a button's move
// ("draw"), and shows the answer. The engine turns picked cards into its move. A card the
// server marked as unusable now (no "is-available", a "data-why") is not picked: its reason
// is said instead, in the message line.
//
// The board's cards are one Tab stop (a roving tabindex): the arrow keys move between
// them, Home and End go to the first and last, Tab leaves the board.
(function () {
  "use strict";

  let selected = null; // the card text waiting for a partner (Pyramid)
  let roving = null; // the card text holding the board's Tab stop
  let refocus = null; // what had the focus when a move was sent, to give it back after the swap
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
    refocus = focusKey(document.activeElement);
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
  // The end panel's forms (play the deal again, the match's next deal) go to another game:
  // they post as plain forms.
  document.addEventListener("submit", function (event) {
    const form = event.target;
    const root = game();
    if (!root || !root.contains(form) || form.closest(".end-panel")) return;
    event.preventDefault();
    if (form.dataset.confirm && !window.confirm(form.dataset.confirm)) return;
    // getAttribute: an input named "action" shadows the form.action property.
    post(form.getAttribute("action"), Object.fromEntries(new FormData(form)));
  });

  // The message line is a live region that stays in the page: changing its words is what
  // a screen reader announces.
  function say(text, kind) {
    const line = document.getElementById("game-message");
    if (!line) return;
    const p = document.createElement("p");
    p.className = "game-message" + (kind ? " " + kind : "");
    p.dataset.testid = "message";
    p.textContent = text;
    line.replaceChildren(p);
  }

  function markSelection() {
    const root = game();
    if (!root) return;
    root.querySelectorAll("button[data-card]").forEach(function (el) {
      const on = el.dataset.card === selected;
      el.classList.toggle("is-selected", on);
      el.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  function pick(button) {
    const root = game();
    const card = button.dataset.card;
    if (!button.classList.contains("is-available")) {
      say(button.dataset.why || interpolate(gettext("%(card)s: this card can't be used now."), { card: button.getAttribute("aria-label") }, true), "is-error");
      return;
    }
    if (root.dataset.pairs !== "1") { sendCards(card); return; }
    if (selected === card) { selected = null; markSelection(); say(gettext("Picked nothing.")); return; }
    if (selected) { sendCards(selected, card); return; }
    if (isKing(card)) { sendCards(card); return; }
    selected = card;
    markSelection();
    say(interpolate(gettext("Picked %(card)s: now pick a card to make 13 with it."), { card: button.getAttribute("aria-label") }, true));
  }

  document.addEventListener("click", function (event) {
    const root = game();
    if (!root || !root.contains(event.target)) return;
    const action = event.target.closest("[data-action]");
    if (action && !action.disabled) { send(action.dataset.action); return; }
    const card = event.target.closest("button[data-card]");
    if (card && !card.disabled) pick(card);
  });

  // The board: every card the player may look at, in reading order (the layout row by
  // row, then the piles).
  function boardCards() {
    const root = game();
    return root ? Array.from(root.querySelectorAll(".felt button[data-card]:not([disabled])")) : [];
  }

  function rove(target) {
    boardCards().forEach(function (b) { b.tabIndex = b === target ? 0 : -1; });
    roving = target ? target.dataset.card : null;
  }

  // The Tab stop goes to the card that had it, else the first card that can be played.
  function settleRoving() {
    const cards = boardCards();
    const keep = cards.find(function (b) { return b.dataset.card === roving; });
    const target = keep || cards.find(function (b) { return b.classList.contains("is-available"); }) || cards[0];
    rove(target || null);
    return target;
  }

  function centre(el) {
    const r = el.getBoundingClientRect();
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
  }

  // Up and Down go to the nearest row above or below, then to the nearest card in it.
  function vertical(cards, from, down) {
    const here = centre(from);
    let best = null;
    let bestRow = Infinity;
    let bestDx = Infinity;
    cards.forEach(function (b) {
      if (b === from) return;
      const c = centre(b);
      const dy = down ? c.y - here.y : here.y - c.y;
      if (dy < 4) return;
      const dx = Math.abs(c.x - here.x);
      if (dy < bestRow - 4 || (Math.abs(dy - bestRow) <= 4 && dx < bestDx)) {
        if (dy < bestRow - 4) bestRow = dy;
        best = b;
        bestDx = dx;
      }
    });
    return best;
  }

  function moveInBoard(key, from) {
    const cards = boardCards();
    if (!cards.length) return false;
    const at = cards.indexOf(from);
    let target = null;
    if (at < 0) target = settleRoving();
    else if (key === "arrowright") target = cards[(at + 1) % cards.length];
    else if (key === "arrowleft") target = cards[(at - 1 + cards.length) % cards.length];
    else if (key === "home") target = cards[0];
    else if (key === "end") target = cards[cards.length - 1];
    else target = vertical(cards, from, key === "arrowdown") || from;
    rove(target);
    target.focus();
    return true;
  }

  document.addEventListener("focusin", function (event) {
    const card = event.target.closest && event.target.closest(".felt button[data-card]");
    if (card && game() && game().contains(card)) rove(card);
  });

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
    const onCard = event.target.closest(".felt button[data-card]");
    const arrows = ["arrowright", "arrowleft", "arrowup", "arrowdown"];
    // Arrows elsewhere on the page bring the focus to the board; Home and End only move in it.
    if ((arrows.includes(key) || (onCard && (key === "home" || key === "end"))) && moveInBoard(key, onCard)) {
      event.preventDefault();
      return;
    }
    if (key === "escape") { if (selected) say(gettext("Picked nothing.")); selected = null; markSelection(); return; }
    if (key === "/") { const input = document.getElementById("move-input"); if (input) { input.focus(); event.preventDefault(); } return; }
    if (["d", "r", "u", "h", "n"].includes(key) && clickKey(key)) event.preventDefault();
  });

  document.addEventListener("htmx:afterRequest", function () { inFlight = false; });

  // What had the focus, as something the new board may hold again: the same card, the same
  // button (by its key or action), or the move field.
  function focusKey(el) {
    const root = game();
    if (!el || !root || !root.contains(el)) return null;
    if (el.dataset.card) return '.felt button[data-card="' + el.dataset.card + '"]';
    if (el.dataset.key) return '[data-key="' + el.dataset.key + '"]';
    if (el.dataset.action) return '[data-action="' + el.dataset.action + '"]';
    if (el.id) return "#" + el.id;
    return null;
  }

  // Whether the game shown before a swap was already over: the move that ends it brings the
  // result into sight, which on a phone lies under the board, below the screen.
  let wasOver = false;
  document.addEventListener("htmx:beforeSwap", function () {
    const root = game();
    wasOver = Boolean(root && root.querySelector(".end-panel"));
  });

  // After each swap: keep the hint visible on the board, settle the board's Tab stop and
  // give the focus back where it was (or to the board, rather than let it fall to <body>).
  document.addEventListener("htmx:afterSwap", function (event) {
    if (event.detail.target.id !== "game" && !(event.detail.elt && event.detail.elt.id === "game")) return;
    const root = game();
    if (!root) return;
    const end = root.querySelector(".end-panel");
    if (end && !wasOver) {
      const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      end.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
    }
    const hint = document.querySelector("#game-message [data-hint]");
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
    const boardTarget = settleRoving();
    const lost = document.activeElement === document.body || !document.activeElement;
    const back = refocus && root.querySelector(refocus + ":not([disabled])");
    refocus = null;
    if (back && lost) back.focus({ preventScroll: true });
    else if (boardTarget && lost) boardTarget.focus({ preventScroll: true });
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

  document.addEventListener("DOMContentLoaded", function () { settleRoving(); startClock(); });
})();

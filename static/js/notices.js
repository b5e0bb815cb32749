// Notices: the signed-in person's socket (/ws/notices/), open on every page. A new notice
// shows as a toast with its link and joins the header's list; the header and the page's
// title show how many are unread. Following a notice marks it read, on every open page. The
// header's "Your turn (3)" follows the count of turn-based games waiting for the person.
// Text reaches the page through textContent only, links only to paths on this site.
// The socket is also the person's presence (accounts/presence.py): a table's page names its
// table in the socket's address, and a heartbeat says the page is still open.
(function () {
  "use strict";

  const root = document.querySelector("[data-notices]");
  if (!root || !("WebSocket" in window)) return;
  const list = root.querySelector("[data-notices-list]");
  const empty = root.querySelector("[data-notices-empty]");
  const badge = root.querySelector("[data-notices-badge]");
  const count = root.querySelector("[data-notices-count]");
  const summary = root.querySelector("summary");
  const toasts = document.querySelector("[data-notice-toasts]");
  // The header's "Your turn (3)": how many turn-based games wait for this person (LP-8).
  const turns = document.querySelector("[data-your-turn]");
  const SHOWN = 10; // accounts.notices.SHOWN
  const TOAST_MS = 20000;
  const RETRY_MAX_MS = 30000;
  // More often than the server writes (once a minute): a hidden tab's timers run late.
  const HEARTBEAT_MS = 30000;
  // The table's id is read from the address rather than from the table page's markup, so
  // that any page under /tables/<id>/ counts and the table's template needs nothing of this.
  const atTable = /^\/tables\/(\d{1,18})\/$/.exec(location.pathname);
  const baseTitle = document.title.replace(/^\(\d+\) /, "");

  // Notices up to this id have been shown on this page: a later one is toasted, once,
  // whether the push or the sync after a reconnect brings it.
  let newest = 0;
  list.querySelectorAll("[data-notice-id]").forEach(function (item) {
    newest = Math.max(newest, Number(item.dataset.noticeId));
  });
  let socket = null;
  let retries = 0;

  function sitePath(url) {
    return typeof url === "string" && url.startsWith("/") && !url.startsWith("//") ? url : "";
  }

  function setUnread(n) {
    count.textContent = String(n);
    badge.hidden = n === 0;
    document.title = (n > 0 ? "(" + n + ") " : "") + baseTitle;
  }

  function setTurns(n) {
    if (!turns || typeof n !== "number") return;
    turns.querySelector("[data-your-turn-count]").textContent = String(n);
    turns.hidden = n === 0;
  }

  function noticeLink(notice) {
    const url = sitePath(notice.url);
    const el = document.createElement(url ? "a" : "span");
    if (url) el.href = url;
    el.textContent = notice.text;
    return el;
  }

  // An invitation (LP-9) is answered where it shows: Accept and Decline, the page's own
  // forms (the notices' <template>, with the page's CSRF token) aimed at this invitation.
  const INVITATION = /^\/invitations\/\d{1,18}\/$/;
  const answerTemplate = root.querySelector("template[data-invitation-answer]");

  function answerForms(notice) {
    const url = sitePath(notice.url);
    if (notice.kind !== "invitation" || !answerTemplate || !INVITATION.test(url)) return null;
    const box = answerTemplate.content.firstElementChild.cloneNode(true);
    box.querySelectorAll("form[data-answer]").forEach(function (form) {
      form.action = url + form.dataset.answer + "/";
    });
    box.querySelectorAll(".visually-hidden").forEach(function (span) {
      span.textContent = ": " + notice.text;
    });
    return box;
  }

  function listItem(notice) {
    const item = document.createElement("li");
    item.className = "notice notice-" + notice.kind;
    item.dataset.noticeId = String(notice.id);
    item.setAttribute("data-testid", "notice");
    const time = document.createElement("time");
    time.dateTime = notice.created_at;
    time.textContent = gettext("just now");
    item.append(noticeLink(notice), " ", time);
    const answer = answerForms(notice);
    if (answer) item.append(answer);
    return item;
  }

  function showList(notices) {
    // The server's newest unread, newest first: what the list shows, in that order.
    const items = notices.map(function (notice) {
      return list.querySelector('[data-notice-id="' + notice.id + '"]') || listItem(notice);
    });
    list.replaceChildren.apply(list, items.slice(0, SHOWN));
    empty.hidden = items.length > 0;
  }

  function addToList(notice) {
    if (!list.querySelector('[data-notice-id="' + notice.id + '"]')) list.prepend(listItem(notice));
    while (list.children.length > SHOWN) list.lastElementChild.remove();
    empty.hidden = true;
  }

  function removeFromList(ids) {
    list.querySelectorAll("[data-notice-id]").forEach(function (item) {
      if (ids === "all" || ids.indexOf(Number(item.dataset.noticeId)) >= 0) item.remove();
    });
    empty.hidden = list.children.length > 0;
  }

  function toast(notice) {
    const box = document.createElement("div");
    box.className = "toast toast-" + notice.kind;
    box.dataset.noticeId = String(notice.id);
    box.setAttribute("data-testid", "notice-toast");
    const text = document.createElement("p");
    text.append(noticeLink(notice));
    const close = document.createElement("button");
    close.type = "button";
    close.className = "toast-close";
    close.setAttribute("aria-label", gettext("Dismiss this notice"));
    close.textContent = "\u00d7";
    close.addEventListener("click", function () { box.remove(); });
    box.append(text, close);
    const answer = answerForms(notice);
    if (answer) text.after(answer);
    toasts.append(box);
    // A toast stays while it is being read (pointer over it, or focus in it).
    let timer = setTimeout(function () { box.remove(); }, TOAST_MS);
    function hold() { clearTimeout(timer); }
    function release() { timer = setTimeout(function () { box.remove(); }, TOAST_MS / 2); }
    box.addEventListener("mouseenter", hold);
    box.addEventListener("focusin", hold);
    box.addEventListener("mouseleave", release);
    box.addEventListener("focusout", release);
  }

  function arrived(notice) {
    if (notice.id <= newest) return;
    newest = notice.id;
    addToList(notice);
    toast(notice);
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(frame));
    return true;
  }

  function onMessage(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "sync") {
      message.notices.slice().reverse().forEach(arrived);
      showList(message.notices);
      setUnread(message.unread);
      setTurns(message.turns);
    } else if (message.type === "turns") {
      setTurns(message.count);
    } else if (message.type === "notice") {
      arrived(message.notice);
      setUnread(message.unread);
    } else if (message.type === "read") {
      removeFromList(message.ids);
      document.querySelectorAll('[data-testid="notice-toast"]').forEach(function (box) {
        if (message.ids === "all" || message.ids.indexOf(Number(box.dataset.noticeId)) >= 0) box.remove();
      });
      setUnread(message.unread);
    } else if (message.type === "error") {
      console.warn("notices:", message.error);
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(
      scheme + location.host + root.dataset.socket + (atTable ? "?table=" + atTable[1] : "")
    );
    socket.addEventListener("open", function () { retries = 0; });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", function () {
      // Backoff with jitter, so that a restarted server is not met by every page at once.
      const delay = Math.min(RETRY_MAX_MS, 1000 * Math.pow(2, retries)) * (0.5 + Math.random() / 2);
      retries += 1;
      setTimeout(connect, delay);
    });
  }

  // Following a notice (from the list or a toast) marks it read; the page then leaves.
  document.addEventListener("click", function (event) {
    const link = event.target.closest("a");
    const holder = link && link.closest("[data-notice-id]");
    if (holder && (root.contains(holder) || toasts.contains(holder))) {
      send({ type: "read", ids: [Number(holder.dataset.noticeId)] });
    } else if (root.open && !root.contains(event.target)) {
      root.open = false;
    }
  });

  // Without the socket the form posts, and the page comes back with the list read.
  root.querySelector("[data-notices-read-all]").addEventListener("submit", function (event) {
    if (send({ type: "read", ids: "all" })) event.preventDefault();
  });

  root.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && root.open) {
      root.open = false;
      summary.focus();
    }
  });

  setInterval(function () { send({ type: "here" }); }, HEARTBEAT_MS);
  connect();
})();

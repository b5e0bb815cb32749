// A private table's link: the Copy button copies it (navigator.clipboard), or, where the
// browser will not (an insecure origin, a refused permission), selects it for the person to
// copy. Without JavaScript the button stays hidden and the field is a plain read-only one.
(function () {
  "use strict";

  function say(button, text) {
    const status = button.closest("section").querySelector(".copy-status");
    if (status) status.textContent = text;
  }

  function selectField(field, button) {
    field.focus();
    field.select();
    say(button, button.dataset.select);
  }

  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    const field = document.getElementById(button.dataset.copy);
    if (!field) return;
    button.hidden = false;
    field.addEventListener("focus", function () { field.select(); });
    button.addEventListener("click", function () {
      if (!navigator.clipboard || !window.isSecureContext) { selectField(field, button); return; }
      navigator.clipboard.writeText(field.value).then(
        function () { say(button, button.dataset.copied); },
        function () { selectField(field, button); }
      );
    });
  });
})();

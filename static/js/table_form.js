// A table's form lists every game's options, one fieldset per game: show only the chosen
// game's. Without this script every fieldset shows, and the server reads only the chosen one.
(() => {
  "use strict";
  for (const form of document.querySelectorAll("form.table-form")) {
    const game = form.querySelector('select[name="game"]');
    if (!game) continue;
    const show = () => {
      for (const fieldset of form.querySelectorAll("fieldset.game-options")) {
        fieldset.hidden = fieldset.dataset.game !== game.value;
      }
    };
    game.addEventListener("change", show);
    show();
  }
})();

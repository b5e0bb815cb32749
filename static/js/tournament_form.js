// The schedule form's format options: show those that apply to the chosen format (and game,
// for the table size; best of N only for heads-up matches). A hidden option is disabled, so
// it is not sent and the server takes its default. Without this script every option shows
// and the server still refuses a combination that does not fit.
(() => {
  "use strict";
  for (const form of document.querySelectorAll("form.table-form")) {
    const format = form.querySelector('select[name="format"]');
    const game = form.querySelector('select[name="game"]');
    const tableSize = form.querySelector('select[name="table_size"]');
    if (!format || !game) continue;
    const all = [...form.querySelectorAll(".format-option")];
    // The table size before best of N, which applies only if the table size is two.
    const options = [...all.filter((o) => !("headsUp" in o.dataset)), ...all.filter((o) => "headsUp" in o.dataset)];
    const applies = (option) => {
      if (!option.dataset.formats.split(" ").includes(format.value)) return false;
      if (option.dataset.games && !option.dataset.games.split(" ").includes(game.value)) return false;
      if ("headsUp" in option.dataset && tableSize && !tableSize.disabled) return tableSize.value === "2";
      return true;
    };
    const show = () => {
      for (const option of options) {
        const on = applies(option);
        option.hidden = !on;
        for (const input of option.querySelectorAll("input, select")) input.disabled = !on;
      }
    };
    for (const control of [format, game, tableSize]) control?.addEventListener("change", show);
    show();
  }
})();

// The home page's More options: an option of some rule sets only (data-rulesets) shows
// with them only. Without this script every option shows, its label naming its rules.
(function () {
  "use strict";

  function showFor(select) {
    document.querySelectorAll("[data-rulesets]").forEach(function (field) {
      field.hidden = field.dataset.rulesets.split(" ").indexOf(select.value) < 0;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var select = document.querySelector("#new-game select[name=ruleset]");
    if (!select) return;
    showFor(select);
    select.addEventListener("change", function () {
      showFor(select);
    });
  });
})();

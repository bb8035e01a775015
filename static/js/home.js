// The home page's New game form. More options: an option of some rule sets only
// (data-rulesets) shows with them only. Perfect play: where the site has not worked it
// out for the rules and options chosen (the form's data-unsolved, solver names as
// games.strategy.variant.Variant.name gives them), the Perfect computer and the coach
// are not offered, and the option and a note beside the coach say why. Without this script every option shows, its
// label naming its rules, and such a table's Perfect computer plays as Good and says so.
(function () {
  "use strict";

  function showFor(ruleset) {
    document.querySelectorAll("[data-rulesets]").forEach(function (field) {
      field.hidden = field.dataset.rulesets.split(" ").indexOf(ruleset) < 0;
    });
  }

  // The solver's name of the whole game the form asks for, or null where its table is
  // solved on the spot (forced order, upper section only): as Variant.name.
  function variantName(form) {
    var fields = form.elements;
    var ruleset = fields.ruleset.value;
    if (fields.forced_order.checked || fields.upper_only.checked) return null;
    var parts = [ruleset];
    if (fields.declared_target.checked) parts.push("declared");
    if (ruleset === "yatzy" && fields.upper_bonus.value === "25") parts.push("bonus25");
    if (ruleset === "yahtzee" && !fields.yahtzee_bonus.checked) parts.push("nobonus");
    return parts.join("-");
  }

  function offerPerfectPlay(form) {
    var unsolved = (form.dataset.unsolved || "").split(" ");
    var missing = unsolved.indexOf(variantName(form)) >= 0;
    var perfect = form.querySelector("select[name=bot_level] option[value=perfect]");
    if (perfect) {
      if (!perfect.dataset.offered) perfect.dataset.offered = perfect.textContent;
      if (missing && perfect.selected) form.elements.bot_level.value = "good";
      perfect.disabled = missing;
      // the option says why it is not offered: on a phone there is no room for more
      perfect.textContent = missing ? form.dataset.perfectUnsolved : perfect.dataset.offered;
    }
    var coach = form.elements.coach;
    if (coach) {
      if (missing) coach.checked = false;
      coach.disabled = missing;
    }
    form.querySelectorAll(".unsolved-note").forEach(function (note) {
      note.hidden = !missing;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("new-game");
    if (!form || !form.elements.ruleset) return;
    function update() {
      showFor(form.elements.ruleset.value);
      offerPerfectPlay(form);
    }
    update();
    form.addEventListener("change", update);
    // A second press while the first is on its way (a double click) is not sent: it
    // would make a second table, or, in a browser the site has not met yet (no session
    // to tell the two apart), pair Play someone now with itself.
    var sent = false;
    form.addEventListener("submit", function (event) {
      if (sent) event.preventDefault();
      sent = true;
    });
    window.addEventListener("pageshow", function () { sent = false; });
  });
})();

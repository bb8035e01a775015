// Little on top of htmx: follow a table that moved on (game started, play again),
// tell a player in the tab title that it is their turn, and copy the invite link.
(function () {
  "use strict";
  var baseTitle = document.title;

  function afterUpdate() {
    var moved = document.querySelector("[data-redirect]");
    if (moved) {
      window.location.assign(moved.getAttribute("data-redirect"));
      return;
    }
    var table = document.getElementById("table");
    var myTurn = table && table.getAttribute("data-live") === "1";
    document.title = myTurn ? "▶ " + baseTitle : baseTitle;
  }

  document.addEventListener("htmx:afterSettle", afterUpdate);
  document.addEventListener("htmx:oobAfterSwap", afterUpdate);
  document.addEventListener("DOMContentLoaded", afterUpdate);

  document.addEventListener("click", function (event) {
    var button = event.target.closest("[data-copy]");
    if (!button) return;
    var field = document.querySelector(button.getAttribute("data-copy"));
    field.select();
    if (navigator.clipboard) navigator.clipboard.writeText(field.value);
  });

  // Swap 4xx answers too: they carry the table with a message saying what was refused.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 400 && status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();

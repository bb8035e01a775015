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

  // A laptop waking from sleep or a phone coming back online may hold a socket that
  // died silently: fetch the table once, so the page is right before the socket is.
  function resync() {
    var table = document.getElementById("table");
    if (table && window.htmx) {
      window.htmx.ajax("GET", window.location.pathname, { target: "#table", swap: "outerHTML" });
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") resync();
  });
  window.addEventListener("online", resync);

  // Swap 4xx answers too: they carry the table with a message saying what was refused.
  document.addEventListener("htmx:beforeSwap", function (event) {
    var status = event.detail.xhr.status;
    if (status >= 400 && status < 500) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();

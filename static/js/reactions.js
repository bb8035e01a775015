// Quick reactions: each one the table's socket adds to #reactions shows for a moment,
// then goes (the words stay on the page no longer than a glance needs). A player's
// reactions can be muted (.mute-toggle, data-mute: their name): this browser remembers
// it for this table, and shows none of theirs.
(function () {
  "use strict";

  var SHOWN_MS = 4000;
  var key = "yatzy-muted:" + location.pathname;

  function muted() {
    try {
      return JSON.parse(window.localStorage.getItem(key) || "[]");
    } catch (error) {
      return [];
    }
  }

  function setMuted(names) {
    try {
      window.localStorage.setItem(key, JSON.stringify(names));
    } catch (error) { /* private mode: muted for this page only */ }
  }

  function showToggles(names) {
    document.querySelectorAll(".mute-toggle").forEach(function (button) {
      button.hidden = false;
      var on = names.indexOf(button.dataset.mute) >= 0;
      button.setAttribute("aria-pressed", on ? "true" : "false");
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var place = document.getElementById("reactions");
    if (!place || !window.MutationObserver) return;
    var names = muted();
    showToggles(names);
    document.addEventListener("click", function (event) {
      var button = event.target.closest(".mute-toggle");
      if (!button) return;
      var name = button.dataset.mute;
      names = names.indexOf(name) >= 0
        ? names.filter(function (other) { return other !== name; })
        : names.concat([name]);
      setMuted(names);
      showToggles(names);
    });
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType !== 1) return;
          if (names.indexOf(node.dataset.from) >= 0) {
            node.remove();
            return;
          }
          window.setTimeout(function () {
            node.remove();
          }, SHOWN_MS);
        });
      });
    }).observe(place, { childList: true });
  });
})();

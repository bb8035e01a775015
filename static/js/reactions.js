// Quick reactions: each one the table's socket adds to #reactions shows for a moment,
// then goes (the words stay on the page no longer than a glance needs).
(function () {
  "use strict";

  var SHOWN_MS = 4000;

  document.addEventListener("DOMContentLoaded", function () {
    var place = document.getElementById("reactions");
    if (!place || !window.MutationObserver) return;
    new MutationObserver(function (changes) {
      changes.forEach(function (change) {
        change.addedNodes.forEach(function (node) {
          if (node.nodeType !== 1) return;
          window.setTimeout(function () {
            node.remove();
          }, SHOWN_MS);
        });
      });
    }).observe(place, { childList: true });
  });
})();

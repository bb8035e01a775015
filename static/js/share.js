// "Copy" beside a text to share (the daily challenge's result): copies it to the
// clipboard and says so. Without this script, or without a clipboard, the text
// stays selectable in its box. Its own attribute (data-share-copy), not the
// invite link's data-copy, which table.js copies by a selector.
(function () {
  "use strict";

  function copy(button) {
    const text = document.getElementById(button.dataset.shareCopy);
    const result = button.parentElement.querySelector("[data-copy-result]");
    navigator.clipboard.writeText(text.value).then(
      function () { result.textContent = button.dataset.copied; },
      function () {
        text.select();
        result.textContent = button.dataset.notCopied;
      }
    );
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("[data-share-copy]").forEach(function (button) {
      if (!navigator.clipboard) {
        return;
      }
      button.hidden = false;
      button.addEventListener("click", function () { copy(button); });
    });
  });
})();

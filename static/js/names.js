// A name field keeps to the characters a name may have (data-max-characters: 40), each
// line of a list of names on its own, counted as the server counts them: as the reader
// sees them, an emoji or a letter with its accents one each (Unicode's graphemes, which
// Intl.Segmenter finds). The browser's own maxlength counts UTF-16 code units, two for an
// emoji: it is taken off where this count is made, and stays where it cannot be (an old
// browser), where the server's answer says what is too long.
(function () {
  "use strict";
  if (!window.Intl || !Intl.Segmenter) return;
  var graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });
  var FIELDS = "[data-max-characters]";

  function cut(line, most) {
    var parts = Array.from(graphemes.segment(line));
    if (parts.length <= most) return line;
    return parts.slice(0, most).map(function (part) {
      return part.segment;
    }).join("");
  }
  function fit(field) {
    var most = Number(field.getAttribute("data-max-characters"));
    var fitted = field.value.split("\n").map(function (line) {
      return cut(line, most);
    }).join("\n");
    if (fitted === field.value) return;
    // what was typed past the limit is left out, and the caret stays where it was
    var caret = Math.min(field.selectionEnd, fitted.length);
    field.value = fitted;
    field.setSelectionRange(caret, caret);
  }
  function onInput(event) {
    var field = event.target;
    if (event.isComposing || !field.matches || !field.matches(FIELDS)) return;
    fit(field);
  }
  document.addEventListener("input", onInput);
  document.addEventListener("compositionend", onInput); // a word an input method made
  document.addEventListener("DOMContentLoaded", function () {
    // (a name the page came back with, refused, stays as it was typed, as its refusal says)
    document.querySelectorAll(FIELDS).forEach(function (field) {
      field.removeAttribute("maxlength");
    });
  });
})();

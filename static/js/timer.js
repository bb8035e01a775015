// The turn timer: counts down to the turn's end (data-deadline, ms since the epoch by
// the server's clock) in the words the table gives (data-left). The table is replaced
// at every move, so the timer is looked for again at each tick. The server skips the
// turn when its time runs out; the push that says so brings the next turn's timer.
//
// The count goes by the server's clock, not the browser's, which may be minutes off:
// this script's data-now is the server's time as it made the page, taken to be the
// browser's time when the page's first byte came (the navigation's responseStart).
(function () {
  "use strict";

  var serverNow = Number(document.currentScript && document.currentScript.dataset.now);
  var arrived = Date.now();
  var navigation = window.performance && performance.getEntriesByType
    ? performance.getEntriesByType("navigation")[0] : null;
  if (navigation && navigation.responseStart > 0) {
    // the browser's clock then: now, less the time since (a difference of the
    // monotonic clock, right however far off the browser's clock is)
    arrived -= Math.max(0, performance.now() - navigation.responseStart);
  }
  var ahead = serverNow ? serverNow - arrived : 0; // the server's clock less the browser's

  function tick() {
    var timer = document.querySelector(".turn-timer[data-deadline]");
    if (!timer) return;
    var now = Date.now() + ahead;
    var left = Math.max(0, Math.ceil((Number(timer.dataset.deadline) - now) / 1000));
    var time = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
    var words = timer.dataset.left.replace("{time}", time);
    if (timer.textContent !== words) timer.textContent = words;
    timer.classList.toggle("running-out", left <= 10);
  }

  document.addEventListener("DOMContentLoaded", function () {
    tick();
    window.setInterval(tick, 500);
  });
})();

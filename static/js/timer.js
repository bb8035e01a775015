// The turn timer: counts down to the turn's end (data-deadline, ms since the epoch by
// the server's clock) in the words the table gives (data-left). The table is replaced
// at every move, so the timer is looked for again at each tick. The server skips the
// turn when its time runs out; the push that says so brings the next turn's timer.
(function () {
  "use strict";

  function tick() {
    var timer = document.querySelector(".turn-timer[data-deadline]");
    if (!timer) return;
    var left = Math.max(0, Math.ceil((Number(timer.dataset.deadline) - Date.now()) / 1000));
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

// Quick play's waiting page: live over its socket (games/quick_socket.py). The list of
// who waits for which rules is swapped in as it changes; once a stranger has pressed
// too (or this browser waits no more) the page goes where the server says. After
// NOBODY_FOR_S seconds with nobody, the computer is offered again.
(() => {
  "use strict";
  const page = document.querySelector("[data-quick-socket]");
  if (!page) return;
  const counts = document.getElementById("quick-counts");
  const nobody = document.getElementById("quick-nobody");
  let tries = 0;
  let going = false;

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${page.dataset.quickSocket}`);
    socket.addEventListener("open", () => { tries = 0; });
    socket.addEventListener("message", (event) => {
      if (going) return;
      const message = JSON.parse(event.data);
      if (message.counts !== undefined) counts.innerHTML = message.counts;
      if (message.go) {
        going = true;
        location.assign(message.go);
      }
    });
    socket.addEventListener("close", (event) => {
      // sent on (4000), or too many sockets from this browser (the page stays as it is)
      if (going || event.code === 4000 || event.code === 4429 || event.code === 4409) return;
      tries += 1;
      setTimeout(connect, Math.min(10000, 500 * 2 ** tries));
    });
  }

  // a button pressed here (stop, the computer, other rules) goes where its answer says
  document.addEventListener("submit", () => { going = true; });
  const waited = Number(page.dataset.waitedS || 0);
  const nobodyFor = Number(page.dataset.nobodyForS || 30);
  setTimeout(() => { nobody.hidden = false; }, Math.max(0, nobodyFor - waited) * 1000);
  // a page brought back from the browser's cache asks the server again where it stands
  window.addEventListener("pageshow", (event) => { if (event.persisted) location.reload(); });
  connect();
})();

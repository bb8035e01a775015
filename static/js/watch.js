// The Watch page's list, live: each list its socket brings (games/watch_socket.py,
// the same bytes for every page in its language) takes the place of the last.
(() => {
  "use strict";
  const place = document.querySelector("[data-watch-socket]");
  if (!place) return;
  let tries = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${place.dataset.watchSocket}`);
    socket.addEventListener("open", () => { tries = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.games !== undefined) place.innerHTML = message.games;
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4429 || event.code === 4409) return;  // too many: no more tries
      tries += 1;
      setTimeout(connect, Math.min(10000, 500 * 2 ** tries));
    });
  }
  connect();
})();

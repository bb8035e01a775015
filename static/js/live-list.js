// A live list (the Watch page's games, the Open tables page's rooms): each list its
// socket brings (games/list_socket.py, the same bytes for every page in its language)
// takes the place of the last. The socket's message is {key: html}, the key the
// place's data-list-key.
(() => {
  "use strict";
  const place = document.querySelector("[data-list-socket]");
  if (!place) return;
  const key = place.dataset.listKey;
  let tries = 0;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${place.dataset.listSocket}`);
    socket.addEventListener("open", () => { tries = 0; });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message[key] !== undefined) place.innerHTML = message[key];
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4429 || event.code === 4409) return;  // too many: no more tries
      tries += 1;
      setTimeout(connect, Math.min(10000, 500 * 2 ** tries));
    });
  }
  connect();
})();

// Registers the site's service worker (/sw.js), which shows the offline page in place of
// a page the network could not bring. The worker is told the page's language, so that
// its offline page speaks it: after a change of language the browser installs a worker
// for the new one, which keeps that language's page too.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return; // an old browser, or a page not over HTTPS
  var worker = document.currentScript.getAttribute("data-worker");
  // after the page's own loads, which come first
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function (error) {
      console.warn("No offline page: the service worker was not registered.", error);
    });
  });
})();

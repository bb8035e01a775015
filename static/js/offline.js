// Registers the site's service worker (/sw.js), which shows the offline page in place of
// a page the network could not bring, in the language of the last page the site sent.
// It is one worker for every language (templates/sw.js): a change of language
// registers the same script again, which the browser leaves as it is.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return; // an old browser, or a page not over HTTPS
  var worker = document.currentScript.getAttribute("data-worker");
  // after the page's own loads, which come first
  window.addEventListener("load", function () {
    navigator.serviceWorker.register(worker, { scope: "/" }).catch(function (error) {
      console.warn("No offline page: the service worker was not registered.", error);
    });
    // its offline page in this page's language, also before the worker had this page
    navigator.serviceWorker.ready.then(function (registration) {
      registration.active.postMessage({ language: document.documentElement.lang });
    });
  });
})();

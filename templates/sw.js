{% autoescape off %}// The site's service worker (games/views/pwa.py). It keeps the offline page, in every
// language, and what that page shows, and nothing else: a page is always asked of the
// network first, and only when the network fails is the offline page shown in its
// place, in the language of the last page the site sent (its Content-Language). A table,
// a move (a POST), an htmx request and the table's WebSocket (which never passes
// through a service worker) are never kept nor answered from what is kept.
//
// One worker for every language: this script is the same whatever the page's language,
// so that a change of language installs no new worker (one that took over while the
// next page loaded left that page's load hanging, now and then).
"use strict";

const CACHE = {{ cache }};
const OFFLINE_PAGES = {{ offline_pages }}; // by language
const DEFAULT_LANGUAGE = {{ default_language }};
const PRECACHED = {{ precached }};
// where the language of the last page is kept: the worker's own variables go when the
// browser stops it, as it does whenever it is idle
const LANGUAGE_KEY = new URL("/offline/language", self.location).href;
const PRECACHED_URLS = new Set(PRECACHED.map((path) => new URL(path, self.location).href));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      // from the server, not from the browser's HTTP cache, which may hold an older page
      .then((cache) => cache.addAll(PRECACHED.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      // a deploy's worker has a cache of another name: the old worker's goes
      for (const name of await caches.keys()) {
        if (name !== CACHE) await caches.delete(name);
      }
      // a page's request starts while the worker starts, instead of after
      if (self.registration.navigationPreload) {
        await self.registration.navigationPreload.enable();
      }
      await self.clients.claim();
    })()
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || request.headers.has("HX-Request")) return;
  if (request.mode === "navigate") {
    event.respondWith(pageOrOffline(event));
  } else if (PRECACHED_URLS.has(request.url)) {
    event.respondWith(fetch(request).catch(() => kept(request.url)));
  }
});

async function pageOrOffline(event) {
  let page;
  try {
    page = (await event.preloadResponse) || (await fetch(event.request));
  } catch (error) {
    return kept(OFFLINE_PAGES[await lastLanguage()]);
  }
  await remember(page.headers.get("Content-Language"));
  return page;
}

// A page tells its language once loaded (static/js/offline.js): the first page, which
// loaded before this worker ran, too
self.addEventListener("message", (event) => {
  event.waitUntil(remember(event.data && event.data.language));
});

let remembered = null; // the last language kept, while this worker runs
let remembering = Promise.resolve(); // its keeping, one after the other

function remember(language) {
  remembering = remembering.then(() => keep(language)).catch(() => {});
  return remembering;
}

async function keep(language) {
  if (!(language in OFFLINE_PAGES) || language === remembered) return;
  const cache = await caches.open(CACHE);
  await cache.put(LANGUAGE_KEY, new Response(language));
  remembered = language;
}

// The language of the last page the site sent; before any, the first of the browser's
// that the site speaks
async function lastLanguage() {
  await remembering;
  const kept = await (await caches.open(CACHE)).match(LANGUAGE_KEY);
  const language = kept ? await kept.text() : null;
  if (language in OFFLINE_PAGES) return language;
  const browsers = navigator.languages.map((tag) => tag.toLowerCase().split("-")[0]);
  return browsers.find((tag) => tag in OFFLINE_PAGES) || DEFAULT_LANGUAGE;
}

async function kept(url) {
  const cache = await caches.open(CACHE);
  return (await cache.match(url)) || Response.error();
}
{% endautoescape %}

{% autoescape off %}// The site's service worker (games/views/pwa.py). It keeps the offline page and what
// that page shows, and nothing else: a page is always asked of the network first, and
// only when the network fails is the offline page shown in its place. A table, a move
// (a POST), an htmx request and the table's WebSocket (which never passes through a
// service worker) are never kept nor answered from what is kept.
"use strict";

const CACHE = {{ cache }};
const OFFLINE_PAGE = {{ offline_page }};
const PRECACHED = {{ precached }};
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
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch (error) {
    return kept(OFFLINE_PAGE);
  }
}

async function kept(url) {
  const cache = await caches.open(CACHE);
  return (await cache.match(url)) || Response.error();
}
{% endautoescape %}

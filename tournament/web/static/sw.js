// The tables' service worker (served at /sw.js, its scope the whole server): a table's page opened
// once opens again while the laptop is out of reach.  What it keeps, in one cache:
// * the table's page (/t/KEY, the one the phone opened: kept from its first opening, see
//   "message") and the table's state (GET /api/v1/tables/R/T): network first, the copy kept from
//   the last answer when the server does not answer;
// * the scripts, the styles and the phone's engine (/static/…, its worker's script and
//   /static/pyodide/… when the engine's files are served): from the cache first, refreshed from the server behind it.
// Nothing else is kept, and no write ever passes through a cache: the page's own outbox (IndexedDB,
// table.js) keeps the writes made offline.  Browsers run a service worker only in a secure
// context (https, or 127.0.0.1/localhost): on a hall's plain http address this file is never
// registered, and the page keeps working through a drop without it (docs/venue.md).
"use strict";
const CACHE = "domrec-tables-7";  // (renamed whenever the scripts change together: a phone takes them all anew)
const STATIC = ["/static/dom.js", "/static/table.js", "/static/table_director.js", "/static/venue.css"];
const ENGINE = ["/static/engine.js", "/static/engine_worker.js"];  // the phone's engine, when this server has it

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    await cache.addAll(STATIC);
    // The engine's files are kept once fetched; its first one here, if this server serves it.
    await Promise.all(ENGINE.map((url) => cache.add(url).catch(() => null)));
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
    await self.clients.claim();
  })());
});

const STATE = /^\/api\/v1\/tables\/\d+\/\d+$/;

// The first time a table's link is opened the page comes before this worker (it is registered by
// the page): the page then asks for itself to be kept ({keep: "/t/KEY"}), and is told once it is
// ({kept}), so that a phone that opened its link once opens it again with the laptop out of reach.
// The engine's files are kept by the same worker, told of them by the page once the engine is
// ready ({files: ["/static/…", …]}): on the link's first opening the engine starts loading before
// this worker takes the page, so what it fetched then went past it and was not kept, and the page
// opened again offline had the table but no engine (every play kept unchecked).
self.addEventListener("message", (event) => {
  const files = event.data && event.data.files;
  if (Array.isArray(files)) {
    event.waitUntil(keepFiles(files).catch(() => null));
    return;
  }
  const path = event.data && event.data.keep;
  if (typeof path !== "string" || !/^\/t\/[A-Za-z0-9_-]+$/.test(path)) return;
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    const response = await fetch(path, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) return;
    await cache.put(self.location.origin + path, response);
    if (event.source) event.source.postMessage({ kept: path });
  })().catch(() => null));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/static/")) event.respondWith(cacheFirst(request));
  else if (url.pathname.startsWith("/t/")) event.respondWith(networkFirst(request, url.origin + url.pathname, true));
  else if (STATE.test(url.pathname)) {
    // Only a whole state is kept (a request naming the hands the page holds gets the rest only; the
    // phone's engine reading the table's log, ?log=, gets no state, or more than one).
    event.respondWith(networkFirst(request, url.origin + url.pathname,
                                   !url.searchParams.has("hands") && !url.searchParams.has("log")));
  }
});

async function keepFiles(files) {
  const cache = await caches.open(CACHE);
  for (const path of files) {
    if (typeof path !== "string" || !/^\/static\/[A-Za-z0-9_.\/-]+$/.test(path) || path.includes("..")) continue;
    const url = self.location.origin + path;
    if (!(await cache.match(url, { ignoreVary: true }))) await cache.add(url).catch(() => null);
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request, { ignoreVary: true });
  const fresh = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  if (kept) { fresh.catch(() => null); return kept; }
  return fresh;
}

async function networkFirst(request, key, keep) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (keep && response.ok) await cache.put(key, response.clone());
    return response;
  } catch (e) {
    const kept = await cache.match(key, { ignoreVary: true, ignoreSearch: true });
    if (!kept) throw e;
    // Said to be the kept copy, so that the page knows the server did not answer (a page already
    // open keeps the table it holds, newer than this copy).
    const headers = new Headers(kept.headers);
    headers.set("x-domrec-kept", "1");
    return new Response(await kept.blob(), { status: kept.status, statusText: kept.statusText, headers });
  }
}

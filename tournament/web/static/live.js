// The public pages follow the event: when a result is confirmed or a round paired, the page's main
// region is fetched again (?part=main) and swapped in, without a reload.  How it hears of a change:
// the server's live stream (/live, Server-Sent Events) sends the public pages' revision, which moves
// with a result, a round, a correction or a name, never with a table's move (a page that shows the
// tables' statuses, data-follow="tables", follows every change of the event); where that fails (an old browser, a proxy, too many streams open) the page asks every few
// seconds instead.  A phone that slept catches up the moment it is looked at again, or is back
// online.  Nothing here runs from a file (file://): a page written by `tournament report` is read
// as it was written.
// One stream for all the tabs of a hall in one browser: over HTTP/1.1 a browser opens at most six
// connections to a host, and six tabs each holding a stream left none for a seventh page (it never
// loaded) nor for the open pages' fetches.  So the tabs that follow the same stream elect one of
// them with a lock (Web Locks, held for the tab's life) to hold it, and it passes each message on
// to the others (BroadcastChannel); when that tab closes, the lock goes to another, which opens the
// stream.  A browser without either (or a page not in a secure context, where there are no locks)
// holds a stream of its own, as before.
"use strict";
(function () {
  const main = document.getElementById("main");
  if (!main || !/^https?:$/.test(location.protocol) || !window.fetch) return;
  const POLL_MS = 5000;
  let seq = Number(main.dataset.seq || 0), heard = seq, busy = false, again = false, source = null, poller = null;
  // Over how long the hall's phones spread their fetches after a change (the server says: longer in
  // a larger hall, so the tables' moves never wait behind the whole hall's fetches).
  let spread = 400;
  const live = main.dataset.live || "/live";  // on a federation's hub, the event's own stream
  const stream = main.dataset.follow === "tables" ? live + "?follow=tables" : live;
  // Shared: not yet holding the lock, this tab hears the stream from the tab that holds it.
  let shared = !!(window.EventSource && window.BroadcastChannel && navigator.locks), holding = false, last = null;
  const channel = shared ? new BroadcastChannel("domrec-live " + stream) : null;

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const url = new URL(location.href);
      url.hash = "";
      url.searchParams.set("part", "main");
      url.searchParams.set("since", String(seq));
      // The page's own language, named: the fetch sends no cookie, so a page whose language the
      // cookie kept (reached from the menu, no ?lang=) was swapped for the hall's default.
      if (!url.searchParams.has("lang") && document.documentElement.lang) url.searchParams.set("lang", document.documentElement.lang);
      const r = await fetch(url, { cache: "no-store", credentials: "omit" });
      if (r.status === 200) {
        const html = await r.text();
        const next = Number(r.headers.get("X-Seq") || seq);
        main.innerHTML = html;  // made by the server, every value escaped there
        seq = next;
        main.dataset.seq = String(next);
        document.dispatchEvent(new CustomEvent("live:updated", { detail: { seq: next } }));
      }
      // A page made just before the change we heard of says so (an older number): ask again.
      if (seq < heard) setTimeout(refresh, 700);
    } catch (e) {
      // no connection just now: the next change, the next poll or the phone waking tries again
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  function poll(on) {
    if (on && !poller) poller = setInterval(() => { if (!document.hidden) refresh(); }, POLL_MS);
    if (!on && poller) { clearInterval(poller); poller = null; }
  }

  // A message of the stream, from this tab's own stream or passed on by the tab that holds it.
  function hear(kind, data) {
    if (kind === "seq") {
      last = data;
      heard = Math.max(heard, Number(data));
      // A moment's random wait: the hall's phones do not all ask in the same instant.
      if (Number(data) !== seq && !document.hidden) setTimeout(refresh, Math.random() * spread);
    } else if (kind === "spread") spread = Math.min(5000, Number(data) || 400);
    else if (kind === "open") poll(false);
    // The browser reconnects by itself after a dropped stream; until it does, and for good when it
    // gives up (the server said 503), the page asks every few seconds.
    else if (kind === "error") poll(true);
  }

  function listen() {
    if (!window.EventSource) { poll(true); return; }
    if (shared && !holding) return;  // another tab holds the stream and passes it on
    if (source && source.readyState !== EventSource.CLOSED) return;
    source = new EventSource(stream);
    for (const kind of ["seq", "spread", "open", "error"]) {
      source.addEventListener(kind, (e) => {
        hear(kind, e.data);
        if (holding) channel.postMessage({ kind: kind, data: e.data });
      });
    }
  }

  if (shared) {
    channel.onmessage = (e) => {
      const m = e.data || {};
      if (m.kind !== "hello") { if (!holding) hear(m.kind, m.data); return; }
      // A tab just opened: what the stream said last, as the stream says it to a new listener.
      if (!holding || !source) return;
      if (last !== null) channel.postMessage({ kind: "seq", data: last });
      channel.postMessage({ kind: "spread", data: String(spread) });
      channel.postMessage({ kind: source.readyState === EventSource.OPEN ? "open" : "error" });
    };
    channel.postMessage({ kind: "hello" });
    // The lock is held until the tab closes (the promise never settles): then the next tab's turn.
    navigator.locks.request("domrec-live " + stream, () => {
      holding = true;
      listen();
      return new Promise(() => {});
    }).catch(() => { shared = false; channel.close(); listen(); });  // no lock to be had: a stream of its own
  }

  function wake() {
    if (document.hidden) return;
    refresh();
    listen();
  }
  document.addEventListener("visibilitychange", wake);
  window.addEventListener("online", wake);
  window.addEventListener("pageshow", (e) => { if (e.persisted) wake(); });
  listen();
})();

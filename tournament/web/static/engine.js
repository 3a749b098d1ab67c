// The phone's engine: domrec's own Python rules, run in this browser by Pyodide, so that a table
// can check its plays when the laptop is out of reach (docs/venue.md, "The engine in the phone").
//
// Nothing of a rule is written here.  This script only starts the engine's worker
// (engine_worker.js, a module worker: no Python ever runs on the page's thread), which loads Pyodide
// (served by the laptop from the package, under its version: /static/pyodide/VERSION/) and domrec's
// modules (one zip made from the server's installed code: /static/engine/DIGEST/domrec.zip), once
// the page is drawn and idle, so it never delays the first tap; then it asks the worker what
// tournament.event.phone, the same Python the server answers with, says the server would answer.
// Where the browser runs no module workers, the engine fails (status "failed", error: why).
//
//   window.domrecEngine = {
//     status: "loading" | "ready" | "failed",    (also <body data-engine="…">, kept current; and
//                                                  <body data-engine-rev>: the revision of the
//                                                  table's log the engine holds)
//     ready: a Promise, resolved once the engine can answer (rejected if it cannot load),
//     answer(table, write, lang) -> Promise of {status, body, row}:
//        table: {round, table, state}: the table as the page holds it (its last state, the server's
//               or the one an answer here made).  The engine keeps the table's log itself: fetched
//               from the server (GET /api/v1/tables/R/T?log=only) when it is ready and whenever the
//               page draws a new revision while the server answers, and the rows of the writes it
//               answers appended until the server's log is read again.  When the state the page
//               holds is not the one the kept log leaves, the log is read again first (if the
//               server answers; else the kept one is used).
//               Or, explicitly, a log ({template, facts, rows}: the "log" of that GET, with the
//               rows of the writes answered since appended): then it is used as given.
//        write: {path: "dgn" | "mode" | "call" | "state" | "options", body: the POST's object,
//                hands: the page's ?hands= key, tile: for "options"};
//        lang:  "en" or "es" (default: the page's language).
//        status and body are the server's answer to that write, word for word (a confirmation and
//        the director's writes are never answered here: 503, they wait for the connection); row:
//        the log row an accepted write adds ([rev, kind, body, time]), else null;
//     took(path, body, answer): the server took this page's write (path "/dgn", "/mode" or "/call",
//        the POST's object, the server's answer): its row appended to the kept log when it is the
//        next revision (the text as sent, the time as answered, which is the row the server logged),
//        so the log stays current without reading it again after every move; anything else (another
//        phone's write in between) and the log is read again once the table is still,
//     table(after) -> Promise of the table's "log" from the server (rows after revision `after`),
//     error: why it failed, when it did
//   }
"use strict";
(function () {
  // A page given another engine before this script runs (a program's own, a test's stand-in) keeps it.
  if (window.domrecEngine) return;
  const page = document.body.dataset;
  const api = `/api/v1/tables/${page.round}/${page.table}`;
  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // a failed engine is told by its status and data-engine, not as an unhandled rejection

  const engine = { status: "loading", ready, answer, table, took, error: null };
  window.domrecEngine = engine;
  function set(status) {
    engine.status = status;
    document.body.dataset.engine = status;
  }
  set("loading");

  // The engine's Python runs in a worker of its own (engine_worker.js): Pyodide's start, the imports
  // and every answer (a replay of the table's log) off the page's thread, so a tap is never held
  // while the engine boots or answers.  In the page, the boot in parts with the taps answered
  // between them still held a tap a fifth of a second a part on a laptop, more on a phone
  // (benchmarks/bench_phone_engine.py).  Where workers, or module workers, are missing, the engine
  // fails, as any engine that cannot load: the page records as before, offline writes kept unchecked.
  const WORKER = "/static/engine_worker.js";
  let worker = null;
  const pending = new Map();  // the answers asked of the worker: id -> {resolve, reject}
  let asked = 0;
  function boot() {
    return new Promise((resolve, reject) => {
      if (typeof window.Worker !== "function") throw new Error("this browser runs no web workers: the engine needs one");
      let module = false;  // (a browser without module workers never reads the option)
      worker = new Worker(WORKER, { get type() { module = true; return "module"; } });
      if (!module) {
        worker.terminate();
        worker = null;
        throw new Error("this browser runs no module workers: the engine needs one");
      }
      worker.addEventListener("message", (event) => {
        const data = event.data || {};
        if (data.ready) resolve(Array.isArray(data.files) ? data.files : []);
        else if (data.failed !== undefined) { stop(); reject(new Error(String(data.failed))); }
        else if (pending.has(data.id)) {
          const asker = pending.get(data.id);
          pending.delete(data.id);
          if (typeof data.answer === "string") asker.resolve(data.answer);
          else asker.reject(new Error(String(data.error)));
        }
      });
      // A worker that cannot start (its script refused, not a module) or that breaks: while it
      // boots, the boot fails; once ready, its pending answers are refused and the engine has
      // failed (the page keeps its writes unchecked).
      const broken = (event) => {
        if (event.preventDefault) event.preventDefault();
        const why = new Error("the engine's worker stopped" + (event.message ? `: ${event.message}` : ""));
        stop(why);
        if (engine.status === "ready") {
          engine.error = why.message;
          set("failed");
        }
        reject(why);
      };
      worker.addEventListener("error", broken);
      worker.addEventListener("messageerror", broken);
      worker.postMessage({ boot: { pyodide: new URL(page.enginePyodide, location.href).href,
                                   bundle: new URL(page.engineBundle, location.href).href } });
    });
  }
  // The worker ended, and every answer it was asked refused.
  function stop(why) {
    if (worker) worker.terminate();
    worker = null;
    for (const asker of pending.values()) asker.reject(why || new Error("the engine's worker stopped"));
    pending.clear();
  }
  function ask(log, write, lang) {
    return new Promise((resolve, reject) => {
      if (!worker) { reject(new Error(engine.error || "the engine's worker stopped")); return; }
      const id = ++asked;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, log, write, lang });
    });
  }

  async function load() {
    const files = await boot();
    set("ready");
    resolveReady(engine);
    keepFiles(files);
    // The table's log, while the server answers.  A first read that fails (a server too busy to
    // answer within its 4 seconds as the page opened, a Wi-Fi gone for a moment) is tried again,
    // 1, 2, 4 … 30 seconds apart, until the server's log is held: nothing else reads it while the
    // table does not move (below), and until then every play made offline is kept unchecked.
    const firstRead = (pause) => refresh().then((restored) => restored, () => true).then((again) => {
      if (again) setTimeout(() => firstRead(Math.min(pause * 2, 30000)), pause);
    });
    firstRead(1000);
    // Kept up to date as the page draws the table (table.js writes data-rev): the new rows only,
    // without the table's state (?log=only), once the table has been still for a moment.
    let soon = null;
    // The page's own writes keep the log current (took): it is read again only when the table
    // drawn is at a revision the kept log does not leave (another phone's write, a correction),
    // or once the writes answered here offline have left the page's outbox (<body data-outbox>
    // back to 0): the server logged them at its own times, or refused them, and a log that still
    // holds this phone's rows is not the table drawn, so the next drop kept every play unchecked.
    new MutationObserver(() => {
      clearTimeout(soon);
      soon = setTimeout(() => {
        const last = lastRow();
        const answered = held && served < held.rows.length && document.body.dataset.outbox === "0";
        if (!busy && (Number(document.body.dataset.rev) !== (last ? last[0] : 0) || answered)) refresh().catch(() => {});
      }, 800);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-rev", "data-outbox"] });
  }

  // The engine's files (its worker's script, Pyodide's files, the modules' zip), as this page and
  // the engine's worker fetched them (`fetched`: the worker's own list, which the page's does not
  // hold), named to the tables' service worker to keep for a page opened again offline: on the
  // link's first opening the engine loads before the service worker takes the page, and the
  // service worker does not see those fetches.
  function keepFiles(fetched) {
    const workers = navigator.serviceWorker;
    if (!workers || !window.isSecureContext) return;
    const here = performance.getEntriesByType("resource").map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith("/static/") && !url.search)
      .map((url) => url.pathname);
    const files = [...new Set([WORKER, ...here, ...fetched.filter((path) => typeof path === "string")])];
    workers.ready.then((reg) => reg.active && reg.active.postMessage({ files })).catch(() => null);
  }

  // The table's log as the engine keeps it: the server's rows (`served` of them), then the rows of
  // the writes answered here since.  Kept on the phone too (localStorage, by the table's key), as
  // the page keeps the table it drew: a page opened again while the laptop is out of reach finds
  // the log that table was drawn from, and goes on checking its plays (it had nothing to check
  // them against, and every tap was kept unchecked).
  let held = null, served = 0, busy = false;
  const STORE = "domrec.log." + page.token;
  const store = (() => { try { return window.localStorage; } catch (e) { return null; } })();
  const lastRow = () => (held && held.rows.length ? held.rows[held.rows.length - 1] : null);
  // For programs: the revision of the log the engine holds (<body data-engine-rev>).
  const heldRev = () => {
    document.body.dataset.engineRev = String(lastRow() ? lastRow()[0] : 0);
    try { store && held && store.setItem(STORE, JSON.stringify({ held, served })); } catch (e) { /* too big, or private */ }
  };
  // The log kept on the phone, when the server cannot be reached (and none is held yet).
  function restore() {
    try {
      const got = JSON.parse((store && store.getItem(STORE)) || "null");
      if (got && got.held && Array.isArray(got.held.rows) && got.held.template && got.held.facts) {
        held = got.held;
        served = Math.min(Number(got.served) || 0, held.rows.length);
        document.body.dataset.engineRev = String(lastRow() ? lastRow()[0] : 0);
        return true;
      }
    } catch (e) { /* nothing kept */ }
    return false;
  }
  // One read of the log at a time, and each read's rows put after the rows it asked after, as they
  // were when it asked: two reads at once (the page redrawn after a write, and a write's check)
  // each put what it read after the rows served by then, so the rows between came twice, and the
  // engine, replaying them, set them aside (a table the server does not hold). A row the page's
  // own write added meanwhile is read with the rest, or, read too late, makes the next check read
  // the log again.
  let reading = null;
  function refresh() {
    if (!reading) reading = readLog().finally(() => { reading = null; });
    return reading;
  }
  async function readLog() {
    busy = true;
    try {
      const known = held && served ? held.rows[served - 1][0] : 0;
      const before = known ? held.rows.slice(0, served) : [];
      const fresh = await table(known, 4000);
      const rows = known && fresh.after === known ? before.concat(fresh.rows) : fresh.rows;
      held = { template: fresh.template, facts: fresh.facts, rows };
      served = rows.length;
      heldRev();
      return false;
    } catch (e) {
      if (held || !restore()) throw e;
      return true;  // (the log kept on the phone)
    } finally {
      busy = false;
    }
  }
  // A duplicate table's board in play as the kept log leaves it (table_log.board_index): the first
  // of its boards neither closed in the log nor entered (or marked not played) in the event.
  function heldBoard() {
    const boards = held.facts.boards;
    if (!Array.isArray(boards)) return undefined;
    const closed = held.rows.filter((r) => r[1] === "board").map((r) => {
      try { return Number(JSON.parse(r[2]).board); } catch (e) { return null; }
    });
    const next = boards.find((b) => !b.entered && !closed.includes(b.board));
    return next ? next.board : null;
  }
  // The state the page holds is the one the kept log leaves: the same last write (revision and
  // time), the same result and, at a duplicate table, the same board in play (the director marks a
  // board not played, or takes a board's result back, without a write of the table's log).
  function inStep(state) {
    const last = lastRow();
    return Boolean(held) && state.rev === (last ? last[0] : 0) && (state.last_at || null) === (last ? last[3] : null)
      && JSON.stringify(state.result || null) === JSON.stringify(held.facts.result || null)
      && (state.board === undefined || state.board === heldBoard());
  }
  async function logFor(given) {
    if (given && given.template && given.rows) return given;
    const state = given && given.state;
    // A log that is not the table the page holds (another phone wrote, the director corrected, a
    // write was kept unchecked) is read again; if the server cannot be reached (or is too slow),
    // the engine does not check against the log it has: it would refuse or draw what the table is
    // not. It fails, and the write is kept unchecked (checked by the server when it is sent).
    if (!held || (state && !inStep(state))) {
      let restored = await refresh();
      // (a read begun before the table drawn was written, by the page itself: read once more)
      if (!restored && state && !inStep(state)) restored = await refresh();
      if (restored && state && !inStep(state)) throw new Error("the table's log kept on this phone is not the table drawn");
    }
    return held;
  }

  function start() {
    load().catch((e) => {
      engine.error = String((e && e.message) || e);
      set("failed");
      rejectReady(e);
    });
  }
  // After the page is drawn and idle: the first tap never waits for the engine.
  function later() {
    if (window.requestIdleCallback) window.requestIdleCallback(start, { timeout: 3000 });
    else setTimeout(start, 500);
  }
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });

  // The worker is asked one write at a time, each on the log as the answers before it left it:
  // an answer's row is appended before the next write is asked (as when the page's thread answered
  // at once), so two writes checked at once never both take the same revision.
  let answering = Promise.resolve();
  async function answer(given, write, lang) {
    await ready;
    let log = await logFor(given);
    const words = lang || document.documentElement.lang || "en";
    const run = answering.then(async () => {
      for (;;) {
        const kept = log === held, rows = log.rows.length;
        const said = JSON.parse(await ask(JSON.stringify(log), JSON.stringify(write), words));
        // The kept log moved while the worker answered (the server took a write of this page's,
        // or its log was read again): asked again on the log as it is now.
        if (kept && (held !== log || held.rows.length !== rows)) { log = held; continue; }
        if (said.row && kept) { held.rows.push(said.row); heldRev(); }
        return said;
      }
    });
    answering = run.catch(() => null);
    return run;
  }

  const KINDS = { "/dgn": (b) => b.text, "/mode": (b) => b.mode, "/call": () => "" };
  function took(path, body, answer) {
    const last = lastRow();
    if (!held || served !== held.rows.length || !(path in KINDS) || !answer || !body) return;
    if (typeof answer.rev !== "number" || answer.rev !== (last ? last[0] : 0) + 1) return;
    const text = KINDS[path](body);
    if (typeof text !== "string") return;
    held.rows.push([answer.rev, path.slice(1), text, answer.last_at || null]);
    served = held.rows.length;
    heldRev();
  }

  // What the engine replays the table from, as the server holds it now (`ms`: how long to wait
  // for the server before giving up: a network that drops without a word never answers).
  async function table(after, ms) {
    const stop = new AbortController();
    const timer = ms ? setTimeout(() => stop.abort(), ms) : null;
    try {
      const r = await fetch(`${api}?log=only${after ? `&after=${after}` : ""}`,
                            { headers: { "Authorization": "Bearer " + page.token }, cache: "no-store",
                              signal: stop.signal });
      if (!r.ok) throw new Error(`the table's log could not be read (${r.status})`);
      return (await r.json()).log;
    } finally {
      if (timer) clearTimeout(timer);
    }
  }
})();

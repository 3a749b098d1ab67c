// The phone's engine: domrec's own Python rules, run in this browser by Pyodide, so that a table
// can check its plays when the laptop is out of reach (docs/venue.md, "The engine in the phone").
//
// Nothing of a rule is written here.  This script only loads Pyodide (served by the laptop from
// the package, under its version: /static/pyodide/VERSION/) and domrec's modules (one zip made
// from the server's installed code: /static/engine/DIGEST/domrec.zip), once the page is drawn and
// idle, so it never delays the first tap; then it asks tournament.event.phone, the same Python the
// server answers with, what the server would answer.
//
//   window.domrecEngine = {
//     status: "loading" | "ready" | "failed",    (also <body data-engine="…">, kept current)
//     ready: a Promise, resolved once the engine can answer (rejected if it cannot load),
//     answer(table, write, lang) -> Promise of {status, body, row}:
//        table: the "log" of GET /api/v1/tables/R/T?log=1 ({template, facts, rows}), with the rows
//               of the writes answered here appended (each answer's "row");
//        write: {path: "dgn" | "mode" | "call" | "state" | "options", body: the POST's object,
//                hands: the page's ?hands= key, tile: for "options"};
//        lang:  "en" or "es" (default: the page's language).
//        status and body are the server's answer to that write, word for word (a confirmation and
//        the director's writes are never answered here: 503, they wait for the connection);
//     table(after) -> Promise of the table's "log" from the server (rows after revision `after`),
//     error: why it failed, when it did
//   }
"use strict";
(function () {
  const page = document.body.dataset;
  const api = `/api/v1/tables/${page.round}/${page.table}`;
  let phone = null;
  let resolveReady, rejectReady;
  const ready = new Promise((resolve, reject) => { resolveReady = resolve; rejectReady = reject; });
  ready.catch(() => {});  // a failed engine is told by its status and data-engine, not as an unhandled rejection

  const engine = { status: "loading", ready, answer, table, error: null };
  window.domrecEngine = engine;
  function set(status) {
    engine.status = status;
    document.body.dataset.engine = status;
  }
  set("loading");

  async function load() {
    const base = new URL(page.enginePyodide, location.href).href;
    const { loadPyodide } = await import(base + "pyodide.mjs");
    const py = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {} });
    const got = await fetch(page.engineBundle);
    if (!got.ok) throw new Error(`the engine's modules could not be fetched (${got.status})`);
    py.unpackArchive(new Uint8Array(await got.arrayBuffer()), "zip", { extractDir: "/home/pyodide/domrec-engine" });
    py.runPython("import sys; sys.path.insert(0, '/home/pyodide/domrec-engine')");
    phone = py.pyimport("tournament.event.phone");
    phone.warm();  // every engine imported now, not at the first move made offline
    set("ready");
    resolveReady(engine);
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

  async function answer(table, write, lang) {
    await ready;
    const said = phone.answer_json(JSON.stringify(table), JSON.stringify(write),
                                   lang || document.documentElement.lang || "en");
    return JSON.parse(said);
  }

  // What the engine replays the table from, as the server holds it now.
  async function table(after) {
    const r = await fetch(`${api}?log=1${after ? `&after=${after}` : ""}`,
                          { headers: { "Authorization": "Bearer " + page.token }, cache: "no-store" });
    if (!r.ok) throw new Error(`the table's log could not be read (${r.status})`);
    return (await r.json()).log;
  }
})();

// The phone's engine's Python, in a worker of its own (a module worker: Pyodide ships as a module
// alone), so that the table's page never runs Python on its own thread: Pyodide's start, the
// imports of domrec and of every game's engine, and each answer (a replay of the table's log)
// held the page's taps while they ran, a part of a second a boot and a write on a laptop, more on
// a phone (docs/venue.md, "The engine in the phone").  engine.js, on the page, keeps everything
// else: the table's log, what it reads from the server, the phone's copy of it.
//
// Served by its own route (tournament/web/app.py) with the table page's security policy: a worker
// runs under the policy its own script was answered with, and the static files' default forbids
// compiling WebAssembly.
//
// Its messages:
//   in:  {boot: {pyodide, bundle}}   the folder of the vendored Pyodide and the address of domrec's
//                                    modules (the page's data-engine-pyodide and data-engine-bundle),
//                                    first and once;
//        {id, log, write, lang}      a write to answer: the table's log and the write as JSON text;
//   out: {ready: true, files}        booted, every game's engine imported; files: the same-origin
//                                    /static/ files it fetched (for the page's service worker);
//        {failed: reason}            it could not boot;
//        {id, answer} | {id, error}  tournament.event.phone.answer_json's text, or why it threw.
// The answers are given one at a time, in the order asked: answer_json is synchronous.
let phone = null;
let booting = null;

// What stops a boot that Pyodide never ends: WebAssembly refused (this script answered with a
// policy that forbids compiling it: Pyodide says so on the console and its start never settles),
// or an error thrown where nothing awaits it.  The boot fails with it, as any boot that cannot end.
let stopBoot = () => {};
const stopped = new Promise((resolve, reject) => { stopBoot = reject; });
stopped.catch(() => {});
self.addEventListener("securitypolicyviolation", (event) => {
  stopBoot(new Error(`the engine's worker may not run what it needs (its security policy: ${event.violatedDirective})`));
});
self.addEventListener("unhandledrejection", (event) => {
  const why = event.reason;
  stopBoot(new Error(String((why && why.message) || why)));
});

self.addEventListener("message", (event) => {
  const data = event.data || {};
  if (data.boot) {
    if (!booting) booting = Promise.race([boot(data.boot), stopped]).then(
      () => self.postMessage({ ready: true, files: fetched() }),
      (e) => self.postMessage({ failed: String((e && e.message) || e) }));
    return;
  }
  if (data.id === undefined) return;
  if (!phone) { self.postMessage({ id: data.id, error: "the engine is not ready" }); return; }
  try {
    self.postMessage({ id: data.id, answer: phone.answer_json(data.log, data.write, data.lang || "en") });
  } catch (e) {
    self.postMessage({ id: data.id, error: String((e && e.message) || e) });
  }
});

async function boot(where) {
  const base = new URL(where.pyodide, self.location.href).href;
  const { loadPyodide } = await import(base + "pyodide.mjs");
  const py = await loadPyodide({ indexURL: base, stdout: () => {}, stderr: () => {} });
  const got = await fetch(new URL(where.bundle, self.location.href).href);
  if (!got.ok) throw new Error(`the engine's modules could not be fetched (${got.status})`);
  py.unpackArchive(new Uint8Array(await got.arrayBuffer()), "zip", { extractDir: "/home/pyodide/domrec-engine" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/domrec-engine')");
  const module = py.pyimport("tournament.event.phone");
  // every engine imported now, not at the first move made offline; in one piece: nothing waits
  // on this thread but the answers, and none is asked before ready
  module.warm();
  phone = module;
}

// The same-origin /static/ files this worker fetched (Pyodide's, the modules' zip): the page's own
// list of what it fetched does not hold them, and its service worker keeps both for a page opened
// again offline.
function fetched() {
  return performance.getEntriesByType("resource").map((entry) => new URL(entry.name))
    .filter((url) => url.origin === self.location.origin && url.pathname.startsWith("/static/") && !url.search)
    .map((url) => url.pathname);
}

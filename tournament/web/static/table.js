// The table page: one phone per table records the game through the venue's JSON API
// (docs/venue.md).  Every write carries the table's revision and its own id (cid); the server
// answers with the new state, or refuses in one line and changes nothing, and a write sent again
// with the same id is answered again, never applied twice.  The server's table is the table: a
// reload or another phone starts again from what the server holds.
//
// When the server cannot be reached (the hall's Wi-Fi drops), the table goes on: a write that
// finds no server goes into the phone's outbox (IndexedDB, per table key, in order; it survives
// closing the tab; where IndexedDB does not open, in the page's memory, said so: see db), and the
// phone's engine (engine.js, when it is loaded) checks it and draws the table it makes, as the
// server would; without the engine the write is kept unchecked, to be checked when sent.  The outbox is sent, in order, each write with its id, when the server
// answers again (on "online", and by trying again, waiting longer each time); a write leaves it
// only once the server has answered it.  A queued write the server refuses (the table moved on
// meanwhile, on another phone) is listed under the board with the server's reason, to retype or
// drop; the table's stored moves win.  A confirmation is not queued behind moves: unanswered, it is
// said to wait for the server and sent again with its id until the server answers (deliver); and
// it is kept in the outbox's storage meanwhile, so that a page opened again (reloaded, the
// browser killed) sends it, once, from there.  A server slow
// to answer is told apart from a lost connection ("waiting for the server", then "offline":
// SLOW_MS, LOST_MS).
"use strict";
(function () {
  const page = document.body.dataset;
  const api = `/api/v1/tables/${page.round}/${page.table}`;
  const headers = { "Authorization": "Bearer " + page.token, "Content-Type": "application/json" };
  let view = null;        // the last state the server sent
  let directorPinWait = null;  // the wait of the director's PIN, as the last read of the table said it (table_director.js)
  let chosen = null;      // the tile tapped, waiting for where it goes
  let sending = 0;        // writes on their way (a tap's, the outbox's): no refresh meanwhile

  const { $, el, t, slot, withNodes, name, plain: unsteered, layoutLines } = window.venue;
  // A tile named in the page's own text (a refusal, "N does not hold 6-6"; the row's help, "such as
  // 4-0 5-3") is never cut at its hyphen (venue.keepTiles, which every page's sentences get through
  // venue.sentence).  A placeholder, which holds no element, has its tiles' hyphens made
  // non-breaking ones (U+2011) instead (unbroken).
  const { keepTiles } = window.venue;
  const unbroken = (text) => String(text).replace(/(\d)-(?=\d)/g, "$1\u2011");
  const say = (text, kind) => window.venue.say(text, kind);  // (its tiles whole: venue.sentence)

  // --- Each write's own id, and the outbox ------------------------------------------------------
  const KEY = page.token;
  // The writes an outbox keeps (a move, the mode, a call of the director); a confirmation only as
  // deliver keeps it (below), never the director's own writes at the table (the director's PIN).
  const QUEUED = ["/dgn", "/mode", "/call"];
  const WAIT_MS = 10000;  // a request unanswered this long: the server is taken as out of reach
  // ... and a write unanswered this long where the phone's engine is ready: the engine answers it
  // from the outbox, as offline (a server that hangs without refusing, the laptop asleep with the
  // Wi-Fi up, held each tap 10 seconds); the write is sent again from the outbox with its id, so a
  // server that took it meanwhile answers it again and takes it once.
  const ANSWER_MS = 1500;
  // How the page tells a slow server from a lost one (docs/venue.md, "A slow server is not offline"):
  // the server unanswering for SLOW_MS, the banner says "waiting for the server" (a director's
  // command holding the event file a second or two, a busy laptop); it says "offline" only when a
  // request fails (no network, the server's port closed), the phone says it is offline, or the
  // server has answered nothing for LOST_MS (10 s, WAIT_MS).  The director's page tells it alike
  // (dom.js: venue.link, venue.within).
  const { SLOW_MS, within } = window.venue;
  const kept = (() => { try { return window.localStorage; } catch (e) { return null; } })();
  // Each write's own id: the phone's id and a counter (dom.js: venue.newCid).
  const { newCid } = window.venue;
  // The outbox in IndexedDB (database "domrec-outbox", its writes keyed by their order, found by
  // the table's key); in the page's memory alone where the browser has no IndexedDB, where opening
  // it fails, or where it has not opened within STORE_MS of the page's start (a WebKit whose
  // IndexedDB never answers: a private window in some Safari versions, a storage error that fires
  // neither success nor error).  One wait for all: the outbox's first read, a move kept offline
  // (keep) and a confirmation's first try (deliver) wait for IndexedDB until then at most, never
  // longer; after it, the page goes on in memory (a write online is sent at once, as with no
  // IndexedDB at all; one made offline is kept in memory and sent when the connection is back), and
  // says once that this phone cannot keep lines if the page is closed (storageSaid).  Before, a move
  // kept offline and a confirmation's first try waited for IndexedDB with no limit: on such a phone
  // the move was never kept and the confirmation never sent.  IndexedDB opening late after all:
  // what the page holds in memory is written there then (adopt), each write once.
  // State: "opening", "open", "none" (no IndexedDB, or it failed), "waited" (not open in time).
  const STORE_MS = 3000;
  const db = (() => {
    let state = "opening", base = null, late = false;
    const opened = new Promise((resolve) => {
      try {
        const req = indexedDB.open("domrec-outbox", 1);
        req.onupgradeneeded = () => req.result.createObjectStore("writes", { keyPath: "seq", autoIncrement: true })
          .createIndex("key", "key");
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => resolve(null);
        req.onblocked = () => resolve(null);
      } catch (e) { resolve(null); }
    }).then((got) => {
      late = state === "waited" && !!got;
      base = got;
      state = got ? "open" : "none";
      return got;
    });
    const waited = new Promise((resolve) => setTimeout(() => {
      if (state === "opening") state = "waited";
      resolve();
    }, STORE_MS));
    // ``patient``: waits for IndexedDB however long it takes (the outbox's read, whose late answer
    // is merged); any other waits for it until STORE_MS at most, then goes on in memory (null).
    async function run(mode, work, patient) {
      if (state === "opening") await (patient ? opened : Promise.race([opened, waited]));
      else if (patient && state === "waited") await opened;
      if (!base) return null;
      return new Promise((resolve) => {
        let req = null;
        try {
          const tx = base.transaction("writes", mode);
          req = work(tx.objectStore("writes"));
          tx.oncomplete = () => resolve(req ? req.result : null);
          tx.onerror = tx.onabort = () => resolve(null);
        } catch (e) { resolve(null); }
      });
    }
    // (the writes this page took out of storage, sent or dropped: a read of the outbox answered
    // late never brings one back; a write kept in memory is named by its memory seq, "m1", until
    // adopt stores it, and by both after)
    const removed = new Set(), was = new Map();
    // (a write kept in memory, its seq "m1", is in no storage: only adopt writes it there)
    const stored = (seq) => typeof seq === "number";
    return {
      all: () => run("readonly", (s) => s.index("key").getAll(KEY), true),
      add: (entry) => run("readwrite", (s) => s.add(entry)),
      put: (entry) => (stored(entry.seq) ? run("readwrite", (s) => s.put(entry)) : Promise.resolve(null)),
      remove: (seq) => { removed.add(seq); return stored(seq) ? run("readwrite", (s) => s.delete(seq)) : Promise.resolve(null); },
      removed: (seq) => removed.has(seq) || (was.has(seq) && removed.has(was.get(seq))),
      stored: (seq, memory) => was.set(seq, memory),  // (a write kept in memory, now in storage)
      waited,
      state: () => state,
      late: () => late,
    };
  })();
  let outbox = [];          // the writes kept, in order: {seq, key, path, body, refused?}
  let busyServer = false;   // ... or found it, busy (429, 503): the outbox waits as its Retry-After says
  let told = false;         // the banner has said something is waiting (so it says "all sent" after)
  let delivered = 0;        // writes of the outbox the server took while this page was open
  let localSeq = 0;
  const waiting = () => outbox.filter((x) => !x.refused);
  // Whether any of these writes is kept in the page's memory alone (its seq "m1": IndexedDB not
  // open, or not yet: adopt stores it if it opens late): closing the page loses it, so what the
  // page says of it is "kept in this page only", not "kept on this phone" (which was untrue there).
  const inPage = (entries) => entries.some((x) => typeof x.seq !== "number");
  // The device's rate limit (a 429 whose body has no "pin_wait"): no answer to a write, which is
  // sent again after its Retry-After, from the outbox or by deliver alike.  A 429 with "pin_wait"
  // is a refusal of its own: the table waits after wrong PINs (a confirmation's, the director's).
  const rateLimited = (status, data) => status === 429 && !(data && data.pin_wait !== undefined);
  // The table as this phone last drew it, kept per key, so that a page opened again while the
  // server is out of reach shows the table (and its outbox) until the server answers.
  function keepView() { try { kept && view && kept.setItem("domrec.view." + KEY, JSON.stringify(view)); } catch (e) { /* too big, or private */ } }
  function keptView() { try { return JSON.parse((kept && kept.getItem("domrec.view." + KEY)) || "null"); } catch (e) { return null; } }
  // What the phone's engine is given of the table: the state this page holds (the server's last, or
  // the engine's own after a write made offline).
  const engineTable = () => ({ round: Number(page.round), table: Number(page.table), state: view });
  const engineReady = () => window.domrecEngine && window.domrecEngine.status === "ready";
  const timed = (promise, ms) => Promise.race([promise, new Promise((_, no) => setTimeout(() => no(new Error("timeout")), ms))]);
  // The connection as the page tells it (<body data-link>, for programs): "ok"; "slow", a request
  // unanswered for SLOW_MS (the server is there, or was a moment ago: nothing is lost, writes wait
  // in the outbox); "offline" (link.offline: a request failed, the phone is offline, or no answer
  // for LOST_MS); "busy" (the server said so, with its Retry-After).  Each request says to the
  // link when it is sent (asking), answered (heard) or found no answer (failed).
  let shownOffline = false;
  const link = window.venue.link(() => {
    const was = shownOffline;
    shownOffline = link.offline;
    banner();
    if (was !== link.offline && view && !waiting().length) render();  // (the confirmations wait, or wait no more)
  });
  const linkState = () => (busyServer ? "busy" : link.state());

  // Writes go one after another, never dropped.  Each write carries the revision the player saw
  // when tapping, so a tap made twice is refused the second time ("the table has moved on"), never
  // applied twice.  A write never waits for a refresh or for the outbox's try (a server that hangs
  // without refusing held a tap behind them until their 10 seconds ran out): a refresh is sent only
  // while no write is on its way, one at a time, and is abandoned when a write comes; while the
  // outbox holds writes, or is being sent, a new write goes into it at once (answered by the
  // phone's engine); and a write the server has not answered within ANSWER_MS, where the engine is
  // ready, goes into the outbox too.
  // ``extra``: headers of its own (the director's PIN), and ``refused(text)`` to say a refusal
  // somewhere else than the message line (beside the director's form).  Answers {ok, status, data}.
  let chain = Promise.resolve();
  let pending = null;  // the refresh on its way (its AbortController)
  function refresh() {
    if (gone || pending || sending || delivering) return Promise.resolve(null);
    const stop = new AbortController();
    pending = stop;
    return request("GET", "", null, {}, stop.signal).finally(() => { if (pending === stop) pending = null; });
  }
  function abandon() {
    if (!pending) return;
    const stop = pending;
    pending = null;
    stop.abort();  // its answer, if any, is not drawn: the write's is
  }
  // A 403 means this link's key no longer opens the table (the director gave the table a new key:
  // a phone lost, a link shared): the page shows nothing more of the table, says so, and stops.
  let gone = false;
  function shutOut() {
    gone = true;
    view = null;
    ["players", "panel", "moves", "earlier-table", "totals", "units"].forEach((id) => $(id) && $(id).replaceChildren());
    ["earlier", "typed", "layout"].forEach((id) => { if ($(id)) $(id).hidden = true; });
    document.querySelectorAll("button, textarea, input").forEach((x) => { x.disabled = true; });
    document.body.dataset.locked = "yes";
    say(t("This table's link has been changed: it no longer opens the table. Ask the director for its new link (a new QR code)."), "bad");
    unsent();
  }
  // The writes still waiting when the link stopped opening the table (its key changed while the
  // phone was offline): never sent with another key, never dropped unsaid either (the outbox was
  // emptied and the banner said "all sent").  Each stays on the phone and listed, with why, to be
  // typed again on the table's new link.
  // A confirmation that will never be sent (refused, or its link gone) keeps no PIN on the phone:
  // its side confirms again with its button, typing the PIN again; what is listed names the side.
  function forgetPin(entry) {
    if (entry.path === "/confirm" && entry.body && "pin" in entry.body) delete entry.body.pin;
    return entry;
  }
  function unsent() {
    if (!loaded) return;  // (the outbox read later is listed then)
    for (const entry of waiting()) {
      // (a confirmation is not typed: its side confirms again, with its button, on the new link)
      entry.refused = entry.path === "/confirm"
        ? t("not sent: this link no longer opens the table; confirm again on the table's new link")
        : t("not sent: this link no longer opens the table; type it again on the table's new link");
      entry.notSent = true;  // (listed as not sent, not as refused: banner)
      db.put(forgetPin(entry));
    }
    banner();
  }
  // A write made on an older view of the table (another phone wrote first): said in a player's
  // words, not the server's revision numbers (the API's answer keeps them for programs).  A
  // confirmed table's refusal (409 too) is said as the server says it, unless the director
  // entered the result (below).
  // The table moved on by the director's correction (its last write: the state says so while no
  // move followed it) is said so: "another phone wrote first" told a table with one phone, whose
  // lines made offline were refused after a correction, of a phone that never was.
  // The table moved on by this page's own writes alone (a tap made while the one before it was on
  // its way: both carried the revision the page showed, the first was taken) is said so too, for
  // the same reason.  The same write twice (a double tap) is said to have been taken once; a
  // different one, to tap again.  Nothing is sent again either way (the revision still guards).
  // ``listed``: the words of a line listed under the board with its Retype and Drop buttons (a
  // line made offline), which say what to do; "tap again" is for the tap just made.
  // ``path``, ``body``: the write refused (its revision, what it was).
  const movedOn = (data, listed, path, body) => {
    // A game's result the director entered (the director's page, or `tournament result` at the
    // laptop: its "via" is not the table's) while this line waited: the server's "is confirmed:
    // only the director can change its result now" told a table nobody at it had confirmed, its
    // lines made offline refused, of a confirmation that never was.  (A boards table's result is
    // said board by board, below; the table's other phone's confirmation, as the server says it.)
    if (data && data.state && data.state.status === "confirmed" && !data.state.boards && data.state.result
        && data.state.result.via !== "table")
      return t("the director entered the game's result meanwhile: nothing was changed; the result is in the event");
    if (!data || !data.state || data.state.status === "confirmed") return (data && data.error) || "";
    if (data.state.corrected && data.state.corrected.hand)
      return t("the director corrected hand %(n)s meanwhile: nothing was changed; here is the table now", { n: data.state.corrected.hand });
    if (data.state.entered && data.state.entered.board && data.state.entered.not_played)  // (marked over the hand: time ran out)
      return t("the director marked board %(n)s not played meanwhile: nothing was changed; here is the table, on its next board", { n: data.state.entered.board });
    if (data.state.entered && data.state.entered.board)
      return t("the director entered board %(n)s's result meanwhile: nothing was changed; here is the table, on its next board", { n: data.state.entered.board });
    const ours = byThisPage(path, body, data.state.rev);
    if (ours === "twice") return listed ? t("the same tap came twice: it was taken once, not twice")
      : t("the same tap came twice: it was taken once, not twice; here is the table now");
    if (ours === "first") return listed ? t("your tap before this one was taken first; this one was made before the table showed it, so nothing was changed")
      : t("your tap before this one was taken first; this one was made before the table showed it, so nothing was changed; here is the table now, tap again");
    // (or this phone's other tab: a page does not know the writes another tab made)
    return listed ? t("another phone or tab of this table wrote first: nothing was changed")
      : t("another phone or tab of this table wrote first: nothing was changed; here is the table now, tap again");
  };
  // The revisions this page's own writes made (the server took them), each with what the write
  // was, for movedOn: a write the server refuses as made on revision r, the table now at c, was
  // overtaken by this page alone when every revision r+1 … c is one of these.  A write that names
  // its revision makes the next one (r+1, taken once by its id, so an answer sent again counts
  // too: its state may be later, another phone's, and is not taken for ours); a call of the
  // director names none (the server takes it on any view), and counts only as first answered
  // (``fresh``: its id new, its state the revision it made).  A write the phone's engine answered
  // offline counts once the server takes it (sendQueued), not before.  Only this page's memory: a
  // page opened again speaks of "another phone" for what it wrote before it was opened.
  const ownRevs = new Map();
  // Whether the page said a tap came before the table was first drawn (notDrawn, below): the
  // table's first drawing takes that back, as over.
  let notDrawnSaid = false;
  const whatWrite = (path, body) => path + " " + JSON.stringify(Object.assign({}, body, { cid: undefined, at: undefined, rev: undefined }));
  function tookOurs(path, body, data, fresh) {
    if (!body || !data) return;
    const made = path === "/call" ? (fresh ? data.rev : null)
      : (typeof body.rev === "number" ? body.rev + 1 + (data.over_calls || 0) : null);
    if (typeof made === "number" && typeof data.rev === "number" && made <= data.rev) ownRevs.set(made, whatWrite(path, body));
  }
  function byThisPage(path, body, now) {
    const from = body && body.rev;
    if (typeof from !== "number" || typeof now !== "number" || now <= from) return null;
    for (let r = from + 1; r <= now; r += 1) if (!ownRevs.has(r)) return null;
    return ownRevs.get(from + 1) === whatWrite(path, body) ? "twice" : "first";
  }
  // Whether what a write's answer said last is what its hand waits for (Castle Rock's *Start
  // hand* before the row): the panel says it under the button, so the message line does not.
  const waitingSaid = (data, last) => !!(last && data && data.game && data.game.waiting && !data.game.in_hand
                                          && last === data.game.waiting);
  // A refusal of a one-line write (a tap, a line typed) without its "1:9: " place: the line is
  // the one just sent and the words name the move; the place helps only within several lines.
  const placeless = (body, text) => (body && typeof body.text === "string" && !body.text.includes("\n")
    && typeof text === "string" ? text.replace(/^1:\d+: /, "") : text);
  // The table's wait after wrong PINs (docs/venue.md, "PINs"): the message line says it, with the
  // seconds left counted down by the page's own clock from what the server last said (a
  // confirmation's 429, or a read's state: its pin_wait), set again by a read that finds it
  // otherwise (another wrong PIN made it longer); once it is over, or the director has cleared the
  // wrong PINs (a read finds none while seconds were left), the line says confirmations are taken
  // again.  Before, the line kept the server's words of the moment ("wait 59 seconds more") however
  // long it stood, after the wait and after the director's clear alike.  The line is the wait's as
  // long as it says it: once something else is said there (a move), it is left to that.
  // <body data-pin-wait> holds the seconds shown (none while the table does not wait).
  let pinWait = null;  // {until: Date.now() when it ends, said: the line said of it last, or null}
  let pinTick = null;
  const pinWords = (left) => (left === 1
    ? t("too many wrong PINs at this table: confirmations wait 1 second more (the director can clear them)")
    : t("too many wrong PINs at this table: confirmations wait %(n)s seconds more (the director can clear them)", { n: left }));
  const pinLeft = () => (pinWait ? Math.ceil((pinWait.until - Date.now()) / 1000) : 0);
  const pinSaid = () => pinWait && pinWait.said !== null && $("message").textContent === pinWait.said;
  function pinShow() {
    clearTimeout(pinTick);
    pinTick = null;
    if (gone && pinWait) { pinWait = null; delete document.body.dataset.pinWait; }  // (the link opens the table no more)
    if (!pinWait) return;
    const left = pinLeft();
    if (left <= 0) { pinEnd(t("the wait after wrong PINs is over: confirmations are taken again")); return; }
    document.body.dataset.pinWait = String(left);
    if (pinSaid()) { pinWait.said = pinWords(left); say(pinWait.said, "bad"); }
    // (the next second's line when the count goes down: a clock moved on by a test too)
    pinTick = setTimeout(pinShow, Math.max(1, pinWait.until - Date.now() - (left - 1) * 1000));
  }
  function pinEnd(words) {
    const ours = pinSaid();
    clearTimeout(pinTick);
    pinTick = null;
    pinWait = null;
    delete document.body.dataset.pinWait;
    if (ours) say(words, "good");
  }
  // ``seconds`` as the server said them; ``said``: the line says it now (a confirmation refused
  // for it; a read that finds the confirmations waiting, their buttons shown)
  function pinWaits(seconds, said) {
    const until = Date.now() + seconds * 1000;
    if (!pinWait) pinWait = { until, said: null };
    else if (Math.abs(pinLeft() - seconds) > 1) pinWait.until = until;  // (not a second's rounding: the wait changed)
    if (said) { pinWait.said = pinWords(Math.max(1, pinLeft())); say(pinWait.said, "bad"); }
    pinShow();
  }
  // A read of the table: the wait it says (none when over or cleared).
  function pinHeard(data) {
    if (!data || !data.pins) return;
    const seconds = Number(data.pin_wait) || 0;
    if (seconds > 0) {
      // (first heard of here, a page opened again meanwhile or the wait begun by a wrong PIN: said
      // where the confirmation's buttons are shown)
      pinWaits(seconds, !pinWait && data.status !== "confirmed" && !!(data.game && data.game.over));
    } else if (pinWait) {
      pinEnd(pinLeft() > 1 ? t("the director cleared the wrong PINs: confirmations are taken again")
                           : t("the wait after wrong PINs is over: confirmations are taken again"));
    }
  }
  function call(method, path, body, extra) {
    if (gone) return chain;
    if (method === "GET") return refresh();
    const queueable = QUEUED.includes(path) && !(extra && extra.headers);
    if (body) body = Object.assign({}, body, { cid: newCid() });  // (the director's at the table too)
    abandon();
    // Writes go out in the order they were made: behind writes still waiting, a new one waits too,
    // in the outbox, at once (never behind the outbox's own try, which may hang).
    if (queueable && (waiting().length || flushing || delivering)) return queue(path, body);
    const run = () => (queueable && (waiting().length || flushing) ? queue(path, body)
      : queueable ? request(method, path, body, extra || {}) : deliver(method, path, body, extra || {}));
    chain = chain.then(run, run);
    return chain;
  }

  // ``stop``: a refresh's AbortSignal; abandoned, nothing of it is drawn or said.
  // ``persist``: a write only the server answers (deliver): no answer is said as nothing; the
  // write is sent again.
  async function request(method, path, body, extra, stop, persist) {
    const writing = method !== "GET";
    if (writing) sending += 1;
    let redraw = true, answer = { ok: false, status: 0, data: {} }, abandoned = false;
    const wasOffline = link.offline, shown = view;
    const refused = extra.refused || ((text) => say(placeless(body, text), "bad"));
    const held = heldOf(view);
    const known = handsQuery(held, path);
    // (a write the engine can answer is given a moment and a half; anything else 10 seconds)
    const ms = writing && QUEUED.includes(path) && !extra.headers && engineReady() ? ANSWER_MS : WAIT_MS;
    // (a write the outbox would keep, or a confirmation deliver sends: given up when the browser
    // says it is online again, see staleTries; never the director's writes at the table)
    const stale = writing && !stop && !extra.headers && (persist ? path === "/confirm" : QUEUED.includes(path))
      ? new AbortController() : null;
    if (stale) staleTries.add(stale);
    try {
      link.asking();
      const response = await within(api + path + known, { method, headers: Object.assign({}, headers, extra.headers || {}),
                                                          body: body ? JSON.stringify(body) : undefined, cache: "no-store" },
                                    ms, stop || (stale && stale.signal));
      // The service worker's kept copy (the server did not answer): the table this page holds is
      // newer, and only a page opened again out of reach draws the copy (when it holds nothing else).
      if (response.headers.get("x-domrec-kept")) {
        if (!view && !keptView()) { const copy = await response.json().catch(() => null); if (copy && copy.rev !== undefined) view = copy; }
        throw new Error("offline");
      }
      let data = {};
      // A taken answer (2xx) whose body could not be read whole (given up mid-read after its time
      // on a starved phone or laptop, a connection cut) is no answer: never a table without its
      // revision drawn (every write after it refused for naming none); a write is sent again with
      // its id, and answered from what the server kept.
      // (a refusal's body not read whole is no answer either: given up mid-read as the browser
      // said "online" (stale), or the connection cut; only a body that is not JSON, a proxy's
      // page, is a refusal said as one that could not be read)
      try { data = await response.json(); } catch (e) {
        if (response.ok || (stop && stop.aborted) || (stale && stale.signal.aborted) || !(e instanceof SyntaxError)) throw e;
        data = { error: t("the server's answer could not be read") };
      }
      if (stop && stop.aborted) throw new Error("abandoned");
      link.heard();
      whole(data, held);
      whole(data.state, held);
      answer = { ok: response.ok, status: response.status, data };
      // A write the server could not take now, nothing of it stored (503: another program holding
      // the event file, or the server shutting down; 429 without "pin_wait": this device's rate
      // limit, to a move, a confirmation or the director's correction or call cleared at the table
      // alike): not refused, sent again with its same id once the Retry-After has passed, as the
      // outbox does: a move into the outbox, a confirmation or the director's write by deliver's
      // next try (each was refused in the rate limit's words, "try again", and had to be tapped
      // again).  A 429 with "pin_wait" is a refusal of its own (the table waits after wrong PINs,
      // a confirmation's or the director's).
      const queueable = QUEUED.includes(path) && !extra.headers;
      const limited = rateLimited(response.status, data);
      const busy = writing && (response.status === 503 || (limited && (queueable || persist)));
      if (busy) {
        const after = Number(response.headers.get("Retry-After"));
        busyUntil = after > 0 ? Date.now() + Math.min(after, 300) * 1000 : 0;
        busyServer = true;
      } else if (writing && !waiting().length) busyServer = false;
      // A line the table had already, the very same on the same view (docs/venue.md, "When both
      // phones recorded the same line"): taken as the other's twin.  This page's own tap sent twice
      // is told as such; the twin's revision is not this page's own (another phone's, for movedOn).
      const twice = response.ok && method === "POST" && data && data.twin ? byThisPage(path, body, data.rev) === "twice" : false;
      // The phone's engine keeps the table's log from this page's own writes (engine.js, took).
      if (response.ok && method === "POST" && window.domrecEngine && window.domrecEngine.took) window.domrecEngine.took(path, body, data);
      // (and this page's own revisions, for movedOn; a write delivered may be answered again)
      if (response.ok && method === "POST" && !(data && data.twin)) tookOurs(path, body, data, !persist);
      if (busy && persist) {
        redraw = false;
        // (what the server said: the device's rate limit; the event file held, with its
        // Retry-After; else its own line)
        answer = Object.assign(answer, { unanswered: true, busy: limited ? "limit"
          : response.headers.get("Retry-After") ? "held" : data.error || "held" });
      } else if (busy && queueable) {
        redraw = false;
        answer = await queue(path, body);
      } else if (response.ok && method === "GET" && view && waiting().length) {
        redraw = false;  // the server is back, and the writes made offline go first: the table is drawn after them
        setTimeout(flush, 0);
      } else if (response.ok) {
        if (method === "GET" && view && version(data) === version(view)) {
          redraw = false;  // a refresh that finds the table as it was: nothing is drawn again, so a choice in progress stays
        } else {
          if (method !== "GET" || !view || data.rev !== view.rev) { chosen = null; firstDie = null; options = null; }
          // A line refused beside the box was refused on the table as it was: once a refresh finds
          // the table changed (another phone, the director's result), that refusal is over.
          // (and the page's "not shown yet" to a tap made before the table was first drawn)
          if (method === "GET" && (view || notDrawnSaid)) { $("typed-message").replaceChildren(); $("typed-message").className = ""; }
          if (!view && notDrawnSaid) { notDrawnSaid = false; say(""); }
          // The director corrected the game (on the director's page, or at another phone): the
          // message line told of the game before, so it now says what happened.
          if (method === "GET" && view && data.corrected && JSON.stringify(data.corrected) !== JSON.stringify(view.corrected))
            say(t("The director corrected hand %(n)s: the game is recorded again.", { n: data.corrected.hand }), "good");
          // A board's result entered by the director over this table's play of it: the table goes
          // on with its next board (the hand played here stays in the venue's log).  The line says
          // what is true of that board now (closedLine): once the director takes the mark or the
          // result back, that (no write of the table's: a refresh finds it); once no board is
          // closed here any more (a write of the table's followed), the line goes if still shown.
          const closedNow = closedLine(data), closedBefore = closedLine(view);
          if (method === "GET" && view && data.entered
              && (JSON.stringify(data.entered) !== JSON.stringify(view.entered) || closedNow !== closedBefore))
            say(closedNow, "good");
          else if (method === "GET" && view && closedBefore && closedNow !== closedBefore
                   && $("message").textContent === closedBefore) say("");
          // The game's result entered from elsewhere (the director; the table's other phone): what
          // the line said of the game before (a move refused) is over, and no longer shown over it.
          else if (method === "GET" && view && data.status === "confirmed" && view.status !== "confirmed") {
            // (a boards table's result has no "via": each board is said by itself, above)
            if (!data.boards && data.result && data.result.via !== "table") say(t("The director entered the game's result: it is in the event."), "good");
            else if ($("message").className === "bad") say("");
          }
          view = data;
        }
        if (method !== "GET") {
          // A hand taken that cannot start yet (Castle Rock without its row) is not done: what it
          // waits for is told plainly, not in the colour of a move taken, and once: under the
          // button (the panel's #waiting), not again on the message line (waitingSaid).
          const last = twice ? t("the same tap came twice: it was taken once, not twice")
            : data.said && data.said.length ? data.said[data.said.length - 1] : "";
          say(waitingSaid(data, last) ? "" : last, data.game && data.game.waiting && !data.game.in_hand ? "" : "good");
        }
      }
      else if (response.status === 409 && data.state) { view = data.state; chosen = null; refused(movedOn(data, false, path, body)); }
      // A 403 to a refresh: this link's key opens the table no more. (A write's 403 is its own
      // refusal: a wrong PIN, a wrong director's PIN.)
      else if (response.status === 403 && method === "GET" && !extra.headers) { redraw = false; shutOut(); }
      // A confirmation's 403 is a wrong PIN, or this link's key changed while it was on its way:
      // deliver tells them apart (a read) and says it, once.  (Said here first, the server's
      // words about the key stood on the line until the page's own replaced them.)
      else if (response.status === 403 && persist && path === "/confirm" && !extra.headers && !data.state) answer.judge = true;
      // A confirmation refused as the table waits after wrong PINs: the wait's line, counted down.
      else if (response.status === 429 && data.pin_wait > 0 && path === "/confirm" && !extra.headers) pinWaits(data.pin_wait, true);
      else refused(data.error || t("refused (%(status)s)", { status: response.status }));
      if (response.ok && method === "GET" && !path) {
        pinHeard(data);
        // (the director's box, table_director.js: the wait of the director's PIN, heard at every read
        // of the table, drawn again or not)
        // (kept too: that script may run after this first read is answered, its script slower to come)
        directorPinWait = data.director_pin_wait || null;
        document.dispatchEvent(new CustomEvent("table:heard", { detail: { directorPinWait } }));
      }
    } catch (e) {
      if (stop && stop.aborted) { abandoned = true; return answer; }  // (a write came: the refresh is dropped)
      busyServer = false;  // (no answer now: the server's "busy" of before is not what is true any more)
      link.failed(e);
      if (persist) {
        redraw = false;
        // (``again``: given up as the browser came back online: deliver sends it again at once)
        answer = Object.assign(answer, { unanswered: true, again: !!(stale && stale.signal.aborted) });
      } else if (method === "GET") {
        // Opened again out of reach: the table as this phone last drew it (or the service worker's
        // copy, above).  Else the table drawn stays as it is (a choice in progress too), as after
        // a refresh that finds it unchanged.
        if (!view) view = keptView();
        if (view === shown) redraw = false;
      } else if (method === "POST" && QUEUED.includes(path) && !extra.headers) {
        redraw = false;
        answer = await queue(path, body);
      } else refused(t("no connection to the server: nothing was sent; try again"));  // (every other write is delivered: never here)
      later();
    } finally {
      if (stale) staleTries.delete(stale);
      if (writing) sending -= 1;
      if (!abandoned) {
        if (method === "GET") document.body.dataset.refreshed = String((Number(document.body.dataset.refreshed) || 0) + 1);
        if (wasOffline !== link.offline && view && !waiting().length) redraw = true;  // (the confirmations wait, or wait no more)
        if (redraw) render();
        banner();
      }
    }
    return answer;
  }

  // A write only the server can answer (a confirmation, the director's writes at the table: they
  // need the event file, a PIN) is never kept in the outbox and never dropped either: unanswered
  // within SLOW_MS, the page says plainly that the server is not answering and that the write is
  // sent as soon as it answers (``extra.waiting(text)`` says it beside the director's form; a
  // confirmation's panel says it under its buttons, greyed meanwhile).  What is said is what the
  // last try found, said again when that changes: no answer ("not answering"), or an answer
  // that the server is busy (503: another program holding the event file, with its Retry-After;
  // any other 503, the server's own line, such as its shutting down).  And it is sent again, with
  // its same id, after each try given up (WAIT_MS) or failed (1, 2, 4 … 10 seconds apart; at once
  // when the phone is back online), until the server answers it.  The server takes a write once
  // by its id however often it arrives (a try given up may still reach it when it wakes: it is
  // then answered again, not applied again), and its revision holds it to the table it was made
  // on.  A confirmation is kept in the outbox's storage too, from its first try until the server
  // answers it (``live``: this page is sending it, so the outbox does not): a page opened again
  // meanwhile (reloaded, the tab or the browser closed) finds it there, says so, and sends it from
  // the outbox, once, with its same id, when the server answers (before, it was kept in the page's
  // memory only, and a reload lost a confirmation the server never had).  Its PIN is kept with it
  // until then, and removed with it.  The director's writes at the table are never stored (the
  // director's PIN travels with them).
  // <body data-unanswered="/confirm"> while it waits said, and data-tries (how often it was sent).
  let delivering = null;  // {path, tries, waits, busy}: such a write on its way
  const sentByPage = new Set();  // the stored confirmations this page is sending (never the outbox's too)
  const inMemory = new Set();    // ... and those it sends kept in memory, IndexedDB not open (adopt)
  let wakeUp = null;      // ends the pause between two tries ("online")
  // What the page says of such a write waiting (``busy``: what the server's last answer to it
  // said, see request; false when its last try found no answer).
  function waitWords(busy, confirmation) {
    // (the device's rate limit: a confirmation's, or the director's write at the table, see request)
    if (busy === "limit") return confirmation
      ? t("The server asks this phone to wait a moment (many requests from it in a short time): this confirmation is sent again shortly by itself. Keep this page open; there is no need to tap again.")
      : t("The server asks this phone to wait a moment (many requests from it in a short time): this is sent again shortly by itself. Keep this page open; there is no need to tap again.");
    if (busy === "held") return confirmation
      ? t("The server is busy (another program is holding the event file): this confirmation is sent again shortly. Keep this page open; there is no need to tap again.")
      : t("The server is busy (another program is holding the event file): this is sent again shortly. Keep this page open; there is no need to tap again.");
    if (busy) return busy;  // (the server's own line, in the page's language)
    return confirmation
      ? t("The server is not answering: this confirmation is sent as soon as it answers. Keep this page open; there is no need to tap again.")
      : t("The server is not answering: this is sent as soon as it answers. Keep this page open; there is no need to tap again.");
  }
  async function deliver(method, path, body, extra) {
    const mine = { path, tries: 0, waits: false, busy: false };
    delivering = mine;
    // (the confirmation as kept on the phone: its seq in storage, or "m1" where it is kept in
    // memory, IndexedDB not open (yet): adopt stores it if it opens late)
    let stored = null;
    const keptBody = Object.assign({}, body, { at: new Date().toISOString() });
    if (path === "/confirm" && !(extra && extra.headers)) {
      stored = { key: KEY, path, body: keptBody, live: true };
      const seq = await db.add(stored);  // (never longer than the page's one wait for IndexedDB)
      stored.seq = seq === null || seq === undefined ? "m" + (++localSeq) : seq;
      if (typeof stored.seq === "number") sentByPage.add(stored.seq);
      else inMemory.add(stored);
    }
    const tell = () => {  // (said once the write waits, and again whenever what its last try found changes)
      if (delivering !== mine || (mine.waits && mine.said === mine.busy)) return;
      mine.waits = true;
      mine.said = mine.busy;
      document.body.dataset.unanswered = path;
      if (path === "/confirm") render();
      else (extra.waiting || ((text) => say(text, "")))(waitWords(mine.busy, false));
    };
    const slowly = setTimeout(tell, SLOW_MS);
    try {
      for (let pause = 1000; ; pause = Math.min(pause * 2, WAIT_MS)) {
        mine.tries += 1;
        document.body.dataset.tries = String(mine.tries);
        const answer = await request(method, path, body, extra, null, true);
        // Refused as the table's key changed meanwhile (not for its PIN): kept, listed as not
        // sent, to confirm again on the table's new link (shutOut), never sent with this key again.
        // The page cannot know it before: nothing it holds changes with the key (the table's
        // revision and state stay), and no refresh runs while this is sent; the try refused for
        // the key took nothing, and one read tells it from a wrong PIN.
        if (answer.judge) {
          if (!(await keyGone())) {
            say(answer.data.error || t("refused (%(status)s)", { status: answer.status }), "bad");
            return answer;
          }
          const entry = stored || { seq: "m" + (++localSeq), key: KEY, path, body: keptBody };
          if (stored) {
            delete entry.live;
            inMemory.delete(entry);
            await db.put(entry);
            sentByPage.delete(entry.seq);
            stored = null;
          }
          outbox.push(entry);
          shutOut();
          return answer;
        }
        if (!answer.unanswered) return answer;
        mine.busy = answer.busy || false;
        tell();
        // A try given up as the browser said it was online again (its request, made while the
        // network was down, hung): made again at once, its same id, as the outbox's is; the next
        // pauses start again from 1 second.
        if (answer.again) { pause = 500; continue; }
        const wait = Math.max(pause, busyUntil - Date.now());  // (a server busy says how long: Retry-After)
        await new Promise((resume) => { const timer = setTimeout(resume, wait); wakeUp = () => { clearTimeout(timer); resume(); }; });
        wakeUp = null;
      }
    } finally {
      if (stored) { inMemory.delete(stored); await db.remove(stored.seq); }  // (answered: taken, or refused)
      clearTimeout(slowly);
      delivering = null;
      delete document.body.dataset.unanswered;
      if (path === "/confirm") render();  // (its note goes; the buttons as the answer left them)
    }
  }

  // A write the server could not be asked: into the outbox, and, when the phone's engine is
  // loaded, checked by it and its table drawn (refused there, as the server would refuse it, it is
  // not kept); without the engine it is kept unchecked, the table drawn as it was.
  // One at a time, in the order the writes were made: a write made on the table before the one
  // just kept (a tile tapped twice) is refused, as the server would refuse it.
  let queueing = Promise.resolve();
  function queue(path, body) {
    const run = () => keep(path, body);
    queueing = queueing.then(run, run);
    return queueing;
  }
  async function keep(path, body) {
    const entry = { key: KEY, path, body: Object.assign({}, body, { at: new Date().toISOString() }) };
    if (path !== "/call" && view && body.rev !== view.rev) {
      say(t("this tap was made on an earlier view of the table: nothing was kept"), "bad");
      return { ok: false, status: 0, data: {} };
    }
    let drawn = null;
    if (engineReady() && view) {
      try {
        const answer = await window.domrecEngine.answer(engineTable(), { path: path.slice(1), body: entry.body });
        if (answer && answer.status === 200) drawn = answer.body;
        else if (answer && answer.body && answer.body.error) {
          say(placeless(entry.body, answer.body.error), "bad");  // the phone's engine refuses it, in the server's words: nothing kept
          render();
          return { ok: false, status: answer.status, data: answer.body };
        }
      } catch (e) { drawn = null; /* the engine failed: kept unchecked */ }
    }
    const seq = await db.add(entry);
    entry.seq = seq === null || seq === undefined ? "m" + (++localSeq) : seq;
    outbox.push(entry);
    told = true;
    chosen = null; firstDie = null; options = null;
    // (kept in the page's memory, IndexedDB not open: closing the page loses it, so the line says
    // "in this page only", never "on this phone")
    const here = inPage([entry]);
    if (drawn) {
      view = drawn;
      const last = drawn.said && drawn.said.length ? drawn.said[drawn.said.length - 1] : "";
      say(last && !waitingSaid(drawn, last) ? last
        : here ? t("kept in this page only: it is sent when the connection is back (closing the page loses it)")
        : t("kept on this phone: it is sent when the connection is back"), "good");
    } else {
      if (view) view = Object.assign({}, view, { rev: view.rev + 1 });  // the revision the server will give it
      say(here ? t("kept in this page only, unchecked: it is checked when it is sent (closing the page loses it)")
               : t("kept on this phone, unchecked: it is checked when it is sent"), "good");
    }
    render();
    banner();
    later();
    return { ok: true, status: 0, data: view || {}, queued: true };
  }

  // The outbox sent, in order, behind the writes made online before it (the page's one queue of
  // writes); a write made while it is sent joins it, and goes in the same sending.  A write leaves the outbox
  // once the server has answered it (taken, or refused: then it is listed with the reason); no
  // answer (no connection, a server busy or down) and the rest wait for the next try.  After a
  // refusal the writes made after it are not sent (they followed a line the table does not have):
  // they are listed too, to retype or drop.  Then the table is drawn as the server holds it.
  // Each write sent names the closed hands the page holds (as every request does), so that a hall
  // coming back at once is sent the hand in play with each answer, not every hand again (the
  // answers to a hundred outboxes were 15 KB each, most of it hands the phones held).
  // A server that answers "busy" (429 from its per-device limit, 503) says in Retry-After how long
  // to wait: the next try waits at least that long, and the banner says the server is busy, not
  // that the phone is offline (the Wi-Fi is fine; sending again sooner would only be refused again).
  // (A refresh that finds the server waits for that moment too; the phone rejoining the Wi-Fi,
  // the "online" event, tries at once.)
  // The browser saying it is online again (the "online" event) sends the outbox at once: a try
  // still on its way then (made while the network was down: its request may hang until its 10
  // seconds run out) is given up and made again at once, as is a write whose request was on its
  // way (it goes into the outbox, and the outbox out); after that try, the tries wait 1, 2, 4 …
  // seconds again.  (Before, the outbox's first try after the network came back waited behind
  // the try still hanging, up to 10 seconds.)  A confirmation's try hanging then (deliver) is
  // given up and made again at once too (it waited out its 10 seconds).  A write given up here and
  // sent again is taken once by its id, had the first request reached the server.
  const staleTries = new Set();  // the AbortControllers of the requests to give up then
  let promptly = false;          // the next try goes at once, not after its wait (cleared as it starts)
  let backoff = 1000, timer = null, flushing = false, busyUntil = 0;
  function later() {
    if (promptly && !flushing && waiting().length) { flush(); return; }
    if (!waiting().length || timer) return;
    const wait = Math.max(backoff, busyUntil - Date.now());
    document.body.dataset.nextTry = String(Math.round(wait / 1000));
    timer = setTimeout(() => { timer = null; flush(); }, wait);
    backoff = Math.min(backoff * 2, 30000);
  }
  function flush() {
    if (gone || flushing || !waiting().length) return chain;
    if (Date.now() < busyUntil) { later(); return chain; }
    flushing = true;
    promptly = false;
    // (then the table as the server holds it now, its stored moves win: a refresh, once the
    // writes made meanwhile go into the outbox no more; a try given up as the browser came back
    // online is made again at once)
    const run = () => sendQueued().finally(() => { flushing = false; }).then((answered) => {
      if (answered) refresh();
      else if (promptly) flush();
    });
    chain = chain.then(run, run);
    return chain;
  }
  // What a sending that met a refusal says: the lines the server refused and those not sent after
  // them (a line made before it was refused), told apart as the list under the board tells them
  // (docs/venue.md, "When another phone wrote meanwhile"); before, every line listed was said
  // refused ("3 lines made offline were refused" of one refused and two never sent).
  const NOT_SENT = t("not sent: a line made before it was refused");
  function refusedWords(refused, unsent) {
    if (!unsent) return refused === 1 ? t("1 line made offline was refused: see the list under the board")
      : t("%(n)s lines made offline were refused: see the list under the board", { n: refused });
    if (refused === 1) return unsent === 1 ? t("1 line made offline was refused and 1 was not sent: see the list under the board")
      : t("1 line made offline was refused and %(n)s were not sent: see the list under the board", { n: unsent });
    return unsent === 1 ? t("%(r)s lines made offline were refused and 1 was not sent: see the list under the board", { r: refused })
      : t("%(r)s lines made offline were refused and %(n)s were not sent: see the list under the board", { r: refused, n: unsent });
  }
  async function sendQueued() {
    abandon();
    sending += 1;
    let broken = false, lost = false, sent = 0, refusedNow = 0, answered = null, held = heldOf(view);
    const refusedNowList = [];  // (what this sending refused, to say it as what it is)
    try {
      // (the writes made while these are sent, into the outbox, go too)
      for (let entries = waiting(); entries.length && !lost; entries = waiting()) for (const entry of entries) {
        if (broken && entry.path !== "/call") {
          entry.refused = NOT_SENT;
          entry.notSent = true;
          await db.put(forgetPin(entry));
          refusedNow += 1;
          refusedNowList.push(entry);
          continue;
        }
        // A kept confirmation (a PIN in it) is sent only with a key that still opens the table: a
        // read first (the table given a new key meanwhile: not sent, listed to confirm again on
        // the new link, as the lines are).
        if (entry.path === "/confirm" && await keyGone()) { shutOut(); return false; }
        let response, data = {};
        try {
          link.asking();
          const stale = new AbortController();
          staleTries.add(stale);
          try {
            response = await within(api + entry.path + handsQuery(held, entry.path), { method: "POST", headers,
                                                                                      body: JSON.stringify(entry.body), cache: "no-store" },
                                    WAIT_MS, stale.signal);
            // (a body not read whole is no answer, as call's: the "online" event giving up this
            // try mid-read (stale) or a cut connection sends it again; a refusal whose body is not
            // JSON, a proxy's page, is listed as one that could not be read)
            try { data = await response.json(); } catch (e) {
              if (response.ok || stale.signal.aborted || !(e instanceof SyntaxError)) throw e;
              data = { error: t("the server's answer could not be read") };
            }
          } finally { staleTries.delete(stale); }
        } catch (e) { lost = true; busyServer = false; link.failed(e); break; }
        whole(data, held);
        whole(data.state, held);
        link.heard();
        // (a confirmation's 429 with "pin_wait" is its own refusal: the table waits after wrong
        // PINs; any other 429 is the device's rate limit, as for a move: sent again later)
        if (rateLimited(response.status, data) || response.status >= 500) {  // not an answer: later
          const after = Number(response.headers.get("Retry-After"));
          busyUntil = after > 0 ? Date.now() + Math.min(after, 300) * 1000 : 0;
          busyServer = true;
          lost = true;
          break;
        }
        busyServer = false;
        if (response.ok) {
          // (it may have reached the server before: answered again; a twin, the very line another
          // phone recorded first, is that phone's revision, not this page's)
          if (!data.twin) tookOurs(entry.path, entry.body, data, false);
          // Taken over calls of the director that came meanwhile (the server says how many: they
          // change nothing a move is judged on): the lines made after it on the same view follow it
          // there, each revision moved on by as many, so that none is refused for them.
          const over = data.over_calls || 0;
          if (over > 0 && typeof entry.body.rev === "number")
            for (const after of outbox)
              if (after !== entry && typeof after.body.rev === "number" && after.body.rev > entry.body.rev) {
                after.body.rev += over;
                await db.put(after);
              }
          outbox = outbox.filter((x) => x !== entry);
          await db.remove(entry.seq);
          answered = data;
          held = heldOf(data);
          sent += 1;
          delivered += 1;
          continue;
        }
        // (a confirmation's 403 is its own refusal, a wrong PIN: listed; unless the table's key
        // changed meanwhile, asked of the server by a read: then it is not sent, as the lines, and
        // listed to confirm again on the new link, not said to be refused for its PIN)
        if (response.status === 403 && !data.state && (entry.path !== "/confirm" || await keyGone())) { shutOut(); return false; }
        entry.refused = response.status === 409 ? movedOn(data, true, entry.path, entry.body) : data.error || t("refused (%(status)s)", { status: response.status });
        await db.put(forgetPin(entry));
        refusedNow += 1;
        refusedNowList.push(entry);
        broken = true;
        if (data.state) answered = data.state;
      }
    } finally { sending -= 1; }
    // While writes still wait, the table drawn stays the one they were made on (a new tap carries
    // the revision after them); the rest go at the next try.
    if (lost) { later(); banner(); return false; }
    // (a tile tapped meanwhile, on the table the server answered, stays chosen)
    if (answered && (!view || answered.rev !== view.rev)) { chosen = null; firstDie = null; options = null; }
    if (answered) view = answered;
    backoff = 1000;
    // (what this sending refused: the lines listed from an earlier one were said then)
    // A kept confirmation refused alone (a wrong PIN) is said as a confirmation, with its reason:
    // it is no line made offline, and nothing of it is retyped.
    const left = refusedNow;
    if (left && refusedNowList.every((x) => x.path === "/confirm"))
      say(left === 1 ? t("the confirmation for %(side)s was refused: %(reason)s", { side: sideOf(refusedNowList[0]), reason: refusedNowList[0].refused })
                     : t("%(n)s confirmations kept on this phone were refused: see the list under the board", { n: left }), "bad");
    else if (left) say(refusedWords(refusedNowList.filter((x) => x.refused !== NOT_SENT).length,
                                    refusedNowList.filter((x) => x.refused === NOT_SENT).length), "bad");
    else if (sent) say("");  // what said "kept on this phone" is over; the outbox's box says "all sent"
    render();  // the table as the server answered the last write sent
    return true;
  }

  // Whether this link's key opens the table no more (a read answered 403): what a confirmation's
  // 403 was, a wrong PIN or a key changed.  No answer: not known, taken as its own refusal.
  async function keyGone() {
    try {
      const response = await within(api + "?log=only", { method: "GET", headers, cache: "no-store" }, WAIT_MS);
      return response.status === 403 && !response.headers.get("x-domrec-kept");
    } catch (e) { return false; }
  }

  // The language link tapped offline (its address), followed once the server answers again
  // (banner calls this after every answer).  Never while a write is on its way or waits (the
  // outbox sent first: the server's answer to it is drawn, never lost with the page), nor while
  // the page holds in its memory alone a line (IndexedDB not open: the new page would not find it;
  // the line is said waiting, and the link followed once it is sent, or dropped where refused),
  // nor over a line typed in the box and not sent yet (followed once it is sent or cleared).
  // <body data-language="waiting"> meanwhile, for programs.
  let languageWanted = null;
  function languageBack() {
    if (!languageWanted || gone || link.offline || linkState() !== "ok") return;
    if (waiting().length || flushing || delivering || sending || inPage(outbox)) return;
    if ($("typed-text") && $("typed-text").value.trim()) return;
    const address = languageWanted;
    languageWanted = null;
    document.body.dataset.language = "followed";
    window.location.assign(address);
  }
  // The banner (for people) and <body data-outbox="N"> (for programs): the writes waiting.
  let loaded = false;  // the outbox read from IndexedDB (until then the page says nothing of it)
  function banner() {
    if (!loaded) return;
    setTimeout(languageBack, 0);  // (once what called it is done: a write's answer drawn first)
    const n = waiting().length, state = linkState();
    document.body.dataset.outbox = String(n);
    document.body.dataset.link = state;
    const box = $("outbox");
    if (!box) return;
    box.hidden = false;
    if (n) {
      box.className = state === "slow" ? "outbox slow" : "outbox waiting";
      // What waits, named as it is: a confirmation kept on the phone (a page opened again while it
      // waited), a table that types its hands' scores (scores only: each write is a hand's score,
      // not a move), else lines: each write is a line of the table's (a tile tapped, a post typed of
      // however many moves, an Undo, the mode, a call of the director), so "lines", never "moves"
      // (one tap and a post of 17 moves were "2 moves"), as the director's page counts them.
      const said = busyServer ? "busy" : link.offline ? "offline" : state === "slow" ? "slow" : "sending";
      const confirming = waiting().every((x) => x.path === "/confirm");
      box.textContent = confirming ? ({
        busy: t("the server is busy: the confirmation kept on this phone is sent again shortly"),
        offline: t("offline: the confirmation kept on this phone is sent when the connection is back"),
        slow: t("waiting for the server: the confirmation kept on this phone is sent when it answers"),
        sending: t("sending the confirmation kept on this phone…") })[said]
        : view && view.mode === "sheet" ? ({
          busy: n === 1 ? t("the server is busy: 1 score waiting to be sent again shortly")
                        : t("the server is busy: %(n)s scores waiting to be sent again shortly", { n }),
          offline: n === 1 ? t("offline: 1 score waiting to be sent") : t("offline: %(n)s scores waiting to be sent", { n }),
          slow: inPage(waiting()) ? (n === 1 ? t("waiting for the server: 1 score kept in this page only, sent when it answers")
                                             : t("waiting for the server: %(n)s scores kept in this page only, sent when it answers", { n }))
            : n === 1 ? t("waiting for the server: 1 score kept on this phone, sent when it answers")
            : t("waiting for the server: %(n)s scores kept on this phone, sent when it answers", { n }),
          sending: n === 1 ? t("sending 1 score made offline…") : t("sending %(n)s scores made offline…", { n }) })[said]
        : ({
          busy: n === 1 ? t("the server is busy: 1 line waiting to be sent again shortly")
                        : t("the server is busy: %(n)s lines waiting to be sent again shortly", { n }),
          offline: n === 1 ? t("offline: 1 line waiting to be sent") : t("offline: %(n)s lines waiting to be sent", { n }),
          slow: inPage(waiting()) ? (n === 1 ? t("waiting for the server: 1 line kept in this page only, sent when it answers")
                                             : t("waiting for the server: %(n)s lines kept in this page only, sent when it answers", { n }))
            : n === 1 ? t("waiting for the server: 1 line kept on this phone, sent when it answers")
            : t("waiting for the server: %(n)s lines kept on this phone, sent when it answers", { n }),
          sending: n === 1 ? t("sending 1 line made offline…") : t("sending %(n)s lines made offline…", { n }) })[said];
    } else if (gone) {  // (nothing more goes to the server from this link: "all sent" would not be true)
      const lefts = outbox.filter((x) => x.refused), left = lefts.length;
      box.className = "outbox waiting";
      box.hidden = !left;
      box.textContent = left && lefts.every((x) => x.path === "/confirm")
        ? (left === 1 ? t("the confirmation for %(side)s tapped on this phone was not sent: it is listed below", { side: sideOf(lefts[0]) })
                      : t("%(n)s confirmations tapped on this phone were not sent: they are listed below", { n: left }))
        : left === 1 ? t("1 line made on this phone was not sent: it is listed below")
          : t("%(n)s lines made on this phone were not sent: they are listed below", { n: left });
    } else if (link.offline || state === "slow") {
      box.className = link.offline ? "outbox waiting" : "outbox slow";
      box.textContent = window.venue.linkWords(link.offline ? "offline" : "slow");
    } else if (told && outbox.some((x) => x.refused)) {
      // Some lines were refused (listed below, and said in red above): what was sent is not "all";
      // when none was sent, the box has nothing to say.
      box.className = "outbox sent";
      box.hidden = !delivered;
      box.textContent = t("the rest were sent");
    } else if (told) {
      box.className = "outbox sent";
      box.textContent = t("all sent");
    } else box.hidden = true;
    const refused = outbox.filter((x) => x.refused);
    const list = $("refused");
    if (!list) return;
    list.hidden = !refused.length;
    // Its heading and note as what is listed: confirmations alone (a wrong PIN, a link changed)
    // are confirmed again on their button, not retyped; else the lines' words (the page's own).
    if (!linesWords && $("refused-title")) linesWords = [$("refused-title").textContent, $("refused-note").textContent];
    const confirmations = refused.length > 0 && refused.every((x) => x.path === "/confirm");
    // Lines none of which the server refused (each only not sent: the table's link changed, or a
    // line before it was refused and has been dropped) are not headed as refused; and once the
    // link is gone, none is retyped here (no Retype button): typed again on the new link.
    // (before, a line never sent after a key rotation was listed under "… that the server refused")
    const notSent = refused.length > 0 && refused.every((x) => x.notSent || x.refused === NOT_SENT);
    if (linesWords) {
      $("refused-title").textContent = !confirmations ? (notSent ? t("Lines made offline that were not sent") : linesWords[0])
        : refused.length === 1 ? t("A confirmation the server did not take") : t("Confirmations the server did not take");
      $("refused-note").textContent = !confirmations
        ? (gone ? t("The table's stored moves stand. Type these lines again on the table's new link, then drop them here.") : linesWords[1])
        : gone ? t("The game's result is not confirmed by it: confirm again on the table's new link, then drop it here.")
          : t("The game's result is not confirmed by it: confirm again (with a right PIN, where the event uses PINs), or drop it.");
    }
    $("refused-list").replaceChildren(...refused.map((x) => el("li", { "data-seq": x.seq },
      keepTiles(el("code", {}, x.path === "/dgn" ? x.body.text : x.path === "/mode" ? t("mode: %(mode)s", { mode: x.body.mode })
        : x.path === "/confirm" ? t("confirmation for %(side)s", { side: sideOf(x) }) : t("call the director"))),
      " — ", ...window.venue.sentence(x.refused), " ",
      // (a confirmation refused is tapped again on its button, with its PIN: nothing to retype)
      gone || x.path === "/confirm" ? "" : el("button", { type: "button", class: "retype", onclick: () => retype(x) }, t("Retype")),
      el("button", { type: "button", class: "drop", onclick: () => drop(x) }, t("Drop")))));
  }
  // (a confirmation's side, or seat in a game without sides)
  const sideOf = (entry) => entry.body.side || entry.body.seat;
  let linesWords = null;  // the refused list's heading and note as the page came (lines)
  async function drop(entry) {
    outbox = outbox.filter((x) => x !== entry);
    await db.remove(entry.seq);
    banner();
  }
  async function retype(entry) {
    await drop(entry);
    if (entry.path === "/dgn") {
      $("typed-text").value = entry.body.text;
      $("typed-message").replaceChildren();
      $("typed-text").focus();
    } else if (view) call("POST", entry.path, entry.path === "/mode" ? { rev: view.rev, mode: entry.body.mode } : { rev: view.rev });
  }
  const sep = (path) => (path.includes("?") ? "&" : "?");
  // The closed hands a state holds, and how a request names them: by the key of the last one (a
  // digest of it and the hands before it), ``?hands=KEY.N``; the server sends only the hands after
  // them, or all when they changed.
  function heldOf(v) {
    const keys = v && v.game && v.game.hands_keys && v.game.hands_keys.length ? v.game.hands_keys : null;
    return keys ? { hands: v.game.hands.slice(0, keys.length), keys } : null;
  }
  const handsQuery = (held, path) => (held ? `${sep(path)}hands=${encodeURIComponent(`${held.keys[held.keys.length - 1]}.${held.keys.length}`)}` : "");
  // A state sent without the closed hands the page held (``hands_from``): made whole again.
  function whole(v, held) {
    if (v && v.game && v.game.hands_from !== undefined && v.game.hands_from !== null) {
      const n = v.game.hands_from;
      v.game.hands = held.hands.slice(0, n).concat(v.game.hands);
      v.game.hands_keys = held.keys.slice(0, n).concat(v.game.hands_keys);
      delete v.game.hands_from;
    }
  }
  // What a refresh compares: the table's revision moves with every write at the table; the status
  // and the result also move when the director enters a result (which the table's log does not hold),
  // and where its players go next when the next round is paired; at a duplicate table, the board it
  // is on and how many are done also move when the director marks a board not played or takes a
  // board's result back (neither is a write of the table's log: its revision stays), and the boards
  // the director is to enter here (a mark over this phone's play taken back).
  const version = (v) => [v.rev, v.status, JSON.stringify(v.result), JSON.stringify(v.next), v.board, v.boards_played,
                          JSON.stringify(v.not_played || []), JSON.stringify(v.to_enter || []), Boolean(v.call_closed)].join("|");
  // What the message line says of the board the director closed over this table's play (the
  // state's entered), as the state now stands: "" for none.  The mark or the result taken back
  // since (neither a write of the table's log: entered stays), the board is among those the
  // director is to enter (to_enter), and the line says so instead of the closing it no longer is.
  const closedLine = (v) => {
    const closed = v && v.entered && v.entered.board ? v.entered : null;
    if (!closed) return "";
    const n = closed.board;
    if ((v.to_enter || []).includes(n))
      return closed.not_played ? t("Board %(n)s is no longer marked not played: the director enters its result.", { n })
        : t("Board %(n)s's result was taken back: the director enters it again.", { n });
    return closed.not_played ? t("The director marked board %(n)s not played: the table goes on with its next board.", { n })
      : t("The director entered board %(n)s's result: the table goes on with its next board.", { n });
  };
  // Without the deal: where the tile tapped may go, asked of the server (one place: sent at once).
  let options = null;
  async function placeTile(tile) {
    const rev = view.rev;
    let found = null;
    // (no answer within ANSWER_MS where the engine is ready, else WAIT_MS, as for a write: the
    // server is out of reach, and the engine answers; already out of reach, or with writes in the
    // outbox (the table drawn is the engine's, ahead of the server's), the engine at once)
    const quick = engineReady();
    if (!(quick && (link.offline || waiting().length || flushing || delivering))) try {
      link.asking();
      const r = await within(`${api}/options?tile=${encodeURIComponent(tile)}`, { headers, cache: "no-store" }, quick ? ANSWER_MS : WAIT_MS);
      link.heard();
      if (r.ok) found = await r.json();
    } catch (e) { found = null; link.failed(e); banner(); }
    if (!found && engineReady()) {
      // The server out of reach: the phone's engine says where the tile may go, as the server
      // would (without it the tile was sent alone, and a tile that fits two ends was refused).
      try {
        const said = await timed(window.domrecEngine.answer(engineTable(), { path: "options", tile }), WAIT_MS);
        if (said && said.status === 200) found = said.body;
      } catch (e) { found = null; }
    }
    if (!found || found.rev !== rev || found.options.length === 0) { send(tile); return; }
    // One place: sent at the tap; but a draw is never taken for a play: a tile tapped as played
    // that fits nowhere, which the mover may only have drawn, is offered as the draw to confirm.
    if (found.options.length === 1 && found.options[0].kind !== "draw") { send(found.options[0].text); return; }
    chosen = tile;
    options = { tile, list: found.options };
    render();
  }
  // A write tapped before the table is first drawn (a slow first answer; Send pressed at once)
  // names no revision it was made on: it is sent nowhere, and said so (it threw, silently).
  const notDrawn = () => {
    notDrawnSaid = true;
    say(t("the table is not shown yet: nothing was sent; try again once it is"), "bad");
    return Promise.resolve({ ok: false, status: 0, data: {} });
  };
  const send = (text) => (view ? call("POST", "/dgn", { rev: view.rev, text }) : notDrawn());

  function totals(game) {
    const box = $("totals");
    // A duplicate table's totals are its board's in play: between boards, and once the last one is
    // confirmed, there is none to show (its boards' scores are listed in the panel), never "NS 0 EW 0".
    if (view.boards && !game.in_hand) { box.replaceChildren(); return; }
    // (a confirmed table's are the result the event holds: the director's, where it entered one)
    const held = view.status === "confirmed" && view.result && view.result.scores ? view.result.scores : null;
    box.replaceChildren(...Object.keys(game.totals).map((side) =>
      el("span", {}, side + " ", el("b", {}, held ? (held[side] ?? 0) : game.totals[side]))));
  }

  // Who each side is where a side is a pair (a pairs or team event): the pair's name, and its
  // team's, under the scores (the seats below name the players).  Names are the players' own
  // text: drawn as text (name(), never as HTML), as every name on the page.
  function units() {
    const box = $("units");
    if (!box) return;
    const known = view.units || {};
    const sides = (view.sides || []).filter((s) => known[s] && known[s].pair);
    box.hidden = !sides.length;
    box.replaceChildren(...sides.map((s) => el("div", { "data-side": s }, s + " ", el("b", {}, name(known[s].pair)),
      ...(known[s].team ? [" · ", name(known[s].team)] : []))));
  }

  function players(game) {
    // A table whose result is in (confirmed, or entered by the director over a game still in play
    // here) has nobody to play: no seat is marked.
    const toMove = view.status === "confirmed" ? null : game.to_move;
    $("players").replaceChildren(...game.seats.map((seat) =>
      el("div", { class: seat === toMove ? "to-move" : "" }, seat + " ", name(game.players[seat] || ""),
         seat === toMove ? " ◀" : "")));
  }

  // The hand's moves, each one unit the line wraps around, never through (a tile's "6-4" kept whole).
  // The hand being played's moves: none once it is closed (it is then among the hands so far, and
  // the panel offers the next hand), none before its first.
  function movesOf(game) {
    const hand = game.hands[game.hands.length - 1];
    if (!hand || !game.in_hand || view.status === "confirmed") return [];
    return hand.moves.map((m) => el("span", { class: "mv" }, m.seat + " " + m.text + (m.points ? " (+" + m.points + ")" : "")));
  }

  function tileButtons(tiles, onTap, disabled, extra) {
    return el("div", { class: "row tiles" + (extra ? " " + extra : "") }, ...tiles.map((t) =>
      el("button", { type: "button", class: t === chosen ? "chosen" : "", disabled: disabled && disabled(t),
                     onclick: () => onTap(t), "data-tile": t }, t)));
  }

  // Broadway: the tableau's cells, the laid tiles and, for the tile tapped, where it may go.
  function tableau(game, choices) {
    const hand = game.hands[game.hands.length - 1];
    const laid = new Map();
    for (const m of (hand ? hand.moves : [])) if (m.at) m.at.forEach((c, k) => laid.set(c.join(","), m.tile.split("-")[k] || m.tile));
    const cells = [...laid.keys()].map((k) => k.split(",").map(Number));
    choices.forEach((c) => c.at.forEach((cell) => cells.push(cell)));
    if (!cells.length) return null;
    const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
    const x0 = Math.min(...xs), x1 = Math.max(...xs), y0 = Math.min(...ys), y1 = Math.max(...ys);
    const grid = el("div", { class: "grid", style: `grid-template-columns: repeat(${x1 - x0 + 1}, 44px)` });
    // Each cell lists every placement that covers it (a tile covers two cells, and two placements
    // may share both, as one tile the two ways round): a cell of one placement sends it at the tap;
    // a cell of several offers them, below the tableau, to tap the one meant.
    const pick = new Map();
    choices.forEach((c, k) => c.at.forEach((cell) => { const key = cell.join(","); (pick.get(key) || pick.set(key, []).get(key)).push(k); }));
    const tile = choices[0].tile;
    if (sharedCell && (sharedCell.tile !== tile || (pick.get(sharedCell.key) || []).length < 2)) sharedCell = null;
    for (let y = y1; y >= y0; y--) for (let x = x0; x <= x1; x++) {
      const key = x + "," + y;
      if (laid.has(key)) grid.append(el("div", { class: "cell laid" }, laid.get(key)));
      else if (pick.has(key)) {
        const ks = pick.get(key);
        const one = ks.length === 1 ? choices[ks[0]] : null;
        grid.append(el("button", { type: "button", class: "cell can" + (one ? "" : " shared") + (sharedCell && sharedCell.key === key ? " chosen" : ""),
                                   title: ks.map((k) => "#" + (k + 1) + " " + choices[k].label).join("\n"),
                                   onclick: one ? () => send(one.text) : () => { sharedCell = sharedCell && sharedCell.key === key ? null : { tile, key }; render(); },
                                   "data-cell": key, "data-move": one ? one.text : null,
                                   "data-moves": one ? null : ks.map((k) => choices[k].text).join("|") },
                       ks.map((k) => "#" + (k + 1)).join(" ")));
      } else grid.append(el("div", { class: "cell" }));
    }
    if (!sharedCell) return grid;
    const ks = pick.get(sharedCell.key);
    return el("div", { class: "tableau" }, grid,
              el("div", { class: "targets", id: "cell-choices", "data-cell": sharedCell.key },
                 el("p", { class: "note" }, t("%(numbers)s share this cell: tap the one meant", { numbers: ks.map((k) => "#" + (k + 1)).join(" ") })),
                 ...ks.map((k) => el("button", { type: "button", onclick: () => send(choices[k].text), "data-move": choices[k].text },
                                     "#" + (k + 1) + " " + choices[k].label))));
  }
  let sharedCell = null;  // the tableau's cell tapped that several placements share: {tile, key}

  function playPanel(game) {
    const box = el("section", {});
    if (view.boards && !game.in_hand && !game.announced) {
      // A duplicate table: the board's deal is known (from its slip); the hand starts it.
      box.append(el("h2", {}, t("Board %(n)s", { n: view.board })),
                 el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "start-hand", "data-board": view.board,
                   onclick: () => send("hand 1") }, t("Start board %(n)s", { n: view.board })),
                   // Or the table types each board's score, as a score sheet (its play not recorded).
                   el("button", { type: "button", id: "mode-sheet", onclick: () => call("POST", "/mode", { rev: view.rev, mode: "sheet" }) },
                      t("Scores only"))),
                 el("p", { class: "note" }, t("Lay out the board's tiles as its slip lists them, then start it: the phone knows the deal.")));
      return box;
    }
    if (!game.in_hand && !game.announced) {
      const next = game.hands.length + 1;
      const clock = view.time_limit && game.hands.length
        ? el("button", { type: "button", id: "time-up", onclick: () => send("time") }, t("Time is up: end the game here")) : null;
      const lead = el("select", { id: "lead", "aria-label": t("who leads") }, el("option", { value: "" }, t("lead: as the rules say")),
                      ...game.seats.map((s) => el("option", { value: s, selected: s === game.lead },
                                                  t("lead: %(seat)s %(name)s", { seat: s, name: unsteered(game.players[s] || "") }))));
      box.append(el("h2", {}, t("Hand %(n)s", { n: next })),
                 el("div", { class: "row" }, lead, el("button", { type: "button", class: "primary", id: "start-hand",
                   onclick: () => send("hand " + next + ($("lead").value ? " lead " + $("lead").value : "")) }, t("Start hand %(n)s", { n: next }))),
                 el("p", { class: "note" }, t("The deal may be entered first, as deal lines in the box below, or not at all.")));
      // The hand was started but cannot begin yet (Castle Rock without its row): what it waits for, from the engine.
      if (game.waiting) box.append(keepTiles(el("p", { class: "note", id: "waiting" }, game.waiting)));
      // Castle Rock's starting row lies face up: the one part of the deal every hand needs, asked for
      // here in its own field (the tiles as they lie, blocked end first), sent as the DGN row line.
      if (game.game === "castle-rock") {
        const row = el("input", { id: "row-tiles", autocomplete: "off", autocapitalize: "off", spellcheck: "false",
                                  "aria-label": t("the starting row, blocked end first"), placeholder: unbroken("4-0 5-3 3-1 4-2") });
        // (what to type, said in full beside the field: a placeholder that says it is cut on a phone)
        box.append(el("form", { class: "row", id: "row-form" }, row,
                      el("button", { type: "submit", class: game.waiting ? "primary" : "" }, t("Lay the row"))),
                   keepTiles(el("p", { class: "note", id: "row-hint" }, t("The starting row: its tiles as they lie, the blocked end first, such as 4-0 5-3 3-1 4-2."))));
        box.querySelector("#row-form").addEventListener("submit", (event) => {
          event.preventDefault();
          const tiles = $("row-tiles").value.trim().replace(/^row\s+/i, "");
          if (tiles) send("row " + tiles);
        });
      }
      if (clock) box.append(el("p", { class: "note" }, t("The event's clock (%(minutes)s minutes) has run out? The side ahead wins.",
                                                    { minutes: view.time_limit })), clock);
      return box;
    }
    if (game.hand_over && game.end_waited) {  // its left line given: only the end line's scores settle it
      box.append(el("h2", {}, t("Hand %(n)s is over", { n: game.hand })),
                 el("p", { class: "note" }, t("Its moves, typed without their ends or seats, can be read in ways that give it different scores: type its end line with the scores in the box below (end out %(a)s 10 %(b)s 0), or where each tile went and whose it was.", scorers(game))));
      return box;
    }
    if (game.hand_over) {
      box.append(el("h2", {}, t("Hand %(n)s is over", { n: game.hand })),
                 el("p", { class: "note" }, game.deal_known ? t("Close it to record its score (or undo the last move).")
                   : t("Type the tiles each player still holds in the box below (left %(a)s 6-6; %(b)s …), or close it if nobody holds any.", seatPair(game))),
                 el("button", { type: "button", class: "primary", id: "close-hand", onclick: () => send("y") }, t("Close hand %(n)s", { n: game.hand })));
      const closing = game.legal || [];  // Castle Rock: the last placer's captures, still to make
      if (closing.length) box.append(el("p", { class: "note" }, t("Captures the last player may still make:")),
        el("div", { class: "row" }, ...closing.map((m) =>
          el("button", { type: "button", onclick: () => send(m.text), "data-move": m.text }, m.label))));
      return box;
    }
    const legal = game.legal || [];
    if (legal.length) {
      // The engine's moves: with the deal, the legal ones; without it (Castle Rock, Domino
      // Roads), every move that may be legal, each tile one the mover may hold.
      const byTile = new Map(), drawn = new Map(), rolls = [], other = [];
      const group = (map, m) => (map.get(m.tile) || map.set(m.tile, []).get(m.tile)).push(m);
      for (const m of legal) {
        if (m.kind === "roll") rolls.push(m);
        else if (m.tile && m.kind === "draw") group(drawn, m);
        else if (m.tile) group(byTile, m);
        else other.push(m);
      }
      if (byTile.size) {
        // (Nobody to move yet: a hand whose lead the rules leave free, led by whoever leads first.)
        box.append(el("h2", {}, !game.to_move ? t("Tap the tile played")
                                : game.deal_known ? t("%(seat)s to play: tap a tile", { seat: game.to_move })
                                : t("%(seat)s to play: tap the tile played", { seat: game.to_move })));
        box.append(tileButtons([...byTile.keys()], (t) => { chosen = t; render(); }));
      }
      if (other.length) box.append(el("div", { class: "row", style: "margin-top:6px" },
        ...other.map((m) => el("button", { type: "button", onclick: () => send(m.text), "data-move": m.text }, m.label))));
      if (rolls.length) box.append(dice(rolls));
      if (drawn.size) {
        box.append(el("h2", {}, t("Draw: tap the tile drawn")));
        box.append(tileButtons([...drawn.keys()], (t) => send(drawn.get(t)[0].text), null, "draws"));
      }
      if (chosen && byTile.has(chosen)) {
        const choices = byTile.get(chosen);
        if (choices.length === 1 && !choices[0].at) { const only = choices[0]; chosen = null; send(only.text); return box; }
        const grid = choices.some((c) => c.at) ? tableau(game, choices) : null;
        if (grid) box.append(el("h2", {}, t("Where does %(tile)s go? Tap a numbered cell", { tile: chosen })), grid);
        else box.append(el("h2", {}, t("Where does %(tile)s go?", { tile: chosen })));
        box.append(el("div", { class: "targets" }, ...choices.map((c, k) =>
          el("button", { type: "button", onclick: () => send(c.text), "data-move": c.text }, (grid ? "#" + (k + 1) + " " : "") + c.label))));
      }
      return box;
    }
    // The deal was not entered and the engine cannot list the moves: any tile not yet seen this
    // hand; the engine says where it may go (every place it accepts the tile), and checks the rest.
    const seen = new Set(game.seen || []);
    // Nobody to move yet (the hand's first tile, its lead the deal's): whoever played it leads, and
    // without the deal only the table knows who that was, so the page asks rather than send the
    // tile alone, which a reading would give to the first seat until the hand's end said otherwise.
    const whose = !game.to_move && (game.in_hand || game.announced) && !game.hand_over;
    box.append(el("h2", {}, game.to_move ? t("%(seat)s to play: tap the tile played", { seat: game.to_move }) : t("Tap the tile played")),
               tileButtons(game.tiles, whose ? (tile) => { chosen = tile; options = null; render(); } : placeTile,
                           (t) => seen.has(t)));
    if (whose && chosen) {
      const tile = chosen;
      box.append(el("h2", {}, t("Who played %(tile)s? Tap the seat", { tile })));
      box.append(el("div", { class: "targets" }, ...game.seats.map((seat) =>
        el("button", { type: "button", onclick: () => { chosen = null; send(seat + " " + tile); }, "data-move": seat + " " + tile },
           seat + " ", name(game.players[seat] || "")))));
    }
    if (chosen && options && options.tile === chosen) {
      const grid = options.list.some((c) => c.at) ? tableau(game, options.list) : null;
      const drawnOnly = options.list.every((c) => c.kind === "draw");
      box.append(el("h2", {}, drawnOnly ? t("%(tile)s cannot be played now: was it drawn?", { tile: chosen })
                                : grid ? t("Where does %(tile)s go? Tap a numbered cell", { tile: chosen }) : t("Where does %(tile)s go?", { tile: chosen })));
      if (grid) box.append(grid);
      box.append(el("div", { class: "targets" }, ...options.list.map((c, k) =>
        el("button", { type: "button", onclick: () => send(c.text), "data-move": c.text }, (grid ? "#" + (k + 1) + " " : "") + c.label))));
    }
    const plain = game.plain || [];
    if (plain.length) box.append(el("div", { class: "row", style: "margin-top:6px" },
      ...plain.map((m) => el("button", { type: "button", onclick: () => send(m.text), "data-move": m.text }, m.label))));
    return box;
  }

  // Domino Roads: the dice as thrown, first die then second, among the rolls the engine lists
  // (before a three-player hand's first move any seat may roll: the seat is chosen first).
  let firstDie = null;
  function dice(rolls) {
    const seats = [...new Set(rolls.map((m) => m.seat))];
    const box = el("div", { id: "dice" });
    let seat = seats[0];
    if (seats.length > 1) {
      const pick = el("select", { id: "roller", "aria-label": t("who rolls") }, ...seats.map((s) => el("option", { value: s }, t("%(seat)s rolls", { seat: s }))));
      box.append(pick);
      seat = null;
    }
    const roller = () => seat || $("roller").value;
    box.append(el("h2", {}, seats.length === 1 ? (firstDie ? t("%(seat)s rolls: second die", { seat }) : t("%(seat)s rolls: first die", { seat }))
                                              : (firstDie ? t("Second die") : t("First die"))));
    box.append(el("div", { class: "row tiles" }, ...[1, 2, 3, 4, 5, 6].map((n) =>
      el("button", { type: "button", class: firstDie === n ? "chosen" : "", "data-die": n, onclick: () => {
        if (firstDie === null) { firstDie = n; render(); return; }
        const text = roller() + " r" + firstDie + "+" + n;
        const move = rolls.find((m) => m.text === text);
        firstDie = null;
        if (move) send(move.text); else { say(t("that roll cannot be made now"), "bad"); render(); }
      } }, String(n)))));
    if (firstDie !== null) box.append(el("button", { type: "button", onclick: () => { firstDie = null; render(); } }, t("Change the first die (%(n)s)", { n: firstDie })));
    return box;
  }

  // Scores only: what is typed is kept per hand (sheetDraft), so a redraw (another phone's hand,
  // a refresh) never empties the boxes; once a hand is sent, the next hand's boxes show at once,
  // and what is typed there while the answer is on its way is kept for it.  A hand refused shows
  // again with the numbers that were sent.
  const sheetDraft = {};
  let sheetSent = null;
  // A hand's scores as its boxes give them ("NS 30 EW 0"), or null, said why, where nothing is to
  // be sent (docs/venue.md, "Scores only").  A blank box is 0 once another box of the hand is typed
  // (one side scores a Competitive hand; most players score nothing in a hand of Horse Race), but a
  // form left blank is a tap by mistake, not a hand of 0 – 0: nothing is sent.  A typed 0 is a
  // score (a blocked hand tied at 0 – 0 typed so is recorded).  A box holding what is not a whole
  // number is refused, as the director's form refuses it, in the same words.  The server takes
  // "end NS 0 EW 0" from any client: a hand of no points is legal DGN; a form left blank is this
  // page's to catch.
  function sheetParts(sides) {
    const typed = sides.map((s) => { const box = $("score-" + s); return box.validity.badInput ? null : box.value.trim(); });
    const wrong = sides.findIndex((s, k) => typed[k] === null || (typed[k] !== "" && !/^-?[0-9]+$/.test(typed[k])));
    const blank = typed.every((v) => v === "");
    if (wrong >= 0 || blank) {
      say(t("type the score of %(side)s as a whole number of points", { side: sides[wrong >= 0 ? wrong : 0] }), "bad");
      return null;
    }
    return sides.map((s, k) => s + " " + (typed[k] || "0")).join(" ");
  }
  function sheetPanel(game) {
    // A duplicate table's draft is its board's (each board's one hand is hand 1).
    const next = view.boards ? "b" + view.board : sheetSent === game.hands.length + 1 ? sheetSent + 1 : game.hands.length + 1;
    for (const k of Object.keys(sheetDraft)) if (Number(k) < game.hands.length + 1) delete sheetDraft[k];
    const sides = view.sides;
    const draft = sheetDraft[next] || {};
    const inputs = sides.map((s) => {
      const box = el("input", { type: "number", inputmode: "numeric", min: "0", id: "score-" + s, style: "width:6em",
                                value: draft[s] ?? "" });
      box.addEventListener("input", () => { (sheetDraft[next] = sheetDraft[next] || {})[s] = box.value; });
      return el("label", {}, s + " ", box);
    });
    if (view.boards) return boardSheetPanel(inputs);
    return el("section", {}, el("h2", {}, t("Hand %(n)s: its score", { n: next })), el("div", { class: "row" }, ...inputs),
      el("button", { type: "button", class: "primary", id: "add-sheet-hand", "data-hand": next, disabled: sheetSent !== null, onclick: () => {
        if (sheetSent !== null) { say(t("the hand before is still on its way: wait for its answer"), "bad"); return; }
        sheetDraft[next] = Object.fromEntries(sides.map((s) => [s, $("score-" + s).value]));
        const parts = sheetParts(sides);
        if (parts === null) return;
        sheetSent = next;
        render();
        send("hand " + next + "\nend " + parts).finally(() => { sheetSent = null; render(); });
      } }, t("Record hand %(n)s", { n: next })));
  }

  // A duplicate table that types its boards' scores: the board's one hand, the points each side won
  // and how the hand ended; confirmed by both sides as a played board is.
  function boardSheetPanel(inputs) {
    // (the ways the event's rules let a board's hand end, as the server lists them: view.ends)
    const words = { "out": t("out"), "blocked": t("blocked"), "target": t("target") };
    const how = el("select", { id: "board-ended", "aria-label": t("how the hand ended") },
      ...(view.ends || ["out"]).map((e) => el("option", { value: e }, words[e] || e)));
    return el("section", {}, el("h2", {}, t("Board %(n)s: its score", { n: view.board })),
      el("div", { class: "row" }, ...inputs, el("label", {}, t("how the hand ended") + " ", how)),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "add-sheet-board", "data-board": view.board, disabled: sheetSent !== null, onclick: () => {
          if (sheetSent !== null) { say(t("the hand before is still on its way: wait for its answer"), "bad"); return; }
          sheetDraft["b" + view.board] = Object.fromEntries(view.sides.map((s) => [s, $("score-" + s).value]));
          const parts = sheetParts(view.sides);
          if (parts === null) return;
          sheetSent = 1;
          render();
          send("hand 1\nend " + $("board-ended").value + " " + parts).finally(() => { sheetSent = null; render(); });
        } }, t("Record board %(n)s", { n: view.board })),
        el("button", { type: "button", id: "mode-play", onclick: () => call("POST", "/mode", { rev: view.rev, mode: "play" }) },
           t("Play by play"))));
  }

  // The hands' scores, a row a hand, and the totals.
  // A confirmed table shows the result the event holds: where the director entered one other than
  // what the moves recorded here give (a game stopped early, a forfeit, a score put right), its
  // last row is that result, said to be the director's, not the moves' totals (a 0 – 0 under
  // "Confirmed: the result is in the event" told the players their game counted for nothing).
  // The director enters it from the director's page ("via": "director") or at the command line
  // (no "via": `tournament result`, `amend`): both are the director's, and said so; only a result
  // confirmed here ("via": "table") is the event's without being the director's.
  function handsTable(game, hands) {
    const sides = view.sides;
    const rows = hands.map((h) => el("tr", {}, el("td", {}, t("hand %(n)s", { n: h.number })),
      ...sides.map((s) => el("td", {}, h.result && h.result.scores ? (h.result.scores[s] ?? 0) : "–"))));
    const held = view.status === "confirmed" && view.result && view.result.scores;
    const other = held && sides.some((s) => (view.result.scores[s] ?? 0) !== (game.totals[s] ?? 0));
    const last = other
      ? el("tr", { id: "entered-result" }, el("th", {}, view.result.via === "table" ? t("result in the event") : t("result entered by the director")),
           ...sides.map((s) => el("th", {}, view.result.scores[s] ?? 0)))
      : el("tr", {}, el("th", {}, t("total")), ...sides.map((s) => el("th", {}, game.totals[s] ?? 0)));
    return el("table", { class: "result" }, el("tr", {}, el("th", {}, ""), ...sides.map((s) => el("th", {}, s))), ...rows, last);
  }

  // After the last confirmation: where each player sits in the next round, once it is paired (this
  // page asks again every few seconds, so it shows them by itself).
  function nextSeats(game, next) {
    // A set's next game, seated at once in this same round: its table, not the next round.
    const box = el("section", { id: "next" }, el("h2", {}, next.same_round ? t("Where to go next: the set's next game")
      : t("Where to go next: round %(n)s", { n: next.round })));
    // The event's last round played (a duplicate session's movement, a team round robin): no next
    // round to wait for, said in the server's words (the director's page says the same).
    if (next.over) {
      box.firstChild.textContent = t("That was the last round");
      box.append(el("p", { class: "note", id: "event-over" }, next.over));
      return box;
    }
    // A duplicate round: a pair's seats, and the boards that come there.
    if (!next.paired) {
      box.append(el("p", { class: "note" }, t("Round %(n)s is not paired yet: where each of you sits will show here.", { n: next.round })));
      return box;
    }
    box.append(el("ul", { class: "next-seats" }, ...game.seats.map((seat) => {
      const to = next.seats[seat] || {};
      const where = to.table && to.boards ? t("table %(table)s, seat %(seat)s, boards %(boards)s", { table: to.table, seat: to.seat, boards: to.boards.join(", ") })
        : to.table ? t("table %(table)s, seat %(seat)s", { table: to.table, seat: to.seat })
        : to.bye ? t("a bye in round %(n)s", { n: next.round })
        : to.sits_out ? t("sits out round %(n)s", { n: next.round }) : t("no table in round %(n)s", { n: next.round });
      return el("li", { "data-seat": seat }, seat + " ", name(game.players[seat] || ""), " → ", el("b", {}, where));
    })));
    return box;
  }

  // A duplicate table's boards of the round, a row a board, once every one is confirmed: its
  // result, or "not played" for a board marked so (it has no result), in the order it plays them.
  function boardsTable(boards) {
    const sides = view.sides;
    const skipped = view.not_played || [];
    const rows = (view.boards || boards.map((b) => b.board)).map((n) => {
      const b = boards.find((x) => x.board === n);
      // A board still going round the room, read with the key of a round that is over: its result
      // here shows once every table that plays it has played it, as in the hall.
      if (b && b.withheld) return el("tr", { "data-board": n, "data-withheld": "yes" }, el("td", {}, t("board %(n)s", { n })),
        el("td", { colspan: String(sides.length), class: "note" }, t("played: its result shows once every table that plays this board has played it")));
      if (b) return el("tr", { "data-board": n }, el("td", {}, t("board %(n)s", { n })), ...sides.map((s) => el("td", {}, b[s] ?? 0)));
      return skipped.includes(n) ? el("tr", { "data-board": n, "data-not-played": "yes" }, el("td", {}, t("board %(n)s", { n })),
                                      el("td", { colspan: String(sides.length), class: "note" }, t("not played"))) : null;
    }).filter(Boolean);
    return el("table", { class: "result", id: "boards-played" }, el("tr", {}, el("th", {}, ""), ...sides.map((s) => el("th", {}, s))),
      ...rows);
  }

  // This table's first two seats, and its first two scorers (the sides of a partnership game, else
  // the seats), for the examples the page gives: a table's players may be P1 to P4, not N, E, S, W.
  const seatPair = (game) => ({ a: game.seats[0] || "N", b: game.seats[1] || game.seats[0] || "E" });
  const scorers = (game) => {
    const sides = Object.keys(game.totals || {});
    return sides.length > 1 ? { a: sides[0], b: sides[1] } : seatPair(game);
  };
  // What the box's placeholder shows: lines of this table's own game, with its own seats (a Castle
  // Rock table's players are P1 to P4, not N, E, S and W, and its moves are not a line's).
  function typedExample(game) {
    const { a, b } = seatPair(game);
    switch (game.game) {
      case "broadway": return t("DGN lines: %(a)s 6-6@0,0   6-4@1,1   -   deal %(a)s 6-6 …   left %(a)s 0-0; %(b)s 3-1", { a, b });
      case "horse-race": return t("DGN lines: %(a)s 6-4   +3-0   4-4   -   deal %(a)s 6-6 …   left %(a)s 0-0; %(b)s 3-1", { a, b });
      case "castle-rock": return t("DGN lines: row 4-0 5-3 3-1 4-2   %(b)s 6-3   +3-0   x4-2   x5-3,3-1,6-3", { a, b });
      // (A road is named as the page's own moves name it: NS1 with partners, P1-1 for three alone.)
      case "domino-roads": return t("DGN lines: %(a)s r4+5   s3-4@%(road)s/4   5-6@%(road)s   -   deal %(a)s 6-6 …",
                                    { a, b, road: game.seats.includes("N") ? "NS1" : a + "-1" });
      default: return t("DGN lines: 6-4   W 6-4@4-2   -   +   deal N 6-6 …   left N 0-0; E 3-1");
    }
  }

  function resultPanel(game) {
    const sides = view.sides;
    const boards = view.boards && view.status === "confirmed" && view.result && view.result.boards;
    const table = boards ? boardsTable(view.result.boards) : handsTable(game, game.hands);
    const heading = view.boards ? (view.status === "confirmed" ? t("Confirmed: every board's result is in the event")
                                     : t("Board %(n)s is over: check its result, then confirm it", { n: view.board }))
      : view.status === "confirmed" ? t("Confirmed: the result is in the event") : t("The game is over: check the result, then confirm it");
    const box = el("section", {}, el("h2", {}, heading), table);
    if (view.status === "confirmed" && view.next) box.append(nextSeats(game, view.next));
    if (view.status !== "confirmed") {
      const pin = view.pins ? el("input", { id: "pin", type: "password", inputmode: "numeric", maxlength: "4",
                                            placeholder: t("PIN"), "aria-label": t("your PIN"), style: "width:6em" }) : null;
      // (a game played each for himself has no sides: every player confirms for their seat)
      box.append(el("p", { class: "note" }, view.by_seat
        ? (view.pins ? t("Each player types their own PIN and taps their seat.") : t("Each player taps their seat."))
        : view.pins ? t("One player of each side types their own PIN and taps their side.")
        : t("One player of each side taps their side.")));
      // A result enters the event through the server only: offline, or while moves made offline
      // wait to be sent, confirming waits.
      // A confirmation tapped that the server has not answered yet: said, and sent when it answers.
      const unanswered = delivering && delivering.path === "/confirm";
      const held = !unanswered && (link.offline || waiting().length > 0);
      // A confirmation this phone kept (the page opened again while it waited): said, its side's
      // button greyed with the others, and sent from the outbox when the server answers.
      const keptConfirm = waiting().find((x) => x.path === "/confirm");
      if (keptConfirm) box.append(el("p", { class: "note waits", id: "confirm-kept" },
        t("The confirmation for %(side)s is kept on this phone: it is sent when the connection to the server is back. There is no need to tap again.",
          { side: keptConfirm.body.side || keptConfirm.body.seat })));
      // (the moves made offline named only where this phone holds some: a table's second phone,
      // the one its other side confirms on, holds none, and was told of moves it never made)
      // (a table recording scores only waits on its hands' scores, as its banner says, not on moves)
      else if (held) box.append(el("p", { class: "note", id: "confirm-waits" }, !waiting().length
        ? t("Confirming waits for the connection to the server.")
        : view.mode === "sheet" ? t("Confirming waits for the connection to the server: the scores made offline are sent first.")
        : t("Confirming waits for the connection to the server: the moves made offline are sent first.")));
      if (unanswered && delivering.waits) box.append(el("p", { class: "note waits", id: "confirm-pending" },
        waitWords(delivering.busy, true)));
      if (pin) box.append(pin);
      box.append(el("div", { class: "row" }, ...sides.map((s) => {
        const done = view.confirmations[s];
        return el("button", { type: "button", class: done ? "chosen" : "primary", disabled: !!done || held || unanswered, "data-side": s,
          onclick: () => call("POST", "/confirm", Object.assign({ rev: view.rev }, view.by_seat ? { seat: s } : { side: s },
                                                              pin ? { pin: pin.value } : {})) },
          done ? t("%(side)s confirmed", { side: s }) : t("Confirm for %(side)s", { side: s }));
      })));
    }
    return box;
  }

  function render() {
    if (!view) return;
    keepView();
    document.body.dataset.rev = view.rev;
    document.body.dataset.drawn = String((Number(document.body.dataset.drawn) || 0) + 1);  // how many times drawn
    const game = view.game;
    window.venue.names = [...Object.values(game.players || {}), view.event || "",
                          ...Object.values(view.units || {}).flatMap((u) => [u.pair || "", u.team || ""])];
    $("title").replaceChildren(...withNodes(t("%(event)s · round %(round)s · table %(table)s", { event: slot("event"), round: view.round, table: view.table }),
                                            { event: name(view.event) }));
    totals(game);
    units();
    players(game);
    const main = $("panel");
    // The panel is drawn again when the table moves on (a new rev starts afresh) or after a write of
    // this phone's that was refused (the same rev): then what is being typed or chosen in it (a
    // hand's scores, the leader picked) stays, and so does the focus.  A refresh that finds the table
    // as it was draws nothing (see request).
    const kept = {};
    const same = main.dataset.rev === String(view.rev);
    if (same) main.querySelectorAll("input[id], select[id]").forEach((input) => { kept[input.id] = input.value; });
    const focused = same && document.activeElement && main.contains(document.activeElement) ? document.activeElement.id : "";
    main.dataset.rev = view.rev;
    main.replaceChildren();
    if (view.called) main.append(el("p", { class: "state-called" }, t("The director has been called to this table.")));
    // A round that is over (a later round paired), its result in: a call from here is refused, so
    // Call the director is greyed and why is said (the state's call_closed, as the server judges it).
    $("call").disabled = Boolean(view.call_closed);
    if (view.call_closed) main.append(el("p", { class: "note", id: "call-closed" },
      t("Round %(n)s is over: call the director from the table you play at now.", { n: view.round })));
    // The board's place among the boards this table plays this round: a board marked not played
    // there is not one of them (boards 1 and 2, board 2 not played: "Board 1 (1 of 1 this round)").
    const plays = view.boards ? view.boards.filter((b) => !(view.not_played || []).includes(b)) : [];
    if (view.boards && view.board) main.append(el("p", { class: "note", id: "board-now", "data-board": view.board },
      t("Board %(n)s (%(k)s of %(m)s this round)", { n: view.board, k: plays.indexOf(view.board) + 1, m: plays.length })));
    // A board the director closed on this phone (a result or a mark "not played" over its hand, since
    // taken back): it is due here again, but a board is one hand and the phone never plays it again;
    // the director enters its result (the state's to_enter).  Said, and once it is the only board
    // left, nothing to start.
    const owed = view.boards && view.status !== "confirmed" ? (view.to_enter || []) : [];
    if (owed.length) main.append(el("p", { class: "note", id: "to-enter", "data-boards": owed.join(",") },
      owed.length === 1 ? t("Board %(n)s is not played again at this table: the director enters its result.", { n: owed[0] })
                        : t("Boards %(list)s are not played again at this table: the director enters their results.", { list: owed.join(", ") })));
    if (view.status === "confirmed" || game.over) main.append(resultPanel(game));
    else if (owed.length && !view.board) main.append(el("p", { class: "note", id: "boards-done" }, t("Nothing is left to play at this table this round.")));
    else if (view.mode === null && !game.hands.length && !view.boards) {
      main.append(el("section", {}, el("h2", {}, t("How will this table record its game?")), el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "mode-play", onclick: () => call("POST", "/mode", { rev: view.rev, mode: "play" }) },
           t("Play by play")),
        el("button", { type: "button", id: "mode-sheet", onclick: () => call("POST", "/mode", { rev: view.rev, mode: "sheet" }) },
           t("Scores only")))));
    } else if (view.mode === "sheet") main.append(sheetPanel(game));
    else main.append(playPanel(game));
    Object.keys(kept).forEach((id) => { const input = document.getElementById(id); if (input) input.value = kept[id]; });
    if (focused && document.getElementById(focused)) document.getElementById(focused).focus();
    $("moves").replaceChildren(...movesOf(game));
    // The hands closed so far, hand by hand, while the game goes on (the result panel shows them at the end).
    const closed = game.hands.filter((h) => h.result && h.result.scores);
    $("earlier").hidden = !closed.length || game.over || view.status === "confirmed";
    if (!$("earlier").hidden) $("earlier-table").replaceChildren(handsTable(game, closed));
    $("layout").replaceChildren(...layoutLines(game.table));
    // (a hand announced and not begun shows its table too: a Castle Rock row just laid, to check)
    // (none once the table's result is in: the director's entered over a hand in play ends the game here)
    $("layout").hidden = !(game.table || []).length || !(game.in_hand || game.announced) || view.status === "confirmed";
    $("this-hand").hidden = !$("moves").children.length && $("layout").hidden;
    const locked = view.status === "confirmed";
    $("typed-text").placeholder = unbroken(typedExample(game));
    // (a hand only announced, *Start hand N* or its deal lines, is taken back by undo too; and so is
    // one that cannot start yet, game.waiting: Castle Rock's *Start hand N* before its row, a deal
    // line typed first, whose state names no hand announced)
    $("undo").disabled = locked || !(game.hands.length || game.announced || game.waiting);
    $("typed").hidden = locked || Boolean(owed.length && !view.board);  // (nothing to type: see "boards-done")
    document.dispatchEvent(new CustomEvent("table:drawn", { detail: { rev: view.rev } }));
  }
  // What the director's panel (table_director.js) uses: the table as last drawn, and the one queue
  // of requests, so that its correction's answer is drawn as any write's.
  // A read of the director's panel at the table (the table's lines, with the director's PIN): the
  // same time limit as the table's own reads (WAIT_MS), told to the same link (the banner, and
  // <body data-link>).  Its answer, or it throws (a failed fetch; an AbortError, given up).
  async function read(path, more) {
    link.asking();
    banner();
    try {
      const response = await within(api + path, { headers: Object.assign({}, headers, more || {}), cache: "no-store" }, WAIT_MS);
      link.heard();
      return response;
    } catch (e) { link.failed(e); throw e; } finally { banner(); }
  }
  window.venue.table = { view: () => view, call, read, link: () => linkState(), directorPinWait: () => directorPinWait };

  // Right after the left line that closed a hand (game.left_closed), Undo takes back that line and
  // the deal worked out from it: "undo left" (a plain "undo" there keeps the meaning the venue's
  // logs were written with, the hand's last move, the deal kept).  "undo" typed in the box is the
  // button's word, and means what the button does.
  const undoLine = () => (view && view.game && view.game.left_closed ? "undo left" : "undo");
  $("undo").addEventListener("click", () => send(undoLine()));
  $("call").addEventListener("click", () => (view ? call("POST", "/call", { rev: view.rev }) : notDrawn()));
  $("typed-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = $("typed-text").value;
    const beside = $("typed-message");
    beside.replaceChildren();
    beside.className = "";
    if (text.trim()) send(/^\s*undo\s*$/i.test(text) ? undoLine() : text).then(() => {
      if ($("message").className !== "bad") { $("typed-text").value = ""; return; }
      if (gone) return;
      // Refused (by the server, or offline by the phone's engine): said beside the box the line
      // stays in, where the player pressed Send (the message line is at the top, off screen on a
      // long page, or under the sticky header), and scrolled into view, clear of the header and
      // the buttons at the bottom.
      beside.replaceChildren(...$("message").childNodes);
      beside.className = "bad";
      say("");
      beside.scrollIntoView({ block: "nearest" });
    });
  });
  // A language link is a new page from the server: followed offline it left the table for the
  // browser's own "no connection" page (where no service worker keeps the table's page, it could not
  // be opened again until the laptop answered).  Offline it waits for the connection, and is
  // followed once the server answers again (languageBack), as the line says.  (Before, the line
  // stayed in red once the connection was back and the language never changed; and the test of
  // the connection read the link's own element, not the page's connection, so a server out of
  // reach with the phone's Wi-Fi up followed the link to the browser's error page.)
  document.querySelectorAll("nav.langs a").forEach((anchor) => anchor.addEventListener("click", (event) => {
    if (!link.offline && navigator.onLine !== false) return;
    event.preventDefault();
    languageWanted = anchor.href;
    document.body.dataset.language = "waiting";
    say(t("no connection to the server: the language changes when the connection is back"), "bad");
  }));
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  window.addEventListener("online", () => {
    backoff = 1000;
    busyUntil = 0;
    if (wakeUp) wakeUp();
    if (timer) { clearTimeout(timer); timer = null; }
    promptly = true;  // (the outbox's next try, at once: below, or as soon as the try on its way is given up)
    for (const stale of [...staleTries]) stale.abort();
    flush();
    if (!staleTries.size && !flushing) promptly = false;  // (nothing given up: the tries go on as they were)
    refresh();
  });
  window.addEventListener("offline", () => { link.offline = true; banner(); if (view) render(); });
  setInterval(() => { if (!document.hidden) refresh(); }, 5000);  // (none while a write is on its way)
  // The outbox as this phone left it (a tab closed while writes waited), merged into the page's
  // list of writes, never put in its place: by each write's id in storage (its seq), in the order
  // they were made (a stored write before every write this page made since, whose seq is later),
  // none twice, none that this page has sent or dropped meanwhile, none this page is sending
  // itself (a confirmation on its way, stored as "live").  A confirmation a page gone was sending
  // (stored as "live") is the outbox's to send now.  Before, the read replaced the list: a read
  // answered after the page had gone on without it (IndexedDB slow to open on a phone: the page
  // waits 3 seconds for it, no more) was dropped, and what it held was never sent or listed by
  // this page, not even once the page had locked itself (its link changed), while a write the
  // page had put on the list before the read answered would have fallen off it.
  // (and by each write's own id too: a write this page kept in memory and stored late, adopt, is
  // never merged in a second time)
  function merged(entries) {
    const have = new Set(outbox.map((x) => x.seq));
    const ids = new Set(outbox.concat([...inMemory]).map((x) => x.body && x.body.cid).filter(Boolean));
    const older = (entries || []).filter((x) => !have.has(x.seq) && !sentByPage.has(x.seq) && !db.removed(x.seq)
                                                && !(x.body && ids.has(x.body.cid)))
      .sort((a, b) => a.seq - b.seq);
    for (const entry of older) if (entry.live) { delete entry.live; db.put(entry); }
    const mine = outbox, all = [];
    let k = 0;
    for (const entry of mine) {
      // (a write this page kept where storage failed has no seq of storage: it came after them all)
      while (k < older.length && (typeof entry.seq !== "number" || older[k].seq < entry.seq)) all.push(older[k++]);
      all.push(entry);
    }
    outbox = all.concat(older.slice(k));
    if (older.length) told = true;
    return older.length;
  }
  // The read answered late (after the page went on without it): what it holds is merged in, said,
  // listed as not sent where the link no longer opens the table, and sent.
  // IndexedDB opened late after all (after the page's wait): what the page kept in memory is
  // written there then, after the read (adopt).
  const reading = db.all();
  reading.then((entries) => {
    if (loaded && merged(entries)) {
      if (gone) unsent();
      else {
        if (waiting().length && !view) view = keptView();
        if (view) render();  // (a confirmation kept is said in its panel, its buttons held)
        banner();
        flush();
      }
    }
    if (db.late()) adopt();
  });
  // IndexedDB opened after the page went on without it: the writes the page holds in memory (the
  // outbox's, a confirmation on its way) are written there now, in the order they were made, each
  // once: a write sent or dropped while it was being written is taken out again at once
  // (db.removed), one changed meanwhile (listed as not sent, its revision moved on) is written
  // again as it is now.  Then the page keeps its writes there as it always does, and no longer
  // says that it cannot.
  async function adopt() {
    const memory = outbox.filter((x) => typeof x.seq !== "number").concat([...inMemory])
      .sort((a, b) => Number(String(a.seq).slice(1)) - Number(String(b.seq).slice(1)));
    for (const entry of memory) {
      const was = entry.seq;
      if (db.removed(was)) continue;
      const copy = Object.assign({}, entry);
      delete copy.seq;
      const seq = await db.add(copy);
      if (seq === null || seq === undefined) return;  // (the storage failed after all: the rest stays in memory)
      db.stored(seq, was);
      if (db.removed(was)) { db.remove(seq); continue; }
      entry.seq = seq;
      if (inMemory.delete(entry)) sentByPage.add(seq);  // (a confirmation this page is sending: stored "live")
      await db.put(entry);  // (as it is now)
    }
    storageSaid();
  }
  // Where the page keeps its writes in memory alone (no IndexedDB, it failed, or it did not open
  // within its wait), it says so once, under the banner, in a note that stays while it is true:
  // closed, the page loses what waits in it.  <body data-storage="memory"> for programs ("kept"
  // where IndexedDB keeps the writes).
  function storageSaid() {
    const memory = db.state() !== "open";
    document.body.dataset.storage = memory ? "memory" : "kept";
    let note = $("unkept");
    if (memory && !note && $("outbox")) {
      note = el("p", { id: "unkept", class: "outbox waiting", role: "status" },
        t("This phone cannot keep lines if this page is closed (the browser's storage is not answering, as in a private window): keep this page open until everything is sent."));
      $("outbox").after(note);
    }
    if (note) note.hidden = !memory;
  }
  // ... then the table (the read waits as long as the writes do: the page's one wait for IndexedDB).
  Promise.race([reading, db.waited.then(() => null)]).then((entries) => {
    merged(entries);
    told = told || outbox.length > 0;
    loaded = true;
    storageSaid();
    if (gone) unsent();
    // Writes waiting: the table is drawn as this phone last drew it (the table they were made on,
    // and the one it stays until they are sent), at once.  The outbox's try (sendQueued) abandons
    // the refresh below and may wait WAIT_MS for an answer: the page stayed on "Loading the table…"
    // meanwhile, its Undo doing nothing and the box's example another game's.
    if (waiting().length && !view) { view = keptView(); if (view) render(); }
    banner();
    flush();
    refresh();
  });
  // The service worker keeps the page, its scripts and the engine for a page opened again offline;
  // browsers run one only in a secure context (https, or 127.0.0.1/localhost): elsewhere the page
  // goes on without it (docs/venue.md, "When the Wi-Fi drops").
  if ("serviceWorker" in navigator && window.isSecureContext) {
    const workers = navigator.serviceWorker;
    // <body data-offline="kept">: this page is kept for opening again offline (for programs, tests).
    workers.addEventListener("message", (event) => {
      if (event.data && event.data.kept === location.pathname) document.body.dataset.offline = "kept";
    });
    if (workers.controller) document.body.dataset.offline = "kept";  // (opened through the worker: it keeps each answer)
    else workers.ready.then((reg) => reg.active && reg.active.postMessage({ keep: location.pathname })).catch(() => null);
    workers.register("/sw.js").catch(() => null);
  }
})();

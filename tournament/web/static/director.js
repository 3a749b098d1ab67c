// The director's page: every table at a glance, refreshed every few seconds; open a table, enter
// or correct its result (with a reason, into the audit trail), clear a call, clear a table's wrong
// PINs, give it a new key (its new link and QR code shown), pair the next round (round 1 seeded as
// `tournament pair --seed` seeds it: a random draw, the players' rating, or another of their columns).
"use strict";
(function () {
  const token = document.body.dataset.token;
  const headers = { "Authorization": "Bearer " + token, "Content-Type": "application/json" };
  let view = null, open = null, openState = null, playsBoards = false;
  const { $, el, name, plain, t, slot, withNodes, layoutLines } = window.venue;
  // The line at the top says what the last action did (or why it was refused) until the next action
  // says another, or until the round moves on after it: the first read of the overview begun after
  // it was said marks the round as it stood (its tables' states and calls, the round's number), and
  // a later read that finds the round otherwise (a table started, confirmed, called; a round paired)
  // clears it.  Before, "round 2 is paired" stayed there for the whole round.  What is said of a write
  // still waiting for the server (no kind) stays until its answer.  <body data-said>: "kept" while a
  // line stands this way, "cleared" once it went.
  let said = null, reads = 0;
  function say(text, kind) {
    window.venue.say(text, kind);
    said = text && (kind === "good" || kind === "bad") ? { after: reads, round: null } : null;
    if (said) document.body.dataset.said = "kept";
  }
  const roundAsIs = (data) => JSON.stringify([data.round, data.tables.map((x) => [x.table, x.status, Boolean(x.called)])]);
  function fade(begun, data) {
    if (!said || begun <= said.after) return;
    const now = roundAsIs(data);
    if (said.round === null) said.round = now;
    else if (said.round !== now) { window.venue.say("", ""); said = null; document.body.dataset.said = "cleared"; }
  }
  // What a tap in the open table's panel leads to is said beside its buttons (on a phone the line
  // at the top of the page is far off the screen by then); the rest at the top.
  function tell(text, kind) {
    say("");
    const m = $("detail-message");
    m.replaceChildren(...window.venue.sentence(text));
    m.className = kind || "";
    if (text && !$("detail").hidden) m.scrollIntoView({ block: "nearest" });
  }
  // A refusal is said in one line; one that carries the table as it now is (a write made on an
  // older view: "the table has moved on") also shows that table, so that tapping again works.
  // A 403 here means this page's own key no longer opens the desk (the director's key was changed:
  // `tournament keys --rotate-director`, or --rotate): the page says so in words and stops asking.
  let locked = false, ticking = null;
  function lockOut() {
    locked = true;
    if (ticking !== null) clearInterval(ticking);
    $("detail").hidden = true;
    document.querySelectorAll("main button, main input").forEach((x) => { x.disabled = true; });
    $("tables").tBodies[0].replaceChildren();
    document.body.dataset.locked = "yes";
    say(t("This page's key has been changed: it no longer opens the director's desk. Open the director's new link (`tournament links` prints it)."), "bad");
  }
  // The link to the server, told as the table's page tells it (dom.js: venue.link; docs/venue.md,
  // "A slow server is not offline"): <body data-link> ("ok", "slow", "offline"), and the banner at
  // the top (a write waiting says so beside its button too): "waiting for the server: it is slow to answer" after
  // a moment and a half unanswered, "offline: no connection to the server" once a request failed or
  // nothing was answered for 10 seconds.  Any answer ends it.
  const { SLOW_MS, LOST_MS, within, linkWords } = window.venue;
  function showLink(state) {
    document.body.dataset.link = state;
    const box = $("link");
    box.hidden = state === "ok";
    box.className = state === "offline" ? "outbox waiting" : "outbox slow";
    box.textContent = linkWords(state);
  }
  const link = window.venue.link(showLink);
  showLink("ok");
  // A read (the overview, a table, its lines) is given up after 10 seconds (the next refresh asks
  // again).  A write is never given up, and each is taken once: it goes with its own id (``cid``,
  // made once a tap: venue.newCid, as the tables' writes), one at a time, in the order tapped;
  // unanswered it waits for the server in its one request (a server that hangs takes it when it
  // wakes), the page saying so beside the button after a moment and a half; a tap meanwhile sends
  // nothing more, and the same write tapped again before then is the one already sent.  After a
  // request that failed it is sent again, the same id (1, 2, 4 … 10 seconds apart), until the
  // server answers: the server does it once however many of the tries reach it, and answers each
  // what it answered the first (a call cleared, a correction, a result entered or taken back,
  // wrong PINs cleared, a new key: the same link; the next round paired: the same round).
  // <body data-unanswered="…/result"> while a write waits said; data-tries, how many times it went.
  // What is said of a write waiting is what its last try found, said again when that changes: no
  // answer ("not answering"), or the server's answer that it cannot take it now (503: its own line,
  // "another program is holding the event file…"); any other answer ends it, and the line said
  // so is cleared (the answer's own words follow it).
  let writes = Promise.resolve(), waitingWrite = false, waitingSaid = "";
  const tapped = new Map();  // each write not yet answered, by what it sends: a tap again is the same write
  let wakeUp = null;  // ends the pause between two tries of a write (the browser back "online")
  window.addEventListener("online", () => { if (wakeUp) wakeUp(); });
  const WAITS = () => t("The server is not answering: this is sent as soon as it answers. Keep this page open; there is no need to tap again.");
  const BUSY = () => t("The server is busy (another program is holding the event file): this is sent again shortly. Keep this page open; there is no need to tap again.");
  function answered(r, data, speak) {
    if (r.status === 403) { lockOut(); return null; }
    if (!r.ok) {
      if (data.state && open && data.state.round === open.round && data.state.table === open.table) showTable(data.state);
      if (Array.isArray(data.level)) offerWinner(data.level);  // (a typed result level at the top: who won?)
      speak(data.error || t("refused (%(status)s)", { status: r.status }), "bad");
      return null;
    }
    return data;
  }
  const readBody = (r) => r.json().catch(() => ({ error: t("the server's answer could not be read") }));
  async function call(method, url, body, speak = say) {
    if (locked) return null;
    if (method === "GET") {
      link.asking();
      let r;
      try { r = await within(url, { method, headers, cache: "no-store" }, LOST_MS); } catch (e) { link.failed(e); return null; }
      link.heard();
      return answered(r, await readBody(r), speak);
    }
    if (waitingWrite) { speak(waitingSaid || WAITS(), ""); return null; }  // (no second write behind one the server has not answered)
    // The same write tapped again before its answer (a double tap, within the moment and a half
    // before the page says it waits) is that write, not a second one with an id of its own: a
    // second "new key" would kill the link just shown, a second "pair" would pair another round.
    const same = `${method} ${url} ${JSON.stringify(body)}`;
    if (tapped.has(same)) return tapped.get(same);
    const mine = writes.then(() => write(method, url, body, speak));
    writes = mine.catch(() => null);
    tapped.set(same, mine);
    const done = () => { tapped.delete(same); };
    mine.then(done, done);
    return mine;
  }
  async function write(method, url, body, speak) {
    if (locked) return null;
    body = Object.assign({}, body, { cid: window.venue.newCid() });  // (one id a tap, however often it is sent)
    const waits = (text) => {  // (said at SLOW_MS, or at once when a try failed or was answered busy; again when it changes)
      if (waitingWrite && waitingSaid === text) return;
      waitingWrite = true;
      waitingSaid = text;
      document.body.dataset.unanswered = url;
      speak(text, "");
    };
    const tell = () => waits(WAITS());
    const slowly = setTimeout(() => { if (!waitingWrite) tell(); }, SLOW_MS);  // (unless a busy answer was said meanwhile)
    try {
      for (let pause = 1000, tries = 1; ; pause = Math.min(pause * 2, LOST_MS), tries += 1) {
        link.asking();
        document.body.dataset.tries = String(tries);
        let r;
        try {
          r = await fetch(url, { method, headers, body: JSON.stringify(body), cache: "no-store" });
        } catch (e) {
          link.failed(e);
          tell();
          await new Promise((resume) => { const timer = setTimeout(resume, pause); wakeUp = () => { clearTimeout(timer); resume(); }; });
          wakeUp = null;
          continue;
        }
        link.heard();
        // The server could not take it now, nothing of it stored (503: another program holding the
        // event file, the server shutting down): said, and sent again with its same id once the
        // Retry-After has passed, as after a try that failed.
        if (r.status === 503) {
          const data = await readBody(r);
          const after = Number(r.headers.get("Retry-After"));
          waits(data.error || BUSY());
          const wait = Math.max(pause, after > 0 ? Math.min(after, 300) * 1000 : 0);
          await new Promise((resume) => { const timer = setTimeout(resume, wait); wakeUp = () => { clearTimeout(timer); resume(); }; });
          wakeUp = null;
          continue;
        }
        const data = await readBody(r);
        if (waitingWrite) speak("", "");  // (what was said of its waiting is over: the answer's words follow)
        return answered(r, data, speak);
      }
    } finally {
      clearTimeout(slowly);
      waitingWrite = false;
      waitingSaid = "";
      delete document.body.dataset.unanswered;
    }
  }
  // A time as the page's language writes it (its <html lang>, the server's choice), never the
  // browser's own: a Spanish page reads 17:39:40 on a phone set to English, not 5:39:40 PM.
  const CLOCK = new Intl.DateTimeFormat(document.documentElement.lang || "en",
                                       { hour: "numeric", minute: "2-digit", second: "2-digit" });
  const when = (at) => at ? CLOCK.format(new Date(at)) : "";
  // A new call rings (a short tone made here, WebAudio: no sound file) and the tab's title counts
  // the calls; the director turns the sound off or on, remembered by this browser (localStorage).
  // A browser plays sound only after a tap on the page: the sound button is one.
  const SOUND = "venue.director.sound";
  let soundOn = true, audio = null, calledBefore = null;
  try { soundOn = window.localStorage.getItem(SOUND) !== "off"; } catch (e) { soundOn = true; }
  const baseTitle = document.title;
  function showSound() {
    $("sound").textContent = soundOn ? t("Sound of calls: on") : t("Sound of calls: off");
    $("sound").setAttribute("aria-pressed", soundOn ? "true" : "false");
  }
  function ring() {
    document.body.dataset.rings = String((Number(document.body.dataset.rings) || 0) + 1);
    if (!soundOn) return;
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const start = audio.currentTime;
      [[0, 880], [0.22, 660]].forEach(([at, pitch]) => {  // two short notes, "ding-dong"
        const tone = audio.createOscillator(), level = audio.createGain();
        tone.frequency.value = pitch;
        level.gain.setValueAtTime(0.0001, start + at);
        level.gain.exponentialRampToValueAtTime(0.3, start + at + 0.02);
        level.gain.exponentialRampToValueAtTime(0.0001, start + at + 0.2);
        tone.connect(level).connect(audio.destination);
        tone.start(start + at);
        tone.stop(start + at + 0.22);
      });
    } catch (e) { /* no sound on this browser: the title and the red line still say it */ }
  }
  $("sound").addEventListener("click", () => {
    soundOn = !soundOn;
    try { window.localStorage.setItem(SOUND, soundOn ? "on" : "off"); } catch (e) { /* private mode */ }
    if (soundOn) {
      try { audio = audio || new (window.AudioContext || window.webkitAudioContext)(); audio.resume(); } catch (e) { audio = null; }
    }
    showSound();
  });
  showSound();
  function heard(tables) {
    const called = new Set(tables.filter((x) => x.called).map((x) => x.table));
    if (calledBefore !== null && [...called].some((n) => !calledBefore.has(n))) ring();
    calledBefore = called;
    document.title = called.size ? t("calls: %(n)s", { n: called.size }) + " · " + baseTitle : baseTitle;
  }
  // The overview's status says how far the game is; a call of the director is its own field.  Each
  // in the page's language (written out, so that the catalogs find every one).
  const STATES = { "not started": t("not started"), "playing": t("in play"), "waiting": t("waiting for confirmation"),
                   "confirmed": t("confirmed"), "called": t("director called") };
  const label = (status) => STATES[status] || status;
  // Round 1's seeding: the draw, the rating column, and each other column the players were added
  // with (the choice kept while the list stays the same); hidden once round 1 is paired.  The rating
  // is offered only where some player has one: without, it is greyed and says why (chosen, it was
  // only refused, "no player has a 'rating' column to seed round 1 by").
  let seedColumns = null;
  function showSeeding(columns) {
    $("seed-row").hidden = !columns;
    if (!columns || columns.join("\n") === seedColumns) return;
    seedColumns = columns.join("\n");
    const chosen = $("seed").value;
    const draw = $("seed").options[0];
    const rated = columns.includes("rating");
    const rating = el("option", { value: "rating", disabled: !rated },
                      rated ? t("rating (the players' rating column)") : t("rating (no player has a rating)"));
    const more = columns.filter((c) => c !== "rating").map((c) =>
      el("option", { value: "column:" + c }, t("the column %(name)s", { name: c })));
    $("seed").replaceChildren(draw, rating, ...more);
    $("seed").value = Array.from($("seed").options).some((o) => o.value === chosen && !o.disabled) ? chosen : "draw";
  }
  function render() {
    if (!view) return;
    window.venue.names = view.tables.flatMap((x) => Object.values(x.players || {})
      .concat(Object.values(x.units || {}).flatMap((u) => [u.pair, u.team].filter(Boolean))))
      .concat(view.sits_out ? [view.sits_out.name, ...view.sits_out.players] : [], view.team_byes || []);
    const done = view.tables.filter((x) => x.status === "confirmed").length + "/" + view.tables.length;
    $("summary").replaceChildren(el("span", {}, ...withNodes(t("round %(n)s", { n: slot("n") }), { n: el("b", {}, view.round || "–") })),
      el("span", {}, ...withNodes(t("confirmed %(n)s", { n: slot("n") }), { n: el("b", {}, done) })));
    $("pair").disabled = !view.can_pair;
    // The session over (every round of the movement seated and played): said beside the greyed
    // button, in the words `tournament pair` refuses another round with.
    $("session-over").hidden = !view.finished;
    $("session-over").textContent = view.finished ? plain(view.finished) : "";
    // ... and while the round is played, why it is greyed: the tables not confirmed yet, in the words
    // its tap would be refused with ("round 2 is not finished: table 1 has no confirmed result yet").
    $("pair-waits").hidden = !view.waits;
    $("pair-waits").textContent = view.waits ? plain(view.waits) : "";
    showSeeding(view.seed_columns);
    renderMatches(view.matches || []);
    renderTeamByes(view.team_byes || []);
    renderSitOut(view.sits_out);
    renderUpstream(view.upstream);
    const body = $("tables").tBodies[0];
    body.replaceChildren(...view.tables.map((t) => el("tr", { "data-table": t.table, "data-status": t.status,
                                                              "data-called": t.called ? "yes" : "no",
                                                              "data-idle": t.idle ? "yes" : "no" },
      el("td", {}, t.table),
      el("td", {}, seats(t.players),
         // each side's pair, and its team in a team event (who plays whom, as the hall says it)
         ...Object.entries(t.units || {}).map(([side, u]) => el("div", { class: "note unit", "data-side": side },
           side + " ", name(u.pair), ...(u.team ? [" · ", name(u.team)] : [])))),
      el("td", { class: t.called ? "state-called" : t.status === "confirmed" ? "state-confirmed" : "" },
         (t.called ? label("called") + " · " : "") + label(t.status) + (t.progress ? " · " + progress(t) : ""),
         // (a duplicate table's board its phone closed and no longer plays, with nothing in: a result
         // or a mark "not played" made over its play, since taken back; the director enters its result)
         ...((t.to_enter || []).length ? [el("div", { class: "state-called to-enter", "data-to-enter": t.to_enter.join(",") },
           t.to_enter.map((n) => window.venue.t("board %(n)s: enter its result (its phone does not play it again)", { n })).join(" · "))] : []),
         ...(t.idle ? [el("div", { class: "state-idle" }, window.venue.t("no move for %(n)s minutes", { n: t.idle_minutes }))] : []),
         ...(t.wrong_pins ? [pinTries(t)] : []),
         // (the last move's time, not the last write's: a call of the director is no move)
         ...(t.moved_at ? [el("div", { class: "when" }, window.venue.t("last move %(time)s", { time: when(t.moved_at) }))] : []),
         ...(t.offline ? [offlineSent(t.offline)] : []),
         ...(t.contact_at ? [el("div", { class: "when contact" }, window.venue.t("phone last heard from %(time)s", { time: when(t.contact_at) }))] : [])),
      el("td", { class: "last-move" }, when(t.moved_at)),
      el("td", {}, el("button", { type: "button", onclick: () => openTable(t.round, t.table) }, window.venue.t("Open"))))));
  }
  // `serve --upstream`: the sending to the federation's hub (the overview's `upstream`), said while
  // it does not reach it, its problem in the server's words (as its log says it), and said louder
  // once it has stopped for good (two histories of one event: docs/hub.md); while it is fed, only
  // its warning (changes on its stream it did not write, "When a part fails"); nothing without --upstream.
  function renderUpstream(up) {
    const line = $("upstream");
    const problem = up && !up.connected ? up.problem : null;
    const warning = up && up.connected ? up.warning || null : null;
    line.hidden = !problem && !warning;
    line.dataset.stopped = up && up.stopped ? "yes" : "no";
    line.dataset.warning = warning ? "yes" : "no";
    if (!problem && !warning) return line.replaceChildren();
    line.className = up.stopped ? "outbox waiting" : "outbox slow";
    line.textContent = !problem
      ? t("Sent to the federation's hub, but: %(problem)s", { problem: warning })
      : up.stopped
        ? t("Sending to the federation's hub has stopped until this server is started again: %(problem)s", { problem })
        : t("Not sent to the federation's hub just now (tried again every second): %(problem)s", { problem });
  }
  // An odd number of duplicate pairs: the pair sitting this round out, by its players' names, and
  // its table, which the round does not play (no row above: its number is a gap).
  function renderSitOut(out) {
    const line = $("sits-out");
    line.hidden = !out;
    if (!out) return line.replaceChildren();
    const who = el("span", {}, name(out.name), ...(out.players.length
      ? [" (", ...out.players.flatMap((p, i) => (i ? [", ", name(p)] : [name(p)])), ")"] : []));
    line.dataset.pair = out.pair;
    line.replaceChildren(...withNodes(t("Pair %(n)s %(name)s sits out this round (table %(table)s is not played).",
                                        { n: out.pair, name: slot("name"), table: out.table }), { name: who }));
  }
  // A team event: the teams with a bye this round, by name (a bye is a match won).
  function renderTeamByes(names) {
    const line = $("team-byes");
    line.hidden = !names.length;
    if (!names.length) return line.replaceChildren();
    const who = el("span", {}, ...names.flatMap((n, i) => (i ? [", ", name(n)] : [name(n)])));
    line.replaceChildren(...withNodes(names.length === 1 ? t("Bye: %(names)s", { names: slot("names") })
                                                         : t("Byes: %(names)s", { names: slot("names") }), { names: who }));
  }
  // A team event's matches, each summed by the server from its tables' confirmed results (the
  // games each team has won so far), filling in as the tables confirm.
  // A table's seats, a name a line; on a wide screen two lines (venue.css): partners side by side
  // where the seats are the compass's (N S, then E W), else in seat order, half the seats a line.
  function seats(players) {
    const entries = Object.entries(players || {});
    const compass = entries.length === 4 && entries.every(([s], i) => s === "NESW"[i]);
    return el("div", { class: compass ? "seats compass" : "seats", style: `--columns: ${Math.ceil(entries.length / 2)}` },
              ...entries.map(([s, n]) => el("div", { "data-seat": s }, s + " ", name(n))));
  }
  function renderMatches(matches) {
    const list = $("matches");
    list.hidden = !matches.length;
    list.replaceChildren(...matches.map((m) => el("li", { "data-tables": m.tables.join("-"), "data-finished": m.finished ? "yes" : "no" },
      t("Tables %(first)s-%(last)s", { first: m.tables[0], last: m.tables[m.tables.length - 1] }) + ": ",
      name(m.home), " ", el("b", { class: "match-score" }, m.home_text + " – " + m.away_text), " ", name(m.away),
      ...(m.target ? [" (" + (m.winner !== null ? t("%(team)s wins the set %(score)s", { team: m.winner, score: m.won_at })
        : t("set to %(target)s, in progress", { target: m.target })) + ")"]
        : m.boards_in ? [" " + t("IMPs"), ...(m.home_vp !== null ? [" · " + t("VP %(home)s–%(away)s", { home: Number(m.home_vp).toFixed(2), away: Number(m.away_vp).toFixed(2) })] : []),
                         ...(m.finished ? (m.outcome ? [" ", el("span", { class: "match-outcome" }, "(" + m.outcome + ")")] : [])
                           // (only the boards that count: one not scored, marked not played at a table, said apart)
                           : [" (" + t("%(done)s of %(count)s boards in", { done: m.done, count: m.count })
                              + (m.not_scored || []).map((n) => "; " + t("board %(n)s not scored", { n })).join("") + ")"])]
        : m.finished ? (m.outcome ? [" ", el("span", { class: "match-outcome" }, "(" + m.outcome + ")")] : [])
        : [" (" + t("%(done)s of %(count)s tables in", { done: m.done, count: m.count }) + ")"]))));
  }
  // A table whose phone sent moves made while it was offline (they came with the time the phone
  // made them): how many, and how long ago the last came; and those the server refused.  Sent is
  // every line the server had, taken or refused ("sent 0 lines … · 1 refused" said of one line sent
  // and refused); the lines the phone held back after a refused one never reached the server, and
  // are the phone's to retype (docs/venue.md, "What the director sees").
  function offlineSent(x) {
    const minutes = Math.max(0, Math.floor((Date.now() - Date.parse(x.at)) / 60000));
    const ago = minutes < 1 ? t("just now") : minutes === 1 ? t("1 min ago") : t("%(n)s min ago", { n: minutes });
    // (lines, as each phone sent them: a line may hold several moves, or be an undo or a hand's start)
    const n = x.taken + x.refused;
    const sent = n === 1 ? t("sent 1 line made offline, %(ago)s", { ago }) : t("sent %(n)s lines made offline, %(ago)s", { n, ago });
    const refused = x.refused === 1 ? t("1 refused (another phone had moved the table on)")
      : t("%(n)s refused (another phone had moved the table on)", { n: x.refused });
    return el("div", { class: "state-offline", "data-offline": n, "data-refused": x.refused },
              sent + (x.refused ? " · " + refused : ""));
  }
  // How far a table is ("hand 2, move 14", "3 hands"), from the overview's numbers, in the page's language.
  function progress(x) {
    // (a result the director entered over a game in play: the director's, not the phone's progress)
    if (x.entered) return t("result entered by the director");
    // (a duplicate table plays one hand a board: the board names where it is)
    if (x.reached && x.reached.board !== undefined) return x.reached.move !== undefined
      ? t("board %(n)s, move %(move)s", { n: x.reached.board, move: x.reached.move }) : t("board %(n)s", { n: x.reached.board });
    // (a duplicate table between its boards: how many have their result, its phone's or the director's)
    if (x.reached && x.reached.boards_in !== undefined) return t("%(done)s of %(count)s boards in", { done: x.reached.boards_in, count: x.reached.boards });
    if (x.reached && x.reached.move !== undefined) return t("hand %(n)s, move %(move)s", { n: x.reached.hand, move: x.reached.move });
    if (x.reached) return x.reached.hands === 1 ? t("1 hand") : t("%(n)s hands", { n: x.reached.hands });
    return x.progress;
  }
  // A table's wrong PINs (after five, its confirmations wait: 30 s, doubling), and the button
  // that clears them (into the audit trail) for a player who slipped, once the director has looked.
  function pinTries(row) {
    const words = row.pin_wait ? t("wrong PINs: %(n)s · confirmations wait %(n2)s s more", { n: row.wrong_pins, n2: row.pin_wait })
                               : t("wrong PINs: %(n)s", { n: row.wrong_pins });
    return el("div", { class: row.pin_wait ? "state-pins state-called" : "state-pins" }, el("div", {}, words),
      el("button", { type: "button", class: "clear-pins", onclick: async () => {
        const data = await call("POST", `/api/v1/tables/${row.round}/${row.table}/pins/clear`, {});
        if (data) { say(data.said.join("; "), "good"); refresh(); }
      } }, t("Clear the wrong PINs")));
  }
  // The wrong director's PINs typed at all the tables together (docs/venue.md, "The director at the
  // table"): past ten, the director's PIN waits at every table, which no table's row says (each
  // row's wait is its own confirmations').  Said over the tables: how many, and the seconds the PIN
  // still waits, counted down by the page's own clock between refreshes and gone once over; the
  // button clears them (a table's "Clear the wrong PINs" clears them too, and says so).
  // <body data-director-pin-wait> holds the seconds shown (none while it does not wait).
  let directorWrong = 0;
  const directorWait = window.venue.countdown((left) => drawDirectorPins(left));
  function drawDirectorPins(left) {
    const box = $("director-pins");
    box.hidden = !directorWrong && !left;
    box.className = left > 0 ? "state-pins state-called" : "state-pins";
    if (left > 0) document.body.dataset.directorPinWait = String(left);
    else delete document.body.dataset.directorPinWait;
    $("director-pins-words").textContent = left > 0
      ? t("wrong director's PINs at the tables: %(n)s · the director's PIN waits %(n2)s s more at every table", { n: directorWrong, n2: left })
      : t("wrong director's PINs at the tables: %(n)s", { n: directorWrong });
  }
  // (from a read of the overview only: a drawing again of the same view would set the count back)
  function directorPins(pins) {
    directorWrong = pins ? Number(pins.wrong) || 0 : 0;
    directorWait.set(pins ? pins.wait : 0);
    drawDirectorPins(directorWait.left());
  }
  $("clear-director-pins").addEventListener("click", async () => {
    const data = await call("POST", "/api/v1/director/pins/clear", {});
    if (data) { say(data.said.join("; "), "good"); refresh(); }
  });
  // (one refresh at a time: a server that hangs never piles them up, each holding a connection)
  let refreshing = null;
  function refresh() {
    if (!refreshing) refreshing = refreshOnce().finally(() => { refreshing = null; document.body.dataset.refreshed = String((Number(document.body.dataset.refreshed) || 0) + 1); });
    return refreshing;
  }
  async function refreshOnce() {
    const begun = ++reads;
    const data = await call("GET", "/api/v1/director");
    if (data) { view = data; render(); heard(data.tables); directorPins(data.director_pins); fade(begun, data); }
    if (open) {  // the open table as it now is (the scores being typed are left alone)
      const state = await call("GET", `/api/v1/tables/${open.round}/${open.table}`);
      if (state && open && state.round === open.round && state.table === open.table) showTable(state);
    }
  }
  // A hand's score in words: "NS 0 · EW 44", the sides in the table's order.
  const scoreText = (scores, sides) => sides.map((s) => s + " " + (scores[s] ?? 0)).join(" · ");
  // The open table's game hand by hand, as a correction numbers its lines (GET …/lines): each hand
  // with its score, each line (a move, the tiles left, the score; shown without direction controls,
  // as a comment typed at the table may hold one: the form keeps the line as it is) a button that opens the
  // correction form under its hand.  Asked again only when the table's revision moves, so a
  // correction being typed survives the refresh.
  let hands = null, fixing = null;
  const fixForm = $("fix-form");
  async function showHands(data) {
    const key = data.round + "/" + data.table + "@" + data.rev;
    if (hands && hands.key === key) return;
    const box = $("detail-moves");
    if (box.dataset.table !== data.round + "/" + data.table) {  // another table's lines: gone at once
      $("detail").append(fixForm);
      fixForm.hidden = true;
      box.replaceChildren();
    }
    const got = data.game.hands.length ? await call("GET", `/api/v1/tables/${data.round}/${data.table}/lines`) : { hands: [] };
    if (!got || !open || open.round !== data.round || open.table !== data.table) return;
    // A correction being typed stays open while the table plays on, as long as its line is still there.
    if (fixing && fixing.key === data.round + "/" + data.table && got.hands[fixing.hand - 1] &&
        (fixing.line === null || got.hands[fixing.hand - 1][fixing.line - 1] === fixing.text)) fixing.rev = data.rev;
    else fixing = null;
    hands = { key, lines: got.hands };
    // (no hand to list, e.g. a duplicate table between boards, a forfeit: no heading over nothing)
    $("detail-moves-title").hidden = !got.hands.length;
    box.dataset.table = data.round + "/" + data.table;
    $("detail").append(fixForm);  // kept out of the hands while they are drawn again
    fixForm.hidden = !fixing;
    box.replaceChildren(...got.hands.map((lines, k) => {
      const hand = data.game.hands[k];
      const score = hand && hand.result && hand.result.scores ? scoreText(hand.result.scores, data.sides) : "";
      // (a duplicate table's game is the board in play, one hand: named by its board, its heading,
      // its button and its form)
      const board = data.boards && data.board != null && got.hands.length === 1 ? data.board : null;
      return el("div", { class: "hand", "data-hand": k + 1 },
        el("h3", {}, board !== null ? t("Board %(n)s", { n: board })
                     : t("Hand %(n)s", { n: k + 1 }), score ? el("span", { class: "hand-score" }, " " + score) : ""),
        el("div", { class: "move-list" }, ...lines.map((line, j) => el("button", {
          type: "button", class: "line" + (line.length > 24 ? " long" : "") + (fixing && fixing.hand === k + 1 && fixing.line === j + 1 ? " chosen" : ""),
          "data-line": j + 1, title: t("Correct this line"), onclick: () => fix(data, k + 1, j + 1, line, board) }, plain(line)))),
        el("button", { type: "button", class: "take-back", onclick: () => fix(data, k + 1, null, lines.join("\n"), board) },
           board !== null ? t("Take back board %(n)s's hand", { n: board }) : t("Take back hand %(n)s", { n: k + 1 })));
    }));
    if (fixing) placeForm();
  }
  // The correction form, under the hand it corrects: the line as it is, to type again (empty: the
  // line removed), and the reason, which the trail keeps.  ``board``: the board a duplicate
  // table's one hand is, named instead of "hand 1" (else null).
  function fix(data, hand, line, text, board) {
    fixing = { key: data.round + "/" + data.table, rev: data.rev, hand, line, text };
    $("fix-title").textContent = board !== null
      ? (line === null ? t("Take back board %(n)s's hand: the table starts the board again", { n: board })
                       : t("Board %(n)s, line %(line)s: type it as it should be (empty: removed)", { n: board, line }))
      : (line === null ? t("Take back hand %(n)s: the later hands move up", { n: hand })
                       : t("Hand %(n)s, line %(line)s: type it as it should be (empty: removed)", { n: hand, line }));
    $("fix-text").value = line === null ? "" : text;
    $("fix-text-row").hidden = line === null;
    $("fix-message").textContent = "";
    placeForm();
    (line === null ? $("fix-reason") : $("fix-text")).focus();
  }
  function placeForm() {
    const box = $("detail-moves").querySelector(`.hand[data-hand="${fixing.hand}"]`);
    if (!box) { fixing = null; fixForm.hidden = true; return; }
    box.append(fixForm);
    fixForm.hidden = false;
  }
  $("fix-cancel").addEventListener("click", () => { fixing = null; fixForm.hidden = true; $("detail").append(fixForm); });
  fixForm.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!fixing || !openState) return;
    const m = $("fix-message");
    const body = { rev: fixing.rev, hand: fixing.hand, line: fixing.line,
                   text: fixing.line === null ? "" : $("fix-text").value, reason: $("fix-reason").value.trim() };
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/correct`, body,
                            (text, kind) => { m.replaceChildren(...window.venue.sentence(text)); m.className = kind || ""; });
    if (!data) return;
    fixing = null;
    fixForm.hidden = true;
    $("detail").append(fixForm);
    $("fix-reason").value = "";
    await openTable(open.round, open.table);  // the result's boxes filled again with the new totals
    tell(data.said.join("; "), "good");
    refresh();
  });
  // The open table: its title, its hands (to correct), layout, replay link and whether a call stands.
  function showTable(data) {
    openState = data;
    $("detail-title").textContent = t("Round %(round)s, table %(table)s: %(state)s", { round: data.round, table: data.table,
                                                                                         state: label(data.status) });
    showHands(data);
    $("detail-layout").replaceChildren(...layoutLines(data.game.table));
    $("detail-layout").hidden = !(data.game.table || []).length;
    $("detail-replay").href = `/d/${token}/replay/${data.round}/${data.table}`;
    $("clear-call").disabled = !data.called;
  }
  // A new key for the open table: asked once more, then its new link and QR code are shown (the
  // picture is made by the server, an SVG in a data: address: no markup is taken from the answer).
  function hideKey() { $("key-confirm").hidden = true; $("key-done").hidden = true; $("new-key").disabled = false; }
  $("new-key").addEventListener("click", () => { $("key-done").hidden = true; $("key-confirm").hidden = false; $("new-key").disabled = true; });
  $("new-key-no").addEventListener("click", hideKey);
  $("new-key-yes").addEventListener("click", async () => {
    if (!open) return;
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/key`, {}, tell);
    $("key-confirm").hidden = true;
    $("new-key").disabled = false;
    if (!data) return;
    $("key-said").textContent = plain(data.said.join("; "));
    $("key-link").textContent = data.url;
    $("key-qr").src = /^data:image\/svg\+xml[;,]/.test(data.qr) ? data.qr : "";
    $("key-done").hidden = false;
    $("key-done").scrollIntoView({ block: "nearest" });
  });
  async function openTable(round, table) {
    const data = await call("GET", `/api/v1/tables/${round}/${table}`);
    if (!data) return;
    const same = open && open.round === round && open.table === table;
    // The same table opened again (after a save): the board the director picked stays picked, its
    // score shown, so that a second save goes to the board the director sees, never the first.
    const picked = same && !$("result-board-row").hidden ? Number($("result-board").value) : null;
    if (!same) hideKey();
    open = { round, table };
    tell("");
    showTable(data);
    // A duplicate table's results are its boards': the board to enter or correct is picked, its
    // score and how its hand ended shown (the director's read of the table: board_results).
    const rows = data.board_results || (data.result && data.result.boards) || [];
    $("result-board-row").hidden = !data.boards;
    // A duplicate table, pairs or teams: the board picked is marked not played, or its result taken
    // back (the button below says which board; in duplicate teams a board not played at one table of
    // a match is not scored in the match).
    playsBoards = Boolean(data.boards);
    $("board-not-played").hidden = !playsBoards;
    $("clear-result").textContent = playsBoards ? t("Take the board's result back") : t("Take the result back");
    if (data.boards) {
      // (a board marked not played there says so in the list: the director sees which one to take back;
      // one marked at the match's other table, duplicate teams, names that table: it said "not played"
      // here, while the line under it says a result saved here is kept)
      const skipped = data.not_played || [], owed = data.to_enter || [];
      const markedAt = (b) => (data.marked_at_other || []).find((m) => m.board === b);
      $("result-board").replaceChildren(...data.boards.map((b) => el("option", { value: b },
        t("Board %(n)s", { n: b }) + (markedAt(b) ? " · " + t("marked not played at table %(n)s", { n: markedAt(b).table })
          : skipped.includes(b) ? " · " + t("not played") : owed.includes(b) ? " · " + t("to enter") : ""))));
      $("result-board").onchange = () => {
        const row = rows.find((r) => r.board === Number($("result-board").value)) || {};
        for (const s of data.sides) blank($("dir-score-" + s), row[s]);
        showBoard(data, rows);
      };
    }
    // (else the board in play there, the one a result typed from its sheet is most likely for)
    const board = data.boards && data.boards.includes(picked) ? picked
      : data.boards ? (data.boards.includes(data.board) ? data.board : data.boards[0]) : null;
    if (data.boards) $("result-board").value = String(board);
    const first = rows.find((r) => data.boards && r.board === board);
    // (the running totals only once a hand has scored: a grey 0 and 0 would read as typed)
    const totals = (data.game && data.game.totals) || {};
    const scores = data.boards ? (first || {}) : data.result ? data.result.scores
      : Object.values(totals).some((v) => v) ? totals : {};
    $("result-scores").replaceChildren(...data.sides.map((s) => el("label", {}, s + " ",
      blank(el("input", { type: "number", inputmode: "numeric", id: "dir-score-" + s, style: "width:6em" }), scores[s]))));
    showBoard(data, rows);
    offerWinner(null);
    $("detail").hidden = false;
    $("detail").scrollIntoView({ block: "start" });
  }
  // A score box starts empty, whatever the table holds: a value in it (the game's running totals,
  // 0 and 0 before a hand is played) made one tap on "Save the result" store that as the result,
  // a 0-0 draw.  What is stored (the result, the board's score) or played so far is only its
  // placeholder, greyed, so an untouched form is refused ("type the score of NS…") and a score
  // is always one the director typed.
  function blank(box, shown) {
    box.value = "";
    box.placeholder = shown === undefined || shown === null ? "" : String(shown);
    return box;
  }
  // The board picked at a duplicate table: what it has (its result and how its hand ended, or none
  // yet: saving enters it, as `tournament result --board B --score` does), and how the hand ended
  // to choose, the stored way picked (sent as "ended"; a game whose hands end only one way: none).
  const ENDS = { "out": t("out"), "blocked": t("blocked"), "target": t("target") };
  function showBoard(data, rows) {
    const line = $("result-board-state"), box = $("result-ended-row");
    if (!data.boards || !data.board_results) { line.hidden = true; box.hidden = true; return; }
    const board = Number($("result-board").value);
    const row = rows.find((r) => r.board === board);
    const skipped = (data.not_played || []).includes(board);
    // (duplicate teams: marked at the match's other table, not here; a result saved here is kept but
    // does not count while that mark stands: said before the save, and no reason asked, as nothing
    // here is replaced)
    const elsewhere = (data.marked_at_other || []).find((m) => m.board === board);
    line.hidden = false;
    const owed = !row && (data.to_enter || []).includes(board);
    line.dataset.board = String(board);
    line.dataset.stored = row ? "yes" : "no";
    line.dataset.markedAt = elsewhere ? String(elsewhere.table) : "";
    line.dataset.toEnter = owed ? "yes" : "no";
    line.textContent = row
      ? (row.ended ? t("Board %(n)s has its result: NS %(ns)s, EW %(ew)s, ended %(how)s. Saving corrects it.",
                       { n: board, ns: row.NS, ew: row.EW, how: ENDS[row.ended] || row.ended })
                   : t("Board %(n)s has its result: NS %(ns)s, EW %(ew)s (how its hand ended was not said). Saving corrects it.",
                       { n: board, ns: row.NS, ew: row.EW }))
      : owed ? t("Board %(n)s has no result here, and the table's phone does not play it again (it was closed there): enter its result; saving enters it.", { n: board })
      : elsewhere ? t("Board %(n)s is marked not played at table %(n2)s, the match's other table: it is not scored in the match. A result saved here is kept, but counts only once that mark is taken back.",
                      { n: board, n2: elsewhere.table })
      : skipped ? t("Board %(n)s is marked not played here: saving enters its result instead (give the reason).", { n: board })
      : t("Board %(n)s has no result here yet: saving enters it.", { n: board });
    const ends = data.ends || [];
    box.hidden = ends.length < 2;
    const stored = row && row.ended ? row.ended : "";
    $("result-ended").replaceChildren(...(stored ? [] : [el("option", { value: "" }, t("not said"))]),
      ...ends.map((e) => el("option", { value: e }, ENDS[e] || e)));
    $("result-ended").value = stored;
  }
  // Sides level at the top of a multi-player table: the game's own rules say who won (who went
  // out first, the youngest…), which typed scores cannot show.  The server decides when that is
  // so: its refusal names the level sides ("level"), offered here as a choice (each with its
  // player), and the one picked goes with the next save as "winner".  Offered again with the
  // result's stored winner picked; taken away when a score is typed again (the server asks again
  // if the new scores are still level) or another table is opened.  null: no choice.
  function offerWinner(level) {
    const sides = level && openState ? level.filter((s) => openState.sides.includes(s)) : [];
    const box = $("result-winner");
    if (sides.length < 2) { box.hidden = true; $("result-winner-choices").replaceChildren(); return; }
    const row = view && open ? view.tables.find((x) => x.round === open.round && x.table === open.table) : null;
    const players = (row && row.players) || {};
    const stored = openState.result && openState.result.winner;
    $("result-winner-choices").replaceChildren(...sides.map((s) => el("label", {},
      el("input", { type: "radio", name: "result-winner", value: s, id: "dir-winner-" + s, checked: s === stored }),
      s, ...(players[s] ? [" ", name(players[s])] : []))));
    box.hidden = false;
  }
  $("result-scores").addEventListener("input", () => offerWinner(null));
  $("result-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!open) return;
    const scores = {};
    for (const s of openState.sides) {
      const typed = $("dir-score-" + s).value.trim();
      if (!/^-?[0-9]+$/.test(typed)) { tell(t("type the score of %(side)s as a whole number of points", { side: s }), "bad"); return; }
      scores[s] = Number(typed);
    }
    const reason = $("result-reason").value.trim();
    const body = { scores, reason: reason || null };
    if (openState.boards) body.board = Number($("result-board").value);
    if (openState.boards && !$("result-ended-row").hidden && $("result-ended").value) body.ended = $("result-ended").value;
    const picked = $("result-winner").hidden ? null : $("result-winner").querySelector("input[type=radio]:checked");
    if (!$("result-winner").hidden && !picked) { tell(t("choose who won: they are level at the top"), "bad"); return; }
    if (picked) body.winner = picked.value;
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/result`, body, tell);
    if (data) {
      $("result-reason").value = "";
      await refresh();
      await openTable(open.round, open.table);
      tell(data.said.join("; "), "good");
    }
  });
  // A result taken back (at a duplicate table, the board picked: its result, or its mark "not
  // played"), and a duplicate board marked not played: the reason above, required, into the trail.
  const boardPicked = () => (playsBoards && openState && openState.boards ? Number($("result-board").value) : null);
  // Sent with the reason typed (said, and nothing sent, without one); once done, the reason box
  // emptied, the room and the table read again, and what was done said.
  async function withReason(path, body, missing) {
    const reason = $("result-reason").value.trim();
    if (!reason) { tell(missing, "bad"); return; }
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/${path}`, Object.assign({ reason }, body), tell);
    if (data) {
      $("result-reason").value = "";
      await refresh();
      await openTable(open.round, open.table);
      tell(data.said.join("; "), "good");
    }
  }
  $("clear-result").addEventListener("click", () => {
    if (!open) return;
    const board = boardPicked();
    return withReason("result/clear", board === null ? {} : { board }, board === null
      ? t("give the reason for clearing a result (it goes into the audit trail)")
      : t("give the reason for taking a board's result back (it goes into the audit trail)"));
  });
  $("board-not-played").addEventListener("click", () => {
    if (!open || boardPicked() === null) return;
    // The board the table's phone has a hand of (its hand line or a move: the server's rule, a hand
    // taken back whole is none): marked over it, the hand taken off the phone, once the director
    // says so (time ran out mid-hand), as `--not-played --replace`.
    const board = boardPicked(), game = openState && openState.game;
    const inPlay = Boolean(openState && openState.board === board && game && (game.hand || game.in_hand || game.announced));
    if (inPlay && !window.confirm(t("Table %(t)s's phone is playing board %(n)s: mark it not played all the same, taking the hand off the phone?", { t: open.table, n: board }))) return;
    return withReason("result/not-played", inPlay ? { board, replace: true } : { board },
                      t("give the reason for marking a board not played (it goes into the audit trail)"));
  });
  $("clear-call").addEventListener("click", async () => {
    if (!open) return;
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/clear`, { rev: openState.rev }, tell);
    if (data) { tell(t("the call is cleared"), "good"); showTable(data); await refresh(); }
  });
  $("pair").addEventListener("click", async () => {
    const data = await call("POST", "/api/v1/director/pair", $("seed-row").hidden ? {} : { seed: $("seed").value });
    if (data) { say(data.said.join("; "), "good"); open = null; openState = null; $("detail").hidden = true; refresh(); }
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  ticking = setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  refresh();
})();

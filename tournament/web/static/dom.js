// What the venue's pages share: building elements (text always as text nodes, never markup, so a
// player's name cannot become part of the page), the one-line message under the scores, and the
// page's words in its language: t("Undo") looks a string up in the JSON the page embeds
// (<script type="application/json" id="strings">, made from the catalogs), and
// t("Hand %(n)s", { n: 2 }) fills in its values.
//
// A name (a player's, the event's) is drawn by name(): without direction controls, inside a <bdi>,
// so that a right-to-left name (or one stored with an override before they were refused, which
// would show "\u202e1 reyalP" as "Player 1") never reorders the seat, the round or the other names
// around it; so is each of the page's names in a sentence of the server's (say, sentence).  The
// server's pages do the same (tournament.names).
"use strict";
// The controls the server drops (tournament.names.BIDI_CONTROLS): ALM, LRM, RLM, the embeddings
// and overrides (U+202A-U+202E) and the isolates (U+2066-U+2069).
const DIRECTION_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
// A tile as a sentence writes it: "6-4", "6|4", "[6|4]" (its brackets kept with it).
const TILE = /\d+[-|]\d+/, TILES = /(\[?\d+[-|]\d+\]?)/, TILE_ALONE = /^\[?\d+[-|]\d+\]?$/;
window.venue = {
  $: (id) => document.getElementById(id),
  plain: (text) => String(text ?? "").replace(DIRECTION_CONTROLS, ""),
  name(text) {
    const node = document.createElement("bdi");
    node.className = "name";
    node.textContent = window.venue.plain(text);
    return node;
  },
  // A node (a name()) in a sentence of t(): the value's place is marked with slot("event"), and
  // withNodes(sentence, { event: node }) gives the sentence's parts with the node in it.  (The
  // call stays t("…"), the form the page's strings are gathered from.)
  slot: (key) => "\u0000" + key + "\u0000",
  withNodes: (text, nodes) => text.split("\u0000").map((part, k) => (k % 2 && part in nodes ? nodes[part] : part)),
  // A table's picture (the engine's lines: the line of play, the roads, the row) as one block a
  // line: a line longer than a phone is wide wraps between tiles, never through one ("[6-4][4-2]"
  // may break between the two, "6-4" never: each tile is a unit that does not break, as a move
  // is in the move list), and goes on indented under its own start, so that a line of play of
  // seventeen tiles is read without scrolling sideways.
  layoutLines(lines) {
    const { el } = window.venue;
    return (lines || []).map((line) => {
      const text = String(line);
      const depth = Math.min(text.length - text.trimStart().length, 8);
      const parts = text.trimStart().replace(/\](?=[[(#])/g, "]\u200b").split(/(\d+[-|]\d+)/);
      return el("div", { class: "ln i" + depth }, ...parts.filter((p) => p !== "")
        .map((p, k) => (/^\d+[-|]\d+$/.test(p) ? el("span", { class: "tile" }, p) : p)));
    });
  },
  el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "onclick") node.addEventListener("click", v);
      else if (k === "class") node.className = v;
      else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children) node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  },
  // A tile named in a sentence ("N does not hold 6-6", "[6|4]") is never cut at its hyphen or bar
  // on a narrow phone ("6-" on one line, "6" on the next), as the move list and the picture keep it
  // whole (docs/venue.md): each tile of a text node of ``node`` goes into a span that does not
  // break (.nowrap).  Every page's sentences get it through sentence() (say, the director's lines);
  // a page's own text that names tiles (a hint, a waiting note) calls it on its element.
  keepTiles(node) {
    if (!node) return node;
    const walk = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    const texts = [];
    for (let n = walk.nextNode(); n; n = walk.nextNode())
      if (!(n.parentNode && n.parentNode.classList && n.parentNode.classList.contains("nowrap")) && TILE.test(n.data)) texts.push(n);
    for (const n of texts) n.replaceWith(...window.venue.tileParts(n.data));
    return node;
  },
  // ``text`` as the parts to append: its tiles each in a .nowrap span, the rest as text.
  tileParts(text) {
    return String(text).split(TILES).filter((p) => p !== "")
      .map((p) => (TILE_ALONE.test(p) ? window.venue.el("span", { class: "nowrap" }, p) : p));
  },
  // The names the page shows (its players', the event's), set by the page as it draws: a sentence
  // of the server's that names one of them (say, tell) draws it in a <bdi> of its own.
  names: [],
  // A sentence as the parts to append: its text (as text, without direction controls) and, in
  // place of each name of venue.names it holds, that name's <bdi>.
  sentence(text) {
    const { plain, name } = window.venue;
    const line = plain(text || "");
    const known = [...new Set(window.venue.names.map(plain))].filter((n) => n.trim().length)
      .sort((a, b) => b.length - a.length);  // the longest first: "Ana María" before "Ana"
    const parts = [];
    let at = 0;
    while (known.length) {
      let where = -1, found = "";
      for (const n of known) {
        const k = line.indexOf(n, at);
        if (k >= 0 && (where < 0 || k < where)) { where = k; found = n; }
      }
      if (where < 0) break;
      if (where > at) parts.push(line.slice(at, where));
      parts.push(name(found));
      at = where + found.length;
    }
    if (at < line.length) parts.push(line.slice(at));
    // (each tile of its text whole: keepTiles)
    return parts.flatMap((p) => (typeof p === "string" ? window.venue.tileParts(p) : [p]));
  },
  say(text, kind) {
    const m = document.getElementById("message");
    m.replaceChildren(...window.venue.sentence(text));  // the server's words may name a player
    m.className = kind || "";
  },
  // Each write's own id (cid, docs/venue.md "Each write once, however often it is sent"): the
  // phone's id (128 random bits, made once and kept by this browser) and a counter, unique per
  // phone (or the director's browser) and write, across reloads.
  newCid() {
    const kept = (() => { try { return window.localStorage; } catch (e) { return null; } })();
    const venue = window.venue;
    if (!venue.phoneId) {
      let id = kept && kept.getItem("domrec.phone");
      if (!id || !/^[0-9a-f]{32}$/.test(id)) {
        const bytes = new Uint8Array(16);
        crypto.getRandomValues(bytes);
        id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
        try { kept && kept.setItem("domrec.phone", id); } catch (e) { /* kept for this page only */ }
      }
      venue.phoneId = id;
    }
    const n = Math.max(venue.writesCounted || 0, Number((kept && kept.getItem("domrec.writes")) || 0)) + 1;
    venue.writesCounted = n;
    try { kept && kept.setItem("domrec.writes", String(n)); } catch (e) { /* the page's own count goes on */ }
    return venue.phoneId + "-" + n.toString(36);
  },
  phoneId: null,
  writesCounted: 0,
  // How a page tells a slow server from a lost one (docs/venue.md, "A slow server is not offline"),
  // the table's page and the director's alike: a request unanswered for SLOW_MS is "waiting for the
  // server" (a director's command holding the event file a second or two, a busy laptop); the
  // connection is taken as lost ("offline") only when a request fails (no network, the server's
  // port closed), the browser says it is offline, or the server has answered nothing for LOST_MS.
  // A read is given up after LOST_MS (within): aborted, not left hanging, so that its connection is
  // closed (a browser opens a few at most to a server).
  SLOW_MS: 1500,
  LOST_MS: 10000,
  within(url, init, ms, stop) {
    const gaveUp = new AbortController();
    setTimeout(() => gaveUp.abort(), ms);  // (the timer runs on while the body is read; an answered request is not aborted)
    if (stop) { if (stop.aborted) gaveUp.abort(); else stop.addEventListener("abort", () => gaveUp.abort(), { once: true }); }
    return fetch(url, Object.assign({}, init, { signal: gaveUp.signal }));
  },
  // The link's state (<body data-link>: "ok", "slow", "offline") kept from the requests a page
  // makes: asking() as one is sent, heard() at any answer, failed(e) when one found none (a fetch
  // that failed is a lost connection at once; one given up after its time, AbortError, a slow
  // server until LOST_MS).  ``changed(state)`` is called as the state may have moved on.
  link(changed) {
    const { SLOW_MS, LOST_MS } = window.venue;
    const link = {
      offline: false,
      quietSince: null,  // when the oldest request unanswered since the server's last answer was sent
      state: () => (link.offline ? "offline"
        : link.quietSince !== null && Date.now() - link.quietSince >= SLOW_MS ? "slow" : "ok"),
      tick() {
        if (link.quietSince !== null && Date.now() - link.quietSince >= LOST_MS) link.offline = true;
        changed(link.state());
      },
      asking() {
        if (link.quietSince !== null) return;
        link.quietSince = Date.now();
        setTimeout(link.tick, SLOW_MS);
        setTimeout(link.tick, LOST_MS);
      },
      heard() { link.quietSince = null; link.offline = false; changed(link.state()); },
      failed(e) {
        if (!(e && e.name === "AbortError") || navigator.onLine === false) link.offline = true;
        link.tick();
      },
    };
    window.addEventListener("offline", () => { link.offline = true; changed(link.state()); });
    // The browser online again: what made the link "offline" (a request that failed, the browser's
    // word) is past, so the link starts again as new: the page's next request (its outbox sent at
    // once, a read) says "waiting for the server" if unanswered for SLOW_MS, "offline" only if it
    // fails or after LOST_MS.  (Kept offline until some answer came, a phone whose Wi-Fi came back
    // to a server slow to answer said "offline" for the tens of seconds the page's tries took.)
    window.addEventListener("online", () => { link.offline = false; link.quietSince = null; changed(link.state()); });
    return link;
  },
  // The link's state in words (the banner's, when nothing waits to be sent).
  linkWords(state) {
    const { t } = window.venue;
    return state === "offline" ? t("offline: no connection to the server")
      : state === "slow" ? t("waiting for the server: it is slow to answer") : "";
  },
  // A wait counted down by the page's own clock from the seconds the server said last (the
  // director's PIN waiting after wrong ones: the director's page over its tables, the director's
  // box on a table's page): show(left) each second while it lasts, then show(0, early) once when
  // it ends, ``early`` when a read said 0 while more than a second was left (cleared, not over).
  // set(seconds) from each read: a count under way is kept unless the server's differs by more
  // than a second's rounding (the wait changed: another wrong PIN made it longer).  (table.js
  // counts its confirmations' wait its own way: its message line is shared with every move.)
  countdown(show) {
    let until = null, tick = null;
    const left = () => (until === null ? 0 : Math.ceil((until - Date.now()) / 1000));
    function step() {
      clearTimeout(tick);
      tick = null;
      if (until === null) return;
      const n = left();
      if (n <= 0) { until = null; show(0, false); return; }
      show(n, false);
      // (the next second's count when it goes down: a clock moved on by a test too)
      tick = setTimeout(step, Math.max(1, until - Date.now() - (n - 1) * 1000));
    }
    return {
      left,
      set(seconds) {
        const wanted = Math.max(0, Math.ceil(Number(seconds) || 0));
        if (!wanted) {
          if (until === null) return;
          const early = left() > 1;
          clearTimeout(tick);
          tick = null;
          until = null;
          show(0, early);
          return;
        }
        if (until === null || Math.abs(left() - wanted) > 1) until = Date.now() + wanted * 1000;
        step();
      },
    };
  },
  strings: null,
  t(msgid, values) {
    if (window.venue.strings === null) {  // read once found (never kept empty for a box not there yet)
      const box = document.getElementById("strings");
      if (box) try { window.venue.strings = JSON.parse(box.textContent); } catch (e) { window.venue.strings = {}; }
    }
    const text = (window.venue.strings || {})[msgid] || msgid;
    return text.replace(/%\((\w+)\)s/g, (all, name) => (values && name in values ? String(values[name]) : all));
  },
};

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
    return parts;
  },
  say(text, kind) {
    const m = document.getElementById("message");
    m.replaceChildren(...window.venue.sentence(text));  // the server's words may name a player
    m.className = kind || "";
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

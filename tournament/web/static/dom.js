// What the venue's pages share: building elements (text always as text nodes, never markup, so a
// player's name cannot become part of the page), the one-line message under the scores, and the
// page's words in its language: t("Undo") looks a string up in the JSON the page embeds
// (<script type="application/json" id="strings">, made from the catalogs), and
// t("Hand %(n)s", { n: 2 }) fills in its values.
//
// A name (a player's, the event's) is drawn by name(): without direction controls, inside a <bdi>,
// so that a right-to-left name (or one stored with an override before they were refused, which
// would show "\u202e1 reyalP" as "Player 1") never reorders the seat, the round or the other names
// around it.  The server's pages do the same (tournament.names).
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
  say(text, kind) {
    const m = document.getElementById("message");
    m.textContent = window.venue.plain(text || "");  // the server's words may name a player
    m.className = kind || "";
  },
  strings: null,
  t(msgid, values) {
    if (window.venue.strings === null) {
      const box = document.getElementById("strings");  // not kept while the page has none yet
      try { if (box) window.venue.strings = JSON.parse(box.textContent); } catch (e) { window.venue.strings = {}; }
    }
    const text = (window.venue.strings || {})[msgid] || msgid;
    return text.replace(/%\((\w+)\)s/g, (all, name) => (values && name in values ? String(values[name]) : all));
  },
};

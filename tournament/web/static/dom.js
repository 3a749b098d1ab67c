// What the venue's pages share: building elements (text always as text nodes, never markup, so a
// player's name cannot become part of the page), the one-line message under the scores, and the
// page's words in its language: t("Undo") looks a string up in the JSON the page embeds
// (<script type="application/json" id="strings">, made from the catalogs), and
// t("Hand %(n)s", { n: 2 }) fills in its values.
"use strict";
window.venue = {
  $: (id) => document.getElementById(id),
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
    m.textContent = text || "";
    m.className = kind || "";
  },
  strings: null,
  t(msgid, values) {
    if (window.venue.strings === null) {
      const box = document.getElementById("strings");
      try { window.venue.strings = box ? JSON.parse(box.textContent) : {}; } catch (e) { window.venue.strings = {}; }
    }
    const text = window.venue.strings[msgid] || msgid;
    return text.replace(/%\((\w+)\)s/g, (all, name) => (values && name in values ? String(values[name]) : all));
  },
};

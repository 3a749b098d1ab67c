// What the venue's pages share: building elements (text always as text nodes, never markup, so a
// player's name cannot become part of the page) and the one-line message under the scores.
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
};

// A table's old link opened again after the director gave the table a new key: the server refuses
// the link, and this page lists the lines this phone made on it that were never sent (the table's
// page keeps them in its outbox, IndexedDB "domrec-outbox", by the link's key, and marks them not
// to send once the key has changed), so that the players type them again on the new link; and a
// confirmation tapped that the server never answered (kept with them), so that its side confirms
// again on the new link.  Before, the old link showed the refusal alone: the lines were kept, but
// only the page that was open at the time said so (and a kept confirmation was not listed at all).  Nothing is sent, changed or dropped here; the page reads, and says.
"use strict";
(() => {
  const { $, el, t } = window.venue;
  const box = $("kept");
  if (!box || !window.indexedDB) return;
  const key = box.dataset.key;
  const done = (n) => { document.body.dataset.kept = String(n); };
  let opened;
  try {
    opened = indexedDB.open("domrec-outbox", 1);
  } catch (e) { done(0); return; }
  // No outbox on this phone: nothing was made on it (and none is made here).
  opened.onupgradeneeded = () => opened.transaction.abort();
  opened.onerror = opened.onblocked = () => done(0);
  opened.onsuccess = () => {
    const base = opened.result;
    let got;
    try {
      got = base.transaction("writes").objectStore("writes").index("key").getAll(key);
    } catch (e) { base.close(); done(0); return; }
    got.onerror = () => { base.close(); done(0); };
    got.onsuccess = () => {
      base.close();
      const lines = got.result.filter((x) => x && x.body && typeof x.body.text === "string" && x.body.text);
      // A confirmation tapped on this phone that the server never answered (kept with the lines):
      // listed too, what it is and for which side (never its PIN), so that the side confirms again
      // on the new link; like the lines, never sent from here.
      const confirms = got.result.filter((x) => x && x.path === "/confirm" && x.body && (x.body.side || x.body.seat));
      const side = (x) => String(x.body.side || x.body.seat);
      const n = lines.length + confirms.length;
      if (n) {
        $("kept-said").textContent = [
          lines.length === 0 ? "" : lines.length === 1 ? t("1 line made on this phone was not sent: it is listed below")
            : t("%(n)s lines made on this phone were not sent: they are listed below", { n: lines.length }),
          confirms.length === 0 ? "" : confirms.length === 1
            ? t("the confirmation for %(side)s tapped on this phone was not sent: it is listed below", { side: side(confirms[0]) })
            : t("%(n)s confirmations tapped on this phone were not sent: they are listed below", { n: confirms.length }),
        ].filter(Boolean).join(" ");
        $("kept-list").replaceChildren(...got.result.filter((x) => lines.includes(x) || confirms.includes(x)).map((x) => el("li",
          confirms.includes(x) ? { "data-confirm": side(x) } : {},
          el("code", {}, confirms.includes(x) ? t("confirmation for %(side)s", { side: side(x) }) : x.body.text))));
        $("kept-note").textContent = [
          lines.length ? t("not sent: this link no longer opens the table; type it again on the table's new link") : "",
          confirms.length ? t("not sent: this link no longer opens the table; confirm again on the table's new link") : "",
        ].filter(Boolean).join(" ");
        box.hidden = false;
      }
      done(n);
    };
  };
})();

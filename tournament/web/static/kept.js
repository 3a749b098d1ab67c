// A table's old link opened again after the director gave the table a new key: the server refuses
// the link, and this page lists the lines this phone made on it that were never sent (the table's
// page keeps them in its outbox, IndexedDB "domrec-outbox", by the link's key, and marks them not
// to send once the key has changed), so that the players type them again on the new link.  Before,
// the old link showed the refusal alone: the lines were kept, but only the page that was open at
// the time said so.  Nothing is sent, changed or dropped here; the page reads, and says.
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
      if (lines.length) {
        $("kept-said").textContent = lines.length === 1 ? t("1 line made on this phone was not sent: it is listed below")
          : t("%(n)s lines made on this phone were not sent: they are listed below", { n: lines.length });
        $("kept-list").replaceChildren(...lines.map((x) => el("li", {}, el("code", {}, x.body.text))));
        $("kept-note").textContent = t("not sent: this link no longer opens the table; type it again on the table's new link");
        box.hidden = false;
      }
      done(lines.length);
    };
  };
})();

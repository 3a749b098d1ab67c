// The director's page: every table at a glance, refreshed every few seconds; open a table, enter
// or correct its result (with a reason, into the audit trail), clear a call, pair the next round.
"use strict";
(function () {
  const token = document.body.dataset.token;
  const headers = { "Authorization": "Bearer " + token, "Content-Type": "application/json" };
  let view = null, open = null, openState = null;
  const { $, el, say } = window.venue;
  async function call(method, url, body) {
    try {
      const r = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined, cache: "no-store" });
      const data = await r.json().catch(() => ({ error: "the server's answer could not be read" }));
      if (!r.ok) { say(data.error || ("refused (" + r.status + ")"), "bad"); return null; }
      return data;
    } catch (e) { say("no connection to the server", "bad"); return null; }
  }
  const when = (at) => at ? new Date(at).toLocaleTimeString() : "";
  const STATES = { "waiting": "waiting for confirmation", "called": "playing" };
  function render() {
    if (!view) return;
    $("summary").replaceChildren(el("span", {}, "round ", el("b", {}, view.round || "–")),
      el("span", {}, "confirmed ", el("b", {}, view.tables.filter((t) => t.status === "confirmed").length + "/" + view.tables.length)));
    $("pair").disabled = !view.can_pair;
    const body = $("tables").tBodies[0];
    body.replaceChildren(...view.tables.map((t) => el("tr", { "data-table": t.table },
      el("td", {}, t.table),
      el("td", {}, ...Object.entries(t.players).map(([s, n]) => el("div", {}, s + " " + n))),
      el("td", { class: t.called ? "state-called" : t.status === "confirmed" ? "state-confirmed" : "" },
         (t.called ? "director called · " : "") + (STATES[t.status] || t.status) + (t.progress ? " · " + t.progress : "")),
      el("td", {}, when(t.last_at)),
      el("td", {}, el("button", { type: "button", onclick: () => openTable(t.round, t.table) }, "Open")))));
  }
  async function refresh() { const data = await call("GET", "/api/v1/director"); if (data) { view = data; render(); } }
  async function openTable(round, table) {
    const data = await call("GET", `/api/v1/tables/${round}/${table}`);
    if (!data) return;
    open = { round, table }; openState = data;
    $("detail").hidden = false;
    $("detail-title").textContent = `Round ${round}, table ${table}: ${data.status}`;
    $("detail-moves").textContent = data.game.hands.map((h) => "hand " + h.number + ": " +
      h.moves.map((m) => m.seat + " " + m.text).join(" ") + (h.result ? "  → " + JSON.stringify(h.result.scores) : "")).join("\n");
    $("detail-layout").textContent = (data.game.table || []).join("\n");
    $("detail-replay").href = `/d/${token}/replay/${round}/${table}`;
    const scores = data.result ? data.result.scores : data.game.totals;
    $("result-scores").replaceChildren(...data.sides.map((s) => el("label", {}, s + " ",
      el("input", { type: "number", min: "0", id: "dir-score-" + s, value: scores[s] ?? "", style: "width:6em" }))));
    $("clear-call").disabled = !data.called;
  }
  $("result-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!open) return;
    const scores = {};
    for (const s of openState.sides) scores[s] = parseInt($("dir-score-" + s).value || "0", 10);
    const reason = $("result-reason").value.trim();
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/result`, { scores, reason: reason || null });
    if (data) { say(data.said.join("; "), "good"); $("result-reason").value = ""; await refresh(); openTable(open.round, open.table); }
  });
  $("clear-call").addEventListener("click", async () => {
    if (!open) return;
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/clear`, { rev: openState.rev });
    if (data) { say("the call is cleared", "good"); await refresh(); openTable(open.round, open.table); }
  });
  $("pair").addEventListener("click", async () => {
    const data = await call("POST", "/api/v1/director/pair", {});
    if (data) { say(data.said.join("; "), "good"); refresh(); }
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  refresh();
})();

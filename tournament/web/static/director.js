// The director's page: every table at a glance, refreshed every few seconds; open a table, enter
// or correct its result (with a reason, into the audit trail), clear a call, pair the next round.
"use strict";
(function () {
  const token = document.body.dataset.token;
  const headers = { "Authorization": "Bearer " + token, "Content-Type": "application/json" };
  let view = null, open = null, openState = null;
  const { $, el, say, name, plain } = window.venue;
  // What a tap in the open table's panel leads to is said beside its buttons (on a phone the line
  // at the top of the page is far off the screen by then); the rest at the top.
  function tell(text, kind) {
    say("");
    const m = $("detail-message");
    m.textContent = plain(text || "");
    m.className = kind || "";
    if (text && !$("detail").hidden) m.scrollIntoView({ block: "nearest" });
  }
  // A refusal is said in one line; one that carries the table as it now is (a write made on an
  // older view: "the table has moved on") also shows that table, so that tapping again works.
  async function call(method, url, body, speak = say) {
    try {
      const r = await fetch(url, { method, headers, body: body ? JSON.stringify(body) : undefined, cache: "no-store" });
      const data = await r.json().catch(() => ({ error: "the server's answer could not be read" }));
      if (!r.ok) {
        if (data.state && open && data.state.round === open.round && data.state.table === open.table) showTable(data.state);
        speak(data.error || ("refused (" + r.status + ")"), "bad");
        return null;
      }
      return data;
    } catch (e) { speak("no connection to the server", "bad"); return null; }
  }
  const when = (at) => at ? new Date(at).toLocaleTimeString() : "";
  // The overview's status says how far the game is; a call of the director is its own field.
  const STATES = { "playing": "in play", "waiting": "waiting for confirmation", "called": "director called" };
  const label = (status) => STATES[status] || status;
  function render() {
    if (!view) return;
    $("summary").replaceChildren(el("span", {}, "round ", el("b", {}, view.round || "–")),
      el("span", {}, "confirmed ", el("b", {}, view.tables.filter((t) => t.status === "confirmed").length + "/" + view.tables.length)));
    $("pair").disabled = !view.can_pair;
    const body = $("tables").tBodies[0];
    body.replaceChildren(...view.tables.map((t) => el("tr", { "data-table": t.table, "data-status": t.status,
                                                              "data-called": t.called ? "yes" : "no" },
      el("td", {}, t.table),
      el("td", {}, ...Object.entries(t.players).map(([s, n]) => el("div", {}, s + " ", name(n)))),
      el("td", { class: t.called ? "state-called" : t.status === "confirmed" ? "state-confirmed" : "" },
         (t.called ? "director called · " : "") + label(t.status) + (t.progress ? " · " + t.progress : ""),
         ...(t.last_at ? [el("div", { class: "when" }, "last move " + when(t.last_at))] : [])),
      el("td", {}, when(t.last_at)),
      el("td", {}, el("button", { type: "button", onclick: () => openTable(t.round, t.table) }, "Open")))));
  }
  async function refresh() {
    const data = await call("GET", "/api/v1/director");
    if (data) { view = data; render(); }
    if (open) {  // the open table as it now is (the scores being typed are left alone)
      const state = await call("GET", `/api/v1/tables/${open.round}/${open.table}`);
      if (state && open && state.round === open.round && state.table === open.table) showTable(state);
    }
  }
  // The open table: its title, moves so far, layout, replay link and whether a call stands.
  function showTable(data) {
    openState = data;
    $("detail-title").textContent = `Round ${data.round}, table ${data.table}: ${label(data.status)}`;
    $("detail-moves").textContent = data.game.hands.map((h) => "hand " + h.number + ": " +
      h.moves.map((m) => m.seat + " " + m.text).join(" ") + (h.result ? "  → " + JSON.stringify(h.result.scores) : "")).join("\n");
    $("detail-layout").textContent = (data.game.table || []).join("\n");
    $("detail-layout").hidden = !(data.game.table || []).length;
    $("detail-replay").href = `/d/${token}/replay/${data.round}/${data.table}`;
    $("clear-call").disabled = !data.called;
  }
  async function openTable(round, table) {
    const data = await call("GET", `/api/v1/tables/${round}/${table}`);
    if (!data) return;
    open = { round, table };
    tell("");
    showTable(data);
    const scores = data.result ? data.result.scores : data.game.totals;
    $("result-scores").replaceChildren(...data.sides.map((s) => el("label", {}, s + " ",
      el("input", { type: "number", inputmode: "numeric", id: "dir-score-" + s, value: scores[s] ?? "",
                    style: "width:6em" }))));
    $("detail").hidden = false;
    $("detail").scrollIntoView({ block: "start" });
  }
  $("result-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    if (!open) return;
    const scores = {};
    for (const s of openState.sides) {
      const typed = $("dir-score-" + s).value.trim();
      if (!/^-?[0-9]+$/.test(typed)) { tell(`type the score of ${s} as a whole number of points`, "bad"); return; }
      scores[s] = Number(typed);
    }
    const reason = $("result-reason").value.trim();
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/result`, { scores, reason: reason || null }, tell);
    if (data) {
      $("result-reason").value = "";
      await refresh();
      await openTable(open.round, open.table);
      tell(data.said.join("; "), "good");
    }
  });
  $("clear-call").addEventListener("click", async () => {
    if (!open) return;
    const data = await call("POST", `/api/v1/tables/${open.round}/${open.table}/clear`, { rev: openState.rev }, tell);
    if (data) { tell("the call is cleared", "good"); showTable(data); await refresh(); }
  });
  $("pair").addEventListener("click", async () => {
    const data = await call("POST", "/api/v1/director/pair", {});
    if (data) { say(data.said.join("; "), "good"); open = null; openState = null; $("detail").hidden = true; refresh(); }
  });
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
  setInterval(() => { if (!document.hidden) refresh(); }, 3000);
  refresh();
})();

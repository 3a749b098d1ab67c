// The director at the table (a table's page, its "Director" button): the director's PIN opens the
// table's game hand by hand, one line a move, as the director's page shows it (GET …/lines, the
// table's key and the PIN); a line corrected, a move taken back, a hand typed again or taken back
// goes to POST …/correct with a reason, the very operation of the director's page: the server
// records the whole game again through the engine.  No rule of any game is written here.
//
// The PIN is kept in this page's memory while the director's view is open, never stored: "Done"
// (or a reload) forgets it.  The correction's answer is the table's new state, drawn by table.js
// as any write's, and its message line says what was corrected.
"use strict";
(function () {
  const page = document.body.dataset;
  const api = `/api/v1/tables/${page.round}/${page.table}`;
  const { $, el, t } = window.venue;
  const table = window.venue.table;
  let pin = null;       // the director's PIN, once the server took it
  let lines = null;     // {rev, hands} as last read
  let fixing = null;    // {rev, hand, line, text}: the correction being typed
  let asked = 0;        // the latest reading of the lines (an older answer is dropped)
  const form = $("td-fix");

  // A line of the server's or the page's: its tiles whole and its names isolated (venue.sentence),
  // as the table's own message line says them ("N does not hold 6-6" was cut at its hyphen here).
  function tell(id, text, kind) {
    const m = $(id);
    m.replaceChildren(...window.venue.sentence(text || ""));
    m.className = kind || "";
  }

  // The lines, read with the table's own time limit and told to its banner (table.read): a server
  // that does not answer is said beside the PIN as the banner says it, "waiting for the server"
  // after a moment and a half, "offline" once the read is given up (10 s); the PIN is then typed
  // again.  ``speak(text)``: where the waiting is said (the PIN's line; nowhere for a reload).
  async function read(typed, speak) {
    const { SLOW_MS, linkWords } = window.venue;
    const slowly = speak ? setTimeout(() => speak(linkWords("slow")), SLOW_MS) : null;
    try {
      const r = await table.read("/lines", { "X-Director-PIN": typed });
      const data = await r.json().catch(() => ({ error: t("the server's answer could not be read") }));
      // (a 429 with "pin_wait": the director's PIN waits after wrong ones, the table's or the event's)
      const wait = r.status === 429 && Number(data.pin_wait) > 0
        ? { seconds: Number(data.pin_wait), every_table: !!data.pin_wait_every_table } : null;
      return r.ok ? { data } : { error: data.error || t("refused (%(status)s)", { status: r.status }), wait };
    } catch (e) { return { error: linkWords("offline") }; } finally { clearTimeout(slowly); }
  }

  // The wait of the director's PIN after wrong ones (docs/venue.md, "The director at the table"):
  // this table's own (its confirmations wait too) or the event's (too many wrong director's PINs
  // at the tables together: every table), said beside the PIN with the seconds left counted down by
  // the page's own clock, as the table's page counts its confirmations' wait down (table.js), from
  // what the server said last: the PIN's 429 (its pin_wait), or a read of the table (its
  // director_pin_wait, at every refresh).  Once over, or cleared on the director's page (a read
  // finds none while seconds were left), the line says the PIN is taken again.  The line is the
  // wait's as long as it says it.  <body data-director-pin-wait> holds the seconds shown.
  let waitEvery = false;  // the wait counted is the event's
  let waitLine = null;    // what the line said of it last (null: nothing)
  const waitWords = (left) => (waitEvery
    ? (left === 1 ? t("too many wrong director's PINs at the tables: the director's PIN waits 1 second more at every table (the director's page clears it)")
                  : t("too many wrong director's PINs at the tables: the director's PIN waits %(n)s seconds more at every table (the director's page clears it)", { n: left }))
    : (left === 1 ? t("too many wrong PINs at this table: its confirmations and the director's PIN wait 1 second more (the director's page clears them)")
                  : t("too many wrong PINs at this table: its confirmations and the director's PIN wait %(n)s seconds more (the director's page clears them)", { n: left })));
  const waitSaid = () => waitLine !== null && $("td-message").textContent === waitLine;
  const pinWait = window.venue.countdown((left, early) => {
    const ours = waitSaid();
    if (left > 0) {
      document.body.dataset.directorPinWait = String(left);
      if (ours) { waitLine = waitWords(left); tell("td-message", waitLine, "bad"); }
      return;
    }
    delete document.body.dataset.directorPinWait;
    waitLine = null;
    if (ours) tell("td-message", early ? t("the wrong PINs were cleared: the director's PIN is taken again")
                                       : t("the wait after wrong PINs is over: the director's PIN is taken again"), "good");
  });
  // ``wait``: {seconds, every_table} as the server said it (null: none); ``said``: the line says it now
  function waits(wait, said) {
    if (wait && wait.seconds > 0) waitEvery = !!wait.every_table;
    pinWait.set(wait ? wait.seconds : 0);
    if (said) sayWait();
  }
  function sayWait() {
    if (pinWait.left() > 0) { waitLine = waitWords(pinWait.left()); tell("td-message", waitLine, "bad"); }
  }
  // Every read of the table: the wait as it is now, said when first heard of while the PIN's box is
  // open, no PIN taken yet.
  document.addEventListener("table:heard", (e) => {
    const wait = e.detail.directorPinWait;
    waits(wait, !pinWait.left() && !$("td").hidden && !pin);
  });
  // A read answered before this script ran (its file slower to come than the table's first read):
  // the wait it said, taken now.
  if (table.directorPinWait && table.directorPinWait()) waits(table.directorPinWait(), false);

  // The lines as the server holds them now; a correction being typed stays open while its line is
  // still there (the table may have played on), on the new revision.
  async function reload() {
    if (!pin) return;
    const mine = ++asked;
    const got = await read(pin);
    if (mine !== asked || !pin) return;
    if (got.error) { tell("td-message", got.error, "bad"); return; }
    draw(got.data);
  }

  const scoreText = (scores, sides) => sides.map((s) => s + " " + (scores[s] ?? 0)).join(" · ");

  function draw(data) {
    const same = fixing && data.hands[fixing.hand - 1] &&
      (fixing.line === null ? data.hands[fixing.hand - 1].join("\n") === fixing.text
                            : data.hands[fixing.hand - 1][fixing.line - 1] === fixing.text);
    if (same) fixing.rev = data.rev; else fixing = null;
    lines = data;
    $("td-desk").append(form);  // kept out of the hands while they are drawn again
    form.hidden = !fixing;
    const view = table.view();
    const sides = view ? view.sides : [];
    $("td-hands").replaceChildren(...(data.hands.length ? data.hands.map((hand, k) => {
      const shown = view && view.game.hands[k];
      const score = shown && shown.result && shown.result.scores ? scoreText(shown.result.scores, sides) : "";
      // (a duplicate table's game is the board in play, one hand: named by its board, its heading,
      // its button and its form, as the director's page names it)
      const board = view && view.boards && view.board != null && data.hands.length === 1 ? view.board : null;
      return el("div", { class: "hand", "data-hand": k + 1 },
        el("h3", {}, board !== null ? t("Board %(n)s", { n: board })
                     : t("Hand %(n)s", { n: k + 1 }), score ? el("span", { class: "hand-score" }, " " + score) : ""),
        el("div", { class: "move-list" }, ...hand.map((line, j) => el("button", {
          type: "button", class: "line" + (line.length > 24 ? " long" : ""), "data-line": j + 1,
          title: t("Correct this line"), onclick: () => fix(k + 1, j + 1, line, board) }, line))),
        el("button", { type: "button", class: "take-back", "data-fix-hand": k + 1, onclick: () => fix(k + 1, null, hand.join("\n"), board) },
           board !== null ? t("Correct board %(n)s", { n: board }) : t("Correct hand %(n)s", { n: k + 1 })));
    }) : [el("p", { class: "note" }, t("This table has recorded nothing yet."))]));
    if (fixing) place();
  }

  // The form, under the hand it corrects: a line (or the whole hand) as it is, to type again; the
  // second button takes the move (or the hand) back; the reason goes into the audit trail.
  // ``board``: the board a duplicate table's one hand is, named instead of "hand 1" (else null).
  function fix(hand, line, text, board) {
    fixing = { rev: lines.rev, hand, line, text };
    $("td-fix-title").textContent = board !== null
      ? (line === null ? t("Board %(n)s: type the whole hand as it should be, a move a line (empty: taken back)", { n: board })
                       : t("Board %(n)s, line %(line)s: type it as it should be (empty: removed)", { n: board, line }))
      : (line === null ? t("Hand %(n)s: type the whole hand as it should be, a move a line (empty: taken back)", { n: hand })
                       : t("Hand %(n)s, line %(line)s: type it as it should be (empty: removed)", { n: hand, line }));
    $("td-fix-text").value = text;
    $("td-fix-remove").textContent = line !== null ? t("Take back this move")
      : board !== null ? t("Take back board %(n)s's hand", { n: board }) : t("Take back hand %(n)s", { n: hand });
    $("td-fix-remove").hidden = line === 1;  // a hand's first line is the hand itself: taken back as a hand
    tell("td-fix-message", "");
    tell("td-message", "");  // what was said before is of another correction
    place();
    $("td-fix-text").focus();
  }

  function place() {
    const box = $("td-hands").querySelector(`.hand[data-hand="${fixing.hand}"]`);
    if (!box) { fixing = null; form.hidden = true; return; }
    box.append(form);
    form.hidden = false;
  }

  function closeForm() {
    fixing = null;
    form.hidden = true;
    $("td-desk").append(form);
  }

  async function save(text) {
    if (!fixing || !pin) return;
    const body = { rev: fixing.rev, hand: fixing.hand, line: fixing.line, text, reason: $("td-fix-reason").value.trim() };
    // (a server that does not answer: said beside the form, and the correction sent when it answers)
    const answer = await table.call("POST", "/correct", body, { headers: { "X-Director-PIN": pin },
                                                                refused: (said) => tell("td-fix-message", said, "bad"),
                                                                waiting: (said) => tell("td-fix-message", said, "") });
    if (!answer.ok) return;
    closeForm();
    $("td-fix-reason").value = "";
    tell("td-message", (answer.data.said || []).join("; "), "good");
    await reload();
  }

  // The call that brought the director here, cleared here too.
  $("td-clear").addEventListener("click", async () => {
    const view = table.view();
    if (!pin || !view) return;
    const answer = await table.call("POST", "/clear", { rev: view.rev }, { headers: { "X-Director-PIN": pin },
                                                                          refused: (said) => tell("td-message", said, "bad"),
                                                                          waiting: (said) => tell("td-message", said, "") });
    if (answer.ok) tell("td-message", (answer.data.said || []).join("; "), "good");
  });
  form.addEventListener("submit", (e) => { e.preventDefault(); save($("td-fix-text").value); });
  $("td-fix-remove").addEventListener("click", () => save(""));
  $("td-fix-cancel").addEventListener("click", closeForm);

  function lock() {
    pin = null;
    lines = null;
    asked++;
    closeForm();
    $("td-hands").replaceChildren();
    $("td-desk").hidden = true;
    $("td-unlock").hidden = false;
    $("td-pin").value = "";
    tell("td-message", "");
    $("td").hidden = true;
  }

  $("director").addEventListener("click", () => {
    if (!$("td").hidden && !pin) { lock(); return; }  // tapped again before the PIN: closed
    $("td").hidden = false;
    $("td").scrollIntoView({ block: "start" });
    if (!pin) sayWait();  // (the PIN waits: said before it is typed)
    if (!pin) $("td-pin").focus();
  });
  $("td-cancel").addEventListener("click", lock);
  $("td-lock").addEventListener("click", lock);
  $("td-unlock").addEventListener("submit", async (e) => {
    e.preventDefault();
    const typed = $("td-pin").value.trim();
    if (!typed) { tell("td-message", t("type the director's PIN"), "bad"); return; }
    // (one reading at a time: the PIN is not sent again while the server has not answered it)
    if ($("td-open").disabled) return;
    $("td-open").disabled = true;
    tell("td-message", "");
    let got;
    try { got = await read(typed, (said) => tell("td-message", said, "")); } finally { $("td-open").disabled = false; }
    $("td-pin").value = "";
    if ($("td").hidden) return;  // (closed meanwhile: nothing opens)
    if (got.wait) { waits(got.wait, true); return; }  // (its line counted down from now on)
    if (got.error) { tell("td-message", got.error, "bad"); return; }
    pin = typed;
    $("td-unlock").hidden = true;
    $("td-desk").hidden = false;
    $("td-clear").hidden = !(table.view() && table.view().called);
    tell("td-message", "");
    draw(got.data);
  });
  // The table moved on (a move, a confirmation, a correction): the lines are read again.
  document.addEventListener("table:drawn", (e) => {
    const view = table.view();
    $("td-clear").hidden = !pin || !view || !view.called;
    if (pin && (!lines || lines.rev !== e.detail.rev)) reload();
  });
})();

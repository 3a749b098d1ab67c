"""A result entered over the game in progress on a table's phone is a line of the audit trail
(`tournament history`, text and --json): who entered it, why, and the game it took the place of
(the hand the phone was at, its totals so far).  docs/venue.md says the director's reason "goes
into the audit trail (`tournament history`)", and docs/tournament.md that `result --replace` "is
audited the same way"; before, the director's page's reason was only the result's note and
`result --replace` over the phone's game left nothing in the trail.  The phone's own confirmation
of its game, and a result for a table whose phone has done nothing, add no such line."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_venue import _auth, _game_of, _requests
from tests.tournament.test_venue_live_result import _hands, _two_hands, served  # noqa: F401 (a fixture)

OVER = "result_entered_over_play"


def _cli(*args: str):
    return CliRunner().invoke(app, [str(a) for a in args])


def _trail(path) -> tuple[str, list[dict]]:
    """``history``'s text (its lines wrapped for the terminal: spaces made one) and its JSON."""
    text = _cli("history", path)
    assert text.exit_code == 0, text.output
    doc = _cli("history", path, "--json")
    assert doc.exit_code == 0, doc.output
    return " ".join(text.output.split()), json.loads(doc.output)


def _at(state: dict) -> str:
    game = state["game"]
    return f"in hand {game['hand']}" if game["in_hand"] else f"after hand {game['hand']}"


def _totals_said(state: dict) -> str:
    totals = state["game"]["totals"]
    return ", ".join(f"{s} {totals[s]}" for s in ("P1", "P2", "P3"))


def test_the_directors_page_result_over_the_phones_game_is_in_history(served):
    path, server, client, token, director = served["horse-race"]
    state = _two_hands(path, client, token)
    hand, so_far = state["game"]["hand"], _totals_said(state)
    assert _at(state) == "after hand 2"  # (two hands posted whole)
    r = client.post("/api/v1/tables/1/1/result", headers=_auth(director),
                    json={"scores": {"P1": 61, "P2": 3, "P3": 2}, "reason": "the game stopped at the break"})
    assert r.status_code == 200, r.json()
    text, doc = _trail(path)
    assert text.count("entered over the game in progress") == 1, text
    assert (f"round 1 by the director's page: table 1: P1 61, P2 3, P3 2 (typed score) entered over the game in "
            f"progress on its phone (after hand {hand}, {so_far} so far) — the game stopped at the break") in text
    (entry,) = [d for d in doc if d.get("action") == OVER]
    assert entry["by"] == "the director's page" and entry["reason"] == "the game stopped at the break"
    assert entry["round"] == 1 and entry["detail"]["table"] == 1 and entry["detail"]["kind"] == "manual"
    assert entry["detail"]["now"] == [["P1", 61], ["P2", 3], ["P3", 2]]
    assert entry["detail"]["over"]["hand"] == hand
    assert entry["detail"]["over"]["totals"] == [[s, state["game"]["totals"][s]] for s in ("P1", "P2", "P3")]


def test_result_replace_over_the_phones_game_is_in_history(served):
    path, server, client, token, _ = served["horse-race"]
    state = _two_hands(path, client, token)
    r = _cli("result", path, "--round", 1, "--table", 1, "--score", "P1=61,P2=3,P3=2", "--replace", "--by", "Desk")
    assert r.exit_code == 0, r.output
    text, doc = _trail(path)
    (entry,) = [d for d in doc if d.get("action") == OVER]
    assert entry["by"] == "Desk" and entry["reason"] is None and entry["detail"]["over"]["hand"] == state["game"]["hand"]
    assert text.count("entered over the game in progress") == 1, text
    assert (f"round 1 by Desk: table 1: P1 61, P2 3, P3 2 (typed score) entered over the game in progress on its "
            f"phone ({_at(state)}, {_totals_said(state)} so far)") in text


def test_result_replace_takes_a_reason_into_the_trail(served):
    path, server, client, token, _ = served["horse-race"]
    _two_hands(path, client, token)
    r = _cli("result", path, "--round", 1, "--table", 1, "--score", "P1=61,P2=3,P3=2", "--replace", "--by", "Desk",
             "--reason", "a dispute settled")
    assert r.exit_code == 0, r.output
    _, doc = _trail(path)
    (entry,) = [d for d in doc if d.get("action") == OVER]
    assert entry["by"] == "Desk" and entry["reason"] == "a dispute settled"


def test_the_phones_own_game_and_a_table_without_one_add_no_such_line(served):
    path, server, client, token, _ = served["competitive"]
    record = _game_of(path, 1, 1, seed=5)
    state = _hands(client, token, hand_by_hand(_requests(record)), 0)
    for side in ("NS", "EW"):
        r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.json()
        state = r.json()
    assert state["status"] == "confirmed"
    r = _cli("result", path, "--round", 1, "--table", 2, "--score", "NS=120,EW=80", "--replace")
    assert r.exit_code == 0, r.output
    _, doc = _trail(path)
    assert not [d for d in doc if d.get("action") == OVER], doc

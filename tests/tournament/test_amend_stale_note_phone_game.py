"""`tournament amend`'s note that the next round "was paired on standings this correction has
changed, and none of it is played yet: `tournament unpair` then `tournament pair` pairs it again"
(docs/tournament.md, "A correction that changes what the next round was paired on").

It was given while a table of that round had a game in progress on its phone (the venue's log),
which `unpair` then refuses; and it was given again for a correction that changed nothing of the
standings (an earlier correction had changed them).  Now a round whose phone has used its link is
played for the note, and the note is the correction's own: given only when this correction changed
the standings the round was paired on."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_pairs, create_event, make_settings, pair_next_round
from tournament.cli import app
from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_desk import finish_round
from tests.tournament.test_venue import _auth, _game_of, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

NOTE = "note: round 2 was paired on standings this correction has changed"


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def _event(tmp_path: Path) -> Path:
    """Six pairs, round 1 played (NS 100, EW 50 at each table), round 2 paired on its standings."""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Pairs", "competitive", "pairs", seed=3))
    add_pairs(store, [(f"A{i}", f"B{i}", None) for i in range(6)])
    pair_next_round(store)
    finish_round(store)
    pair_next_round(store)
    store.close()
    return path


def _first_hand_on_the_phone(path: Path) -> None:
    """Round 2 table 1's phone: play chosen and the first hand's lines posted (a game in progress)."""
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        link = next(x for x in links["tables"] if x["round"] == 2 and x["table"] == 1)
        url, auth = "/api/v1/tables/2/1", _auth(link["token"])
        state = client.get(url, headers=auth).json()
        state = client.post(f"{url}/mode", headers=auth, json={"rev": state["rev"], "mode": "play"}).json()
        first = hand_by_hand(_requests(_game_of(path, 2, 1, seed=5)))[0]
        r = client.post(f"{url}/dgn", headers=auth, json={"rev": state["rev"], "text": first})
        assert r.status_code == 200 and r.json()["status"] == "playing", r.json()
    finally:
        server.close()


def test_no_note_while_a_table_of_the_round_plays_on_its_phone(tmp_path):
    path = _event(tmp_path)
    _first_hand_on_the_phone(path)
    r = run("amend", path, "--round", 1, "--table", 1, "--score", "NS=10,EW=200", "--reason", "sheet misread")
    assert r.exit_code == 0, r.output
    assert "amended" in r.stdout and NOTE not in r.stdout and "unpair" not in r.stdout, r.stdout
    r = run("unpair", path)  # (what the note pointed at: refused, as the note now knows)
    assert r.exit_code != 0 and "phone" in r.output, r.output


def test_the_note_is_this_corrections_own(tmp_path):
    path = _event(tmp_path)
    r = run("amend", path, "--round", 1, "--table", 1, "--score", "NS=10,EW=200", "--reason", "sheet misread")
    assert r.exit_code == 0 and NOTE in r.stdout, r.output  # this correction changed the standings
    # The same scores again: nothing changed, no note (it was said again).
    r = run("amend", path, "--round", 1, "--table", 1, "--score", "NS=10,EW=200", "--reason", "again")
    assert r.exit_code == 0 and NOTE not in r.stdout, r.stdout
    # Another table's result given again as it is (`result --replace`, NS 100, EW 50): neither
    # score nor winner changed, so the standings did not: no note.
    r = run("result", path, "--round", 1, "--table", 2, "--score", "NS=100,EW=50", "--replace")
    assert r.exit_code == 0 and NOTE not in r.stdout, r.stdout
    # A correction that does change them says so again.
    r = run("amend", path, "--round", 1, "--table", 2, "--score", "NS=20,EW=210", "--reason", "misread too")
    assert r.exit_code == 0 and NOTE in r.stdout, r.output

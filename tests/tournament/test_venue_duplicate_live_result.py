"""A board's result entered over that board's game in progress on the table's phone, in a
duplicate event (pairs or teams): ``tournament result --board B`` (a typed score or the hand's
record) is refused in one line, nothing stored, as a whole game's result is over a phone's game
(tests/tournament/test_venue_live_result.py), unless ``--replace`` says to enter it over it.
Board by board: the table's other boards, and a board the phone has finished and confirmed, are
as before; the phone's own confirmation of its board is taken.  Before, the board's result was
stored without a word over the phone's hand (the same library call, tournament.event.duplicate,
from both)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec.convert import text_of

from tests.tournament.test_duplicate_event import new_event
from tests.tournament.test_venue_duplicate import _auth, _play_board, _seated, served
from tournament import open_event
from tournament.cli import app
from tournament.event import duplicate, duplicate_teams, results
from tournament.pairing import boards as B

pytest.importorskip("starlette.testclient")


def _words(board: int) -> str:
    return (f"round 1 table 1 has board {board} in progress on its table phone: let the table finish it and "
            f"confirm it there, or give --replace to enter this result over it (its moves stay in the venue's "
            f"log); nothing was stored")


@pytest.fixture
def venue(tmp_path: Path):
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")  # a 3-table Mitchell, 2 boards a round
    yield from served(event, 6, 38)


@pytest.fixture
def teams(tmp_path: Path):
    from tests.tournament.test_duplicate_teams import new_event as new_teams

    event = tmp_path / "teams.db"
    new_teams(event, 4, "--victory-points")
    yield from served(event, 6, 37)


def _cli(*args: object):
    return CliRunner().invoke(app, [str(a) for a in args])


def _table_one(server, client) -> tuple[str, str]:
    link = next(t for t in server.call(server.venue.links, "http://testserver")["tables"] if t["table"] == 1)
    return "/api/v1/tables/1/1", link["token"]


def _start(client, url: str, token: str, state: dict, moves: int = 1) -> dict:
    """The phone's board begun: ``hand 1`` (its deal) and ``moves`` legal moves."""
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    state = r.json()
    for _ in range(moves):
        r = client.post(f"{url}/dgn", headers=_auth(token),
                        json={"rev": state["rev"], "text": state["game"]["legal"][0]["text"]})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["status"] == "playing"
    return state


def _stored(event: Path) -> set[tuple[int, int]]:
    store = open_event(event)
    try:
        return {(t.table, b) for t in duplicate.table_boards(store, 1) for b in t.boards
                if duplicate.entered(store, t.table_id, b) is not None}
    finally:
        store.close()


def test_the_command_line_refuses_a_board_in_progress_on_the_phone(venue, tmp_path: Path) -> None:
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    state = client.get(url, headers=_auth(token)).json()
    assert state["board"] == first
    before = _start(client, url, token, state)
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0")
    assert r.exit_code == 1, r.output
    said = r.output.strip()
    assert "\n" not in said and said.endswith(_words(first)), said
    # The hand's record of the board: refused the same way.
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(_cli("boards", event, "--json").output)}
    record = tmp_path / "board.json"
    record.write_text(text_of([B.play(boards[first], "1/1")], "json"))
    r = _cli("result", event, record, "--round", 1, "--table", 1, "--board", first)
    assert r.exit_code == 1 and _words(first) in r.output, r.output
    assert _stored(event) == set()
    # The phone's game goes on, as it was.
    now = client.get(url, headers=_auth(token)).json()
    assert now["status"] == "playing" and now["rev"] == before["rev"] and now["board"] == first
    # The table's other board, and another table's, take a result as before.
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", second, "--score", "NS=50,EW=0")
    assert r.exit_code == 0 and "— stored" in r.output, r.output
    other = next(t for t in _seated(server, 1) if t["table"] == 2)["boards"][0]
    r = _cli("result", event, "--round", 1, "--table", 2, "--board", other, "--score", "NS=50,EW=0")
    assert r.exit_code == 0, r.output
    # --replace enters it over the phone's hand.
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0", "--replace")
    assert r.exit_code == 0, r.output
    assert f"round 1 table 1 board {first}: NS 50, EW 0 (typed score, unverified) — stored" in r.output
    assert _stored(event) == {(1, first), (1, second), (2, other)}


def test_the_phones_own_confirmation_is_taken_and_its_next_board_is_refused(venue) -> None:
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    state = client.get(url, headers=_auth(token)).json()
    state = _play_board(client, url, token, state, random.Random(5))
    assert f"board {first}: NS" in state["said"][-1] and "verified record" in state["said"][-1]
    assert state["board"] == second and state["boards_played"] == 1
    state = _start(client, url, token, state, moves=2)
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", second, "--score", "NS=50,EW=0")
    assert r.exit_code == 1 and r.output.strip().endswith(_words(second)), r.output
    # The board confirmed at the phone has its result: replaced only with --replace, as before.
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0")
    assert r.exit_code == 1 and "already has a result" in r.output and "in progress" not in r.output, r.output
    assert _stored(event) == {(1, first)}


def test_the_library_refuses_a_board_waiting_for_its_confirmations(venue) -> None:
    """A board whose hand is over, one side confirmed: still the phone's; --replace takes it."""
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    state = client.get(url, headers=_auth(token)).json()
    state = _start(client, url, token, state, moves=0)
    while not state["game"]["over"]:
        legal = state["game"]["legal"]
        r = client.post(f"{url}/dgn", headers=_auth(token),
                        json={"rev": state["rev"], "text": legal[0]["text"] if legal else "y"})
        assert r.status_code == 200, r.text
        state = r.json()
    r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "NS"})
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.json()
    store = open_event(event)
    try:
        with pytest.raises(results.GameOnPhone, match=f"^round 1 table 1 has board {first} in progress") as e:
            duplicate.enter_score(store, 1, 1, first, {"NS": 50, "EW": 0})
        assert (e.value.round, e.value.table, e.value.board) == (1, 1, first)
        assert duplicate.enter_score(store, 1, 1, second, {"NS": 50, "EW": 0}).status == duplicate.STORED
        assert duplicate.enter_score(store, 1, 1, first, {"NS": 50, "EW": 0}, replace=True).status == duplicate.STORED
    finally:
        store.close()


def test_duplicate_teams_refuse_a_board_in_progress_on_the_phone(teams) -> None:
    event, server, client = teams
    url, token = _table_one(server, client)
    state = client.get(url, headers=_auth(token)).json()
    first, second = state["boards"]
    _start(client, url, token, state)
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0")
    assert r.exit_code == 1 and r.output.strip().endswith(_words(first)), r.output
    store = open_event(event)
    try:
        with pytest.raises(results.GameOnPhone):
            duplicate_teams.enter_score(store, 1, 1, first, {"NS": 50, "EW": 0})
        assert duplicate_teams.enter_score(store, 1, 1, second, {"NS": 50, "EW": 0}).status == duplicate.STORED
        assert duplicate_teams.enter_score(store, 1, 1, first, {"NS": 50, "EW": 0},
                                           replace=True).status == duplicate.STORED
    finally:
        store.close()

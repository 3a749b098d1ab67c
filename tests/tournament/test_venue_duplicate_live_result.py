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
from tests.tournament.test_venue_duplicate import PHRASES, _auth, _play_board, _seated, served
from tournament import open_event
from tournament.cli import app
from tournament.event import duplicate, duplicate_teams, phone, results
from tournament.pairing import boards as B
from tournament.store import boards as sql_boards, venue as venue_sql

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


# --- a board entered over the phone's play: the phone goes on with its next board ----------------
#
# Before, the result was stored but the phone was left stuck: its next board was offered (the one
# entered is not played again) while its live game still held the entered board's unfinished hand,
# so every "hand 1" was refused, "board B is one hand: it is confirmed before the next board starts".


def _board_rows(server, table_no: int = 1) -> list[tuple[str, dict]]:
    store = server.venue.store
    table = server.call(store.table, 1, table_no)
    return [(kind, json.loads(body)) for _, kind, body, _ in server.call(venue_sql.log, store, table.id)
            if kind == "board"]


def _goes_on_after(event: Path, server, client, url: str, token: str, before: dict, first: int,
                   second: int) -> None:
    """What a phone whose ``first`` board was entered over its play (``before``: its state then)
    finds, and does: a write it sends at the old revision is refused with the table now; the table
    now offers ``second``, with no hand of ``first`` left in play (its moves stay in the log); its
    engine offline says the same; ``second`` is played and confirmed; nothing doubled."""
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": before["rev"], "text": before["game"]["legal"][0]["text"]})
    assert r.status_code == 409, r.text
    state = r.json()["state"]
    assert (state["board"], state["boards_played"], state["status"]) == (second, 1, "playing")
    assert state["game"]["hands"] == [] and state["rev"] == before["rev"] + 1
    assert state["entered"] == {"board": first, "at": state["last_at"]}
    log = client.get(f"{url}?log=1", headers=_auth(token)).json()["log"]
    offline = phone.answer(log, {"path": "state"}, sentences=PHRASES)["body"]
    assert (offline["board"], offline["boards_played"], offline["entered"]) == (second, 1, state["entered"])
    assert [r[1] for r in log["rows"]] == ["dgn"] * before["rev"] + ["board"]  # the first board's play: kept
    assert _board_rows(server) == [("board", {"board": first, "entered": "director"})]
    state = _play_board(client, url, token, state, random.Random(7))
    assert f"board {second}: NS" in state["said"][-1], state["said"]
    assert state["status"] == "confirmed" and state["board"] is None and state["boards_played"] == 2
    assert state["entered"] is None
    rows = {b["board"]: (b["NS"], b["EW"]) for b in state["result"]["boards"]}
    assert rows[first] == (50, 0) and set(rows) == {first, second}
    store = open_event(event)  # (a connection of its own: what the file holds)
    try:
        table = store.table(1, 1)
        assert sorted(r["board"] for r in sql_boards.results(store) if r["table_id"] == table.id) == sorted([first, second])
        assert duplicate.entered(store, table.id, first)["ns_points"] == 50
        assert duplicate.entered(store, table.id, second)["verified"]
    finally:
        store.close()
    assert _board_rows(server) == [("board", {"board": first, "entered": "director"}),
                                   ("board", {"board": second, "side": "EW"})]


def test_a_board_entered_over_the_phone_by_the_command_line_lets_the_table_go_on(venue) -> None:
    """``tournament result --board B --replace`` beside the running server (a connection of its own)."""
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    before = _start(client, url, token, client.get(url, headers=_auth(token)).json())
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0", "--replace")
    assert r.exit_code == 0 and "— stored" in r.output, r.output
    _goes_on_after(event, server, client, url, token, before, first, second)


def test_a_board_entered_over_the_phone_through_the_running_venue_lets_the_table_go_on(venue) -> None:
    """The same entry made on the venue's own connection (its thread, as its own writes run)."""
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    before = _start(client, url, token, client.get(url, headers=_auth(token)).json(), moves=2)
    entry = server.call(lambda: duplicate.enter_score(server.venue.store, 1, 1, first, {"NS": 50, "EW": 0},
                                                      replace=True))
    assert entry.status == duplicate.STORED
    _goes_on_after(event, server, client, url, token, before, first, second)


def test_duplicate_teams_go_on_after_a_board_entered_over_the_phone(teams) -> None:
    event, server, client = teams
    url, token = _table_one(server, client)
    state = client.get(url, headers=_auth(token)).json()
    first, second = state["boards"]
    before = _start(client, url, token, state)
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0", "--replace")
    assert r.exit_code == 0 and "— stored" in r.output, r.output
    _goes_on_after(event, server, client, url, token, before, first, second)


def test_a_board_entered_apart_from_the_phones_play_leaves_its_log_alone(venue) -> None:
    """Only a board entered over the phone's play closes it there: a board still to come, or one
    entered before the phone began, writes nothing in the table's log."""
    event, server, client = venue
    url, token = _table_one(server, client)
    first, second = next(t for t in _seated(server, 1) if t["table"] == 1)["boards"]
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0")
    assert r.exit_code == 0, r.output
    state = client.get(url, headers=_auth(token)).json()
    assert (state["board"], state["boards_played"], state["entered"]) == (second, 1, None)
    _start(client, url, token, state)
    assert _board_rows(server) == []


@pytest.mark.parametrize("which", ["venue", "teams"])
def test_a_board_entered_over_the_phone_keeps_its_reason_in_the_trail(which, request) -> None:
    """``--replace --reason TEXT`` for a board with no result yet, its hand in play on the phone:
    the result takes the place of that hand, and the trail says so, with the reason
    (``history``, the export's audit).  Before, a reason was kept only where an earlier result
    was replaced: here it was dropped without a word."""
    event, server, client = request.getfixturevalue(which)
    url, token = _table_one(server, client)
    state = client.get(url, headers=_auth(token)).json()
    first = state["board"]
    _start(client, url, token, state)
    r = _cli("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=50,EW=0", "--replace",
             "--reason", "the phone ran flat mid-hand")
    assert r.exit_code == 0, r.output
    said = _cli("history", event).output
    line = next((x for x in said.splitlines() if "the phone ran flat mid-hand" in x), None)
    assert line is not None, said
    assert f"table 1 board {first}: NS 50, EW 0 (typed score) entered over the hand its phone was playing" in line
    audit = json.loads(_cli("export", event, "-o", "-").output)["audit"]
    assert [(d["action"], d["reason"]) for d in audit if d.get("action") == "board_entered_over_play"] == \
        [("board_entered_over_play", "the phone ran flat mid-hand")], audit

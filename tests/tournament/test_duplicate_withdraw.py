"""A pair that leaves a seated duplicate movement (docs/duplicate.md, "A pair that leaves
mid-session"): ``tournament withdraw`` of a pair once round 1 is seated.

Before, it was refused ("a duplicate movement is fixed for the whole session once round 1 is
seated"), and the director marked every board the pair would not play by hand, round after round.
Now the pair is withdrawn from the rest of the session: every board it was due to play from now
on is marked not played at its table (the round in play's boards without a result there at once,
each later round's as it is seated), so its opponents are ranked on the boards they played; the
boards it played stay scored; the withdrawal (and each round's marks) is in ``history`` with its
reason; ``return`` takes back the marks it made in the round in play, and no other.  Duplicate
teams: the round in play's boards at its table are marked (its match is scored without them), and
the team is a pair short from the next round, as before.  Refused while a table's phone is playing
one of the boards it would mark."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event import duplicate as dup, players, roster
from tournament.event.rounds import pair_next_round
from tournament.store import boards as board_sql

from tests.tournament.test_duplicate_event import shown_percent
from tests.tournament.test_duplicate_not_played import _howell
from tests.tournament.test_duplicate_rounds import ok, run


def _mitchell(tmp_path: Path) -> Path:
    """Six pairs, a 3-table Mitchell (3 rounds of 2 boards), round 1 seated."""
    e = tmp_path / "m.db"
    ok("new", e, "--name", "M", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 7):
        ok("add", e, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    ok("boards", e, "--boards", 6, "--seed", 1)
    ok("pair", e)
    return e


def _tables(e: Path, round_no: int) -> list[dup.TableBoards]:
    with open_event(e) as store:
        return dup.table_boards(store, round_no)


def _names(e: Path) -> dict[int, str]:
    """The movement's pair number -> the pair's name."""
    with open_event(e) as store:
        names = {t.id: t.name for t in store.teams()}
        return {n: names[i] for n, i in board_sql.pair_numbers(store).items()}


def _marks(e: Path) -> list[tuple[int, int, int, str]]:
    """Every board marked not played: (round, table, board, reason)."""
    with open_event(e) as store:
        return [(r["round"], r["table"], r["board"], r["reason"]) for r in dup.not_played_rows(store)]


def _play_round(e: Path, round_no: int, skip: set[int] = frozenset()) -> None:
    """Every board of the round with nothing yet at a table (none at the tables ``skip``) gets a typed score."""
    with open_event(e) as store:
        done = board_sql.settled(store)
    for t in _tables(e, round_no):
        if t.table in skip:
            continue
        for b in t.boards:
            if (t.table_id, b) not in done:
                ok("result", e, "--round", round_no, "--table", t.table, "--board", b, "--score",
                   f"NS={10 * ((b + t.table) % 4)},EW=0")


def test_a_pair_leaving_a_mitchell_mid_round_leaves_its_opponents_their_boards_played(tmp_path: Path) -> None:
    e = _mitchell(tmp_path)
    names = _names(e)
    mine = next(t for t in _tables(e, 1) if names[t.ns] == "Pair 1")
    first, second = mine.boards
    ok("result", e, "--round", 1, "--table", mine.table, "--board", first, "--score", "NS=30,EW=0")
    out = ok("withdraw", e, "Pair 1", "--reason", "went home")
    assert "withdrew Pair 1 from the rest of round 1 (the round in play) and from round 2 on" in out
    assert f"not played for its opponents: round 1 table {mine.table} board {second}" in out
    assert _marks(e) == [(1, mine.table, second, "the pair Pair 1 withdrew: went home")]
    assert "1 of 2, 1 not played" in ok("tables", e, "--round", 1)
    history = ok("history", e)
    assert (f"withdrew the pair Pair 1 from the rest of round 1 and from round 2 on; not played for its opponents: "
            f"round 1 table {mine.table} board {second} — went home") in history
    # The round ends without the board, and each later round marks the pair's table as it is seated.
    _play_round(e, 1)
    for r in (2, 3):
        ok("pair", e)
        at = next(t for t in _tables(e, r) if names[t.ns] == "Pair 1")
        assert [(m[1], m[2]) for m in _marks(e) if m[0] == r] == [(at.table, b) for b in at.boards]
        assert f"table {at.table} boards {at.boards[0]}, {at.boards[1]}: not played (the pair Pair 1 has " \
               f"withdrawn) — went home" in ok("history", e)
        assert "by the pairing" in ok("history", e)
        _play_round(e, r)
    ok("check", e)
    doc = json.loads(ok("standings", e, "--json"))
    assert doc["provisional"] is False
    rows = {names[r["pair"]]: r for r in doc["pairs"]}
    # The board the pair played stays scored; its opponents are ranked on the boards they played.
    assert rows["Pair 1"]["boards"] == 1 and rows["Pair 1"]["top"] > 0
    missed = {names[mine.ew]: 1}
    for r in (2, 3):
        at = next(t for t in _tables(e, r) if names[t.ns] == "Pair 1")
        missed[names[at.ew]] = missed.get(names[at.ew], 0) + 2
    for name, row in rows.items():
        if name != "Pair 1":
            assert row["boards"] == 6 - missed.get(name, 0), name
            assert row["percent"] == shown_percent(row["matchpoints"], row["top"])
    assert any(rows[n]["boards"] < 6 for n in missed)


def test_a_howell_pair_withdrawn_and_back_takes_back_only_the_marks_of_its_withdrawal(tmp_path: Path) -> None:
    e = _howell(tmp_path)  # round 1 seated, tables 1 and 2 done, table 3 not started
    names = _names(e)
    t3 = next(t for t in _tables(e, 1) if t.table == 3)
    leaving = names[t3.ns]
    with open_event(e) as store:
        dup.mark_not_played(store, 1, 3, 1, "ran out of time")  # by hand, before the pair leaves
        players.withdraw(store, leaving, "ill", "the desk")
        assert [(r["table"], r["board"], r["reason"]) for r in dup.not_played_rows(store)] == [
            (3, 1, "ran out of time"), (3, 2, f"the pair {leaving} withdrew: ill")]
        pair_next_round(store)  # round 1 is over: its table 3 has nothing more to come
        at = next(t for t in dup.table_boards(store, 2) if leaving in (names[t.ns], names[t.ew]))
        other = next(t for t in dup.table_boards(store, 2) if t.table != at.table)
        dup.mark_not_played(store, 2, other.table, other.boards[0], "a slow table")  # by hand, elsewhere
        marked = {(r["round"], r["table"], r["board"]) for r in dup.not_played_rows(store)}
        assert {(2, at.table, b) for b in at.boards} <= marked
        # One of them taken back and marked again by hand: the director's mark now.
        dup.clear_board(store, 2, at.table, at.boards[1], "checking")
        dup.mark_not_played(store, 2, at.table, at.boards[1], "again by hand")
        # Back while round 2 is in play: it plays its boards there after all; round 1's stay missed.
        assert roster.return_player(store, leaving) == (leaving, 2)
        assert {(r["round"], r["table"], r["board"], r["reason"]) for r in dup.not_played_rows(store)} == {
            (1, 3, 1, "ran out of time"), (1, 3, 2, f"the pair {leaving} withdrew: ill"),
            (2, other.table, other.boards[0], "a slow table"), (2, at.table, at.boards[1], "again by hand")}
        assert dup.missing_by_round(store)[2] == sum(len(t.boards) for t in dup.table_boards(store, 2)) - 2
    history = ok("history", e)
    assert (f"the pair {leaving} back from round 2; to play again, no longer marked not played: round 2 table "
            f"{at.table} board {at.boards[0]}") in history
    assert "withdrew the pair" in history and "— ill" in history
    _play_round(e, 2)
    ok("check", e)
    ok("pair", e)
    assert not [m for m in _marks(e) if m[0] == 3]  # back: nothing of its is marked any more


def test_a_withdrawal_taken_back_in_its_round_leaves_the_round_as_it_was(tmp_path: Path) -> None:
    e = _mitchell(tmp_path)
    before = ok("tables", e, "--round", 1)
    ok("withdraw", e, "Pair 2", "--reason", "typed the wrong pair")
    assert len(_marks(e)) == 2
    out = ok("return", e, "Pair 2", "--reason", "the wrong pair")
    assert "Pair 2 is back from round 1 (the round in play)" in out and "no longer marked not played: round 1 table" in out
    assert _marks(e) == [] and ok("tables", e, "--round", 1) == before
    _play_round(e, 1)
    ok("pair", e)
    assert _marks(e) == []
    ok("check", e)


def test_a_pair_withdrawn_between_rounds_has_its_next_tables_marked(tmp_path: Path) -> None:
    e = _mitchell(tmp_path)
    _play_round(e, 1)
    out = ok("withdraw", e, "Pair 5")
    assert "not played for its opponents: no board of the round in play" in out
    assert _marks(e) == []
    ok("pair", e)
    at = next(t for t in _tables(e, 2) if "Pair 5" in (_names(e)[t.ns], _names(e)[t.ew]))
    assert [(m[1], m[2], m[3]) for m in _marks(e)] == [(at.table, b, "the pair Pair 5 withdrew") for b in at.boards]
    r = run("withdraw", e, "Pair 5")
    assert r.exit_code == 1 and "Pair 5 has already withdrawn (from round 2)" in r.output


def test_a_pair_in_duplicate_teams_leaves_its_match_without_its_boards(tmp_path: Path) -> None:
    from tests.tournament.test_duplicate_teams import new_event, run as team_run

    e = tmp_path / "t.db"
    new_event(e, 4)
    team_run("boards", e, "--boards", 6, "--seed", 3)
    team_run("pair", e)
    rows = json.loads(team_run("tables", e, "--json"))["rows"]
    table = next(r["table"] for r in rows if r["name"] == "North 1")
    team_run("result", e, "--round", 1, "--table", table, "--board", 1, "--score", "NS=10,EW=0")
    out = team_run("withdraw", e, "North 1 & South 1", "--reason", "left")
    assert f"not played for its opponents: round 1 table {table} board 2" in out
    assert "its team is a pair short from the next round" in out
    assert _marks(e) == [(1, table, 2, "the pair North 1 & South 1 withdrew: left")]
    for t in sorted({r["table"] for r in rows}):
        for b in (1, 2):
            run("result", e, "--round", 1, "--table", t, "--board", b, "--score", "NS=0,EW=10")
    with open_event(e) as store:
        assert dup.missing_by_round(store) == {}  # the board is settled at the match's other table too
    assert "Team 1 has 1 pair to play in round 2" in team_run("pair", e, code=1)
    out = team_run("return", e, "North 1 & South 1")
    assert f"no longer marked not played: round 1 table {table} board 2" in out and _marks(e) == []


def test_a_withdrawal_waits_for_the_hand_a_tables_phone_is_playing(tmp_path: Path) -> None:
    pytest.importorskip("starlette.testclient")
    from starlette.testclient import TestClient

    from tests.tournament.test_venue import _auth, _server

    e = _mitchell(tmp_path)
    server = _server(e)
    try:
        client = TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token = next(x for x in links["tables"] if x["table"] == 1)["token"]
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"})
        state = client.get(url, headers=_auth(token)).json()
        assert client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"}
                           ).status_code == 200
        ns = _names(e)[next(t for t in _tables(e, 1) if t.table == 1).ns]
        r = run("withdraw", e, ns, "--reason", "left")
        assert r.exit_code == 1 and "Traceback" not in r.output
        said = r.output.strip().splitlines()
        assert len(said) == 1 and f"{ns} cannot withdraw now: round 1 table 1's phone is playing board " in said[0]
        assert "nothing was written" in said[0]
        assert _marks(e) == [] and "withdrew" not in ok("history", e)
        ok("withdraw", e, _names(e)[next(t for t in _tables(e, 1) if t.table == 2).ns])  # another table: taken
    finally:
        server.close()

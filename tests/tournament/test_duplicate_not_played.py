"""A board a table did not play, and a board's result taken back (duplicate pairs).

Before, a table that did not play a board held the session up for good: ``pair`` waited for a
result that could never come, ``--forfeit`` is refused for boards, and ``clear`` sent the
director to ``--replace``.  Now ``result --board B --not-played --reason`` says the table did not
play it (the round can end; the board is scored over the tables that played it, every other pair
scored exactly as if that table's row did not exist) and ``clear --board B --reason`` takes a
board's result back, kept in the history.  Both are refused where they do not apply."""

from __future__ import annotations

from pathlib import Path

from tournament import open_event
from tournament.event import duplicate as dup
from tournament.pairing import matchpoints as mp

from tests.tournament.test_duplicate_rounds import ok, run


def _howell(tmp_path: Path) -> Path:
    """The director's report: six pairs, a 3-table Howell, round 1 seated, tables 1 and 2 done."""
    csv = tmp_path / "p6.csv"
    csv.write_text("name,partner,pair\nAna,Bo,Primos\nCruz,Dani,Dupla\nEva,Fede,Halcones\nGil,Hugo,Leones\n"
                   "Ines,Juan,Tigres\nKiko,Luz,Pumas\n", encoding="utf-8")
    e = tmp_path / "e.db"
    ok("new", e, "--name", "E", "--game", "competitive", "--format", "duplicate", "--movement", "howell")
    ok("add", e, "--csv", csv)
    ok("boards", e, "--boards", 10, "--seed", 7)
    ok("pair", e)
    for t, (ns, ew) in ((1, (20, 0)), (2, (0, 30))):
        for b in (1, 2):
            ok("result", e, "--round", 1, "--table", t, "--board", b, "--score", f"NS={ns},EW={ew}")
    return e


def test_a_board_not_played_lets_the_round_end_and_is_scored_without_that_table(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    ok("result", e, "--round", 1, "--table", 3, "--board", 2, "--score", "NS=40,EW=0")
    r = run("pair", e)
    assert r.exit_code == 1 and "table 3 board 1" in r.output  # as the director found it
    with open_event(e) as store:
        before = dup.session(store)  # table 3 has no row on board 1: this is the score to keep
    out = ok("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason", "ran out of time")
    assert "not played" in out
    with open_event(e) as store:
        assert dup.session(store) == before
        assert dup.missing(store, 1) == [] and dup.missing_by_round(store) == {}
        standing = dup.standings(store)
        assert standing["provisional"] is False
        at3 = {t.ns for t in dup.table_boards(store, 1) if t.table == 3} | \
            {t.ew for t in dup.table_boards(store, 1) if t.table == 3}
        for row in standing["pairs"]:  # the table's pairs are ranked on the one board they played
            assert row["boards"] == (1 if row["pair"] in at3 else 2)
    assert "table 3 board 1: not played — ran out of time" in ok("history", e)
    assert "1 of 2, 1 not played" in ok("tables", e, "--round", 1)
    ok("pair", e)  # round 2 is seated
    ok("check", e)


def test_the_board_not_played_is_scored_as_if_that_tables_row_did_not_exist(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    for b, score in ((1, "NS=50,EW=0"), (2, "NS=0,EW=10")):
        ok("result", e, "--round", 1, "--table", 3, "--board", b, "--score", score)
    with open_event(e) as store:
        t3 = next(t for t in dup.table_boards(store, 1) if t.table == 3)
        expected = mp.score_session([r for r in dup.table_results(store) if (r.board, r.ns) != (1, t3.ns)],
                                    mp.IMP_STEP["competitive"])
    out = ok("clear", e, "--round", 1, "--table", 3, "--board", 1, "--reason", "entered for the wrong table")
    assert "taken back" in out
    ok("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason", "a pair left")
    with open_event(e) as store:
        assert dup.session(store) == expected
        assert dup.standings(store)["provisional"] is False
    history = ok("history", e)
    assert "took back table 3 board 1: NS 50, EW 0 (typed score) — entered for the wrong table" in history
    # A result for the board after all replaces the mark only with --replace, said in the history.
    r = run("result", e, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=50,EW=0")
    assert r.exit_code == 1 and "marked not played; give --replace" in r.output
    ok("result", e, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=50,EW=0", "--replace")
    assert "table 3 board 1: played after all, NS 50, EW 0" in ok("history", e)


def test_clearing_a_board_keeps_it_and_reopens_the_round(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    ok("clear", e, "--round", 1, "--table", 2, "--board", 2, "--reason", "wrong board")
    with open_event(e) as store:
        assert (2, 2) in dup.missing(store, 1)
        kept = store.conn.execute("SELECT board, old_result FROM board_result_audit").fetchall()
    assert [k[0] for k in kept] == [2] and '"ew_points": 30' in kept[0][1]
    # The mark itself is taken back the same way.
    ok("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason", "late")
    assert "no longer marked not played" in ok("clear", e, "--round", 1, "--table", 3, "--board", 1,
                                                "--reason", "they played it")
    assert "its mark 'not played'" in ok("history", e)


def test_not_played_and_clear_refused_where_they_do_not_apply(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    cases = [
        # (args, exit code, words)
        (("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played"), 2, "--reason"),
        (("result", e, "--round", 1, "--table", 3, "--board", 5, "--not-played", "--reason", "x"), 2,
         "plays boards 1, 2, not board 5"),
        (("result", e, "--round", 4, "--table", 3, "--board", 1, "--not-played", "--reason", "x"), 2,
         "round 4 does not exist"),
        (("result", e, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "x"), 1,
         "has a result"),
        (("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--score", "NS=2,EW=0",
          "--reason", "x"), 2, "without"),
        (("clear", e, "--round", 1, "--table", 3, "--board", 1, "--reason", "x"), 1, "nothing to take back"),
        (("clear", e, "--round", 1, "--table", 3, "--board", 1), 2, "--reason"),
        (("clear", e, "--round", 1, "--table", 3, "--board", 7, "--reason", "x"), 2, "not board 7"),
        (("clear", e, "--round", 3, "--table", 3, "--board", 1, "--reason", "x"), 2, "round 3 does not exist"),
        (("clear", e, "--round", 1, "--table", 3, "--reason", "x"), 1, "--board B"),
    ]
    for args, code, words in cases:
        r = run(*args)
        assert r.exit_code == code and words in r.output and "Traceback" not in r.output, (args, r.output)
    # A pairs event has no boards; a duplicate event not yet paired has no tables.
    p = tmp_path / "p.db"
    ok("new", p, "--name", "P", "--game", "competitive", "--format", "pairs")
    for i in range(4):
        ok("add", p, f"A{i}", f"B{i}")
    ok("pair", p)
    for args in (("result", p, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "x"),
                 ("clear", p, "--round", 1, "--table", 1, "--board", 1, "--reason", "x")):
        r = run(*args)
        assert r.exit_code == 2 and "duplicate" in r.output, r.output
    d = tmp_path / "d.db"
    ok("new", d, "--name", "D", "--game", "competitive", "--format", "duplicate", "--movement", "howell")
    r = run("result", d, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "x")
    assert r.exit_code == 2 and "no round has been paired yet" in r.output, r.output


def test_the_tables_phone_skips_a_board_not_played(tmp_path: Path) -> None:
    """At the venue a board marked not played is skipped, as one entered beside the server is, and
    the table is done once its other boards are in."""
    import pytest

    testclient = pytest.importorskip("starlette.testclient")
    from tournament.web.app import VenueServer

    e = _howell(tmp_path)
    ok("result", e, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason", "late start")
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        link = next(t for t in server.call(server.venue.links, "http://testserver")["tables"] if t["table"] == 3)
        auth = {"Authorization": f"Bearer {link['token']}"}
        state = client.get("/api/v1/tables/1/3", headers=auth).json()
        assert state["board"] == 2 and state["boards_played"] == 1
        ok("result", e, "--round", 1, "--table", 3, "--board", 2, "--score", "NS=20,EW=0")
        state = client.get("/api/v1/tables/1/3", headers=auth).json()
        assert state["board"] is None and state["result"]["boards"] == [{"board": 2, "NS": 20, "EW": 0}]
    finally:
        server.close()

"""The command line's words after a tester's two duplicate pairs evenings (findings 7, 11, 14, 15):
each says what was done, or what to type next, so that the director's next command is the right one.

* ``withdraw`` of a pair while a round is in play said ``withdrew X from round 5 on`` and marked
  round 4's boards not played; ``return`` said ``back from round 5`` and gave round 4's boards back;
  ``tables`` then showed ``0 of 2, 2 not played`` for a table with nothing more to come.
* ``standings`` mid-session said ``board 1 NS: too few tables (1), not scored`` of every board that
  had simply not travelled yet: it read as errors.
* ``amend --score`` at a duplicate table pointed to ``result … --board B --score …`` without the
  ``--replace`` its board's result needs; ``--score ns=31,ew=0`` was refused for its case; ``pair``
  with no boards said ``tournament boards EVENT`` rather than the file typed.
* ``links`` printed a Mitchell's sit-out table last, after the tables it stands before."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tournament import open_event
from tournament.event import duplicate as dup

from tests.tournament.test_duplicate_event import new_event, run


def _seated(tmp_path: Path, pairs: int = 6, movement: str = "mitchell", boards: int = 6) -> Path:
    e = tmp_path / "w.db"
    new_event(e, pairs, movement)
    run("boards", e, "--boards", boards, "--seed", 5)
    run("pair", e)
    return e


def _table_of(e: Path, name: str, round_no: int) -> dup.TableBoards:
    with open_event(e) as store:
        names = {t.id: t.name for t in store.teams()}
        from tournament.store import boards as board_sql

        ids = board_sql.pair_numbers(store)
        return next(t for t in dup.table_boards(store, round_no) if name in (names[ids[t.ns]], names[ids[t.ew]]))


def _play_all(e: Path, round_no: int) -> None:
    with open_event(e) as store:
        tables = dup.table_boards(store, round_no)
        from tournament.store import boards as board_sql

        done = board_sql.settled(store)
    for t in tables:
        for b in t.boards:
            if (t.table_id, b) not in done:
                run("result", e, "--round", round_no, "--table", t.table, "--board", b, "--score", "NS=20,EW=0")


def test_withdraw_and_return_say_the_round_in_play(tmp_path: Path) -> None:
    e = _seated(tmp_path)
    _play_all(e, 1)
    run("pair", e)  # round 2 in play
    at = _table_of(e, "Pair 2", 2)
    out = run("withdraw", e, "Pair 2", "--reason", "went home").splitlines()
    assert out[0] == "withdrew Pair 2 from the rest of round 2 (the round in play) and from round 3 on"
    assert out[1].startswith(f"not played for its opponents: round 2 table {at.table} boards "
                             f"{at.boards[0]}, {at.boards[1]}")
    history = run("history", e)
    assert "withdrew the pair Pair 2 from the rest of round 2 and from round 3 on; not played" in history
    # The table has nothing more to come: it reads as done.
    assert re.search(rf"│ +{at.table} │.*0 of 2, 2 not played: done", run("tables", e)), run("tables", e)
    back = run("return", e, "Pair 2").splitlines()
    assert back[0] == "Pair 2 is back from round 2 (the round in play)"
    assert back[1] == (f"to play again in the round in play, no longer marked not played: round 2 table {at.table} "
                       f"boards {at.boards[0]}, {at.boards[1]}")
    assert "the pair Pair 2 back from round 2; to play again" in run("history", e)
    assert "not played" not in run("tables", e)


def test_a_withdrawal_between_rounds_says_the_next_round_only(tmp_path: Path) -> None:
    e = _seated(tmp_path)
    _play_all(e, 1)
    out = run("withdraw", e, "Pair 2")
    assert out.splitlines()[0] == "withdrew Pair 2 from round 2 on"
    assert run("return", e, "Pair 2").splitlines() == ["Pair 2 is back from round 2"]


def test_standings_mid_session_say_so_far(tmp_path: Path) -> None:
    e = _seated(tmp_path, 8, "howell", 14)
    _play_all(e, 1)
    out = run("standings", e)
    assert "too few tables (" not in out
    said = [line for line in out.splitlines() if line.startswith("not scored yet")]
    assert len(said) == 1 and "(played at too few tables so far; more tables are still to play them)" in said[0]


def test_a_board_every_table_has_played_keeps_too_few_tables(tmp_path: Path) -> None:
    """A board whose every table has played it (or is marked not playing it), and still too few: for
    good, said as before."""
    e = _seated(tmp_path, 6, "mitchell", 6)
    board = 1
    tables = _all_tables_of(e, board)
    assert len(tables) == 3
    # Every table but one marks board 1 not played: one table has played it, and no other will.
    for round_no, table in tables[1:]:
        while _last_round(e) < round_no:
            _play_all(e, _last_round(e))
            run("pair", e)
        run("result", e, "--round", round_no, "--table", table, "--board", board, "--not-played", "--reason", "x")
    first_round, first_table = tables[0]
    if _last_round(e) == first_round:
        run("result", e, "--round", first_round, "--table", first_table, "--board", board, "--score", "NS=20,EW=0")
    out = run("standings", e)
    assert f"board {board} NS: too few tables (1), not scored" in out or \
        f"board {board} EW: too few tables (1), not scored" in out, out


def _last_round(e: Path) -> int:
    with open_event(e) as store:
        return store.last_round()


def _all_tables_of(e: Path, board: int) -> list[tuple[int, int]]:
    """Every (round, table) the movement gives ``board``, in round order."""
    with open_event(e) as store:
        moving = dup.movement(store)
    return [(r, s.table) for r, sittings in enumerate(moving.sittings, 1) for s in sittings if board in s.boards]


def test_amend_at_a_duplicate_table_points_to_result_with_replace(tmp_path: Path) -> None:
    e = _seated(tmp_path)
    at = _table_of(e, "Pair 1", 1)
    out = run("amend", e, "--round", 1, "--table", at.table, "--score", "NS=0,EW=27", "--reason", "x", code=2)
    assert (f"tournament result EVENT --round 1 --table {at.table} --board B --score NS=..,EW=.." in out
            and "--replace" not in out)  # nothing there yet: nothing to replace
    run("result", e, "--round", 1, "--table", at.table, "--board", at.boards[0], "--score", "NS=20,EW=0")
    out = run("amend", e, "--round", 1, "--table", at.table, "--score", "NS=0,EW=27", "--reason", "x", code=2)
    assert (f"correct a board's with tournament result EVENT --round 1 --table {at.table} --board B --score "
            f"NS=..,EW=.. --replace") in out


def test_side_names_in_any_case(tmp_path: Path) -> None:
    e = _seated(tmp_path)
    at = _table_of(e, "Pair 1", 1)
    out = run("result", e, "--round", 1, "--table", at.table, "--board", at.boards[0], "--score", "ns=31,ew=0")
    assert f"board {at.boards[0]}: NS 31, EW 0" in out
    # The same side twice (in two cases) is not guessed at.
    out = run("result", e, "--round", 1, "--table", at.table, "--board", at.boards[1], "--score", "ns=31,NS=0",
              code=2)
    assert "a score is needed for each of them" in out


def test_pair_without_boards_names_the_event_file(tmp_path: Path) -> None:
    e = tmp_path / "club night.db"
    new_event(e, 6, "howell")
    out = run("pair", e, code=1)
    assert f"tournament boards '{e}' --boards" in out and "EVENT" not in out


def test_links_put_the_sit_out_table_in_table_order(tmp_path: Path) -> None:
    e = tmp_path / "sim.db"
    run("simulate", e, "--format", "duplicate", "--movement", "mitchell", "--pairs", 7, "--rounds", 2, "--quiet")
    with open_event(e) as store:
        gone = dup.sits_out(store, 2)
    out = run("links", e, "--url", "http://127.0.0.1:8000")
    numbers = [int(m.group(1)) for m in re.finditer(r"^round 2 table (\d+):", out, re.M)]
    assert numbers == sorted(numbers) and gone.table in numbers, out
    assert gone.table != max(numbers)  # (else the order proves nothing)
    assert json.loads(run("links", e, "--url", "http://127.0.0.1:8000", "--json").split("\nnote:")[0])["sits_out"]

"""Review of the morning's commits (Dec 7): a pair's withdrawal from a seated duplicate event.

* Two pairs of one table both withdraw and one comes back: the boards of that table stay not
  played (the other pair is still gone); before, the return took the marks back and the round
  could not end (its boards waited for a pair that has left).
* Duplicate teams: a round whose boards a withdrawal (or the director) marked not played is not
  unpaired from under the marks; before, the unpair failed as "damaged (FOREIGN KEY constraint
  failed)", which sent the director to `tournament check` for a sound file.
"""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_rounds import ok, run
from tests.tournament.test_duplicate_withdraw import _marks, _mitchell, _names, _play_round, _tables


def test_a_pair_back_leaves_marked_the_boards_of_its_table_whose_other_pair_is_still_gone(tmp_path: Path) -> None:
    e = _mitchell(tmp_path)
    names = _names(e)
    table = next(t for t in _tables(e, 1) if names[t.ns] == "Pair 1")
    other = names[table.ew]
    ok("withdraw", e, "Pair 1", "--reason", "went home")
    ok("withdraw", e, other, "--reason", "their car")
    assert [(m[1], m[2]) for m in _marks(e)] == [(table.table, b) for b in table.boards]
    out = ok("return", e, "Pair 1")
    assert "no longer marked not played" not in out
    # Still not played there: the other pair has left; the mark now says so.
    assert _marks(e) == [(1, table.table, b, f"the pair {other} withdrew: their car") for b in table.boards]
    _play_round(e, 1, skip={table.table})
    ok("pair", e)  # round 1 is over without them
    # The other pair's return takes them back (the mark is its withdrawal's now).
    out = ok("return", e, other)
    assert [m for m in _marks(e) if m[0] == 1] == [(1, table.table, b, f"the pair {other} withdrew: their car")
                                                   for b in table.boards]  # round 1's stay missed
    ok("check", e)


def test_a_howell_pair_back_while_its_opponents_are_gone_keeps_their_boards_marked(tmp_path: Path) -> None:
    from tests.tournament.test_duplicate_not_played import _howell

    e = _howell(tmp_path)  # round 1 seated, tables 1 and 2 done, table 3 not started
    names = _names(e)
    t3 = next(t for t in _tables(e, 1) if t.table == 3)
    ok("withdraw", e, names[t3.ew])
    ok("withdraw", e, names[t3.ns])
    ok("return", e, names[t3.ew])
    assert [(m[1], m[2]) for m in _marks(e)] == [(3, b) for b in t3.boards]
    ok("pair", e)


def _teams_event(tmp_path: Path) -> Path:
    from tests.tournament.test_duplicate_teams import new_event, run as team_run

    e = tmp_path / "t.db"
    new_event(e, 4)
    team_run("boards", e, "--boards", 6, "--seed", 3)
    team_run("pair", e)
    return e


def test_a_duplicate_teams_round_with_a_withdrawals_marks_is_not_unpaired_from_under_them(tmp_path: Path) -> None:
    e = _teams_event(tmp_path)
    ok("withdraw", e, "North 1 & South 1", "--reason", "left")
    marks = _marks(e)
    assert marks
    r = run("unpair", e)
    assert r.exit_code == 1, r.output
    said = r.output.strip().splitlines()
    assert len(said) == 1 and "damaged" not in said[0] and "Traceback" not in r.output
    assert "round 1 cannot be unpaired" in said[0] and "North 1 & South 1" in said[0]
    assert "tournament return" in said[0]
    assert _marks(e) == marks
    ok("check", e)
    # The way out it names: the pair back (its marks taken back), then the round unpaired.
    ok("return", e, "North 1 & South 1")
    ok("unpair", e)
    ok("check", e)


def test_a_duplicate_teams_round_with_a_board_marked_by_hand_says_how_to_unpair_it(tmp_path: Path) -> None:
    e = _teams_event(tmp_path)
    ok("result", e, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "a fouled board")
    r = run("unpair", e)
    assert r.exit_code == 1, r.output
    said = r.output.strip().splitlines()
    assert len(said) == 1 and "damaged" not in said[0]
    assert "round 1 table 1 board 1 is marked not played" in said[0]
    assert "tournament clear EVENT --round 1 --table 1 --board 1 --reason TEXT" in said[0]
    ok("clear", e, "--round", 1, "--table", 1, "--board", 1, "--reason", "checking")
    assert "round 1" in ok("unpair", e)
    ok("check", e)

"""A duplicate pairs movement is fixed for the whole session once round 1 is seated: a pair
withdrawn then was still seated by the movement (``check``: "Ines plays but is not entered for
round 2"), and a pair entered then never was (``check`` failed too).  An entry is refused now, in
one line that says why; a withdrawal is taken, the movement seating the pair on with its boards
marked not played (tests/tournament/test_duplicate_withdraw.py); before round 1 both are as in any
pairs event."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_not_played import _howell, ok, run


def test_a_pair_withdrawn_from_a_seated_movement_is_still_seated_with_its_boards_not_played(tmp_path: Path) -> None:
    # (Refused before; now its boards from then on are marked not played: test_duplicate_withdraw.py.)
    e = _howell(tmp_path)
    out = ok("withdraw", e, "Tigres")
    assert "withdrew Tigres from round 2 on" in out and "not played for its opponents" in out
    assert "withdrew the pair Tigres" in ok("history", e)
    for t in (3,):
        for b in (1, 2):
            run("result", e, "--round", 1, "--table", t, "--board", b, "--score", "NS=20,EW=0")
    ok("pair", e)
    ok("check", e)


def test_a_pair_cannot_enter_a_seated_movement(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    r = run("add", e, "Zoe", "Yan", "--pair", "Late")
    assert r.exit_code == 1 and "a pair entered now could never be seated" in r.output, r.output
    assert "Late" not in ok("players", e)


def test_before_round_1_a_duplicate_event_takes_entries_and_withdrawals(tmp_path: Path) -> None:
    e = tmp_path / "d.db"
    ok("new", e, "--name", "D", "--game", "competitive", "--format", "duplicate", "--movement", "howell")
    for i in range(7):
        ok("add", e, f"A{i}", f"B{i}", "--pair", f"P{i}")
    ok("withdraw", e, "P6")
    ok("boards", e, "--boards", 10, "--seed", 1)
    ok("pair", e)
    ok("check", e)

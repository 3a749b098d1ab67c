"""A duplicate pairs movement is fixed for the whole session once round 1 is seated: a pair
withdrawn then was still seated by the movement (``check``: "Ines plays but is not entered for
round 2"), and a pair entered then never was (``check`` failed too).  Both are refused now, in
one line that says why (and, for a withdrawal, what to do: its boards entered as not played);
before round 1 both are as in any pairs event."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_not_played import _howell, ok, run


def test_a_pair_cannot_withdraw_from_a_seated_movement(tmp_path: Path) -> None:
    e = _howell(tmp_path)
    r = run("withdraw", e, "Tigres")
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert "Tigres cannot withdraw: a duplicate movement is fixed for the whole session" in r.output
    assert "--not-played" in r.output
    assert "withdrew" not in ok("history", e)
    for t in (3,):
        for b in (1, 2):
            ok("result", e, "--round", 1, "--table", t, "--board", b, "--score", "NS=20,EW=0")
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

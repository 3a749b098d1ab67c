"""A duplicate session once its movement is played (a tester's findings 10 and 11).

* Once every round of a 5-table Mitchell was in (``info``: ``progress: finished``), ``withdraw``
  said ``withdrew Osos from round 6 on`` and ``return`` ``Osos is back from round 6``: a round that
  can never exist (a duplicate session takes no later stage).  Both are refused in one line, exit
  1, nothing written; in duplicate teams too (``team … withdraw``).
* A pair withdrawn during round 1 (``withdrew Lobos from the rest of round 1 …``) was filed in
  ``history`` under round 2."""

from __future__ import annotations

import json
from pathlib import Path

from tests.tournament.test_cli_wording_dec7 import _play_all, _seated
from tests.tournament.test_duplicate_event import run
from tests.tournament.test_duplicate_teams import new_event as new_team_event, play_rounds


def _history(e: Path) -> list[str]:
    return [line for line in run("history", e).splitlines() if "withdr" in line or "back from" in line]


def test_the_history_files_a_withdrawal_under_the_round_it_left(tmp_path: Path) -> None:
    e = _seated(tmp_path, pairs=10, boards=10)
    said = run("withdraw", e, "Pair 2", "--reason", "went home").splitlines()[0]
    assert said == "withdrew Pair 2 from the rest of round 1 (the round in play) and from round 2 on"
    line, = _history(e)
    assert "  round 1  by " in line and "withdrew the pair Pair 2 from the rest of round 1 and from round 2 on" in line
    # A withdrawal between rounds (the round in play all played) is filed under the round it leaves from.
    _play_all(e, 1)
    run("withdraw", e, "Pair 3")
    assert "  round 2  by " in _history(e)[-1] and "withdrew the pair Pair 3 from round 2 on" in _history(e)[-1]


def test_no_withdrawal_or_return_once_the_session_is_over(tmp_path: Path) -> None:
    e = _seated(tmp_path, pairs=10, boards=10)
    rounds = 0
    while True:
        rounds += 1
        if rounds == 3:
            run("withdraw", e, "Pair 4", "--reason", "went home")  # during the session: taken
        _play_all(e, rounds)
        if "all are seated" in run("pair", e, code=1 if rounds == 5 else 0):
            break
    assert rounds == 5 and "progress: finished" in run("info", e)
    before = run("history", e, "--json")
    over = "the session is over (its last round, round 5, is played, and a duplicate session has no round after it)"
    assert run("withdraw", e, "Pair 1", "--reason", "went home", code=1) == (
        f"error: Pair 1 cannot withdraw: {over}; nothing was written\n")
    assert run("withdraw", e, "North 6", code=1) == f"error: Pair 6 cannot withdraw: {over}; nothing was written\n"
    assert run("return", e, "Pair 4", code=1) == f"error: Pair 4 cannot come back: {over}; nothing was written\n"
    assert run("history", e, "--json") == before
    rows = {r["name"]: r["withdrawn_from"] for r in json.loads(run("players", e, "--json"))}
    assert rows["North 1"] is None and rows["North 4"] == 4


def test_duplicate_teams_once_the_round_robin_is_over(tmp_path: Path) -> None:
    e = tmp_path / "teams.db"
    new_team_event(e, 4)
    run("boards", e, "--boards", 6, "--seed", 38)
    play_rounds(tmp_path, e, 3)
    assert "progress: finished" in run("info", e)
    over = "the session is over (its last round, round 3, is played, and a duplicate session has no round after it)"
    assert run("team", e, "withdraw", "Team 1", code=1) == (f"error: team Team 1 cannot withdraw: {over}; nothing "
                                                            f"was written\n")
    assert "cannot withdraw: the session is over" in run("withdraw", e, "North 2", code=1)

"""``tournament check`` in a team event (issue 37): a Swiss round of teams is paired on the team
standings, so its warning for standings changed since the pairing compares the team standings and
names teams; a correction that moves pairs but no team says nothing, one that moves teams says so
in the teams' words (and ``amend`` names the command that re-pairs an unplayed round)."""

from __future__ import annotations

import csv
import sqlite3
from pathlib import Path

from tests.tournament.test_teams import run


def _event(tmp_path: Path, schedule: str = "swiss") -> Path:
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--preset", "femundo-teams", "--team-pairing", schedule, "--seed", "4")
    for t in "ABCD":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2,{t} one", "--pair", f"{t}3,{t}4,{t} two")
    return event


def _ns_team(event: Path, round_no: int) -> dict[int, str]:
    """Each table of the round: the team sitting N-S (as `tables --csv` lists the seats)."""
    rows = csv.DictReader(run("tables", event, "--round", round_no, "--csv").splitlines())
    return {int(r["table"]): r["team"] for r in rows if r["side"] == "NS"}


def _changed_warnings(event: Path) -> list[str]:
    out = run("check", event, code=0).replace("\n  ", " ")  # a long line goes on indented
    return [line for line in out.splitlines() if "changed since" in line]


def test_check_compares_the_team_standings_a_round_was_paired_on(tmp_path):
    event = _event(tmp_path)
    run("pair", event)
    for table in range(1, 5):  # each table won by its N-S pair 200-100: every team one game, efectividad 0
        run("result", event, "--table", table, "--score", "NS=200,EW=100", "--round", 1)
    run("pair", event)
    # Pairs move, no team does: the home pair at table 1 wins by 50 less, the visitors' pair at
    # table 2 by 50 less too; each team still has one game and efectividad 0 (350 for, 350 against).
    first = run("amend", event, "--round", 1, "--table", 1, "--score", "NS=200,EW=150", "--reason", "misread")
    assert "note: round 2 was paired on team standings this correction has changed" in first  # the home team +50
    second = run("amend", event, "--round", 1, "--table", 2, "--score", "NS=200,EW=150", "--reason", "misread")
    assert "note:" not in second  # the team standings are again those round 2 was paired on
    assert _changed_warnings(event) == []
    conn = sqlite3.connect(event)
    try:
        kept = conn.execute("SELECT COUNT(*) FROM standings_used u JOIN rounds r ON r.id = u.round_id "
                            "WHERE r.number = 2").fetchone()[0]
    finally:
        conn.close()
    assert kept == 4  # the round kept the four teams' standings, not the eight pairs'
    # A correction that changes who won table 3: its match's two teams move.
    home = _ns_team(event, 1)[3]
    out = run("amend", event, "--round", 1, "--table", 3, "--score", "NS=100,EW=200", "--reason", "wrong side")
    assert "note: round 2 was paired on team standings this correction has changed" in out
    [warning] = _changed_warnings(event)
    assert warning.startswith("warning: round 2: paired on team standings that have changed since (")
    away = _ns_team(event, 1)[4]
    assert "(4 teams: " in warning and "round 1 table 3 were amended" in warning
    assert f"{home} rank 1 then, 4 now" in warning and f"{away} games won 1 then, 2 now" in warning
    assert " one" not in warning and " two" not in warning  # teams, not pairs
    # Ranks kept, a value changed: named by the first key that differs, in the teams' words.
    run("amend", event, "--round", 1, "--table", 3, "--score", "NS=200,EW=100", "--reason", "back")
    run("amend", event, "--round", 1, "--table", 4, "--score", "NS=200,EW=10", "--reason", "sheet")
    [warning] = _changed_warnings(event)
    ahead, behind = _ns_team(event, 1)[4], _ns_team(event, 1)[3]  # 300-210 and 210-300 now
    assert "(4 teams: " in warning and f"{ahead} efectividad 0 then, 90 now" in warning
    assert f"{behind} rank 1 then, 4 now" in warning


def test_a_team_round_robin_is_not_paired_on_standings(tmp_path):
    event = _event(tmp_path, "round-robin")
    run("pair", event)
    for table in range(1, 5):
        run("result", event, "--table", table, "--score", "NS=200,EW=100", "--round", 1)
    run("pair", event)
    out = run("amend", event, "--round", 1, "--table", 1, "--score", "NS=10,EW=200", "--reason", "misread")
    assert "note:" not in out
    assert _changed_warnings(event) == []

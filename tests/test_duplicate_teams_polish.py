"""Duplicate teams at the command line, a tester's findings (docs/duplicate.md, "Duplicate teams"):

* a board of a round before the last marked not played, taken back, or entered afresh, after the
  next (Swiss) round was paired, says so when the standings that round was paired on have changed,
  as a board's result replaced (and a game's correction) always did;
* ``tournament tables --json`` gives each table's boards: each board's result there and the boards
  not played there;
* ``tournament standings`` shows each team's byes, as the other team events' standings do;
* a team event's captain's sheet fills in a table forfeited before it is played (a team a pair
  short: the pairing stores the forfeit) and says so, where it offered boxes to fill.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import new_event, run

NOTE = "note: round 2 was paired on team standings this correction has changed"


@pytest.fixture
def swiss(tmp_path: Path) -> Path:
    """Four teams, Swiss, victory points; round 1 played (the home teams win board 1 by 45 at their
    first table, 5 IMPs) and round 2 paired on it, unplayed."""
    event = tmp_path / "swiss.db"
    run("new", event, "--name", "Swiss", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--duplicate", "--victory-points")
    for t in range(1, 5):
        run("team", event, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")
    run("boards", event, "--boards", 4, "--seed", 1)
    run("pair", event)
    for table in (1, 2, 3, 4):
        for board in (1, 2):
            run("result", event, "--round", 1, "--table", table, "--board", board, "--score",
                "NS=45,EW=0" if (table, board) in ((1, 1), (3, 1)) else "NS=0,EW=0")
    run("pair", event)
    return event


def test_a_board_changed_after_the_next_round_was_paired_says_so(swiss: Path) -> None:
    event = swiss
    where = ("--round", 1, "--table", 1, "--board", 1)
    # Taken back: the match of tables 1-2 is scored on board 2 alone, a draw, not the win round 2 used.
    out = run("clear", event, *where, "--reason", "wrong table")
    assert "taken back" in out and NOTE in out
    # Marked not played (the board is settled at both tables: the match is finished, drawn): it counts
    # no more than taken back, so this change moves nothing of the standings, and says nothing.
    out = run("result", event, *where, "--not-played", "--reason", "ran out of time")
    assert "not played" in out and "note:" not in out
    # The mark taken back (nothing moves either), and a score entered afresh (not a replacement): the
    # home team now loses it.
    out = run("clear", event, *where, "--reason", "it was played")
    assert "note:" not in out
    out = run("result", event, *where, "--score", "NS=0,EW=45")
    assert "stored" in out and NOTE in out
    # Replaced by the score round 2 was paired on: the standings are those again, and nothing is said.
    out = run("result", event, *where, "--score", "NS=45,EW=0", "--replace", "--reason", "typo")
    assert "note:" not in out
    assert "0 errors, 0 warnings" in run("check", event)
    # A board of round 2 in: round 2 is being played, and a correction of round 1 says nothing of its pairing.
    run("result", event, "--round", 2, "--table", 1, "--board", 3, "--score", "NS=0,EW=0")
    out = run("clear", event, *where, "--reason", "wrong table")
    assert "taken back" in out and "note:" not in out


@pytest.fixture
def five(tmp_path: Path) -> Path:
    """Five teams, a round robin, victory points; round 1 seated (tables 1-2 and 3-4, boards 1 and 2),
    one team with the bye."""
    event = tmp_path / "five.db"
    new_event(event, 5, "--victory-points")
    run("boards", event, "--boards", 10, "--seed", 38)
    run("pair", event)
    return event


def test_tables_json_gives_each_tables_boards(five: Path) -> None:
    event = five
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=45,EW=0")
    run("result", event, "--round", 1, "--table", 2, "--board", 2, "--not-played", "--reason", "ran out of time")
    run("result", event, "--round", 1, "--table", 3, "--board", 2, "--score", "NS=0,EW=25")
    doc = json.loads(run("tables", event, "--json"))
    assert doc["boards"] == [1, 2]
    tables = {t["table"]: t for t in doc["tables"]}
    assert [t["table"] for t in doc["tables"]] == [1, 2, 3, 4]
    assert all(t["boards"] == [1, 2] for t in tables.values())
    # Table 1: board 1's typed score; board 2 not played in the match (marked at table 2, none here).
    assert tables[1]["results"] == 1 and tables[1]["not_played"] == [2]
    assert tables[1]["board_results"] == [{"board": 1, "ns_points": 45, "ew_points": 0, "ended": None,
                                           "verified": False}]
    assert (tables[2]["results"], tables[2]["board_results"], tables[2]["not_played"]) == (0, [], [2])
    assert [(r["board"], r["ns_points"], r["ew_points"]) for r in tables[3]["board_results"]] == [(2, 0, 25)]
    assert (tables[3]["results"], tables[3]["not_played"]) == (1, [])
    assert (tables[4]["results"], tables[4]["board_results"], tables[4]["not_played"]) == (0, [], [])
    # The terminal says the same of each table.
    shown = run("tables", event)
    assert "B1 NS 45 EW 0 · B2 not played" in shown and "B1 to play · B2 NS 0 EW 25" in shown
    # A result taken back is gone from the table's boards.
    run("clear", event, "--round", 1, "--table", 1, "--board", 1, "--reason", "wrong table")
    again = {t["table"]: t for t in json.loads(run("tables", event, "--json"))["tables"]}
    assert (again[1]["results"], again[1]["board_results"], again[1]["not_played"]) == (0, [], [2])


def test_the_standings_show_each_teams_byes(five: Path) -> None:
    event = five
    doc = json.loads(run("standings", event, "--json"))
    [bye] = [r for r in doc["teams"] if r["byes"]]
    assert (bye["byes"], bye["played"], bye["won"], bye["victory_points"]) == (1, 0, 0, 12.0)
    lines = run("standings", event, "--wide").splitlines()
    header = next(line for line in lines if "rank" in line)
    cells = [c.strip() for c in header.strip("┃│ ").split("┃")]
    assert "byes" in cells and cells.index("byes") == cells.index("W-D-L") + 1
    row = next(line for line in lines if bye["team"] in line)
    values = [c.strip() for c in row.strip("┃│ ").split("│")]
    assert values[cells.index("byes")] == "1" and values[cells.index("W-D-L")] == "0-0-0"
    others = [line for line in lines if line.startswith("│") and bye["team"] not in line]
    assert len(others) == 4 and all([c.strip() for c in line.strip("│ ").split("│")][cells.index("byes")] == "0"
                                    for line in others)


def _captains_sheets(event: Path, folder: Path, round_no: int, lang: str) -> dict[str, str]:
    """The round's captain's sheets by their first table (``"1"``), as HTML."""
    run("sheets", event, "-o", folder, "--lang", lang)
    html = (folder / f"round{round_no}-score-sheets.html").read_text()
    return dict(re.findall(rf'<section class="sheet captains" id="match-{round_no}-(\d+)">(.*?)</section>',
                           html, re.S))


def test_a_captains_sheet_says_a_table_is_forfeited(tmp_path: Path) -> None:
    """A team a pair short: the table its withdrawn pair would sit at is lost by forfeit as the round
    is paired; its captain's sheet fills that table in (the opponents' forfeit score and game) and
    says it is forfeited, where it offered empty boxes; the match's other table still has its boxes."""
    from tests.test_duplicate_teams_sheets import _short_team  # (the same team event, a pair short in round 2)

    event, lost, _, winner = _short_team(tmp_path)
    sheets = _captains_sheets(event, tmp_path / "en", 2, "en")
    [(first, sheet)] = [(k, v) for k, v in sheets.items() if "Team 2" in v]
    table_rows = re.findall(r'<tr[^>]*><td class="hand">(\d+)</td><td>([^<]*)</td>.*?'
                            r'<td class="end[^"]*">([^<]*)</td><td class="end[^"]*">([^<]*)</td></tr>', sheet)
    assert len(table_rows) == 4  # two tables, a row a team at each
    other = next(int(n) for n, *_ in table_rows if int(n) != lost)
    filled = {team: (points, games) for n, team, points, games in table_rows if int(n) == lost}
    assert filled == {winner: ("200", "1"), "Team 2": ("0", "0")}  # the forfeit score (the preset's), the game
    assert all((points, games) == ("", "") for n, _, points, games in table_rows if int(n) == other)
    assert f"Table {lost}: forfeited by Team 2, not played ({winner} wins the game by the forfeit score)" in sheet
    assert f"Table {other}: forfeited" not in sheet
    assert int(first) in (lost, other)
    # The other match has no forfeit: boxes everywhere, no such line.
    [plain] = [v for v in sheets.values() if "Team 2" not in v]
    assert "forfeited" not in plain and 'class="end forfeit"' not in plain
    es = _captains_sheets(event, tmp_path / "es", 2, "es")
    assert any(f"Mesa {lost}: incomparecencia de Team 2, no se juega ({winner} gana la partida por "
               "incomparecencia)" in v for v in es.values())

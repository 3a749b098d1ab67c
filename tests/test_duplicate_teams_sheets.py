"""The paper of a team round, a tester's findings (docs/duplicate.md, "Duplicate teams";
docs/tournament.md, "Team events"):

* a duplicate-teams match's captain's sheet is scored on the round's boards, as a bridge team
  match's scorecard (each side's points at each table, the home team's net, the IMPs each team
  wins, their totals and the victory points; how the net is counted and the game's IMP scale), not
  in the points and games won of a team event of games;
* a table forfeited before it is played (its team a pair short: the pairing stores the forfeit) has
  a sheet that says so, with no boxes, and no game file: nothing is played there;
* ``tournament tables --csv`` of a duplicate-teams round has a column a board of the round, its
  points at the seat's table (``NS=45,EW=0``), ``not played``, or nothing while it is to play.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import new_event, run


def _captains(html: str, round_no: int) -> dict[str, str]:
    """A round's captain's sheets by their first table (``"1"``)."""
    return dict(re.findall(rf'<section class="sheet captains" id="match-{round_no}-(\d+)">(.*?)</section>',
                           html, re.S))


def _tables(html: str, round_no: int) -> dict[int, str]:
    """A round's tables' own sheets, by table number."""
    return {int(n): v for n, v in re.findall(rf'<section class="sheet" id="table-{round_no}-(\d+)">(.*?)</section>',
                                             html, re.S)}


def _sheets(event: Path, folder: Path, round_no: int, *extra: object) -> str:
    run("sheets", event, "-o", folder, *extra)
    return (folder / f"round{round_no}-score-sheets.html").read_text()


@pytest.fixture
def four(tmp_path: Path) -> Path:
    """Four teams, a round robin, victory points, two boards a round; round 1 seated."""
    event = tmp_path / "four.db"
    new_event(event, 4, "--victory-points")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    return event


def test_a_duplicate_teams_captains_sheet_is_scored_on_the_boards(four: Path, tmp_path: Path) -> None:
    event = four
    matches = {m["tables"][0]: m for m in json.loads(run("export", event, "-o", "-"))["duplicate_team_matches"]}
    sheets = _captains(_sheets(event, tmp_path / "en", 1), 1)
    assert sorted(int(k) for k in sheets) == sorted(matches) == [1, 3]
    for first, sheet in sheets.items():
        m = matches[int(first)]
        home, away, (t1, t2) = m["home"], m["away"], m["tables"]
        # Not a match of games: no points and games won a team, no total a team.
        assert "Games won" not in sheet and "Total " not in sheet
        # Who sits where: the home pair NS at the first table, EW at the second.
        seats = re.findall(r'<tr><td class="no">(\d+)</td><td class="side">(\w+)</td><td>([^<]*)</td>', sheet)
        assert seats == [(str(t1), "NS", home), (str(t1), "EW", away), (str(t2), "NS", away), (str(t2), "EW", home)]
        # The grid: each table's NS and EW points, the home team's net, each team's IMPs; a row a board.
        head = re.search(r"<thead>(.*?)</thead>", sheet.split('class="grid match-boards"')[1], re.S).group(1)
        assert re.findall(r"<th[^>]*>([^<]*)", head) == [
            "Board", f"Table {t1}", f"Table {t2}", "net", "IMPs", "NS", "EW", "NS", "EW", home, away]
        assert re.findall(r"<small>([^<]*)</small>", head) == [home, home, away, away, home]
        rows = re.findall(r'<tr><td class="hand">(\d+)</td>((?:<td class="[a-z]+"></td>)+)</tr>', sheet)
        assert [b for b, _ in rows] == ["1", "2"]
        assert all(re.findall(r'class="([a-z]+)"', cells) == ["pts"] * 4 + ["net", "imp", "imp"] for _, cells in rows)
        # The totals: each team's IMPs, then its victory points (the event gives them).
        foot = re.findall(r'<tr><th colspan="6">([^<]*)</th><td></td><td></td></tr>', sheet)
        assert foot == ["IMPs", "VP"]
        assert (f"The net of {home} on a board: NS points minus EW points at table {t1}, plus EW points minus NS "
                f"points at table {t2}.") in sheet and f"gives them to {away}" in sheet
        # Competitive's IMP scale, 24 steps of 5 points (docs/duplicate.md, "The domino IMP scale").
        scale = sheet.split('<table class="scale">')[1].split("</table>")[0]
        nets = [c for r in re.findall(r"<tr><th>net</th>(.*?)</tr>", scale) for c in re.findall(r"<td>([^<]*)", r)]
        imps = [c for r in re.findall(r"<tr><th>IMPs</th>(.*?)</tr>", scale) for c in re.findall(r"<td>([^<]*)", r)]
        assert imps == [str(k) for k in range(1, 25)]
        assert nets[:4] == ["5", "12.5", "22.5", "32.5"] and nets[-1] == "1,000"
        assert "Winner of the match:" in sheet and sheet.count("Signature of the captain of") == 2
    # Round 2 plays boards 3 and 4, in Spanish.
    for table in (1, 2, 3, 4):
        for board in (1, 2):
            run("result", event, "--round", 1, "--table", table, "--board", board, "--score", "NS=10,EW=0")
    run("pair", event)
    es = _captains(_sheets(event, tmp_path / "es", 2, "--lang", "es"), 2)
    for sheet in es.values():
        assert [b for b in re.findall(r'<tr><td class="hand">(\d+)</td>', sheet)] == ["3", "4"]
        assert "Tablero" in sheet and "Partidas ganadas" not in sheet and "PV" in sheet
        assert "La escala de IMPs (competitivo)" in sheet and "El neto de " in sheet


def test_without_victory_points_the_sheet_totals_the_imps_alone(tmp_path: Path) -> None:
    event = tmp_path / "mp.db"
    new_event(event, 4)
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    for sheet in _captains(_sheets(event, tmp_path / "out", 1), 1).values():
        assert re.findall(r'<tr><th colspan="6">([^<]*)</th>', sheet) == ["IMPs"]


def _short_team(tmp_path: Path) -> tuple[Path, int, int, str]:
    """A team event of games, Team 2 a pair short in round 2: (event, the table lost by forfeit, the
    other table of its match, the team that wins that table)."""
    event = tmp_path / "teams.db"
    run("new", event, "--name", "Teams", "--game", "competitive", "--format", "teams", "--team-size", 4)
    for t in range(1, 5):
        run("team", event, "add", f"Team {t}", "--pair", f"N{t},S{t}", "--pair", f"E{t},W{t}")
    run("pair", event)
    for table in (1, 2, 3, 4):
        run("result", event, "--table", table, "--score", "NS=100,EW=40")
    run("withdraw", event, "N2 & S2")
    run("pair", event)
    rows = json.loads(run("tables", event, "--json"))["rows"]
    [lost] = {r["table"] for r in rows if r["name"] == "N2"}
    winner = next(r["team"] for r in rows if r["table"] == lost and r["team"] != "Team 2")
    other = next(r["table"] for r in rows if r["team"] == "Team 2" and r["table"] != lost)
    return event, lost, other, winner


def test_a_forfeited_tables_sheet_says_so_and_it_gets_no_game_file(tmp_path: Path) -> None:
    event, lost, other, winner = _short_team(tmp_path)
    folder = tmp_path / "en"
    out = run("sheets", event, "-o", folder)
    # No game file for the table lost by forfeit: nothing is played there; every other table has its own.
    assert f"round2-table{lost}.dgn" not in out and not (folder / f"round2-table{lost}.dgn").exists()
    assert sorted(p.name for p in folder.glob("*.dgn")) == [f"round2-table{n}.dgn" for n in (1, 2, 3, 4) if n != lost]
    sheets = _tables((folder / "round2-score-sheets.html").read_text(), 2)
    assert sorted(sheets) == [1, 2, 3, 4]
    sheet = sheets[lost]
    assert f"Table {lost}: forfeited by Team 2, not played ({winner} wins the game by the forfeit score)" in sheet
    # No boxes: no hand rows, no totals, no time called, no winner to write, no signatures, no game file.
    for gone in ('class="grid"', "running total", "Time called", "Winner:", "Signature", "Game file:",
                 "Record this table"):
        assert gone not in sheet
    points = dict(re.findall(r'<tr><td class="side">\w+</td><td>([^<]*)</td><td class="end forfeit">(\d+)</td>',
                             sheet))
    assert points == {winner: "200", "Team 2": "0"}
    # Every other table's sheet is as it was: its hand rows and boxes, its game file.
    for n, text in sheets.items():
        if n != lost:
            assert "forfeited" not in text and 'class="grid"' in text and f"Game file: round2-table{n}.dgn" in text
    assert 'class="grid"' in sheets[other]
    # The one table asked for: its sheet alone, no game file.
    alone = tmp_path / "one"
    out = run("sheets", event, "-o", alone, "--table", lost)
    assert sorted(p.name for p in alone.iterdir()) == [f"round2-table{lost}-score-sheet.html"]
    one = (alone / f"round2-table{lost}-score-sheet.html").read_text()
    assert "forfeited by Team 2, not played" in one and "Game file:" not in one
    # In Spanish.
    es = _tables(_sheets(event, tmp_path / "es", 2, "--lang", "es"), 2)
    assert f"Mesa {lost}: incomparecencia de Team 2, no se juega ({winner} gana la partida por incomparecencia)" \
        in es[lost]


def test_the_directors_printed_sheets_say_it_too(tmp_path: Path) -> None:
    """The director's page prints the round's sheets from the matches' captain's sheets (the venue's
    ``/d/TOKEN/sheets``): the forfeited table's sheet says so there as well."""
    from tournament.event.players import shown_numbers
    from tournament import open_event
    from tournament.pages.sheets import boards_played, sheets_page, team_matches

    event, lost, _other, _winner = _short_team(tmp_path)
    with open_event(event) as store:
        tables = store.tables(2)
        players = {p.id: p for p in store.players()}
        html = sheets_page(store.settings, tables, players, {t.id: t.name for t in store.teams()},
                           captains=team_matches(store, tables), boards=boards_played(store, 2),
                           numbers=shown_numbers(store))
    sheets = _tables(html, 2)
    assert "forfeited by Team 2, not played" in sheets[lost] and "Game file:" not in sheets[lost]
    assert all("forfeited" not in v and "Game file:" in v for n, v in sheets.items() if n != lost)


def test_tables_csv_has_a_column_a_board(tmp_path: Path) -> None:
    event = tmp_path / "five.db"
    new_event(event, 5, "--victory-points")
    run("boards", event, "--boards", 10, "--seed", 38)
    run("pair", event)
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=45,EW=0")
    run("result", event, "--round", 1, "--table", 2, "--board", 2, "--not-played", "--reason", "ran out of time")
    run("result", event, "--round", 1, "--table", 3, "--board", 2, "--score", "NS=0,EW=25")
    rows = list(csv.DictReader(io.StringIO(run("tables", event, "--csv"))))
    assert list(rows[0])[-2:] == ["board_1", "board_2"]
    by_table = {}
    for r in rows:
        by_table.setdefault(r["table"], set()).add((r["board_1"], r["board_2"]))
    # Every seat of a table the same; table 1's board 2 is not played in the match (marked at table 2).
    assert by_table == {"1": {("NS=45,EW=0", "not played")}, "2": {("", "not played")},
                        "3": {("", "NS=0,EW=25")}, "4": {("", "")}, "bye": {("", "")}}
    # The same as tables --json gives each table's boards.
    doc = json.loads(run("tables", event, "--json"))
    assert [(t["table"], [(b["board"], b["ns_points"], b["ew_points"]) for b in t["board_results"]], t["not_played"])
            for t in doc["tables"]] == [(1, [(1, 45, 0)], [2]), (2, [], [2]), (3, [(2, 0, 25)], []), (4, [], [])]


def test_a_pair_named_by_its_players_is_named_once(four: Path, tmp_path: Path) -> None:
    """A pair entered without a name of its own is named by its players: the captain's sheet said
    "North 1 & South 1 (North 1 & South 1)"; a pair with a name of its own keeps both."""
    sheet = _captains(_sheets(four, tmp_path / "en", 1), 1)["1"]
    assert "North 1 &amp; South 1 (North 1" not in sheet and "North 1 & South 1 (North 1" not in sheet
    assert re.search(r"<td>North 1 (&amp;|&) South 1</td>", sheet)

"""What the hall and the trail say of a board not played in duplicate teams (a tester's findings):

* a board not scored in any match (not played at one table of each) was said *Not played yet.* on
  its page, though the other tables had played it and the hall's results show their scores;
* the match page's *not scored* sat right-aligned under the visiting team's IMPs, as if theirs;
* ``history`` named a pair returned by its id (``the pair #4 back``), while its withdrawal and
  every page name it (or number it in the movement): by its name now, as its withdrawal."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tournament.test_duplicate_teams import new_event, run
from tests.tournament.test_venue_duplicate import served
from tests.tournament.test_venue_duplicate_teams_not_played import _text


def test_a_board_no_match_scored_is_not_said_not_played_and_not_scored_is_the_rows(tmp_path: Path) -> None:
    event = tmp_path / "teams.db"
    new_event(event, 4, "--victory-points")
    for event, server, client in served(event, 6, 37):
        for table in (1, 2, 3, 4):
            run("result", event, "--round", 1, "--table", table, "--board", 1, "--score", f"NS={10 * table},EW=0")
        run("result", event, "--round", 1, "--table", 2, "--board", 2, "--score", "NS=0,EW=60")
        run("result", event, "--round", 1, "--table", 4, "--board", 2, "--score", "NS=25,EW=0")
        for table in (1, 3):
            run("result", event, "--round", 1, "--table", table, "--board", 2, "--not-played", "--reason", "time")
        board = _text(client.get("/boards/2").text)
        assert "Not played yet" not in board, board
        assert "Not scored in the match of tables 1-2 (round 1)" in board
        assert "Not scored in the match of tables 3-4 (round 1)" in board
        es = _text(client.get("/boards/2", headers={"Accept-Language": "es"}).text)
        assert "Aún no se ha jugado" not in es and "Sin puntuar en el encuentro de las mesas 1-2" in es
        page = client.get("/matches/1/1").text
        cell = re.search(r'<td[^>]*>not scored</td>', page)
        assert cell and 'class="n"' not in cell.group(0), cell  # (a right-aligned cell under the visitors' IMPs)


def test_history_names_a_returned_pair_by_its_name(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    run("new", path, "--name", "P", "--game", "competitive", "--format", "pairs")
    for i in range(1, 5):
        run("add", path, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    run("withdraw", path, "Pair 3", "--reason", "late")
    run("return", path, "Pair 3")
    history = run("history", path)
    assert "withdrew the pair Pair 3 from round 1 on" in history and "the pair Pair 3 back from round 1" in history
    assert "#3 back" not in history


def test_the_reports_header_names_a_duplicate_or_team_event_by_its_format(tmp_path: Path) -> None:
    """The report's header named a duplicate-teams event "pairs, Swiss rounds" in Spanish ("pairs" in
    English): the stored format of duplicate and team events is pairs."""
    teams = tmp_path / "teams.db"
    new_event(teams, 4, "--victory-points")
    run("boards", teams, "--boards", 6, "--seed", 37)
    run("pair", teams)
    dup = tmp_path / "dup.db"
    run("new", dup, "--name", "D", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 7):
        run("add", dup, f"North {i}", f"South {i}")
    # (English names the format by its key, as "pairs" or "rotating"; the other languages by its msgid)
    for event, en, es in ((teams, "duplicate teams", "equipos, tableros duplicados"),
                          (dup, "duplicate pairs", "parejas, tableros duplicados")):
        for lang, said in (("en", en), ("es", es)):
            out = tmp_path / f"{event.stem}-{lang}.html"
            run("report", event, "-o", out, "--lang", lang)
            header = _text(out.read_text(encoding="utf-8"))
            assert f" · {said} · " in header, (lang, header[:400])
            assert "Swiss" not in header[:400] and "suizo" not in header[:400]

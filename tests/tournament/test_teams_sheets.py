"""The captain's sheet of a set (issue 37: international team pairs): besides the match's tables,
the set's rule and, for each captain, the one change of the set — boxes to fill in by hand before
it is made (a substitution, out and in; the draw cross, where a team has two pairs; after which
game), and once the event has it, the change itself: which, and after which game.  English and
Spanish."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

from tests.tournament.test_teams import open_tables, run


def _set_event(tmp_path: Path, size: int = 4) -> Path:
    event = tmp_path / f"set{size}.db"
    run("new", event, "--name", "Team pairs", "--game", "competitive", "--format", "teams", "--team-size", size,
        "--team-set", 10, "--seed", 2)
    per = size // 2
    for t in "AB":
        pairs = [f"--pair={t}{2 * k + 1},{t}{2 * k + 2}" for k in range(per)]
        run("team", event, "add", f"Team {t}", *pairs, "--reserve", f"{t}9")
    run("pair", event)
    return event


def _captains_sheet(event: Path, folder: Path, lang: str = "en") -> str:
    """The round's captain's sheet (there is one match), as text."""
    run("sheets", event, "-o", folder, "--lang", lang)
    html = (folder / "round1-score-sheets.html").read_text()
    [sheet] = re.findall(r'<section class="sheet captains" id="match-1-1">(.*?)</section>', html, re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", sheet)).replace("&#x27;", "'")


def _play(event: Path, n: int) -> None:
    """The next ``n`` games waiting, each won by its N-S pair."""
    for _ in range(n):
        number, _sides = open_tables(event)[0]
        run("result", event, "--table", number, "--score", "NS=200,EW=100", "--round", 1)


def test_a_sets_captains_sheet_records_each_captains_change(tmp_path):
    event = _set_event(tmp_path)
    home = open_tables(event)[0][1]["NS"][0][0]  # the home team: N-S at the match's first table
    away = "B" if home == "A" else "A"
    blank = _captains_sheet(event, tmp_path / "before")
    assert "Captain's change" in blank and "Set to 10 game points" in blank and "after 6 games or more" in blank
    for team in (home, away):
        assert (f"Team {team}: ☐ substitution: out ____________ in ____________ ☐ draw cross — after game ____"
                in blank)
    es = _captains_sheet(event, tmp_path / "antes", "es")
    assert "Cambio del capitán" in es and "Set a 10 puntos de partida" in es
    assert es.count("☐ sustitución: sale ____________ entra ____________ ☐ cruce de mesas — tras la partida ____") == 2
    # Seven games, then the home captain's draw cross; one more, then the visitors' substitution.
    _play(event, 7)
    assert "draw cross" in run("team", event, "change", f"Team {home}", "--cross")
    _play(event, 1)
    assert "substitution" in run("team", event, "change", f"Team {away}", "--sub", f"{away}1", f"{away}9")
    made = _captains_sheet(event, tmp_path / "after")
    assert f"Team {home}: draw cross after game 7" in made
    assert f"Team {away}: substitution after game 8: {away}1 out, {away}9 in" in made
    assert "☐" not in made and "after game ____" not in made
    es = _captains_sheet(event, tmp_path / "despues", "es")
    assert f"Team {home}: cruce de mesas tras la partida 7" in es
    assert f"Team {away}: sustitución tras la partida 8: sale {away}1, entra {away}9" in es
    # The change log says after which game, as the sheet does.
    conn = sqlite3.connect(event)
    try:
        logged = [json.loads(d) for (d,) in conn.execute("SELECT data FROM changes WHERE kind = 'captain_change' "
                                                         "ORDER BY seq")]
    finally:
        conn.close()
    assert [(c["kind"], c["after"]) for c in logged] == [("cross", 7), ("sub", 8)]


def test_three_pair_teams_have_no_draw_cross_to_mark_and_a_match_without_sets_no_change(tmp_path):
    event = _set_event(tmp_path, size=6)
    sheet = _captains_sheet(event, tmp_path / "three")
    assert sheet.count("☐ substitution") == 2 and "draw cross" not in sheet
    plain = tmp_path / "plain.db"
    run("new", plain, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4)
    for t in "AB":
        run("team", plain, "add", f"Team {t}", "--pair", f"{t}1,{t}2", "--pair", f"{t}3,{t}4")
    run("pair", plain)
    sheet = _captains_sheet(plain, tmp_path / "plain")
    assert "Captain's change" not in sheet and "☐" not in sheet and "Signature of the captain of Team A" in sheet

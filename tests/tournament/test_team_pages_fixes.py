"""A team event's pages, in English and in Spanish, as a tester found them (the phone's "where to
go next" in a set, a set's later games under their match, the team standings' status, a team
page's rounds, the crosstable's headers, the victory points, a team's bye...)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tournament.test_team_pages import _data, _text
from tests.tournament.test_teams import a_wins_next, open_tables, run, set_of_two
from tournament.event import venue as vn
from tournament.event.files import open_event
from tournament.pages import public as pages


def test_a_sets_phone_sends_its_players_to_the_lines_next_game_not_to_the_next_round(tmp_path):
    """Finding 9: a set's game confirmed, the line's next game seated at once in the same round:
    the phone's "where next" names that table and seat, not "round 2 is not paired yet"."""
    event = set_of_two(tmp_path / "set.db")
    a_wins_next(event)  # table 1's result: table 3, the line's next game, seated
    [(number, sides)] = [t for t in open_tables(event) if t[0] == 3]
    store = open_event(event)
    try:
        venue = vn.Venue(store)
        nxt = venue.state(1, 1)["next"]
        seats = {s.seat: s.player for s in store.table(1, 3).seats}
        assert nxt["round"] == 1 and nxt["paired"] and nxt["same_round"]
        assert {seat: to["table"] for seat, to in nxt["seats"].items()} == {seat: 3 for seat in seats}
        assert all(to["seat"] == seat for seat, to in nxt["seats"].items())
    finally:
        store.close()


def test_a_sets_later_games_show_under_their_match_in_the_hall(tmp_path):
    """Finding 9: on the hall's tables, a set's later games come under their match's line, not
    after the other matches' tables."""
    event = tmp_path / "set.db"
    run("new", event, "--name", "Sets", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--team-set", 3, "--seed", "2")
    for t in "ABCD":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2", "--pair", f"{t}3,{t}4")
    run("pair", event)
    run("result", event, "--table", 1, "--score", "NS=200,EW=100", "--round", 1)  # seats table 5
    data = _data(event)
    v = pages.round_view(data["rounds"][0], pages.Site(), {}, data)
    order = [row["table"] for row in v["rows"]]
    heads = [row["table"] for row in v["rows"] if row["team_match"]]
    assert heads == [1, 3] and order == [1, 2, 5, 3, 4], order


def _copa(tmp_path: Path, lang: str = "es") -> Path:
    """Five teams (a bye each round), Team 1 with a reserve brought in from round 2, Team 5
    withdrawn after round 2 and a pair of Team 3 withdrawn after round 1... in ``lang``."""
    import csv

    path = tmp_path / "copa.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "team", "pair"])
        for t in range(1, 6):
            for i in range(4):
                w.writerow([f"P{t}{i}", f"Team {t}", f"T{t} pair {i // 2 + 1}"])
        w.writerow(["R10", "Team 1", "reserve"])
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4,
        "--seed", 3, "--lang", lang)
    run("add", event, "--csv", path)
    run("pair", event)
    for t in range(1, 5):
        run("result", event, "--table", t, "--score", "NS=200,EW=100")
    run("team", event, "sub", "Team 1", "--out", "P11", "--in", "R10")
    run("pair", event)
    for t in range(1, 5):
        run("result", event, "--table", t, "--score", "NS=200,EW=100")
    run("team", event, "withdraw", "Team 5")
    run("withdraw", event, "T3 pair 2")
    return event


def test_the_spanish_team_standings_say_their_status_in_spanish(tmp_path):
    """Finding 13: the team standings' status column, in the hall and the report, in the page's
    language (en juego / retirado), as the pairs' and players' tables beside it."""
    data = _data(_copa(tmp_path))
    for html in (pages.page_html(data, pages.Site(), "standings", lang="es"), pages.report_html(data, pages.Site(), "es")):
        teams = html[html.index('id="teams"'):]
        teams = teams[:teams.index("</table>")]
        assert ">retirado<" in teams and ">en juego<" in teams
        assert ">withdrawn<" not in teams and ">active<" not in teams


def test_a_team_page_in_spanish_says_ronda_and_contra(tmp_path):
    """Finding 14: a team's rounds read "Ronda 2 · contra Team 4", never "Round 2 · en contra"."""
    data = _data(_copa(tmp_path))
    for t in data["teams"]:
        text = _text(pages.page_html(data, pages.Site(), "team", t["id"], lang="es"))
        assert "Round " not in text and not re.search(r"en contra (Team|P)", text)  # ("600 en contra": points against)
        assert re.search(r"Ronda \d · (descanso|contra Team \d)", text), text
    english = _text(pages.page_html(data, pages.Site(), "team", 1, lang="en"))
    assert re.search(r"Round 2 · against Team \d", english) and " against P" in english


def test_the_crosstables_round_headers_sit_over_their_cells(tmp_path):
    """Finding 15: a round's header is aligned as its cells are (left), in both crosstables."""
    data = _data(_copa(tmp_path))
    html = pages.page_html(data, pages.Site(), "crosstable", lang="es")
    heads = re.findall(r'<th class="([^"]*)">(\d+)</th>', html)
    assert heads and all(c == "c" for c, _ in heads), heads
    assert html.count("<table class=\"cross\">") == 2


def test_a_team_page_names_a_reserve_brought_in_and_a_pair_withdrawn(tmp_path):
    """Finding 19: the team's pairs as registered, then the reserve who came in and from when; a
    pair withdrawn is marked so."""
    data = _data(_copa(tmp_path))
    ids = {t["name"]: t["id"] for t in data["teams"]}
    for lang, sub, gone in (("en", "T1 pair 1 : P10 & P11 · from round 2: R10 in place of P11", "(pair withdrawn from round 3)"),
                            ("es", "T1 pair 1 : P10 & P11 · desde la ronda 2: R10 en lugar de P11",
                             "(pareja retirada desde la ronda 3)")):
        assert sub in _text(pages.page_html(data, pages.Site(), "team", ids["Team 1"], lang=lang))
        three = _text(pages.page_html(data, pages.Site(), "team", ids["Team 3"], lang=lang))
        assert f"T3 pair 2 : P32 & P33 {gone}" in three and three.count(gone) == 1
        # a team withdrawn says so once, above; its pairs are not each marked
        assert gone not in _text(pages.page_html(data, pages.Site(), "team", ids["Team 5"], lang=lang))


def test_a_teams_bye_is_a_match_won_in_w_d_l(tmp_path):
    """Finding 22: a team's bye gives 2 match points and shows as a match won in W-D-L (the docs
    call it one), the byes column saying how many were byes."""
    data = _data(_copa(tmp_path, "en"))
    v = pages.team_standings_view(data)
    rows = {r[v["columns"].index("name")]: dict(zip(v["columns"], r)) for r in v["rows"]}
    doc = {r["team"]: r for r in data["standings"]["teams"]}
    for name, r in rows.items():
        won, drawn, lost = map(int, r["matches W-D-L"].split("-"))
        assert r["match points"] == 2 * won + drawn and won == doc[name]["matches_won"] + doc[name]["byes"]
    assert any(r["byes"] for r in rows.values())
    page = _text(pages.page_html(data, pages.Site(), "standings", lang="es"))
    assert "Un descanso cuenta como encuentro ganado" in page


def test_the_spanish_hall_and_report_of_duplicate_teams(tmp_path):
    """Findings 16, 17 and 12: the projector's boards column wide enough for "tableros"; the
    report's top links with no empty item; victory points always with two decimals."""
    event = tmp_path / "dt.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 6, "--rounds", 1, "--victory-points", "-q")
    data = _data(event)
    [find] = [s for s in pages.projector_screens(data, "es") if s["kind"] == "find"]
    assert find["dense"] and find["boards_em"] >= pages.text_em("tableros") * 0.89
    report = pages.report_html(data, pages.Site(), "es")
    nav = _text(report[report.index("<nav"):report.index("</nav>")])
    assert "· ·" not in nav and "Clasificación por equipos · Encuentros tablero a tablero" in nav
    for html in (report, pages.page_html(data, pages.Site(), "standings", lang="es"),
                 pages.page_html(data, pages.Site(), "tables", lang="es"),
                 pages.page_html(data, pages.Site(), "team", data["teams"][0]["id"], lang="es")):
        vps = re.findall(r"PV (\d+(?:\.\d+)?)–(\d+(?:\.\d+)?)", _text(html))
        assert all(re.fullmatch(r"\d+\.\d\d", x) for pair in vps for x in pair), vps
    standings = pages.team_standings_view(data)
    at = standings["columns"].index("VP")
    assert all(re.fullmatch(r"\d+\.\d\d", r[at]) for r in standings["rows"])


def test_victory_points_are_written_with_two_decimals():
    """Finding 12: as the command line prints them (29.30, 22.00), never 29.3 or 22."""
    assert (pages._vp(29.3), pages._vp(22.0), pages._vp(22), pages._vp(10.855), pages._vp(None)) == \
        ("29.30", "22.00", "22.00", "10.86", "")


def test_the_command_line_is_english_and_the_halls_sentences_follow_the_language(tmp_path):
    """Finding 10, the rule of docs/tournament.md ("Languages"): the command's own words (title,
    grid, ``bye:``) in English; the lines under a team event's grid that the hall says too (the
    match lines, the ranking line) in the event's language, or ``--lang``'s."""
    event = _copa(tmp_path, "es")
    run("pair", event)
    tables = run("tables", event)
    assert "Copa — round 3" in tables and "to play" in tables
    assert re.search(r"^Mesas 3-4: .* \(\d de 2 mesas con resultado\)$", tables, re.M), tables
    assert "bye: Team " in run("tables", event, "--round", 1)
    standings = run("standings", event, "--round", 2)
    assert "standings of the teams after round 2" in standings
    assert "ordenada por partidas ganadas, luego efectividad" in standings and "ranked by" not in standings
    english = run("standings", event, "--round", 2, "--lang", "en")
    assert "ranked by games, then efectividad" in english and "ordenada" not in english

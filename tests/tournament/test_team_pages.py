"""A team event in the hall (issue 37, points 4 and 6): the team standings, each match with its
tables and running result, a team's page, the crosstable of teams, the projector, the report; and
through the venue, a match's result filling in on the director's and the hall's pages as its
tables confirm."""

from __future__ import annotations

import csv
import json
import random
import re
import urllib.request
from pathlib import Path

from domrec.session import requests_for
from domrec.simulate import play_game

from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_teams import run, write_csv
from tournament.event import public as pub
from tournament.event.files import open_event
from tournament.event.tables import table_record
from tournament.pages import public as pages


def _team_event(tmp_path: Path, teams: int = 5, rounds: int = 2) -> Path:
    event = tmp_path / "copa.db"
    run("simulate", event, "--format", "teams", "--teams", teams, "--rounds", rounds, "-q")
    return event


def _data(event: Path) -> dict:
    store = open_event(event)
    try:
        return pub.public_data(store)
    finally:
        store.close()


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_standings_page_shows_the_team_standings_with_the_presets_columns(tmp_path):
    event = _team_event(tmp_path)
    data = _data(event)
    html = pages.page_html(data, pages.Site(), "standings")
    teams = json.loads(run("standings", event, "--json"))["teams"]
    table = html[html.index('<table class="std teams">'):]
    table = table[:table.index("</table>")]
    # The columns: rank, team, then the preset's keys (games won, efectividad) in their order.
    heads = re.findall(r"<th[^>]*>([^<]+)</th>", table)
    assert heads[:4] == ["rank", "team", "games won", "efectividad"]
    # Each team in the order of `standings --json`, linked to its page, its figures as there.
    names = re.findall(r'<a href="/teams/(\d+)"><bdi>([^<]+)</bdi></a>', table)
    assert [n for _, n in names] == [r["team"] for r in teams]
    assert [int(i) for i, _ in names] == [r["id"] for r in teams]
    first = table[table.index("<tbody>"):].split("</tr>")[0]
    cells = re.findall(r"<td[^>]*>(.*?)</td>", first)
    assert cells[0] == str(teams[0]["rank"]) and cells[2] == str(teams[0]["won"])
    assert cells[3] == str(teams[0]["efectividad"])
    # The pairs' and players' rankings inside the event, linked from the team standings.
    assert 'href="#standings"' in html and 'href="#players"' in html
    assert 'id="players"' in html and "Players' ranking after round 2" in html
    assert "Pairs' ranking after round 2" in html
    es = pages.page_html(data, pages.Site(), "standings", lang="es")
    assert "Clasificación por equipos tras la ronda 2" in es and "partidas ganadas" in es


def test_each_round_shows_its_matches_and_a_team_its_page(tmp_path):
    event = _team_event(tmp_path)
    data = _data(event)
    games = pages.page_html(data, pages.Site(), "games")
    r1 = data["rounds"][0]
    matches = pub.round_matches(data, r1)
    assert len(matches) == 2 and all(m["count"] == 2 and m["finished"] for m in matches)
    for m in matches:
        assert m["home_games"] + m["away_games"] == 2
        line = f"Tables {m['first']}-{m['last']}: {m['home']['name']} {m['home_text']} – {m['away_text']} {m['away']['name']}"
        assert line in _text(games)
    # A team's page: its pairs, its players linked, each match with the games and its tables.
    team = data["teams"][0]
    view = pub.team_view(data, team["id"])
    html = pages.page_html(data, pages.Site(), "team", team["id"])
    text = _text(html)
    for p in team["pairs"]:
        assert p["name"] in text
        for x in p["players"]:
            assert f'href="/players/{x["id"]}"' in html
            player = pages.page_html(data, pages.Site(), "player", x["id"])
            assert f'Team: <a href="/teams/{team["id"]}"><bdi>{team["name"]}</bdi></a>' in player
    played = [g for g in view["rounds"] if not g["bye"]]
    assert played and all(len(g["tables"]) == 2 for g in played)
    assert f"against {played[0]['opponent']['name']} · {played[0]['games_for']} – {played[0]['games_against']}" in text
    # The crosstable of teams: a row a team, a cell a round.
    cross = pages.page_html(data, pages.Site(), "crosstable")
    assert "Crosstable of teams" in cross and "Crosstable of pairs" in cross
    rows = pub.team_crosstable(data)["rows"]
    assert len(rows) == 5 and all(len(r["cells"]) == 2 for r in rows)
    assert sum(1 for r in rows for c in r["cells"] if c and c["bye"]) == 2  # 5 teams: a bye a round
    # The projector: the team standings.
    projector = pages.projector_html(data, pages.Site())
    assert "Team standings after round 2" in projector and data["teams"][0]["name"] in projector
    es = pages.page_html(data, pages.Site(), "team", team["id"], lang="es")
    assert "Encuentros" in es and "Puesto" in es


def test_a_team_name_is_escaped_everywhere(tmp_path):
    event = _team_event(tmp_path, teams=4, rounds=1)
    run("team", event, "rename", "Team 001", "<b>Los & Primos</b>")
    data = _data(event)
    for html in (pages.page_html(data, pages.Site(), "standings"), pages.page_html(data, pages.Site(), "games"),
                 pages.page_html(data, pages.Site(), "crosstable"), pages.page_html(data, pages.Site(), "team", 1),
                 pages.projector_html(data, pages.Site())):
        assert "<b>Los" not in html and "&lt;b&gt;Los &amp; Primos&lt;/b&gt;" in html


def test_the_report_writes_team_pages_and_the_team_standings(tmp_path):
    event = _team_event(tmp_path, teams=4, rounds=1)
    out = tmp_path / "report"
    out.mkdir()
    run("report", event, "--output", out / "index.html")
    written = {p.name for p in out.rglob("*.html")}
    assert {"team-1.html", "team-4.html"} <= written
    index = (out / "index.html").read_text()
    assert 'id="teams"' in index and "team-1.html" in index
    assert "Tables 1-2:" in _text(index)


def test_a_page_of_a_team_not_there_is_not_public(tmp_path):
    event = _team_event(tmp_path, teams=4, rounds=1)
    data = _data(event)
    import pytest

    with pytest.raises(pub.NotPublic):
        pages.page_html(data, pages.Site(), "team", 99)


# --- through the venue -----------------------------------------------------------------------------


def _get(url: str, token: str | None = None) -> tuple[int, str]:
    req = urllib.request.Request(url, headers={"Authorization": f"Bearer {token}"} if token else {})
    with urllib.request.urlopen(req, timeout=60) as r:
        return r.status, r.read().decode()


def _post(url: str, token: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json",
                                          "Origin": url.split("/api/")[0]})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _play_and_confirm(base: str, token: str, event: Path, table_no: int, seed: int) -> None:
    store = open_event(event)
    try:
        table = next(t for t in store.tables(1) if t.number == table_no)
        template = table_record(store.settings, table, {p.id: p for p in store.players()})
    finally:
        store.close()
    record = play_game(template, random.Random(seed))
    url = f"{base}/api/v1/tables/1/{table_no}"
    state = json.loads(_get(url, token)[1])
    for text in hand_by_hand(requests_for(record, keep_deal=True)):
        state = _post(f"{url}/dgn", token, {"rev": state["rev"], "text": text})
    assert state["game"]["over"]
    for side in state["sides"]:
        state = _post(f"{url}/confirm", token, {"rev": state["rev"], "side": side})
    assert state["status"] == "confirmed"


def test_a_match_fills_in_on_the_directors_and_halls_pages_as_its_tables_confirm(tmp_path):
    from tournament.web.background import BackgroundVenue

    event = tmp_path / "venue.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4,
        "--preset", "femundo-teams", "--seed", 5)
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", 4))
    run("pair", event)
    with BackgroundVenue(event) as served:
        base = served.base_url
        director = served.links["director"].rsplit("/", 1)[1]
        tokens = {t["table"]: t["token"] for t in served.links["tables"]}

        def overview() -> dict:
            return json.loads(_get(f"{base}/api/v1/director", director)[1])

        first = overview()["matches"]
        assert [(m["tables"], m["done"], m["home_text"], m["away_text"]) for m in first] == [
            ([1, 2], 0, "0", "0"), ([3, 4], 0, "0", "0")]
        _play_and_confirm(base, tokens[1], event, 1, seed=11)
        m = overview()["matches"][0]
        assert m["done"] == 1 and not m["finished"] and m["home_games"] + m["away_games"] == 1
        hall = _text(_get(f"{base}/tables")[1])
        assert (f"Tables 1-2: {m['home']} {m['home_text']} – {m['away_text']} {m['away']} (1 of 2 tables in)"
                in hall)
        _play_and_confirm(base, tokens[2], event, 2, seed=12)
        m = overview()["matches"][0]
        assert m["done"] == 2 and m["finished"] and m["home_games"] + m["away_games"] == 2
        assert overview()["matches"][1]["done"] == 0
        hall = _text(_get(f"{base}/tables")[1])
        assert f"Tables 1-2: {m['home']} {m['home_text']} – {m['away_text']} {m['away']} (" in hall
        assert "(1 of 2 tables in)" not in hall and "(0 of 2 tables in)" in hall
        standings = json.loads(_get(f"{base}/api/v1/standings")[1])["teams"]
        page = _get(f"{base}/standings")[1]
        assert [r["team"] for r in standings] == re.findall(r'<a href="/teams/\d+"><bdi>([^<]+)</bdi>', page)[:4]
        status, team_page = _get(f"{base}/teams/{standings[0]['id']}")
        assert status == 200 and standings[0]["team"] in team_page


# --- the captain's sheet and the export ----------------------------------------------------------


def test_the_sheets_end_with_a_captains_sheet_a_match(tmp_path):
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa <1>", "--game", "competitive", "--format", "teams", "--team-size", 4,
        "--seed", 5)
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", 4))
    run("team", event, "rename", "Team 01", "Los <Primos>")
    run("pair", event)
    run("sheets", event, "-o", tmp_path / "sheets")
    html = (tmp_path / "sheets" / "round1-score-sheets.html").read_text()
    captains = re.findall(r'<section class="sheet captains" id="match-1-(\d+)">(.*?)</section>', html, re.S)
    assert [n for n, _ in captains] == ["1", "3"]  # a sheet a match, after the tables' own
    assert html.index('class="sheet captains"') > html.index('id="table-1-4"')
    for _, sheet in captains:
        text = _text(sheet)
        home, away = re.search(r"Captain&#x27;s sheet: (.*?) against (.*?) ", text).groups()
        assert text.count("Signature of the captain of") == 2
        assert f"Signature of the captain of {home}" in text and f"Signature of the captain of {away}" in text
        rows = re.findall(r"<tr><td class=\"hand\">(\d+)</td>", sheet)
        assert len(rows) == 4 and rows[0] == rows[1] and rows[2] == rows[3] != rows[0]  # both tables, both teams
    assert "Los &lt;Primos&gt;" in html and "<Primos>" not in html
    run("sheets", event, "-o", tmp_path / "es", "--lang", "es")
    assert "Firma del capitán de" in (tmp_path / "es" / "round1-score-sheets.html").read_text()


def test_the_export_carries_the_teams_and_their_matches(tmp_path):
    event = _team_event(tmp_path, teams=4, rounds=1)
    doc = json.loads(run("export", event, "-o", "-"))
    assert [t["name"] for t in doc["teams"]] == ["Team 001", "Team 002", "Team 003", "Team 004"]
    assert all(len(t["pairs"]) == 2 for t in doc["teams"])
    assert {p["team"] for p in doc["players"]} == {"Team 001", "Team 002", "Team 003", "Team 004"}
    assert len(doc["team_matches"]) == 2 and all(m["finished"] for m in doc["team_matches"])
    assert doc["standings"]["teams"][0]["rank"] == 1
    run("export", event, "--csv", "-o", tmp_path / "csv")
    teams = (tmp_path / "csv" / "teams.csv").read_text().splitlines()
    assert teams[0].startswith("rank,team,id,played,won,lost") and len(teams) == 5
    matches = (tmp_path / "csv" / "team_matches.csv").read_text().splitlines()
    assert matches[0].startswith("round,first,last,home,away,home_games") and len(matches) == 3
    assert (tmp_path / "csv" / "players.csv").read_text().splitlines()[0].endswith(",team")


def test_a_team_page_not_there_is_a_404_page_never_a_failure(tmp_path):
    import starlette.testclient

    from tournament.web.app import VenueServer

    for event in (_team_event(tmp_path, teams=4, rounds=1), tmp_path / "pairs.db"):
        if not event.exists():
            run("simulate", event, "--format", "pairs", "--players", "8", "--rounds", "1", "-q")
        server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
        try:
            client = starlette.testclient.TestClient(server.asgi)
            for path in ("/teams/99", "/teams/abc", "/teams/" + "9" * 30):
                r = client.get(path)
                assert r.status_code == 404, path
            r = client.get("/teams/1")
            assert r.status_code == (200 if event.name == "copa.db" else 404)
        finally:
            server.close()


def test_a_team_events_pages_in_spanish_show_no_english_sentence(tmp_path):
    """As the hall's other pages (tests/tournament/test_i18n_pages.py): every page of a team event
    in Spanish, served and written, holds none of the catalog's English sentences."""
    from babel.messages.pofile import read_po

    from tests.tournament.test_i18n_pages import _texts
    from tournament.i18n import LOCALE

    event = _team_event(tmp_path, teams=5, rounds=2)
    run("pair", event)  # a round being played: its matches "0 de 2 mesas con resultado"
    with (LOCALE / "es" / "LC_MESSAGES" / "tournament.po").open("rb") as f:
        catalog = read_po(f)
    english = [m.id for m in catalog if isinstance(m.id, str) and m.id and m.string != m.id
               and " " in m.id.strip() and "%(" not in m.id and "<" not in m.id]
    data = _data(event)
    for served in (True, False):
        site = pages.Site(served=served)
        made = [pages.page_html(data, site, page, lang="es") for page in ("tables", "standings", "games", "crosstable")]
        made += [pages.page_html(data, site, "team", t["id"], lang="es") for t in data["teams"]]
        made.append(pages.projector_html(data, site, lang="es"))
        made.append(pages.report_html(data, site, "es"))
        for html in made:
            text = _texts(html)
            left = [s for s in english if re.search(r"(?<![\w])" + re.escape(s) + r"(?![\w])", text)]
            assert not left, left
    tables = _text(pages.page_html(data, pages.Site(), "tables", lang="es"))
    assert "Mesas 1-2:" in tables and "(0 de 2 mesas con resultado)" in tables


def test_the_hall_in_its_own_process_serves_a_teams_page(tmp_path):
    """As ``serve`` runs it: the hall's own process answers /teams/N, and the tables' port sends
    an old link there."""
    from tournament.web.background import BackgroundVenue

    event = _team_event(tmp_path, teams=4, rounds=1)
    with BackgroundVenue(event, hall=True) as served:
        status, page = _get(f"{served.hall_url}/teams/2")
        assert status == 200 and "Team 002" in page
        status, page = _get(f"{served.base_url}/teams/2")  # redirected to the hall
        assert status == 200 and "Team 002" in page


def test_a_set_shows_as_a_set_in_the_hall_the_report_and_the_export_in_both_languages(tmp_path):
    """A team event of sets (``--team-set``): a match reads as a set in progress, then as won by
    its winner with the game points then, not as its games summed "n of m tables in"."""
    from tests.tournament.test_teams import a_wins_next as play_one, open_tables, set_of_two

    event = set_of_two(tmp_path / "set.db")
    play_one(event)
    data = _data(event)
    assert data["event"]["team_set"] == 3
    [m] = pub.round_matches(data, data["rounds"][0])
    assert (m["target"], m["winner"], m["won_at"], m["finished"]) == (3, None, None, False)
    for lang, said in (("en", "(set to 3, in progress)"), ("es", "(set a 3, en juego)")):
        for page in ("tables", "games"):
            text = _text(pages.page_html(data, pages.Site(), page, lang=lang))
            assert said in text and "tables in" not in text and "mesas con resultado" not in text
        team = _text(pages.page_html(data, pages.Site(), "team", data["teams"][0]["id"], lang=lang))
        assert said in team
    while open_tables(event):  # Team A wins every game: 3-0, the other line's game begun is played out
        play_one(event)
    data = _data(event)
    [m] = pub.round_matches(data, data["rounds"][0])
    a = next(t["id"] for t in data["teams"] if t["name"] == "Team A")
    assert (m["winner"], m["won_at"], m["finished"], m["first"], m["last"]) == (a, "3–0", True, 1, 2)
    for lang, said in (("en", "(Team A wins the set 3–0)"), ("es", "(Team A gana el set 3–0)")):
        made = [pages.page_html(data, pages.Site(), page, lang=lang) for page in ("tables", "games")]
        made += [pages.page_html(data, pages.Site(), "team", t["id"], lang=lang) for t in data["teams"]]
        made.append(pages.report_html(data, pages.Site(), lang))
        for html in made:
            text = _text(html)
            assert "Team A" in text and "tables in" not in text and "mesas con resultado" not in text
        assert said in _text(made[0]) and said in _text(made[-1])
        assert _text(made[2]).count(said.strip("()")) == 1 and _text(made[3]).count(said.strip("()")) == 1
    # The export: each match's set, its target, winner and the game points it was won at.
    out = tmp_path / "export"
    run("export", event, "-o", out, "--csv")
    rows = list(csv.DictReader((out / "team_matches.csv").open()))
    assert [(r["target"], r["winner"], r["won_at"]) for r in rows] == [("3", "Team A", "3–0")]

"""Duplicate teams (issue 38, point 6) at the venue and on every surface: four teams of two pairs,
a round robin of three rounds, every table's phone playing its round's boards through the
venue's API (in-process), hand by hand from each board's deal, each board confirmed by both
sides; each match's two tables play the same boards with the team's pairs in opposite
directions.  The victory points recomputed here from the boards' points agree with ``standings
--json``, the feed, the export; the hall's pages show each match board by board, each board's
traveller (its deal only once every table of its round has played it), the teams' standings and
the projector's; the report shows the same, in English and Spanish."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import expected_standings, new_event, run
from tests.tournament.test_venue_duplicate import _auth, _play_board, served
from tournament.pairing import boards as B

pytest.importorskip("starlette.testclient")

TEAMS, ROUNDS, PER_ROUND = 4, 3, 2


@pytest.fixture
def venue(tmp_path: Path):
    event = tmp_path / "teams.db"
    new_event(event, TEAMS, "--victory-points")
    yield from served(event, ROUNDS * PER_ROUND, 37)


def _teams_at(event: Path) -> tuple[list[int], dict[int, dict[str, str]]]:
    """The round's boards, and each table's team at each side (as ``tables --json`` prints them)."""
    doc = json.loads(run("tables", event, "--json"))
    at: dict[int, dict[str, str]] = defaultdict(dict)
    for row in doc["rows"]:
        at[row["table"]][row["side"]] = row["team"]
    return doc["boards"], dict(at)


def _deal_lines(board: B.Board) -> list[str]:
    return [" ".join(tiles) for tiles in board.deal.hands.values()]


def test_four_teams_played_at_the_venue_on_every_surface(venue, tmp_path: Path) -> None:
    event, server, client = venue
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    rng = random.Random(37)
    nets: dict[tuple[int, str, str], list[int]] = {}
    for round_no in range(1, ROUNDS + 1):
        numbers, teams_at = _teams_at(event)
        assert numbers == [2 * round_no - 1, 2 * round_no]
        points: dict[tuple[int, int], tuple[int, int]] = {}
        links = server.call(server.venue.links, "http://testserver")["tables"]
        for k, link in enumerate(links):
            url, token = f"/api/v1/tables/{round_no}/{link['table']}", link["token"]
            state = client.get(url, headers=_auth(token)).json()
            assert state["boards"] == numbers and state["board"] == numbers[0] and state["boards_played"] == 0
            for played, number in enumerate(numbers, 1):
                assert state["board"] == number
                state = _play_board(client, url, token, state, rng, offline=round_no == 1 and k == 0)
                assert state["boards_played"] == played
                said = state["said"][-1]
                assert f"board {number}: NS" in said and "verified record" in said
                found = re.search(r"NS (\d+), EW (\d+)", said)
                assert found is not None
                points[(link["table"], number)] = (int(found[1]), int(found[2]))
            assert state["status"] == "confirmed" and state["board"] is None
            assert [(b["board"], b["NS"], b["EW"]) for b in state["result"]["boards"]] == \
                [(n, *points[(link["table"], n)]) for n in numbers]
            # A board's deal is refused once the table has played all its boards.
            r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
            assert r.status_code == 409
            if k == 0 and round_no == 1:  # the director types no game's result at a board's table
                r = client.post(url + "/result", headers=_auth(director),
                                json={"scores": {"NS": 50, "EW": 0}, "reason": None})
                assert r.status_code == 422 and "--board" in r.json()["error"]
        for first in sorted(teams_at)[::2]:  # a match: two tables, the home team N-S at the first
            second = first + 1
            home, away = teams_at[first]["NS"], teams_at[first]["EW"]
            assert teams_at[second] == {"NS": away, "EW": home}, "the team's pairs sit in opposite directions"
            nets[(round_no, home, away)] = [points[(first, b)][0] - points[(first, b)][1]
                                            + points[(second, b)][1] - points[(second, b)][0] for b in numbers]
        overview = client.get("/api/v1/director", headers=_auth(director)).json()
        # (the round robin's last round played: nothing left to pair, and the page says why)
        assert overview["can_pair"] == (round_no < ROUNDS) and all(t["status"] == "confirmed" for t in overview["tables"])
        assert (overview["finished"] is None) == (round_no < ROUNDS)
        assert {(m["home"], m["away"]) for m in overview["matches"]} == \
            {(h, a) for (r, h, a) in nets if r == round_no}
        assert all(m["boards_in"] and m["finished"] and m["count"] == PER_ROUND for m in overview["matches"])
        _check_the_hall(client, boards, round_no)
        r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
        if round_no < ROUNDS:
            assert r.status_code == 200, r.text
            state = client.get(f"/api/v1/tables/{round_no}/1", headers=_auth(director)).json()
            assert state["next"]["paired"]
            assert all(w["boards"] == [2 * round_no + 1, 2 * round_no + 2] for w in state["next"]["seats"].values())
        else:
            assert r.status_code in (409, 422)
    # The standings, recomputed here from the boards' points, on every surface.
    expected = expected_standings(nets)
    doc = json.loads(run("standings", event, "--json"))
    assert not doc["provisional"] and doc["ranked_by"] == "victory-points"
    for row in doc["teams"]:
        want = expected[row["team"]]
        assert (row["played"], row["imps_for"], row["imps_against"], row["match_points"]) == \
            (want["played"], want["imps_for"], want["imps_against"], want["match_points"])
        assert row["victory_points"] == pytest.approx(want["victory_points"], abs=0.011)
    feed = client.get("/api/v1/standings").json()
    assert feed["teams"] == doc["teams"] and feed["team_ranked_by"] == "victory-points"
    exported = json.loads(run("export", event, "-o", "-"))
    assert exported["duplicate_team_standings"] == doc
    assert {(m["round"], m["home"], m["away"]): [b["net"] for b in m["boards"]]
            for m in exported["duplicate_team_matches"]} == nets
    for r in exported["rounds"]:  # each table of a round: its boards, and each board's result there
        for t in r["tables"]:
            assert t["boards"] == [2 * r["round"] - 1, 2 * r["round"]]
            assert [b["board"] for b in t["board_results"]] == t["boards"] and all(
                b["verified"] for b in t["board_results"])
    # The standings page and the projector: each team's victory points, as standings --json has them.
    standings_page = client.get("/standings").text
    projector = client.get("/projector").text
    for row in doc["teams"]:
        shown = f"{row['victory_points']:g}"
        assert shown in standings_page and shown in projector and row["team"] in projector
    assert "IMPs for" in standings_page and "Pairs' ranking" not in standings_page
    team_page = client.get("/teams/1").text
    assert 'class="std match-boards"' in team_page and "victory points" in team_page
    player_page = client.get("/players/1").text  # each board's points for the player's side, not "playing"
    assert re.search(r"board 1: \d+–\d+", player_page) and "playing" not in player_page
    # The report: every match board by board, the hand record with its travellers; in Spanish too.
    run("report", event, "-o", tmp_path / "report.html")
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert report.count('class="std match-boards"') == len(nets)
    assert report.count('id="traveller"') == len(boards)
    for row in doc["teams"]:
        assert f"{row['victory_points']:g}" in report
    # Each match's table: each board's points at both tables and the home team's net, as played here.
    shown_nets = {}
    for round_no, table in re.findall(r'<table class="std match-boards" id="match-(\d+)-\d+">(.*?)</table>', report,
                                      re.S):
        rows = re.findall(r'<tr><td class="n">(?:<a[^>]*>)?(\d+)(?:</a>)?</td><td>(\d+)–(\d+)</td><td>(\d+)–(\d+)'
                          r'</td><td class="n">(-?\d+)</td>', table)
        home = re.search(r"<th class=\"n\"><bdi>(.*?)</bdi>", table)
        assert home is not None and len(rows) == PER_ROUND
        for row in rows:
            a, b, c, d, net = map(int, row[1:])
            assert net == (a - b) + (d - c)
        shown_nets[(int(round_no), home[1])] = [int(row[5]) for row in rows]
    assert shown_nets == {(r, home): n for (r, home, _), n in nets.items()}
    run("report", event, "-o", tmp_path / "informe.html", "--lang", "es")
    informe = (tmp_path / "informe.html").read_text(encoding="utf-8")
    assert "Encuentros tablero a tablero" in informe and "PV" in informe
    assert "neto" in informe and "IMPs a favor" in informe


def _check_the_hall(client, boards: dict[int, B.Board], round_no: int) -> None:
    """After round ``round_no``: its matches' pages board by board, each board's traveller, and the
    deals of the boards played so far (every table of their round has played them); nowhere the
    deal of a board to come."""
    played = set(range(1, 2 * round_no + 1))
    pages = {p: client.get(p) for p in ("/", "/tables", "/standings", "/boards", "/projector", "/api/v1/event",
                                        "/api/v1/standings", f"/api/v1/rounds/{round_no}")}
    pages.update({f"/boards/{n}": client.get(f"/boards/{n}") for n in boards})
    pages.update({f"/matches/{round_no}/{t}": client.get(f"/matches/{round_no}/{t}") for t in (1, 3)})
    assert all(r.status_code == 200 for r in pages.values()), \
        [p for p, r in pages.items() if r.status_code != 200]
    for number, board in boards.items():
        page = pages[f"/boards/{number}"].text
        assert 'id="traveller"' in page or "Not played yet" in page
        if number in played:
            assert 'id="deal"' in page and all(line in page for line in _deal_lines(board))
            assert page.count("<tr>") >= 2  # both matches of the round on its traveller
        else:
            assert 'id="deal"' not in page
            leaks = [p for p, r in pages.items() if any(line in r.text for line in _deal_lines(board))]
            assert not leaks, f"board {number}'s deal is shown early on {leaks}"
    for t in (1, 3):
        page = pages[f"/matches/{round_no}/{t}"].text
        assert f'id="match-{round_no}-{t}"' in page and "IMPs" in page and "VP " in page
    assert f'href="/matches/{round_no}/1"' in pages["/tables"].text
    assert client.get("/pairs/1").status_code == 404  # a team's pairs have no card: the team is scored
    assert client.get(f"/matches/{round_no}/2").status_code == 404  # a match is named by its first table
    feed_round = pages[f"/api/v1/rounds/{round_no}"].json()
    assert all(t["boards"] == [2 * round_no - 1, 2 * round_no] and len(t["board_results"]) == 2
               for t in feed_round["tables"])


def test_duplicate_teams_pages_in_spanish_show_no_english_sentence(tmp_path: Path) -> None:
    """Every hall page of a simulated duplicate-teams event (the match's page, a board's
    traveller, the teams' standings, a team's and a player's page, the projector, the report), in
    Spanish, served and written: none of the catalog's English sentences, and the duplicate teams'
    own words in Spanish."""
    from babel.messages.pofile import read_po

    from tests.tournament.test_i18n_pages import _texts
    from tournament.event import public as pub
    from tournament.i18n import LOCALE
    from tournament.pages import public as pages
    from tournament.event.files import open_event

    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points",
        "--seed", 5)
    with (LOCALE / "es" / "LC_MESSAGES" / "tournament.po").open("rb") as f:
        catalog = read_po(f)
    english = [m.id for m in catalog if isinstance(m.id, str) and m.id and m.string != m.id
               and " " in m.id.strip() and "%(" not in m.id and "<" not in m.id]
    store = open_event(event)
    try:
        data = pub.public_data(store, hall=True)
    finally:
        store.close()
    assert len(data["boards"]) == 4  # every table of both rounds has played its boards: all shown
    for served in (True, False):
        site = pages.Site(served=served)
        made = [pages.page_html(data, site, page, lang="es")
                for page in ("index", "tables", "standings", "games", "crosstable")]
        made += [pages.page_html(data, site, "team", t["id"], lang="es") for t in data["teams"]]
        made.append(pages.page_html(data, site, "player", 1, lang="es"))
        made.append(pages.projector_html(data, site, lang="es"))
        made.append(pages.report_html(data, site, "es"))
        if served:
            made += [pages.page_html(data, site, "board", n, lang="es") for n in data["board_numbers"]]
            made += [pages.page_html(data, site, "match", r, t, lang="es") for r in (1, 2) for t in (1, 3)]
            made.append(pages.page_html(data, site, "boards", lang="es"))
        for html in made:
            text = _texts(html)
            left = [s for s in english if re.search(r"(?<![\w])" + re.escape(s) + r"(?![\w])", text)]
            assert not left, left
    match = _texts(pages.page_html(data, pages.Site(), "match", 1, 1, lang="es"))
    assert "Mesas 1-2" in match and "neto" in match and "PV " in match
    standings = _texts(pages.page_html(data, pages.Site(), "standings", lang="es"))
    assert "IMPs a favor" in standings and "Clasificados por puntos de victoria" in standings

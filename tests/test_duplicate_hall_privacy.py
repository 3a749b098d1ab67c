"""A duplicate event's results in the hall, and three director's items (docs/duplicate.md: "A
board's deal is never shown early", "Duplicate teams", "Who may read the deals").

* Duplicate teams: the hall's match page, the round's tables, the team standings (the hall's, the
  projector's and ``/api/v1/standings``) showed a board's points, its IMPs and the match's running
  totals as soon as both tables of *its match* had played it, while the other matches' tables of
  the round were still playing the same board; duplicate pairs' hall standings likewise counted a
  board at its first table.  Now a board counts in public only once every table due to play it has
  played it (or is marked not playing it), as the old tables' keys and the travellers already did.
* The director's page said nothing of a board changed after the next Swiss round was paired; the
  command line said ``note: round 2 was paired on team standings this correction has changed``.
* "already marked not played" gave the mark's time as ISO 8601 (``2026-12-07T04:12:33+00:00``).
* The board files (``.dgn`` with the deal, ``boards --slips``) were written readable by everyone.
"""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import new_event, run
from tournament import open_event
from tournament.event import duplicate as dup, feed, public as pub
from tournament.i18n import FOLDERS
from tournament.pages import public as pages


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _teams(tmp_path: Path) -> Path:
    """Four teams (victory points), round 1 seated: tables 1-2 and 3-4 play boards 1 and 2."""
    event = tmp_path / "teams.db"
    new_event(event, 4, "--victory-points")
    run("boards", event, "--boards", 6, "--seed", 5)
    run("pair", event)
    return event


def _hall(event: Path) -> dict:
    with open_event(event) as store:
        return pub.public_data(store, hall=True)


def _published(event: Path) -> dict:
    with open_event(event) as store:
        return feed.published_standings(store)


def test_a_teams_board_shows_in_the_hall_once_every_table_of_its_round_has_played_it(tmp_path: Path) -> None:
    event = _teams(tmp_path)
    # Board 1 in at both tables of the match of tables 1-2; tables 3 and 4 are still playing it.
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=137,EW=0")
    run("result", event, "--round", 1, "--table", 2, "--board", 1, "--score", "NS=0,EW=59")
    # The director's (the command line) has it at once.
    director = json.loads(run("standings", event, "--json"))
    assert sorted(r["played"] for r in director["teams"]) == [0, 0, 1, 1]
    data = _hall(event)
    first = next(m for m in data["duplicate_team_matches"] if m["tables"] == [1, 2])
    assert first["boards"] == [] and (first["home_imps"], first["away_imps"]) == (0, 0)
    assert first["home_vp"] is None and first["waiting"] == [1, 2]
    assert all(r["played"] == 0 and r["imps"] == 0 for r in data["duplicate_team_standings"]["teams"])
    assert all(r["played"] == 0 for r in data["standings"]["teams"])  # (the projector's and the standings page's)
    assert all(m["boards"] == [] and m["home_points"] == 0 for m in data["team_matches"])
    assert all(r["played"] == 0 for r in _published(event)["standings"])  # /api/v1/standings
    for page, args in (("match", (1, 1)), ("tables", ()), ("standings", ())):
        said = _text(pages.page_html(data, pages.Site(), page, *args))
        assert "137" not in said and "59" not in said, (page, said)
    # Every table of the round has played board 1: it shows, and counts.
    run("result", event, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=0,EW=0")
    run("result", event, "--round", 1, "--table", 4, "--board", 1, "--score", "NS=0,EW=0")
    data = _hall(event)
    first = next(m for m in data["duplicate_team_matches"] if m["tables"] == [1, 2])
    assert [(b["board"], b["first"], b["second"]) for b in first["boards"]] == [(1, [137, 0], [0, 59])]
    assert first["waiting"] == [2] and first["home_imps"] > 0
    assert sorted(r["played"] for r in data["duplicate_team_standings"]["teams"]) == [1, 1, 1, 1]
    assert sorted(r["played"] for r in _published(event)["standings"]) == [1, 1, 1, 1]
    said = _text(pages.page_html(data, pages.Site(), "match", 1, 1))
    assert "137" in said and "59" in said


def test_a_board_marked_not_played_settles_its_table_for_the_hall(tmp_path: Path) -> None:
    event = _teams(tmp_path)
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=137,EW=0")
    run("result", event, "--round", 1, "--table", 2, "--board", 1, "--score", "NS=0,EW=59")
    run("result", event, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=0,EW=0")
    assert all(m["boards"] == [] for m in _hall(event)["duplicate_team_matches"])
    run("result", event, "--round", 1, "--table", 4, "--board", 1, "--not-played", "--reason", "ran out of time")
    shown = {tuple(m["tables"]): m for m in _hall(event)["duplicate_team_matches"]}
    assert [b["board"] for b in shown[(1, 2)]["boards"]] == [1]
    assert [b["board"] for b in shown[(3, 4)]["not_scored"]] == [1]


def _five_pairs(tmp_path: Path) -> Path:
    e = tmp_path / "pairs.db"
    run("new", e, "--name", "Pairs", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 7):
        run("add", e, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    run("boards", e, "--boards", 6, "--seed", 38)
    run("pair", e)
    return e


def test_duplicate_pairs_hall_standings_count_a_board_once_every_table_has_played_it(tmp_path: Path) -> None:
    event = _five_pairs(tmp_path)  # (six pairs: a Mitchell of 3 tables, each board played at all 3)
    with open_event(event) as store:
        first = dup.table_boards(store, 1)
    for t in first:
        for b in t.boards:
            run("result", event, "--round", 1, "--table", t.table, "--board", b, "--score", f"NS={10 * t.table},EW=0")
    run("pair", event)
    with open_event(event) as store:
        second = dup.table_boards(store, 2)
    t = second[0]
    run("result", event, "--round", 2, "--table", t.table, "--board", t.boards[0], "--score", "NS=0,EW=35")
    # Board t.boards[0] is in at two of its three tables: the director's standings score it at once.
    director = json.loads(run("standings", event, "--json"))
    assert sum(r["boards"] for r in director["pairs"]) > 0
    data = _hall(event)
    for rows in (data["duplicate_standings"]["pairs"], data["standings"]["pairs"], _published(event)["standings"]):
        assert sum(r["boards"] for r in rows) == 0 and sum(r["matchpoints"] for r in rows) == 0, rows
    assert all(c["rows"] == [] for c in data["pair_cards"].values())


@pytest.fixture
def swiss(tmp_path: Path) -> Path:
    """Four teams, Swiss, victory points; round 1 played (the home teams win board 1 at their first
    table) and round 2 paired on it, unplayed."""
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


NOTE = "note: round 2 was paired on team standings this correction has changed, and none of it is played yet"
NOTA = "nota: la ronda 2 se emparejó por una clasificación de equipos que esta corrección ha cambiado"


def test_the_directors_page_says_when_a_board_changed_the_standings_a_round_was_paired_on(swiss: Path) -> None:
    pytest.importorskip("starlette.testclient")
    from starlette.testclient import TestClient

    from tournament.web.app import VenueServer

    server = VenueServer(swiss, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = TestClient(server.asgi)
        director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]

        def post(what: str, body: dict, lang: str = "en") -> list[str]:
            r = client.post(f"/api/v1/tables/1/1/result/{what}", json=body,
                            headers={"Authorization": f"Bearer {director}", "Accept-Language": lang})
            assert r.status_code == 200, r.text
            return r.json()["said"]

        said = post("clear", {"board": 1, "reason": "wrong table"}, "es")
        assert said[1].startswith(NOTA), said
        assert f"`tournament unpair {swiss}`" in said[1] and f"`tournament pair {swiss}`" in said[1], said
        # Then marked not played: the board counts no more than taken back, the standings are those
        # the taking back left, and this change says nothing of the pairing (the note is each change's own).
        said = post("not-played", {"board": 1, "reason": "ran out of time"}, "es")
        assert len(said) == 1 and not said[0].startswith(NOTA), said
        # Marked again: the first mark stands, with its time as people read it, in the page's language.
        again = post("not-played", {"board": 1, "reason": "twice"}, "es")[0]
        assert re.search(r"\d{4}-\d\d-\d\dT", again) is None, again
        spanish_time = r", \d{1,2} [a-z]{3,4}\.? 20\d\d, \d{1,2}:\d\d:\d\d UTC desde la página del árbitro"
        assert re.search(spanish_time, again), again
    finally:
        server.close()


def test_already_marked_says_the_time_as_people_read_it(tmp_path: Path) -> None:
    event = _teams(tmp_path)
    where = ("--round", 1, "--table", 3, "--board", 2)
    run("result", event, *where, "--not-played", "--reason", "ran out of time")
    again = run("result", event, *where, "--not-played", "--reason", "ran out of time")
    assert "was already marked not played, " in again
    assert re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", again) is None, again
    assert re.search(r"[A-Z][a-z]{2} \d{1,2}, 20\d\d, \d{1,2}:\d\d:\d\d\W[AP]M UTC by ", again), again
    # The words the venue translates: the same time in Spanish.
    from domrec import phrases
    from tournament.i18n import moment_words
    from tournament.web.app import PHRASES

    english = (f"round 1 table 3 board 2 was already marked not played, {moment_words('2026-12-07T16:12:33+00:00')} "
               f"by ana — ran out of time; nothing was changed")
    assert phrases.translate(english, "es", PHRASES, FOLDERS) == (
        "ronda 1 mesa 3 tablero 2 ya estaba marcado como no jugado, 7 dic 2026, 16:12:33 UTC por ana — ran out "
        "of time; no se cambió nada")


def test_the_board_files_are_written_readable_by_their_owner_alone(tmp_path: Path) -> None:
    event = _teams(tmp_path)
    mask = os.umask(0o022)
    try:
        slips = tmp_path / "slips.html"
        run("boards", event, "--slips", "-o", slips)
        folder = tmp_path / "games"
        run("sheets", event, "-o", folder)
    finally:
        os.umask(mask)
    assert stat.S_IMODE(slips.stat().st_mode) == 0o600
    deals = sorted(folder.glob("*-board*.dgn"))
    assert deals and all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in deals), deals
    sheet = [p for p in folder.iterdir() if p.suffix == ".html"]
    assert sheet and all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in sheet)  # (no key, no deal)

"""Light pages for a big event: the report's page of a thousand players stays under 300 KB (its
rounds on pages of their own beside it, its standings' rows without a class a cell), and every
replay page a report writes stays under 150 KB.  The real thousand-game report is measured by
benchmarks/bench_pages.py."""

from __future__ import annotations

import copy
import random
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from domrec.output import REPLAY_MARK
from tournament import open_event
from tournament.cli import app
from tournament.event.simulate import simulate_event
from tournament.pages import report as rp
from tournament.pages import public
from tournament.pages.public import Site

runner = CliRunner()

#: A long name, to be fair to the page's size (the simulator's are 11 characters).
NAME = "Firstname Lastname-Double {:04d}"


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    """A simulated rotating event: 16 players, 2 rounds, every result with its record."""
    path = tmp_path_factory.mktemp("light") / "club.db"
    simulate_event(path, "competitive", "rotating", 16, 2, seed=3)
    return path


def _thousand_players(data: dict, players: int = 1000, rounds: int = 5) -> dict:
    """The event's report data grown to ``players`` players and ``rounds`` rounds of ``players / 4``
    tables, row for row as the small event's (the page is made from nothing else)."""
    rng = random.Random(1)
    big = copy.deepcopy(data)
    row = data["standings"]["standings"][0]
    big["players"] = [{**data["players"][0], "id": i, "name": NAME.format(i)} for i in range(1, players + 1)]
    big["standings"]["standings"] = [
        {**row, "rank": k + 1, "id": k + 1, "name": NAME.format(k + 1), "for": rng.randrange(1000),
         "against": rng.randrange(1000), "diff": rng.randrange(-999, 999), "buchholz": rng.randrange(30)}
        for k in range(players)]
    big["standings"]["through_round"] = rounds
    table = data["rounds"][0]["tables"][0]
    big["rounds"] = [{**data["rounds"][0], "round": r, "tables": [
        {**table, "table": t + 1, "seats": [{**s, "id": 4 * t + i + 1, "name": NAME.format(4 * t + i + 1)}
                                            for i, s in enumerate(table["seats"])]}
        for t in range(players // 4)]} for r in range(1, rounds + 1)]
    return big


def test_the_report_of_a_thousand_players_is_under_300_kb(event):
    store = open_event(event)
    data = _thousand_players(rp.event_data(store))
    store.close()
    replays = {(r["round"], t["table"]): f"club-replays/round-{r['round']}-table-{t['table']}.html"
               for r in data["rounds"] for t in r["tables"]}
    assert rp.rounds_apart(data, replays)
    rounds = {r["round"]: f"club-rounds/round-{r['round']}.html" for r in data["rounds"]}
    page = rp.html_page(data, replays, rounds=rounds)
    assert len(page.encode("utf-8")) < 300_000
    assert page.count(NAME.format(1)) == 1 and page.count(NAME.format(1000)) == 1  # every player, once
    for r in data["rounds"]:
        site = Site(served=False, pages="../club-pages/", up="../", report="club.html",
                    replays={k: v for k, v in replays.items()})
        one = public.round_page_html(data, site, r)
        assert len(one.encode("utf-8")) < 150_000 and one.count('class="replay"') == 250


def test_a_report_whose_rounds_are_heavy_gives_each_round_a_page(event, tmp_path, monkeypatch):
    monkeypatch.setattr(rp, "ROUNDS_ON_THE_PAGE", 0)  # the event is small: any rounds are "heavy"
    out = tmp_path / "club.html"
    r = run("report", event, "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert '<ul class="rounds">' in page and 'class="replay"' not in page
    for n in (1, 2):
        assert f'href="club-rounds/round-{n}.html"' in page
        round_page = (tmp_path / "club-rounds" / f"round-{n}.html").read_text(encoding="utf-8")
        assert rp.REPORT_MARK in round_page and 'href="../club.html"' in round_page
        links = [part.split('"')[0] for part in round_page.split('class="replay" href="')[1:]]
        assert len(links) == 4
        for link in links:  # from the round's folder to the replays' folder, beside it
            assert REPLAY_MARK in (tmp_path / "club-rounds" / unquote(link)).resolve().read_text(encoding="utf-8")
    assert run("report", event, "-o", out).exit_code == 0  # its own pages: replaced
    theirs = tmp_path / "club-rounds" / "round-2.html"
    theirs.write_text("<p>my notes</p>", encoding="utf-8")
    r = run("report", event, "-o", out)
    assert r.exit_code == 2 and "not replaced" in r.output and "nothing was written" in r.output
    assert theirs.read_text(encoding="utf-8") == "<p>my notes</p>"
    assert run("report", event, "-o", out, "--force").exit_code == 0
    assert rp.REPORT_MARK in theirs.read_text(encoding="utf-8")


def test_a_club_evening_stays_one_page(event, tmp_path):
    out = tmp_path / "club.html"
    assert run("report", event, "-o", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<h3>Round 2</h3>" in page and page.count('class="replay"') == 8
    assert not (tmp_path / "club-rounds").exists()


def test_every_replay_page_of_a_report_is_under_150_kb(event, tmp_path):
    out = tmp_path / "club.html"
    assert run("report", event, "-o", out).exit_code == 0
    pages = sorted((tmp_path / "club-replays").glob("*.html"))
    assert len(pages) == 8
    for path in pages:
        assert path.stat().st_size < 150_000, path.name


def test_the_public_standings_page_of_a_thousand_players_is_under_300_kb(event):
    """The hall's standings page, as served and as written, with a link to each player's page."""
    store = open_event(event)
    data = _thousand_players(rp.event_data(store))
    store.close()
    data["unit_of"] = {row["id"]: row["id"] for row in data["standings"]["standings"]}
    for site in (Site(served=True), Site(served=False)):
        page = public.page_html(data, site, "standings")
        assert len(page.encode("utf-8")) < 300_000, (site.served, len(page))
        assert page.count(NAME.format(1)) == 1 and page.count(NAME.format(1000)) == 1
        assert page.count('href="/players/') + page.count('href="player-') >= 1000

"""A Mitchell's standings on the projector, in a real browser at 1920x1080 (English and Spanish):
each direction under its own heading, "North-South" / "East-West" (the hall's words), its ranks
from 1; a Howell's one list with no heading; and a pair's card saying whose rank it is ("Rank 1
North-South").  docs/duplicate.md, "Ranking"; docs/venue.md, the projector.

Before: the standings ranked each direction apart (the hall's ``/standings`` headed each), but the
projector showed the ranks "1 2 3 4 1 2 3" in one list with nothing saying where East-West began,
and the card of an East-West pair said "Rank 1 in the standings" beside a North-South pair's own
"Rank 1 in the standings".  Screenshots kept under ``DOMREC_SCREENSHOTS``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)

from tournament import open_event  # noqa: E402
from tournament.event import duplicate as dup  # noqa: E402
from tournament.event.public import public_data  # noqa: E402
from tournament.pages import public as pages  # noqa: E402
from tournament.web.app import VenueServer  # noqa: E402
from tournament.web.background import BackgroundVenue  # noqa: E402

from tests.tournament.test_duplicate_rounds import ok, run  # noqa: E402

starlette_testclient = pytest.importorskip("starlette.testclient")

WAIT_MS = 90_000
HEADINGS = {"en": {"NS": "North-South", "EW": "East-West"}, "es": {"NS": "Norte-Sur", "EW": "Este-Oeste"}}

#: Every standings table of the projector, screen by screen: its heading rows' text (a direction's,
#: then the columns'), and each row's rank and pair.
TABLES = """() => [...document.querySelectorAll('.screen')].map(s => [...s.querySelectorAll('table.duplicate')].map(t => ({
  heads: [...t.tHead.rows].map(r => r.textContent.trim()),
  rows: [...t.tBodies[0].rows].map(r => [r.cells[0].textContent.trim(), r.cells[1].textContent.trim().split(' ')[0]])})))
  .filter(s => s.length)"""


def _event(folder: Path, pairs: int, movement: str, boards: int) -> Path:
    """A duplicate event of ``pairs`` pairs, every round seated and every board entered (a different
    score at each table, now one side's and now the other's, so the pairs do not all tie)."""
    e = folder / f"{movement}-{pairs}.db"
    ok("new", e, "--name", "Noche Mitchell", "--game", "competitive", "--format", "duplicate",
       "--movement", movement)
    for i in range(1, pairs + 1):
        ok("add", e, f"North {i}", f"South {i}", "--pair", f"Pareja {i}")
    ok("boards", e, "--boards", boards, "--seed", 38)
    number = 0
    while run("pair", e).exit_code == 0:
        number += 1
        with open_event(e) as store:
            tables = dup.table_boards(store, number)
        for t in tables:
            for b in t.boards:
                points = 5 + (7 * t.table + 3 * b) % 23  # (one side scores a hand)
                ok("result", e, "--round", number, "--table", t.table, "--board", b, "--score",
                   f"NS={points},EW=0" if (t.table + b) % 3 else f"NS=0,EW={points}")
    assert number > 1
    return e


@pytest.fixture(scope="module")
def mitchell(tmp_path_factory):
    """A 7-pair Mitchell (4 North-South pairs, 3 East-West: a sit-out), every board scored."""
    e = _event(tmp_path_factory.mktemp("fields"), 7, "mitchell", 8)
    with open_event(e) as store:
        doc = dup.standings(store)
    assert doc["fields"] == ["NS", "EW"] and all(r["boards"] for r in doc["pairs"])
    return e, doc


@pytest.fixture(scope="module")
def served(mitchell):
    with BackgroundVenue(mitchell[0], rate=1e9, burst=10 ** 9) as venue:
        yield venue, mitchell[1]


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("lang", ["en", "es"])
def test_each_direction_stands_under_its_heading_on_the_projector(served, browser, lang):
    venue, doc = served
    ranks = {str(r["pair"]): str(r["rank"]) for r in doc["pairs"]}
    of = {str(r["pair"]): r["direction"] for r in doc["pairs"]}
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale=lang,
                                  extra_http_headers={"Accept-Language": lang})
    try:
        page = context.new_page()
        page.clock.install()
        page.goto(venue.base_url + "/projector?seconds=3")
        page.wait_for_selector(".screen.on", timeout=WAIT_MS)
        # (its clock paused: the page's own paging, every 3 s, would put another screen on between
        # the reads below of the one the test puts on)
        page.clock.pause_at(page.evaluate("() => Date.now()") + 1000)
        screens = page.evaluate(TABLES)
        assert screens, "no standings screen"
        shown: dict[str, list[list[str]]] = {"NS": [], "EW": []}
        words = {v: k for k, v in HEADINGS[lang].items()}
        for tables in screens:
            for t in tables:
                # Every column headed by its direction (a screen shows no rows without it).
                assert len(t["heads"]) == 2 and t["heads"][0] in words, t
                field = words[t["heads"][0]]
                for rank, pair in t["rows"]:
                    assert of[pair] == field, (pair, t)  # under its own direction's heading
                    assert rank == ranks[pair], (pair, t)
                shown[field].extend(t["rows"])
        for field in ("NS", "EW"):
            got = [int(rank) for rank, _ in shown[field]]
            assert got and got[0] == 1 and got == sorted(got), (field, shown)
            assert sorted(pair for _, pair in shown[field]) == sorted(p for p, d in of.items() if d == field)
        # The standings' screen, shown by itself (the live script pages the screens): its headings
        # are on the screen, whole (not cut with "…"), North-South before East-West.
        page.evaluate("""() => { document.body.classList.add('paging');
          const s = document.querySelector('table.duplicate').closest('.screen');
          document.querySelectorAll('.screen').forEach(x => x.classList.toggle('on', x === s)); }""")
        heads = page.evaluate("""() => [...document.querySelectorAll('.screen.on tr.field th')].map(e => ({
          text: e.textContent, cut: e.scrollWidth > e.clientWidth, box: e.getBoundingClientRect().toJSON()}))""")
        assert [h["text"] for h in heads] == [HEADINGS[lang]["NS"], HEADINGS[lang]["EW"]], heads
        for h in heads:
            assert not h["cut"] and h["box"]["bottom"] <= 1080 and h["box"]["right"] <= 1920, h
        assert page.locator(".screen.on").get_by_text(HEADINGS[lang]["EW"], exact=True).is_visible()
        keep = os.environ.get("DOMREC_SCREENSHOTS")
        if keep:
            Path(keep).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(keep) / f"projector-mitchell-fields-{lang}-1920x1080.png"))
    finally:
        context.close()


def test_a_direction_continued_on_the_next_screen_repeats_its_heading(mitchell):
    """Many pairs a direction (60 and 58): each direction's screens, each column of them headed by
    it; every pair once, its direction's ranks from 1 in order."""
    e, _ = mitchell
    with open_event(e) as store:
        data = public_data(store)
    ns = [{**r, "pair": n, "name": f"Pareja {n}", "rank": n} for n, r in
          enumerate([next(r for r in data["duplicate_standings"]["pairs"] if r["direction"] == "NS")] * 60, 1)]
    ew = [{**r, "pair": 60 + n, "name": f"Pareja {60 + n}", "rank": n} for n, r in
          enumerate([next(r for r in data["duplicate_standings"]["pairs"] if r["direction"] == "EW")] * 58, 1)]
    for r in [*ns, *ew]:  # each a percentage of its own, so the ranks are 1, 2, 3... a direction
        r["matchpoints"] = 1000 - r["rank"]
        r["top"] = 1000
    data = {**data, "duplicate_standings": {**data["duplicate_standings"], "pairs": [*ns, *ew]}}
    for lang in ("en", "es"):
        screens = [s for s in pages.projector_screens(data, lang) if s["kind"] == "duplicate"]
        assert len(screens) > 2
        seen: dict[str, list[int]] = {"NS": [], "EW": []}
        for s in screens:
            assert s.get("fields") and len(s["fields"]) == len(s["columns"])
            for field, column in zip(s["fields"], s["columns"]):
                assert {r["direction"] for r in column} == {field}
                seen[field].extend(r["rank"] for r in column)
        assert seen == {"NS": list(range(1, 61)), "EW": list(range(1, 59))}
        html = pages.projector_html(data, pages.Site(), lang=lang)
        for chunk in html.split('<section class="screen')[1:]:
            if "table class=\"std duplicate\"" in chunk:  # every column of every screen headed
                assert chunk.count("<table") == chunk.count('<tr class="field">') > 0
                assert HEADINGS[lang]["NS"] in chunk or HEADINGS[lang]["EW"] in chunk


@pytest.fixture(scope="module")
def client(mitchell, tmp_path_factory):
    """The Mitchell's hall, and a Howell's, each a getter of its pages' text."""
    howell = _event(tmp_path_factory.mktemp("howell"), 6, "howell", 10)
    servers = {name: VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
               for name, e in (("mitchell", mitchell[0]), ("howell", howell))}
    try:
        clients = {name: starlette_testclient.TestClient(s.asgi) for name, s in servers.items()}

        def get(event: str, path: str, lang: str = "en") -> str:
            r = clients[event].get(path, headers={"Accept-Language": lang})
            assert r.status_code == 200, (path, r.text)
            return r.text

        yield get
    finally:
        for s in servers.values():
            s.close()


def test_a_pairs_card_says_its_direction_in_a_mitchell(client, mitchell):
    _, doc = mitchell
    for row in doc["pairs"]:
        en = _text(client("mitchell", f"/pairs/{row['pair']}"))
        es = _text(client("mitchell", f"/pairs/{row['pair']}", "es"))
        assert f"Rank {row['rank']} {HEADINGS['en'][row['direction']]} ·" in en, en
        assert "in the standings" not in en
        assert f"Puesto {row['rank']} en {HEADINGS['es'][row['direction']]} ·" in es, es
        assert "en la clasificación ·" not in es
    assert {r["rank"] for r in doc["pairs"] if r["direction"] == "NS"} >= {1}
    assert {r["rank"] for r in doc["pairs"] if r["direction"] == "EW"} >= {1}


def test_a_howell_is_one_list_with_no_heading(client):
    feed = json.loads(client("howell", "/api/v1/standings"))
    assert feed["fields"] == []
    for lang, words in HEADINGS.items():
        projector = client("howell", "/projector", lang)
        assert 'table class="std duplicate"' in projector
        assert 'class="field"' not in projector
        assert not any(f">{w}<" in projector for w in words.values())
    best = next(r for r in feed["pairs"] if r["rank"] == 1)
    assert "Rank 1 in the standings ·" in _text(client("howell", f"/pairs/{best['pair']}"))
    assert "Puesto 1 en la clasificación ·" in _text(client("howell", f"/pairs/{best['pair']}", "es"))


def test_a_players_page_says_the_pairs_direction_in_a_mitchell(client, mitchell):
    """A player's page gives the rank of the player's pair as its card does: of its direction."""
    from tournament import open_event
    from tournament.store import boards as boards_sql

    path, doc = mitchell
    store = open_event(path)
    try:
        number = {team: n for n, team in boards_sql.pair_numbers(store).items()}  # a pair's id -> its number
        players = [(p.id, number[p.team]) for p in store.players() if p.team in number]
    finally:
        store.close()
    direction = {r["pair"]: r["direction"] for r in doc["pairs"]}
    rank = {r["pair"]: r["rank"] for r in doc["pairs"]}
    assert len(players) == 2 * len(doc["pairs"])
    for player, pair in players:
        en = _text(client("mitchell", f"/players/{player}"))
        es = _text(client("mitchell", f"/players/{player}", "es"))
        assert f"Rank {rank[pair]} {HEADINGS['en'][direction[pair]]} ·" in en, en
        assert f"Puesto {rank[pair]} en {HEADINGS['es'][direction[pair]]} ·" in es, es

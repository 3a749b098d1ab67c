"""A duplicate pair with no board scored yet has no rank (docs/duplicate.md, "At the venue"): the
hall's standings page, a pair's card, the projector and the feed's ``/api/v1/standings`` agree,
and the projector says the standings are provisional in the hall's own words.

Before (tester's finding 6): early in a session the hall's ``/standings`` listed every pair at
rank 1 with 0/0, 0.00%, 0 IMPs and nothing saying why, ``/pairs/1`` said "Rank 1 in the standings ·
0/0 (0.00%)", and the feed ranked them too, while the projector left them out; later, a pair with
nothing scored stood *above* a pair that had scored 0% (0/0 is 0.00%, and its IMPs 0). And the
projector's standings said nothing of being provisional while the hall's said "Provisional: results
still missing (round 4: 6 board results)" (finding 1)."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_not_played_hall import _five_pairs, _play_round, _text
from tests.tournament.test_duplicate_rounds import ok

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402

#: A standings row of the hall's page: its rank and the pair its link is to.
ROW = re.compile(r'<tr><td>(\d+)</td><td><a href="/pairs/(\d+)">')


@pytest.fixture
def hall(tmp_path: Path):
    """A 5-pair Mitchell (3 tables, 6 boards; pair 3 sits round 1 out) served, and a getter of its
    pages (raw HTML, or the feed's JSON)."""
    e = _five_pairs(tmp_path)
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)

        def get(path: str, lang: str = "en") -> str:
            r = client.get(path, headers={"Accept-Language": lang})
            assert r.status_code == 200, (path, r.text)
            return r.text

        yield e, get
    finally:
        server.close()


def _table_rows(html: str) -> list[tuple[int, int]]:
    """(rank, pair) of each row of the standings page's table, in order."""
    return [(int(rank), int(pair)) for rank, pair in ROW.findall(html)]


def test_before_any_board_counts_no_pair_is_ranked(hall) -> None:
    e, get = hall
    ok("pair", e)
    _play_round(e, 1, skip=None)  # every board of round 1 in: none has travelled to its other tables
    page = get("/standings")
    assert _table_rows(page) == [], "a pair with no board scored is on the standings"
    text = _text(page)
    assert "0.00" not in text and "0/0" not in text
    assert "No pair is ranked yet" in text
    said = re.sub(r" ([,.])", r"\1", text)  # (each pair named is a link to its card: tags became spaces)
    assert "Not ranked yet (no board of theirs scored yet): 1 Pair 1, 2 Pair 2, 3 Pair 3, 4 Pair 4, 5 Pair 5." in said
    assert all(f'<a href="/pairs/{p}">{p} <bdi>Pair {p}</bdi></a>' in page for p in range(1, 6))
    es = _text(get("/standings", "es"))
    assert "Ninguna pareja tiene puesto todavía" in es and "Aún sin puesto" in es
    for pair in range(1, 6):  # a pair's card: no "Rank 1 in the standings · 0/0"
        card = _text(get(f"/pairs/{pair}"))
        assert "Rank" not in card and "0/0" not in card, card
        assert "Not ranked yet: no board of this pair is scored yet." in card
        assert "Aún sin puesto" in _text(get(f"/pairs/{pair}", "es"))
    feed = json.loads(get("/api/v1/standings"))
    assert feed["standings"] == [] and feed["pairs"] == []
    assert sorted(feed["members"]) == ["1", "2", "3", "4", "5"]  # every pair's players, as before


def _competition_ranks(rows: list[dict], fields: list[str]) -> list[int]:
    """Each row's rank among the rows listed (of its direction where the standings rank them
    apart): one more than the rows ahead of it with a better percentage, then IMPs."""
    def key(r: dict) -> tuple[Fraction, int]:
        return Fraction(r["matchpoints"], r["top"] or 1), r["imps"]

    def field(r: dict) -> str:
        return r["direction"] if r["direction"] in fields else ""

    return [1 + sum(1 for o in rows if field(o) == field(r) and key(o) > key(r)) for r in rows]


def test_a_pair_with_nothing_scored_is_left_out_and_does_not_take_a_place(hall) -> None:
    e, get = hall
    for number in (1, 2):
        ok("pair", e)
        _play_round(e, number, skip=None)
    ok("pair", e)  # round 3 seated, nothing in: provisional
    # Boards 1 and 2 have travelled to every table: pair 2 (NS) has played neither (it sat at the
    # table of boards 3-6 both rounds), pair 1 (NS) scored 0% on them.
    feed = json.loads(get("/api/v1/standings"))
    rows = feed["standings"]
    assert feed["pairs"] == rows
    listed = [r["pair"] for r in rows]
    assert 2 not in listed and sorted(listed) == [1, 3, 4, 5], listed
    assert all(r["boards"] for r in rows)
    assert [r["rank"] for r in rows] == _competition_ranks(rows, feed.get("fields") or [])
    by_pair = {r["pair"]: r for r in rows}
    assert by_pair[1]["percent"] == 0.0  # ranked below pair 3 only, not below a pair on 0/0
    # The hall's page: the same pairs, the same ranks, pair 2 named as not ranked yet.
    page = get("/standings")
    assert _table_rows(page) == [(r["rank"], r["pair"]) for r in rows]
    assert "Not ranked yet (no board of theirs scored yet): 2 Pair 2." in re.sub(r" ([,.])", r"\1", _text(page))
    # A pair's card: the rank of the standings (a Mitchell's: of its direction), or none.
    field = {"NS": "North-South", "EW": "East-West"}[by_pair[1]["direction"]]
    assert f"Rank {by_pair[1]['rank']} {field}" in _text(get("/pairs/1"))
    card = _text(get("/pairs/2"))
    assert "Rank" not in card and "Not ranked yet" in card
    # The projector: the same rows, and provisional in the hall's words (and its Spanish).
    projector = get("/projector")
    assert re.findall(r'<td class="name">(\d+) <bdi>', projector) == [str(p) for p in listed]
    for lang, said in (("en", "Provisional: results still missing (round 3: 4 board results)"),
                       ("es", "Provisional: faltan resultados (ronda 3: 4 resultados de tablero)")):
        assert said in _text(get("/standings", lang)), lang
        heading = re.search(r'(?s)<section class="screen[^"]*"[^>]*>\s*<h2>(.*?)</h2>\s*<div class="cols">\s*'
                            r'<table class="std duplicate">', get("/projector", lang))
        assert heading is not None and said in _text(heading.group(1)), lang


def test_ranked_pairs_ranks_the_pairs_left_among_themselves() -> None:
    from tournament.event.duplicate_hall import ranked_pairs  # (the one rule of every page and the feed)

    row = {"direction": "both", "name": "", "unscored": 0}
    doc = {"fields": [], "pairs": [
        {**row, "rank": 1, "pair": 1, "boards": 4, "matchpoints": 6, "top": 8, "percent": 75.0, "imps": 3},
        {**row, "rank": 2, "pair": 2, "boards": 0, "matchpoints": 0, "top": 0, "percent": 0.0, "imps": 0},
        {**row, "rank": 2, "pair": 3, "boards": 0, "matchpoints": 0, "top": 0, "percent": 0.0, "imps": 0, "unscored": 2},
        {**row, "rank": 4, "pair": 4, "boards": 4, "matchpoints": 0, "top": 8, "percent": 0.0, "imps": -3},
        {**row, "rank": 4, "pair": 5, "boards": 4, "matchpoints": 0, "top": 8, "percent": 0.0, "imps": -3},
    ]}
    assert [(r["pair"], r["rank"]) for r in ranked_pairs(doc)] == [(1, 1), (4, 2), (5, 2)]

"""The hall's count sentences agree with their number, and Castle Rock's placement column says
what it counts (a club night's findings, 2026-12-07).

In Spanish ``/tables`` said "1 de 2 mesas tienen su resultado" and a player's page at a Castle
Rock evening "Hasta ahora: 1 puntos por puesto, … tantos": a count of one now has its own
sentence ("1 of 2 tables has its result", "1 placement point"; the catalogs hold one form a
sentence, so the singular is its own msgid, as "So far: 1 win" was), and the score is "tanteo 5",
which no number makes disagree.  The standings' placement header, "pts. pto." in Spanish and
"placement" in English, was cryptic: it is "pts. puesto" now, and in both languages an ``<abbr>``
whose title says what the column adds up.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest

from tests.tournament.test_duplicate_rounds import ok

starlette_testclient = pytest.importorskip("starlette.testclient")


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A Castle Rock evening of eight players at two tables of four, placement points 3, 2, 1, 0:
    round 1 paired, table 1's result in (its third place has 1 placement point), table 2 playing."""
    from tournament.web.hall import HallServer

    path = tmp_path_factory.mktemp("hallwords7") / "castle.db"
    ok("new", path, "--name", "Castle night", "--game", "castle-rock", "--format", "individual",
       "--table-size", 4, "--placement", "3,2,1,0")
    for i in range(1, 9):
        ok("add", path, f"Player {i}")
    ok("pair", path)
    ok("result", path, "--table", 1, "--score", "P1=5,P2=3,P3=1,P4=-2")
    server = HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9)
    try:
        yield starlette_testclient.TestClient(server.asgi)
    finally:
        server.close()


def _get(hall: Any, path: str, lang: str) -> str:
    hall.cookies.clear()  # (?lang= keeps its language in a cookie)
    r = hall.get(f"{path}?lang={lang}")
    assert r.status_code == 200, (r.status_code, r.text[:300])
    return r.text


@pytest.mark.parametrize("lang, said, wrong", [
    ("en", "1 of 2 tables has its result.", "tables have their result"),
    ("es", "1 de 2 mesas tiene su resultado.", "mesas tienen su resultado"),
])
def test_one_table_done_of_two_is_said_in_the_singular(hall: Any, lang: str, said: str, wrong: str) -> None:
    text = _text(_get(hall, "/tables", lang))
    assert said in text, text
    assert wrong not in text


def _third_place(hall: Any) -> str:
    """The player page of table 1's third place (1 placement point)."""
    for number in range(1, 9):
        html = _get(hall, f"/players/{number}", "en")
        if "So far: 1 placement point" in _text(html):  # ("points" before the fix)
            return f"/players/{number}"
    raise AssertionError("no player with 1 placement point")


@pytest.mark.parametrize("lang, said, wrong", [
    ("en", "So far: 1 placement point, score 1", "1 placement points"),
    ("es", "Hasta ahora: 1 punto por puesto, tanteo 1", "1 puntos por puesto"),
])
def test_one_placement_point_is_said_in_the_singular(hall: Any, lang: str, said: str, wrong: str) -> None:
    text = _text(_get(hall, _third_place(hall), lang))
    assert said in text, text
    assert wrong not in text


def test_the_scores_word_never_disagrees_with_its_number(hall: Any) -> None:
    """"tantos" after the score said "1 tantos" for a score of one: the score is "tanteo N" now."""
    for number in range(1, 9):
        text = _text(_get(hall, f"/players/{number}", "es"))
        assert "tantos" not in text, text


@pytest.mark.parametrize("lang, short", [("en", "placement"), ("es", "pts. puesto")])
def test_the_placement_header_says_what_it_counts(hall: Any, lang: str, short: str) -> None:
    html = _get(hall, "/standings", lang)
    found = re.findall(r'<abbr title="([^"]*)">([^<]*)</abbr>', html)
    titles = {brief: title for title, brief in found}
    assert short in titles, found
    assert titles[short].startswith("placement points: " if lang == "en" else "puntos por puesto: "), titles
    assert "pts. pto." not in html

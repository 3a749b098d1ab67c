"""A score sheet's refused hand in Spanish, in all five games.

A tester posted ``hand 2`` / ``end P1 x P2 1`` to an individual Castle Rock table recording scores
only, with ``Accept-Language: es``: the answer was 422 "end: 'x' is not a number of points (for
P1)", in English (so was ``1.5``).  The reader's end-line refusals, and each game's checks of a
hand's scores (a Broadway side losing more tiles than it holds, a Horse Race hand "at the target"
short of it, a Domino Roads score no play gives…), had no pattern in ``domrec/phrases.py``.  Each
line a score sheet can hold (``hand N``, ``end …``) is sent wrong here, in
both languages, at a play-by-play table too (where the refusal keeps its line and column).
"""

from __future__ import annotations

import re

import pytest

from domrec import phrases
from tests.tournament.test_venue import _auth, _event, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]


def _bad_lines(game: str, sides: list[str]) -> list[str]:
    """Wrong ``end`` and ``hand`` lines of a first hand: the reader's refusals, then the game's."""
    a, b = sides[0], sides[1]
    lines = [f"end {a} x {b} 1", f"end {a} 1.5 {b} 1", f"end {a} +3", f"end {a} ½", "end sideways",
             f"end {a} 1 {a} 2", f"end out {a}", "end abandoned", f"end target {a} 5", f"end sudden-death {a} 5",
             f"end {a} -28 {b} 200"]
    lines += {"domino-roads": [f"end out {a} 7 {b} 25", f"end blocked {a} 3 {b} 12"],
              "castle-rock": [f"end {a} -10 {b} 1", f"end {a} 1"],
              "broadway": [f"end out {a} -3", f"end sudden-death {a} -1 {b} 5", f"end {a} 168 {b} 200"],
              "horse-race": [f"end target {a} 5 {b} 5", f"end {a} -1"],
              "competitive": [f"end blocked {a} 3", f"end {a} 10 {b} 20"]}[game]
    texts = [f"hand 1\n{line}" for line in lines]
    texts += ["hand x\nend " + f"{a} 5", "hand 7\nend " + f"{a} 5"]
    return texts


@pytest.mark.parametrize("game", GAMES)
def test_every_refused_line_of_a_score_sheet_is_in_spanish(tmp_path, game):
    server = _server(_event(tmp_path, game))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        state = client.post("/api/v1/tables/1/1/mode", headers=_auth(token),
                            json={"rev": state["rev"], "mode": "sheet"}).json()
        sides = list(state["sides"])
        refused = 0
        for text in _bad_lines(game, sides):
            said = {}
            for lang in ("en", "es"):
                r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": lang},
                                json={"rev": state["rev"], "text": text})
                if r.status_code == 200:  # (a line some game takes: nothing to say of it)
                    pytest.fail(f"{game}: {text!r} was taken")
                assert r.status_code == 422, (text, r.text)
                said[lang] = r.json()["error"]
            en, es = said["en"], said["es"]
            assert "\n" not in es and "Traceback" not in es
            assert phrases.listed(en), f"{game} {text!r}: not listed: {en}"
            assert es != en, f"{game} {text!r}: in English: {es}"
            # (told in words, as a score sheet's refusals are: docs/venue.md, "Scores only")
            assert not re.match(r"\d+:\d+: ", es), es
            refused += 1
        assert refused
    finally:
        server.close()


def test_the_testers_castle_rock_sheet_line_in_spanish(tmp_path):
    server = _server(_event(tmp_path, "castle-rock"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        state = client.post("/api/v1/tables/1/1/mode", headers=_auth(token),
                            json={"rev": state["rev"], "mode": "sheet"}).json()
        p1, p2 = state["sides"][:2]
        for typed in ("x", "1.5"):
            r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": "es"},
                            json={"rev": state["rev"], "text": f"hand 1\nend {p1} {typed} {p2} 1"})
            assert r.status_code == 422
            assert r.json()["error"] == f"end: '{typed}' no es un número de puntos (para {p1})"
    finally:
        server.close()


def test_a_play_by_play_table_keeps_the_end_lines_place_in_spanish(tmp_path):
    """At a table recording the play, the same end line is refused at its line and column."""
    server = _server(_event(tmp_path, "castle-rock"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        p1, p2 = state["sides"][:2]
        r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": "es"},
                        json={"rev": state["rev"], "text": f"hand 1\nend {p1} x {p2} 1"})
        assert r.status_code == 422 and r.json()["line"] == 2
        assert r.json()["error"] == f"2:1: end: 'x' no es un número de puntos (para {p1})"
    finally:
        server.close()

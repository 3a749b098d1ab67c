"""The director's API refuses a bad body in the client's language: every refusal of the director's
routes (a typed result, a result cleared, a correction, a board's score corrected at a duplicate
table, the next round paired) has its Spanish, and a number in a Spanish refusal is written as a
Spanish reader writes it (Babel's grouping for the language), English left as it was."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue import _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

#: Words of the director's refusals in English that no Spanish refusal holds (a JSON key in quotes,
#: a command and its options are left out before looking: they are the same in both).
ENGLISH = frozenset("""must give reason text number board table round nothing stored changed correct
    whole side seat hand line result already yet there clearing correcting remove empty finished
    played plays confirmed paired not has have the of is are and for""".split())


@pytest.fixture
def desk(tmp_path: Path):
    """A game event's venue, in this process: its client and the director's key."""
    server = _server(_event(tmp_path))
    try:
        yield (starlette_testclient.TestClient(server.asgi),
               _key(server.call(server.venue.links, "http://testserver")["director"]))
    finally:
        server.close()


def _english_words(said: str) -> set[str]:
    bare = re.sub(r'"[^"]*"|--?[a-z][\w-]*|`[^`]*`|tournament [a-z]+', " ", said)
    return {w for w in re.findall(r"[A-Za-z]+", bare) if w.lower() in ENGLISH}


def _refused(client, method: str, url: str, token: str, body=None) -> tuple[str, str]:
    """The refusal of one request in English and in Spanish (each language the ways a client asks)."""
    said = {}
    for lang, extra, query in (("en", {}, ""), ("es", {"Accept-Language": "es"}, ""), ("es?", {}, "?lang=es"),
                               ("es-cookie", {"Cookie": "lang=es"}, "")):
        r = client.request(method, url + query, headers={**_auth(token), **extra},
                           **({"json": body} if body is not None else {}))
        assert 400 <= r.status_code < 500, (url, body, r.status_code, r.text)
        said[lang] = r.json()["error"]
    assert said["es"] == said["es?"] == said["es-cookie"], said
    return said["en"], said["es"]


def _check(client, method, url, token, body, english_part: str) -> None:
    en, es = _refused(client, method, url, token, body)
    assert english_part in en, (body, en)
    assert "\n" not in es and es != en and not _english_words(es), (body, en, es)


@pytest.mark.parametrize("path, body, english", [
    ("result", {"scores": {"NS": 1, "EW": 2}, "reason": 5}, '"reason" must be text'),
    ("result", {"scores": {"NS": 1, "EW": 2}, "winner": 5}, '"winner" must be a side or seat'),
    ("result", {"scores": {"NS": 1, "EW": 2}, "board": "one"}, '"board" must be the number of the board'),
    ("result", {"scores": {"NS": 1, "EW": 2}, "ended": "sideways"}, '"ended" must be "out" or "blocked"'),
    ("result", {"scores": {"NS": 2_000_000, "EW": 1}}, "past the limit"),
    ("result/clear", {"reason": 5}, '"reason" must be text'),
    ("result/clear", {"reason": " "}, "give the reason for clearing a result"),
    ("result/clear", {"reason": "slip"}, "no result"),
    ("correct", {"rev": 0, "hand": "one", "line": 1, "text": "", "reason": "x"}, '"hand" must be the number'),
    ("correct", {"rev": 0, "hand": 1, "line": "one", "text": "", "reason": "x"}, '"line" must be the number'),
    ("correct", {"rev": 0, "hand": 1, "line": 1, "text": 5, "reason": "x"}, '"text" must be the corrected line'),
    ("correct", {"rev": 0, "hand": 1, "line": 1, "text": "", "reason": ""}, "give the reason for the correction"),
    ("correct", {"rev": 0, "hand": 1, "line": 1, "text": "", "reason": "x"}, "has recorded nothing yet"),
])
def test_the_directors_refusals_of_a_game_table_in_spanish(desk, path, body, english) -> None:
    client, director = desk
    _check(client, "POST", f"/api/v1/tables/1/1/{path}", director, body, english)


def test_pairing_a_round_not_finished_is_refused_in_spanish(desk) -> None:
    client, director = desk
    _check(client, "POST", "/api/v1/director/pair", director, {}, "is not finished")
    _check(client, "POST", "/api/v1/director/pair", director, {"seed": 5}, '"seed" is draw')


def test_the_directors_refusals_at_a_duplicate_table_in_spanish(tmp_path: Path) -> None:
    """A duplicate table's boards corrected from the director's page: each refusal in Spanish."""
    from tests.tournament.test_venue_duplicate_sheet import _confirm
    from tournament.web.app import VenueServer

    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        link, director = links["tables"][0], _key(links["director"])
        url, token = f"/api/v1/tables/1/{link['table']}", link["token"]
        result, pair = f"{url}/result", "/api/v1/director/pair"
        # (a board with no result yet is entered, as `tournament result --board` enters it: refused as there)
        _check(client, "POST", result, director, {"scores": {"NS": 30, "EW": 30}, "board": 1}, "board 1:")
        _check(client, "POST", pair, director, {}, "is not finished")
        state = client.get(url, headers=_auth(token)).json()
        state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"}).json()
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend blocked NS 30 EW 0"})
        _confirm(client, url, token, r.json())
        board = {"scores": {"NS": 20, "EW": 0}, "board": 1}
        _check(client, "POST", result, director, {**board, "reason": None}, "give the reason for changing a result")
        _check(client, "POST", result, director, {**board, "board": 3, "reason": "slip"}, "not board 3")
        _check(client, "POST", result, director, {**board, "scores": {"NS": 21, "EW": 0}, "reason": "recount"},
               "board 1:")
        _check(client, "POST", result, director, {**board, "scores": {"NS": 2000, "EW": 0}, "reason": "recount"},
               "one hand cannot score above")
        _check(client, "POST", result, director, {"scores": {"NS": 20, "EW": 0}, "reason": "slip"}, "board by board")
        _check(client, "POST", f"{url}/result/clear", director, {"reason": "slip"}, "a duplicate table's results")
        _check(client, "POST", pair, director, {}, "is not finished")
    finally:
        server.close()


def test_a_number_in_a_spanish_refusal_is_grouped_the_spanish_way(desk) -> None:
    """The limit of a typed score, 1,000,000 in English, reads as Babel writes it for Spanish."""
    from babel.numbers import format_decimal

    client, director = desk
    en, es = _refused(client, "POST", "/api/v1/tables/1/1/result", director,
                      {"scores": {"NS": 2_000_000, "EW": 1}})
    assert en == "the score of NS, 2000000, is past the limit of 1,000,000 points a side; nothing was stored"
    spanish = format_decimal(1_000_000, locale="es")
    assert spanish != "1,000,000"
    assert es == f"el tanteo de NS, 2000000, pasa del límite de {spanish} puntos por lado; no se guardó nada"


def test_a_result_cleared_is_said_in_spanish(desk) -> None:
    """What the director's page says once a result is taken back, in the page's language."""
    client, director = desk
    es = {**_auth(director), "Accept-Language": "es"}
    r = client.post("/api/v1/tables/1/1/result", json={"scores": {"NS": 210, "EW": 150}}, headers=es)
    assert r.status_code == 200, r.text
    r = client.post("/api/v1/tables/1/1/result/clear", json={"reason": "wrong table"}, headers=es)
    assert r.status_code == 200, r.text
    said = r.json()["said"][-1]
    assert said == ("ronda 1, mesa 1: el resultado (NS 210, EW 150; manual) queda anulado — se guarda en el "
                    "registro de auditoría (`tournament history`); la mesa vuelve a jugar"), said
    assert not _english_words(said)

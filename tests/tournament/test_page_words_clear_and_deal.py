"""Two refusals in the words of whoever reads them.  The director's page taking back a result
that is not there said the command line's "(enter it with `tournament result`)": it names the
page's own *Save the result* (the command line keeps its words).  A deal line typed while a hand is
in play (the next hand's, typed too soon) said only "1:1: deal comes before the hand's first
move": it says the next hand's deal is typed once this hand is played (docs/venue.md, "One
hand's deal a post"), its line and column kept."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.fixture
def broadway(tmp_path):
    path = _event(tmp_path, "broadway")
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, client, links["tables"][0]["token"], _key(links["director"])
    server.close()


@pytest.mark.parametrize("lang, words", [
    ("en", "round 1 table 1 has no result to take back: enter one with Save the result; nothing was changed"),
    ("es", "la ronda 1, mesa 1 no tiene resultado que anular: introduzca uno con Guardar el resultado; no se cambió "
           "nada")])
def test_the_directors_page_taking_back_no_result_names_its_own_button(broadway, lang, words):
    path, client, _, director = broadway
    r = client.post("/api/v1/tables/1/1/result/clear", headers={**_auth(director), "Accept-Language": lang},
                    json={"reason": "typed at the wrong table"})
    assert r.status_code == 422 and r.json()["error"] == words, r.json()
    assert "tournament" not in r.json()["error"]


def test_the_command_line_keeps_its_own_words(broadway):
    path, *_ = broadway
    r = CliRunner().invoke(app, ["clear", str(path), "--round", "1", "--table", "1", "--reason", "typed wrong"])
    assert r.exit_code != 0 and "has no result to clear (enter it with `tournament result`)" in r.output, r.output


@pytest.mark.parametrize("lang, words", [
    ("en", "1:1: deal comes before the hand's first move: the next hand's deal is typed once hand 1 is played"),
    ("es", "1:1: deal va antes de la primera jugada de la mano: la línea deal de la mano siguiente se escribe una "
           "vez jugada la mano 1")])
def test_a_deal_typed_mid_hand_says_the_next_hands_deal_waits_for_this_one(broadway, lang, words):
    path, client, token, _ = broadway
    texts = _requests(_game_of(path, 1, 1, 5))
    first_move = next(k for k, t in enumerate(texts) if not t.startswith(("hand", "deal")))
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    for text in texts[:first_move + 1]:  # hand 1's line, its deal and its first move
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, r.json()
        state = r.json()
    assert state["game"]["in_hand"]
    r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": lang},
                    json={"rev": state["rev"], "text": "deal N 6-2 2-0 4-4 6-4 5-2 5-3 0-0"})
    assert r.status_code == 422 and r.json()["error"] == words, r.json()
    assert (r.json()["line"], r.json()["column"]) == (1, 1)

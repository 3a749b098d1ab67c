"""A result entered over a game in progress on the table's phone (a move or a confirmation taken
from it): `tournament result --score` (or a record, or a forfeit) is refused in one line, nothing
stored, as `swap` and `move` refuse to reseat such a table, unless `--replace` says to enter it
over the phone's game; the director's page likewise unless a reason is given.  Before, the result
was stored without a word and the phone was told its game was "confirmed" (the same library
call, tournament.event.results, from both)."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app
from tournament.event import results
from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.fixture
def served(tmp_path):
    """A horse-race event (one table of three) and a competitive one (two tables), each served in
    process: (path, server, client, table 1's key, the director's key) by the event's key."""
    made = {}
    for key in ("horse-race", "competitive"):
        path = _event(tmp_path, key)
        server = _server(path)
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        made[key] = (path, server, client, links["tables"][0]["token"], _key(links["director"]))
    yield made
    for _, server, *_ in made.values():
        server.close()


def _hands(client, token: str, texts: list[str], rev: int) -> dict:
    state = {}
    for text in texts:
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": rev, "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
        rev = state["rev"]
    return state


def _two_hands(path, client, token) -> dict:
    """Table 1 in play-by-play mode with its first two hands posted through the venue's API."""
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    state = client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "play"}).json()
    whole = hand_by_hand(_requests(_game_of(path, 1, 1, seed=5)))
    state = _hands(client, token, whole[:2], state["rev"])
    assert state["status"] == "playing" and len(state["game"]["hands"]) >= 2
    return state


def _cli(*args: str):
    return CliRunner().invoke(app, list(args))


def test_the_command_line_refuses_a_score_over_a_game_in_progress_on_the_phone(served):
    path, server, client, token, _ = served["horse-race"]
    before = _two_hands(path, client, token)
    r = _cli("result", str(path), "--table", "1", "--score", "P1=61,P2=3,P3=2")
    assert r.exit_code == 1, r.output
    said = r.output.strip()
    assert "\n" not in said and said.endswith(
        "round 1 table 1 has a game in progress on its table phone: let the table finish it and confirm it there, "
        "or give --replace to enter this result over it (its moves stay in the venue's log); nothing was stored"), said
    # A record of another game, a forfeit: refused the same way; nothing stored.
    r = _cli("result", str(path), "--table", "1", "--absent", "#1")
    assert r.exit_code == 1 and "has a game in progress on its table phone" in r.output, r.output
    store = open_event(path)
    assert store.results() == {}
    store.close()
    # The phone's game goes on: its state is as it was, and its next move is taken.
    now = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert now["status"] == "playing" and now["rev"] == before["rev"] and now["result"] is None
    whole = hand_by_hand(_requests(_game_of(path, 1, 1, seed=5)))
    assert _hands(client, token, whole[2:3], now["rev"])["status"] in ("playing", "waiting")


def test_replace_enters_the_score_over_the_phones_game_and_the_phone_says_whose(served):
    path, server, client, token, _ = served["horse-race"]
    _two_hands(path, client, token)
    r = _cli("result", str(path), "--table", "1", "--score", "P1=61,P2=3,P3=2", "--replace")
    assert r.exit_code == 0, r.output
    assert "round 1 table 1: P1 61, P2 3, P3 2; winner P1 (manual entry, unverified) — stored" in r.output
    now = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert now["status"] == "confirmed" and now["result"]["scores"] == {"P1": 61, "P2": 3, "P3": 2}
    assert now["result"]["via"] is None  # (the command line's: the page says "result entered by the director")


def test_the_library_refuses_a_table_waiting_for_its_confirmations_and_takes_it_with_replace(served):
    """A Competitive table whose finished game waits for its confirmations."""
    path, server, client, token, _ = served["competitive"]
    record = _game_of(path, 1, 1, seed=5)
    state = _hands(client, token, hand_by_hand(_requests(record)), 0)
    assert state["status"] == "waiting"
    r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "NS"})
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.json()
    store = open_event(path)
    try:
        with pytest.raises(results.GameOnPhone, match=r"^round 1 table 1 has a game in progress on its table phone"):
            results.enter_manual(store, 1, {"NS": 200, "EW": 10})
        with pytest.raises(results.GameOnPhone):
            results.enter_forfeit(store, 1, ("EW",))
        assert store.results() == {}
        # The other table, whose phone has done nothing, takes a typed score as before.
        assert results.enter_manual(store, 2, {"NS": 120, "EW": 80}).status == results.STORED
        assert results.enter_manual(store, 1, {"NS": 200, "EW": 10}, replace=True).status == results.STORED
    finally:
        store.close()
    r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"] + 1, "side": "EW"})
    assert r.status_code == 409 and "only the director" in r.json()["error"], r.json()


@pytest.mark.parametrize("lang, words", [
    ("en", "round 1 table 1 has a game in progress on its table phone: let the table finish it and confirm it "
           "there, or give the reason for entering this result over it; nothing was stored"),
    ("es", "la ronda 1, mesa 1 tiene una partida en curso en el teléfono de la mesa: deje que la mesa la termine y "
           "la confirme allí, o indique el motivo para introducir este resultado por encima de ella; no se guardó "
           "nada")])
def test_the_directors_page_needs_a_reason_to_enter_a_result_over_the_phones_game(served, lang, words):
    path, server, client, token, director = served["horse-race"]
    before = _two_hands(path, client, token)
    url = "/api/v1/tables/1/1/result"
    r = client.post(url, headers={**_auth(director), "Accept-Language": lang},
                    json={"scores": {"P1": 61, "P2": 3, "P3": 2}})
    assert r.status_code == 422 and r.json()["error"] == words, r.json()
    now = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert now["status"] == "playing" and now["rev"] == before["rev"] and now["result"] is None
    r = client.post(url, headers=_auth(director),
                    json={"scores": {"P1": 61, "P2": 3, "P3": 2}, "reason": "the game stopped at the break"})
    assert r.status_code == 200, r.json()
    now = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    assert now["status"] == "confirmed" and now["result"]["via"] == "director"
    assert now["result"]["scores"] == {"P1": 61, "P2": 3, "P3": 2}

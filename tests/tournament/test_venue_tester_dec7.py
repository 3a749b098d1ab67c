"""What the tester of Dec 7's club night found at the venue, without a browser (the page's side is
tests/tournament/test_venue_tester_dec7_browser.py):

* a game whose hand 1 is recorded move by move and whose later hands are typed as score-sheet lines
  (``hand 2 lead W`` / ``end out NS 0 EW 36``) was stored and shown as a verified record (the phone's
  line, ``tournament tables``, the export, ``check`` without a word) while ``domrec validate`` and the
  replay page say "scores only for hands 2 … : their play was not replayed"; now every place agrees
  with the validator: scores only, and ``check`` warns naming the hands not replayed;
* a game stored so before, as a verified record, is named by ``check``, and ``tournament amend`` with
  its own record stores it again as scores only (it answered "already stored; nothing changed");
* the director's overview says why *Pair the next round* is greyed while a table is not confirmed
  (``waits``), in the words its tap is refused with, in English and in Spanish."""

from __future__ import annotations

import json
import sqlite3

import attrs
import pytest
from typer.testing import CliRunner

from domrec.reader import loads
from domrec.session import requests_for
from domrec.validate import validate
from tournament import open_event
from tournament.cli import app
from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def _mixed(record):
    """The game with hand 1 as played and every later hand by its score alone (a score sheet)."""
    return attrs.evolve(record, hands=(record.hands[0],) + tuple(
        attrs.evolve(h, deal=None, moves=()) for h in record.hands[1:]))


@pytest.fixture
def mixed_game(tmp_path):
    """Round 1 table 1 with the mixed game sent through the table's API, hand 1 a move a request and
    each later hand as its two score-sheet lines, then confirmed by both sides (the phone's words in
    ``said``); the event's path, the server, its client, the table's key and the confirmation."""
    path = _event(tmp_path, "competitive")
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    token = links["tables"][0]["token"]
    record = _mixed(_game_of(path, 1, 1, seed=5))
    assert len(record.hands) > 2
    url = "/api/v1/tables/1/1"
    state = client.get(url, headers=_auth(token)).json()
    for text in requests_for(record, keep_deal=True):  # (a move a request; a later hand's two lines apart)
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
    assert state["game"]["over"], state["game"]
    for side in state["sides"]:
        r = client.post(f"{url}/confirm", headers={**_auth(token), "Accept-Language": "es"},
                        json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.json()
        state = r.json()
    yield path, server, client, token, state, record
    server.close()


def test_a_game_with_hands_typed_by_their_scores_is_scores_only_everywhere(mixed_game):
    path, server, client, token, state, record = mixed_game
    store = open_event(path)
    try:
        table = store.tables(1)[0]
        stored = store.result_for(table.id)
        text = store.record_text(stored.id)
    finally:
        store.close()
    verdict = validate(loads(text), "round 1 table 1").to_dict()
    assert verdict["scores_only"] and verdict["not_replayed"] == list(range(2, len(record.hands) + 1))
    # The phone's confirmation, in Spanish as the tester saw it: never "registro comprobado".
    said = state["said"][-1]
    assert "(solo los puntos)" in said and "comprobado" not in said, said
    assert state["result"]["scores_only"] and state["result"]["verified"] is False
    # The feed's round, the change log, the hall's tables.
    feed = next(t for t in client.get("/api/v1/rounds/1").json()["tables"] if t["table"] == 1)
    assert feed["result"]["scores_only"] and feed["result"]["verified"] is False
    entered = [c for c in client.get("/api/v1/changes").json()["changes"] if c["kind"] == "result_entered"]
    assert entered[-1]["data"]["scores_only"] and entered[-1]["data"]["verified"] is False
    assert "(scores only)" in client.get("/tables").text
    runner = CliRunner()
    # `tournament tables`, `tournament export`, `tournament check`.
    got = runner.invoke(app, ["tables", str(path), "--round", "1", "--wide"])
    assert got.exit_code == 0 and "(scores only)" in got.output, got.output
    out = path.parent / "export.json"
    got = runner.invoke(app, ["export", str(path), "-o", str(out)])
    assert got.exit_code == 0, got.output
    exported = json.loads(out.read_text())
    result = next(t for r in exported["rounds"] for t in r["tables"] if t["table"] == 1)["result"]
    assert result["verified"] is False and result["scores_only"] is True and result["kind"] == "record"
    got = runner.invoke(app, ["check", str(path)])
    last = len(record.hands)
    hands = "hands " + ", ".join(map(str, range(2, last))) + f" and {last}"  # (as validate says them)
    assert f"warning: round 1 table 1: scores only for {hands}: their play was not replayed" in got.output, got.output
    assert "0 errors, 1 warning" in got.output, got.output


def test_one_stored_as_a_verified_record_before_is_named_and_amended_with_its_own_record(mixed_game):
    path, server, client, token, state, record = mixed_game
    with sqlite3.connect(path) as db:  # as an event stored it before: a verified record, no note
        db.execute("UPDATE results SET note = NULL")
    store = open_event(path)
    try:
        text = store.record_text(store.result_for(store.tables(1)[0].id).id)
    finally:
        store.close()
    runner = CliRunner()
    got = runner.invoke(app, ["check", str(path)])
    assert "their play was not replayed; it is still shown as a verified record (stored before such games were " \
           "told apart): `tournament amend EVENT --round 1 --table 1` with its own record shows it as scores " \
           "only" in " ".join(got.output.split()), got.output
    game = path.parent / "game.json"
    game.write_text(text)
    got = runner.invoke(app, ["amend", str(path), str(game), "--round", "1", "--table", "1", "--reason", "scores only"])
    assert got.exit_code == 0, got.output
    assert "(scores only) — amended" in got.output, got.output
    got = runner.invoke(app, ["check", str(path)])
    assert "still shown" not in got.output and "their play was not replayed" in got.output, got.output
    got = runner.invoke(app, ["tables", str(path), "--round", "1", "--wide"])
    assert "(scores only)" in got.output, got.output


def test_a_game_played_move_by_move_throughout_is_still_a_verified_record(tmp_path):
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        for text in hand_by_hand(requests_for(_game_of(path, 1, 1, seed=5), keep_deal=True)):
            state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                                json={"rev": state["rev"], "text": text}).json()
        for side in state["sides"]:
            state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                                json={"rev": state["rev"], "side": side}).json()
        assert state["result"]["verified"] is True and not state["result"]["scores_only"]
        assert "(verified record)" in state["said"][-1]
    finally:
        server.close()
    got = CliRunner().invoke(app, ["check", str(path)])
    assert "0 errors, 0 warnings" in got.output, got.output


@pytest.mark.parametrize("lang, words", [
    ("en", "round 1 is not finished: tables 1, 2 have no confirmed result yet"),
    ("es", "la ronda 1 no ha terminado: las mesas 1, 2 aún no tienen resultado confirmado")])
def test_the_overview_says_why_the_next_round_waits(tmp_path, lang, words):
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        director = {**_auth(_key(links["director"])), "Accept-Language": lang}
        overview = client.get("/api/v1/director", headers=director).json()
        refused = client.post("/api/v1/director/pair", headers=director, json={})
        assert refused.status_code == 422 and not overview["can_pair"]
        # The words beside the greyed button are those its tap is refused with.
        assert overview["waits"] == refused.json()["error"] == words
        r = client.post("/api/v1/tables/1/1/result", headers=director, json={"scores": {"NS": 100, "EW": 50}})
        assert r.status_code == 200, r.json()
        overview = client.get("/api/v1/director", headers=director).json()
        assert overview["waits"] == words.replace("tables 1, 2 have", "table 2 has").replace(
            "las mesas 1, 2 aún no tienen", "la mesa 2 aún no tiene")
        r = client.post("/api/v1/tables/1/2/result", headers=director, json={"scores": {"NS": 100, "EW": 50}})
        assert r.status_code == 200, r.json()
        overview = client.get("/api/v1/director", headers=director).json()
        assert overview["can_pair"] and overview["waits"] is None
    finally:
        server.close()


def test_a_game_of_scores_alone_is_scores_only_and_check_gives_no_warning_for_it(tmp_path):
    """A table that records its game by its scores alone (every hand a score sheet, as *Scores only*
    makes it) is said scores only wherever it is shown; `check` gives it no warning of its own (one
    a table, for tables that chose so, was noise): only a game in part played is warned of."""
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        record = _game_of(path, 1, 1, seed=5)
        record = attrs.evolve(record, hands=tuple(attrs.evolve(h, deal=None, moves=()) for h in record.hands))
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        for text in requests_for(record, keep_deal=True):
            r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
            assert r.status_code == 200, (text, r.json())
            state = r.json()
        for side in state["sides"]:
            state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                                json={"rev": state["rev"], "side": side}).json()
        assert state["result"]["scores_only"] and state["result"]["verified"] is False, state["result"]
    finally:
        server.close()
    got = CliRunner().invoke(app, ["check", str(path)])
    assert "0 errors, 0 warnings" in got.output, got.output

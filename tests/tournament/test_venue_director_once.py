"""The director's page's own writes taken once by their id (``cid``), as a table's writes are
(``test_venue_outbox.py``): a result entered or taken back, a table's wrong PINs cleared, a new key,
the next round paired.  Sent again with the same id (the answer lost on its way back, the page
sending it again), each is answered what it was first answered and done once: a second "pair"
pairs no other round, a second "new key" makes no third key (the link just shown stays good), a
result sent again overwrites nothing entered since; a refusal is answered again; after the
server is killed (``kill -9``) and started again too.  Without an id, each is made as before."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.store import venue as venue_sql

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402
from tournament.web.openapi import OPENAPI  # noqa: E402

API = "/api/v1/tables/1/1"
SCORES = {"NS": 150, "EW": 90}


def _event(tmp_path: Path, players: int = 4) -> Path:
    path = tmp_path / "night.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"][:players])
    pair_next_round(store)
    store.close()
    return path


@pytest.fixture
def served(tmp_path):
    path = _event(tmp_path)
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    director = {"Authorization": "Bearer " + links["director"].rsplit("/", 1)[1]}
    yield path, server, client, director, links
    server.close()


def _comparable(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "request_id"}


def _thrice(client, where: str, body: dict, headers: dict, status: int = 200) -> dict:
    """The same write sent three times: answered three times alike; its first answer."""
    answers = [client.post(where, json=body, headers=headers) for _ in range(3)]
    assert [a.status_code for a in answers] == [status] * 3, answers[0].text
    assert len({json.dumps(_comparable(a.json()), sort_keys=True) for a in answers}) == 1, [a.text for a in answers]
    return answers[0].json()


def _count(path: Path, sql: str) -> int:
    store = open_event(path)
    try:
        return store.conn.execute(sql).fetchone()[0]
    finally:
        store.close()


def _wrong_pin(server, times: int = 1) -> None:
    """A table's wrong PINs, as a confirmation with a wrong PIN counts them."""
    def add() -> None:
        venue = server.venue
        with venue.lock, venue.store.write():
            venue_sql.upgrade_for_venue(venue.store)
            for _ in range(times):
                venue_sql.add_wrong_pin(venue.store, venue.store.tables(1)[0].id)
    server.call(add)


def test_a_result_sent_again_is_entered_once_and_overwrites_nothing_entered_since(served):
    path, server, client, director, _ = served
    first = _thrice(client, API + "/result", {"scores": SCORES, "cid": "desk-result-1"}, director)
    assert first["result"]["scores"] == SCORES and first["said"]
    # Another action meanwhile (the director corrects it): the first write sent again changes nothing.
    fixed = client.post(API + "/result", json={"scores": {"NS": 151, "EW": 90}, "reason": "sheet",
                                               "cid": "desk-result-2"}, headers=director)
    assert fixed.status_code == 200, fixed.text
    again = client.post(API + "/result", json={"scores": SCORES, "cid": "desk-result-1"}, headers=director)
    assert again.status_code == 200 and again.json()["said"] == first["said"]  # what was said of it...
    assert again.json()["result"]["scores"] == {"NS": 151, "EW": 90}  # ...with the table as it is now
    assert _count(path, "SELECT COUNT(*) FROM results") == 1
    assert _count(path, "SELECT COUNT(*) FROM result_audit") == 1  # amended once, by the second write


def test_a_result_taken_back_sent_again_clears_no_result_entered_since(served):
    path, server, client, director, _ = served
    client.post(API + "/result", json={"scores": SCORES}, headers=director)
    cleared = _thrice(client, API + "/result/clear", {"reason": "wrong table", "cid": "desk-clear-1"}, director)
    assert cleared["result"] is None and cleared["said"]
    entered = client.post(API + "/result", json={"scores": {"NS": 90, "EW": 150}, "cid": "desk-result-3"},
                          headers=director)
    assert entered.status_code == 200, entered.text
    again = client.post(API + "/result/clear", json={"reason": "wrong table", "cid": "desk-clear-1"}, headers=director)
    assert again.status_code == 200 and again.json()["said"] == cleared["said"]
    assert again.json()["result"]["scores"] == {"NS": 90, "EW": 150}  # still there


def test_wrong_pins_cleared_sent_again_are_answered_as_cleared(served):
    path, server, client, director, _ = served
    _wrong_pin(server, 2)
    cleared = _thrice(client, API + "/pins/clear", {"cid": "desk-pins-1"}, director)
    assert cleared["wrong"] == 0 and "2 wrong PINs cleared" in cleared["said"][0]
    # (sent once more without its id, it is judged again: there is nothing left to clear)
    assert client.post(API + "/pins/clear", json={}, headers=director).status_code == 422
    assert _count(path, "SELECT COUNT(*) FROM desk_log WHERE action = 'wrong_pins_cleared'") == 1


def test_a_new_key_sent_again_gives_the_same_link_and_makes_no_third_key(served):
    path, server, client, director, links = served
    old = links["tables"][0]["token"]
    made = _thrice(client, API + "/key", {"cid": "desk-key-1"}, director)
    assert made["url"].startswith("http://testserver/t/") and made["qr"].startswith("data:image/svg+xml")
    new = made["url"].rsplit("/", 1)[1]
    assert client.get(API, headers={"Authorization": f"Bearer {new}"}).status_code == 200  # the link shown opens
    assert client.get(API, headers={"Authorization": f"Bearer {old}"}).status_code == 403
    # Without an id, as before: each request a new key.
    other = client.post(API + "/key", json={}, headers=director).json()["url"]
    assert other != made["url"]


def test_the_next_round_paired_sent_again_is_the_same_round_not_another(served):
    path, server, client, director, _ = served
    client.post(API + "/result", json={"scores": SCORES}, headers=director)
    paired = _thrice(client, "/api/v1/director/pair", {"cid": "desk-pair-1"}, director)
    assert paired["round"] == 2 and paired["said"] == ["round 2 is paired"]
    store = open_event(path)
    try:
        assert store.last_round() == 2
    finally:
        store.close()
    # Round 2 finished, the first pairing sent again still answers round 2 and pairs nothing.
    client.post("/api/v1/tables/2/1/result", json={"scores": SCORES}, headers=director)
    again = client.post("/api/v1/director/pair", json={"cid": "desk-pair-1"}, headers=director)
    assert again.status_code == 200 and again.json()["round"] == 2
    assert client.post("/api/v1/director/pair", json={"cid": "desk-pair-2"}, headers=director).json()["round"] == 3


def test_a_refused_write_sent_again_is_refused_again(served):
    """A pairing refused while a table plays: the same write sent again once the table is in gets
    the same refusal (it was answered so), and a new tap (a new id) pairs."""
    path, server, client, director, _ = served
    refused = _thrice(client, "/api/v1/director/pair", {"cid": "desk-pair-early"}, director, status=422)
    assert refused["error"] == "round 1 is not finished: table 1 has no confirmed result yet"
    client.post(API + "/result", json={"scores": SCORES}, headers=director)
    again = client.post("/api/v1/director/pair?lang=es", json={"cid": "desk-pair-early"}, headers=director)
    assert again.status_code == 422 and again.json()["error"].startswith("la ronda 1 no ha terminado")
    assert client.post("/api/v1/director/pair", json={"cid": "desk-pair-later"}, headers=director).json()["round"] == 2


def test_an_id_sent_with_another_write_is_refused_in_one_line(served):
    path, server, client, director, links = served
    _wrong_pin(server)
    assert client.post(API + "/pins/clear", json={"cid": "desk-used-1"}, headers=director).status_code == 200
    other = client.post(API + "/key", json={"cid": "desk-used-1"}, headers=director)
    assert other.status_code == 422
    assert other.json()["error"] == '"cid" is the id of another write already: send this write with an id of its own'
    spanish = client.post(API + "/key?lang=es", json={"cid": "desk-used-1"}, headers=director)
    assert spanish.status_code == 422 and spanish.json()["error"].startswith('"cid" ya es')
    assert client.get(API, headers={"Authorization": "Bearer " + links["tables"][0]["token"]}).status_code == 200
    # ...and a table's own write sent with it
    table = {"Authorization": "Bearer " + links["tables"][0]["token"]}
    mode = client.post(API + "/mode", json={"rev": 0, "mode": "play", "cid": "desk-used-1"}, headers=table)
    assert mode.status_code == 422 and "another write" in mode.json()["error"]


@pytest.mark.parametrize("where", ["/result", "/result/clear", "/pins/clear", "/key"])
def test_a_malformed_id_is_one_clear_line(served, where):
    path, server, client, director, _ = served
    answer = client.post(API + where, json={"scores": SCORES, "reason": "x", "cid": "no"}, headers=director)
    assert answer.status_code == 422 and answer.json()["error"].startswith('"cid" must be')
    assert "Traceback" not in answer.text


def test_a_round_paired_by_its_id_can_still_be_unpaired(served):
    """The pairing's id is kept with the round's first table; ``tournament unpair`` takes it with
    the round, and the other ids its tables' writes were answered by (a phone's refused write's
    before this: the file's foreign keys then refused to let the round's tables go)."""
    from tournament.event import desk

    path, server, client, director, _ = served
    client.post(API + "/result", json={"scores": SCORES, "cid": "desk-result-9"}, headers=director)
    assert client.post("/api/v1/director/pair", json={"cid": "desk-pair-9"}, headers=director).status_code == 200
    key = client.post("/api/v1/tables/2/1/key", json={"cid": "desk-key-9"}, headers=director).json()["url"]
    # A phone's write refused (an old revision), its id kept with its refusal as ever: no row of the log.
    stale = client.post("/api/v1/tables/2/1/mode", json={"rev": 5, "mode": "play", "cid": "phone-stale-9"},
                        headers={"Authorization": "Bearer " + key.rsplit("/", 1)[1]})
    assert stale.status_code == 409, stale.text
    store = open_event(path)  # (the command line beside the server)
    try:
        assert desk.unpair(store) == 2 and store.last_round() == 1
        assert store.conn.execute("SELECT COUNT(*) FROM venue_writes").fetchone()[0] == 1  # round 1's result
    finally:
        store.close()


def test_openapi_documents_the_directors_write_ids():
    for path in ("tables/{round}/{table}/result", "tables/{round}/{table}/result/clear",
                 "tables/{round}/{table}/pins/clear", "tables/{round}/{table}/key", "director/pair"):
        body = OPENAPI["paths"][f"/api/v1/{path}"]["post"]["requestBody"]
        props = body["content"]["application/json"]["schema"]["properties"]
        assert "cid" in props and "again" in props["cid"]["description"], path


@pytest.mark.slow
def test_each_directors_write_sent_again_after_kill_9_and_a_restart_is_answered_alike(tmp_path):
    """A real ``tournament serve``: the five writes made, the server killed (``kill -9``) and started
    again, the five sent again with their ids: the same answers, nothing done twice."""
    httpx = pytest.importorskip("httpx")
    from tests.tournament import served as real

    from tournament.event import venue as vn

    path = _event(tmp_path)
    store = open_event(path)
    try:
        with store.write():  # a wrong PIN at table 1, to clear
            venue_sql.upgrade_for_venue(store)
            venue_sql.add_wrong_pin(store, store.tables(1)[0].id)
        links = vn.links(store, "http://127.0.0.1")
    finally:
        store.close()
    proc, base = real.serve_here(path)
    try:
        director = {"Authorization": "Bearer " + links["director"].rsplit("/", 1)[1]}
        writes = [(API + "/pins/clear", {"cid": "killed-pins-1"}),
                  (API + "/result", {"scores": SCORES, "cid": "killed-result-1"}),
                  (API + "/result/clear", {"reason": "wrong table", "cid": "killed-clear-1"}),
                  (API + "/result", {"scores": {"NS": 90, "EW": 150}, "cid": "killed-result-2"}),
                  (API + "/key", {"cid": "killed-key-1"}),
                  ("/api/v1/director/pair", {"cid": "killed-pair-1"})]
        first = []
        for where, body in writes:
            answer = httpx.post(base + where, json=body, headers=director, timeout=60)
            assert answer.status_code == 200, (where, answer.text)
            first.append(answer.json())
        real.stop(proc, kill=True)
        proc, base = real.serve_here(path)
        again = []
        for where, body in writes:
            answer = httpx.post(base + where, json=body, headers=director, timeout=60)
            assert answer.status_code == 200, (where, answer.text)
            again.append(answer.json())
    finally:
        real.stop(proc)
    for (where, _), one, two in zip(writes, first, again):
        assert one["said"] == two["said"], where
    assert again[4]["url"] == first[4]["url"] and again[4]["qr"] == first[4]["qr"]  # (the first server's address)
    assert _comparable(again[5]) == _comparable(first[5]) and again[5]["round"] == 2
    store = open_event(path)
    try:
        assert store.last_round() == 2
        assert [r.scores for r in store.results().values()] == [{"NS": 90, "EW": 150}]
        token = store.conn.execute("SELECT token FROM venue_tokens WHERE table_id = ?",
                                   [store.tables(1)[0].id]).fetchone()[0]
        assert first[4]["url"].endswith("/t/" + token)  # the link shown is the table's key: no third key
        counts = dict(store.conn.execute("SELECT action, COUNT(*) FROM desk_log GROUP BY action").fetchall())
        assert counts.get("wrong_pins_cleared") == 1
    finally:
        store.close()

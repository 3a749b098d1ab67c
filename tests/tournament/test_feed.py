"""The event's public feed through the venue server (an ASGI test client): every endpoint, the
change log read in pages, ETags and 304s, one-line refusals, a game in play never shown, a
finished game as JSON and as DGN (the same record), and ``tournament export`` giving the same data."""

from __future__ import annotations

import json

import pytest

from domrec import notation
from domrec.reader import loads

from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.event import changes as ch, feed
from tournament.event.results import record_hash

from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_cli import run
from tests.tournament.test_venue import _auth, _game_of, _play, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.fixture
def served(tmp_path):
    """A rotating event (8 players: two tables) with efectividad as a tie-break, round 1 paired, served."""
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club <night> & \"friends\"", "competitive", "rotating", seed=3,
                                             tiebreaks=("wins", "efectividad")))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "<b>Hal</b>"])
    pair_next_round(store)
    store.close()
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, server, client, links
    server.close()


def _one_line(r) -> str:
    body = r.json()
    assert set(body) == {"error", "request_id"} and "\n" not in body["error"] and "Traceback" not in r.text
    return body["error"]


def test_the_event_and_its_etag(served):
    path, server, client, links = served
    r = client.get("/api/v1/event")  # public: no key
    assert r.status_code == 200
    doc = r.json()
    assert doc["name"] == 'Club <night> & "friends"' and doc["game"] == "competitive"
    assert doc["feed_version"] == feed.FEED_VERSION and doc["status"] == "in progress"
    assert doc["current_round"] == 1 and doc["rounds_paired"] == 1 and doc["players"] == 8
    assert doc["rounds"] == [{"round": 1, "stage": 1, "label": "round 1", "tables": 2, "results": 0}]
    assert doc["stage"] is None and doc["champion"] is None and doc["tiebreaks"] == ["wins", "efectividad"]
    assert doc["latest_seq"] == server.call(ch.latest_seq, server.venue.store) > 0
    assert r.headers["cache-control"] == "public, no-cache" and r.headers["access-control-allow-origin"] == "*"
    tag = r.headers["etag"]
    again = client.get("/api/v1/event", headers={"If-None-Match": tag})
    assert again.status_code == 304 and again.headers["etag"] == tag and not again.content
    assert client.get("/api/v1/event", headers={"If-None-Match": "W/" + tag}).status_code == 304
    assert client.get("/api/v1/event", headers={"If-None-Match": '"other"'}).status_code == 200
    server.call(enter_manual, server.venue.store, 1, {"NS": 100, "EW": 50})
    moved = client.get("/api/v1/event", headers={"If-None-Match": tag})
    assert moved.status_code == 200 and moved.headers["etag"] != tag
    assert moved.json()["rounds"][0]["results"] == 1


def test_the_standings_name_the_events_columns(served):
    path, server, client, links = served
    server.call(enter_manual, server.venue.store, 1, {"NS": 100, "EW": 50})
    doc = client.get("/api/v1/standings").json()
    assert doc["tiebreaks"] == ["wins", "efectividad"] and "efectividad" in doc["ranked_by"]
    ranking = [c for c in doc["columns"] if c["ranks"]]
    assert [(c["key"], c["order"]) for c in ranking] == [("wins", 1), ("efectividad", 2)]
    assert all(c["about"] for c in ranking)
    assert all(set(row) == {c["key"] for c in doc["columns"]} for row in doc["standings"])
    assert doc["provisional"] and doc["missing"] == {"1": 1}
    assert any(row["name"] == "<b>Hal</b>" for row in doc["standings"])  # data, as typed (JSON, not markup)


def test_a_round_shows_status_and_never_a_game_in_play(served):
    path, server, client, links = served
    doc = client.get("/api/v1/rounds/1").json()
    assert [t["status"] for t in doc["tables"]] == ["not started", "not started"]
    assert doc["label"] == "round 1" and all(len(t["seats"]) == 4 and t["result"] is None for t in doc["tables"])
    record = _game_of(path, 1, 1, seed=2)
    token = links["tables"][0]["token"]
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    texts = _requests(record)
    while state["status"] != "playing":  # the first hand under way
        state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                            json={"rev": state["rev"], "text": texts.pop(0)}).json()
    assert client.get("/api/v1/rounds/1").json()["tables"][0]["status"] == "playing"
    r = client.get("/api/v1/games/1/1")
    assert r.status_code == 404 and "still in play" in _one_line(r)
    for text in hand_by_hand(texts):  # the rest of the hand, then each hand whole
        state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                            json={"rev": state["rev"], "text": text}).json()
    assert state["status"] == "waiting"
    doc = client.get("/api/v1/rounds/1").json()
    assert doc["tables"][0]["status"] == "waiting" and doc["tables"][0]["result"] is None
    r = client.get("/api/v1/games/1/1")  # over, but not confirmed: still not shown (no result yet)
    assert r.status_code == 404 and "still in play" in _one_line(r)
    assert "deal" not in client.get("/api/v1/rounds/1").text and "moves" not in client.get("/api/v1/event").text
    for side in ("NS", "EW"):
        state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                            json={"rev": state["rev"], "side": side}).json()
    table = client.get("/api/v1/rounds/1").json()["tables"][0]
    assert table["status"] == "confirmed" and table["result"]["kind"] == "record" and table["result"]["verified"]


def test_a_finished_game_as_json_and_as_dgn_is_one_record(served):
    path, server, client, links = served
    record = _game_of(path, 1, 1, seed=5)
    token = links["tables"][0]["token"]
    state = _play(client, token, 1, 1, record, whole_hands=True)
    for side in ("NS", "EW"):
        state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                            json={"rev": state["rev"], "side": side}).json()
    r = client.get("/api/v1/games/1/1")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    store = open_event(path)
    result = store.result_for(store.table(1, 1).id)
    assert r.text == store.record_text(result.id)  # the record as stored, byte for byte
    store.close()
    as_json = loads(r.content)
    assert record_hash(as_json) == result.record_hash and r.headers["etag"] == f'"{result.record_hash}-json"'
    d = client.get("/api/v1/games/1/1?format=dgn")
    assert d.status_code == 200 and d.headers["content-type"].startswith("text/plain")
    assert d.text.startswith("[Game") or d.text.lstrip().startswith("[")
    assert record_hash(notation.loads(d.text)) == record_hash(as_json)  # DGN reads back as the same record
    assert client.get("/api/v1/games/1/1?format=dgn", headers={"If-None-Match": d.headers["etag"]}).status_code == 304
    assert d.headers["etag"] != r.headers["etag"]
    r = client.get("/api/v1/games/1/1?format=xml")
    assert r.status_code == 422 and "json or dgn" in _one_line(r)


def test_refusals_are_one_line(served):
    path, server, client, links = served
    server.call(enter_manual, server.venue.store, 2, {"NS": 100, "EW": 50})
    cases = {"/api/v1/rounds/2": (404, "round 2 has not been paired"),
             "/api/v1/rounds/0": (404, "round 0 has not been paired"),
             "/api/v1/rounds/x1": (404, "no such round"),
             "/api/v1/games/1/9": (404, "round 1 has no table 9"),
             "/api/v1/games/7/1": (404, "round 7 has not been paired"),
             "/api/v1/games/1/2": (404, "no recorded game: its result is a score entered by hand"),
             "/api/v1/changes?since=abc": (422, "since must be a whole number"),
             "/api/v1/changes?since=-1": (422, "since must be a whole number"),
             "/api/v1/changes?since=99999": (422, "past this event's last change"),
             "/api/v1/changes?limit=0": (422, "limit must be a whole number, 1 or more (not 0)"),
             "/api/v1/changes?limit=-1": (422, "limit must be a whole number, 1 or more (not '-1')"),
             "/api/v1/changes?limit=%0a": (422, "limit must be a whole number")}
    for url, (status, words) in cases.items():
        r = client.get(url)
        assert r.status_code == status and words in _one_line(r), (url, r.text)
        assert r.headers["access-control-allow-origin"] == "*"


def test_the_change_log_in_pages(served):
    path, server, client, links = served
    for number in (1, 2):
        server.call(enter_manual, server.venue.store, number, {"NS": 100, "EW": 10 * number})
    whole = client.get("/api/v1/changes").json()
    latest = server.call(ch.latest_seq, server.venue.store)
    assert whole["since"] == 0 and whole["limit"] == 1000 and whole["latest"] == whole["next"] == latest
    assert [c["seq"] for c in whole["changes"]] == list(range(1, latest + 1))
    assert whole["changes"][0]["kind"] == "event_created" and whole["uuid"] == server.venue.store.uuid
    assert [c["kind"] for c in whole["changes"][-4:]] == ["result_entered", "table_status"] * 2
    assert whole["changes"][-1]["data"] == {"status": "confirmed"}
    got, since = [], 0
    while True:
        page = client.get(f"/api/v1/changes?since={since}&limit=3").json()
        assert page["limit"] == 3 and len(page["changes"]) <= 3
        got += page["changes"]
        if not page["changes"]:
            assert page["next"] == since == latest
            break
        since = page["next"]
    assert got == whole["changes"]
    tag = client.get(f"/api/v1/changes?since={latest}").headers["etag"]
    assert client.get(f"/api/v1/changes?since={latest}", headers={"If-None-Match": tag}).status_code == 304
    assert client.get("/api/v1/changes?limit=5000").json()["limit"] == 1000  # capped
    server.call(enter_manual, server.venue.store, 1, {"NS": 5, "EW": 10}, 1, True)  # replaced
    news = client.get(f"/api/v1/changes?since={latest}", headers={"If-None-Match": tag})
    assert news.status_code == 200 and [c["kind"] for c in news.json()["changes"]] == ["result_amended"]


def test_the_export_is_the_same_data(served, tmp_path):
    path, server, client, links = served
    server.call(enter_manual, server.venue.store, 1, {"NS": 100, "EW": 50})
    served_standings = client.get("/api/v1/standings").json()
    served_round = client.get("/api/v1/rounds/1").json()
    served_log = client.get("/api/v1/changes").json()["changes"]
    assert run("export", path, "-o", tmp_path / "club.json").exit_code == 0
    data = json.loads((tmp_path / "club.json").read_text(encoding="utf-8"))
    assert data["standings"] == served_standings and data["rounds"] == [served_round]
    assert data["changes"] == served_log and data["latest_seq"] == served_log[-1]["seq"]
    assert data["feed_version"] == feed.FEED_VERSION
    r = run("export", path, "-o", tmp_path / "csv", "--csv")
    assert r.exit_code == 0 and "changes" in r.output
    lines = (tmp_path / "csv" / "changes.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "seq,at,kind,round,table,data" and len(lines) == 1 + len(served_log)

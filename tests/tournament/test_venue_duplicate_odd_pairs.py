"""An odd number of duplicate pairs at the venue (docs/duplicate.md, "Movements"): five pairs play
a 3-table Mitchell with a phantom EW pair 6, so each round one NS pair sits out and its table is no
table of the round.  The venue serves only the tables played (links, phones; the sit-out table's
number is a gap: round 2 plays tables 2 and 3, round 3 tables 1 and 3); a table's page says where
each pair goes next, and a pair that sits out the next round is told so; the hall's pages say who
sits out (Find your table, the round's tables, the pair's card, the feed's round); the standings
agree with matchpoints and IMPs recomputed here."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_matchpoints import rescored
from tests.tournament.test_venue_duplicate import _auth, _play_board, _seated, served
from tournament.pairing import boards as B, matchpoints as P

pytest.importorskip("starlette.testclient")

PAIRS, TABLES, PER_ROUND = 5, 3, 2
#: Round -> (the NS pair that sits out, its table): the phantom, EW pair 6, starts at table 3 and moves up.
SITS_OUT = {1: 3, 2: 1, 3: 2}


@pytest.fixture
def venue(tmp_path: Path):
    event = tmp_path / "odd.db"
    new_event(event, PAIRS, "mitchell")
    yield from served(event, TABLES * PER_ROUND, 5)


def test_five_pairs_at_the_venue(venue) -> None:
    event, server, client = venue
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    rng = random.Random(5)
    played = []
    for round_no in range(1, TABLES + 1):
        out = SITS_OUT[round_no]
        playing = [t for t in range(1, TABLES + 1) if t != out]
        links = server.call(server.venue.links, "http://testserver")
        assert [link["table"] for link in links["tables"]] == playing, "only the tables played, by their numbers"
        seated = _seated(server, round_no)
        assert [t["table"] for t in seated] == playing
        assert all(out not in t["pairs"].values() for t in seated)
        # the sit-out table has no phone: the director's key finds no such table
        assert client.get(f"/api/v1/tables/{round_no}/{out}", headers=_auth(director)).status_code == 404
        # the hall says who sits out, before a board is played
        feed = client.get(f"/api/v1/rounds/{round_no}").json()
        assert feed["sits_out"]["pair"] == out and feed["sits_out"]["table"] == out
        assert [t["table"] for t in feed["tables"]] == playing
        assert f"Pair {out} Pair {out} sits out this round (table {out} is not played)." in client.get("/tables").text
        index = client.get("/").text
        assert index.count("sits out this round") == 2  # both players of the pair
        assert "no juega esta ronda" in client.get("/", headers={"Accept-Language": "es"}).text
        assert f"Sits out round {round_no}" in client.get(f"/pairs/{out}").text
        for link in links["tables"]:
            url, token = f"/api/v1/tables/{round_no}/{link['table']}", link["token"]
            doc = next(t for t in seated if t["table"] == link["table"])
            state = client.get(url, headers=_auth(token)).json()
            assert state["boards"] == doc["boards"]
            for number in doc["boards"]:
                assert state["board"] == number
                state = _play_board(client, url, token, state, rng)
            assert state["status"] == "confirmed"
            for b in state["result"]["boards"]:
                played.append(P.TableResult(b["board"], doc["pairs"]["NS"], doc["pairs"]["EW"], b["NS"], b["EW"]))
        r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
        if round_no == TABLES:
            assert r.status_code in (409, 422) and "rounds" in r.json()["error"]
            continue
        assert r.status_code == 200, r.text
        # where next: the pair sitting out the next round is told so, the others their table and boards
        following = _seated(server, round_no + 1)
        coming = SITS_OUT[round_no + 1]
        for t in seated:
            state = client.get(f"/api/v1/tables/{round_no}/{t['table']}", headers=_auth(director)).json()
            for seat, where in state["next"]["seats"].items():
                pair = t["pairs"]["NS" if seat in ("N", "S") else "EW"]
                if pair == coming:
                    assert where == {"sits_out": True}
                else:
                    there = next(x for x in following if x["table"] == where["table"])
                    assert pair in there["pairs"].values() and where["boards"] == there["boards"]
    assert len(played) == TABLES * (TABLES - 1) * PER_ROUND
    # every board is played at the tables that play it: its deal shows once the last has
    for number in boards:
        assert 'id="deal"' in client.get(f"/boards/{number}").text
    doc = json.loads(run("standings", event, "--json"))
    expected = rescored(played)
    assert {r["pair"]: [r["matchpoints"], r["top"], r["imps"]] for r in doc["pairs"]} == dict(expected)
    assert client.get("/api/v1/standings").json()["pairs"] == doc["pairs"]
    assert set(r["pair"] for r in doc["pairs"]) == set(range(1, PAIRS + 1))

"""One notion of a table under way (tournament.event.table_log.started): the first line recorded at
the table (its first hand's line, with a lead draw or part of a deal, or Castle Rock's hand waiting
for its row) makes it ``playing`` in the table's own state, the director's overview and the feed,
and is what a result entered over it, or ``unpair``, is refused for.  Before, such a table was
"not started" everywhere (its lead drawn, "last move" shown beside it) while a director's result
for it was refused as over "a game in progress on its table phone"; and a hand typed and taken
back whole (nothing of it left) still refused a result that every view called not started."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app
from tests.tournament.test_teams import write_csv
from tests.tournament.test_venue import EVENTS, _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

#: The first line of each game's first hand, as a phone sends it: a lead drawn where the game's
#: seats draw one (a partnership game's N), the hand's line alone elsewhere.
FIRST_LINE = {"competitive": "hand 1 lead N", "broadway": "hand 1 lead N", "horse-race": "hand 1",
              "castle-rock": "hand 1", "domino-roads": "hand 1"}


def _served(path):
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    return server, client, links


def _views(client, links, round_no: int, table_no: int) -> tuple[str, str, str]:
    """The table's status in its own state, in the director's overview and in the feed."""
    token = next(t["token"] for t in links["tables"] if (t["round"], t["table"]) == (round_no, table_no))
    own = client.get(f"/api/v1/tables/{round_no}/{table_no}", headers=_auth(token)).json()["status"]
    row = next(t for t in client.get("/api/v1/director", headers=_auth(_key(links["director"]))).json()["tables"]
               if t["table"] == table_no)
    fed = next(t for t in client.get(f"/api/v1/rounds/{round_no}").json()["tables"] if t["table"] == table_no)
    return own, row["status"], fed["status"]


def _write(client, token: str, round_no: int, table_no: int, path: str, body: dict) -> dict:
    url = f"/api/v1/tables/{round_no}/{table_no}"
    rev = client.get(url, headers=_auth(token)).json()["rev"]
    r = client.post(f"{url}/{path}", headers=_auth(token), json={"rev": rev, **body})
    assert r.status_code == 200, r.json()
    return r.json()


@pytest.mark.parametrize("game", sorted(EVENTS))
def test_the_first_line_at_the_table_is_playing_in_every_view_and_holds_a_result_off(tmp_path, game):
    path = _event(tmp_path, game)
    server, client, links = _served(path)
    try:
        token = links["tables"][0]["token"]
        director = _auth(_key(links["director"]))
        _write(client, token, 1, 1, "mode", {"mode": "play"})
        assert _views(client, links, 1, 1) == ("not started",) * 3  # a mode chosen is no line of the game
        state = _write(client, token, 1, 1, "dgn", {"text": FIRST_LINE[game]})
        assert not state["game"]["hands"]  # nothing dealt yet
        assert _views(client, links, 1, 1) == ("playing",) * 3
        row = client.get("/api/v1/director", headers=director).json()["tables"][0]
        assert row["reached"] == {"hand": 1, "move": 0} and row["progress"] == "hand 1, move 0"
        sides = state["sides"]
        r = client.post("/api/v1/tables/1/1/result", headers=director,
                        json={"scores": {s: 10 * (k + 1) for k, s in enumerate(sides)}})
        assert r.status_code == 422 and "has a game in progress on its table phone" in r.json()["error"], r.json()
    finally:
        server.close()


@pytest.mark.parametrize("game", sorted(EVENTS))
def test_a_first_line_taken_back_is_not_started_anywhere_and_takes_a_result(tmp_path, game):
    path = _event(tmp_path, game)
    server, client, links = _served(path)
    try:
        token = links["tables"][0]["token"]
        director = _auth(_key(links["director"]))
        _write(client, token, 1, 1, "dgn", {"text": FIRST_LINE[game]})
        state = _write(client, token, 1, 1, "dgn", {"text": "undo"})
        assert state["status"] == "not started", state["game"]
        assert _views(client, links, 1, 1) == ("not started",) * 3
        sides = state["sides"]
        r = client.post("/api/v1/tables/1/1/result", headers=director,
                        json={"scores": {s: 10 * (k + 1) for k, s in enumerate(sides)}})
        assert r.status_code == 200, r.json()
        assert client.get("/api/v1/tables/1/1", headers=_auth(token)).json()["status"] == "confirmed"
    finally:
        server.close()


def _cli(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


@pytest.mark.parametrize("fmt", ["teams", "pairs"])
def test_a_pairs_or_team_event_round_two_table_with_its_lead_drawn(tmp_path, fmt):
    """The tester's case: round 2 table 1 of a cuartetas event (and of a pairs event), the lead
    drawn at its phone: playing in every view, and the command line's result and ``unpair``
    refused for it alike."""
    path = tmp_path / "e.db"
    if fmt == "teams":
        assert _cli("new", path, "--name", "Cuartetas", "--game", "competitive", "--format", "teams",
                    "--team-size", "4", "--seed", "5").exit_code == 0
        assert _cli("add", path, "--csv", write_csv(tmp_path / "p.csv", 4)).exit_code == 0
    else:
        assert _cli("new", path, "--name", "Parejas", "--game", "competitive", "--format", "pairs").exit_code == 0
        for k in range(4):
            assert _cli("add", path, f"A{k}", f"B{k}").exit_code == 0
    assert _cli("pair", path).exit_code == 0
    store = open_event(path)
    first = [t.number for t in store.tables(1)]
    store.close()
    for table in first:
        r = _cli("result", path, "--round", 1, "--table", table, "--score", "NS=200,EW=100")
        assert r.exit_code == 0, r.output
    assert _cli("pair", path).exit_code == 0
    server, client, links = _served(path)
    try:
        token = next(t["token"] for t in links["tables"] if (t["round"], t["table"]) == (2, 1))
        _write(client, token, 2, 1, "mode", {"mode": "play"})
        _write(client, token, 2, 1, "dgn", {"text": "hand 1 lead N"})
        assert _views(client, links, 2, 1) == ("playing",) * 3
        assert _views(client, links, 2, 2) == ("not started",) * 3
    finally:
        server.close()
    r = _cli("result", path, "--round", 2, "--table", 1, "--score", "NS=200,EW=100")
    assert r.exit_code == 1 and "round 2 table 1 has a game in progress on its table phone" in r.output, r.output
    r = _cli("unpair", path)
    assert r.exit_code != 0 and "round 2 table 1 has a game in progress on its table phone" in r.output, r.output

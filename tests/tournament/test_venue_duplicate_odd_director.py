"""An odd number of duplicate pairs, and boards marked not played, as the director's desk and a
table's state say them (docs/duplicate.md, "At the venue"; docs/venue.md).  The director's
overview names the pair sitting the round out (``sits_out``: its number, name, players and the
table not played), as the feed's round does; before, the overview said nothing and the page showed
a silent gap in its tables.  A table's state lists its boards marked not played (``not_played``),
the server's and the phone's engine's alike, so that the page counts the boards the table plays
(*Board 1 (1 of 1 this round)*), not the round's boards done."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue_duplicate import PHRASES, _auth, served
from tournament.event import phone

pytest.importorskip("starlette.testclient")


@pytest.fixture
def odd(tmp_path: Path):
    """Five pairs, a 3-table Mitchell (phantom EW pair 6), 2 boards a table, round 1 seated: pair 3
    sits out at table 3."""
    event = tmp_path / "odd.db"
    new_event(event, 5, "mitchell")
    yield from served(event, 6, 38)


def _director(server) -> str:
    return server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]


def test_the_directors_overview_names_the_pair_sitting_out(odd) -> None:
    event, server, client = odd
    director = _director(server)
    view = client.get("/api/v1/director", headers=_auth(director)).json()
    assert [t["table"] for t in view["tables"]] == [1, 2]
    assert view["sits_out"] == {"pair": 3, "name": "Pair 3", "table": 3, "players": ["North 3", "South 3"]}
    assert view["sits_out"] == {k: (v if k != "players" else [p["name"] for p in v])
                                for k, v in client.get("/api/v1/rounds/1").json()["sits_out"].items()}
    # Round 2 (every board of round 1 marked not played, to get there): pair 1 sits out, at table 1.
    for table in (1, 2):
        for board in client.get(f"/api/v1/rounds/1").json()["tables"][table - 1]["boards"]:
            run("result", event, "--round", 1, "--table", table, "--board", board, "--not-played", "--reason", "x")
    run("pair", event)
    view = client.get("/api/v1/director", headers=_auth(director)).json()
    assert view["round"] == 2 and view["sits_out"]["pair"] == 1 and view["sits_out"]["table"] == 1
    assert [t["table"] for t in view["tables"]] == [2, 3]


def test_an_even_field_has_no_one_sitting_out(tmp_path: Path) -> None:
    event = tmp_path / "even.db"
    new_event(event, 6, "mitchell")
    for _, server, client in served(event, 6, 38):
        assert client.get("/api/v1/director", headers=_auth(_director(server))).json()["sits_out"] is None


def test_a_tables_state_lists_its_boards_not_played_as_its_engine_does(odd) -> None:
    event, server, client = odd
    link = next(x for x in server.call(server.venue.links, "http://testserver")["tables"] if x["table"] == 1)
    url, token = "/api/v1/tables/1/1", link["token"]
    state = client.get(url, headers=_auth(token)).json()
    first, second = state["boards"]
    assert (state["board"], state["boards_played"], state["not_played"]) == (first, 0, [])
    # The round's second board marked not played: the table plays one board this round.
    run("result", event, "--round", 1, "--table", 1, "--board", second, "--not-played", "--reason", "time")
    state = client.get(url, headers=_auth(token)).json()
    assert (state["board"], state["boards_played"], state["not_played"]) == (first, 1, [second])
    log = client.get(f"{url}?log=1", headers=_auth(token)).json()["log"]
    offline = phone.answer(log, {"path": "state"}, sentences=PHRASES)["body"]
    assert (offline["board"], offline["boards_played"], offline["not_played"]) == (first, 1, [second])
    # A result entered beside the server on the first: confirmed, the board not played still said.
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=30,EW=0")
    state = client.get(url, headers=_auth(token)).json()
    assert state["status"] == "confirmed" and state["not_played"] == [second]
    assert state["result"]["boards"] == [{"board": first, "NS": 30, "EW": 0}]
    # Taken back, the mark is gone from the state.
    run("clear", event, "--round", 1, "--table", 1, "--board", second, "--reason", "played after all")
    assert client.get(url, headers=_auth(token)).json()["not_played"] == []

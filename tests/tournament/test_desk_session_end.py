"""The end of a duplicate session is said (the tester's evenings of Dec 7, finding 9).

After the movement's last round was played the director's page showed a greyed "Pair the next
round" and nothing else, and ``tournament info`` did not say the event was finished (the feed's
``/api/v1/event`` did); only ``tournament pair`` explained (``the 4-table mitchell has 4 rounds,
and all are seated``).  Now the director's overview carries ``finished``, that sentence in the
page's language, once every round is seated and played (None before), and ``tournament info``
ends with ``progress: finished`` (``in progress``, ``not started`` before)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_venue import _auth, _key, _server
from tournament.event import duplicate

starlette_testclient = pytest.importorskip("starlette.testclient")

OVER = "The session is over: the 3-table mitchell has 3 rounds, and all are seated."


def _overview(client, director: str, lang: str = "en") -> dict:
    r = client.get("/api/v1/director", headers={**_auth(director), "Accept-Language": lang})
    assert r.status_code == 200, r.text
    return r.json()


def _enter_round(server, event: Path, round_no: int) -> None:
    """Every board of the round's tables typed at the command line, beside the server."""
    for t in server.call(duplicate.table_boards, server.venue.store, round_no):
        for board in t.boards:
            run("result", event, "--round", round_no, "--table", t.table, "--board", board, "--score", "NS=30,EW=0")


def test_the_page_and_info_say_the_session_is_over(tmp_path: Path) -> None:
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    assert run("info", event).rstrip().endswith("progress: not started")
    run("pair", event)
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        for round_no in (1, 2, 3):
            seen = _overview(client, director)
            assert seen["finished"] is None and not seen["can_pair"]
            assert run("info", event).rstrip().endswith("progress: in progress")
            _enter_round(server, event, round_no)
            seen = _overview(client, director)
            if round_no < 3:
                assert seen["can_pair"] and seen["finished"] is None
                assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
        # Every round seated and played: said, in the words `tournament pair` refuses another with.
        seen = _overview(client, director)
        assert not seen["can_pair"] and seen["finished"] == OVER
        assert "the 3-table mitchell has 3 rounds, and all are seated" in run("pair", event, code=1)
        es = _overview(client, director, "es")["finished"]
        assert es == "La sesión ha terminado: el mitchell de 3 mesas tiene 3 rondas, y todas están sentadas.", es
        assert run("info", event).rstrip().endswith("progress: finished")
    finally:
        server.close()


def test_info_says_a_simulated_event_is_finished(tmp_path: Path) -> None:
    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "duplicate", "--tables", 3, "-q")
    assert run("info", event).rstrip().splitlines()[-1] == "progress: finished"

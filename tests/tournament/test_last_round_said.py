"""The end of an event whose rounds are all played, on the table's phone and for a team round robin
(a tester's duplicate evenings, Dec 7 afternoon):

* after a duplicate session's last round, a confirmed table's phone said "Where to go next: round
  4" and "Round 4 is not paired yet: where each of you sits will show here", for a round that
  never comes: its state's ``next`` now carries ``over``, the director's page's sentence ("The
  session is over: …"), in the page's language, and the page says "That was the last round";
* a duplicate teams round robin, its last round played: ``tournament pair`` answered what round 4
  would need ("round 4 plays boards 7 to 8; … tournament boards … --boards 8 or more"), advice
  that cannot be followed (the boards are fixed once round 1 is seated), where it now says the
  round robin's rounds are all played; ``tournament info`` said "in progress" forever (now
  "finished"), and the director's page offered *Pair the next round* (now greyed, with "The event
  is over: a round robin of 4 teams has 3 rounds, and all are seated.")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_desk_session_end import _overview
from tests.tournament.test_duplicate_event import run
from tests.tournament.test_venue import _auth, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

SESSION_OVER = "The session is over: the 3-table mitchell has 3 rounds, and all are seated."
SESSION_OVER_ES = "La sesión ha terminado: el mitchell de 3 mesas tiene 3 rondas, y todas están sentadas."
RR_OVER = "The event is over: a round robin of 4 teams has 3 rounds, and all are seated."
RR_OVER_ES = "El torneo ha terminado: una liguilla de 4 equipos tiene 3 rondas, y todas están sentadas."


def _table_state(client, token: str, round_no: int, table: int, lang: str = "en") -> dict:
    r = client.get(f"/api/v1/tables/{round_no}/{table}", headers={**_auth(token), "Accept-Language": lang})
    assert r.status_code == 200, r.text
    return r.json()


def test_a_duplicate_sessions_last_round_tells_its_tables_there_is_no_next(tmp_path: Path) -> None:
    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "duplicate", "--tables", 3, "-q")
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        assert _overview(client, _key(links["director"]))["finished"] == SESSION_OVER
        last = next(t for t in links["tables"] if t["round"] == 3)
        state = _table_state(client, last["token"], 3, last["table"])
        assert state["next"]["over"] == SESSION_OVER and not state["next"]["paired"]
        es = _table_state(client, last["token"], 3, last["table"], "es")
        assert es["next"]["over"] == SESSION_OVER_ES
    finally:
        server.close()


def test_an_earlier_round_of_a_session_says_nothing_of_its_end(tmp_path: Path) -> None:
    """A round before the last, its next round not yet paired: "not paired yet", as before."""
    event = tmp_path / "dup.db"
    from tests.tournament.test_desk_session_end import _enter_round
    from tests.tournament.test_duplicate_event import new_event

    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        _enter_round(server, event, 1)
        first = links["tables"][0]
        state = _table_state(client, first["token"], 1, first["table"])
        assert state["next"] == {"round": 2, "paired": False, "seats": {}}
    finally:
        server.close()


def _team_round_robin(tmp_path: Path, boards: int, played: int = 3) -> Path:
    """Four teams of two pairs, duplicate, a round robin of 3 rounds of 2 boards, the first
    ``played`` rounds paired with every board in."""
    event = tmp_path / "rr.db"
    run("new", event, "--name", "RR", "--game", "competitive", "--format", "teams", "--team-size", 4,
        "--duplicate", "--boards-per-round", 2, "--victory-points", "--team-pairing", "round-robin")
    for t in range(1, 5):
        run("team", event, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")
    run("boards", event, "--boards", boards, "--seed", 1)
    for round_no in range(1, played + 1):
        run("pair", event)
        for table in (1, 2, 3, 4):
            for board in (2 * round_no - 1, 2 * round_no):
                run("result", event, "--round", round_no, "--table", table, "--board", board, "--score",
                    "NS=30,EW=0" if table % 2 else "NS=0,EW=0")
    return event


@pytest.mark.parametrize("boards", [6, 8])
def test_a_team_round_robin_played_through_is_finished(tmp_path: Path, boards: int) -> None:
    event = _team_round_robin(tmp_path, boards)
    said = run("pair", event, code=1)
    assert "a round robin of 4 teams has 3 rounds; round 4 is one too many" in said, said
    assert "--boards" not in said  # (no advice to deal more boards: they are fixed once round 1 is seated)
    assert run("info", event).rstrip().splitlines()[-1] == "progress: finished"
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        director = _key(links["director"])
        seen = _overview(client, director)
        assert not seen["can_pair"] and seen["finished"] == RR_OVER
        assert _overview(client, director, "es")["finished"] == RR_OVER_ES
        last = next(t for t in links["tables"] if t["round"] == 3)
        assert _table_state(client, last["token"], 3, last["table"])["next"]["over"] == RR_OVER
    finally:
        server.close()


def test_a_team_round_robin_before_its_last_round_is_in_progress(tmp_path: Path) -> None:
    event = _team_round_robin(tmp_path, 6, played=2)
    assert run("info", event).rstrip().splitlines()[-1] == "progress: in progress"
    run("pair", event)  # its last round, seated and not played
    assert run("info", event).rstrip().splitlines()[-1] == "progress: in progress"

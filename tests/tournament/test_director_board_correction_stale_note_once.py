"""The director's page's board correction in a Swiss event of duplicate teams gives the note that
the next round "was paired on team standings this correction has changed" only when this
correction changed them (docs/duplicate.md), as ``amend`` and ``result --replace`` do (and now
the command line's board correction, ``result --board --replace``, too): the
standings the round was paired on are taken before the change (``desk.pairing_basis``).  Before,
a correction that changed nothing of them repeated an earlier correction's note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import run
from tests.tournament.test_venue_duplicate import _auth

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402

NOTE = "note: round 2 was paired on team standings this correction has changed"


@pytest.fixture
def swiss(tmp_path: Path):
    """Four teams, Swiss, victory points: round 1 played on boards 1-2, round 2 paired on it and
    unplayed; served: the event, the client and the director's key."""
    event = tmp_path / "swiss.db"
    run("new", event, "--name", "Swiss", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--duplicate", "--victory-points")
    for t in range(1, 5):
        run("team", event, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")
    run("boards", event, "--boards", 4, "--seed", 1)
    run("pair", event)
    for table in (1, 2, 3, 4):
        for board in (1, 2):
            run("result", event, "--round", 1, "--table", table, "--board", board, "--score",
                "NS=45,EW=0" if (table, board) in ((1, 1), (3, 1)) else "NS=0,EW=0")
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        yield event, client, links["director"].rsplit("/", 1)[1]
    finally:
        server.close()


def _ranked(event: Path) -> list[tuple]:
    """Each team's rank, victory points and IMPs, as the pairing reads them."""
    doc = json.loads(run("standings", event, "--json"))
    return [(r["team"], r["rank"], r["victory_points"], r["imps"]) for r in doc["teams"]]


def _correct(client, director: str, table: int, board: int, ns: int, ew: int, reason: str) -> list[str]:
    r = client.post(f"/api/v1/tables/1/{table}/result", headers=_auth(director),
                    json={"board": board, "scores": {"NS": ns, "EW": ew}, "reason": reason})
    assert r.status_code == 200, r.text
    return r.json()["said"]


def test_the_note_is_the_corrections_own(swiss) -> None:
    event, client, director = swiss
    # Table 1's home team now loses board 1 by 45: the standings round 2 was paired on changed.
    said = _correct(client, director, 1, 1, 0, 45, "misread the sheet")
    assert any(line.startswith(NOTE) for line in said), said
    # A second correction that changes nothing of those standings (a point more, the same IMPs and
    # victory points): no note, though the first one's change still stands.
    standings = _ranked(event)
    said = _correct(client, director, 1, 1, 0, 46, "one point more")
    assert _ranked(event) == standings
    assert not any(line.startswith(NOTE) for line in said), said
    # The command line's own correction of the same kind, `result --board --replace`, says it so too.
    out = run("result", event, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=0,EW=45", "--replace",
              "--reason", "misread")
    assert NOTE in out
    # ... and not for one that changes nothing of them (it repeated the earlier note too).
    standings = _ranked(event)
    out = run("result", event, "--round", 1, "--table", 3, "--board", 1, "--score", "NS=0,EW=46", "--replace",
              "--reason", "one point more")
    assert _ranked(event) == standings and NOTE not in out, out

"""A duplicate table whose board the director entered (the director's page, or ``tournament result
--board B --score``) with no hand played at its phone is under way, as one whose phone confirmed a
board is: the director's overview said it "not started".  Now its status is ``playing`` and, between
its boards, the overview says how many have their result (``reached``: ``{boards_in, boards}``,
the page's "1 of 2 boards in"), the same for a board confirmed at the phone; the table's own state
says ``playing`` too."""

from __future__ import annotations

import pytest

from tests.tournament.test_duplicate_event import run
from tests.tournament.test_venue import _auth

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue_duplicate_not_played import _post, dup  # noqa: E402,F401


def _row(client, director: str, number: int = 1) -> dict:
    tables = client.get("/api/v1/director", headers=_auth(director)).json()["tables"]
    return next(x for x in tables if x["table"] == number)


def test_a_fresh_table_is_not_started(dup) -> None:  # noqa: F811
    event, client, url, token, boards, director, server = dup
    row = _row(client, director)
    assert (row["status"], row["reached"], row["progress"]) == ("not started", None, "")


def test_a_board_entered_from_the_page_counts_as_a_board_in(dup) -> None:  # noqa: F811
    event, client, url, token, boards, director, server = dup
    first, second = boards
    r = _post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 30, "EW": 0}, "reason": None})
    assert r.status_code == 200, r.text
    row = _row(client, director)
    assert (row["status"], row["reached"], row["progress"]) == \
        ("playing", {"boards_in": 1, "boards": 2}, "1 of 2 boards in")
    assert client.get(url, headers=_auth(token)).json()["status"] == "playing"
    # Another table, untouched, is still not started.
    assert _row(client, director, 2)["status"] == "not started"


def test_a_board_entered_at_the_command_line_counts_as_a_board_in(dup) -> None:  # noqa: F811
    event, client, url, token, boards, director, server = dup
    first, _ = boards
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=0,EW=25")
    row = _row(client, director)
    assert (row["status"], row["reached"], row["progress"]) == \
        ("playing", {"boards_in": 1, "boards": 2}, "1 of 2 boards in")
    # The phone then starting its next board: the board it is on names where it is, as before.
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    row = _row(client, director)
    assert (row["status"], row["reached"]) == ("playing", {"board": state["board"], "move": 0})


def test_a_board_confirmed_at_the_phone_says_the_same(dup) -> None:  # noqa: F811
    event, client, url, token, boards, director, server = dup
    state = client.get(url, headers=_auth(token)).json()
    state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"}).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1\nend blocked NS 30 EW 0"})
    assert r.status_code == 200, r.text
    state = r.json()
    for side in ("NS", "EW"):
        r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.text
        state = r.json()
    row = _row(client, director)
    assert (row["status"], row["reached"], row["progress"]) == \
        ("playing", {"boards_in": 1, "boards": 2}, "1 of 2 boards in")


def test_every_board_entered_is_confirmed(dup) -> None:  # noqa: F811
    event, client, url, token, boards, director, server = dup
    for board in boards:
        run("result", event, "--round", 1, "--table", 1, "--board", board, "--score", "NS=30,EW=0")
    row = _row(client, director)
    assert row["status"] == "confirmed" and row["reached"] is None

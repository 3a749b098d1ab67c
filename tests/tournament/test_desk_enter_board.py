"""The director's page enters a duplicate board's first result, and shows how a board's hand ended
(the tester's evenings of Dec 7, findings 4, 5, 10 and 17).

Its "Enter or correct the result" only corrected: a board with no result yet was refused (``round 2
table 2 board 8 has no result yet: there is nothing to correct``) with no way named.  Now saving a
board with no result enters it through the command line's own operation (``tournament result EVENT
--round R --table T --board B --score NS=..,EW=..``: :func:`tournament.event.duplicate.enter_score`),
refused as there in one line; over the board the table's phone is playing, or one marked not
played, only with a reason (the command line's ``--replace --reason``).  The director's read of a
duplicate table gives each board's stored result with how its hand ended, and the ways a hand of
the game may end; a correction keeps the stored way unless the director picks another ("ended").
The overview names the board a duplicate table is on, and its "Last move" is no call's time."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import run
from tests.tournament.test_venue import _auth, _key

starlette_testclient = pytest.importorskip("starlette.testclient")
# The served 3-table Mitchell, and its helpers: one set-up for the director's board tests.
from tests.tournament.test_venue_duplicate_not_played import _post, _refused, dup  # noqa: E402,F401


def test_saving_a_board_with_no_result_enters_it_as_the_command_line_does(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards
    r = _post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 30, "EW": 0}, "reason": None})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [f"round 1 table 1 board {second}: NS 30, EW 0 (typed score, unverified) — stored"]
    # Stored as `tournament result --board B --score` stores it: the tables' count, the traveller.
    assert "1 of 2" in run("tables", event, "--round", 1)
    # The same again is the command line's "already stored": a correction now (a reason asked for).
    _refused(_post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 0, "EW": 28}}), 422,
             "give the reason for changing a result")
    # The table's phone moves on past it: its board is the first, one of two closed.
    phone = client.get(url, headers=_auth(token)).json()
    assert (phone["board"], phone["boards_played"]) == (first, 1)
    # Refused as the command line refuses a score no hand makes, nothing stored.
    _refused(_post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 30}}), 422,
             f"board {first}:")
    assert "1 of 2" in run("tables", event, "--round", 1)


def test_over_the_board_the_phone_is_playing_only_with_a_reason(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, _ = boards
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    said = _refused(_post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 0}}), 422,
                    f"table 1's phone is playing board {first}: let the table finish it and confirm it there, or "
                    f"give the reason for entering this result over it; nothing was stored")
    assert "--replace" not in said
    es = _refused(_post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 0}}, "es"),
                  422, f"el teléfono de la mesa 1 está jugando el tablero {first}")
    assert "phone" not in es
    r = _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 0},
                                                  "reason": "ran out of time"})
    assert r.status_code == 200, r.text
    phone = client.get(url, headers=_auth(token)).json()
    assert phone["boards_played"] == 1 and phone["board"] != first
    assert "ran out of time" in run("history", event)


def test_a_board_marked_not_played_is_entered_instead_with_a_reason(dup) -> None:
    event, client, url, token, boards, director, server = dup
    _, second = boards
    assert _post(client, f"{url}/result/not-played", director,
                 {"board": second, "reason": "ran out of time"}).status_code == 200
    _refused(_post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 30, "EW": 0}}), 422,
             f"round 1 table 1 board {second} is marked not played: give the reason for entering its result instead")
    _refused(_post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 30, "EW": 0}}, "es"), 422,
             f"la ronda 1, mesa 1, tablero {second} está marcado como no jugado")
    r = _post(client, f"{url}/result", director, {"board": second, "scores": {"NS": 30, "EW": 0},
                                                  "reason": "played it after all"})
    assert r.status_code == 200, r.text
    assert "not played" not in run("tables", event, "--round", 1)


def test_the_directors_read_says_how_each_board_ended_and_a_correction_may_change_it(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards
    fresh = client.get(url, headers=_auth(director)).json()
    assert fresh["board_results"] == [] and fresh["ends"] == ["out", "blocked"]
    # The table's own key reads none of it (the director's alone).
    assert "board_results" not in client.get(url, headers=_auth(token)).json()
    r = _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 46, "EW": 0}, "ended": "blocked"})
    assert r.status_code == 200, r.text
    run("result", event, "--round", 1, "--table", 1, "--board", second, "--score", "NS=0,EW=25")
    read = client.get(url, headers=_auth(director)).json()["board_results"]
    assert read == [{"board": first, "NS": 46, "EW": 0, "ended": "blocked"},
                    {"board": second, "NS": 0, "EW": 25, "ended": None}]
    # Corrected to an odd score, the stored block kept: refused as a block's (the page now shows it).
    _refused(_post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 47, "EW": 0},
                                                       "reason": "penalty"}), 422, "for a block")
    # The director says the hand went out: taken.
    r = _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 47, "EW": 0},
                                                  "reason": "penalty", "ended": "out"})
    assert r.status_code == 200, r.text
    read = client.get(url, headers=_auth(director)).json()["board_results"]
    assert read[0] == {"board": first, "NS": 47, "EW": 0, "ended": "out"}


def test_the_overview_names_the_board_and_a_call_is_no_move(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards

    def row(number: int) -> dict:
        tables = client.get("/api/v1/director", headers=_auth(director)).json()["tables"]
        return next(x for x in tables if x["table"] == number)

    state = client.get(url, headers=_auth(token)).json()
    assert client.post(f"{url}/call", headers=_auth(token), json={"rev": state["rev"]}).status_code == 200
    called = row(1)
    assert called["called"] and called["last_at"] is not None
    assert called["moved_at"] is None  # (the page's "Last move" was the call's time)
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    playing = row(1)
    assert playing["moved_at"] is not None
    assert playing["reached"] == {"board": first, "move": 0} and playing["progress"] == f"board {first}, move 0"


def test_a_duplicate_teams_board_is_entered_and_corrected_from_the_page(tmp_path: Path) -> None:
    """Duplicate teams too: saving entered nothing there, nor corrected (a board's result was refused
    as "entered board by board: tournament result …", the board named and all)."""
    from tests.tournament.test_duplicate_teams import new_event as new_teams
    from tests.tournament.test_venue_duplicate import served

    event = tmp_path / "teams.db"
    new_teams(event, 4, "--victory-points")
    for event, server, client in served(event, 6, 37):
        links = server.call(server.venue.links, "http://testserver")
        director = _key(links["director"])
        url = "/api/v1/tables/1/1"
        r = _post(client, f"{url}/result", director, {"board": 2, "scores": {"NS": 30, "EW": 0}})
        assert r.status_code == 200, r.text
        assert r.json()["said"][0] == "round 1 table 1 board 2: NS 30, EW 0 (typed score, unverified) — stored"
        r = _post(client, f"{url}/result", director, {"board": 2, "scores": {"NS": 0, "EW": 30}, "reason": "slip"})
        assert r.status_code == 200, r.text
        assert client.get(url, headers=_auth(director)).json()["board_results"] == \
            [{"board": 2, "NS": 0, "EW": 30, "ended": None}]
        assert "slip" in run("history", event)
        # A board the round does not play: refused in the command line's words.
        _refused(_post(client, f"{url}/result", director, {"board": 5, "scores": {"NS": 30, "EW": 0}}), 422,
                 "not board 5")


def test_a_table_waiting_for_confirmation_names_its_board(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, _ = boards
    state = client.get(url, headers=_auth(token)).json()
    state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"}).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"],
                                                              "text": "hand 1\nend blocked NS 30 EW 0"})
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
    tables = client.get("/api/v1/director", headers=_auth(director)).json()["tables"]
    row = next(x for x in tables if x["table"] == 1)
    assert (row["status"], row["reached"], row["progress"]) == ("waiting", {"board": first}, f"board {first}")

"""Fixes found by review (duplicate boards at the venue, the trail, the director's writes):

1. A duplicate table's ``table_status`` in the change log (``/api/v1/changes``) is ``confirmed``
   once every board is in (confirmed on its phone, or entered or marked not played by the
   director), as a whole game's confirmed result logs its own: it stayed ``playing``, and only
   the feed's rounds said the table was over.
2. A result entered over a phone that has only its first line (``hand 1``) is in the trail as
   *at hand 1, before its first move*, not *after hand 0, NS 0, EW 0 so far*.
3. A board's result the director entered over the phone's play, then taken back: the answer says
   the phone does not play it again and the director enters it (as a mark's taking back did).
4. Duplicate teams: a board's result at a table reads no table of the event beyond its round's
   when the board is marked elsewhere (another match): before, one mark of board 2 anywhere made
   every board-2 result read every table of the event.
7. A board marked not played (or taken back) from the director's page is done and its status
   logged in one step: no other writer of the file gets in between (before, a file taken there
   answered an error for a mark that was made, and the retry was refused "already marked").
8. ``serve``'s warning of links pointing elsewhere names ``--url``, not ``--port 443``, for links
   printed as ``https://`` (a proxy in front)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import run
from tournament.event import changes, duplicate
from tournament.event.files import open_event

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import _auth  # noqa: E402
from tests.tournament.test_venue_duplicate import _play_board  # noqa: E402
from tests.tournament.test_venue_duplicate_not_played import _post, dup  # noqa: E402,F401
from tests.tournament.test_director_board_entry_atomic import seated  # noqa: E402,F401
from tests.tournament.test_venue_live_result import served  # noqa: E402,F401


def _logged(client, table: int = 1) -> list[str]:
    """The ``table_status`` changes of round 1's ``table``, in order, as the change feed gives them."""
    doc = client.get("/api/v1/changes?since=0").json()
    return [c["data"]["status"] for c in doc["changes"]
            if c["kind"] == "table_status" and c.get("round") == 1 and c.get("table") == table]


def test_the_change_log_says_a_duplicate_table_confirmed_once_its_last_board_is_in(dup) -> None:
    import random

    event, client, url, token, boards, director, server = dup
    state = client.get(url, headers=_auth(token)).json()
    state = _play_board(client, url, token, state, random.Random(3))
    assert server.call(changes.table_status, server.venue.store, 1, 1) == "playing"
    state = _play_board(client, url, token, state, random.Random(4))
    assert state["status"] == "confirmed"
    assert server.call(changes.table_status, server.venue.store, 1, 1) == "confirmed"
    assert _logged(client)[-1] == "confirmed"


def test_the_directors_last_board_logs_the_table_confirmed_and_taking_it_back_playing(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, second = boards
    assert _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 0}}).status_code == 200
    assert _post(client, f"{url}/result/not-played", director,
                 {"board": second, "reason": "no time"}).status_code == 200
    assert server.call(changes.table_status, server.venue.store, 1, 1) == "confirmed"
    assert _logged(client)[-1] == "confirmed"
    assert _post(client, f"{url}/result/clear", director, {"board": second, "reason": "played"}).status_code == 200
    assert _logged(client)[-1] == "playing"


def test_a_result_over_a_phone_with_only_its_first_line_is_said_at_hand_1(served) -> None:
    path, server, client, token, director = served["competitive"]
    state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
    state = client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "play"}).json()
    r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = client.post("/api/v1/tables/1/1/result", headers=_auth(director),
                    json={"scores": {"NS": 120, "EW": 80}, "reason": "they stopped"})
    assert r.status_code == 200, r.text
    text = " ".join(run("history", path).split())
    assert ("entered over the game in progress on its phone (at hand 1, before its first move) — they stopped"
            in text), text
    assert "after hand 0" not in text


def test_taking_back_a_result_entered_over_the_phones_hand_says_it_is_to_enter(dup) -> None:
    event, client, url, token, boards, director, server = dup
    first, _ = boards
    state = client.get(url, headers=_auth(token)).json()
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result", director, {"board": first, "scores": {"NS": 30, "EW": 0},
                                                   "reason": "the phone broke"})
    assert r.status_code == 200, r.text
    r = _post(client, f"{url}/result/clear", director, {"board": first, "reason": "wrong table"})
    assert r.status_code == 200, r.text
    said = r.json()["said"]
    assert (f"table 1's phone does not play board {first} again (it was closed there): its result is to be "
            f"entered by the director") in said, said
    assert r.json()["to_enter"] == [first]


def test_a_mark_at_another_match_reads_not_every_table(tmp_path: Path, monkeypatch) -> None:
    from tests.tournament.test_duplicate_teams import new_event as new_teams_event
    from tournament.event import duplicate_teams
    from tournament.store import boards as board_sql

    event = tmp_path / "teams.db"
    new_teams_event(event, 4, "--victory-points")
    run("boards", event, "--boards", 6, "--seed", 37)
    run("pair", event)
    store = open_event(event)
    try:
        pairs = board_sql.match_tables(store)
        numbers = {t.id: t.number for t in store.tables(1)}
        one = store.table(1, 1)
        partner = numbers[pairs[one.id]]
        elsewhere = next(n for i, n in numbers.items() if i not in (one.id, pairs[one.id]))
        board = duplicate_teams.round_boards(store, 1)[0]
        duplicate.mark_not_played(store, 1, 1, board, "no time", "Desk")
        every: list[int] = []  # match_tables over the event's every table (not one round's)
        real = board_sql.match_tables

        def counted(store_, tables=None):
            if tables is None:
                every.append(1)
            return real(store_, tables) if tables is not None else real(store_)

        monkeypatch.setattr(board_sql, "match_tables", counted)
        entry = duplicate.enter_score(store, 1, elsewhere, board, {"NS": 20, "EW": 0}, by="Desk",
                                      find=duplicate_teams.find_table)
        assert entry.uncounted_at is None
        assert every == [], "a result at another match read every table of the event"
        entry = duplicate.enter_score(store, 1, partner, board, {"NS": 20, "EW": 0}, by="Desk",
                                      find=duplicate_teams.find_table)
        assert entry.uncounted_at == 1 and every == []
    finally:
        store.close()


def test_a_mark_and_its_status_are_one_step(seated, monkeypatch) -> None:
    """When the mark's status is logged, the file is still held by the mark's own write: no other
    writer (the command line beside the server) gets in between.  Before, the mark was committed
    first and the status logged in a second transaction: a file taken between answered an error
    for a mark that was made, and the same mark sent again was refused "already marked"."""
    from tournament.store.sqlite import is_busy, not_waiting

    event, venue, other, (_, second) = seated
    real = duplicate.mark_not_played
    became: list[str] = []

    def then_another_writer(*args, **kwargs):
        done = real(*args, **kwargs)  # (the mark made: the table's status is logged next)
        try:
            with not_waiting(other.conn), other.write():
                other.conn.execute("CREATE TABLE IF NOT EXISTS reviewfix_between (x INTEGER)")
            became.append("got in")
        except sqlite3.OperationalError as e:
            assert is_busy(e), e
            became.append("held")
        return done

    monkeypatch.setattr(duplicate, "mark_not_played", then_another_writer)
    said = venue.director_not_played(1, 1, second, "no time")["said"]
    assert became == ["held"]
    assert said[0].startswith(f"round 1 table 1 board {second}: not played")
    assert changes.table_status(venue.store, 1, 1) == "playing"


@pytest.mark.parametrize("printed, url, words, not_words", [
    ("https://domino.club.example", "http://192.168.1.5:8000", "--url", "--port"),
    ("https://domino.club.example/", "http://192.168.1.5:8000", "--url", "--port 443"),
])
def test_links_behind_a_tls_proxy_are_not_told_to_use_port_443(printed, url, words, not_words) -> None:
    from tournament.event.venue import elsewhere_warning

    said = elsewhere_warning(printed, url)
    assert words in said and not_words not in said, said

"""A board not played in duplicate teams at the venue (docs/duplicate.md, "Duplicate teams"): the
director's page marks a team table's board not played and takes a board's result back (``POST
/api/v1/tables/R/T/result/not-played`` and ``…/result/clear`` with ``"board"``), as the command line
does; both tables' phones skip the board (it is not scored in the match: nothing is to come at
either, ``not_played`` in the table's state); the match finishes on its other boards and *Pair the
next round* goes on; the hall shows the board not played on the round's tables, the match's page
(the other table's result kept, *not scored*), the feed, and the board's deal once every table of
its round is settled.  Before, the venue refused both at a team table ("for duplicate pairs")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_teams import new_event, run
from tests.tournament.test_venue_duplicate import _auth, served
from tournament.pairing import boards as B

pytest.importorskip("starlette.testclient")
from tournament.event import phone  # noqa: E402
from tournament.web.app import PHRASES  # noqa: E402


@pytest.fixture
def venue(tmp_path: Path):
    """Four teams (victory points), round 1 seated (tables 1-2 and 3-4 play boards 1 and 2), served:
    the event, the server, the client, each table's URL and key, and the director's key."""
    event = tmp_path / "teams.db"
    new_event(event, 4, "--victory-points")
    for event, server, client in served(event, 6, 37):
        links = server.call(server.venue.links, "http://testserver")
        tables = {x["table"]: (f"/api/v1/tables/1/{x['table']}", x["token"]) for x in links["tables"]}
        yield event, server, client, tables, links["director"].rsplit("/", 1)[1]


def _post(client, url: str, key: str, body: dict, lang: str = "en"):
    return client.post(url, headers={**_auth(key), "Accept-Language": lang}, json=body)


def _refused(r, status: int, words: str) -> str:
    assert r.status_code == status, r.text
    said = r.json()["error"]
    assert words in said and "\n" not in said and "Traceback" not in said, said
    return said


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_director_marks_a_team_tables_board_and_both_phones_skip_it(venue) -> None:
    event, server, client, tables, director = venue
    (url1, key1), (url2, key2) = tables[1], tables[2]
    seen = server.venue.store.changes_logged
    r = _post(client, f"{url1}/result/not-played", director, {"board": 2, "reason": "ran out of time"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == ["round 1 table 1 board 2: not played — the board is not scored in the match of "
                                "tables 1-2 (a result at the other table does not count)"]
    assert server.venue.store.changes_logged != seen  # the hall is told
    # Both tables of the match: board 2 is not to be played; each phone plays board 1 only.
    for url, key in ((url1, key1), (url2, key2)):
        state = client.get(url, headers=_auth(key)).json()
        assert (state["board"], state["boards_played"], state["not_played"]) == (1, 1, [2]), url
        log = client.get(f"{url}?log=1", headers=_auth(key)).json()["log"]
        offline = phone.answer(log, {"path": "state"}, sentences=PHRASES)["body"]  # the phone's engine too
        assert (offline["board"], offline["boards_played"], offline["not_played"]) == (1, 1, [2]), url
    # The other match's tables are untouched.
    assert client.get(tables[3][0], headers=_auth(tables[3][1])).json()["not_played"] == []
    assert "table 1 board 2: not played — ran out of time" in run("history", event)
    # Board 1 in at every table: each table is confirmed, the match finished, the next round paired.
    for t, (ns, ew) in {1: (30, 0), 2: (0, 10), 3: (0, 0), 4: (0, 0)}.items():
        run("result", event, "--round", 1, "--table", t, "--board", 1, "--score", f"NS={ns},EW={ew}")
    for t in (3, 4):
        run("result", event, "--round", 1, "--table", t, "--board", 2, "--score", "NS=0,EW=0")
    for url, key in ((url1, key1), (url2, key2)):
        state = client.get(url, headers=_auth(key)).json()
        assert state["status"] == "confirmed" and state["board"] is None and state["not_played"] == [2]
    overview = client.get("/api/v1/director", headers=_auth(director)).json()
    assert overview["can_pair"]
    match = next(m for m in overview["matches"] if m["tables"] == [1, 2])
    # (only the boards that count: board 2, not scored, is neither in nor to come; said apart)
    assert (match["done"], match["count"], match["not_scored"], match["finished"]) == (1, 1, [2], True)
    assert match["outcome"].endswith("wins the match")
    _check_the_hall(client)
    assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
    # Taken back, marks and results, from the page at a team table (round 1 is over: as after a session).
    r = _post(client, f"{url1}/result/clear", director, {"board": 2, "reason": "marked by mistake"})
    assert r.status_code == 200, r.text
    assert r.json()["said"] == ["round 1 table 1 board 2: no longer marked not played; its result is to be entered"]
    assert client.get(url2, headers=_auth(key2)).json()["not_played"] == []
    r = _post(client, f"{url2}/result/clear", director, {"board": 1, "reason": "entered for the wrong table"})
    assert r.status_code == 200, r.text
    assert "result NS 0, EW 10 taken back" in r.json()["said"][0]
    trail = [(x["action"], x["by"]) for x in json.loads(run("history", event, "--json"))
             if x["action"].startswith("board_")]
    assert trail == [("board_not_played", "the director's page"), ("board_cleared", "the director's page"),
                     ("board_cleared", "the director's page")]
    assert "took back table 2 board 1: NS 0, EW 10 (typed score) — entered for the wrong table" in run("history", event)


def _check_the_hall(client) -> None:
    """Round 1 settled with board 2 not played at table 1: the round's tables, the match's page, the
    board's page (its deal shown: every table of round 1 is settled on it) and the feed."""
    tables = _text(client.get("/tables").text)
    assert "board 2: not played" in tables and "to play" not in tables
    feed = client.get("/api/v1/rounds/1").json()
    by_table = {t["table"]: t for t in feed["tables"]}
    assert by_table[1]["not_played"] == [2] and by_table[2]["not_played"] == [2]
    assert by_table[3]["not_played"] == [] and all(t["status"] == "confirmed" for t in feed["tables"])
    page = client.get("/matches/1/1").text
    text = _text(page)
    assert "not played" in text and "not scored" in text and "wins the match" in text
    assert "1 of 2 boards in" not in text and "is not scored in the match" in text
    board = client.get("/boards/2")
    assert board.status_code == 200 and 'id="deal"' in board.text
    assert "Not scored in the match of tables 1-2 (round 1)" in _text(board.text)
    es = _text(client.get("/matches/1/1", headers={"Accept-Language": "es"}).text)
    assert "no jugado" in es and "sin puntuar" in es and "not scored" not in es


def test_the_other_table_keeps_its_result_uncounted_on_the_match_page(venue) -> None:
    event, server, client, tables, director = venue
    run("result", event, "--round", 1, "--table", 2, "--board", 2, "--score", "NS=25,EW=0")
    r = _post(client, f"{tables[1][0]}/result/not-played", director, {"board": 2, "reason": "a player left"})
    assert r.status_code == 200, r.text
    state = client.get(tables[2][0], headers=_auth(tables[2][1])).json()
    assert state["not_played"] == [] and state["boards_played"] == 1  # its result stands there
    # The hall shows board 2 once every table of the round has played it (or is marked not to): tables
    # 3 and 4 still play it, and table 2's 25–0 would tell them how it went (docs/duplicate.md).
    assert "25–0" not in _text(client.get("/matches/1/1").text)
    for t in (3, 4):
        run("result", event, "--round", 1, "--table", t, "--board", 2, "--score", "NS=0,EW=0")
    text = _text(client.get("/matches/1/1").text)
    assert "25–0" in text and "not played" in text and "not scored" in text
    doc = run("standings", event, "--json")
    assert '"imps_for": 0' in doc  # nothing counted yet: board 1 is still out


def test_the_pages_refusals_at_a_team_table(venue) -> None:
    event, server, client, tables, director = venue
    (url1, key1), (url2, key2) = tables[1], tables[2]
    marked, cleared = f"{url1}/result/not-played", f"{url1}/result/clear"
    _refused(_post(client, marked, key1, {"board": 1, "reason": "slip"}), 403, "")
    _refused(_post(client, marked, director, {"board": 1, "reason": " "}), 422,
             "give the reason for marking a board not played")
    _refused(_post(client, marked, director, {"board": 3, "reason": "slip"}), 422,
             "the tables of round 1 play boards 1, 2, not board 3")
    es = _refused(_post(client, marked, director, {"board": 3, "reason": "slip"}, "es"), 422, "no el tablero 3")
    assert "play boards" not in es
    _refused(_post(client, cleared, director, {"board": 1, "reason": "slip"}), 422, "nothing to take back")
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=20,EW=0")
    _refused(_post(client, marked, director, {"board": 1, "reason": "slip"}), 422,
             "round 1 table 1 board 1 has a result (NS 20, EW 0): take it back first (Take the board's result back)")
    # The match's other table's phone playing board 1: the mark would take the board from under its
    # hand (not scored at either table), so it waits for that hand, as for the table's own phone.
    state = client.get(url2, headers=_auth(key2)).json()
    assert state["board"] == 1
    r = client.post(f"{url2}/dgn", headers=_auth(key2), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    run("clear", event, "--round", 1, "--table", 1, "--board", 1, "--reason", "wrong table")
    said = _refused(_post(client, marked, director, {"board": 1, "reason": "slip"}), 422,
                    "table 2's phone is playing board 1")
    cli = run("result", event, "--round", 1, "--table", 1, "--board", 1, "--not-played", "--reason", "x", code=1)
    assert "table 2's phone is playing board 1 (the match's other table" in cli
    assert "not played" not in run("history", event) and said
    # Its own phone playing the board: refused the same way.
    state = client.get(url1, headers=_auth(key1)).json()
    r = client.post(f"{url1}/dgn", headers=_auth(key1), json={"rev": state["rev"], "text": "hand 1"})
    assert r.status_code == 200, r.text
    _refused(_post(client, marked, director, {"board": 1, "reason": "slip"}), 422, "table 1's phone is playing board 1")


def test_a_board_deal_stays_hidden_while_a_table_of_its_round_is_to_play_it(venue) -> None:
    """The mark settles the board at both tables of its match, not at the other match's tables: its
    deal waits for those."""
    event, server, client, tables, director = venue
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    _post(client, f"{tables[1][0]}/result/not-played", director, {"board": 2, "reason": "time"})
    run("result", event, "--round", 1, "--table", 3, "--board", 2, "--score", "NS=0,EW=0")
    page = client.get("/boards/2").text
    assert 'id="deal"' not in page
    assert not any(" ".join(tiles) in page for tiles in boards[2].deal.hands.values())
    run("result", event, "--round", 1, "--table", 4, "--board", 2, "--score", "NS=0,EW=0")
    assert 'id="deal"' in client.get("/boards/2").text

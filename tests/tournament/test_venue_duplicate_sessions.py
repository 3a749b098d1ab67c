"""Issue 38's "done when" at the venue: a 7-table Mitchell of 14 boards and a 5-table Howell run
through the venue's HTTP API, as a club night runs them.  A third of the boards are played at the
tables hand by hand from the board's deal (the phones' way: ``hand 1``, then a legal move at a
time, both sides confirming); the others are entered by the director beside the server with
``tournament result --board`` (the director's way): a third from the hand's record, a third by
typed score, some before the table has played its other board and some after.  The matchpoints
and IMPs are then computed again here from the results the event file holds (read with SQL, and
scored the slow way, apart from the code under test) and compared with ``standings --json``, the
hall's standings page and its feed.

Each event is played once for its module (a module-scoped fixture); the tests read it."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

import attrs
import pytest
import typer
from click.testing import CliRunner

from domrec.convert import text_of

from tests.tournament.test_duplicate_event import new_event
from tests.tournament.test_matchpoints import rescored  # the slow way, written apart from the code under test
from tests.tournament.test_venue_duplicate import _auth, _play_board, _seated
from tournament.cli import app
from tournament.pairing import boards as B, matchpoints as P

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402

#: The command line, made once (typer makes it again at each invocation: most of a command's time here).
COMMAND = typer.main.get_command(app)


def run(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(COMMAND, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


#: How each board of a table is entered: (board + table) % 3.
AT_THE_TABLE, BY_RECORD, BY_SCORE = 0, 1, 2


@attrs.define
class Played:
    """An event played through the venue: its file, what the test played, how each was entered."""

    event: Path
    client: object
    boards: dict[int, B.Board]
    played: list[P.TableResult]
    ways: dict[str, int]
    tables: int


def _play_event(tmp: Path, tables: int, movement: str, boards: int, seed: int, ranking: str) -> Played:
    event = tmp / f"{movement}.db"
    new_event(event, 2 * tables, movement, ranking=ranking)
    run("boards", event, "--boards", boards, "--seed", seed)
    run("pair", event)
    dealt = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    client = starlette_testclient.TestClient(server.asgi)
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    rng = random.Random(seed)
    played: list[P.TableResult] = []
    ways = {"table": 0, "record": 0, "score": 0}
    round_no = 0
    try:
        while True:
            round_no += 1
            links = {x["table"]: x["token"] for x in server.call(server.venue.links, "http://testserver")["tables"]}
            seated = _seated(server, round_no)
            # The director's entries beside the server: before the phones play, except at a table of even
            # number the boards that come after its last board played at the table (entered after it).
            for early in (True, False):
                files = []
                for doc in seated:
                    at_table = [k for k, n in enumerate(doc["boards"]) if (n + doc["table"]) % 3 == AT_THE_TABLE]
                    for k, number in enumerate(doc["boards"]):
                        way = (number + doc["table"]) % 3
                        late = doc["table"] % 2 == 0 and bool(at_table) and k > max(at_table)
                        if way == AT_THE_TABLE or late == early:
                            continue
                        record = B.play(dealt[number], f"{round_no}/{doc['table']}")
                        scores = record.hands[0].result.scores
                        played.append(P.TableResult(number, doc["pairs"]["NS"], doc["pairs"]["EW"], scores["NS"],
                                                    scores["EW"]))
                        if way == BY_SCORE:
                            ways["score"] += 1
                            said = run("result", event, "--round", round_no, "--table", doc["table"], "--board",
                                       number, "--score", f"NS={scores['NS']},EW={scores['EW']}")
                            assert "typed score" in said and "stored" in said
                            continue
                        ways["record"] += 1
                        record = attrs.evolve(record, event={"round": round_no, "table": doc["table"],
                                                             "board": number})
                        path = tmp / f"{movement}-r{round_no}t{doc['table']}b{number}.json"
                        path.write_text(text_of([record], "json"))
                        files.append(path)
                if files:
                    assert run("result", event, *files).count("verified record") == len(files)
                if not early:
                    break
                # The phones play the boards left at their tables, skipping those the director entered.
                for doc in seated:
                    url, token = f"/api/v1/tables/{round_no}/{doc['table']}", links[doc["table"]]
                    state = client.get(url, headers=_auth(token)).json()
                    assert state["boards"] == doc["boards"]
                    for number in doc["boards"]:
                        if (number + doc["table"]) % 3 != AT_THE_TABLE:
                            continue
                        assert state["board"] == number, (round_no, doc, state["board"])
                        state = _play_board(client, url, token, state, rng)
                        assert f"board {number}: NS" in state["said"][-1]
                        ways["table"] += 1
                        row = _stored(event, round_no, doc["table"], number)
                        played.append(P.TableResult(number, doc["pairs"]["NS"], doc["pairs"]["EW"], *row))
            # Every board of every table has its result: each table is confirmed, whichever way they came.
            for doc in seated:
                url = f"/api/v1/tables/{round_no}/{doc['table']}"
                state = client.get(url, headers=_auth(links[doc["table"]])).json()
                assert state["status"] == "confirmed" and state["board"] is None, (round_no, doc, state["status"])
                assert state["boards_played"] == len(doc["boards"])
                assert [b["board"] for b in state["result"]["boards"]] == doc["boards"]
            r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
            if r.status_code != 200:
                assert "rounds" in r.json()["error"]
                break
    except BaseException:
        server.close()
        raise
    return Played(event, (server, client), dealt, played, ways, tables)


def _stored(event: Path, round_no: int, table_no: int, board: int) -> tuple[int, int]:
    with sqlite3.connect(event) as db:
        return db.execute("SELECT br.ns_points, br.ew_points FROM board_results br JOIN round_tables rt ON "
                          "rt.id = br.table_id JOIN rounds r ON r.id = rt.round_id WHERE r.number = ? AND "
                          "rt.number = ? AND br.board = ?", (round_no, table_no, board)).fetchone()


@pytest.fixture(scope="module")
def mitchell(tmp_path_factory) -> Played:
    played = _play_event(tmp_path_factory.mktemp("mitchell"), 7, "mitchell", 14, 38, "matchpoints")
    yield played
    played.client[0].close()


@pytest.fixture(scope="module")
def howell(tmp_path_factory) -> Played:
    played = _play_event(tmp_path_factory.mktemp("howell"), 5, "howell", 18, 7, "imps")
    yield played
    played.client[0].close()


def _from_the_file(event: Path) -> list[P.TableResult]:
    """Every board result the event file holds, with its table's NS and EW pairs, read with SQL."""
    with sqlite3.connect(event) as db:
        rows = db.execute("SELECT br.board, bt.ns, bt.ew, br.ns_points, br.ew_points FROM board_results br "
                          "JOIN board_tables bt ON bt.table_id = br.table_id").fetchall()
    return [P.TableResult(*row) for row in rows]


#: A row of the hall's duplicate standings: rank, pair, direction, boards, matchpoints/top, %, IMPs.
HALL_ROW = re.compile(r'<tr><td>(\d+)</td><td><a href="[^"]*">(\d+) <bdi>[^<]*</bdi></a></td><td class="o">(\w+)</td>'
                      r'<td class="o">(\d+)</td><td class="o">(\d+)/(\d+)</td><td>([\d.]+)</td><td>(-?\d+)</td></tr>')


def _check(game: Played, boards_played: int, ranking: str) -> None:
    server, client = game.client
    stored = _from_the_file(game.event)
    assert len(stored) == boards_played
    # What the file holds is what was played, whichever way it was entered.
    key = lambda r: (r.board, r.ns, r.ew, r.ns_points, r.ew_points)  # noqa: E731
    assert sorted(map(key, stored)) == sorted(map(key, game.played))
    assert all(game.ways.values()), game.ways  # every way was used
    expected = rescored(stored)
    doc = json.loads(run("standings", game.event, "--json"))
    assert doc["ranked_by"] == ranking and doc["too_few"] == []
    assert {r["pair"]: [r["matchpoints"], r["top"], r["imps"]] for r in doc["pairs"]} == dict(expected)
    assert len(doc["pairs"]) == 2 * game.tables
    # The hall's feed and its standings page say the same.
    feed = client.get("/api/v1/standings").json()
    assert feed["pairs"] == doc["pairs"]
    page = client.get("/standings").text
    rows = {int(m[1]): (int(m[0]), int(m[4]), int(m[5]), float(m[6]), int(m[7])) for m in
            (x.groups() for x in HALL_ROW.finditer(page))}
    assert rows == {r["pair"]: (r["rank"], r["matchpoints"], r["top"], round(r["percent"], 2), r["imps"])
                    for r in doc["pairs"]}
    for pair, (mps, top, imps) in expected.items():  # and each pair's card adds up to its standing
        card = client.get(f"/pairs/{pair}")
        assert card.status_code == 200 and f"{mps}/{top}" in card.text
    # Every board has been played by every table that plays it: each traveller shows its deal.
    for number, board in game.boards.items():
        page = client.get(f"/boards/{number}").text
        if any(r.board == number for r in stored):
            assert 'id="deal"' in page and " ".join(board.deal.hands[board.seats[0]]) in page


def test_a_seven_table_mitchell_of_fourteen_boards_at_the_venue(mitchell: Played) -> None:
    _check(mitchell, 7 * 14, "matchpoints")
    doc = json.loads(run("standings", mitchell.event, "--json"))
    assert {r["direction"] for r in doc["pairs"] if r["pair"] <= 7} == {"NS"}
    assert all(r["boards"] == 14 for r in doc["pairs"])


def test_a_five_table_howell_at_the_venue(howell: Played) -> None:
    _check(howell, 9 * 5 * 2, "imps")
    doc = json.loads(run("standings", howell.event, "--json"))
    assert {r["direction"] for r in doc["pairs"]} == {"both"}
    assert "records re-validated): 0 errors" in run("check", howell.event)

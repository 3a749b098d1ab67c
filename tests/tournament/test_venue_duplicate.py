"""A duplicate event (issue 38) through the venue's API, in-process: each table's phone starts its
board's deal with ``hand 1`` (the deal known: only legal moves offered, forced passes made), plays
it, both sides confirm, and the board's result enters the event; the table moves on to its next
board, and after the round its page says where each pair goes and which boards come.  The
standings agree with matchpoints and IMPs recomputed here; a deal that is not the board's is
refused (422, the tile named) and changes nothing; the hall's pages never show a board's deal
before every table that plays it has played it."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, run
from tests.tournament.test_matchpoints import rescored  # the slow way, written apart from the code under test
from tournament.event import duplicate, phone
from tournament.pairing import boards as B, matchpoints as P

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import PHRASES, VenueServer  # noqa: E402

#: A 3-table Mitchell, 2 boards a round: 3 rounds, 6 boards.
TABLES, PER_ROUND = 3, 2


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def served(event: Path, boards: int, seed: int):
    """The event's boards dealt (``boards``, seeded), round 1 seated, and the event served in-process:
    yields the event, its server and a client of its API (duplicate teams' tests serve theirs so)."""
    run("boards", event, "--boards", boards, "--seed", seed)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        yield event, server, starlette_testclient.TestClient(server.asgi)
    finally:
        server.close()


@pytest.fixture
def venue(tmp_path: Path):
    event = tmp_path / "dup.db"
    new_event(event, 2 * TABLES, "mitchell")
    yield from served(event, TABLES * PER_ROUND, 38)


def _seated(server: VenueServer, round_no: int) -> list[dict]:
    """Each table of a round as the event keeps it: its number, boards and movement pairs."""
    return [{"table": t.table, "boards": list(t.boards), "pairs": {"NS": t.ns, "EW": t.ew}}
            for t in server.call(duplicate.table_boards, server.venue.store, round_no)]


def _deal_lines(board: B.Board) -> list[str]:
    return [f"deal {seat} " + " ".join(board.deal.hands[seat]) for seat in board.seats]


def _play_board(client, url: str, token: str, state: dict, rng: random.Random, offline: bool = False) -> dict:
    """One board at a table: ``hand 1`` starts the board's deal, then a legal move at a time (a
    seeded choice) until the hand is over, closed with ``y``; both sides confirm.  ``offline``:
    the phone's engine answers ``hand 1`` first, from the table's log, as the server does."""
    write = {"rev": state["rev"], "text": "hand 1"}
    phone_said = None
    if offline:
        log = client.get(f"{url}?log=1", headers=_auth(token)).json()["log"]
        phone_said = phone.answer(log, {"path": "dgn", "body": write}, sentences=PHRASES)
    r = client.post(f"{url}/dgn", headers=_auth(token), json=write)
    assert r.status_code == 200, r.text
    state = r.json()
    if phone_said is not None:
        assert phone_said["status"] == 200 and phone_said["row"][1:3] == ["dgn", phone_said["row"][2]]
        for key in ("legal", "deal_known", "to_move", "hand", "announced"):
            assert phone_said["body"]["game"][key] == state["game"][key], key
        assert (phone_said["body"]["board"], phone_said["body"]["boards_played"]) == (state["board"],
                                                                                     state["boards_played"])
    game = state["game"]
    assert game["deal_known"] and game["legal"] and 1 in (game["hand"], game["announced"])
    while not state["game"]["over"]:
        legal = state["game"]["legal"]
        text = rng.choice(legal)["text"] if legal else "y"
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, r.text
        state = r.json()
    assert state["status"] == "waiting"
    for side in ("NS", "EW"):
        r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_a_mitchell_played_at_the_tables(venue, tmp_path: Path) -> None:
    event, server, client = venue
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    rng = random.Random(38)
    played = []
    for round_no in range(1, TABLES + 1):
        links = server.call(server.venue.links, "http://testserver")
        seated = _seated(server, round_no)
        for link in links["tables"]:
            url, token = f"/api/v1/tables/{round_no}/{link['table']}", link["token"]
            doc = next(t for t in seated if t["table"] == link["table"])
            state = client.get(url, headers=_auth(token)).json()
            assert state["boards"] == doc["boards"] and len(state["boards"]) == PER_ROUND
            assert state["board"] == doc["boards"][0] and state["boards_played"] == 0
            assert "deal" not in json.dumps({k: v for k, v in state.items() if k != "game"})
            for k, number in enumerate(doc["boards"]):
                assert state["board"] == number
                # The phone's engine, offline, starts the table's next board as the server does.
                state = _play_board(client, url, token, state, rng, offline=round_no == 1 and link["table"] == 1)
                assert f"board {number}: NS" in state["said"][-1] and "verified record" in state["said"][-1]
                assert state["boards_played"] == k + 1
            assert state["status"] == "confirmed" and state["board"] is None
            assert [b["board"] for b in state["result"]["boards"]] == doc["boards"]
            r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
            assert r.status_code == 409  # every board played and confirmed: only the director changes them
            for b in state["result"]["boards"]:
                played.append(P.TableResult(b["board"], doc["pairs"]["NS"], doc["pairs"]["EW"], b["NS"], b["EW"]))
        # In a 3-table Mitchell every set of boards is played once a round, at another table each
        # round: no board has been played by every table before the last round is over.
        _check_the_hall(client, boards, shown=set(boards) if round_no == TABLES else set(), round_no=round_no)
        # The round is over: each table's page says where its pairs go next, and which boards come.
        overview = client.get("/api/v1/director", headers=_auth(director)).json()
        assert overview["can_pair"] == (round_no < TABLES)  # after the movement's last round, nothing to pair
        r = client.post("/api/v1/director/pair", headers=_auth(director), json={})
        if round_no < TABLES:
            assert r.status_code == 200, r.text
            following = _seated(server, round_no + 1)
            state = client.get(f"/api/v1/tables/{round_no}/1", headers=_auth(director)).json()
            assert state["next"]["paired"] and state["next"]["round"] == round_no + 1
            for seat, where in state["next"]["seats"].items():
                there = next(t for t in following if t["table"] == where["table"])
                assert where["boards"] == there["boards"]
        else:
            assert r.status_code in (409, 422) and "rounds" in r.json()["error"]
    assert len(played) == TABLES * TABLES * PER_ROUND
    assert {r.board for r in played} == set(boards)
    doc = json.loads(run("standings", event, "--json"))
    expected = rescored(played)
    assert {r["pair"]: [r["matchpoints"], r["top"], r["imps"]] for r in doc["pairs"]} == dict(expected)
    # The feed's standings are the duplicate pairs, as standings --json gives them.
    feed = client.get("/api/v1/standings").json()
    assert feed["pairs"] == doc["pairs"]


#: The hall's pages, its projector and its feed: none may show a deal before its time.
HALL = ("/", "/tables", "/standings", "/games", "/boards", "/projector", "/api/v1/event", "/api/v1/standings")


def _check_the_hall(client, boards: dict[int, B.Board], shown: set[int], round_no: int) -> None:
    """Every page of the hall shows the deals of the boards in ``shown`` on their traveller pages,
    and nowhere any other board's (a seat's tiles written out as a slip lists them)."""
    pages = {path: client.get(path) for path in (*HALL, f"/api/v1/rounds/{round_no}")}
    pages.update({f"/boards/{n}": client.get(f"/boards/{n}") for n in boards})
    pages.update({f"/pairs/{p}": client.get(f"/pairs/{p}") for p in range(1, 2 * TABLES + 1)})
    assert all(r.status_code == 200 for r in pages.values()), [p for p, r in pages.items() if r.status_code != 200]
    for number, board in boards.items():
        lines = [" ".join(tiles) for tiles in board.deal.hands.values()]
        page = pages[f"/boards/{number}"].text
        if number in shown:
            assert 'id="deal"' in page and all(line in page for line in lines)
            assert 'id="traveller"' in page
        else:
            # Neither the deal nor any table's result on it (a result tells of the deal) before its last table.
            assert 'id="deal"' not in page and 'id="deal-later"' in page
            assert 'id="traveller"' not in page and 'id="results-later"' in page
            leaks = [path for path, r in pages.items() if any(line in r.text for line in lines)]
            assert not leaks, f"board {number}'s deal is shown early on {leaks}"
    # The feed's rounds say a board is in at a table, not its points, until the board is complete.
    for t in pages[f"/api/v1/rounds/{round_no}"].json()["tables"]:
        for b in t["board_results"]:
            assert ("ns_points" in b) == (b["board"] in shown) and b.get("withheld", False) == (b["board"] not in shown)
    for p in range(1, 2 * TABLES + 1):
        card = pages[f"/pairs/{p}"].text
        assert all(f'data-board="{n}"' not in card for n in boards if n not in shown)
    changes = client.get("/api/v1/changes?since=0").json()["changes"]
    assert all(set(c["data"]) == {"board", "verified", "replaced"} for c in changes if c["kind"] == "board_result")
    # Find your table names each pair's boards; the standings link each pair's card.
    assert "boards " in pages["/"].text and 'href="/pairs/1"' in pages["/standings"].text


def test_a_deal_that_is_not_the_boards_is_refused(venue) -> None:
    event, server, client = venue
    link = server.call(server.venue.links, "http://testserver")["tables"][1]
    url, token = f"/api/v1/tables/1/{link['table']}", link["token"]
    state = client.get(url, headers=_auth(token)).json()
    board = B.board_from_json(json.loads(run("boards", event, "--json"))[state["board"] - 1])
    lines = _deal_lines(board)
    # N's line with E's first tile: refused at once, naming the tile.
    wrong = lines[0].split()[:-1] + [board.deal.hands["E"][0]]
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": "\n".join([f"hand 1 lead {board.leader}", " ".join(wrong)])})
    assert r.status_code == 422
    error = r.json()["error"]
    assert "\n" not in error and board.deal.hands["E"][0] in error and f"board {board.number}" in error
    # Two tiles of N's and E's swapped between lines: each line is refused the same way.
    n, e = list(board.deal.hands["N"]), list(board.deal.hands["E"])
    n[0], e[0] = e[0], n[0]
    swapped = [f"deal N {' '.join(n)}", f"deal E {' '.join(e)}", *lines[2:]]
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": "\n".join([f"hand 1 lead {board.leader}", *swapped])})
    assert r.status_code == 422 and n[0] in r.json()["error"]
    # Another leader: refused whole, once the hand is read.
    other = next(s for s in board.seats if s != board.leader)
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": "\n".join([f"hand 1 lead {other}", *lines])})
    assert r.status_code == 422 and "not board" in r.json()["error"]
    # The same with the other leader's first move in the same write: refused as well (it was taken whole,
    # and the hand could then never be confirmed).
    first = board.deal.hands[other][0]
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": "\n".join([f"hand 1 lead {other}", *lines, f"{other} {first}"])})
    assert r.status_code == 422, r.text
    assert client.get(url, headers=_auth(token)).json()["rev"] == state["rev"]  # nothing was stored
    # The director's typed result is a game's: a duplicate table's are its boards', entered board by board.
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    r = client.post(url + "/result", headers=_auth(director), json={"scores": {"NS": 50, "EW": 0}, "reason": None})
    assert r.status_code == 422 and "--board" in r.json()["error"]
    # The board's own deal, typed: taken.
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": "\n".join([f"hand 1 lead {board.leader}", *lines])})
    assert r.status_code == 200 and r.json()["game"]["deal_known"]


def test_the_directors_replay_of_a_duplicate_table_shows_its_boards(venue) -> None:
    """The director's replay of a duplicate table shows a board played move by move (the last one,
    or ``?board=N``), not the table's empty game between boards ("0 hands");
    a board not played yet, a board the table does not play and a typed score say so in one line."""
    event, server, client = venue
    links = server.call(server.venue.links, "http://testserver")
    director = links["director"].rsplit("/", 1)[1]
    link = links["tables"][0]
    url, token = f"/api/v1/tables/1/{link['table']}", link["token"]
    replay = f"/d/{director}/replay/1/{link['table']}"
    page = client.get(replay)
    assert page.status_code == 404 and "no board played move by move yet" in page.text, page.text
    state = _play_board(client, url, token, client.get(url, headers=_auth(token)).json(), random.Random(5))
    first = _seated(server, 1)[0]["boards"]
    page = client.get(replay)
    assert page.status_code == 200 and "1 hand" in page.text, page.text
    assert f"<dt>board</dt><dd>{first[0]}</dd>" in page.text  # (the page names the board it shows)
    assert client.get(f"{replay}?board={first[0]}").status_code == 200
    later = client.get(f"{replay}?board={first[1]}")
    assert later.status_code == 404 and "is not played yet" in later.text
    other = client.get(f"{replay}?board=99")
    assert other.status_code == 404 and "not board 99" in other.text
    assert client.get(f"{replay}?board=x").status_code == 422
    assert state["board"] == first[1]
    # (a duplicate event's rounds are its movement's, not a Swiss event's)
    assert client.get("/api/v1/rounds/1").json()["label"] == "round 1"
    assert [r["label"] for r in client.get("/api/v1/event").json()["rounds"]] == ["round 1"]

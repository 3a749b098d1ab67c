"""Two findings of a security review (docs/venue.md, "Who may do what"; docs/duplicate.md, "A
board's deal is never shown early"):

* a duplicate table's key, once its round is over (the next round paired), reads a board's deal, its
  play and its result at the table only once the hall shows them: every table due to play the board
  has played it.  A QR code of round 1 left on table 1 read, for the rest of the session, the play of
  boards the pairs sitting there later were still to play.  During its own round the table reads
  everything (its phone's offline engine and a reloaded page need it); the director's key always does;
* a table's calls of the director and switches of its mode are capped (each was a row of the event
  file, without end), refused past the cap in one line (422) in the page's language, by the server
  and the phone's offline engine alike, and a call at a table whose round is over is refused (409).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tournament.event import phone, table_log

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_duplicate_event import new_event, run  # noqa: E402
from tests.tournament.test_venue import _event, _server  # noqa: E402
from tests.tournament.test_venue_duplicate import _play_board  # noqa: E402
from tournament.web.app import PHRASES, VenueServer  # noqa: E402

TABLES, PER_ROUND = 3, 2
#: The most calls of the director, and switches of its mode, a table may make.
CAP = 100


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _links(server: VenueServer) -> dict:
    return server.call(server.venue.links, "http://testserver")


def _deal_texts(event: Path) -> dict[int, list[str]]:
    """Each board's seats' tiles as a ``deal`` line writes them."""
    out = {}
    for b in json.loads(run("boards", event, "--json")):
        out[b["board"]] = [f"deal {seat} " + " ".join(tiles) for seat, tiles in b["hands"].items()]
    return out


def _play_round(server, client, round_no: int, rng: random.Random) -> dict[int, str]:
    """Every table of the round plays its boards at the table; each table's key, by table number."""
    keys = {}
    for link in _links(server)["tables"]:
        url, token = f"/api/v1/tables/{round_no}/{link['table']}", link["token"]
        state = client.get(url, headers=_auth(token)).json()
        while state["board"] is not None:
            state = _play_board(client, url, token, state, rng)
        assert state["status"] == "confirmed"
        keys[link["table"]] = token
    return keys


@pytest.fixture
def mitchell(tmp_path: Path):
    event = tmp_path / "dup.db"
    new_event(event, 2 * TABLES, "mitchell")
    run("boards", event, "--boards", TABLES * PER_ROUND, "--seed", 38)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        yield event, server, starlette_testclient.TestClient(server.asgi)
    finally:
        server.close()


def test_an_old_duplicate_key_reads_only_the_boards_the_hall_shows(mitchell) -> None:
    event, server, client = mitchell
    deals = _deal_texts(event)
    director = _links(server)["director"].rsplit("/", 1)[1]
    rng = random.Random(7)
    old = _play_round(server, client, 1, rng)
    url = "/api/v1/tables/1/1"
    mine = client.get(url, headers=_auth(old[1])).json()["boards"]
    # During its own round the table reads its whole log: the play of its boards, and their deals.
    during = client.get(f"{url}?log=1", headers=_auth(old[1])).json()
    assert any(r[1] == "dgn" for r in during["log"]["rows"])
    assert all(line in json.dumps(during) for n in mine for line in deals[n][:1])
    assert all("NS" in b for b in during["result"]["boards"])

    assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
    # Round 2 is paired: round 1's boards go on round the room (a 3-table Mitchell: none is complete).
    for ask in (url, f"{url}?log=1", f"{url}?log=only", f"{url}?log=1&after=3", f"{url}/options?tile=6-6"):
        r = client.get(ask, headers=_auth(old[1]))
        assert r.status_code == 200, (ask, r.text)
        text = r.text
        for n in mine:
            assert not any(line in text for line in deals[n]), (ask, n)
    # (nor the hall's pages of the table's game: a duplicate table's results are its boards')
    for ask in ("/games/1/1", "/api/v1/games/1/1", "/api/v1/games/1/1?format=dgn", "/boards/1"):
        text = client.get(ask).text
        assert not any(line in text for n in mine for line in deals[n]), ask
    whole = client.get(f"{url}?log=1", headers=_auth(old[1])).json()
    assert whole["log"]["rows"] and not any(r[1] in ("dgn", "correct") for r in whole["log"]["rows"])
    assert all(r[2] == "" for r in whole["log"]["rows"] if r[1] == table_log.WITHHELD)
    assert [r[0] for r in whole["log"]["rows"]] == [r[0] for r in during["log"]["rows"]]  # the same revisions
    assert all(b["deal"] is None and b["withheld"] for b in whole["log"]["facts"]["boards"])
    assert whole["result"]["scores"] is None
    assert whole["result"]["boards"] == [{"board": n, "withheld": True} for n in mine]
    assert whole["status"] == "confirmed" and whole["rev"] == during["rev"] and not whole["game"]["hands"]
    # The phone's engine, given that log, makes the same state (nothing of the play to replay).
    said = phone.answer(whole["log"], {"path": "state"}, sentences=PHRASES)
    assert said["status"] == 200 and said["body"]["result"] == whole["result"]
    assert said["body"]["rev"] == whole["rev"] and said["body"]["boards_played"] == whole["boards_played"]
    # The director's key reads the table whole, as ever.
    full = client.get(f"{url}?log=1", headers=_auth(director)).json()
    assert any(r[1] == "dgn" for r in full["log"]["rows"]) and all("NS" in b for b in full["result"]["boards"])
    # Nothing is written at a table whose round is over, a call included; nor answered with its state.
    for path, body in (("call", {}), ("dgn", {"rev": whole["rev"], "text": "hand 1"}),
                       ("mode", {"rev": whole["rev"], "mode": "sheet"}),
                       ("confirm", {"rev": whole["rev"], "side": "NS"})):
        r = client.post(f"{url}/{path}", headers=_auth(old[1]), json=body)
        assert r.status_code == 409 and "round 1 is over" in r.json()["error"] and "state" not in r.json(), path
        if path != "confirm":  # the phone's engine refuses it alike
            said = phone.answer(whole["log"], {"path": path, "body": body}, sentences=PHRASES)
            assert said["status"] == 409 and said["body"]["error"] == r.json()["error"], path
    assert client.get(url, headers=_auth(old[1])).json()["rev"] == whole["rev"]

    # Every round played: every board is complete, and round 1's key reads its boards whole again.
    _play_round(server, client, 2, rng)
    assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
    _play_round(server, client, 3, rng)
    after = client.get(f"{url}?log=1", headers=_auth(old[1])).json()
    assert after["log"]["rows"] == full["log"]["rows"] and after["result"] == full["result"]
    assert all(line in json.dumps(after) for n in mine for line in deals[n][:1])


def test_a_table_s_calls_and_mode_switches_are_capped(tmp_path: Path) -> None:
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = _links(server)["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        for k in range(CAP):
            r = client.post(f"{url}/call", headers=_auth(token), json={})
            assert r.status_code == 200, (k, r.text)
        rev = r.json()["rev"]
        log = client.get(f"{url}?log=1", headers=_auth(token)).json()["log"]
        r = client.post(f"{url}/call", headers=_auth(token), json={"cid": "call-past-the-cap"})
        assert r.status_code == 422
        assert r.json()["error"] == (f"this table has called the director {CAP} times, the most a "
                                     f"table may: go to the director in person")
        r = client.post(f"{url}/call", headers={**_auth(token), "Accept-Language": "es"}, json={})
        assert r.status_code == 422 and r.json()["error"].startswith("esta mesa ha llamado al árbitro 100 veces")
        # The phone's engine, offline, refuses it alike, in both languages.
        for lang in ("en", "es"):
            said = phone.answer(log, {"path": "call", "body": {}}, lang, sentences=PHRASES)
            asked = client.post(f"{url}/call", headers={**_auth(token), "Accept-Language": lang}, json={})
            assert said["status"] == 422 and said["row"] is None and said["body"]["error"] == asked.json()["error"]
        for k in range(CAP):
            r = client.post(f"{url}/mode", headers=_auth(token),
                            json={"rev": rev, "mode": "sheet" if k % 2 else "play"})
            assert r.status_code == 200, (k, r.text)
            rev = r.json()["rev"]
        log = client.get(f"{url}?log=1", headers=_auth(token)).json()["log"]
        r = client.post(f"{url}/mode", headers=_auth(token), json={"rev": rev, "mode": "sheet", "cid": "mode-past-cap"})
        assert r.status_code == 422 and "switched between play by play and scores only 100 times" in r.json()["error"]
        said = phone.answer(log, {"path": "mode", "body": {"rev": rev, "mode": "sheet"}}, "es", sentences=PHRASES)
        asked = client.post(f"{url}/mode", headers={**_auth(token), "Accept-Language": "es"},
                            json={"rev": rev, "mode": "sheet"})
        assert said["status"] == asked.status_code == 422 and said["body"]["error"] == asked.json()["error"]
        assert asked.json()["error"].startswith("esta mesa ha cambiado entre jugada a jugada")
        # Nothing more in the table's log, nor kept for the refused writes' ids.
        assert client.get(url, headers=_auth(token)).json()["rev"] == rev
        store = server.venue.store
        kept = store.conn.execute("SELECT COUNT(*) FROM venue_writes").fetchone()[0] \
            if store.has_table("venue_writes") else 0
        assert kept == 0
        assert (table_log.MAX_CALLS, table_log.MAX_MODES) == (CAP, CAP)
        # The moves go on as ever.
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": rev, "text": "hand 1"})
        assert r.status_code in (200, 422) and "most a table may" not in r.text
    finally:
        server.close()


def test_a_call_at_a_table_whose_round_is_over_is_refused(tmp_path: Path) -> None:
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = _links(server)
        director = links["director"].rsplit("/", 1)[1]
        old = links["tables"][0]["token"]
        for t in links["tables"]:
            r = client.post(f"/api/v1/tables/1/{t['table']}/result", headers=_auth(director),
                            json={"scores": {"NS": 100, "EW": 50}})
            assert r.status_code == 200, r.text
        # Confirmed, its round not over: a call is taken (a dispute after the result).
        assert client.post("/api/v1/tables/1/1/call", headers=_auth(old), json={}).status_code == 200
        assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
        log = client.get("/api/v1/tables/1/1?log=1", headers=_auth(old)).json()["log"]
        for lang, words in (("en", "round 1 is over: call the director from the table you play at now"),
                            ("es", "la ronda 1 ha terminado: llame al árbitro desde la mesa en la que juega ahora")):
            r = client.post("/api/v1/tables/1/1/call", headers={**_auth(old), "Accept-Language": lang}, json={})
            assert r.status_code == 409 and r.json()["error"] == words
            said = phone.answer(log, {"path": "call", "body": {}}, lang, sentences=PHRASES)
            assert said["status"] == 409 and said["body"]["error"] == words
        assert log["facts"]["over"] is True  # (what the phone's engine refuses it by)
        # A table of another event still reads its round whole (its own game, no board goes round).
        state = client.get("/api/v1/tables/1/1?log=1", headers=_auth(old)).json()
        assert state["result"]["scores"] == {"NS": 100, "EW": 50}
    finally:
        server.close()


def test_duplicate_teams_an_old_key_reads_a_board_once_every_table_of_its_round_has(tmp_path: Path) -> None:
    """Duplicate teams: every table of round R plays round R's boards, and the round is paired on only
    once each has them all, so round 1's key reads its boards whole once round 2 is paired; a board
    taken back at the match's other table is awaited there again, and withheld from round 1's key
    until it is in (the other board still shown)."""
    from tests.tournament.test_duplicate_teams import new_event as new_teams

    event = tmp_path / "teams.db"
    new_teams(event, 4)
    run("boards", event, "--boards", 6, "--seed", 37)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        deals = _deal_texts(event)
        director = _links(server)["director"].rsplit("/", 1)[1]
        old = _play_round(server, client, 1, random.Random(3))
        assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
        url = "/api/v1/tables/1/1"
        whole = client.get(f"{url}?log=1", headers=_auth(old[1])).json()
        assert any(r[1] == "dgn" for r in whole["log"]["rows"]) and whole["log"]["facts"].get("over")
        assert all("NS" in b for b in whole["result"]["boards"])
        assert all(line in json.dumps(whole) for n in (1, 2) for line in deals[n][:1])
        r = client.post(f"{url}/call", headers=_auth(old[1]), json={})
        assert r.status_code == 409 and "round 1 is over" in r.json()["error"]
        # Board 1 taken back at table 2 (the match's other table): it is to come there again.
        r = client.post("/api/v1/tables/1/2/result/clear", headers=_auth(director),
                        json={"board": 1, "reason": "entered for the wrong table"})
        assert r.status_code == 200, r.text
        view = client.get(f"{url}?log=1", headers=_auth(old[1])).json()
        assert not any(line in json.dumps(view) for line in deals[1])
        assert all(line in json.dumps(view) for line in deals[2][:1])
        assert view["result"]["boards"][0] == {"board": 1, "withheld": True} and "NS" in view["result"]["boards"][1]
        assert [b.get("withheld", False) for b in view["log"]["facts"]["boards"]] == [True, False]
        assert any(r[1] == "dgn" for r in view["log"]["rows"]) and any(r[1] == table_log.WITHHELD
                                                                        for r in view["log"]["rows"])
        # Round 2's tables are in their round: nothing of theirs is withheld, nor refused so.
        now = _links(server)["tables"][0]
        assert client.get(f"/api/v1/tables/2/{now['table']}?log=1",
                          headers=_auth(now["token"])).json()["log"]["facts"]["over"] is False
    finally:
        server.close()


@pytest.mark.slow
def test_an_old_duplicate_key_s_page_lists_its_boards_as_played_in_a_browser(tmp_path: Path, browser) -> None:
    """The table's page opened with round 1's link once round 2 is paired: its boards listed as
    played, their result withheld (in the page's words), and no tile of their deals on it."""
    httpx = pytest.importorskip("httpx")
    from tournament.web.background import BackgroundVenue

    event = tmp_path / "dup.db"
    new_event(event, 2 * TABLES, "mitchell")
    run("boards", event, "--boards", TABLES * PER_ROUND, "--seed", 38)
    run("pair", event)
    deals = _deal_texts(event)
    served = BackgroundVenue(event, rate=1e9, burst=10 ** 9)
    try:
        link = served.links["tables"][0]
        director = served.links["director"].rsplit("/", 1)[1]
        with httpx.Client(base_url=served.base_url, timeout=30) as client:
            _play_round(served.server, client, 1, random.Random(5))
            mine = client.get("/api/v1/tables/1/1", headers=_auth(link["token"])).json()["boards"]
            assert client.post("/api/v1/director/pair", headers=_auth(director), json={}).status_code == 200
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(link["url"])
        page.wait_for_selector('#boards-played tr[data-withheld="yes"]', timeout=60_000)
        rows = page.locator("#boards-played tr[data-board]")
        assert rows.evaluate_all("rs => rs.map(r => [Number(r.dataset.board), r.dataset.withheld])") == \
            [[n, "yes"] for n in mine]
        assert "played: its result shows once every table that plays this board has played it" in \
            page.inner_text("#boards-played")
        text = page.content()
        assert not any(line.split(" ", 2)[2] in text for n in mine for line in deals[n])
    finally:
        served.close()

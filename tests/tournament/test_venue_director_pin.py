"""The director at the table (issue 34, "Correct one hand at the table"): on a table's own phone,
the table's key with the director's PIN reads that table's game line by line and corrects one
line or one hand of it, through the same correction as the director's page (the rest recorded
again by the engine, the game still a verified record), the trail naming the director at that
table.  The PIN is made once, shown to the director (the director's page, ``tournament links``,
``serve``) and to nobody else; a wrong PIN, or a table's key for another table, is refused in one
line (403) and changes nothing."""

from __future__ import annotations

import json
import re

import pytest

from domrec.validate import validate

from tournament import open_event
from tournament.event import audit
from tournament.store import venue as venue_sql
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

URL = "/api/v1/tables/1/1"
AT_TABLE = "the director at table 1/1 (director's PIN)"


def _open(path):
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    return server, client, links


def _at_table(token: str, pin: str | None) -> dict[str, str]:
    return {**_auth(token), **({"X-Director-PIN": pin} if pin is not None else {})}


def _sheet(client, token, ends):
    state = client.post(f"{URL}/mode", headers=_auth(token), json={"rev": 0, "mode": "sheet"}).json()
    for n, end in enumerate(ends, 1):
        r = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": f"hand {n}\nend {end}"})
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


def _confirm(client, token, state):
    for side in state["sides"]:
        body = {"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side}
        r = client.post(f"{URL}/confirm", headers=_auth(token), json=body)
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


def _trail(path):
    store = open_event(path)
    try:
        return [d for d in audit.desk_history(store) if d.action == "hand_corrected"]
    finally:
        store.close()


def test_the_directors_pin_is_made_once_and_shown_to_the_director_alone(tmp_path):
    """Six digits, made with the venue's keys and the same ever after; on the director's page, in
    ``tournament links`` (and ``--json``); on no public page, feed, table page or table state, and
    never a key: sent as one, it opens nothing."""
    from typer.testing import CliRunner

    from tournament.cli import app

    path = _event(tmp_path)
    run = CliRunner()
    printed = run.invoke(app, ["links", str(path)])
    assert printed.exit_code == 0, printed.output
    shown = re.search(r"^director's PIN:\s+(\d+)\s", printed.stdout, re.M)
    assert shown, printed.stdout
    pin = shown.group(1)
    assert len(pin) == venue_sql.DIRECTOR_PIN_DIGITS
    again = run.invoke(app, ["links", str(path), "--json"])
    assert json.loads(again.stdout)["director_pin"] == pin
    server, client, links = _open(path)
    try:
        assert links["director_pin"] == pin  # the server keeps it: made once
        token, director = links["tables"][0]["token"], _key(links["director"])
        _sheet(client, token, ["NS 30 EW 0"])
        desk = client.get(f"/d/{director}")
        assert desk.status_code == 200 and f'id="director-pin-value" class="nowrap">{pin}<' in desk.text
        never = re.compile(rf"(?<![0-9A-Za-z]){pin}(?![0-9A-Za-z])")
        for url, headers in [(f"/t/{token}", {}), (URL, _auth(token)), (f"{URL}/options?tile=6-6", _auth(token)),
                             ("/", {}), ("/tables", {}), ("/standings", {}), ("/games", {}), ("/projector", {}),
                             ("/players/1", {}), ("/api/v1/event", {}), ("/api/v1/standings", {}),
                             ("/api/v1/rounds/1", {}), ("/api/v1/changes", {}), ("/api/v1/openapi.json", {}),
                             (URL, _auth(director)), ("/api/v1/director", _auth(director))]:
            r = client.get(url, headers=headers)
            assert r.status_code == 200, (url, r.status_code)
            assert not never.search(r.text), url
        # The PIN is no key: as one it opens neither a table nor the director's desk.
        assert client.get(URL, headers=_auth(pin)).status_code == 403
        assert client.get("/api/v1/director", headers=_auth(pin)).status_code == 403
        assert client.get(f"/d/{pin}").status_code == 403
    finally:
        server.close()


def test_the_right_pin_corrects_at_the_table_and_a_wrong_one_is_refused(tmp_path):
    """Scores only: at table 1, with its own key and the director's PIN, hand 2 typed twice is taken
    back and a score corrected, and the table's call cleared; the trail names the director at that
    table.  No PIN, a wrong one, or table 2's key (with the right PIN) is refused in one line, 403,
    and nothing changes."""
    path = _event(tmp_path)
    server, client, links = _open(path)
    try:
        pin = links["director_pin"]
        one, two = links["tables"][0]["token"], links["tables"][1]["token"]
        state = _sheet(client, one, ["NS 30 EW 0", "NS 0 EW 44", "NS 0 EW 44"])
        got = client.get(f"{URL}/lines", headers=_at_table(one, pin))
        assert got.status_code == 200 and got.json()["hands"][1] == ["hand 2", "end NS 0 EW 44"]
        body = {"rev": state["rev"], "hand": 3, "line": None, "text": "", "reason": "hand 2 typed twice"}
        wrong = str((int(pin) + 1) % 10 ** len(pin)).zfill(len(pin))
        for headers, words in [(_auth(one), "type the director's PIN"),
                               (_at_table(one, ""), "type the director's PIN"),
                               (_at_table(one, wrong), "that is not the director's PIN"),
                               # (not six digits: no guess, refused uncounted, saying its shape)
                               (_at_table(one, pin + "0"), "the director's PIN is 6 digits"),
                               (_at_table(one, "PIN " + pin), "the director's PIN is 6 digits"),
                               (_at_table(two, pin), "this link opens another table")]:
            for r in (client.get(f"{URL}/lines", headers=headers), client.post(f"{URL}/correct", headers=headers,
                                                                              json=body)):
                assert r.status_code == 403, (headers, r.json())
                error = r.json()["error"]
                assert error.startswith(words) and "\n" not in error, error
                assert pin not in error
            # Wrong PINs count against the table (after 5 it waits): cleared here between cases.
            client.post(f"{URL}/pins/clear", headers=_auth(_key(links["director"])), json={})
        assert client.get(URL, headers=_auth(one)).json()["rev"] == state["rev"]  # nothing changed
        assert _trail(path) == []
        # In Spanish, the refusal too.
        r = client.post(f"{URL}/correct?lang=es", headers=_at_table(one, wrong), json=body)
        assert r.status_code == 403 and r.json()["error"] == "ese no es el PIN del árbitro"

        r = client.post(f"{URL}/correct", headers=_at_table(one, pin), json=body)
        assert r.status_code == 200, r.json()
        state = r.json()
        assert [h["result"]["scores"] for h in state["game"]["hands"]] == [{"NS": 30, "EW": 0}, {"NS": 0, "EW": 44}]
        assert state["corrected"]["hand"] == 3  # what the table's page says of it
        r = client.post(f"{URL}/correct", headers=_at_table(one, pin),
                        json={"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 31 EW 0", "reason": "misread"})
        assert r.status_code == 200 and r.json()["game"]["totals"] == {"NS": 31, "EW": 44}
        assert "hand 1 corrected" in r.json()["said"][0]
        # The same correction sent again (an older view): refused, never made twice.
        r = client.post(f"{URL}/correct", headers=_at_table(one, pin),
                        json={"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 31 EW 0", "reason": "misread"})
        assert r.status_code == 409
        # The call that brought the director to the table is cleared there too, with the PIN only.
        called = client.post(f"{URL}/call", headers=_auth(one), json={}).json()
        assert called["called"]
        for headers in (_auth(one), _at_table(one, wrong), _at_table(two, pin)):
            r = client.post(f"{URL}/clear", headers=headers, json={"rev": called["rev"]})
            assert r.status_code == 403, r.json()
        client.post(f"{URL}/pins/clear", headers=_auth(_key(links["director"])), json={})
        r = client.post(f"{URL}/clear", headers=_at_table(one, pin), json={"rev": called["rev"]})
        assert r.status_code == 200 and not r.json()["called"] and r.json()["said"] == ["the call is cleared"]
        # A move recorded after it: the table's page no longer says the game was corrected.
        assert r.json()["corrected"]["hand"] == 1  # a call and its clearing leave the game as corrected
        after = client.post(f"{URL}/dgn", headers=_auth(one),
                            json={"rev": r.json()["rev"], "text": "hand 3\nend NS 12 EW 0"}).json()
        assert after["corrected"] is None
    finally:
        server.close()
    trail = _trail(path)
    assert [(d.by, d.reason, d.detail["hand"]) for d in trail] == [
        (AT_TABLE, "hand 2 typed twice", 3), (AT_TABLE, "misread", 1)]


def test_a_move_taken_back_at_the_table_and_the_game_stays_verified(tmp_path):
    """Play by play: in hand 2 the director, at the table with the PIN, takes back the last move
    recorded (its line removed); the table records it again, plays on and confirms: the result is
    the true game's, a verified record."""
    path = _event(tmp_path)
    record = _game_of(path, 1, 1, seed=5)
    texts = _requests(record)
    server, client, links = _open(path)
    try:
        token, pin = links["tables"][0]["token"], links["director_pin"]
        state = client.get(URL, headers=_auth(token)).json()
        starts = [k for k, x in enumerate(texts) if x.startswith("hand ")]
        assert len(starts) >= 2, "the game has one hand only"
        taken = False
        for k, text in enumerate(texts):
            r = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
            assert r.status_code == 200, (text, r.json())
            before, state = state, r.json()
            game = state["game"]
            if taken or k < starts[1] + 4 or not game["in_hand"] or text.split()[0] in ("hand", "deal"):
                continue
            moved = len(game["hands"][-1]["moves"]) - len(before["game"]["hands"][-1]["moves"])
            lines = client.get(f"{URL}/lines", headers=_at_table(token, pin)).json()
            last = lines["hands"][-1][-1]
            if moved != 1 or last.split()[-1] == "-":
                continue  # a pass made with it: another move is taken back
            r = client.post(f"{URL}/correct", headers=_at_table(token, pin),
                            json={"rev": state["rev"], "hand": len(lines["hands"]), "line": len(lines["hands"][-1]),
                                  "text": "", "reason": "the tile was tapped before it was played"})
            assert r.status_code == 200, r.json()
            undone = r.json()
            assert undone["game"]["hands"][-1]["moves"] == before["game"]["hands"][-1]["moves"]
            assert undone["game"]["legal"] == before["game"]["legal"]
            r = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": undone["rev"], "text": text})
            assert r.status_code == 200, r.json()
            state, taken = r.json(), True
        assert taken, "no move of hand 2 could be taken back alone"
        assert state["game"]["over"] and state["game"]["totals"] == validate(record).scores
        state = _confirm(client, token, state)
        assert state["result"]["verified"] and state["result"]["kind"] == "record"
        assert state["result"]["scores"] == validate(record).scores
    finally:
        server.close()
    assert [(d.by, d.detail["now"]) for d in _trail(path)] == [(AT_TABLE, "")]


def test_a_confirmed_game_corrected_at_the_table_is_amended_and_stays_verified(tmp_path):
    """After both sides confirmed, the director at the table corrects the last hand's tiles left:
    the result is amended in the same write, still a verified record, the old one in the audit
    trail with the director at the table named."""
    from domrec.session import requests_for

    path = _event(tmp_path)
    record = _game_of(path, 1, 1, seed=5)
    server, client, links = _open(path)
    try:
        token, pin = links["tables"][0]["token"], links["director_pin"]
        state = client.get(URL, headers=_auth(token)).json()
        for text in requests_for(record, keep_deal=False):
            state = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text}).json()
        state = _confirm(client, token, state)
        assert state["status"] == "confirmed"
        hands = client.get(f"{URL}/lines", headers=_at_table(token, pin)).json()["hands"]
        at = next(k for k, x in enumerate(hands[-1], 1) if x.startswith("left "))
        left = dict(part.strip().split(" ", 1) for part in hands[-1][at - 1][5:].split(";"))
        accepted = None
        seats = list(left)
        for a in range(len(seats)):  # a tile of one seat's swapped with one of another's, until one replays
            for b in range(a + 1, len(seats)):
                ta, tb = left[seats[a]].split(), left[seats[b]].split()
                for i in range(len(ta)):
                    for j in range(len(tb)):
                        if accepted:
                            break
                        new = dict(left)
                        na, nb = ta.copy(), tb.copy()
                        na[i], nb[j] = tb[j], ta[i]
                        new[seats[a]], new[seats[b]] = " ".join(na), " ".join(nb)
                        r = client.post(f"{URL}/correct", headers=_at_table(token, pin),
                                        json={"rev": state["rev"], "hand": len(hands), "line": at,
                                              "text": "left " + "; ".join(f"{s} {t}" for s, t in new.items()),
                                              "reason": "the tiles were counted wrong"})
                        if r.status_code == 200:
                            accepted = r.json()
                        else:
                            assert r.status_code == 422 and "nothing was changed" in r.json()["error"]
        assert accepted is not None
        assert accepted["status"] == "confirmed" and accepted["result"]["verified"]
        assert accepted["result"]["scores"] == accepted["game"]["totals"]
        assert any("amended" in x for x in accepted["said"])
    finally:
        server.close()
    store = open_event(path)
    try:
        assert [(row["reason"], row["changed_by"]) for row in store.audit()] == [("the tiles were counted wrong", AT_TABLE)]
    finally:
        store.close()


def test_the_pages_words_come_before_their_scripts(tmp_path):
    """A page's words (the JSON its scripts look their strings up in) come before its scripts: the
    director's page says words as it loads (the sound switch, the tables' states), which were
    English on the Spanish page while the words came after it."""
    path = _event(tmp_path)
    server, client, links = _open(path)
    try:
        for url in (f"/d/{_key(links['director'])}?lang=es", f"/t/{links['tables'][0]['token']}?lang=es"):
            html = client.get(url).text
            words = html.index('id="strings"')
            assert words < html.index("<script src="), url
            assert '"in play": "en juego"' in html or "/t/" in url
    finally:
        server.close()


def test_wrong_directors_pins_make_the_table_wait_as_wrong_players_pins_do(tmp_path):
    """A table's phone cannot try the director's PINs one by one: a wrong one counts against the
    table as a wrong player's PIN does; after 5 every PIN is refused unread (429, the right one
    too) until the wait ends or the director clears it; a restart does not forget it."""
    from tests.tournament.test_venue_pins import Clock

    path = _event(tmp_path)
    clock = Clock()
    server = _server(path, clock=clock)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    pin, one = links["director_pin"], links["tables"][0]["token"]
    wrong = [f"{k:06d}" for k in range(40) if f"{k:06d}" != pin][:30]
    try:
        answers = [client.get(f"{URL}/lines", headers=_at_table(one, w)) for w in wrong]
        assert [r.status_code for r in answers[:5]] == [403] * 5
        assert "wait 30 seconds" in answers[4].json()["error"]
        assert {r.status_code for r in answers[5:]} == {429}
        assert all("Retry-After" in r.headers or "retry-after" in r.headers for r in answers[5:])
        r = client.get(f"{URL}/lines", headers=_at_table(one, pin))
        assert r.status_code == 429  # the right PIN too, while the table waits
        overview = client.get("/api/v1/director", headers=_auth(_key(links["director"]))).json()
        assert overview["tables"][0]["wrong_pins"] == 5 and overview["tables"][0]["pin_wait"] > 0
    finally:
        server.close()
    server = _server(path, clock=clock)  # a server started again: the table still waits
    client = starlette_testclient.TestClient(server.asgi)
    try:
        assert client.get(f"{URL}/lines", headers=_at_table(one, pin)).status_code == 429
        clock.advance(30)
        assert client.get(f"{URL}/lines", headers=_at_table(one, pin)).status_code == 200
        assert client.get(f"{URL}/lines", headers=_at_table(one, wrong[0])).status_code == 403
        assert client.get(f"{URL}/lines", headers=_at_table(one, pin)).status_code == 429  # 60 s now
        r = client.post(f"{URL}/pins/clear", headers=_auth(_key(links["director"])), json={})
        assert r.status_code == 200
        assert client.get(f"{URL}/lines", headers=_at_table(one, pin)).status_code == 200
    finally:
        server.close()


def test_wrong_directors_pins_at_many_tables_make_every_table_wait(tmp_path):
    """Every table keeps its key (its QR code lies on the table), and each table's phone has 5
    wrong PINs of its own: tried at table after table, the director's PIN held only as long as
    there were keys.  After 10 wrong director's PINs at the event's tables together, the
    director's PIN waits at every table (30 s, doubling: read nowhere meanwhile, the right one
    too), and the director's page clears it with a table's wrong PINs."""
    from tests.tournament.test_venue_pins import Clock
    from tournament import add_players, create_event, make_settings, pair_next_round

    path = tmp_path / "sixteen.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, [f"P{i}" for i in range(1, 17)])
    pair_next_round(store)
    store.close()
    clock = Clock()
    server = _server(path, clock=clock)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    pin, tables = links["director_pin"], links["tables"]
    assert len(tables) == 4
    wrong = iter(f"{k:06d}" for k in range(100) if f"{k:06d}" != pin)
    try:
        for n, table in enumerate(tables[:3], 1):  # 4 wrong a table, each table under its own 5
            url = f"/api/v1/tables/1/{n}/lines"
            codes = [client.get(url, headers=_at_table(table["token"], next(wrong))).status_code for _ in range(4)]
            assert codes == ([403] * 4 if n < 3 else [403, 403, 429, 429]), (n, codes)
        fresh = "/api/v1/tables/1/4/lines"
        r = client.get(fresh, headers=_at_table(tables[3]["token"], pin))  # a table with no wrong PIN, the right PIN
        assert r.status_code == 429 and "the director's PIN waits 30 seconds more at every table" in r.json()["error"]
        clock.advance(30)
        assert client.get(fresh, headers=_at_table(tables[3]["token"], pin)).status_code == 200
        assert client.get(fresh, headers=_at_table(tables[3]["token"], next(wrong))).status_code == 403
        assert client.get(fresh, headers=_at_table(tables[3]["token"], pin)).status_code == 429  # 60 s now
        r = client.post("/api/v1/tables/1/1/pins/clear", headers=_auth(_key(links["director"])), json={})
        assert r.status_code == 200
        assert client.get(fresh, headers=_at_table(tables[3]["token"], pin)).status_code == 200
    finally:
        server.close()


def _sixteen(tmp_path):
    """An event of 16 players at 4 tables (round 1 paired)."""
    from tournament import add_players, create_event, make_settings, pair_next_round

    path = tmp_path / "sixteen.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, [f"P{i}" for i in range(1, 17)])
    pair_next_round(store)
    store.close()
    return path


def test_the_event_wide_count_of_wrong_directors_pins_is_kept_in_the_event_file(tmp_path):
    """The wrong director's PINs of all the tables together are counted in the event file, as
    each table's are: a server started again goes on counting from them (the 10th makes every
    table wait, whichever server life the others were made in), and still makes every table wait;
    the director's clearing forgets them in the file too."""
    from tests.tournament.test_venue_pins import Clock

    path = _sixteen(tmp_path)
    clock = Clock()
    server = _server(path, clock=clock)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    pin, tables = links["director_pin"], links["tables"]
    wrong = iter(f"{k:06d}" for k in range(100) if f"{k:06d}" != pin)

    def lines(n, typed):
        return client.get(f"/api/v1/tables/1/{n}/lines", headers=_at_table(tables[n - 1]["token"], typed))

    try:
        assert [lines(n, next(wrong)).status_code for n in (1, 1, 1, 1, 2, 2, 2, 2, 3)] == [403] * 9
    finally:
        server.close()
    store = open_event(path)
    try:
        assert venue_sql.director_pin_misses(store) == (9, None)
    finally:
        store.close()
    server = _server(path, clock=clock)  # started again: the 10th wrong PIN is the 10th
    client = starlette_testclient.TestClient(server.asgi)
    try:
        assert lines(3, next(wrong)).status_code == 403
        r = lines(4, pin)
        assert r.status_code == 429 and "waits 30 seconds more at every table" in r.json()["error"]
    finally:
        server.close()
    server = _server(path, clock=clock)  # and again: every table still waits
    client = starlette_testclient.TestClient(server.asgi)
    try:
        assert lines(4, pin).status_code == 429
        r = client.post("/api/v1/tables/1/1/pins/clear", headers=_auth(_key(links["director"])), json={})
        assert r.status_code == 200
        assert lines(4, pin).status_code == 200
    finally:
        server.close()
    store = open_event(path)
    try:
        assert venue_sql.director_pin_misses(store) == (0, None)
    finally:
        store.close()


@pytest.mark.slow
def test_a_killed_server_forgets_no_wrong_directors_pin_of_the_event(tmp_path):
    """The real ``tournament serve`` in a process of its own: 9 wrong director's PINs at three
    tables (each under its own 5), the server killed (``kill -9``) and started again; one more
    is the event's 10th, and the director's PIN waits at every table, the right one at a table
    that never had a wrong PIN too; ``tournament pins --clear`` beside the server clears it.  (Kept in memory, the count started again from 0 and a
    script got 9 more tries a restart.)"""
    from typer.testing import CliRunner

    from tests.tournament import served
    from tests.tournament.served import free_port, stop
    from tournament.cli import app
    from tournament.event import venue as vn

    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    path = _sixteen(tmp_path)
    store = open_event(path)
    links = vn.links(store, "http://127.0.0.1")
    store.close()
    pin, tables = links["director_pin"], links["tables"]
    wrong = iter(f"{k:06d}" for k in range(100) if f"{k:06d}" != pin)
    port = free_port()

    def lines(client, n, typed):
        return client.get(f"/api/v1/tables/1/{n}/lines", headers=_at_table(tables[n - 1]["token"], typed))

    proc = served.serve(path, port)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            codes = [lines(client, n, next(wrong)).status_code for n in (1, 1, 1, 1, 2, 2, 2, 2, 3)]
            assert codes == [403] * 9
        stop(proc, kill=True)
        proc = served.serve(path, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            assert lines(client, 3, next(wrong)).status_code == 403
            r = lines(client, 4, pin)
            assert r.status_code == 429, r.text
            assert "the director's PIN waits" in r.json()["error"] and int(r.headers["retry-after"]) > 0
            # `tournament pins --clear` beside the running server clears the event's count with the table's.
            done = CliRunner().invoke(app, ["pins", str(path), "--clear", "1/1"])
            assert done.exit_code == 0, done.output
            assert lines(client, 4, pin).status_code == 200
    finally:
        stop(proc, kill=True)

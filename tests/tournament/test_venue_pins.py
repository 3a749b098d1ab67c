"""PINs against brute force (issue 35): after five wrong PINs a table's confirmations wait, 30
seconds and doubling, whatever device asks, the right PIN too; the wrong tries are in the event
file (a server started again still makes the table wait); the director sees them and clears
them (page, API, command line), into the audit trail; a confirmation names the player whose PIN
it was.  The venue's clock is the test's: no test waits."""

from __future__ import annotations

import datetime
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app
from tournament.event import audit
from tournament.event import venue as vn

from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _play, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


class Clock:
    """The venue's clock, moved by the test."""

    def __init__(self) -> None:
        self.now = datetime.datetime(2026, 5, 2, 19, 0, tzinfo=datetime.timezone.utc)

    def __call__(self) -> datetime.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += datetime.timedelta(seconds=seconds)


def _pins_of(path: Path, round_no: int = 1, table_no: int = 1) -> tuple[dict[int, str], dict[str, list[int]], dict]:
    """Every player's PIN, the players of each side of the table, and the players by number."""
    store = open_event(path)
    try:
        pins = vn.make_pins(store)
        table = next(t for t in store.tables(round_no) if t.number == table_no)
        sides: dict[str, list[int]] = {}
        for s in table.seats:
            sides.setdefault(s.side, []).append(s.player)
        return pins, sides, {p.id: p for p in store.players()}
    finally:
        store.close()


def _wrong_pins(pins: dict[int, str], count: int) -> list[str]:
    """``count`` PINs that are nobody's."""
    taken = set(pins.values())
    return [pin for pin in (f"{k:04d}" for k in range(10_000)) if pin not in taken][:count]


def test_thirty_wrong_pins_then_the_right_one_waits_until_the_wait_ends(tmp_path):
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    right = pins[sides["NS"][1]]  # a side is confirmed with any of its players' PINs
    clock = Clock()
    server = _server(path, pins=True, clock=clock)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)
        url = "/api/v1/tables/1/1/confirm"

        def confirm(side: str, pin: str):
            return client.post(url, headers=_auth(token), json={"rev": state["rev"], "side": side, "pin": pin})

        waits = []
        for k, wrong in enumerate(_wrong_pins(pins, 30), 1):
            r = confirm("NS", wrong)
            assert r.status_code == 403, (k, r.json())
            assert "that PIN is not the PIN of a player of NS" in r.json()["error"]
            wait = vn.pin_wait(k)
            waits.append(wait)
            if not wait:
                continue
            assert f"wait {wait} seconds" in r.json()["error"]
            # Waiting: every confirmation is refused unread, the right PIN too, the other side's too.
            for side, pin in (("NS", right), ("EW", pins[sides["EW"][0]]), ("NS", wrong)):
                r = confirm(side, pin)
                assert r.status_code == 429 and r.headers["retry-after"] == str(wait), r.json()
                error = r.json()["error"]
                assert error == (f"too many wrong PINs at this table: confirmations wait {wait} seconds more (the "
                                 f"director can clear them)") and "\n" not in error
            clock.advance(wait - 0.5)
            r = confirm("NS", right)
            assert r.status_code == 429 and r.headers["retry-after"] == "1" and "1 second more" in r.json()["error"]
            clock.advance(0.5)  # the wait is over: the next wrong PIN is judged (and counted)
        assert waits[:4] == [0] * 4 and waits[4:12] == [30, 60, 120, 240, 480, 960, 1920, 3600]
        assert set(waits[12:]) == {3600}  # the longest wait
        # Refused tries stored nothing of the table: its revision is where the game left it.
        assert client.get("/api/v1/tables/1/1", headers=_auth(token)).json()["rev"] == state["rev"]
        r = confirm("NS", _wrong_pins(pins, 31)[30])  # the 31st wrong PIN
        assert r.status_code == 403
        r = confirm("NS", right)
        assert r.status_code == 429 and r.headers["retry-after"] == "3600"
        clock.advance(3599)
        assert confirm("NS", right).status_code == 429
        clock.advance(1)
        r = confirm("NS", right)
        assert r.status_code == 200 and "NS" in r.json()["confirmations"], r.json()
        # The director's page sees the table's wrong PINs (no wait now).
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["wrong_pins"] == 31 and row["pin_wait"] == 0
    finally:
        server.close()


def _finished(path: Path, clock: Clock) -> tuple[vn.Venue, int]:
    """A venue (with PINs, the test's clock) whose round 1 table 1 has finished its game."""
    venue = vn.Venue(open_event(path), pins=True, clock=clock)
    rev = venue.state(1, 1)["rev"]
    for text in hand_by_hand(_requests(_game_of(path, 1, 1, seed=3))):
        rev = venue.record(1, 1, rev, text)["rev"]
    return venue, rev


def test_a_confirmation_sent_again_counts_its_wrong_pin_once(tmp_path):
    """The phone sends a confirmation the server did not answer again, with its same id (a try it
    gave up on may still reach a server that wakes): a wrong PIN in it is counted once, and the
    same write is answered the same refusal; the right PIN, a write of its own, is then taken."""
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    venue, rev = _finished(path, Clock())
    try:
        wrong = _wrong_pins(pins, 1)[0]
        said = []
        for _ in range(3):
            with pytest.raises(vn.VenueError) as refused:  # (Forbidden, then the same refusal replayed)
                venue.confirm(1, 1, rev, "EW", wrong, cid="phone-write-1")
            said.append((refused.value.status, refused.value.message))
        assert said == [(403, "that PIN is not the PIN of a player of EW")] * 3
        assert venue.pin_tries(1, 1)["wrong"] == 1
        right = venue.confirm(1, 1, rev, "EW", pins[sides["EW"][0]], cid="phone-write-2")
        assert "EW" in right["confirmations"]
        assert venue.confirm(1, 1, rev, "EW", pins[sides["EW"][0]], cid="phone-write-2")["rev"] == right["rev"]
    finally:
        venue.store.close()


def test_the_wait_survives_a_server_started_again(tmp_path):
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    clock = Clock()
    venue, rev = _finished(path, clock)
    for wrong in _wrong_pins(pins, 5):
        with pytest.raises(vn.Forbidden):
            venue.confirm(1, 1, rev, "EW", wrong)
    # Each wrong PIN was committed before it was answered: another connection sees all five.
    seen = sqlite3.connect(path)
    assert seen.execute("SELECT wrong FROM venue_pin_tries").fetchall() == [(5,)]
    seen.close()
    venue.store.close()
    again = vn.Venue(open_event(path), pins=True, clock=clock)  # a new server on the same file
    try:
        with pytest.raises(vn.Waiting) as refused:
            again.confirm(1, 1, rev, "EW", pins[sides["EW"][0]])
        assert refused.value.retry_after == 30 and refused.value.status == 429
        assert again.pin_tries(1, 1) == {"round": 1, "table": 1, "wrong": 5, "wait": 30}
        clock.advance(30)
        assert "EW" in again.confirm(1, 1, rev, "EW", pins[sides["EW"][0]])["confirmations"]
    finally:
        again.store.close()


def test_the_director_clears_a_tables_wrong_pins(tmp_path):
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    clock = Clock()
    server = _server(path, pins=True, clock=clock)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token, director = links["tables"][0]["token"], _key(links["director"])
        state = _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)
        url = "/api/v1/tables/1/1/confirm"
        for k, wrong in enumerate(_wrong_pins(pins, 6), 1):
            if k == 6:
                clock.advance(30)  # after the first wait
            r = client.post(url, headers=_auth(token), json={"rev": state["rev"], "side": "NS", "pin": wrong})
            assert r.status_code == 403
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["wrong_pins"] == 6 and row["pin_wait"] == 60
        clear = "/api/v1/tables/1/1/pins/clear"
        r = client.post(clear, headers=_auth(token), json={})
        assert r.status_code == 403  # a table's key does not clear its own wrong PINs
        r = client.post(clear, headers=_auth(director), json={})
        assert r.status_code == 200 and r.json()["said"] == [
            "round 1 table 1: 6 wrong PINs cleared; its confirmations wait no more"]
        r = client.post(clear, headers=_auth(director), json={})
        assert r.status_code == 422 and "nothing to clear" in r.json()["error"]
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["wrong_pins"] == 0 and row["pin_wait"] == 0
        r = client.post(url, headers=_auth(token), json={"rev": state["rev"], "side": "NS", "pin": pins[sides["NS"][0]]})
        assert r.status_code == 200
        rev = r.json()["rev"]
        # In Spanish, the refusal in its words.
        for wrong in _wrong_pins(pins, 5):
            r = client.post(url + "?lang=es", headers=_auth(token), json={"rev": rev, "side": "EW", "pin": wrong})
        assert r.status_code == 403 and "30 segundos" in r.json()["error"], r.json()
        r = client.post(url, headers={**_auth(token), "Accept-Language": "es"},
                        json={"rev": rev, "side": "EW", "pin": pins[sides["EW"][0]]})
        assert r.status_code == 429 and r.json()["error"] == (
            "demasiados PIN incorrectos en esta mesa: las confirmaciones esperan 30 segundos más (el árbitro puede "
            "borrar los PIN incorrectos)")
    finally:
        server.close()
    # At the command line, beside nothing or beside a server: the same clearing, into the trail.
    runner = CliRunner()
    r = runner.invoke(app, ["pins", str(path), "--clear", "1/1", "--by", "Marta"])
    assert r.exit_code == 0 and r.stdout == "round 1 table 1: 5 wrong PINs cleared; its confirmations wait no more\n"
    r = runner.invoke(app, ["pins", str(path), "--clear", "1/1"])
    assert r.exit_code != 0 and "nothing to clear" in r.output and r.output.count("\n") == 1
    for bad in ("1", "1/x", "one/two"):
        r = runner.invoke(app, ["pins", str(path), "--clear", bad])
        assert r.exit_code == 2 and "R/T" in r.output and "Traceback" not in r.output
    r = runner.invoke(app, ["pins", str(path), "--clear", "1/9"])
    assert r.exit_code != 0 and "no table 9" in r.output
    store = open_event(path)
    try:
        cleared = [d for d in audit.desk_history(store) if d.action == "wrong_pins_cleared"]
        assert [(d.by, d.round, d.detail["table"], d.detail["wrong"]) for d in cleared] == [
            ("the director's page", 1, 1, 6), ("Marta (command line)", 1, 1, 5)]
    finally:
        store.close()
    r = runner.invoke(app, ["history", str(path)])
    assert r.exit_code == 0 and "wrong pins cleared" in r.stdout


@pytest.mark.parametrize("typed", ["١/1", "1/١", "٣/1", "３/1", "1/¹"])
def test_clear_takes_its_round_and_table_in_digits_0_to_9(tmp_path, typed):
    """int() reads any script's digits (٣ as 3): --clear ٣/1 cleared round 3's table 1."""
    path = _event(tmp_path)
    r = CliRunner().invoke(app, ["pins", str(path), "--clear", typed])
    assert r.exit_code == 2 and "R/T" in r.stderr and repr(typed) in r.stderr, r.output
    assert r.stderr.count("\n") == 1 and not r.stdout


@pytest.mark.parametrize("typed", ["0/0", "0/1", "1/0"])
def test_clear_says_rounds_and_tables_are_numbered_from_1(tmp_path, typed):
    """``0/0`` is in digits 0-9: the refusal says what is wrong with it (a tester's finding)."""
    path = _event(tmp_path)
    r = CliRunner().invoke(app, ["pins", str(path), "--clear", typed])
    assert r.exit_code == 2 and "numbered from 1" in r.stderr and repr(typed) in r.stderr, r.output


def test_a_confirmation_names_the_player_whose_pin_it_was(tmp_path):
    path = _event(tmp_path)
    pins, sides, players = _pins_of(path)
    venue, rev = _finished(path, Clock())
    try:
        ns, ew = sides["NS"][1], sides["EW"][0]
        rev = venue.confirm(1, 1, rev, "NS", pins[ns])["rev"]
        state = venue.confirm(1, 1, rev, "EW", pins[ew])
        assert state["result"] is not None
        confirmed = [d for d in audit.desk_history(venue.store) if d.action == "result_confirmed"]
        assert [(d.by, d.detail) for d in confirmed] == [
            (f"{players[ns].name}'s PIN at round 1 table 1", {"table": 1, "side": "NS", "player": ns}),
            (f"{players[ew].name}'s PIN at round 1 table 1", {"table": 1, "side": "EW", "player": ew})]
        entered = [e for e in audit.first_entries(venue.store) if (e.round, e.table) == (1, 1)]
        assert [e.by for e in entered] == [f"{players[ew].name}'s PIN at round 1 table 1"]
    finally:
        venue.store.close()


def test_without_pins_the_phone_enters_the_result(tmp_path):
    path = _event(tmp_path)
    venue = vn.Venue(open_event(path))
    try:
        rev = venue.state(1, 1)["rev"]
        for text in hand_by_hand(_requests(_game_of(path, 1, 1, seed=3))):
            rev = venue.record(1, 1, rev, text)["rev"]
        rev = venue.confirm(1, 1, rev, "NS")["rev"]
        venue.confirm(1, 1, rev, "EW")
        entered = [e for e in audit.first_entries(venue.store) if (e.round, e.table) == (1, 1)]
        assert [e.by for e in entered] == ["the phone at round 1 table 1"]
        assert not [d for d in audit.desk_history(venue.store) if d.action == "result_confirmed"]
    finally:
        venue.store.close()


@pytest.mark.slow
def test_a_killed_server_forgets_no_wrong_pin_and_the_command_line_clears_them_beside_it(tmp_path):
    """The real ``tournament serve --pins`` in a process of its own: five wrong PINs answered, the
    server killed (``kill -9``) and started again: the table still has its five; ``tournament pins
    --clear`` beside the running server clears them."""
    import subprocess

    from tests.tournament import served
    from tests.tournament.served import free_port, stop

    httpx = pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")
    path = _event(tmp_path)
    pins, sides, _ = _pins_of(path)
    store = open_event(path)
    links = vn.links(store, "http://127.0.0.1")
    store.close()
    token, director = links["tables"][0]["token"], _key(links["director"])
    port = free_port()

    def serve() -> subprocess.Popen:
        return served.serve(path, port, "--pins")

    proc = serve()
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            url = "/api/v1/tables/1/1"
            rev = client.get(url, headers=_auth(token)).json()["rev"]
            for text in hand_by_hand(_requests(_game_of(path, 1, 1, seed=3))):
                r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": rev, "text": text})
                assert r.status_code == 200, r.text
                rev = r.json()["rev"]
            for wrong in _wrong_pins(pins, 5):
                r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": rev, "side": "NS", "pin": wrong})
                assert r.status_code == 403
        stop(proc, kill=True)
        proc = serve()
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
            row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
            assert row["wrong_pins"] == 5  # (its wait may be over by now: the real clock runs on)
            r = CliRunner().invoke(app, ["pins", str(path), "--clear", "1/1"])
            assert r.exit_code == 0, r.output
            row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
            assert row["wrong_pins"] == 0 and row["pin_wait"] == 0
            r = client.post(f"{url}/confirm", headers=_auth(token),
                            json={"rev": rev, "side": "NS", "pin": pins[sides["NS"][0]]})
            assert r.status_code == 200 and "NS" in r.json()["confirmations"]
    finally:
        stop(proc, kill=True)

"""The event-wide wait for the director's PIN, as the director meets it (a tester's finding).

Wrong director's PINs typed at several tables (each under its own five) start a wait of the
director's PIN at every table.  Before, the director's page said nothing of it (every table's row
``pin_wait`` 0, no field for the event), a table's *Clear the wrong PINs* at a table with none was
refused "nothing to clear" while the wait stood, and the clear of a table that had some lifted the
wait without saying so.  Now:

* the director's overview carries ``director_pins`` (``{wrong, wait}``: the seconds left, 0 once
  over), and a table's state ``director_pin_wait`` (``{seconds, every_table}``), the 429 of the PIN
  ``pin_wait_every_table``;
* a table's clear lifts the event's wait too and says so; at a table with no wrong PIN of its own
  it clears the event's count alone (refused only when there is nothing at all);
* ``POST /api/v1/director/pins/clear`` (the director's page's own button) and ``tournament pins
  --clear-director`` clear the event's count alone, each table's own wrong PINs left as they are.

API-level, with the server's test client; the venue's clock is the test's."""

from __future__ import annotations

import pytest

from tests.tournament.test_venue import _auth, _key, _server
from tests.tournament.test_venue_pins import Clock
from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import audit

starlette_testclient = pytest.importorskip("starlette.testclient")

SPANISH = {"Accept-Language": "es"}
EVENT_LIFTED = "10 wrong director's PINs at the tables cleared: the director's PIN waits at no table"
EVENT_LIFTED_ES = ("10 PIN del árbitro incorrectos en las mesas borrados: el PIN del árbitro ya no espera en "
                   "ninguna mesa")


def _sixteen(tmp_path):
    """An event of 16 players at 4 tables (round 1 paired)."""
    path = tmp_path / "sixteen.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, [f"P{i}" for i in range(1, 17)])
    pair_next_round(store)
    store.close()
    return path


class _Hall:
    """A served event whose tables 1-3 had wrong director's PINs typed (4, 4 and 2: the tenth, at
    table 3, starts the event's 30-second wait; no table reaches its own five); table 4 had none."""

    def __init__(self, tmp_path) -> None:
        self.path = _sixteen(tmp_path)
        self.clock = Clock()
        self.server = _server(self.path, clock=self.clock)
        self.client = starlette_testclient.TestClient(self.server.asgi)
        links = self.server.call(self.server.venue.links, "http://testserver")
        self.pin, self.tables, self.director = links["director_pin"], links["tables"], _key(links["director"])
        self.wrong = iter(f"{k:06d}" for k in range(1000) if f"{k:06d}" != self.pin)
        codes = [self.lines(n, next(self.wrong)).status_code for n in (1, 1, 1, 1, 2, 2, 2, 2, 3, 3)]
        assert codes == [403] * 10, codes

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
            self.server = None

    def lines(self, n, typed):
        return self.client.get(f"/api/v1/tables/1/{n}/lines",
                               headers={**_auth(self.tables[n - 1]["token"]), "X-Director-PIN": typed})

    def overview(self, headers=None):
        r = self.client.get("/api/v1/director", headers={**_auth(self.director), **(headers or {})})
        assert r.status_code == 200, r.text
        return r.json()

    def post(self, url, headers=None, body=None):
        return self.client.post(url, headers={**_auth(self.director), **(headers or {})}, json=body or {})


@pytest.fixture
def hall(tmp_path):
    made = _Hall(tmp_path)
    try:
        yield made
    finally:
        made.close()


def test_the_directors_page_is_told_the_event_wide_wait_counting_down(hall):
    view = hall.overview()
    assert [t["pin_wait"] for t in view["tables"]] == [0, 0, 0, 0]  # (no table waits of its own)
    assert [t["wrong_pins"] for t in view["tables"]] == [4, 4, 2, 0]
    assert view["director_pins"] == {"wrong": 10, "wait": 30}
    hall.clock.advance(12)
    assert hall.overview()["director_pins"] == {"wrong": 10, "wait": 18}
    hall.clock.advance(18)
    assert hall.overview()["director_pins"] == {"wrong": 10, "wait": 0}  # over: the count stays, the wait is gone


def test_a_tables_state_and_the_pins_refusal_say_the_event_wide_wait(hall):
    """The table's phone counts the director's PIN's wait down (table_director.js) from its state
    and from the PIN's 429, which tell the event's wait from the table's own."""
    token = hall.tables[3]["token"]
    state = hall.client.get("/api/v1/tables/1/4", headers=_auth(token)).json()
    assert state["director_pin_wait"] == {"seconds": 30, "every_table": True}
    assert "pin_wait" not in state  # (its confirmations do not wait: no --pins, and no wrong PIN of its own)
    r = hall.lines(4, hall.pin)
    assert r.status_code == 429 and r.json()["pin_wait"] == 30 and r.json()["pin_wait_every_table"] is True
    hall.clock.advance(30)
    assert "director_pin_wait" not in hall.client.get("/api/v1/tables/1/4", headers=_auth(token)).json()
    # A table's own wait (its fifth wrong PIN, here the event's 11th: the event waits 60 s now, the
    # table 30 s): the longer said, as the event's.
    assert hall.lines(1, next(hall.wrong)).status_code == 403
    state = hall.client.get("/api/v1/tables/1/1", headers=_auth(hall.tables[0]["token"])).json()
    assert state["director_pin_wait"] == {"seconds": 60, "every_table": True}
    hall.post("/api/v1/director/pins/clear")  # the event's count gone: the table's own wait is what stands
    state = hall.client.get("/api/v1/tables/1/1", headers=_auth(hall.tables[0]["token"])).json()
    assert state["director_pin_wait"] == {"seconds": 30, "every_table": False}
    r = hall.lines(1, hall.pin)
    assert r.status_code == 429 and r.json()["pin_wait"] == 30 and "pin_wait_every_table" not in r.json()
    assert "its confirmations and the director's PIN wait 30 seconds more" in r.json()["error"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_clearing_a_table_with_no_wrong_pin_lifts_the_event_wide_wait_and_says_so(hall, lang):
    headers = SPANISH if lang == "es" else None
    assert hall.lines(4, hall.pin).status_code == 429
    r = hall.post("/api/v1/tables/1/4/pins/clear", headers)  # (before: 422, "there is nothing to clear")
    assert r.status_code == 200, r.text
    assert r.json()["said"] == [EVENT_LIFTED_ES if lang == "es" else EVENT_LIFTED]
    assert hall.overview()["director_pins"] == {"wrong": 0, "wait": 0}
    assert hall.lines(4, hall.pin).status_code == 200
    assert [t["wrong_pins"] for t in hall.overview()["tables"]] == [4, 4, 2, 0]  # (the tables' own stay)
    # Nothing left for that table: refused, in one line.
    r = hall.post("/api/v1/tables/1/4/pins/clear", headers)
    assert r.status_code == 422
    assert r.json()["error"] == ("la ronda 1, mesa 4 no ha tenido ningún PIN incorrecto: no hay nada que borrar"
                                 if lang == "es" else "round 1 table 4 has had no wrong PIN: there is nothing to clear")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_clearing_a_table_with_wrong_pins_says_it_lifts_the_event_wide_wait_too(hall, lang):
    r = hall.post("/api/v1/tables/1/1/pins/clear", SPANISH if lang == "es" else None)
    assert r.status_code == 200, r.text
    if lang == "es":
        assert r.json()["said"] == ["ronda 1, mesa 1: 4 PIN incorrectos borrados; sus confirmaciones ya no esperan",
                                    EVENT_LIFTED_ES]
    else:
        assert r.json()["said"] == ["round 1 table 1: 4 wrong PINs cleared; its confirmations wait no more",
                                    EVENT_LIFTED]
    assert hall.overview()["director_pins"] == {"wrong": 0, "wait": 0}
    assert hall.lines(4, hall.pin).status_code == 200
    # A table cleared while the event's count is empty says its own line alone, as before.
    r = hall.post("/api/v1/tables/1/2/pins/clear")
    assert r.json()["said"] == ["round 1 table 2: 4 wrong PINs cleared; its confirmations wait no more"]


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_directors_own_control_clears_the_event_wide_wait_alone(hall, lang):
    headers = SPANISH if lang == "es" else None
    r = hall.post("/api/v1/director/pins/clear", headers, {"cid": "event-pins-1"})
    assert r.status_code == 200, r.text
    assert r.json() == {"wrong": 0, "wait": 0, "said": [EVENT_LIFTED_ES if lang == "es" else EVENT_LIFTED]}
    view = hall.overview()
    assert view["director_pins"] == {"wrong": 0, "wait": 0}
    assert [t["wrong_pins"] for t in view["tables"]] == [4, 4, 2, 0]  # each table's own left as it is
    assert hall.lines(4, hall.pin).status_code == 200
    # Sent again (its answer lost): answered the same, done once.
    again = hall.post("/api/v1/director/pins/clear", headers, {"cid": "event-pins-1"})
    assert again.status_code == 200 and again.json()["said"] == r.json()["said"]
    r = hall.post("/api/v1/director/pins/clear", headers)
    assert r.status_code == 422
    assert r.json()["error"] == (
        "no se ha tecleado en las mesas ningún PIN del árbitro incorrecto: no hay nada que borrar" if lang == "es"
        else "no wrong director's PIN has been typed at the tables: there is nothing to clear")
    # A table's key is no director's key.
    assert hall.client.post("/api/v1/director/pins/clear", headers=_auth(hall.tables[0]["token"]),
                            json={}).status_code == 403
    store = open_event(hall.path)
    try:
        cleared = [d for d in audit.desk_history(store) if d.action == "wrong_director_pins_cleared"]
    finally:
        store.close()
    assert [(d.by, d.detail) for d in cleared] == [("the director's page", {"wrong": 10, "waited": 30})]


def test_the_command_line_clears_the_event_wide_wait_as_the_page_does(hall):
    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    hall.close()  # (the command line alone: the same event operations)
    done = runner.invoke(app, ["pins", str(hall.path), "--clear", "1/4", "--by", "Eve"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == EVENT_LIFTED
    done = runner.invoke(app, ["pins", str(hall.path), "--clear-director"])
    assert done.exit_code != 0
    assert "no wrong director's PIN has been typed at the tables: there is nothing to clear" in done.output
    assert "Traceback" not in done.output
    done = runner.invoke(app, ["pins", str(hall.path), "--clear", "1/4", "--clear-director"])
    assert done.exit_code != 0 and "give it or --clear-director" in done.output


def test_the_command_lines_own_clear_of_the_event_wide_wait(tmp_path):
    hall = _Hall(tmp_path)
    hall.close()
    from typer.testing import CliRunner

    from tournament.cli import app

    done = CliRunner().invoke(app, ["pins", str(hall.path), "--clear-director", "--by", "Eve"])
    assert done.exit_code == 0, done.output
    assert done.output.strip() == EVENT_LIFTED
    store = open_event(hall.path)
    try:
        cleared = [d for d in audit.desk_history(store) if d.action == "wrong_director_pins_cleared"]
        tables = [d for d in audit.desk_history(store) if d.action == "wrong_pins_cleared"]
    finally:
        store.close()
    assert [d.by for d in cleared] == ["Eve (command line)"] and not tables

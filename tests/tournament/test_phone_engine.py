"""The phone's engine (tournament.event.phone) answers a table's write exactly as the server does.

The table-fuzzing property test (test_venue_fuzz, which the default run runs only here) is run with
every write it sends to the server first answered by the phone's engine, from the table's log as
the page gets it (``GET ...?log=1``): the status and the JSON must be the server's, in English and
in Spanish, but for what is the server's alone (the request's id, and the time a write was logged:
the phone's clock is not the laptop's).  The writes the phone does not answer (a confirmation, the director's) are
sent to the server only, so the engine meets tables confirmed, corrected and called."""

from __future__ import annotations

import json

import pytest

from domrec.reader import loads
from domrec.convert import text_of

from tests.tournament import test_venue_fuzz as fuzz
from tests.tournament.test_venue import EVENTS, _event

from tournament.event import phone, table_log
from tournament.web.app import PHRASES


def _without_times(data):
    """An answer without what only the server can say: the request's id, and the times writes were
    logged at (the last one is the phone's own clock)."""
    if isinstance(data, dict):
        return {k: _without_times(v) for k, v in data.items() if k not in ("request_id", "last_at")}
    if isinstance(data, list):
        return [_without_times(x) for x in data]
    return data


COMPARED: dict[str, int] = {}


@pytest.fixture
def compared(monkeypatch):
    """The fuzzing table's posts, each first answered by the phone's engine and compared."""
    post = fuzz._Table.post

    def checked(self, what, body, director=False):
        if what in table_log.OFFLINE and not director:
            lang = "es" if len(json.dumps(body)) % 2 else "en"
            got = self.client.get(fuzz.URL, params={"log": "1"}, headers=self.table)
            assert got.status_code == 200, got.text
            table = got.json()["log"]
            mine = phone.answer(table, {"path": what, "body": body}, lang, sentences=PHRASES)
            r = self.client.post(f"{fuzz.URL}/{what}", headers={**self.table, "Accept-Language": lang}, json=body)
            assert mine["status"] == r.status_code, (what, body, mine, r.text)
            assert _without_times(mine["body"]) == _without_times(r.json()), (what, body, lang)
            if r.status_code == 200:  # the row the phone keeps is the row the server logged
                after = self.client.get(fuzz.URL, params={"log": "1", "after": str(table["rows"][-1][0]
                                                                                    if table["rows"] else 0)},
                                        headers=self.table).json()["log"]["rows"]
                if mine["row"] is None:  # the very line the log holds next, on its revision: its twin
                    assert r.json()["twin"] and after == [], (what, body)
                else:
                    assert [after[-1][:3]] == [mine["row"][:3]]
            COMPARED[what] = COMPARED.get(what, 0) + 1
        return post(self, what, body, director)

    monkeypatch.setattr(fuzz._Table, "post", checked)
    yield


@pytest.mark.slow
@pytest.mark.parametrize("game", list(EVENTS))
def test_the_phone_answers_every_fuzzed_write_as_the_server(game, compared, tmp_path_factory):
    fuzz.test_no_table_is_ever_stuck(game=game, tmp_path_factory=tmp_path_factory)
    assert COMPARED.get("dgn")


def test_a_table_template_reads_back_as_the_same_record(tmp_path):
    """The template the phone gets as JSON is the record the server starts the table from."""
    from tournament.event.files import open_event
    from tournament.event.tables import table_record

    for game in EVENTS:
        (tmp_path / game).mkdir()
        store = open_event(_event(tmp_path / game, game))
        try:
            for t in store.tables(1):
                template = table_record(store.settings, t, store.players_by_id([s.player for s in t.seats]))
                assert loads(text_of([template], "json")) == template
        finally:
            store.close()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_confirmation_waits_for_the_server(lang):
    """A confirmation (and the director's writes) is never answered by the phone: it waits."""
    for path in ("confirm", "clear", "correct", "result"):
        got = phone.answer({}, {"path": path, "body": {"rev": 0, "side": "NS"}}, lang, sentences=PHRASES)
        assert got["status"] == 503 and got["row"] is None
        assert got["body"]["error"].startswith("this waits for the connection" if lang == "en" else "esto espera")


def test_the_phones_modules_import_nothing_of_the_event_file():
    """table_log and phone run in the browser: no SQLite, no store, nothing of the server; the
    tournament modules they import are the ones the engine's bundle holds."""
    import ast
    from pathlib import Path

    from tournament.web.engine_bundle import TOURNAMENT_FILES

    folder = Path(table_log.__file__).resolve().parents[1]
    bundled = {"tournament." + name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
               for name in TOURNAMENT_FILES} | {"tournament"}
    for module in (table_log, phone):
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        names = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        names |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        assert not {n for n in names if n.split(".")[0] in ("sqlite3", "sqlite_utils", "starlette", "orjson")}
        assert {n for n in names if n.startswith("tournament")} <= bundled, module.__name__
    assert (folder / "event" / "table_log.py").exists()


@pytest.mark.parametrize("body", [
    {"rev": 0, "mode": "play", "cid": "phone-abc-1", "at": "2026-12-02T20:15:00.123Z"},
    {"rev": 0, "mode": "play", "cid": "x"},
    {"rev": 0, "mode": "play", "cid": "phone-abc-2", "at": "yesterday"},
    {"rev": "0", "mode": "play", "cid": "phone-abc-3"},
])
def test_a_writes_id_and_time_are_checked_as_the_server_checks_them(tmp_path, body):
    """The outbox's writes carry their id (cid) and the phone's time (at): the phone's engine takes
    and refuses them as the server does (the server's memory of ids is its own: never offline)."""
    from starlette.testclient import TestClient

    from tests.tournament.test_venue import _auth, _server

    server = _server(_event(tmp_path, "competitive"))
    try:
        client = TestClient(server.asgi)
        auth = _auth(server.call(server.venue.links, "http://testserver")["tables"][0]["token"])
        table = client.get(fuzz.URL, params={"log": "1"}, headers=auth).json()["log"]
        mine = phone.answer(table, {"path": "mode", "body": body}, "es", sentences=PHRASES)
        r = client.post(f"{fuzz.URL}/mode", json=body, headers={**auth, "Accept-Language": "es"})
        assert mine["status"] == r.status_code
        assert _without_times(mine["body"]) == _without_times(r.json())
    finally:
        server.close()

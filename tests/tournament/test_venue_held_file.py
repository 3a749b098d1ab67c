"""The event file held by another program (a ``BEGIN EXCLUSIVE`` of another tool, a command's long
write) while the venue serves: a write that cannot get the file within the venue's wait is refused
in one line, 503 with ``Retry-After`` (the phone's page takes it as "busy" and sends it again with
its same id), nothing stored, one line in the server's log and no traceback; a read is answered
meanwhile; once the file is free, the same write is stored once.  In-process, the venue's wait
made short (``busy_seconds``) so that nothing here waits long; nothing is timed."""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

import pytest

from tests.tournament.test_venue import _auth, _event, _log_rows, _server

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import FILE_HELD, HELD_RETRY_S, Held  # noqa: E402

#: The venue's wait for the file in these tests (seconds): short, so that a refusal comes soon.
WAIT = 0.2


def _holding(path: Path) -> sqlite3.Connection:
    """Another program's connection holding the event file (``BEGIN EXCLUSIVE``)."""
    holder = sqlite3.connect(str(path), isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    return holder


def _faults(records: list[logging.LogRecord]) -> list[str]:
    return [r.getMessage() for r in records if r.exc_info or r.levelno >= logging.ERROR]


@pytest.fixture
def held_venue(tmp_path):
    path = _event(tmp_path)
    server = _server(path, busy_seconds=WAIT)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, server, client, links
    server.close()


def test_a_write_while_another_program_holds_the_file_is_refused_busy_and_stored_once_after(held_venue, caplog):
    path, server, client, links = held_venue
    token = links["tables"][0]["token"]
    director = links["director"].rsplit("/", 1)[1]
    url = "/api/v1/tables/1/1"
    rev = client.get(url, headers=_auth(token)).json()["rev"]
    move = {"rev": rev, "text": "hand 1", "cid": "move-aaaaaaaa1"}
    before = _log_rows(path)
    caplog.set_level(logging.INFO, logger="tournament")
    holder = _holding(path)
    try:
        r = client.post(f"{url}/dgn", headers=_auth(token), json=move)
        assert r.status_code == 503, r.text
        assert r.json()["error"] == FILE_HELD and "\n" not in r.text
        assert r.headers["retry-after"] == str(HELD_RETRY_S)
        # In the client's language, and at once now (the file is known held: no second wait).
        r = client.post(f"{url}/dgn", headers={**_auth(token), "Accept-Language": "es"}, json=move)
        assert r.status_code == 503
        assert r.json()["error"] == ("otro programa tiene ocupado el archivo del torneo: no se guardó nada; esto se "
                                     "envía de nuevo en breve")
        # A read needs no write lock: answered while the file is held.
        r = client.get(url, headers=_auth(token))
        assert r.status_code == 200 and r.json()["rev"] == rev
        # The director's writes go the same way.
        r = client.post(f"{url}/result", headers=_auth(director),
                        json={"scores": {"NS": 120, "EW": 80}, "reason": "typed", "cid": "desk-aaaaaaaa1"})
        assert r.status_code == 503 and r.json()["error"] == FILE_HELD, r.text
        r = client.get("/api/v1/director", headers=_auth(director))
        assert r.status_code == 200
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert _log_rows(path) == before  # nothing was stored
    said = [r.getMessage() for r in caplog.records if r.name.startswith("tournament")]
    assert len([line for line in said if "another program is holding the event file" in line]) == 1, said
    assert _faults(caplog.records) == [] and not any("Traceback" in line for line in said), said
    # The file is free: the same write, sent again with its id, is stored once however often it comes.
    first = client.post(f"{url}/dgn", headers=_auth(token), json=move)
    assert first.status_code == 200, first.text
    again = client.post(f"{url}/dgn", headers=_auth(token), json=move)
    assert again.status_code == 200 and again.json()["rev"] == first.json()["rev"] == rev + 1
    rows = _log_rows(path)
    assert len(rows) == len(before) + 1 and rows[-1][2:] == ("dgn", "hand 1")
    assert any("the event file is free again" in r.getMessage() for r in caplog.records)
    assert server._executor.held is False


def test_a_read_grouped_with_a_write_that_finds_the_file_held_is_answered(held_venue, caplog):
    """Requests waiting together are made in one group of the file: a group that cannot begin (the
    file held) makes each again alone, without waiting again: its reads answered, its writes
    refused (:class:`Held`), nothing written."""
    path, server, client, links = held_venue
    token = links["tables"][0]["token"]
    venue, thread = server.venue, server._executor
    rev = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()["rev"]
    before = _log_rows(path)
    caplog.set_level(logging.INFO, logger="tournament")
    gate, inside = threading.Event(), threading.Event()

    def hold_the_thread() -> None:  # the write and the read queue behind it, and are taken together
        inside.set()
        gate.wait(60)

    holder = _holding(path)
    try:
        first = thread.submit(hold_the_thread, grouped=False)
        assert inside.wait(60)
        write = thread.submit(venue.authorized_record, token, 1, 1, rev, "hand 1", "move-bbbbbbbb1", None)
        read = thread.submit(venue.authorized_state, token, 1, 1)
        gate.set()
        first.result(60)
        assert read.result(60)["rev"] == rev
        with pytest.raises(Held):
            write.result(60)
    finally:
        gate.set()
        holder.execute("ROLLBACK")
        holder.close()
    assert _log_rows(path) == before
    assert _faults(caplog.records) == []
    assert client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                       json={"rev": rev, "text": "hand 1", "cid": "move-bbbbbbbb1"}).status_code == 200


def test_a_job_that_finds_the_file_held_after_writing_part_of_it_is_not_said_to_have_stored_nothing(held_venue):
    """A request whose first transaction was committed before another program took the file fails
    as a fault of its own (500, the detail in the log), never as "nothing was stored" (503)."""
    from tournament.store.sqlite import transaction
    from tournament.web.app import PartlyWritten

    path, server, client, links = held_venue
    store = server.venue.store
    others: list[sqlite3.Connection] = []

    def two_writes() -> None:
        with transaction(store.conn):
            store.conn.execute("CREATE TABLE IF NOT EXISTS held_test (n INTEGER)")
            store.conn.execute("INSERT INTO held_test VALUES (1)")
        holder = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN EXCLUSIVE")  # (another program takes the file between the two)
        others.append(holder)
        with transaction(store.conn):
            store.conn.execute("INSERT INTO held_test VALUES (2)")

    try:
        with pytest.raises(PartlyWritten):
            server._executor.submit(two_writes, grouped=False).result()
    finally:
        for holder in others:
            holder.rollback()
            holder.close()
    # (and a job that wrote nothing before finding the file held is still "nothing stored")
    holder = _holding(path)
    try:
        def one_write() -> None:
            with transaction(store.conn):
                store.conn.execute("INSERT INTO held_test VALUES (3)")

        with pytest.raises(Held):
            server._executor.submit(one_write, grouped=False).result()
    finally:
        holder.rollback()
        holder.close()
    rows = [n for (n,) in sqlite3.connect(str(path)).execute("SELECT n FROM held_test")]
    assert rows == [1]


def test_the_directors_pin_at_a_table_is_read_only_once_the_file_is_taken(held_venue):
    """A table's phone with the director's PIN while another program holds the file: a wrong PIN
    cannot be counted then, so every PIN is refused alike, the right one too (503, the file held),
    and none is compared: nobody can try PINs uncounted and tell the right one by its answer.
    Once the file is free, a wrong one is counted and the right one opens the table's lines."""
    path, server, client, links = held_venue
    token = links["tables"][0]["token"]
    pin = links["director_pin"]
    lines = "/api/v1/tables/1/1/lines"
    wrong = "000000" if pin != "000000" else "000001"
    holder = _holding(path)
    try:
        answers = [client.get(lines, headers={**_auth(token), "X-Director-PIN": typed}) for typed in (wrong, pin)]
        assert [a.status_code for a in answers] == [503, 503], [a.text for a in answers]
        assert answers[0].json()["error"] == answers[1].json()["error"] == FILE_HELD
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert server.call(server.venue.pin_tries, 1, 1)["wrong"] == 0  # nothing was counted, nor said
    assert client.get(lines, headers={**_auth(token), "X-Director-PIN": wrong}).status_code == 403
    assert server.call(server.venue.pin_tries, 1, 1)["wrong"] == 1
    assert client.get(lines, headers={**_auth(token), "X-Director-PIN": pin}).status_code == 200

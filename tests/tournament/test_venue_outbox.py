"""Idempotent writes (issue 36): a table's write may carry its own id (``cid``) and, when it was
queued on a phone that was offline, the phone's time it was made (``at``).  The same write sent
again, however often and however close together, is stored once and answered what it was first
answered (a refusal too); a server killed after the commit and before the answer answers the
retry so; the director's page shows each table's last contact and the moves its phone sent that
were made offline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from domrec.session import requests_for
from domrec.simulate import play_game

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import venue as vn
from tournament.event.tables import table_record
from tournament.store import venue as venue_sql
from tournament.store.schema import SCHEMA_VERSION
from tournament.store.venue import WRITES_SCHEMA_VERSION

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402
from tournament.web.openapi import OPENAPI  # noqa: E402


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "night.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    return path


def _lines(path: Path) -> list[str]:
    import random

    store = open_event(path)
    table = store.tables(1)[0]
    template = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return list(requests_for(play_game(template, random.Random(5))))


def _log(path: Path) -> list[tuple[int, str, str]]:
    store = open_event(path)
    try:
        return [tuple(r) for r in store.conn.execute("SELECT rev, kind, body FROM venue_log ORDER BY rev")]
    finally:
        store.close()


@pytest.fixture
def served(tmp_path):
    path = _event(tmp_path)
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    client = starlette_testclient.TestClient(server.asgi)
    token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
    yield path, server, client, {"Authorization": f"Bearer {token}"}
    server.close()


API = "/api/v1/tables/1/1"


def _comparable(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "request_id"}


def test_each_write_sent_three_times_is_stored_once_and_answered_alike(served):
    path, server, client, auth = served
    lines = _lines(path)
    writes = [("/mode", {"mode": "play"})] + [("/dgn", {"text": t}) for t in lines[:6]] + [("/call", {})]
    rev = 0
    for k, (where, body) in enumerate(writes):
        sent = {**body, "rev": rev, "cid": f"phone0123-{k}"}
        answers = [client.post(API + where, json=sent, headers=auth) for _ in range(3)]
        assert [a.status_code for a in answers] == [200, 200, 200], answers[0].text
        first = _comparable(answers[0].json())
        assert all(_comparable(a.json()) == first for a in answers[1:])
        rev = first["rev"]
    assert len(_log(path)) == len(writes) == rev
    assert [r[2] for r in _log(path)[1:7]] == lines[:6]


def test_a_retry_names_any_rev_and_still_gets_the_first_answer(served):
    path, server, client, auth = served
    first = client.post(API + "/mode", json={"rev": 0, "mode": "sheet", "cid": "abcdefgh-1"}, headers=auth)
    again = client.post(API + "/mode", json={"rev": 7, "mode": "play", "cid": "abcdefgh-1"}, headers=auth)
    assert again.status_code == 200 and again.json()["said"] == first.json()["said"] == ["this table records scores only"]
    assert _log(path) == [(1, "mode", "sheet")]


def test_writes_sent_three_times_at_once_are_stored_once(served):
    path, server, client, auth = served
    lines = _lines(path)
    client.post(API + "/mode", json={"rev": 0, "mode": "play"}, headers=auth)
    for k, line in enumerate(lines[:5], start=1):
        answers: list = [None] * 3
        go = threading.Barrier(3)

        def send(n: int, k: int = k, line: str = line) -> None:
            go.wait()
            answers[n] = client.post(API + "/dgn", json={"rev": k, "text": line, "cid": f"storm-phone-{k}"},
                                     headers=auth)

        threads = [threading.Thread(target=send, args=(n,)) for n in range(3)]
        [t.start() for t in threads]
        [t.join() for t in threads]
        assert [a.status_code for a in answers] == [200] * 3
        assert len({json.dumps(_comparable(a.json()), sort_keys=True) for a in answers}) == 1
    assert [r[2] for r in _log(path)[1:]] == lines[:5]


def test_a_refused_write_sent_again_is_refused_alike_and_nothing_stored(served):
    path, server, client, auth = served
    client.post(API + "/mode", json={"rev": 0, "mode": "play"}, headers=auth)
    bad = {"rev": 1, "text": "hand 1\nN 9-9", "cid": "refused-write-1"}
    answers = [client.post(API + "/dgn", json=bad, headers=auth) for _ in range(3)]
    assert {a.status_code for a in answers} == {422}
    assert len({json.dumps(_comparable(a.json()), sort_keys=True) for a in answers}) == 1
    assert "line" in answers[0].json()
    # a write on an old revision: the same 409 and the table now, however often
    stale = {"rev": 0, "mode": "sheet", "cid": "stale-write-1"}
    answers = [client.post(API + "/mode", json=stale, headers=auth) for _ in range(3)]
    assert {a.status_code for a in answers} == {409}
    assert all(a.json()["state"]["rev"] == 1 and a.json()["error"] == answers[0].json()["error"] for a in answers)
    # and once the refusal is kept, the same id is refused even when its rev would now be good
    assert client.post(API + "/mode", json={**stale, "rev": 1}, headers=auth).status_code == 409
    assert _log(path) == [(1, "mode", "play")]


def test_writes_without_an_id_are_taken_as_before(served):
    path, server, client, auth = served
    assert client.post(API + "/mode", json={"rev": 0, "mode": "play"}, headers=auth).status_code == 200
    assert client.post(API + "/mode", json={"rev": 0, "mode": "play"}, headers=auth).status_code == 409
    store = open_event(path)
    assert not store.has_table("venue_writes")  # no id sent: the file is not upgraded
    store.close()


@pytest.mark.parametrize("cid", ["short", "x" * 101, "has space 123", 12345678, "é" * 10, ""])
def test_a_malformed_id_is_one_clear_line(served, cid):
    path, server, client, auth = served
    answer = client.post(API + "/mode", json={"rev": 0, "mode": "play", "cid": cid}, headers=auth)
    assert answer.status_code == 422
    assert answer.json()["error"] == vn.CID_REFUSAL
    assert _log(path) == []


@pytest.mark.parametrize("at", ["yesterday", 5, "2026-13-45T99:00:00Z", "x" * 41])
def test_a_malformed_time_is_one_clear_line(served, at):
    path, server, client, auth = served
    answer = client.post(API + "/mode", json={"rev": 0, "mode": "play", "cid": "phone-abc-1", "at": at},
                         headers=auth)
    assert answer.status_code == 422 and answer.json()["error"] == vn.MADE_AT_REFUSAL


def test_the_refusals_of_an_id_are_said_in_spanish(served):
    path, server, client, auth = served
    answer = client.post(API + "/mode?lang=es", json={"rev": 0, "mode": "play", "cid": "no"}, headers=auth)
    assert answer.json()["error"].startswith('"cid" debe ser')


def test_the_file_becomes_schema_8_in_the_first_write_with_an_id(served):
    path, server, client, auth = served
    client.post(API + "/mode", json={"rev": 0, "mode": "play", "cid": "phone-abc-1", "at": "2026-12-02T20:15:00Z"},
                headers=auth)
    store = open_event(path)
    try:
        # (a file gets the later versions' tables, a team event's, only when it uses them)
        assert WRITES_SCHEMA_VERSION == 8 <= SCHEMA_VERSION and store.meta()["schema_version"] == "8"
        row = store.conn.execute("SELECT cid, rev, status, made_at FROM venue_writes").fetchall()
        assert row == [("phone-abc-1", 1, 200, "2026-12-02T20:15:00Z")]
        plan = " ".join(str(r) for r in store.conn.execute(
            "EXPLAIN QUERY PLAN SELECT rev, status, answer FROM venue_writes WHERE table_id = 1 AND cid = 'x'"))
        assert "PRIMARY KEY" in plan or "USING" in plan  # one lookup of the key, never a scan
    finally:
        store.close()


_KILLED_AFTER_COMMIT = r"""
import json, os, signal, sys
from tournament import open_event
from tournament.event.venue import Venue
venue = Venue(open_event(sys.argv[1]))
answer = venue.record(1, 1, int(sys.argv[2]), sys.argv[3], cid=sys.argv[4])  # committed: never sent
with open(sys.argv[5], "w") as f:  # (what it would have answered, for the test to compare)
    json.dump(answer, f)
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_server_killed_after_the_commit_answers_the_retry_with_the_first_answer(tmp_path):
    path = _event(tmp_path)
    lines = _lines(path)
    venue = vn.Venue(open_event(path))
    venue.set_mode(1, 1, 0, "play")
    venue.store.close()
    unsent = tmp_path / "unsent.json"
    done = subprocess.run([sys.executable, "-c", _KILLED_AFTER_COMMIT, str(path), "1", lines[0], "killed-phone-1",
                           str(unsent)], env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    assert done.returncode == -9
    venue = vn.Venue(open_event(path))  # the server started again
    try:
        retry = venue.record(1, 1, 1, lines[0], cid="killed-phone-1")
        assert json.loads(json.dumps(retry)) == json.loads(unsent.read_text()) and retry["rev"] == 2
    finally:
        venue.store.close()
    assert [r[2] for r in _log(path)] == ["play", lines[0]]


def test_the_director_sees_each_tables_last_contact_and_its_moves_made_offline(served):
    path, server, client, auth = served
    lines = _lines(path)
    director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
    look = lambda: client.get("/api/v1/director", headers={"Authorization": f"Bearer {director}"}).json()["tables"][0]
    assert look()["offline"] is None
    client.get(API, headers=auth)
    assert look()["contact_at"] is not None
    client.post(API + "/mode", json={"rev": 0, "mode": "play", "cid": "phone-abc-1"}, headers=auth)
    assert look()["offline"] is None  # a live write is not one made offline
    for k, line in enumerate(lines[:3], start=1):
        client.post(API + "/dgn", json={"rev": k, "text": line, "cid": f"phone-abc-{k + 1}",
                                        "at": "2026-12-02T20:15:00.000Z"}, headers=auth)
    client.post(API + "/dgn", json={"rev": 1, "text": lines[3], "cid": "phone-abc-9",
                                    "at": "2026-12-02T20:16:00.000Z"}, headers=auth)  # stale: refused
    seen = look()["offline"]
    assert seen["taken"] == 3 and seen["refused"] == 1 and seen["at"]


def test_openapi_documents_the_writes_id_and_time():
    for path in ("dgn", "mode", "call", "clear", "confirm", "correct"):
        body = OPENAPI["paths"][f"/api/v1/tables/{{round}}/{{table}}/{path}"]["post"]["requestBody"]
        props = body["content"]["application/json"]["schema"]["properties"]
        assert "cid" in props and "at" in props and "retry" in props["cid"]["description"]


def test_the_service_worker_is_served_from_the_root_uncached(served):
    path, server, client, auth = served
    answer = client.get("/sw.js")
    assert answer.status_code == 200 and "javascript" in answer.headers["content-type"]
    assert answer.headers["cache-control"] == "no-store" and answer.headers["service-worker-allowed"] == "/"
    assert "caches" in answer.text


def test_serve_takes_a_certificate_and_its_key_together(tmp_path):
    from typer.testing import CliRunner

    from tournament.cli import app

    path = _event(tmp_path)
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    result = CliRunner().invoke(app, ["serve", str(path), "--certfile", str(cert)])
    assert result.exit_code != 0 and "--certfile and --keyfile go together" in result.output
    result = CliRunner().invoke(app, ["serve", str(path), "--certfile", str(cert), "--keyfile", str(tmp_path / "no")])
    assert result.exit_code != 0 and "--keyfile: there is no file" in result.output


@pytest.mark.skipif(__import__("shutil").which("openssl") is None, reason="openssl is not installed")
def test_a_certificate_or_key_that_cannot_be_used_is_refused_in_one_line_before_serving(tmp_path):
    """A file that is no PEM certificate, no PEM key, the key of another certificate, or a key
    protected by a password: each refused in one line naming the option and the file, exit 2,
    before anything is claimed or printed (uvicorn loaded them only once serving, after the links
    were out, and both processes stopped on an SSL traceback; a protected key had OpenSSL ask
    for its password on the terminal)."""
    from typer.testing import CliRunner

    from tests.tournament.served import ports
    from tournament.cli import app

    path = _event(tmp_path)
    before = path.read_bytes()

    def made(name: str) -> tuple[Path, Path]:
        cert, key = tmp_path / f"{name}-cert.pem", tmp_path / f"{name}-key.pem"
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj",
                        "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
        return cert, key
    cert, key = made("one")
    _, other_key = made("two")
    protected = tmp_path / "protected.pem"
    subprocess.run(["openssl", "pkey", "-in", str(key), "-aes256", "-passout", "pass:secret", "-out", str(protected)],
                   check=True, capture_output=True)
    garbage = tmp_path / "garbage.pem"
    garbage.write_bytes(bytes(range(256)))
    refusals = [
        (garbage, key, f"--certfile: {garbage} is not a certificate in PEM form"),
        (key, key, f"--certfile: {key} is not a certificate in PEM form"),
        (cert, garbage, f"--keyfile: {garbage} is not a private key in PEM form"),
        (cert, cert, f"--keyfile: {cert} is not a private key in PEM form"),
        (cert, other_key, f"--keyfile: {other_key} is not the private key of the certificate {cert}"),
        (cert, protected, f"--keyfile: {protected} is protected by a password, which the server cannot ask for"),
    ]
    for certfile, keyfile, words in refusals:
        result = CliRunner().invoke(app, ["serve", str(path), "--port", str(next(ports())), "--certfile", str(certfile),
                                          "--keyfile", str(keyfile)])
        assert result.exit_code == 2, result.output
        assert words in result.output and "Traceback" not in result.output and "internal error" not in result.output
        assert result.output.count("\n") == 1 and "director" not in result.output, result.output
    assert path.read_bytes() == before  # nothing claimed


@pytest.mark.skipif(__import__("shutil").which("openssl") is None, reason="openssl is not installed")
def test_serve_with_a_certificate_answers_https_and_its_links_say_so(tmp_path):
    """``serve --certfile --keyfile``: https (a secure context for the phones' browsers, where the
    service worker keeps the table page for a tab opened again offline)."""
    import ssl
    import urllib.request

    from tests.tournament.served import free_port, serve, stop

    path = _event(tmp_path)
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    port = free_port()
    proc = serve(path, port, "--certfile", str(cert), "--keyfile", str(key))
    try:
        unchecked = ssl.create_default_context()
        unchecked.check_hostname, unchecked.verify_mode = False, ssl.CERT_NONE  # (a test's own certificate)
        with urllib.request.urlopen(f"https://127.0.0.1:{port}/sw.js", context=unchecked, timeout=60) as answer:
            assert answer.status == 200
    finally:
        stop(proc)
    store = open_event(path)
    try:
        assert venue_sql.remembered_url(store) == f"https://127.0.0.1:{port}"
    finally:
        store.close()


def test_confirmations_corrections_and_calls_sent_three_times_are_taken_once(served):
    """The rest of a table's writes: a call and its clearing, each side's confirmation (the last
    enters the result once), the director's correction of the confirmed game (amended once)."""
    path, server, client, auth = served
    director = {"Authorization": "Bearer " + server.call(server.venue.links, "http://testserver")["director"]
                .rsplit("/", 1)[1]}
    state = client.post(API + "/mode", json={"rev": 0, "mode": "sheet"}, headers=auth).json()
    while not state["game"]["over"]:  # a score sheet's game, played to its end
        n = len(state["game"]["hands"]) + 1
        state = client.post(API + "/dgn", json={"rev": state["rev"], "text": f"hand {n}\nend NS 60 EW 0"},
                            headers=auth).json()
    rev = state["rev"]

    def thrice(where: str, body: dict, cid: str, headers: dict) -> dict:
        answers = [client.post(API + where, json={**body, "cid": cid}, headers=headers) for _ in range(3)]
        assert [a.status_code for a in answers] == [200] * 3, answers[0].text
        assert len({json.dumps(_comparable(a.json()), sort_keys=True) for a in answers}) == 1
        return answers[0].json()

    rev = thrice("/call", {"rev": rev}, "phone-x-call", auth)["rev"]
    rev = thrice("/clear", {"rev": rev}, "desk-x-clear", director)["rev"]
    state = thrice("/confirm", {"rev": rev, "side": "NS"}, "phone-x-ns", auth)
    state = thrice("/confirm", {"rev": state["rev"], "side": "EW"}, "phone-x-ew", auth)
    assert state["status"] == "confirmed" and len(state["said"]) == 2  # "EW confirmed", and the result stored
    fixed = thrice("/correct", {"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 61 EW 0",
                                "reason": "checked with the players"}, "desk-x-fix", director)
    assert fixed["rev"] == state["rev"] + 1
    kinds = [r[1] for r in _log(path)]
    assert kinds.count("call") == kinds.count("clear") == kinds.count("correct") == 1
    assert kinds.count("confirm") == 2
    store = open_event(path)
    try:
        assert len(store.audit()) == 1  # the confirmed result amended once
        assert store.conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 1
    finally:
        store.close()


def test_the_same_write_three_times_in_one_group_of_the_file_is_taken_once(served):
    """The venue's thread commits writes waiting together as one group (a savepoint each): the
    same write three times in one group is applied by the first, answered again by the others."""
    path, server, client, auth = served
    hold, held = threading.Event(), threading.Event()

    def blocker() -> None:
        held.set()
        hold.wait(60)

    first = server._executor.submit(blocker, grouped=False)
    held.wait(60)
    futures = [server._executor.submit(server.venue.set_mode, 1, 1, 0, "play", "grouped-phone-1") for _ in range(3)]
    hold.set()
    first.result(60)
    answers = [f.result(60) for f in futures]
    assert [a["rev"] for a in answers] == [1, 1, 1] and answers[0] == answers[1] == answers[2]
    assert _log(path) == [(1, "mode", "play")]

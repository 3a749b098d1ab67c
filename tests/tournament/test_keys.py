"""The venue's keys end when the director says so (issue 35, point 3): ``tournament keys`` lists
them without a secret; ``--rotate-table R/T``, ``--rotate-director`` and ``--rotate`` give new keys
for old, and the old ones answer 403 at once, even to a ``tournament serve`` already running in
another process (it reads its keys again once anything was written to the file); the director's page
gives a table a new key; ``links`` and ``sheets`` give the new keys; every change is in the audit
trail, naming who, from where and which key, never the key itself."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event import keys as ks
from tournament.event import venue as vn
from tournament.event.audit import desk_history

from tests.tournament.served import free_port, serve, stop

httpx = pytest.importorskip("httpx")
starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402


def _event(tmp_path: Path) -> tuple[Path, dict]:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=2))
    add_players(store, [f"P{i}" for i in range(1, 13)])
    pair_next_round(store)
    keys = vn.links(store, "http://127.0.0.1:8000")
    store.close()
    return path, keys


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """The command line run as a program of its own, where that is the point (the first command
    of a kind: a process's start costs a second and more under load; :func:`_run` for the rest)."""
    return subprocess.run([sys.executable, "-m", "tournament.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def _run(*args: str) -> subprocess.CompletedProcess:
    """The same command run by the command line's app in this process (Typer's test runner, still
    a process apart from any server's), answered as :func:`_cli` answers: its exit code and its
    two streams, and never an exception other than the exit."""
    from typer.testing import CliRunner

    from tournament.cli import app

    done = CliRunner().invoke(app, list(args))
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    return subprocess.CompletedProcess(list(args), done.exit_code, done.stdout, done.stderr)


def _key(url: str) -> str:
    return url.rsplit("/", 1)[1]


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _here(*args: str) -> str:
    """A command that only reads the event, run in the test's own process (still a process apart
    from the server's): what it prints."""
    from typer.testing import CliRunner

    from tournament.cli import app

    done = CliRunner().invoke(app, list(args))
    assert done.exit_code == 0, done.output
    return done.stdout


def _links(path: Path) -> dict:
    return json.loads(_here("links", str(path), "--json"))


def _tables(found: dict) -> dict[int, str]:
    return {t["table"]: t["token"] for t in found["tables"]}


def test_keys_without_options_says_which_keys_there_are_and_never_a_key(tmp_path):
    path, keys = _event(tmp_path)
    done = _cli("keys", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("the director's key: since ")
    assert lines[1].startswith("the director's PIN: since ")
    assert [x.split(":")[0] for x in lines[2:]] == ["round 1 table 1", "round 1 table 2", "round 1 table 3"]
    secrets = [_key(keys["director"]), keys["director_pin"]] + [t["token"] for t in keys["tables"]]
    as_json = _run("keys", str(path), "--json")
    for out in (done.stdout + done.stderr, as_json.stdout):
        assert not any(s in out for s in secrets)
    assert [(k["kind"], k["table"]) for k in json.loads(as_json.stdout)] == [
        ("director", None), ("director_pin", None), ("table", 1), ("table", 2), ("table", 3)]


def test_a_new_file_has_no_key_to_list(tmp_path):
    path = tmp_path / "new.db"
    create_event(path, make_settings("New", "competitive", "rotating")).close()
    done = _run("keys", str(path))
    assert done.returncode == 0 and "no key yet" in done.stdout


#: Tables named otherwise than ROUND/TABLE; the first two are also refused by the program itself, run
#: as a process (a second and more each under load: the others ask the same parser in this process).
NOT_A_TABLE = ["x", "1/２", "1", "1/2/3", "0/1", "1/0", "-1/2", "1/ 2"]


@pytest.mark.parametrize("bad", NOT_A_TABLE)
def test_a_table_named_otherwise_than_round_slash_table_is_refused_in_one_line(tmp_path, bad):
    from typer.testing import CliRunner

    from tournament.cli import app

    path, keys = _event(tmp_path)
    if bad in NOT_A_TABLE[:2]:
        done = _cli("keys", str(path), "--rotate-table", bad, cwd=tmp_path)
        code, err = done.returncode, done.stderr
    else:
        done = CliRunner().invoke(app, ["keys", str(path), "--rotate-table", bad])
        code, err = done.exit_code, done.stderr
    assert code == 2
    assert err.count("\n") == 1 and "ROUND/TABLE" in err and "Traceback" not in err, err
    assert _tables(_links(path)) == _tables(keys)  # nothing rotated


def test_a_table_the_event_does_not_have_is_refused_and_nothing_changes(tmp_path):
    path, keys = _event(tmp_path)
    for bad, said in (("1/9", "round 1 has no table 9"), ("4/1", "round 4 has not been paired")):
        done = _run("keys", str(path), "--rotate-table", "1/1", "--rotate-table", bad)
        assert done.returncode != 0 and said in done.stderr and "Traceback" not in done.stderr
    assert _tables(_links(path)) == _tables(keys)  # all or nothing: table 1 kept its key too
    store = open_event(path)
    assert not [d for d in desk_history(store) if d.action == ks.KEY_CHANGED]
    store.close()


@pytest.mark.slow
def test_rotated_keys_answer_403_at_once_on_a_running_server(tmp_path):
    """The server runs in its own process; the keys change in another, the command line's; the
    very next request with an old key is refused, and the new one opens its page."""
    path, keys = _event(tmp_path)
    port = free_port()
    proc = serve(path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            def table(n: int, token: str) -> int:
                return client.get(f"/api/v1/tables/1/{n}", headers=_auth(token)).status_code

            def desk(token: str) -> int:
                return client.get("/api/v1/director", headers=_auth(token)).status_code

            old = _tables(keys)
            old_director = _key(keys["director"])
            assert [table(n, old[n]) for n in (1, 2, 3)] == [200, 200, 200]
            assert desk(old_director) == 200
            assert client.get(f"/t/{old[2]}").status_code == 200

            # One table's key: only that table's old link stops working.
            done = _cli("keys", str(path), "--rotate-table", "1/2", "--by", "Ana", cwd=tmp_path)
            assert done.returncode == 0, done.stderr
            assert table(2, old[2]) == 403
            assert client.get(f"/t/{old[2]}").status_code == 403
            assert client.post("/api/v1/tables/1/2/call", headers=_auth(old[2]), json={}).status_code == 403
            now = _tables(_links(path))
            assert now[2] != old[2] and now[2] in done.stdout
            assert {n: now[n] for n in (1, 3)} == {n: old[n] for n in (1, 3)}
            assert table(2, now[2]) == 200 and client.get(f"/t/{now[2]}").status_code == 200
            assert [table(1, old[1]), table(3, old[3])] == [200, 200]
            assert desk(old_director) == 200

            # The director's key.
            old_pin = _links(path)["director_pin"]
            done = _run("keys", str(path), "--rotate-director")
            assert done.returncode == 0, done.stderr
            assert desk(old_director) == 403
            assert client.get(f"/d/{old_director}").status_code == 403
            assert client.get(f"/d/{old_director}/sheets").status_code == 403
            assert table(1, old_director) == 403  # nor does it open a table any more
            director = _key(_links(path)["director"])
            assert director != old_director and director in done.stdout
            # The director's PIN with it: the old one opens no table's director view.
            pin = _links(path)["director_pin"]
            assert pin != old_pin and f"director's PIN: {pin}" in done.stdout
            assert client.get("/api/v1/tables/1/1/lines", headers={**_auth(old[1]), "X-Director-PIN": old_pin}
                              ).status_code == 403
            assert client.get("/api/v1/tables/1/1/lines", headers={**_auth(old[1]), "X-Director-PIN": pin}
                              ).status_code == 200
            assert desk(director) == 200 and client.get(f"/d/{director}").status_code == 200
            assert table(1, old[1]) == 200  # the tables keep theirs

            # Every key.
            before = _tables(_links(path))
            done = _run("keys", str(path), "--rotate")
            assert done.returncode == 0, done.stderr
            assert desk(director) == 403
            assert [table(n, before[n]) for n in (1, 2, 3)] == [403, 403, 403]
            after = _links(path)
            assert desk(_key(after["director"])) == 200
            fresh = _tables(after)
            assert not set(fresh.values()) & set(before.values())
            assert [table(n, fresh[n]) for n in (1, 2, 3)] == [200, 200, 200]
            # A table's key opens its own table only, as before.
            assert table(1, fresh[2]) == 403
    finally:
        stop(proc)
    # Who changed which key, from where; never a key.
    store = open_event(path)
    trail = [d for d in desk_history(store) if d.action == ks.KEY_CHANGED]
    store.close()
    assert [(d.by, d.round, d.detail) for d in trail] == [
        ("Ana (command line)", 1, {"key": "table", "table": 2}),
        (trail[1].by, None, {"key": "director"}),
        (trail[2].by, None, {"key": "all", "count": 5})]  # the director's key and PIN, three tables
    assert trail[1].by.endswith(" (command line)")
    history = _here("history", str(path))
    assert history.count("key changed") == 3
    every = [old_director, director, *old.values(), *now.values(), *fresh.values(), _key(after["director"])]
    for out in (history, _here("history", str(path), "--json"), _here("history", str(path), "--csv", "--desk")):
        assert not any(k in out for k in every)


def test_links_and_sheets_give_the_new_keys(tmp_path):
    path, keys = _event(tmp_path)
    old = _tables(keys)
    done = _run("keys", str(path), "--rotate-table", "1/3", "--rotate-director")
    assert done.returncode == 0, done.stderr
    found = _links(path)
    new = _tables(found)
    assert new[3] != old[3] and new[1] == old[1]
    assert found["director"] != keys["director"]
    plain = _run("links", str(path)).stdout
    assert new[3] in plain and old[3] not in plain and _key(keys["director"]) not in plain
    out = tmp_path / "sheets"
    made = _run("sheets", str(path), "--qr", "-o", str(out))
    assert made.returncode == 0, made.stderr
    html = next(out.glob("*.html")).read_text()
    assert f"/t/{new[3]}" in html and f"/t/{new[1]}" in html and old[3] not in html


@pytest.fixture
def venue(tmp_path):
    path, _ = _event(tmp_path)
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, server, client, links
    server.close()


def test_the_directors_page_gives_a_table_a_new_key(venue):
    path, server, client, links = venue
    director = _auth(_key(links["director"]))
    old = _tables(links)
    refused = client.post("/api/v1/tables/1/2/key", headers=_auth(old[2]), json={})
    assert refused.status_code == 403  # a table cannot change its own key, nor another's
    assert client.post("/api/v1/tables/1/3/key", headers=_auth(old[2]), json={}).status_code == 403
    r = client.post("/api/v1/tables/1/2/key", headers=director, json={})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["round"] == 1 and body["table"] == 2
    assert body["said"] == ["round 1 table 2: a new key; the old link no longer opens the table"]
    new = _key(body["url"])
    assert body["url"] == f"http://testserver/t/{new}" and new != old[2]
    assert body["qr"].startswith("data:image/svg+xml")
    assert client.get("/api/v1/tables/1/2", headers=_auth(old[2])).status_code == 403
    assert client.get("/api/v1/tables/1/2", headers=_auth(new)).status_code == 200
    assert client.get("/api/v1/tables/1/1", headers=_auth(old[1])).status_code == 200
    # The sheets the director's page prints carry the new link.
    sheets = client.get(f"/d/{_key(links['director'])}/sheets").text
    assert f"/t/{new}" in sheets and f"/t/{old[2]}" not in sheets and f"/t/{old[1]}" in sheets
    # In the player's language too.
    es = client.post("/api/v1/tables/1/2/key?lang=es", headers=director, json={})
    assert es.status_code == 200 and "nueva" in es.json()["said"][0].lower()
    # No such table, a garbled body: one line, nothing changed.
    assert client.post("/api/v1/tables/1/9/key", headers=director, json={}).status_code == 404
    json_type = {"Content-Type": "application/json"}
    assert client.post("/api/v1/tables/1/1/key", headers={**director, **json_type}, content=b"[").status_code == 400
    assert server.call(server.venue.links, "http://testserver")["tables"][0]["token"] == old[1]
    store = open_event(path)
    trail = [d for d in desk_history(store) if d.action == ks.KEY_CHANGED]
    store.close()
    assert [(d.by, d.round, d.detail) for d in trail] == [("the director's page", 1, {"key": "table", "table": 2})] * 2
    assert not any(k in json.dumps([d.to_dict() for d in trail]) for k in (new, old[2]))


def test_the_director_route_is_in_the_api_description(venue):
    _, _, client, _ = venue
    described = client.get("/api/v1/openapi.json").json()
    assert "post" in described["paths"]["/api/v1/tables/{round}/{table}/key"]


def test_a_key_and_a_table_kept_in_memory_are_read_again_after_any_write(tmp_path):
    """The venue keeps the keys and tables it has read while nothing else is written to the file
    (a table's own moves leave them standing: a move reads neither again).  A key changed from
    another connection (a command run beside the server) or through the server's own (the
    director's page), or seats swapped at the desk, are seen at the very next request."""
    from domrec.session import requests_for
    from domrec.simulate import play_game
    from tournament.event import desk
    from tournament.event.tables import table_record

    path, keys = _event(tmp_path)
    tokens = _tables(keys)
    store = open_event(path)
    venue = vn.Venue(store)
    players = {p.id: p for p in store.players()}
    moves = requests_for(play_game(table_record(store.settings, store.table(1, 1), players), random.Random(3)))
    read: list[str] = []
    store.conn.set_trace_callback(read.append)
    rev = 0
    for k, text in enumerate(moves[:4]):
        read.clear()
        rev = venue.authorized_record(tokens[1], 1, 1, rev, text, f"phone-0001-{k}")["rev"]
        if k:  # the key and the table as the first move read them
            assert not [sql for sql in read if "venue_tokens" in sql or "JOIN seats" in sql]
    assert venue.authorized_state(tokens[2], 1, 2)["round"] == 1
    seated = sorted(players[s.player].name for s in store.table(1, 2).seats)
    # Another connection: a table's key changed, two players swapped at tables nobody played at yet.
    other = open_event(path)
    ks.rotate_keys(other, "Ana (command line)", tables=[(1, 1)])
    new = _tables(vn.links(other, "http://127.0.0.1:8000"))[1]
    moved = next(s.player for s in other.table(1, 3).seats)
    desk.swap(other, seated[0], players[moved].name, 1)
    other.close()
    with pytest.raises(vn.Forbidden):
        venue.authorized_state(tokens[1], 1, 1)
    assert venue.authorized_state(new, 1, 1)["rev"] == rev
    names = sorted(venue.authorized_state(tokens[2], 1, 2)["game"]["players"].values())
    assert seated[0] not in names and players[moved].name in names
    # The server's own connection (the director's page): the next request, too.
    ks.rotate_keys(store, "the director's page", tables=[(1, 1)])
    again = _tables(vn.links(store, "http://127.0.0.1:8000"))[1]
    with pytest.raises(vn.Forbidden):
        venue.authorized_record(new, 1, 1, rev, moves[4], "phone-0001-4")
    assert venue.authorized_record(again, 1, 1, rev, moves[4], "phone-0001-4")["rev"] == rev + 1
    store.close()


def test_a_key_is_never_looked_up_by_sql(tmp_path):
    """A request's key is found among every key read at once, never by ``WHERE token = ?``: an
    index stops comparing at the first byte that differs, which a patient guesser could time.
    Every way in (a table's request, the director's, the phone's key alone) is traced: no
    statement carries the key given, right or wrong, and every one still finds what it opens."""
    path, keys = _event(tmp_path)
    tokens = _tables(keys)
    director = keys["director"].rsplit("/", 1)[-1]
    store = open_event(path)
    venue = vn.Venue(store)
    wrong = tokens[1][:-4] + ("aaaa" if not tokens[1].endswith("aaaa") else "bbbb")
    sent: list[str] = []
    store.conn.set_trace_callback(sent.append)
    assert venue.authorized_state(tokens[1], 1, 1)["table"] == 1
    with pytest.raises(vn.Forbidden):
        venue.authorized_state(wrong, 1, 1)
    with pytest.raises(vn.Forbidden):
        venue.authorized_state(tokens[2], 1, 1)  # another table's key
    venue.authorize_director(director)
    with pytest.raises(vn.Forbidden):
        venue.authorize_director(tokens[1])
    assert venue.table_of_token(tokens[2]).number == 2
    with pytest.raises(vn.Forbidden):
        venue.table_of_token(wrong)
    store.conn.set_trace_callback(None)
    assert any("venue_tokens" in sql for sql in sent)  # (the keys were read, all at once)
    for key in (tokens[1], tokens[2], wrong, director):
        assert not [sql for sql in sent if key in sql]
    assert not [sql for sql in sent if "venue_tokens" in sql and "token =" in sql.replace("  ", " ")]
    store.close()

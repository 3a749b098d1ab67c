"""No table is ever stuck: the write that once answered 500 and bricked every table's page (the
deal typed before *Start hand 1*, the lead left to the rules), a file whose log already holds
such a write, a write after which the table could not be shown, a line the log holds that no
longer replays, and a call of the director made on an older view."""

from __future__ import annotations

import json
import sqlite3

import pytest

from domrec.session import Session, requests_for

from tournament import open_event
from tournament.event import venue as vn
from tournament.store import venue as venue_sql
from tournament.store.sqlite import now

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _key, _server  # noqa: E402


def _open(path):
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi, raise_server_exceptions=False)
    links = server.call(server.venue.links, "http://testserver")
    return server, client, links


def _deal_lines(path, seed: int = 5) -> str:
    """The deal of round 1 table 1's first hand as the box takes it (deal lines, a lead draw; the
    other hands' deals are refused in the same post)."""
    texts = requests_for(_game_of(path, 1, 1, seed), keep_deal=True)
    first = texts[1:next(k for k, t in enumerate(texts) if k and t.split()[0] not in _DEAL_PARTS)]
    return "\n".join(t for t in first if t.split()[0] in ("deal", "leaddraw"))


_DEAL_PARTS = ("deal", "row", "boneyard", "pile", "leaddraw", "redeal")


def _reads(client, links) -> None:
    """Every table's page and the director's page read (no 5xx, no refusal)."""
    director = _auth(_key(links["director"]))
    for t in links["tables"]:
        r = client.get(f"/api/v1/tables/{t['round']}/{t['table']}", headers=_auth(t["token"]))
        assert r.status_code == 200, r.text
        assert client.get(f"/t/{t['token']}").status_code == 200
    r = client.get("/api/v1/director", headers=director)
    assert r.status_code == 200, r.text
    assert client.get(links["director"].replace("http://testserver", "")).status_code == 200


@pytest.mark.parametrize("game", list(EVENTS))
def test_the_deal_typed_before_the_hand_line_with_the_lead_as_the_rules_say(tmp_path, game):
    """The issue's 500: the deal typed in the box before *Start hand 1*, the lead left to the rules
    (Horse Race: by lot, so nobody is to move until the first tile is led).  Taken, every page
    reads, and the first lead is offered for every seat and taken."""
    path = _event(tmp_path, game)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": 0, "mode": "play"}).json()
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": _deal_lines(path)})
        assert r.status_code == 200, r.text
        state = r.json()
        _reads(client, links)
        legal = state["game"]["legal"]
        if game == "horse-race":  # the deal began the hand, whose lead is free: every seat may lead
            assert state["game"]["to_move"] is None and {m["seat"] for m in legal} == set(state["game"]["seats"])
        if legal:
            r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": legal[-1]["text"]})
            assert r.status_code == 200, r.text
            assert r.json()["game"]["hands"][-1]["moves"]
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": r.json()["rev"], "text": "hand 1"})
        assert r.status_code in (200, 422), r.text  # the hand line after it: taken or refused, never a fault
        _reads(client, links)
    finally:
        server.close()


def _logged_by_an_older_version(path, writes: list[tuple[str, str]]) -> None:
    """Table 1's log holding ``writes`` (kind, body), revision 1 on, as another version stored them."""
    store = open_event(path)
    vn.ensure_tokens(store)
    table = store.tables(1)[0]
    with store.write():
        venue_sql.upgrade_for_venue(store)
        for rev, (kind, body) in enumerate(writes, 1):
            venue_sql.append(store, table.id, rev, kind, body, now())
    store.close()


def test_a_file_whose_log_holds_the_write_that_bricked_it_reads_again(tmp_path):
    """The log as the old version left it (the deal stored, then every page 500): read again, the
    table carries on from it, and a restart changes nothing."""
    path = _event(tmp_path, "horse-race")
    deal = _deal_lines(path)
    _logged_by_an_older_version(path, [("mode", "play"), ("dgn", deal)])
    for _ in range(2):  # and after a restart
        server, client, links = _open(path)
        try:
            _reads(client, links)
            state = client.get("/api/v1/tables/1/1", headers=_auth(links["tables"][0]["token"])).json()
            assert state["rev"] == 2 and state["game"]["deal_known"] and state["set_aside"] == []
        finally:
            server.close()


def test_a_line_the_log_holds_that_no_longer_replays_is_set_aside(tmp_path):
    """A write stored by another version that this one cannot take again no longer stops the
    table (today: every read of it, and the director's page for every table, refused): it is
    set aside, named by its revision, and the table goes on from the rest."""
    path = _event(tmp_path)
    _logged_by_an_older_version(path, [("mode", "play"), ("dgn", "hand 1"), ("dgn", "this is no move"), ("call", "")])
    server, client, links = _open(path)
    try:
        _reads(client, links)
        token = links["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        assert state["rev"] == 4 and state["set_aside"] == [3] and state["called"] and state["mode"] == "play"
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": 4, "text": "N 6-6"})
        assert r.status_code == 200, r.text
        assert r.json()["rev"] == 5 and r.json()["set_aside"] == [3]
    finally:
        server.close()


def test_a_write_after_which_the_table_cannot_be_shown_is_not_kept(tmp_path, monkeypatch):
    """A fault of the server's own while making the answer: the write is refused (422, one line),
    nothing of it is stored, and the table reads as before; never a 500, never a stuck table."""
    path = _event(tmp_path)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        client.post(f"{url}/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
        state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": 1, "text": "hand 1"}).json()
        real = Session.state

        def broken(self, *a, **k):
            if any("6-6" in text for text in self.accepted):
                raise KeyError(None)
            return real(self, *a, **k)

        monkeypatch.setattr(Session, "state", broken)
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "N 6-6"})
        assert r.status_code == 422 and "nothing was stored" in r.json()["error"]
        _reads(client, links)
        again = client.get(url, headers=_auth(token)).json()
        assert again["rev"] == state["rev"] and not any(h["moves"] for h in again["game"]["hands"])
    finally:
        server.close()
    store = open_event(path)
    assert venue_sql.revision(store, store.tables(1)[0].id) == state["rev"]
    store.close()


def test_a_call_made_on_an_older_view_is_still_a_call(tmp_path):
    """Two phones: one wrote, the other taps *Call the director* on the view it had: a call."""
    path = _event(tmp_path)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        client.post(f"{url}/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
        r = client.post(f"{url}/call", headers=_auth(token), json={"rev": 0})  # the view before the mode
        assert r.status_code == 200, r.text
        assert r.json()["called"] and r.json()["rev"] == 2
        r = client.post(f"{url}/call", headers=_auth(token), json={})  # no revision at all: still a call
        assert r.status_code == 200 and r.json()["called"]
        overview = client.get("/api/v1/director", headers=_auth(_key(links["director"]))).json()
        assert overview["tables"][0]["called"]
    finally:
        server.close()
    with sqlite3.connect(path) as db:  # stored once each, in order, under the table's next revisions
        kinds = [k for (k,) in db.execute("SELECT kind FROM venue_log ORDER BY rev")]
    assert kinds == ["mode", "call", "call"]


# --- where the printed links point ----------------------------------------------------------


@pytest.fixture
def cli(monkeypatch):
    """The ``tournament`` command, its ``serve`` returning at once instead of listening (its hall's
    process never started, its port never taken)."""
    import uvicorn
    from typer.testing import CliRunner

    from tournament.cli import app

    from .served import no_hall

    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *a, **k: None)
    no_hall(monkeypatch)
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_serve_says_when_the_sheets_printed_before_point_elsewhere(tmp_path, cli):
    """Links and QR sheets made before ``serve`` point where they were made for: ``serve`` at
    another address says so (and how to mend it); at the same address it says nothing."""
    path = _event(tmp_path)
    r = cli("sheets", path, "--url", "http://192.0.2.7:8000", "-o", tmp_path / "sheets")
    assert r.exit_code == 0, r.output
    assert "has not been served yet" not in r.stderr  # an address given: no note
    r = cli("serve", path, "--port", "8123")
    assert r.exit_code == 0, r.output
    assert "http://127.0.0.1:8123/t/" in r.stdout
    assert ("the links and score sheets made before point to http://192.0.2.7:8000, not to this server "
            "(http://127.0.0.1:8123)") in r.stderr and "--url http://192.0.2.7:8000" in r.stderr
    r = cli("serve", path, "--port", "8000", "--url", "http://192.0.2.7:8000")
    assert r.exit_code == 0 and "point to" not in r.stderr, r.stderr
    # ``serve --url`` is remembered: the next ``serve`` on that port keeps to it, and says nothing.
    r = cli("serve", path)
    assert r.exit_code == 0 and "http://192.0.2.7:8000/t/" in r.stdout and "point to" not in r.stderr, r.stderr
    # ``links`` and ``sheets`` without --url use it, and the hall's own port beside it (--port + 1).
    r = cli("links", path, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["public"] == "http://192.0.2.7:8001/" and not r.stderr
    assert "http://192.0.2.7:8000/t/" in r.stdout
    r = cli("serve", path, "--one-process")
    assert r.exit_code == 0 and "public page:     http://192.0.2.7:8000/\n" in r.stdout, r.stdout
    r = cli("links", path, "--json")
    assert json.loads(r.stdout)["public"] == "http://192.0.2.7:8000/"


def test_links_made_before_the_first_serve_are_named_as_such(tmp_path, cli):
    """``links`` before any ``serve`` and without --url point to this computer alone: it says so;
    the ``serve`` after it, open to the hall at another address, says the links point elsewhere."""
    path = _event(tmp_path)
    r = cli("links", path)
    assert r.exit_code == 0 and "http://127.0.0.1:8000/t/" in r.stdout
    assert "the venue has not been served yet" in r.stderr and "--url" in r.stderr
    r = cli("serve", path, "--url", "http://10.0.0.5:8001", "--port", "8001")
    assert "point to http://127.0.0.1:8000, not to this server (http://10.0.0.5:8001)" in r.stderr, r.stderr
    r = cli("links", path, "--url", "http://10.0.0.9:8001")  # not where it was served
    assert r.exit_code == 0 and "the venue was last served at http://10.0.0.5:8001" in r.stderr, r.stderr
    r = cli("serve", path, "--port", "8001")  # the remembered --url, and the links made since point elsewhere
    assert "http://10.0.0.5:8001/t/" in r.stdout and "point to http://10.0.0.9:8001" in r.stderr, r.stderr


def test_the_directors_sheets_count_as_printed(tmp_path, cli):
    path = _event(tmp_path)
    server, client, links = _open(path)
    try:
        assert client.get(links["director"].replace("http://testserver", "") + "/sheets").status_code == 200
    finally:
        server.close()
    r = cli("serve", path, "--port", "8002")
    assert "point to http://testserver, not to this server" in r.stderr, r.stderr


# --- a hand's own lines, in whichever order the box gets them ---------------------------------


def _typed(path, seed: int = 5) -> tuple[list[str], str, list[str], list[str]]:
    """Round 1 table 1's game as the box takes it: hand 1's deal lines, its hand line, the rest,
    and every text in order."""
    texts = requests_for(_game_of(path, 1, 1, seed), keep_deal=True)
    k = 1
    while texts[k].split()[0] in ("deal", "row", "boneyard", "pile", "leaddraw", "redeal"):
        k += 1
    return texts[1:k], texts[0], texts[k:], texts


def _post(client, token, rev, text):
    return client.post("/api/v1/tables/1/1/dgn", headers=_auth(token), json={"rev": rev, "text": text})


@pytest.mark.parametrize("game", list(EVENTS))
def test_the_hand_line_after_the_deal_keeps_the_deal(tmp_path, game, request):
    """The deal typed in the box first (it starts hand 1 by itself), then *Start hand 1* ("lead:
    as the rules say"), then the hand line with its lead: the deal stays, and the game is played
    out to its end, hand 1 move by move, the later hands a hand a request (move by move with
    --long: the later hands are not what is tested).  The old server took the hand line and threw
    the deal away."""
    from tests.tournament.helpers import hand_by_hand

    path = _event(tmp_path, game)
    parts, line, rest, _ = _typed(path)
    second = next((k for k, text in enumerate(rest) if text.startswith("hand ")), len(rest))
    if not request.config.getoption("--long"):
        rest = rest[:second] + hand_by_hand(rest[second:])
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        rev = client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": 0, "mode": "play"}).json()["rev"]
        for text in ["\n".join(parts), line.split(" lead ")[0], line]:
            r = _post(client, token, rev, text)
            assert r.status_code == 200, (text, r.text)
            rev = r.json()["rev"]
            if game != "domino-roads":  # (three players: hand 1 waits for its lead, named by the next line)
                assert r.json()["game"]["deal_known"], text
        for text in rest:
            r = _post(client, token, rev, text)
            assert r.status_code == 200, (text, r.text)
            rev = r.json()["rev"]
        game_view = r.json()["game"]
        assert game_view["over"] and all(h["deal"] for h in game_view["hands"] if not h["sheet"])
        _reads(client, links)
    finally:
        server.close()


@pytest.mark.parametrize("game", ["competitive", "broadway"])
def test_a_lead_the_rules_refuse_is_refused_on_the_hand_line(tmp_path, game):
    """The deal typed first, then a hand line whose lead the deal rules out: 422 naming line 1 at
    the seat after ``lead`` (column 13), nothing stored, the deal kept; the right lead is then taken."""
    path = _event(tmp_path, game)
    parts, line, rest, _ = _typed(path)
    leader = line.split(" lead ")[1]
    wrong = next(s for s in ("N", "E", "S", "W") if s != leader)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
        rev = _post(client, token, 1, "\n".join(parts)).json()["rev"]
        r = _post(client, token, rev, f"hand 1 lead {wrong}")
        assert r.status_code == 422 and r.json()["error"].startswith(f"1:13: hand 1: {wrong} cannot lead"), r.text
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        assert state["rev"] == rev and state["game"]["deal_known"] and state["game"]["to_move"] == leader
        assert _post(client, token, rev, line).status_code == 200
    finally:
        server.close()


@pytest.mark.parametrize("game", list(EVENTS))
def test_start_hand_says_what_the_hand_still_needs(tmp_path, game):
    """*Start hand 1* at a Castle Rock table, nothing typed: the hand cannot start without its
    starting row, and the answer says so in one line (the old server said nothing and the next
    move was refused); with the row typed the first move is offered.  Elsewhere it starts."""
    path = _event(tmp_path, game)
    parts, _, _, _ = _typed(path)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
        r = _post(client, token, 1, "hand 1")
        assert r.status_code == 200, r.text
        said = r.json()["said"]
        if game == "castle-rock":
            assert len(said) == 1 and said[0].startswith("hand 1 cannot start yet:") and "row" in said[0], said
            again = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()  # any phone reads it
            assert again["game"]["waiting"] == said[0]
            page = client.get("/api/v1/tables/1/1", headers={**_auth(token), "Accept-Language": "es"}).json()
            assert page["game"]["waiting"].startswith("la mano 1 aún no puede empezar:"), page["game"]["waiting"]
            row = next(p for p in parts if p.startswith("row"))
            r = _post(client, token, r.json()["rev"], row)
            assert r.status_code == 200 and r.json()["game"]["announced"] == 1, r.text
            assert r.json()["game"]["waiting"] is None
        else:
            assert not any("cannot start" in s for s in said), said
    finally:
        server.close()


@pytest.mark.parametrize("game", list(EVENTS))
def test_two_hands_deal_lines_in_one_post_are_refused(tmp_path, game):
    """Hand 1's and hand 2's deal lines in one post: 422 naming the first line of the second deal,
    nothing stored (the old server kept the last deal given).  A seat's line sent again alone
    replaces the one before (how a mistyped line is put right)."""
    path = _event(tmp_path, game)
    parts, _, _, texts = _typed(path)
    start = next(k for k, t in enumerate(texts) if t.startswith("hand 2"))
    second = []
    for t in texts[start + 1:]:
        if t.split()[0] not in ("deal", "row", "boneyard", "pile", "leaddraw", "redeal"):
            break
        second.append(t)
    kinds = {tuple(p.split()[:2]) if p.split()[0] in ("deal", "pile", "leaddraw") else (p.split()[0],) for p in parts}
    at = next(k for k, t in enumerate(second)
              if (tuple(t.split()[:2]) if t.split()[0] in ("deal", "pile", "leaddraw") else (t.split()[0],)) in kinds)
    server, client, links = _open(path)
    try:
        token = links["tables"][0]["token"]
        client.post("/api/v1/tables/1/1/mode", headers=_auth(token), json={"rev": 0, "mode": "play"})
        r = _post(client, token, 1, "\n".join([*parts, *second]))
        assert r.status_code == 422, r.text
        assert r.json()["error"].startswith(f"{len(parts) + at + 1}:1: ") and "is given already for hand 1" in r.json()["error"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        assert state["rev"] == 1 and state["game"]["hands"] == [] and not state["game"]["deal_known"]
        rev = _post(client, token, 1, "\n".join(parts)).json()["rev"]
        r = _post(client, token, rev, next(p for p in parts if p.startswith("deal")))
        assert r.status_code == 200, r.text
    finally:
        server.close()

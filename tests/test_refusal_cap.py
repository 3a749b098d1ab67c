"""Two bounds of the venue server against one device (docs/venue.md, "Who may do what"):

* a table's refused writes are kept with their ids (``cid``) so that the same write sent again is
  answered the same; a table's key holder sending refused moves under ever-new ids grew the event
  file without end.  Now at most ``table_log.MAX_REFUSALS`` (1,000) are kept a table: past that a
  refusal is answered in the same line but not kept, and sent again it is judged again and
  refused again (a stale revision stays stale; the same move on the same position is refused the
  same way), while a write taken is always kept and never applied twice;
* the rate limit counted each IPv6 address apart, so a device with many addresses (privacy
  addresses, a whole /64) got a burst each.  Now an IPv6 client off the laptop's own network is
  counted by its /64, an IPv4-mapped one as its IPv4 address.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.event import phone, table_log

try:
    from tournament.web import devices
except ImportError:  # (the code before the change: its tests below fail, they are not skipped)
    devices = None  # type: ignore[assignment]

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import _auth, _event, _game_of, _requests, _server  # noqa: E402
from tournament.web.app import PHRASES, _Buckets  # noqa: E402

#: The cap the tests set (the real one, 1,000, is checked apart: sending a thousand takes long).
CAP = 5
URL = "/api/v1/tables/1/1"
#: A line no game takes (there is no 9-9 in a double-six set).
BAD = "N 9-9"


def _rows(server) -> tuple[int, int, int]:
    """Round 1 table 1's rows in the event file: its log, its writes kept as taken, as refused."""
    conn = server.venue.store.conn
    table = server.venue.table(1, 1).id
    log = conn.execute("SELECT COUNT(*) FROM venue_log WHERE table_id = ?", [table]).fetchone()[0]
    taken, refused = conn.execute("SELECT COUNT(*) FILTER (WHERE status = 200), COUNT(*) FILTER (WHERE status != 200) "
                                  "FROM venue_writes WHERE table_id = ?", [table]).fetchone()
    return log, taken, refused


def _without_id(answer: dict) -> dict:
    return {k: v for k, v in answer.items() if k != "request_id"}


@pytest.fixture
def capped(tmp_path: Path, monkeypatch):
    """A server whose tables keep at most CAP refusals, a client, the table's key, its game's moves."""
    monkeypatch.setattr(table_log, "MAX_REFUSALS", CAP, raising=False)
    path = _event(tmp_path)
    moves = _requests(_game_of(path, 1, 1, seed=5))
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        yield server, client, token, moves
    finally:
        server.close()


def _post(client, token: str, path: str, body: dict):
    return client.post(f"{URL}/{path}", headers=_auth(token), json=body)


def test_the_real_cap_is_a_thousand_refusals_a_table() -> None:
    assert table_log.MAX_REFUSALS == 1000


def test_refusals_past_the_cap_are_answered_alike_and_not_kept(capped) -> None:
    server, client, token, moves = capped
    first = _post(client, token, "dgn", {"rev": 0, "text": moves[0], "cid": "taken-000001"})
    assert first.status_code == 200 and first.json()["rev"] == 1
    answers = []
    for k in range(CAP + 20):
        r = _post(client, token, "dgn", {"rev": 1, "text": BAD, "cid": f"refused-{k:06d}"})
        assert r.status_code == 422, r.text
        answers.append(_without_id(r.json()))
    assert all(a == answers[0] for a in answers), "past the cap, the same one-line refusal"
    assert "\n" not in answers[0]["error"]
    # The file holds CAP refusals, and no more, however many came.
    assert _rows(server) == (1, 1, CAP)
    # A kept refusal sent again: the same answer; one not kept: judged again, refused alike.
    for cid in ("refused-000000", f"refused-{CAP + 19:06d}"):
        again = _post(client, token, "dgn", {"rev": 1, "text": BAD, "cid": cid})
        assert again.status_code == 422 and _without_id(again.json()) == answers[0]
    assert _rows(server) == (1, 1, CAP)
    assert client.get(URL, headers=_auth(token)).json()["rev"] == 1
    # The phone's engine, offline, refuses the line in the same words (nothing of it changed).
    log = client.get(f"{URL}?log=1", headers=_auth(token)).json()["log"]
    said = phone.answer(log, {"path": "dgn", "body": {"rev": 1, "text": BAD}}, "en", sentences=PHRASES)
    assert said["status"] == 422 and said["row"] is None and said["body"]["error"] == answers[0]["error"]


def test_a_write_taken_past_the_cap_is_kept_and_applied_once(capped) -> None:
    server, client, token, moves = capped
    assert _post(client, token, "dgn", {"rev": 0, "text": moves[0], "cid": "taken-000001"}).status_code == 200
    for k in range(CAP + 3):
        assert _post(client, token, "dgn", {"rev": 1, "text": BAD, "cid": f"refused-{k:06d}"}).status_code == 422
    move = {"rev": 1, "text": moves[1], "cid": "taken-past-the-cap"}
    taken = _post(client, token, "dgn", move)
    assert taken.status_code == 200 and taken.json()["rev"] == 2
    for _ in range(3):  # sent again (an answer lost): answered as taken, applied once
        again = _post(client, token, "dgn", move)
        assert again.status_code == 200 and again.json()["rev"] == 2
        assert _without_id(again.json()) == _without_id(taken.json())
    assert _rows(server) == (2, 2, CAP)


def test_a_refusal_not_kept_is_refused_again_whatever_came_since(capped) -> None:
    """Sent again, a refused write that was not kept is judged again: on the table unmoved, the same
    move on the same game, refused by the same rule; over a call of the director alone, the same
    game still; after the table moved on, its revision is behind for good.  Never taken."""
    server, client, token, moves = capped
    assert _post(client, token, "dgn", {"rev": 0, "text": moves[0], "cid": "taken-000001"}).status_code == 200
    for k in range(CAP):
        assert _post(client, token, "dgn", {"rev": 1, "text": BAD, "cid": f"refused-{k:06d}"}).status_code == 422
    bad = {"rev": 1, "text": BAD, "cid": "not-kept-bad-move"}
    # A stale write refused past the cap: a legal line, on a revision the table left.
    # (not the very line the table took on that revision: that one would be taken as its twin)
    stale = {"rev": 0, "text": moves[0] + " {again}", "cid": "not-kept-stale"}
    refused = _post(client, token, "dgn", bad)
    assert refused.status_code == 422
    old = _post(client, token, "dgn", stale)
    assert old.status_code == 409 and old.json()["error"].startswith("the table has moved on")
    assert _rows(server) == (1, 1, CAP)

    def sent_again(rev: int) -> None:
        again = _post(client, token, "dgn", bad)
        assert again.status_code in (409, 422), again.text
        if again.status_code == 422:
            assert again.json()["error"] == refused.json()["error"]
        else:
            assert again.json()["error"].startswith("the table has moved on")
        again = _post(client, token, "dgn", stale)
        assert again.status_code == 409 and again.json()["error"].startswith("the table has moved on")
        assert client.get(URL, headers=_auth(token)).json()["rev"] == rev
        assert _rows(server)[0] == rev and _rows(server)[2] == CAP

    sent_again(1)  # the table did not move: the same move on the same game
    call = _post(client, token, "call", {"cid": "call-000001"})
    assert call.status_code == 200 and call.json()["rev"] == 2
    again = _post(client, token, "dgn", bad)  # over the call alone: judged on the same game
    assert again.status_code == 422 and again.json()["error"] == refused.json()["error"]
    sent_again(2)
    moved = _post(client, token, "dgn", {"rev": 2, "text": moves[1], "cid": "taken-000002"})
    assert moved.status_code == 200 and moved.json()["rev"] == 3
    again = _post(client, token, "dgn", bad)  # the table moved on: its revision is behind for good
    assert again.status_code == 409 and again.json()["error"].startswith("the table has moved on")
    sent_again(3)
    assert _rows(server) == (3, 3, CAP)


# --- the rate limit counts an IPv6 device by its /64 -------------------------------------------------


def _away(network: str) -> bool:
    return False


def test_an_ipv6_client_is_counted_by_its_64(monkeypatch) -> None:
    monkeypatch.setattr(devices, "on_this_network", _away)
    assert devices.device("192.0.2.7") == "192.0.2.7"
    assert devices.device("::ffff:192.0.2.7") == "192.0.2.7"  # IPv4 written as IPv6: the IPv4 address
    assert devices.device("2001:db8:1:2::a") == devices.device("2001:db8:1:2:dead:beef:0:1") == "2001:db8:1:2::/64"
    assert devices.device("2001:DB8:1:2:0:0:0:A") == "2001:db8:1:2::/64"
    assert devices.device("2001:db8:1:3::a") == "2001:db8:1:3::/64"
    # Always on this computer's own links: each address a device.
    assert devices.device("fe80::1") != devices.device("fe80::2")
    assert devices.device("fe80::1%eth0") == "fe80::1"
    assert devices.device("::1") == "::1"
    # No address at all (a test client's name, "?"): as it is.
    assert devices.device("testclient") == "testclient" and devices.device("?") == "?"
    assert devices.device("not:an:address") == "not:an:address"


def test_on_the_laptop_s_own_network_each_address_is_a_device() -> None:
    """In the hall every phone's address is in the laptop's /64: counted by it, the whole hall
    would share one phone's rate limit."""
    here = "2001:db8:1:2::/64"
    near = lambda network: network == here  # noqa: E731
    assert devices.device("2001:db8:1:2::a", near) == "2001:db8:1:2::a"
    assert devices.device("2001:db8:1:2::b", near) == "2001:db8:1:2::b"
    assert devices.device("2001:db8:9:9::a", near) == devices.device("2001:db8:9:9::b", near) == "2001:db8:9:9::/64"


def test_the_documentation_network_is_not_this_computer_s() -> None:
    """Asked of the system, sending nothing: a network this computer has no address in (the
    documentation prefix) is not its own, with or without IPv6 here."""
    devices.on_this_network.cache_clear()
    assert devices.on_this_network("2001:db8:77:1::/64") is False


def test_the_buckets_count_a_device_once_however_many_addresses(monkeypatch) -> None:
    monkeypatch.setattr(devices, "on_this_network", _away)
    now = [0.0]
    buckets = _Buckets(rate=1.0, burst=3, clock=lambda: now[0], device=devices.device)
    made_up = [f"2001:db8:1:2::{k:x}" for k in range(1, 50)]
    assert [buckets.take(a) for a in made_up[:3]] == [0.0] * 3
    assert all(buckets.take(a) > 0 for a in made_up[3:]), "a new address of the same /64 got a burst of its own"
    assert buckets.waits("2001:db8:1:2:ffff::1") and len(buckets) == 1
    assert buckets.take("2001:db8:1:3::1") == 0.0  # another /64: another device
    assert [buckets.take(a) for a in ("192.0.2.7", "::ffff:192.0.2.7", "::ffff:c000:207")][:3] == [0.0] * 3
    assert buckets.take("192.0.2.7") > 0  # its burst of 3 spent, under either spelling


@pytest.mark.parametrize("ours", [False, True])
def test_the_server_s_rate_limit_counts_an_ipv6_device_by_its_64(tmp_path: Path, monkeypatch, ours: bool) -> None:
    """Through the app: requests from made-up addresses of one /64 share its limit, unless the /64
    is the laptop's own (``ours``: the hall's Wi-Fi), where each address is a phone."""
    if devices is not None:
        monkeypatch.setattr(devices, "on_this_network", lambda network: ours and network == "2001:db8:1:2::/64")
    server = _server(_event(tmp_path), rate=0.01, burst=3)  # a token back every 100 s: no refill here
    try:
        def get(address: str) -> int:
            return starlette_testclient.TestClient(server.asgi, client=(address, 50000)).get("/").status_code

        codes = [get(f"2001:db8:1:2::{k:x}") for k in range(1, 9)]
        assert codes == ([200] * 8 if ours else [200] * 3 + [429] * 5), codes
        assert get("2001:db8:1:3::1") == 200  # another device
        assert [get(a) for a in ("192.0.2.7", "::ffff:192.0.2.7", "::ffff:192.0.2.7", "192.0.2.7")] == \
            [200] * 3 + [429]
    finally:
        server.close()

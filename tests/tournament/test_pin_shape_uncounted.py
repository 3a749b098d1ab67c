"""A PIN of the wrong shape is refused without being counted as a wrong PIN (a tester's finding):
a player's PIN is four digits (its slip prints it so) and the director's six (the director's page
shows it); before, "12" or "12345" for a player, and letters or "12" for the director, counted
towards the table's wait, as a guess would.  A typo of the wrong length is no guess, and the shape
is no secret.  Also: the director's PIN typed at a table that waits after wrong PINs is told that
the director's PIN waits too (it said only "confirmations wait")."""

from __future__ import annotations

import pytest

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import _auth, _event, _game_of, _play, _server  # noqa: E402
from tests.tournament.test_venue_director_pin import URL, _at_table  # noqa: E402
from tests.tournament.test_venue_pins import _pins_of  # noqa: E402


def _confirmable(tmp_path):
    """A served event with PINs, table 1's game played through: the server, a client, the table's
    key and the table's state."""
    path = _event(tmp_path)
    _pins_of(path)
    server = _server(path, pins=True)
    client = starlette_testclient.TestClient(server.asgi)
    token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
    return server, client, token, _play(client, token, 1, 1, _game_of(path, 1, 1, seed=3), whole_hands=True)


def test_a_players_pin_of_the_wrong_length_is_not_counted(tmp_path):
    server, client, token, state = _confirmable(tmp_path)
    try:
        for pin in ("12", "12345", "1", "123456789"):
            r = client.post(f"{URL}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "NS", "pin": pin})
            assert r.status_code == 422 and r.json()["error"] == "type your 4-digit PIN (from your slip) to confirm"
        assert server.call(server.venue.pin_tries, 1, 1)["wrong"] == 0
    finally:
        server.close()


def test_the_directors_pin_of_the_wrong_shape_is_not_counted_and_a_wait_says_it_holds_it_too(tmp_path):
    server, client, token, _ = _confirmable(tmp_path)
    try:
        links = server.call(server.venue.links, "http://testserver")
        for pin in ("abcdef", "12", "1234567", "12 345"):
            r = client.get(f"{URL}/lines", headers=_at_table(token, pin))
            assert r.status_code == 403
            assert r.json()["error"] == "the director's PIN is 6 digits, as the director's page shows it"
        assert server.call(server.venue.pin_tries, 1, 1)["wrong"] == 0
        right = links["director_pin"]
        wrong = str((int(right) + 1) % 10 ** 6).zfill(6)
        for _ in range(5):
            assert client.get(f"{URL}/lines", headers=_at_table(token, wrong)).status_code == 403
        assert server.call(server.venue.pin_tries, 1, 1)["wrong"] == 5
        r = client.get(f"{URL}/lines", headers=_at_table(token, right))
        assert r.status_code == 429
        assert r.json()["error"].startswith("too many wrong PINs at this table: its confirmations and the director's "
                                            "PIN wait "), r.json()
        es = client.get(f"{URL}/lines?lang=es", headers=_at_table(token, right)).json()["error"]
        assert es.startswith("demasiados PIN incorrectos en esta mesa: sus confirmaciones y el PIN del árbitro"), es
    finally:
        server.close()

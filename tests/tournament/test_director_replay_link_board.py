"""The director's page's replay link names a board at a duplicate event: the replay of a
duplicate table is a board's (the one in play, else the last one played: ``Venue.replay_html``),
and the link said "The game so far, move by move" there, in English and Spanish.  Elsewhere it
still names the game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

starlette_testclient = pytest.importorskip("starlette.testclient")
# The served 3-table Mitchell (6 boards, 2 a table).
from tests.tournament.test_venue_duplicate_not_played import dup  # noqa: E402,F401


def _replay_link(page: str) -> str:
    """The words of the page's replay link (``#detail-replay``)."""
    found = re.search(r'<a [^>]*id="detail-replay"[^>]*>([^<]*)</a>', page)
    assert found, "no replay link"
    return found.group(1)


def test_the_replay_link_names_the_board_at_a_duplicate_event(dup) -> None:
    event, client, url, token, boards, director, server = dup
    page = client.get(f"/d/{director}", headers={"Accept-Language": "en"}).text
    assert _replay_link(page) == "The board in play (or the last one played), move by move (replay)"
    es = client.get(f"/d/{director}?lang=es").text
    assert _replay_link(es) == "El tablero en juego (o el último jugado), jugada a jugada"


def test_the_replay_link_still_names_the_game_elsewhere(tmp_path: Path) -> None:
    from tests.tournament.test_venue import _event, _server

    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        key = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
        assert _replay_link(client.get(f"/d/{key}", headers={"Accept-Language": "en"}).text) == \
            "The game so far, move by move (replay)"
        assert _replay_link(client.get(f"/d/{key}?lang=es").text) == "La partida hasta ahora, jugada a jugada"
    finally:
        server.close()

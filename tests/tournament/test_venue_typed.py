"""A table of the venue, through the server's app in-process, takes every typed form of a game
that ``domrec validate`` reads: canonical DGN (every forced pass written, which the table has
made by itself already) and the typed form without the deal and without seats, posted a line
at a time and as one post, with the scores the game has (tests/test_every_way_typed.py holds
the library under it, the Session, to the same over every game and option set)."""

from __future__ import annotations

import pytest

from domrec import notation
from domrec.validate import validate

from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _server, starlette_testclient


def _forms(record) -> dict[str, str]:
    return {"canonical": notation.dumps(record),
            "typed without the deal or seats": notation.dumps_typed(record, keep_deal=False, seats=False)}


def _post_all(client, token: str, requests: list[str]) -> dict:
    url = "/api/v1/tables/1/1"
    state = client.get(url, headers=_auth(token)).json()
    for text in requests:
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
    if state["game"]["in_hand"]:  # the page's button closing the last hand
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "y"})
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


@pytest.mark.parametrize("key", list(EVENTS))
@pytest.mark.parametrize("whole", [False, True], ids=["line-by-line", "one-post"])
def test_a_table_takes_every_form_validate_reads(tmp_path, key, whole):
    for name in ("canonical", "typed without the deal or seats"):
        folder = tmp_path / name.replace(" ", "-")
        folder.mkdir()
        path = _event(folder, key)
        record = _game_of(path, 1, 1, seed=5)
        text = _forms(record)[name]
        (read,) = notation.read_games(text)
        assert read.report.status == "valid", name
        lines = [line for line in text.splitlines() if line.strip() and not line.startswith("[")]
        server = _server(path)
        try:
            client = starlette_testclient.TestClient(server.asgi)
            token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
            state = _post_all(client, token, ["\n".join(lines)] if whole else lines)
            assert state["game"]["over"], name
            assert state["game"]["totals"] == validate(record).scores, name
        finally:
            server.close()

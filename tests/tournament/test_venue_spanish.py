"""The venue in Spanish wherever a director or a table meets it.

* A request that comes while the server is shutting down is refused in the client's language
  (503), not answered as a fault of the server's own.
* "Next round" on the director's page (``POST /api/v1/director/pair``): every refusal of the
  pairing and of the stages on its way (a balanced schedule, a Swiss field too small, a knockout
  or a final drawn, a team event, a duplicate movement, the seeding) in Spanish, each as the
  director's page gets it.
* The sweep: every refusal the pairing path can raise (each ``raise`` of a tournament error in
  its modules, read from the code) is a listed sentence with its Spanish; and each JSON route of
  the tables and the director, sent the wrong requests a phone or a page can send, answers
  Spanish to a Spanish client.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest

from domrec import phrases

from tests.tournament.test_director_words import _english_words
from tests.tournament.test_venue import _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def _pair_refused(server, body=None) -> tuple[str, str]:
    """The director's "next round" refused, in English and in Spanish (the English first, so a
    refusal that could only be made once is made the same way twice)."""
    client = starlette_testclient.TestClient(server.asgi)
    director = _key(server.call(server.venue.links, "http://testserver")["director"])
    said = {}
    for lang in ("en", "es"):
        r = client.post("/api/v1/director/pair", json=body or {}, headers={**_auth(director), "Accept-Language": lang})
        assert 400 <= r.status_code < 500, r.text
        said[lang] = r.json()["error"]
    return said["en"], said["es"]


def _spanish(en: str, es: str) -> None:
    from tournament.web.app import PHRASES

    assert phrases.listed(en, PHRASES), en
    assert "\n" not in es and es != en and not _english_words(es), (en, es)


# --- the server shutting down ------------------------------------------------------------------


def test_a_request_while_the_server_shuts_down_is_refused_in_spanish(tmp_path: Path) -> None:
    server = _server(_event(tmp_path))
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    table, director = links["tables"][0]["token"], _key(links["director"])
    server.close()
    for method, url, token in (("GET", "/api/v1/tables/1/1", table), ("POST", "/api/v1/director/pair", director),
                               ("GET", "/api/v1/director", director)):
        said = {}
        for lang in ("en", "es"):
            r = client.request(method, url, headers={**_auth(token), "Accept-Language": lang},
                               **({"json": {}} if method == "POST" else {}))
            assert r.status_code == 503, (url, r.status_code, r.text)
            said[lang] = r.json()["error"]
        assert said["en"].startswith("the server is shutting down: nothing more is done"), said
        assert said["es"].startswith("el servidor se está cerrando"), said
        _spanish(said["en"], said["es"])

"""The public feed and the public pages send the gzipped body by ``Accept-Encoding`` as RFC 9110
weighs it (tournament/web/encoding.py), not wherever "gzip" appears in the header: ``gzip;q=0``
refuses gzip, ``*`` counts, ``identity`` wins where weighed higher.  The feed's gzipped answer
has an ETag of its own (a cache holding one body must not be told 304 for the other), each
answered 304 for its own tag, and every answer says ``Vary: Accept-Encoding``.  One function
reads the header for the feed, the hall's pages (the route and the hall's connection), the hub's
pages and the engine's files."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from tests.tournament.test_feed_cache import _event
from tests.tournament.test_venue import _server

starlette_testclient = pytest.importorskip("starlette.testclient")

FEEDS = ("/api/v1/standings", "/api/v1/event", "/api/v1/rounds/1", "/api/v1/changes?since=0")


@pytest.mark.parametrize("header, gzipped", [
    (None, False),  # no header: the plain body (a program that may not unpack gzip)
    ("", False),  # an empty header asks for no coding
    ("gzip", True),
    ("GZip", True),
    (b"gzip, deflate", True),  # (as the hall's connection reads it: bytes)
    ("x-gzip", True),
    ("gzip;q=0", False),
    ("gzip; q=0.000, deflate", False),
    ("deflate, gzip;q=0", False),
    ("identity", False),
    ("deflate, br", False),
    ("*", True),
    ("*;q=0", False),  # everything refused, identity too: plain all the same, not a 406
    ("gzip;q=0, *", False),  # named: its own weight, not the star's
    ("identity;q=0", False),  # gzip not named and no star: not acceptable either
    ("identity;q=0, gzip;q=0.1", True),
    ("gzip;q=0.5, identity", False),  # identity weighed higher
    ("gzip, identity;q=0.5", True),
    ("gzip;q=0.5, identity;q=0.5", True),  # a tie: the smaller body
    ("gzip;q=0.4", True),  # identity acceptable but not weighed: gzip, asked for
    ("br, *;q=0.2", True),
    ("gzip;q=high", False),  # not a qvalue: the element is left out
    ("gzip;q=1.5", False),
    ("gzip;q=1.000", True),
])
def test_the_header_is_read_by_its_q_values(header, gzipped) -> None:
    from tournament.web import encoding

    assert encoding.gzip_taken(header) is gzipped


def test_the_feed_honours_q_values_and_tags_each_body_apart(tmp_path: Path) -> None:
    server = _server(_event(tmp_path / "club.db"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for url in FEEDS:
            squeezed = client.get(url, headers={"Accept-Encoding": "gzip"})
            refused = client.get(url, headers={"Accept-Encoding": "gzip;q=0, deflate"})
            plain = client.get(url, headers={"Accept-Encoding": "identity"})
            preferred = client.get(url, headers={"Accept-Encoding": "gzip;q=0.2, identity;q=0.9"})
            starred = client.get(url, headers={"Accept-Encoding": "br, *;q=0.5"})
            for answer in (squeezed, refused, plain, preferred, starred):
                assert answer.status_code == 200, url
                assert answer.headers["vary"].lower() == "accept-encoding"
                assert answer.content == plain.content  # (the client unpacks a gzipped one)
            assert squeezed.headers["content-encoding"] == starred.headers["content-encoding"] == "gzip"
            for answer in (refused, plain, preferred):
                assert "content-encoding" not in answer.headers, url
                assert answer.headers["etag"] == plain.headers["etag"]
            assert starred.headers["etag"] == squeezed.headers["etag"]
            gz, tag = squeezed.headers["etag"], plain.headers["etag"]
            assert gz != tag and re.fullmatch(r'"feed\d+-gz-[0-9a-f-]+-\d+"', gz), gz
            assert gz.endswith(tag.rsplit("-", 1)[1])  # (the change's number last in both)

            for asked, own, other in (("gzip", gz, tag), ("identity", tag, gz)):
                same = client.get(url, headers={"Accept-Encoding": asked, "If-None-Match": own})
                assert same.status_code == 304 and not same.content, (url, asked)
                assert same.headers["etag"] == own and same.headers["vary"].lower() == "accept-encoding"
                weak = client.get(url, headers={"Accept-Encoding": asked, "If-None-Match": f"W/{own}"})
                assert weak.status_code == 304, (url, asked)
                # The other body's tag is not this body's: the answer is sent, with this one's tag.
                again = client.get(url, headers={"Accept-Encoding": asked, "If-None-Match": other})
                assert again.status_code == 200 and again.headers["etag"] == own, (url, asked)
                assert again.content == plain.content
            both = client.get(url, headers={"Accept-Encoding": "gzip", "If-None-Match": f"{tag}, {gz}"})
            assert both.status_code == 304
    finally:
        server.close()


def test_the_gzipped_answer_is_the_plain_one_compressed(tmp_path: Path) -> None:
    """Read raw (the test client unpacks gzip itself): the gzipped bytes are the plain ones."""
    server = _server(_event(tmp_path / "club.db"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        with client.stream("GET", "/api/v1/standings", headers={"Accept-Encoding": "gzip"}) as raw:
            body = b"".join(raw.iter_raw())
        assert gzip.decompress(body) == client.get("/api/v1/standings",
                                                   headers={"Accept-Encoding": "identity"}).content
    finally:
        server.close()


@pytest.mark.parametrize("path", ["/", "/standings"])
def test_the_public_pages_read_the_header_the_same_way(tmp_path: Path, path: str) -> None:
    server = _server(_event(tmp_path / "club.db"))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for header, gzipped in (("gzip", True), ("gzip;q=0", False), ("deflate, gzip;q=0", False),
                                ("gzip;q=0.3, identity", False), ("*", True), ("identity", False)):
            answer = client.get(path, headers={"Accept-Encoding": header})
            assert answer.status_code == 200
            assert answer.headers.get("content-encoding") == ("gzip" if gzipped else None), header
            assert "accept-encoding" in answer.headers["vary"].lower()
    finally:
        server.close()


def test_one_function_reads_accept_encoding() -> None:
    """The feed, the hall's pages (the route and the hall's own connection, below ASGI), the hub's
    pages and the engine's files read the header through :func:`encoding.gzip_taken` alone: no
    other code looks for "gzip" in it."""
    import tournament.web

    web = Path(tournament.web.__file__).parent
    for source in sorted(web.glob("*.py")):
        text = source.read_text(encoding="utf-8")
        assert not re.search(r"""b?["']gzip["']\s+in\b""", text), source.name
        if source.name != "encoding.py":
            assert not re.search(r"""\.get\(\s*b?["']accept-encoding["']\s*,\s*b?["']["']\s*\)""", text), source.name
    for name in ("app.py", "hall.py", "hub.py"):
        assert "gzip_taken(" in (web / name).read_text(encoding="utf-8"), name

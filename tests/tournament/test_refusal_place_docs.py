"""A typed refusal as docs/venue.md shows it is what the table page shows (docs/venue.md, the
JSON API's language): the API's answer keeps its ``1:3:`` place, the page drops it for a one-line
write (its words name the move refused; a tap typed nothing to count), and keeps it for several
lines.  The docs showed the page's refusal as ``1:3: 'xyz' no es una jugada de competitivo``;
the page shows ``'xyz' no es una jugada de competitivo``.  The page's rule is read from
table.js (the browser test in test_venue_browser.py watches it on the page)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.tournament.test_venue import _auth, _event, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

ROOT = Path(__file__).resolve().parents[2]


def page_rule() -> re.Pattern[str]:
    """The table page's ``placeless``: the place its one-line writes' refusals are said without."""
    script = (ROOT / "tournament/web/static/table.js").read_text(encoding="utf-8")
    found = re.search(r"const placeless = .*?text\.replace\(/(.+?)/, \"\"\)", script, re.S)
    assert found, "table.js: placeless"
    return re.compile(found.group(1).replace("\\d", r"\d"))


def test_the_docs_show_a_typed_refusal_as_the_api_and_the_page_say_it(tmp_path: Path) -> None:
    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        r = client.post("/api/v1/tables/1/1/dgn?lang=es", headers=_auth(token),
                        json={"rev": state["rev"], "text": "N xyz"})
        assert r.status_code == 422
        api = r.json()["error"]
    finally:
        server.close()
    assert api == "1:3: 'xyz' no es una jugada de competitivo"
    shown = page_rule().sub("", api, count=1)
    assert shown == "'xyz' no es una jugada de competitivo"
    docs = " ".join((ROOT / "docs/venue.md").read_text(encoding="utf-8").split())
    assert f"(`{api}`)" in docs  # the API's answer, with its place
    page = docs.split("**The table page**", 1)
    assert len(page) == 2, "docs/venue.md says how the table page shows a refusal"
    said = page[1].split(". ", 1)[0]
    assert f"`{shown}`" in said and f"`{api}`" not in said  # the page's, without it
    assert "several lines" in page[1].split("Game names", 1)[0]

"""One number a duplicate pair has everywhere: its number in the movement.  The movement numbers the
pairs that play from 1; a pair removed before round 1 (``tournament remove``) leaves a gap among the
event's pair ids, so pair id 4 is the movement's pair 3.  The tables, the pair's card, the travellers
and the standings said 3 while the hall's *Find your table*, its search by number and a player's
page said #4 (docs/duplicate.md, "Running a session")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event import duplicate as dup

from tests.tournament.test_duplicate_rounds import ok

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _event(tmp_path: Path) -> Path:
    """Eight pairs entered, pair 3 removed before round 1: seven play (a phantom pair sits out)."""
    e = tmp_path / "gap.db"
    ok("new", e, "--name", "Gap", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 9):
        ok("add", e, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    ok("remove", e, "Pair 3")
    ok("boards", e, "--boards", 8, "--seed", 5)
    ok("pair", e)
    return e


def _play_round(e: Path, number: int) -> None:
    with open_event(e) as store:
        tables = dup.table_boards(store, number)
    for t in tables:
        for b in t.boards:
            won = 10 * t.table + b
            ok("result", e, "--round", number, "--table", t.table, "--board", b, "--score",
               f"NS={won},EW=0" if (t.table + b) % 2 else f"NS=0,EW={won}")


def test_find_your_table_and_a_players_page_give_the_movements_pair_number(tmp_path: Path) -> None:
    e = _event(tmp_path)
    doc = json.loads(ok("tables", e, "--json"))
    number_of = {r["ns_name"]: r["ns"] for r in doc["rows"]} | {r["ew_name"]: r["ew"] for r in doc["rows"]}
    if doc.get("sits_out"):
        number_of[doc["sits_out"]["name"]] = doc["sits_out"]["pair"]
    assert number_of["Pair 4"] == 3 and number_of["Pair 8"] == 7  # the movement's numbers: no gap
    with open_event(e) as store:
        pair_id = {t.name: t.id for t in store.teams()}
        player_of = {p.name: p.id for p in store.players()}
    assert pair_id["Pair 4"] == 4  # the event's id keeps the gap
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for i in (1, 2, 4, 5, 6, 7, 8):
            name = f"Pair {i}"
            found = _text(client.get("/", params={"q": f"North {i}"}).text)
            assert f"North {i} #{number_of[name]} →" in found, (name, found)
            page = _text(client.get(f"/players/{player_of[f'South {i}']}").text)
            assert f"Pair: #{number_of[name]} {name}" in page, (name, page)
        # a search by number finds the movement's pair of that number
        found = _text(client.get("/", params={"q": "#3"}).text)
        assert "North 4" in found and "South 4" in found and "North 3 " not in found, found
        # and each player's rank is the rank of the pair the standings number so
        for number in (1, 2, 3, 4):  # the whole session (4 tables): every board played at every table
            _play_round(e, number)
            if number < 4:
                ok("pair", e)
        standings = client.get("/api/v1/standings").json()
        ranked = {r["name"]: (str(r["rank"]), r["direction"]) for r in standings["pairs"] if r["boards"]}
        assert len({rank for rank, _ in ranked.values()}) > 1
        words = {"NS": "North-South", "EW": "East-West"}  # (a Mitchell ranks each direction apart)
        for name, (rank, direction) in ranked.items():
            i = int(name.split()[1])
            page = _text(client.get(f"/players/{player_of[f'North {i}']}").text)
            assert f"Rank {rank} {words[direction]}" in page, (name, rank, page)
    finally:
        server.close()

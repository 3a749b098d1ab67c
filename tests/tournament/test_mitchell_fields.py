"""A Mitchell's standings are two lists, North-South and East-West, each ranked on its own
(docs/duplicate.md, "Ranking"): an NS pair is only ever compared with NS pairs on a board's
traveller, so a club announces a winner a direction.  A Howell (every pair sits both ways) is one
list.  Before, a Mitchell ranked its NS and EW pairs in one list, 1 to 8.  Checked in the library's
standings, ``tournament standings`` (text and --json), the feed's ``/api/v1/standings``, the hall's
``/standings`` page and a league's places; for a plain Mitchell, a skip Mitchell and one with a
sit-out (an odd number of pairs)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tests.tournament.test_duplicate_event import new_event, play_session, run

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402


def played(tmp_path: Path, pairs: int, movement: str, boards: int) -> Path:
    event = tmp_path / f"{movement}-{pairs}.db"
    new_event(event, pairs, movement)
    run("boards", event, "--boards", boards, "--seed", 16)
    play_session(tmp_path, event)
    return event


def expected_ranks(rows: list[dict], by_field: bool) -> dict[int, int]:
    """Each pair's rank worked out here: by percentage, then IMPs, within its direction (a Mitchell)
    or among all (a Howell); pairs level on both share a rank (1, 2, 2, 4)."""
    out = {}
    groups = {}
    for r in rows:
        groups.setdefault(r["direction"] if by_field else "", []).append(r)
    for group in groups.values():
        key = lambda r: (Fraction(r["matchpoints"], r["top"] or 1), r["imps"])  # noqa: E731
        for r in group:
            out[r["pair"]] = 1 + sum(1 for o in group if key(o) > key(r))
    return out


def check_fields(doc: dict, directions: dict[str, int]) -> None:
    assert doc["fields"] == ["NS", "EW"]
    rows = doc["pairs"]
    got = [r["direction"] for r in rows]
    assert got == sorted(got, key=["NS", "EW"].index)  # NS pairs first, then EW
    assert {d: got.count(d) for d in set(got)} == directions
    assert {r["pair"]: r["rank"] for r in rows} == expected_ranks(rows, by_field=True)
    for field in ("NS", "EW"):
        assert min(r["rank"] for r in rows if r["direction"] == field) == 1  # a winner a direction


@pytest.mark.parametrize("pairs, movement, boards, directions", [
    (8, "mitchell", 8, {"NS": 4, "EW": 4}),
    (8, "mitchell-skip", 8, {"NS": 4, "EW": 4}),
    (7, "mitchell", 8, {"NS": 4, "EW": 3}),  # a sit-out: the missing EW pair's station sits out
], ids=["mitchell", "skip-mitchell", "sit-out"])
def test_a_mitchell_ranks_each_direction_on_its_own(tmp_path: Path, pairs, movement, boards, directions) -> None:
    event = played(tmp_path, pairs, movement, boards)
    doc = json.loads(run("standings", event, "--json"))
    check_fields(doc, directions)
    text = run("standings", event)
    ns, ew = text.split("duplicate standings, North-South")[1].split("duplicate standings, East-West")
    ns_pairs = [r["pair"] for r in doc["pairs"] if r["direction"] == "NS"]
    ew_pairs = [r["pair"] for r in doc["pairs"] if r["direction"] == "EW"]
    assert all(f"│ {p} Pair {p} " in ns for p in ns_pairs) and not any(f"│ {p} Pair {p} " in ns for p in ew_pairs)
    assert all(f"│ {p} Pair {p} " in ew for p in ew_pairs)
    assert ns.count("│    1 │") >= 1 and ew.count("│    1 │") >= 1
    assert "ranked by matchpoint percentage, then IMPs" in ew  # the footer once, under the last list
    # The feed and the hall, from the same standings.
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        feed = client.get("/api/v1/standings").json()
        check_fields(feed, directions)
        assert feed["standings"] == feed["pairs"]
        page = client.get("/standings").text
        assert page.index(">North-South<") < page.index(">East-West<")
        assert "ranked apart" in page
        spanish = client.get("/standings", headers={"Accept-Language": "es"}).text
        assert ">Norte-Sur<" in spanish and ">Este-Oeste<" in spanish and "por separado" in spanish
    finally:
        server.close()


def test_a_howell_is_one_list(tmp_path: Path) -> None:
    event = played(tmp_path, 6, "howell", 10)
    doc = json.loads(run("standings", event, "--json"))
    assert doc["fields"] == []
    assert {r["direction"] for r in doc["pairs"]} == {"both"}
    assert {r["pair"]: r["rank"] for r in doc["pairs"]} == expected_ranks(doc["pairs"], by_field=False)
    assert sorted(r["rank"] for r in doc["pairs"])[:1] == [1]
    text = run("standings", event)
    assert "North-South" not in text and "East-West" not in text
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        assert client.get("/api/v1/standings").json()["fields"] == []
        assert ">North-South<" not in client.get("/standings").text
    finally:
        server.close()


def test_a_leagues_place_in_a_mitchell_is_of_its_direction(tmp_path: Path) -> None:
    """A league credits each player with their pair's place: in a Mitchell, rank 1 of the four
    pairs of its direction, not of all eight."""
    from tournament import open_event
    from tournament.event import feed, league

    event = played(tmp_path, 8, "mitchell", 8)
    store = open_event(event)
    try:
        doc = json.loads(json.dumps(feed.published_standings(store)))
    finally:
        store.close()
    rows = {r["player"]: r for r in league.standings("Liga", [("club", doc)])["players"]}
    for row in doc["pairs"]:
        for who in doc["members"][str(row["pair"])]:
            assert rows[who]["places"][0]["rank"] == row["rank"] and rows[who]["places"][0]["of"] == 4

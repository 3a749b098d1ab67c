"""The hall, the feed and the report with a board marked not played (duplicate pairs), and a
duplicate player's page (docs/duplicate.md: "A board not played", "At the venue").

Before: one board marked not played left its table "not started" in the feed and the hall stuck
on that round for the rest of the night (Find your table, /tables, the projector, a player's
"where you sit now"), although the command line (``duplicate.missing``) counted the table done;
the board's deal and traveller were never shown (the table that did not play it was still
awaited) and the pair cards left the board out; the round's tables said "board 4: … to play"
after the session ended; and a player's page called a sit-out a "bye" and gave every player of
a duplicate event "Rank 1" (the games' standings, all zero)."""

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

#: Round 1, table 2, board 4: marked not played (a 5-pair Mitchell: pair 3 sits round 1 out).
SKIPPED = (1, 2, 4)


def _five_pairs(tmp_path: Path) -> Path:
    e = tmp_path / "odd.db"
    ok("new", e, "--name", "Odd", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 6):
        ok("add", e, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    ok("boards", e, "--boards", 6, "--seed", 38)
    return e


def _play_round(e: Path, number: int, skip: tuple[int, int, int] | None = SKIPPED) -> None:
    """Every board of round ``number`` entered (a different score at each table), but ``skip``'s
    board, marked not played."""
    with open_event(e) as store:
        tables = dup.table_boards(store, number)
    for t in tables:
        for b in t.boards:
            if skip == (number, t.table, b):
                ok("result", e, "--round", number, "--table", t.table, "--board", b, "--not-played",
                   "--reason", "ran out of time")
            else:
                ok("result", e, "--round", number, "--table", t.table, "--board", b, "--score",
                   f"NS={10 * t.table + b},EW=0")


def _text(html: str) -> str:
    html = re.sub(r"(?s)<script.*?</script>|<style.*?</style>", " ", html)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.fixture
def hall(tmp_path: Path):
    e = _five_pairs(tmp_path)
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)

        def get(path: str, lang: str = "en") -> str:
            r = client.get(path, headers={"Accept-Language": lang})
            assert r.status_code == 200, (path, r.text)
            return r.text if path.startswith("/api/") else _text(r.text)

        yield e, get
    finally:
        server.close()


def test_a_table_with_a_board_not_played_is_complete_and_the_hall_moves_on(hall) -> None:
    e, get = hall
    ok("pair", e)
    _play_round(e, 1)
    with open_event(e) as store:
        assert dup.missing(store, 1) == []  # the command line's rule
    table = next(t for t in json.loads(get("/api/v1/rounds/1"))["tables"] if t["table"] == 2)
    assert table["status"] == "confirmed" and table["not_played"] == [4], table
    ok("pair", e)  # round 2
    assert "Round 2: find your table" in get("/"), get("/")
    assert "Round 2" in get("/tables")
    assert "Round 2" in get("/players/1").split("Games")[0]  # where the player sits now
    doc = json.loads(get("/api/v1/event"))
    assert doc["current_round"] == 2


def test_the_rounds_tables_say_the_board_is_not_played(hall, tmp_path: Path) -> None:
    e, get = hall
    ok("pair", e)
    _play_round(e, 1)
    # The round's tables, once it is over: the board is said not played, never "to play".
    tables = get("/tables")
    assert "2 of 2 tables have their result" in tables, tables
    assert "board 4: not played" in tables and "to play" not in tables, tables
    es = get("/tables", "es")
    assert "tablero 4: no jugado" in es and "por jugar" not in es, es
    for lang, said, waiting in (("en", "board 4: not played", "to play"), ("es", "tablero 4: no jugado", "por jugar")):
        page = tmp_path / f"r-{lang}.html"
        ok("report", e, "-o", page, "--lang", lang)
        text = _text(page.read_text(encoding="utf-8"))
        assert said in text and waiting not in text, lang


def test_the_board_not_played_is_shown_once_the_other_tables_are_in(hall, tmp_path: Path) -> None:
    e, get = hall
    for number in (1, 2, 3):
        ok("pair", e)
        _play_round(e, number)
    boards = get("/boards")
    # (five pairs: a board is played at two tables; here at one, and the other is out of it)
    assert "Board 4 · played at 1 table · deal shown" in boards, boards
    board = get("/boards/4")
    assert "leads" in board and "Traveller" in board and "so far" not in board, board
    assert "Not played at table 2 (round 1)" in board, board
    from tournament.event.public import public_data

    with open_event(e) as store:
        data = public_data(store, hall=True)
        other = next(t for t in dup.table_boards(store) if 4 in t.boards and (t.round, t.table) != (1, 2))
    for row in data["duplicate_standings"]["pairs"]:  # each pair's card lists every board it played
        card = data["pair_cards"][row["pair"]]["rows"]
        assert len(card) == row["boards"] + row["unscored"], (row, card)
    for pair in (other.ns, other.ew):  # the board is on the cards of the pairs that did play it
        assert any(r["board"] == 4 for r in data["pair_cards"][pair]["rows"]), pair
    # The report's round tables: the board is not played there, in both languages.
    for lang, said, waiting in (("en", "board 4: not played", "to play"), ("es", "tablero 4: no jugado", "por jugar")):
        page = tmp_path / f"r-{lang}.html"
        ok("report", e, "-o", page, "--lang", lang)
        text = _text(page.read_text(encoding="utf-8"))
        assert said in text and waiting not in text, lang


def _rank(get, player: int) -> str | None:
    # (a Mitchell ranks each direction apart: the page names the pair's direction)
    found = re.search(r"Rank (\d+) (?:in the standings|North-South|East-West)", get(f"/players/{player}"))
    return found.group(1) if found else None


def test_a_players_page_says_sits_out_and_the_pairs_duplicate_rank(hall) -> None:
    e, get = hall
    ok("pair", e)  # round 1: pair 3 (players 5 and 6) sits out
    page = get("/players/5")
    assert "sits out this round" in page and "bye" not in page, page
    assert "no juega esta ronda" in get("/players/5", "es") and "descanso" not in get("/players/5", "es")
    assert _rank(get, 5) is None  # no board scored yet: not on the hall's standings, no rank
    for number in (1, 2):  # each board at two tables: scored
        _play_round(e, number, skip=None)
        ok("pair", e)
    page = get("/players/5")
    assert "Round 1 · sits out" in page and "bye" not in page, page
    standings = json.loads(get("/api/v1/standings"))
    ranked = {r["pair"]: str(r["rank"]) for r in standings["pairs"] if r["boards"]}
    assert len(set(ranked.values())) > 1  # not every pair first
    for pair in range(1, 6):
        for player in (2 * pair - 1, 2 * pair):
            assert _rank(get, player) == ranked.get(pair), (pair, player)


def test_an_even_duplicate_event_gives_each_player_the_pairs_rank(tmp_path: Path) -> None:
    e = tmp_path / "even.db"
    ok("new", e, "--name", "Even", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 7):
        ok("add", e, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    ok("boards", e, "--boards", 6, "--seed", 38)
    # Every board at its three tables: scored, and shown (the hall's standings count a board once
    # every table due to play it has: docs/duplicate.md, "A board's deal is never shown early").
    for number in (1, 2, 3):
        ok("pair", e)
        _play_round(e, number, skip=None)
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        rows = client.get("/api/v1/standings").json()["pairs"]
        ranked = {r["pair"]: (str(r["rank"]), r["direction"]) for r in rows}
        assert len({rank for rank, _ in ranked.values()}) > 1
        words = {"NS": "North-South", "EW": "East-West"}  # (a Mitchell: each direction ranked apart)
        for pair, (rank, direction) in ranked.items():
            page = _text(client.get(f"/players/{2 * pair - 1}").text)
            assert f"Rank {rank} {words[direction]}" in page, (pair, page)
    finally:
        server.close()


def test_a_duplicate_teams_players_page_gives_no_pairs_rank(tmp_path: Path) -> None:
    from tests.tournament.test_duplicate_teams import new_event, run

    e = tmp_path / "teams.db"
    new_event(e, 4)
    run("boards", e, "--boards", 6, "--seed", 38)
    run("pair", e)
    for t in (1, 2, 3, 4):
        for b in (1, 2):
            run("result", e, "--round", 1, "--table", t, "--board", b, "--score", f"NS={10 * t + b},EW=0")
    server = VenueServer(e, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for player in range(1, 17):
            page = _text(client.get(f"/players/{player}").text)
            assert "Rank" not in page and "bye" not in page, page
    finally:
        server.close()

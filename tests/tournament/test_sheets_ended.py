"""A score sheet asks how a hand ended wherever the game's hand can end more than one way
(docs/duplicate.md, "Running a session"; docs/tournament.md, the score sheets): every one of the
five games, at a duplicate table (a board is one hand, whose end the table's phone asks too: out
or blocked) and at an ordinary one.  A Broadway board's sheet had no "Ended" column, because a
dozen simulated games had never blocked, though a block is what charges a side its tiles."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.pages import sheets
from tournament.settings import make_settings

runner = CliRunner()


def run(*args: object) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def heads(page: str, grid: str) -> list[str]:
    """The first sheet's grid's column heads, as the printed page has them."""
    first = page.split('<section class="sheet"')[1]
    head = first.split(f'<table class="{grid}">')[1].split("</thead>")[0]
    return re.findall(r"<th[^>]*>(.*?)</th>", head)


def ended_head(page: str, grid: str) -> str | None:
    return next((h for h in heads(page, grid) if h.startswith(("Ended", "Terminó", "Fin"))), None)


# The duplicate pairs games (partnerships: Horse Race's option; Castle Rock and Domino Roads have no
# partnerships, so no duplicate pairs event).
DUPLICATE = [("broadway", ()), ("competitive", ()), ("horse-race", ("--option", "partnerships=true"))]


@pytest.mark.parametrize("game, extra", DUPLICATE, ids=[g for g, _ in DUPLICATE])
def test_a_duplicate_boards_sheet_asks_how_its_hand_ended(tmp_path: Path, game: str, extra: tuple) -> None:
    event = tmp_path / "dup.db"
    run("new", event, "--name", "Duplicate night", "--game", game, "--format", "duplicate",
        "--movement", "mitchell", *extra)
    for i in range(1, 7):
        run("add", event, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    run("boards", event, "--boards", 6, "--seed", 8)
    run("pair", event)
    run("sheets", event, "-o", tmp_path / "sheets")
    page = (tmp_path / "sheets" / "round1-score-sheets.html").read_text(encoding="utf-8")
    # What the table's phone asks for a board typed in Scores only: out or blocked, and at Horse
    # Race's default target 61, which one hand can reach (61 and up), the target too.
    ways = "out / blocked / target" if game == "horse-race" else "out / blocked"
    assert ended_head(page, "grid boards") == f"Ended<small>{ways}</small>"
    first = page.split('<section class="sheet"')[1]
    rows = first.split('<table class="grid boards">')[1].split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count('<td class="end"></td>') == rows.count("<tr>") == 2  # a box a board to fill in
    run("sheets", event, "-o", tmp_path / "es", "--lang", "es", "--force")
    spanish = (tmp_path / "es" / "round1-score-sheets.html").read_text(encoding="utf-8")
    head = heads(spanish, "grid boards")[2]
    assert "dominó" in head or "cerrado" in head or "tranque" in head, head


@pytest.mark.parametrize("game, fmt, options, ends", [
    ("broadway", "pairs", None, ("out", "blocked")),
    ("competitive", "pairs", None, ("out", "blocked")),
    ("horse-race", "pairs", {"partnerships": True}, ("out", "blocked", "target")),  # (61 and up: one hand can)
    ("horse-race", "individual", None, ("out", "blocked", "target")),
    ("castle-rock", "individual", None, ("out",)),
    ("domino-roads", "individual", None, ("out",)),
], ids=["broadway", "competitive", "horse-race-pairs", "horse-race", "castle-rock", "domino-roads"])
def test_every_game_asks_every_way_its_engine_lets_a_hand_end(game, fmt, options, ends) -> None:
    """The ways are the engine's (a one-hand score sheet accepted with that end), never a list kept
    here: a column only where there are several; Castle Rock and Domino Roads always go out."""
    settings = make_settings("Club night", game, fmt, options=options)
    assert sheets.first_hand_ends(settings) == ends
    shape = sheets.sheet_shape(settings)
    assert shape.board_ends == ends
    assert set(ends) <= set(shape.ends)  # a game's sheet asks them too (and a later hand's ways)


def test_a_horse_race_target_is_asked_only_where_a_hand_can_reach_it() -> None:
    """Reaching the target ends a Horse Race hand at once (win_check immediate) — possible in a first
    hand only under a target one hand can reach; under win_check end_of_hand never."""
    low = make_settings("x", "horse-race", "individual", options={"target": 30})
    assert "target" in sheets.first_hand_ends(low)
    never = make_settings("x", "horse-race", "individual", options={"target": 30, "win_check": "end_of_hand"})
    assert "target" not in sheets.first_hand_ends(never)


def test_an_ordinary_broadway_sheet_asks_how_each_hand_ended(tmp_path: Path) -> None:
    event = tmp_path / "bw.db"
    run("new", event, "--name", "Broadway night", "--game", "broadway", "--format", "pairs")
    for i in range(1, 5):
        run("add", event, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    run("pair", event)
    run("sheets", event, "-o", tmp_path / "sheets")
    page = (tmp_path / "sheets" / "round1-score-sheets.html").read_text(encoding="utf-8")
    assert ended_head(page, "grid").startswith("Ended<small>out / blocked")


def test_castle_rock_and_domino_roads_sheets_ask_nothing_of_how_a_hand_ended(tmp_path: Path) -> None:
    for game in ("castle-rock", "domino-roads"):
        event = tmp_path / f"{game}.db"
        run("new", event, "--name", "Club night", "--game", game, "--format", "individual")
        for i in range(1, 5):
            run("add", event, f"Player {i}")
        run("pair", event)
        run("sheets", event, "-o", tmp_path / game)
        page = (tmp_path / game / "round1-score-sheets.html").read_text(encoding="utf-8")
        assert ended_head(page, "grid") is None and '<td class="end">' not in page

"""A game of a DGN archive may open with a ``{comment}`` line before its tags (a tester's finding:
``cat`` of two valid files with a blank line between, the second opening with ``{club night, table
3}``, was read as one game, refused five times over with "a new game starts after a blank line",
though the blank line was there).  The game now starts at its comment lines: both games read, each
at its own line, the same from a stream read in blocks of any size and under ``-j``."""

from __future__ import annotations

import io

from typer.testing import CliRunner

from domrec.cli import app
from domrec.dgn_archive import iter_games, split_games

from tests.conftest import SAMPLES

runner = CliRunner()
GAME = (SAMPLES / "valid" / "competitive" / "comments.dgn").read_bytes()


def _two() -> bytes:
    opened = b"{club night, table 3}\n{typed by Bo}\n" + GAME
    return GAME.rstrip(b"\n") + b"\n\n" + opened


def test_the_second_game_starts_at_its_comment_lines():
    text = _two()
    chunks = split_games(text)
    assert len(chunks) == 2
    assert chunks[1].data.startswith(b"{club night, table 3}\n{typed by Bo}\n[Game")
    assert chunks[1].first_line == GAME.rstrip(b"\n").count(b"\n") + 3
    for block in (1, 2, 3, 7, 64):
        assert list(iter_games(io.BytesIO(text), 1 << 30, block)) == chunks


def test_both_games_are_valid_at_their_lines_alone_and_in_workers(tmp_path):
    path = tmp_path / "two.dgn"
    path.write_bytes(_two())
    line = GAME.rstrip(b"\n").count(b"\n") + 3
    for extra in ([], ["-j", "2"]):
        result = runner.invoke(app, ["validate", *extra, str(path)])
        assert result.exit_code == 0, result.output
        assert f"two.dgn:{line}: valid competitive" in result.output and "2 records: 2 valid" in result.output


def test_a_comment_after_a_blank_line_between_hands_does_not_split_a_game():
    text = GAME.replace(b"\nhand 1", b"\n\n{the first hand}\nhand 1")
    assert len(split_games(text)) == 1

"""``domrec record`` from a pipe reads a text whose lines end with a carriage return alone (an old
Mac's text, ``tr '\\n' '\\r'``) as ``domrec validate`` reads it, in all five games.

A tester piped such a text (which ``validate`` reads as one valid hand) into ``domrec record``:
the command said "valid competitive, 0 hands" and exited 0, its file holding the tags alone.
Python's standard input ends a line at a line feed only, so the whole text came as one line,
which the header's reading took as tags.  Now a carriage return alone ends a line in the pipe
too, and a fault is said at the line ``validate`` names."""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from pathlib import Path

import pytest

from domrec import notation, record_cli
from domrec.validate import validate

from tests.conftest import first_of_each_game
from tests.test_every_way_typed import by_validate, simulated


def _piped(text: str, game: str, out: Path) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        # (a StringIO keeps every line end as it is, as Python's standard input does)
        code = record_cli.run(game, str(out), [], None, [], None, stdin=io.StringIO(text), interactive=False)
    return code, err.getvalue()


@pytest.mark.parametrize("config", first_of_each_game())
@pytest.mark.parametrize("end", ["\r", "\r\n"], ids=["cr-alone", "crlf"])
def test_a_text_with_carriage_returns_is_recorded_as_validate_reads_it(config, end, tmp_path):
    record = simulated(config, 4)
    text = notation.dumps_typed(record, keep_deal=True, seats=True, ends=True).replace("\n", end)
    expected = by_validate(text)
    assert isinstance(expected, dict), expected  # (validate reads it: the scores)
    out = tmp_path / "piped.dgn"
    code, err = _piped(text, config[0], out)
    assert code == 0, err
    saved = notation.loads(out.read_text(encoding="utf-8"))
    assert len(saved.hands) == len(record.hands) > 0
    assert validate(saved).scores == expected


def test_a_fault_after_carriage_returns_alone_is_said_at_validates_line(tmp_path):
    record = simulated(first_of_each_game()[0].values[0], 4)
    lines = notation.dumps_typed(record, keep_deal=True, seats=True, ends=True).split("\n")
    first_move = next(k for k, line in enumerate(lines) if line and not line.startswith(("[", "hand", "deal", "{")))
    lines[first_move + 1] = "9-9"  # (no such tile)
    text = "\r".join(lines)
    (game,) = notation.read_games(text, "typed.dgn")
    where = game.report.problems[0]
    code, err = _piped(text, "competitive", tmp_path / "faulty.dgn")
    assert code == 1
    assert err.splitlines()[0].startswith(f"line {first_move + 2}, column 1: "), (err, where.text())


def test_bytes_that_are_not_utf8_after_carriage_returns_alone_are_said_at_their_line(tmp_path):
    text = '[Game "competitive"]\r[N "Ana"]\r\udcff\r'  # (a byte 0xFF, as a pipe gives it to Python)
    code, err = _piped(text, "competitive", tmp_path / "bytes.dgn")
    assert code == 2
    assert err.strip() == ("error: line 3, column 1: the text is not UTF-8 (byte 0xFF); save the text as UTF-8: "
                           "this line and the rest were not read")


def test_through_a_real_pipe(tmp_path):
    """The command as a process, the text on its standard input (the tester's own steps)."""
    record = simulated(first_of_each_game()[0].values[0], 4)
    text = notation.dumps_typed(record, keep_deal=False, seats=True, ends=True).replace("\n", "\r")
    out = tmp_path / "p5.dgn"
    done = subprocess.run([sys.executable, "-m", "domrec.cli", "record", "competitive", "-o", str(out)],
                          input=text.encode("utf-8"), capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    saved = notation.loads(out.read_text(encoding="utf-8"))
    assert len(saved.hands) == len(record.hands) > 0
    assert validate(saved).scores == by_validate(text)

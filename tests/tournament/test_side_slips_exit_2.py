"""A side mistyped is unusable input, exit 2, whichever option names it (a tester's finding 9):
``--score N=200,EW=100`` exited 2, but ``--forfeit XY`` (``XY is not a side of round 1 table 1``)
and ``--winner XY`` exited 1, the code of a readable request refused (docs/tournament.md, "Exit
codes").  So did ``--absent`` in an event that forfeits by side, an option of other events."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    r = runner.invoke(app, [str(a) for a in args])
    assert r.exit_code == code, r.output
    assert "Traceback" not in r.output
    return r.output


def _event(tmp_path: Path) -> Path:
    e = tmp_path / "copa.db"
    run("new", e, "--name", "Copa", "--game", "competitive", "--format", "pairs", "--seed", 2)
    for i in range(1, 5):
        run("add", e, f"North {i}", f"South {i}")
    run("pair", e)
    return e


def test_every_option_naming_a_side(tmp_path: Path) -> None:
    e = _event(tmp_path)
    assert run("result", e, "--table", 1, "--score", "N=200,EW=100", code=2).startswith("error: table 1 has sides")
    assert run("result", e, "--table", 1, "--forfeit", "XY", code=2) == (
        "error: XY is not a side of round 1 table 1: --forfeit names the side that did not play (NS, EW)\n")
    assert run("result", e, "--table", 1, "--forfeit", "NS,XY", code=2).startswith("error: XY is not a side")
    assert run("result", e, "--table", 1, "--forfeit", ",", code=2).startswith("error: nobody is not a side")
    assert run("result", e, "--table", 1, "--score", "NS=150,EW=150", "--winner", "XY", code=2) == (
        "error: XY is not a side of table 1 (NS, EW)\n")
    assert run("result", e, "--table", 1, "--absent", "North 1", code=2).startswith(
        "error: a forfeit by player is for individual and rotating-partner events")
    run("result", e, "--table", 1, "--score", "NS=200,EW=100")
    assert run("amend", e, "--round", 1, "--table", 1, "--score", "NS=150,EW=150", "--winner", "XY",
               code=2) == "error: XY is not a side of table 1 (NS, EW)\n"
    # A readable request refused stays 1: a winner who scored less.
    assert run("amend", e, "--round", 1, "--table", 1, "--score", "NS=200,EW=150", "--winner", "EW",
               code=1).startswith("error: --winner EW contradicts the scores")

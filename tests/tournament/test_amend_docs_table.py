"""docs/tournament.md's table of what ``amend`` refuses, held to the tool (a tester's finding 8):
it said a record given with ``--table`` is refused, but ``amend`` requires ``--table`` (its
synopsis, and ``Missing option '--table'``); and that ``ns=10,ew=0`` is refused, but a side typed
in another case is that side (``--score ns=100,ew=201`` is taken, as ``result`` takes it).  The
scores the table names are typed here and must do what it says."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()
DOC = Path(__file__).resolve().parents[2] / "docs" / "tournament.md"


def _rows() -> list[str]:
    text = DOC.read_text(encoding="utf-8")
    part = text[text.index("## Corrections (`tournament amend`"):]
    part = part[part.index("**Refused, nothing written**"):]
    return [line for line in part.split("\n\n", 2)[1].splitlines() if line.startswith("| ")]


def _amend(e: Path, *args: object) -> tuple[int, str]:
    r = runner.invoke(app, ["amend", str(e), *map(str, args)])
    assert "Traceback" not in r.output
    return r.exit_code, r.output


def test_the_refusals_the_table_lists(tmp_path: Path) -> None:
    e = tmp_path / "copa.db"
    for args in (["new", e, "--name", "Copa", "--game", "competitive", "--format", "pairs"],
                 *(["add", e, f"North {i}", f"South {i}"] for i in range(1, 5)), ["pair", e],
                 ["result", e, "--table", 1, "--score", "NS=200,EW=100"]):
        assert runner.invoke(app, [str(a) for a in args]).exit_code == 0
    rows = _rows()
    scores = next(r for r in rows if "a `--score` that is not a score" in r)
    refused, _, taken = scores.partition("another case")
    typed = [x for x in re.findall(r"`([^`]*=[^`]*)`", refused) if not x.startswith("--")]
    assert typed, scores
    for score in typed:
        code, out = _amend(e, "--round", 1, "--table", 1, "--score", score)
        assert code == 2 and "nothing else" in out, (score, out)
    for score in re.findall(r"`([^`]*=[^`]*)`", taken):
        if score.startswith("--") or score.upper() == score:
            continue
        code, out = _amend(e, "--round", 1, "--table", 1, "--score", score)
        assert code == 0 and "amended" in out, (score, out)
    # A record needs --table like a score: the table does not say a record with --table is refused.
    assert not [r for r in rows if "a record with `--table`" in r]
    assert any("`--table` missing" in r and r.rstrip().endswith("| 2 |") for r in rows)
    record = tmp_path / "round1-table1.json"
    record.write_text("{}", encoding="utf-8")
    code, out = _amend(e, record, "--round", 1)
    assert code == 2 and "Missing option '--table'" in out
    code, out = _amend(e, record, "--round", 1, "--table", 1, "--score", "NS=200,EW=100")
    assert code == 2 and "not both" in out

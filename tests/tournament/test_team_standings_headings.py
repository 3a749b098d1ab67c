"""``tournament standings`` of a team event heads its columns by what they count.

A tester read ``played | won | lost`` at the terminal, where ``played`` counts matches and
``won``/``lost`` games: mid-round (a match's first table in, its second not) a team read "played
0, won 1".  The hall's pages say "games won" and "played" (matches).  The grid now says *matches
played*, *games won*, *games lost* (compact: ``mPl``, ``gW``, ``gL``, explained under it); the JSON
and CSV keep their keys and give the same numbers under plainer ones too (docs/tournament.md,
"Team standings").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def run(*args: object, width: int = 200) -> str:
    result = runner.invoke(app, [str(a) for a in args], env={"COLUMNS": str(width)})
    assert result.exit_code == 0, result.output
    return result.output


def _mid_round(tmp_path: Path) -> Path:
    """Two teams of two pairs, one match of two tables: the first table's game in, the second's not."""
    event = tmp_path / "open.db"
    run("new", event, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", "4", "--seed", "5")
    run("team", event, "add", "A", "--pair", "a1,a2", "--pair", "a3,a4")
    run("team", event, "add", "B", "--pair", "b1,b2", "--pair", "b3,b4")
    run("pair", event)
    run("result", event, "--table", 1, "--score", "NS=200,EW=100")
    return event


def _header(grid: str) -> list[str]:
    line = next(x for x in grid.splitlines() if "rank" in x and "team" in x)
    return [c.strip() for c in re.split(r"[┃│]|\s{2,}", line) if c.strip()]


def test_the_grid_says_matches_played_and_games_won(tmp_path):
    event = _mid_round(tmp_path)
    for args in (("standings", event), ("standings", event, "--by", "team")):
        head = _header(run(*args))
        assert head[:5] == ["rank", "team", "matches played", "games won", "games lost"], head
        assert not {"played", "won", "lost"} & set(head), head
        assert {"matches won", "matches drawn", "matches lost", "match points"} <= set(head), head
    narrow = run("standings", event, "--by", "team", width=80)
    assert {"mPl", "gW", "gL"} <= set(_header(narrow)), narrow
    assert "mPl matches played" in " ".join(narrow.split()) and "gW games won" in narrow, narrow


def test_the_json_keeps_its_keys_and_adds_plain_ones(tmp_path):
    event = _mid_round(tmp_path)
    rows = json.loads(run("standings", event, "--by", "team", "--json"))["rows"]
    for row in rows:
        assert row["matches_played"] == row["played"] == 0
        assert (row["games_won"], row["games_lost"]) == (row["won"], row["lost"])
    assert sorted(r["games_won"] for r in rows) == [0, 1]
    teams = json.loads(run("standings", event, "--json"))["teams"]
    assert list(teams[0])[:5] == ["rank", "team", "id", "played", "won"]
    assert {"matches_played", "games_won", "games_lost"} <= set(teams[0])
    csv = run("standings", event, "--by", "team", "--csv").splitlines()[0].split(",")
    # (then, as every standings CSV, whether it is provisional and what ranks it)
    assert csv[:5] == ["rank", "team", "played", "won", "lost"] and csv[-5:] == [
        "matches_played", "games_won", "games_lost", "provisional", "ranked_by"], csv

"""A typed score where no side reached the game's target, in an event with no time limit (a
tester's finding 5): nothing could have ended such a game (neither its rules nor a clock), yet
``result --score`` took it in silence and ``check`` said only its generic "manual result".  It is
still taken (the director may know better: a game abandoned), but entering it says a warning
line and ``check`` lists it, as it lists a record said to have ended on time in such an event.
The target is the game's own (the engine's ``final_scores``, options included), for the four
games that have one; Broadway has none."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def run(*args: object, code: int = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result


def _event(tmp_path: Path, game: str, fmt: str, *extra: object, size: int = 4) -> Path:
    """An event of ``game`` seated for round 1: two tables of ``size`` players."""
    e = tmp_path / f"{game}.db"
    table = () if fmt == "pairs" else ("--table-size", size)
    run("new", e, "--name", "Club", "--game", game, "--format", fmt, *table, "--seed", 3, *extra)
    if fmt == "pairs":
        for i in range(1, 5):
            run("add", e, f"North {i}", f"South {i}")
    else:
        for i in range(1, 2 * size + 1):
            run("add", e, f"Player {i}")
    run("pair", e)
    return e


def _short(text: str) -> list[str]:
    return [line for line in text.splitlines() if "no side reached" in line]


def test_competitive_teams_setup_of_the_finding(tmp_path: Path) -> None:
    """The tester's own event: a team event of Competitive, no clock."""
    csv = tmp_path / "eq.csv"
    rows = ["name,team,pair"] + [f"{t}{i},{t},{(i + 1) // 2}" for t in ("Alfa", "Beta", "Gama", "Delta")
                                 for i in range(1, 5)]
    csv.write_text("\n".join(rows) + "\n", encoding="utf-8")
    e = tmp_path / "t.db"
    run("new", e, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", 4, "--seed", 5)
    run("add", e, "--csv", csv)
    run("pair", e)
    won = run("result", e, "--table", 1, "--score", "NS=200,EW=150")
    assert _short(won.output) == []
    level = run("result", e, "--table", 2, "--score", "NS=100,EW=100")
    assert "a draw (manual entry, unverified) — stored" in level.stdout  # taken all the same
    assert _short(level.stderr) == ["warning: round 1 table 2: NS 100, EW 100: no side reached 200, the score "
                                    "that ends a game, but the event has no time limit to have stopped it (a "
                                    "game abandoned?)"]
    ahead = run("result", e, "--table", 3, "--score", "NS=150,EW=120")
    assert "winner NS" in ahead.stdout and len(_short(ahead.stderr)) == 1
    run("result", e, "--table", 4, "--forfeit", "EW")
    check = run("check", e).output
    assert _short(check) == [
        "warning: round 1 table 2: NS 100, EW 100: no side reached 200, the score that ends a game, but the "
        "event has no time limit to have stopped it (a game abandoned?)",
        "warning: round 1 table 3: NS 150, EW 120: no side reached 200, the score that ends a game, but the "
        "event has no time limit to have stopped it (a game abandoned?)"]
    assert "0 errors" in check
    # Amended to another such score: said again; accepted by the director: check says no more.
    amended = run("amend", e, "--round", 1, "--table", 3, "--score", "NS=150,EW=121")
    assert _short(amended.stderr) == ["warning: round 1 table 3: NS 150, EW 121: no side reached 200, the score "
                                      "that ends a game, but the event has no time limit to have stopped it (a "
                                      "game abandoned?)"]
    run("accept", e, "--table", 2)
    assert [x.split(":")[1] for x in _short(run("check", e).output)] == [" round 1 table 3"]


def test_a_time_limit_explains_it(tmp_path: Path) -> None:
    e = _event(tmp_path, "competitive", "pairs", "--time-limit", 45)
    r = run("result", e, "--table", 1, "--score", "NS=150,EW=120")
    assert _short(r.output) == [] and _short(run("check", e).output) == []


@pytest.mark.parametrize("game, fmt, extra, players, short, reached, target", [
    ("horse-race", "individual", (), 2, "P1=60,P2=12", "P1=61,P2=12", 61),
    ("horse-race", "individual", ("--option", "target=121"), 2, "P1=120,P2=12", "P1=121,P2=12", 121),
    ("horse-race", "individual", ("--variant", "celko"), 2, "P1=199,P2=-40", "P1=200,P2=-40", 200),
    ("castle-rock", "individual", (), 3, "P1=49,P2=12,P3=-3", "P1=50,P2=12,P3=-3", 50),
    ("domino-roads", "pairs", (), 4, "NS=1990,EW=1200", "NS=2000,EW=1200", 2000),
    ("domino-roads", "individual", (), 3, "P1=990,P2=12,P3=0", "P1=1000,P2=12,P3=0", 1000),
])
def test_every_game_with_a_target(tmp_path: Path, game: str, fmt: str, extra: tuple, players: int, short: str,
                                  reached: str, target: int) -> None:
    e = _event(tmp_path, game, fmt, *extra, size=players)
    said = run("result", e, "--table", 1, "--score", short)
    assert [x.split(": ")[3] for x in _short(said.stderr)] == [f"no side reached {target}, the score that ends a "
                                                               f"game, but the event has no time limit to have "
                                                               f"stopped it (a game abandoned?)"]
    assert _short(run("result", e, "--table", 2, "--score", reached).output) == []
    listed = _short(run("check", e).output)
    assert len(listed) == 1 and listed[0].startswith("warning: round 1 table 1: ")


def test_broadway_has_no_target(tmp_path: Path) -> None:
    e = _event(tmp_path, "broadway", "pairs")
    assert _short(run("result", e, "--table", 1, "--score", "NS=40,EW=12").output) == []
    assert _short(run("check", e).output) == []

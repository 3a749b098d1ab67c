"""A team's name is checked as a player's is (docs/tournament.md, "Names that look alike are one
name" and the teams' section): `team add "los primos"` beside "Los Primos" was accepted silently,
and an exact repeat or a look-alike was entered as a second team of one name."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _event(tmp_path: Path) -> Path:
    event = tmp_path / "t.db"
    assert invoke("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams",
                  "--team-size", "4").exit_code == 0
    assert invoke("team", event, "add", "Los Primos", "--pair", "Ana,Bo", "--pair", "Cy,Di").exit_code == 0
    return event


def test_a_team_name_differing_only_by_capitals_is_entered_and_flagged(tmp_path: Path) -> None:
    event = _event(tmp_path)
    out = invoke("team", event, "add", "los primos", "--pair", "Wa,Xa", "--pair", "Ya,Za")
    assert out.exit_code == 0, out.output
    assert "added team #2 los primos" in out.stdout
    assert out.stderr.strip() == ("warning: 'los primos' is near-identical to team #1 'Los Primos' (they differ "
                                  "only by capitals and spaces); to tell them apart, rename one "
                                  "(tournament team EVENT rename)")
    # Its players are flagged as `add` flags them.
    out = invoke("team", event, "add", "Osos", "--pair", "ana,Xb", "--pair", "Yb,Zb")
    assert out.exit_code == 0 and "'ana' is near-identical to #1 'Ana'" in out.stderr, out.output
    # A rename too.
    out = invoke("team", event, "rename", "Osos", "LOS PRIMOS")
    assert out.exit_code == 0 and "near-identical to team #1 'Los Primos'" in out.stderr, out.output


def test_a_team_name_that_looks_like_one_entered_is_refused(tmp_path: Path) -> None:
    event = _event(tmp_path)
    for name, said in (("Los  Primos", "error: a team named 'Los Primos' is already entered; names must be unique"),
                       ("Lоs Primos", "error: 'Lоs Primos' looks the same as the team #1 'Los Primos' already "
                                      "entered; names must be unique")):  # (a Cyrillic о)
        out = invoke("team", event, "add", name, "--pair", "Wa,Xa", "--pair", "Ya,Za")
        assert out.exit_code == 1 and len(out.output.strip().splitlines()) == 1, out.output
        assert out.output.startswith(said), out.output
    assert invoke("team", event, "add", "Osos", "--pair", "Wa,Xa", "--pair", "Ya,Za").exit_code == 0
    out = invoke("team", event, "rename", "Osos", "Los Primos")
    assert out.exit_code == 1 and "already entered" in out.output, out.output
    assert invoke("team", event, "rename", "Los Primos", "LOS PRIMOS").exit_code == 0  # its own name, recased

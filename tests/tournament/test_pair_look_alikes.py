"""A pair's name in a pairs event is flagged as a player's and a team's are (docs/tournament.md,
"Near-identical names are entered, and flagged"): `add --pair "ana & bo"` beside "Ana & Bo" was
entered with no word, while "ana" beside "Ana" was flagged."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()

WARNING = ("warning: 'ana & bo' is near-identical to pair #1 'Ana & Bo' (they differ only by capitals and "
           "spaces); to tell them apart, rename one (tournament rename)")


def invoke(*args: object):
    return runner.invoke(app, [str(a) for a in args])


def _event(tmp_path: Path) -> Path:
    event = tmp_path / "p.db"
    assert invoke("new", event, "--name", "Parejas", "--game", "competitive", "--format", "pairs").exit_code == 0
    out = invoke("add", event, "Ana", "Bo", "--pair", "Ana & Bo")
    assert out.exit_code == 0 and out.stderr == "", out.output
    return event


def test_a_pair_name_differing_only_by_capitals_is_entered_and_flagged(tmp_path: Path) -> None:
    event = _event(tmp_path)
    out = invoke("add", event, "Cy", "Di", "--pair", "ana & bo")
    assert out.exit_code == 0, out.output
    assert out.stdout == "added pair #2 ana & bo (from round 1)\n"
    assert out.stderr.strip() == WARNING
    # Spaces do not make it another name either; a different name is not flagged.
    out = invoke("add", event, "Ed", "Fa", "--pair", "AnA &Bo")
    assert out.exit_code == 0 and "'AnA &Bo' is near-identical to pair #1 'Ana & Bo'" in out.stderr, out.output
    out = invoke("add", event, "Gu", "Hi", "--pair", "Ana & Bob")
    assert out.exit_code == 0 and out.stderr == "", out.output


def test_pair_names_differing_only_by_capitals_entered_together_are_told_once(tmp_path: Path) -> None:
    event = tmp_path / "p.db"
    assert invoke("new", event, "--name", "Parejas", "--game", "competitive", "--format", "pairs").exit_code == 0
    csv = tmp_path / "pairs.csv"
    csv.write_text("name,partner,pair\nAna,Bo,Ana & Bo\nCy,Di,ana & bo\nEd,Fa,Los Tres\n", encoding="utf-8")
    out = invoke("add", event, "--csv", csv)
    assert out.exit_code == 0, out.output
    assert out.stderr.splitlines() == ["warning: 'Ana & Bo' is near-identical to pair #2 'ana & bo' (they differ only "
                                       "by capitals and spaces); to tell them apart, rename one (tournament rename)"]


def test_a_pair_renamed_to_a_near_identical_name_is_flagged(tmp_path: Path) -> None:
    event = _event(tmp_path)
    assert invoke("add", event, "Cy", "Di", "--pair", "Los Tres").exit_code == 0
    out = invoke("rename", event, "Los Tres", "ana & bo")
    assert out.exit_code == 0 and out.stdout == "renamed 'Los Tres' to 'ana & bo'\n", out.output
    assert out.stderr.strip() == WARNING
    out = invoke("rename", event, "ana & bo", "Las Dos")  # no longer near another: no word
    assert out.exit_code == 0 and out.stderr == "", out.output


def test_the_default_pair_name_of_near_identical_players_is_flagged_with_them(tmp_path: Path) -> None:
    """Partners named as another pair's but for capitals: the players are flagged, and so is the
    pair's name made of theirs (it is the name the standings show)."""
    event = _event(tmp_path)
    out = invoke("add", event, "ana", "bo")
    assert out.exit_code == 0 and out.stdout == "added pair #2 ana & bo (from round 1)\n", out.output
    assert out.stderr.splitlines() == [
        "warning: 'ana' is near-identical to #1 'Ana' (they differ only by capitals and spaces); "
        "to tell them apart, rename one (tournament rename)",
        "warning: 'bo' is near-identical to #2 'Bo' (they differ only by capitals and spaces); "
        "to tell them apart, rename one (tournament rename)",
        WARNING]


def test_the_docs_quote_the_pairs_warning() -> None:
    text = " ".join((Path(__file__).resolve().parents[2] / "docs" / "tournament.md").read_text(encoding="utf-8").split())
    assert f"`{WARNING}`" in text

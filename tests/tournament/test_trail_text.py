"""What the audit trail keeps of who made a change and why (tournament/event/audit.py): one line
of text as typed, or a one-line refusal that names what is wrong, exit code 2, nothing changed.
A direction control is refused as it is in a name (docs/venue.md): ``\u202e`` would show a reason
in another order than it was typed in ``tournament history``."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.errors import UnusableInput
from tournament.event import audit


@pytest.mark.parametrize("text,said", [
    ("late\u202e", "direction-control characters (U+202E)"),
    ("\u200fخطأ", "direction-control characters (U+200F)"),
    ("two\nlines", "line break or control character (U+000A)"),
    ("bell\x07", "line break or control character (U+0007)"),
])
def test_a_reason_or_a_name_with_a_control_is_refused_in_one_line(text, said):
    with pytest.raises(UnusableInput) as e:
        audit.clean_text(text, "the reason")
    assert said in str(e.value) and "\n" not in str(e.value)


def test_right_to_left_words_are_kept_as_typed():
    assert audit.clean_text("  خطأ في الطاولة 3  ", "the reason") == "خطأ في الطاولة 3"


def test_the_command_refuses_it_and_changes_nothing(tmp_path: Path):
    runner = CliRunner()
    path = str(tmp_path / "t.db")
    assert runner.invoke(app, ["new", path, "--name", "T", "--game", "competitive", "--format", "rotating"]).exit_code == 0
    assert runner.invoke(app, ["add", path, "Ana", "Bo", "Cy", "Di"]).exit_code == 0
    r = runner.invoke(app, ["withdraw", path, "Ana", "--reason", "ill\u202e"])
    assert r.exit_code == 2 and len(r.stderr.strip().splitlines()) == 1 and "U+202E" in r.stderr
    r = runner.invoke(app, ["history", path])
    assert "withdr" not in r.stdout
    assert runner.invoke(app, ["withdraw", path, "Ana", "--reason", "ill"]).exit_code == 0

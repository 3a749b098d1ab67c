"""The pictures in the README are what ``domrec explain --svg`` draws today."""

from __future__ import annotations

import subprocess

import pytest

from tools.readme_pictures import PICTURES, ROOT, command


@pytest.mark.parametrize("game", sorted(PICTURES))
def test_the_committed_picture_is_what_the_command_draws(game):
    drawn = subprocess.run(command(game, "-"), capture_output=True, text=True, check=True).stdout
    committed = (ROOT / "docs" / "pictures" / f"{game}.svg").read_text()
    assert drawn == committed, f"docs/pictures/{game}.svg is out of date: run python tools/readme_pictures.py"
    assert f"docs/pictures/{game}.svg" in (ROOT / "README.md").read_text()

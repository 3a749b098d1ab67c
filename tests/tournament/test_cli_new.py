"""``tournament new``'s refusals in its own words: an empty file name, a folder it cannot write in,
and ranking keys given but none named (``--tiebreak ""``), which were taken as the default ranking."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
NEW = ["--name", "ok", "--game", "competitive", "--format", "rotating"]
runner = CliRunner()


@pytest.mark.parametrize("name", ["", "."])
def test_new_without_a_file_name_says_the_name_is_missing(tmp_path: Path, monkeypatch, name: str):
    monkeypatch.chdir(tmp_path)
    r = runner.invoke(app, ["new", name, *NEW])
    assert r.exit_code == 2
    assert r.stderr == "error: the event file's name is missing: give one, e.g. club.db\n"
    assert list(tmp_path.iterdir()) == []


def test_new_given_a_folder_says_it_is_one(tmp_path: Path):
    r = runner.invoke(app, ["new", str(tmp_path), *NEW])
    assert r.exit_code == 2
    assert r.stderr == f"error: {tmp_path} is a folder: give the event file's name, e.g. {tmp_path / 'club.db'}\n"


def _as_one_denied() -> list[str]:
    """The command's prefix for a process that folder permissions apply to: root without the
    capabilities that pass over them (setpriv), anyone else as they are."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: a read-only folder does not stop root")
    caps = "-dac_override,-dac_read_search"
    return ["setpriv", f"--inh-caps={caps}", f"--bounding-set={caps}"]


def test_new_in_a_folder_it_cannot_write_in_says_so_in_the_systems_words(tmp_path: Path):
    folder = tmp_path / "rou"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        done = subprocess.run([*_as_one_denied(), sys.executable, "-m", "tournament.cli", "new", str(folder / "n.db"),
                               *NEW], cwd=ROOT, capture_output=True, text=True, timeout=120,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr == (f"error: cannot create {folder / 'n.db'}: Permission denied (cannot write in the "
                               f"folder {folder})\n")
        assert list(folder.iterdir()) == []
    finally:
        folder.chmod(0o755)


@pytest.mark.parametrize("given", ["", ",", " , ,"])
def test_a_tiebreak_naming_no_key_is_a_usage_error_naming_the_keys(tmp_path: Path, given: str):
    path = tmp_path / "t.db"
    r = runner.invoke(app, ["new", str(path), *NEW, "--tiebreak", given])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: --tiebreak names no key; give one or more of wins, average, diff, for"), r.stderr
    assert not path.exists()


def test_an_individual_events_tiebreak_naming_no_key_names_its_own_keys(tmp_path: Path):
    path = tmp_path / "t.db"
    r = runner.invoke(app, ["new", str(path), "--name", "ok", "--game", "castle-rock", "--format", "individual",
                            "--tiebreak", ","])
    assert r.exit_code == 2 and r.stderr.startswith("error: --tiebreak names no key; give one or more of placement")


def test_a_team_tiebreak_naming_no_key_is_a_usage_error_naming_the_keys(tmp_path: Path):
    path = tmp_path / "t.db"
    r = runner.invoke(app, ["new", str(path), "--name", "ok", "--game", "competitive", "--format", "teams",
                            "--team-size", "4", "--team-tiebreak", ""])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: --team-tiebreak names no key; give one or more of games, efectividad"), r.stderr
    r = runner.invoke(app, ["new", str(path), *NEW, "--team-tiebreak", ","])
    assert r.exit_code == 2 and "--team-tiebreak" in r.stderr and "are for --format teams" in r.stderr
    assert not path.exists()

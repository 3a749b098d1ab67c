"""The files that hold the event's secrets are readable by their owner alone: the event file (every
table's key, the director's key and PIN, the players' PINs), the -wal and -shm files SQLite makes
beside it, and the page of PIN slips.  Under the usual umask (022) they were made 0644: any account
of a shared or lent laptop could read the keys."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_event_file_its_journal_and_the_pin_slips_are_the_owners_alone(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        event = tmp_path / "club.db"
        assert runner.invoke(app, ["new", str(event), "--name", "Club", "--game", "competitive",
                                   "--format", "rotating"]).exit_code == 0
        assert runner.invoke(app, ["add", str(event), "Ana", "Bo", "Cy", "Di"]).exit_code == 0
        assert runner.invoke(app, ["pair", str(event)]).exit_code == 0
        assert _mode(event) == 0o600
        for companion in (tmp_path / "club.db-wal", tmp_path / "club.db-shm"):
            if companion.exists():
                assert _mode(companion) == 0o600, companion
        slips = tmp_path / "slips.html"
        r = runner.invoke(app, ["pins", str(event), "--slips", "-o", str(slips)])
        assert r.exit_code == 0, r.output
        assert _mode(slips) == 0o600
        # A report is meant to be read by others: as before, 0666 less the umask.
        report = tmp_path / "report.html"
        assert runner.invoke(app, ["report", str(event), "-o", str(report)]).exit_code == 0
        assert _mode(report) == 0o644
    finally:
        os.umask(old)

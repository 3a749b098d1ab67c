"""Commands that write several files write them as one (domrec.output.Together): ``report`` (the
page, its public pages' folder, its replays' folder), ``export --csv`` and ``sheets``.  Ctrl-C
before the last file is complete leaves no folder half made and no temporary file, and an
earlier complete output exactly as it was; Ctrl-C while the finished files are moved into place
waits for the moves, and says the files were written.

The interrupt lands where it would, deterministically: the Nth file's flush to disk (every file
written is flushed, ``os.fsync``, before it is moved into place) raises KeyboardInterrupt, as
SIGINT's default handler does in whatever line is running then."""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import output
from tournament.cli import app
from tournament.event.simulate import simulate_event

runner = CliRunner()


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("event") / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 2, seed=1)
    return path


@pytest.fixture
def event(played: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "club.db"
    shutil.copy(played, copy)
    return copy


def _interrupt_at_file(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    """Ctrl-C as the ``n``th file written is flushed to disk."""
    real = output.os.fsync
    count = [0]

    def fsync(fd: int) -> None:
        count[0] += 1
        if count[0] == n:
            raise KeyboardInterrupt
        real(fd)

    monkeypatch.setattr(output.os, "fsync", fsync)


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` but the events' own (path -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and not p.name.startswith("club.db") and "other" not in p.parts}


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob(".*.tmp"))


def _report(event: Path, out: Path, *more: str):
    return runner.invoke(app, ["report", str(event), "-o", str(out), *more])


@pytest.fixture(scope="module")
def files_of_a_report(played: Path, tmp_path_factory: pytest.TempPathFactory) -> int:
    """How many files the event's report writes (its replays first, then its public pages, the page last)."""
    out = tmp_path_factory.mktemp("whole") / "z.html"
    assert _report(played, out).exit_code == 0
    return len(_tree(out.parent))


@pytest.mark.parametrize("at", ["replays", "pages", "page"])
def test_an_interrupted_first_report_leaves_nothing(event: Path, tmp_path: Path, monkeypatch, at: str,
                                                    files_of_a_report: int) -> None:
    _interrupt_at_file(monkeypatch, {"replays": 2, "pages": 8, "page": files_of_a_report}[at])
    r = _report(event, tmp_path / "z.html")
    assert r.exit_code == 2, r.output
    assert r.stderr == "error: interrupted; the last write was not made\n"
    assert "Traceback" not in r.output
    assert _tree(tmp_path) == {} and _leftovers(tmp_path) == []
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("club.db")) == []


def test_an_interrupted_report_leaves_the_earlier_one_whole(event: Path, tmp_path: Path, monkeypatch,
                                                           files_of_a_report: int) -> None:
    out = tmp_path / "z.html"
    assert _report(event, out).exit_code == 0
    (tmp_path / "z-pages" / "notes.txt").write_text("mine\n")  # a file the report did not write
    before = _tree(tmp_path)
    assert any(name.startswith("z-pages/") for name in before) and any(name.startswith("z-replays/") for name in before)
    for n in (2, 8, files_of_a_report):
        with monkeypatch.context() as m:
            _interrupt_at_file(m, n)
            r = _report(event, out, "--lang", "es")
        assert r.exit_code == 2 and "interrupted" in r.stderr, r.output
        assert _tree(tmp_path) == before, n
        assert _leftovers(tmp_path) == []
    r = _report(event, out, "--lang", "es")  # uninterrupted: every page replaced, the file of mine kept
    assert r.exit_code == 0, r.output
    after = _tree(tmp_path)
    assert after["z-pages/notes.txt"] == b"mine\n"
    assert 'lang="es"' in after["z-pages/index.html"].decode() and 'lang="es"' in after["z.html"].decode()
    assert set(after) == set(before) and _leftovers(tmp_path) == []


def test_ctrl_c_while_the_report_moves_into_place_waits_for_it(event: Path, tmp_path: Path, monkeypatch) -> None:
    """A Ctrl-C that comes as the finished files are moved into place (a few renames) is held off
    until they all are, and then says they were written."""
    real = output.os.replace
    sent = []

    def replace(source, target):
        if not sent and Path(target).name == "z.html":  # the page, moved in after its folders
            sent.append(target)
            os.kill(os.getpid(), signal.SIGINT)
        real(source, target)

    monkeypatch.setattr(output.os, "replace", replace)
    out = tmp_path / "z.html"
    r = _report(event, out)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith(f"error: interrupted after the files were written: {out} and the folders beside it "
                               f"were written\n"), r.stderr
    assert f"wrote {out}\n" in r.stderr  # the lines it had still to print
    assert out.is_file() and len(list((tmp_path / "z-pages").iterdir())) > 8
    assert _leftovers(tmp_path) == []


def test_an_interrupted_csv_export_leaves_no_folder_and_an_earlier_one_whole(event: Path, tmp_path: Path,
                                                                           monkeypatch) -> None:
    folder = tmp_path / "csv"
    with monkeypatch.context() as m:
        _interrupt_at_file(m, 3)
        r = runner.invoke(app, ["export", str(event), "--csv", "-o", str(folder)])
    assert r.exit_code == 2 and "interrupted" in r.stderr, r.output
    assert not folder.exists() and _leftovers(tmp_path) == []
    assert runner.invoke(app, ["export", str(event), "--csv", "-o", str(folder)]).exit_code == 0
    before = _tree(folder)
    assert len(before) >= 5
    other = _played_again(tmp_path)  # (its export differs: an interrupted one would show)
    with monkeypatch.context() as m:
        _interrupt_at_file(m, 3)
        r = runner.invoke(app, ["export", str(other), "--csv", "-o", str(folder)])
    assert r.exit_code == 2
    assert _tree(folder) == before and _leftovers(tmp_path) == []


def _played_again(tmp_path: Path) -> Path:
    """Another event (other players, other games): its export differs in every file."""
    path = tmp_path / "other" / "club.db"
    path.parent.mkdir()
    simulate_event(path, "competitive", "rotating", 12, 2, seed=5)
    return path


def test_interrupted_sheets_leave_no_folder(event: Path, tmp_path: Path, monkeypatch) -> None:
    folder = tmp_path / "sheets"
    _interrupt_at_file(monkeypatch, 2)
    r = runner.invoke(app, ["sheets", str(event), "-o", str(folder)])
    assert r.exit_code == 2 and "interrupted" in r.stderr, r.output
    assert not folder.exists() and _leftovers(tmp_path) == []

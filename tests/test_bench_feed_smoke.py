"""``benchmarks/bench_feed.py`` with a few teams and seconds runs to its end and prints its table:
the followers' standings all answered 200 by both servers, the tables' moves all taken (the
figures themselves are not judged: speed is measured, never asserted)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks" / "bench_feed.py"
TINY = ["--teams", "8", "--tables", "2", "--followers", "3", "--seconds", "2", "--quiet", "1", "--seed", "3"]


def _run(tmp_path: Path, *more: str) -> str:
    out = subprocess.run([sys.executable, str(BENCH), *TINY, *more], capture_output=True, text=True, timeout=600,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _row(text: str, label: str) -> list[str]:
    """A row of the table: its cells, one a server (two spaces or more between them)."""
    line = next(line for line in text.splitlines() if line.startswith(label))
    return re.split(r"\s{2,}", line[len(label):].strip())


def _check(text: str, servers: int) -> None:
    assert text.startswith("bench_feed: load average ")
    assert "event: 8 duplicate teams, 8 tables a round, 5 rounds, 76 board results; 2 tables of round 5" in text
    answered = _row(text, "standings answered")
    assert len(answered) == servers
    # every answer a 200 (any other status would be counted in the cell); how many came in the
    # seconds given is the machine's
    assert all(re.fullmatch(r"\d+ \(\d+\.\d/s\)(, \d+ unanswered at the end)?", cell) for cell in answered), answered
    for cell in _row(text, "moves (tables alone + polling), refused"):  # no move refused
        assert re.fullmatch(r"\d+ \+ \d+, 0", cell), cell
    for label in ("a follower's wait: p50 / p95 / max, ms", "the hall's CPU an answer, ms",
                  "a move, tables alone: p50 / p95 / p99 / max, ms",
                  "a move, followers polling: p50 / p95 / p99 / max, ms"):
        assert len(_row(text, label)) == servers, label
    assert re.search(r"^the answer computed alone in this process \(feed\.published_standings, this code, best of 5\): "
                     r"[\d.]+ ms CPU, [\d.]+ ms wall; the answer is [\d,]+ bytes$", text, re.M)
    assert text.rstrip().splitlines()[-1].startswith("load average after the run: ")


def test_this_code_alone(tmp_path: Path) -> None:
    text = _run(tmp_path, "--reference", "none")
    assert "this code" in text.splitlines()[3] and "(reference)" not in text
    _check(text, 1)


def test_beside_a_reference_served_from_the_git_history(tmp_path: Path) -> None:
    if shutil.which("git") is None or subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"],
                                                     capture_output=True).returncode != 0:
        pytest.skip("no git history here: the reference is unpacked from it")
    text = _run(tmp_path, "--reference", "HEAD")
    assert "the reference first: HEAD, " in text
    _check(text, 2)

"""``benchmarks/count_stages.py``: the stages it counts are bench_validate.py's, in order, and a
counted process runs each of them to its end, the table is made from the counts, and one process
is counted under valgrind where it is installed (each is slow under it: the script's whole run,
six of them, is ``pytest --long``'s)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "benchmarks" / "count_stages.py"
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_validate  # noqa: E402
import count_stages  # noqa: E402


def test_the_prefixes_are_the_pipeline_of_bench_validate() -> None:
    assert tuple(name for name, _ in bench_validate.prefix_runs()) == count_stages.PREFIXES[1:]
    assert bench_validate.STAGES == ("parse", "structure", "replay", "claims")


def test_a_counted_process_runs_every_prefix(tmp_path: Path) -> None:
    texts = bench_validate.simulated_texts("domino-roads", 2)
    path = tmp_path / "texts.jsonl"
    path.write_bytes(b"".join(t + b"\n" for t in texts))
    for prefix in count_stages.PREFIXES:
        out = subprocess.run([sys.executable, str(SCRIPT), "--child", prefix, str(path), "1"],
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, (prefix, out.stderr)


NUMBER = r"-?\d+(?:\.\d+)?"
#: A row of the table count_stages.py prints for a game.
ROW = rf"^\| competitive \| {NUMBER} \| {NUMBER} M \| \*\*{NUMBER}×\*\* \|( {NUMBER}× \|){{4}}$"


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_a_process_counted_under_valgrind(tmp_path: Path) -> None:
    """One process, the whole pipeline's, counted under valgrind for real: the count is read from
    cachegrind's report and is a process's worth (a Python start-up alone is tens of millions).
    Each such process takes seconds (valgrind runs it about 50 times slower), so the default run
    counts one and the table below is made from counts given; ``--long`` counts all six."""
    texts = bench_validate.simulated_texts("competitive", 1)
    path = tmp_path / "texts.jsonl"
    path.write_bytes(b"".join(t + b"\n" for t in texts))
    assert count_stages.count("total", path, 1, ROOT) > 10_000_000


def test_the_table_is_made_from_the_counts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture) -> None:
    """The script's own run, end to end in this process, the counts given for each prefix (a
    process's start-up, then each prefix more work than the one before it): a row a game, each
    stage the difference of two prefixes, a game's mean over the rounds, in json.loads's."""
    given = {"none": 1_000_000, "json.loads": 1_200_000, "parse": 1_600_000, "+structure": 1_700_000,
             "+replay": 2_200_000, "total": 2_400_000}
    asked: list[tuple[str, int]] = []

    def count(prefix: str, texts_file: Path, rounds: int, tree: Path) -> int:
        assert texts_file.exists() and tree == ROOT
        asked.append((prefix, rounds))
        return given[prefix]

    monkeypatch.setattr(count_stages, "count", count)
    which = shutil.which  # (valgrind is asked for by the script before it counts: here nothing runs under it)
    monkeypatch.setattr(shutil, "which", lambda name, *rest, **kw: "valgrind" if name == "valgrind" else
                        which(name, *rest, **kw))
    monkeypatch.setattr(sys, "argv", ["count_stages.py", "competitive", "--games", "2", "--rounds", "2",
                                      "-j", "2", "--cache", str(tmp_path)])
    count_stages.main()
    out = capsys.readouterr().out
    assert sorted(asked) == sorted((p, 2) for p in count_stages.PREFIXES)
    row = re.search(ROW, out, re.M)
    assert row, out
    # per game and round: json.loads 50,000; total 350,000 (7×); parse 150,000 (3×), structure
    # 25,000 (0.5×), replay 125,000 (2.5×), claims 50,000 (1×)
    assert row.group(0).endswith("| 0.05 M | **7.00×** | 3.00× | 0.50× | 2.50× | 1.00× |"), out


@pytest.mark.slow
@pytest.mark.long
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_count_stages_prints_a_row_a_game(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "competitive", "--games", "2", "--rounds", "1",
                          "-j", "2", "--cache", str(tmp_path)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    assert re.search(ROW, out.stdout, re.M), out.stdout

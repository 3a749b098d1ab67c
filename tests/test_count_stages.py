"""``benchmarks/count_stages.py``: the stages it counts are bench_validate.py's, in order, and a
counted process runs each of them to its end (the counting itself needs valgrind, and is slow
under it: run once here where valgrind is installed, on two games' worth of texts)."""

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


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind is not installed")
def test_count_stages_prints_a_row_a_game(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "competitive", "--games", "2", "--rounds", "1",
                          "-j", "2", "--cache", str(tmp_path)],
                         capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr
    number = r"-?\d+(?:\.\d+)?"
    assert re.search(rf"^\| competitive \| {number} \| {number} M \| \*\*{number}×\*\* \|( {number}× \|){{4}}$",
                     out.stdout, re.M), out.stdout

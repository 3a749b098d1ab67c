"""``benchmarks/bench_all.py --quick`` runs to its end and prints every section of README's
performance table, for every game (the figures themselves are not judged: speed is measured,
never asserted)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")


def test_bench_all_quick_prints_every_section(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_all.py"), "--quick", "--games", "3",
                          "--dgn-games", "2", "--dgn-slow-games", "1", "--cache", str(tmp_path)],
                         capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert text.startswith("machine: ") and " cores (" in text.splitlines()[0]
    number = r"[\d,]+(?:\.\d+)?"
    for game in GAMES:
        assert re.search(rf"^  {game} +{number} hands/s  json\.loads +{number} hands/s  validate {number}×  "
                         rf"\(parse {number} \+ structure {number} \+ replay {number} \+ claims {number}\)$",
                         text, re.M), game
        assert re.search(rf"^  {game} +push +{number} µs  \(with start_hand and end_hand +{number} µs\)  "
                         rf"validation's replay of the same moves +{number} µs$", text, re.M), game
        assert re.search(rf"^\| {game} \| {number} \| {number}× \|( {number}× \|){{4}} {number} \|$", text, re.M), game
    assert ("OpenSpiel is not installed (pip install open_spiel): comparison skipped" in text
            or re.search(rf"team_dominoes checked replay +{number} hands/s", text))
    form_rows = [line for line in text.splitlines() if line.startswith("| ") and line.count("×") == 5
                 and line.split(" | ")[0][2:] not in GAMES]
    assert [row.split(" | ")[0] for row in form_rows] == [
        "| canonical", "| typed, the deal written", "| typed, ends written", "| typed, no ends", "| typed, no seats",
        "| score sheet (no ends, no seats)", "| score sheet, each hand's scores written"]
    assert text.rstrip().splitlines()[-1].startswith("load average after the run: ")

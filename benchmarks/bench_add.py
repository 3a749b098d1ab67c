"""``tournament add --csv``: a players CSV entered as a whole command, start-up included, by its size.

    python benchmarks/bench_add.py              # 100, 1,000 and 3,000 names, 3 runs each
    python benchmarks/bench_add.py --quick      # 100 and 1,000 names, 1 run each
    python benchmarks/bench_add.py --sizes 100 1000 3000 10000 --runs 5

Each run enters the CSV into a new, empty rotating-partner Competitive event (made by ``tournament
new`` beforehand, not timed) as a process of its own, from start-up to exit: the file read, every
name checked against the others for look-alikes, the one write, the players listed and the
near-identical names warned of (about one name in fifty has a twin differing only by case, so the
warnings are part of the work).  Its wall time and its CPU (user + system, from the operating
system's accounting of the finished child) are printed beside ``tournament --version`` timed the
same way in the same run, interleaved with the adds: a slower or busier machine shows in the
reference too.  The CSV is the one of the report that found the look-alike check quadratic (3,000
names took 39 s, 35 of them after the write): ``Player 00000xa,C0`` …, within the documented 1 MiB.
The figure quoted is the median of the runs.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TOOL = [sys.executable, "-m", "tournament.cli"]


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of ``argv`` as a process of its own."""
    started = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(argv)} failed: {err.strip()}")
    return wall, usage.ru_utime + usage.ru_stime


def write_csv(path: Path, names: int) -> int:
    """The tester's CSV of ``names`` rows, a name in fifty followed by its twin in lower case:
    the number of twins written (each one warning)."""
    rows = ["name,club"]
    for i in range(names):
        name = f"Player {i:05d}x{chr(97 + i % 26)}"
        rows.append(f"{name},C{i % 7}")
        if i % 50 == 49:
            rows.append(f"{name.lower()},C{i % 7}")
    rows = rows[:names + 1]
    path.write_text("\n".join(rows) + "\n")
    return sum(1 for r in rows[1:] if r.startswith("player"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 3000])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="100 and 1,000 names, one run each")
    args = parser.parse_args()
    sizes, runs = (([100, 1000], 1) if args.quick else (args.sizes, args.runs))
    reference: list[tuple[float, float]] = []
    found: dict[int, list[tuple[float, float]]] = {n: [] for n in sizes}
    warned: dict[int, int] = {}
    with tempfile.TemporaryDirectory(prefix="bench-add-") as tmp:
        folder = Path(tmp)
        for n in sizes:
            warned[n] = write_csv(folder / f"p{n}.csv", n)
        for run in range(runs):
            for n in sizes:
                reference.append(timed([*TOOL, "--version"]))
                event = folder / f"e{n}-{run}.db"
                subprocess.run([*TOOL, "new", str(event), "--name", "bench", "--game", "competitive", "--format",
                                "rotating"], check=True, stdout=subprocess.DEVNULL)
                found[n].append(timed([*TOOL, "add", str(event), "--csv", str(folder / f"p{n}.csv")]))
    ref_wall = statistics.median(w for w, _ in reference)
    ref_cpu = statistics.median(c for _, c in reference)
    print(f"tournament add --csv, {runs} run{'s' if runs != 1 else ''} each (medians), as whole processes")
    print(f"{'names':>7} {'warnings':>9} {'wall s':>8} {'CPU s':>7} {'CPU / --version':>16}")
    print(f"{'--version':>7} {'':>9} {ref_wall:8.2f} {ref_cpu:7.2f} {1:16.1f}  (the reference, same run)")
    for n in sizes:
        wall = statistics.median(w for w, _ in found[n])
        cpu = statistics.median(c for _, c in found[n])
        print(f"{n:>7,} {warned[n]:>9} {wall:8.2f} {cpu:7.2f} {cpu / ref_cpu:16.1f}")


if __name__ == "__main__":
    main()

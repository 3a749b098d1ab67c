"""A big JSON Lines archive is checked in bounded memory.

Writes an archive of about --megabytes MB (simulated Competitive games, one a
line, with a few broken lines mixed in), runs `domrec validate` on it in a
child process, and prints records/s and the child's peak memory (max RSS).
The peak stays near the size of one record plus the interpreter, whatever
the archive's size.

    python benchmarks/bench_archive.py --megabytes 100
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

from domrec import simulate


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--megabytes", type=int, default=100)
    args = ap.parse_args()
    lines = [simulate.dumps(r) + "\n" for r in simulate.simulate("competitive", 200, 3, accidents=False)]
    target = args.megabytes * 1024 * 1024
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "archive.jsonl")
        size = count = 0
        with open(path, "w") as f:
            while size < target:
                line = lines[count % len(lines)]
                if count % 997 == 0:
                    line = line[: len(line) // 2] + "\n"  # a truncated record: must not stop the rest
                f.write(line)
                size += len(line)
                count += 1
        start = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "domrec.cli", "validate", "--quiet", path],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        elapsed = time.perf_counter() - start
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"archive: {size / 1e6:.0f} MB, {count} records, exit code {proc.returncode}")
    print(f"archive: {proc.stderr.strip()}")
    print(f"archive: {count / elapsed:,.0f} records/s, peak memory of the checker {peak_kb / 1024:.0f} MB")


if __name__ == "__main__":
    main()

"""Checking a large archive on 1, 2 and every core: records/s, wall time, peak memory per process.

    python benchmarks/bench_scale.py                 # a ~200 MB archive (generated once, then reused)
    python benchmarks/bench_scale.py --size 20       # a ~20 MB one, for a quick look

The archive is JSON Lines of simulated games of all five games, mixed, without
accidents (``simulate(..., accidents=False)``), so figures are comparable run to run.
It is generated into ``--cache`` (default: the system's temporary folder) and reused
while it is there.

Each run is a fresh process checking the archive with :func:`domrec.parallel.check`
as ``domrec validate -j N`` does, so its peak memory (maxrss) is its own; every worker
reports its own peak too.  Beside the runs, the reference measured in the same run on
the same lines: ``json.loads`` of every line, in one process (what any reader of the
archive pays).  Wall time is what a user waits; with more cores than the machine has
free the figures say so: the CPU time of the main process and of the workers is printed too,
with the load average (other programs running on the machine take cores from the workers).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")


def archive(size_mb: int, cache: Path) -> Path:
    """The cached archive of about ``size_mb`` MB, generated if missing."""
    from domrec import simulate

    path = cache / f"domrec-bench-scale-{size_mb}MB.jsonl"
    if path.exists():
        return path
    target = size_mb * 1024 * 1024
    tmp = path.with_suffix(".partial")
    written = 0
    start = time.perf_counter()
    with tmp.open("w", encoding="utf-8") as f:
        seed = 0
        while written < target:
            for game in GAMES:  # mixed: a batch of each game in turn
                for record in simulate.simulate(game, 50, seed, accidents=False):
                    line = simulate.dumps(record) + "\n"
                    f.write(line)
                    written += len(line.encode("utf-8"))
            seed += 1
    tmp.replace(path)
    print(f"generated {path} ({written / 1e6:.0f} MB) in {time.perf_counter() - start:.0f}s", flush=True)
    return path


def run_one(path: str, jobs: int) -> None:
    """In a fresh process: check the archive on ``jobs`` cores; print the figures as JSON."""
    from domrec import parallel, reader
    from domrec.validate import batch_mode

    batch_mode()
    stats = parallel.Stats()
    counts = {"valid": 0, "invalid": 0, "unusable": 0}
    start = time.perf_counter()
    for report in parallel.check(reader.iter_sources([path]), jobs, stats=stats):
        counts[report.status] += 1
    wall = time.perf_counter() - start
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    print(json.dumps({"jobs": jobs, "wall": wall, "counts": counts,
                      "main_cpu": own.ru_utime + own.ru_stime, "workers_cpu": children.ru_utime + children.ru_stime,
                      "main_maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                      "worker_maxrss_kib": sorted(stats.worker_maxrss.values())}))


def reference(path: Path) -> tuple[int, float, float]:
    """``json.loads`` of every line: how many, wall time, CPU time."""
    n = 0
    wall, cpu = time.perf_counter(), time.process_time()
    with path.open("rb") as f:
        for line in f:
            json.loads(line)
            n += 1
    return n, time.perf_counter() - wall, time.process_time() - cpu


def extra_sections(path: Path, args: argparse.Namespace) -> None:
    """In the same run: the Dask LocalCluster on the same archive (when Dask is installed), and the
    single-core cost of full validation against ``json.loads`` for every game (bench_validate.py)."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        print("dask: not installed (pip install 'domrec[dask]'); LocalCluster run skipped")
    else:
        from bench_scale_dask import bench_dask

        bench_dask(path, workers=2)
    from bench_validate import RATIO_TARGET, measure, stage_line, stages

    print(f"one core, {args.games} simulated games a game (CPU time, best of 3; target {RATIO_TARGET:g}× json.loads):")
    for game in GAMES:
        m = measure(game, args.games)
        print(f"  {game:13} {m['hands'] / m['cpu']:9,.0f} hands/s, json.loads {m['hands'] / m['reference']:9,.0f} "
              f"hands/s: validation costs {m['cpu'] / m['reference']:.1f}× json.loads")
        print(f"  {'':13} by stage: {stage_line(stages(m['texts']))}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=200, help="archive size in MB (default 200)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()), help="where the archive is kept")
    ap.add_argument("--jobs", type=int, action="append", help="core counts to run (default: 1, 2 and all)")
    ap.add_argument("--games", type=int, default=1000, help="simulated games a game for the one-core ratios")
    ap.add_argument("--run-one", nargs=2, metavar=("PATH", "JOBS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.run_one:
        run_one(args.run_one[0], int(args.run_one[1]))
        return
    cores = os.cpu_count() or 1
    path = archive(args.size, args.cache)
    size = path.stat().st_size
    cpu = next((x.split(":", 1)[1].strip() for x in Path("/proc/cpuinfo").read_text().splitlines()
                if x.startswith("model name")), "unknown") if Path("/proc/cpuinfo").exists() else "unknown"
    print(f"machine: {cores} cores ({cpu}); archive {path} {size / 1e6:.0f} MB")
    n, ref_wall, ref_cpu = reference(path)
    print(f"reference: json.loads of the {n:,} lines: {ref_wall:.1f}s wall, {ref_cpu:.1f}s CPU, "
          f"{n / ref_wall:,.0f} records/s")
    for jobs in args.jobs or sorted({1, min(2, cores) if cores >= 2 else 2, cores}):
        out = subprocess.run([sys.executable, __file__, "--run-one", str(path), str(jobs)],
                             capture_output=True, text=True, check=True)
        fig = json.loads(out.stdout.splitlines()[-1])
        total = sum(fig["counts"].values())
        workers = ", ".join(f"{k / 1024:.0f}" for k in fig["worker_maxrss_kib"]) or "none (checked in the main process)"
        print(f"-j {jobs}: {total:,} records in {fig['wall']:.1f}s wall, {total / fig['wall']:,.0f} records/s, "
              f"{fig['wall'] / ref_wall:.1f}× json.loads' wall time; {fig['counts']['valid']:,} valid")
        print(f"      CPU: main {fig['main_cpu']:.1f}s, workers {fig['workers_cpu']:.1f}s in all "
              f"({total / (fig['main_cpu'] + fig['workers_cpu']):,.0f} records per CPU-second); load average "
              f"{os.getloadavg()[0]:.1f} on {cores} cores")
        print(f"      peak memory: main {fig['main_maxrss_kib'] / 1024:.0f} MiB; workers (MiB) {workers}")
    extra_sections(path, args)


if __name__ == "__main__":
    main()

"""The Dask entry point on a LocalCluster of two worker processes, beside one process.

    python benchmarks/bench_scale_dask.py              # a ~200 MB archive (generated once, then reused)
    python benchmarks/bench_scale_dask.py --size 20    # a ~20 MB one, for a quick look

``bench_dask(path)`` is the section ``benchmarks/bench_scale.py`` calls: it checks the
same JSON Lines archive (simulated games of all five games, mixed, without accidents, so
figures are comparable run to run) once in this process as ``domrec validate`` does, and
once with :func:`domrec.cluster.validate_shards` on a ``LocalCluster(n_workers=2,
processes=True, threads_per_worker=1)``, and prints records/s of both, measured in the
same run.  Wall time is what a user waits (the cluster's start is timed apart); the
single process's CPU time is printed too: with other programs on the machine, wall time
and CPU time part, and the load average says why.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

def bench_dask(path: Path, workers: int = 2, block_mb: int = 16) -> None:
    """Print records/s of one process and of the LocalCluster run on ``path``."""
    from distributed import Client, LocalCluster

    from domrec import cluster, reader
    from domrec.parallel import reports_of
    from domrec.validate import batch_mode

    batch_mode()
    wall, cpu = time.perf_counter(), time.process_time()
    single = sum(1 for src in reader.iter_sources([str(path)]) for _ in reports_of(src))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"one process: {single:,} records in {wall:.1f}s ({cpu:.1f}s of CPU): {single / wall:,.0f} records/s")

    start = time.perf_counter()
    with LocalCluster(n_workers=workers, processes=True, threads_per_worker=1, dashboard_address=":0") as local, \
            Client(local) as client:
        started = time.perf_counter() - start
        t = time.perf_counter()
        count = sum(1 for _ in cluster.validate_shards([str(path)], client=client,
                                                       block_bytes=block_mb * 1024 * 1024))
        t = time.perf_counter() - t
    if count != single:
        raise SystemExit(f"the Dask run gave {count} verdicts, one process {single}")
    print(f"dask LocalCluster, {workers} worker processes, blocks of {block_mb} MB: {count:,} records in {t:.1f}s "
          f"(+{started:.1f}s to start the cluster): {count / t:,.0f} records/s, "
          f"{(count / t) / (single / wall):.2f}× one process (load average {os.getloadavg()[0]:.1f})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=200, help="archive size in MB")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--block", type=int, default=16, help="block size in MB")
    args = ap.parse_args()
    from bench_scale import archive

    bench_dask(archive(args.size, args.cache), args.workers, args.block)


if __name__ == "__main__":
    main()

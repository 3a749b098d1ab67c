"""Where the hall's process spends its CPU, phase by phase, measured apart.

    python benchmarks/bench_hall_split.py [--tables 100] [--phones 100] [--results 4] [--seed 1]

``bench_venue.py`` measures the hall's process whole, its phones and the tables' results mixed
in one run; this starts the hall alone (``python -m tournament.web.hall``, no tables' server) on
the event ``bench_venue.py`` plays (``4 x --tables`` players, round 1 paired) and measures its
CPU (every thread's, from ``/proc/PID/task/*/schedstat``: nanoseconds, not the clock's ticks) in
each phase of a hall's life, one after the other:

* idle, 10 s, with no stream open;
* ``--phones`` live streams opened (``GET /live``, as the pages' script opens them) until each has
  said the public pages' revision;
* the standings' main region made once (the first phone's fetch) and fetched by the other phones
  (``?part=main&since=0``, gzip, each on a connection of its own);
* idle, 10 s, with the streams open (the watcher's looks at the file, the keep-alives);
* ``--results`` results entered one at a time in this process (as the director's command line
  would, the hall hearing of each by its own look at the file), each: until every stream has
  heard of it, then the page made again (the first phone's fetch), then the other phones' fetches.

The clients are ``bench_venue.py``'s (raw HTTP/1.1 over asyncio streams).  The machine's other
work shows in every figure (a wake-up of a process costs it CPU): compare two codes in turn.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_venue import HOST, Connection, free_port, night

from tournament import open_event
from tournament.event.venue import Venue


def cpu_ns(pid: int) -> int:
    """CPU nanoseconds of every thread of ``pid`` still alive (a thread that ended takes its time with it)."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            total += int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
        except (OSError, ValueError):
            pass
    return total


async def run(args: argparse.Namespace, folder: Path) -> dict[str, float]:
    path = folder / "hall.db"
    night(path, args.tables, args.seed)
    port = free_port()
    hall = subprocess.Popen([sys.executable, "-m", "tournament.web.hall", str(path), "--port", str(port),
                             "--rate", "1000000", "--connections-per-device", "100000"])
    venue = Venue(open_event(path))
    out: dict[str, float] = {}
    try:
        while True:
            try:
                _, writer = await asyncio.open_connection(HOST, port)
                writer.close()
                break
            except OSError:
                if hall.poll() is not None:
                    raise SystemExit("the hall did not start")
                await asyncio.sleep(0.05)
        await asyncio.sleep(5)  # the templates compiled beside the serving, and their thread gone

        def phase(name: str, since: int) -> None:
            out[name] = out.get(name, 0.0) + (cpu_ns(hall.pid) - since) / 1e6

        began = cpu_ns(hall.pid)
        await asyncio.sleep(10)
        phase("idle 10 s, no stream", began)

        heard = [0] * args.phones
        stop = time.monotonic() + 3600
        fetchers = [Connection(port) for _ in range(args.phones)]
        seqs = [0] * args.phones

        async def follow(k: int) -> None:
            async for seq in Connection(port).events("/live", stop):
                heard[k] = seq

        async def fetch(k: int) -> None:
            _, found, _ = await fetchers[k].request("GET", f"/standings?part=main&since={seqs[k]}", None,
                                                    {"accept-encoding": "gzip"})
            seqs[k] = int(found.get("x-seq", seqs[k]))

        began = cpu_ns(hall.pid)
        streams = [asyncio.ensure_future(follow(k)) for k in range(args.phones)]
        while not all(heard):
            await asyncio.sleep(0.05)
        phase(f"{args.phones} streams opened", began)
        began = cpu_ns(hall.pid)
        await fetch(0)
        phase("the standings made (the first fetch)", began)
        began = cpu_ns(hall.pid)
        await asyncio.gather(*(fetch(k) for k in range(1, args.phones)))
        phase(f"{args.phones - 1} first fetches", began)
        began = cpu_ns(hall.pid)
        await asyncio.sleep(10)
        phase(f"idle 10 s, {args.phones} streams open", began)
        for n in range(args.results):
            before = heard[:]
            began = cpu_ns(hall.pid)
            venue.director_result(1, n + 1, {"NS": 150, "EW": 90}, None)
            while any(now == then for now, then in zip(heard, before)):
                await asyncio.sleep(0.01)
            phase(f"{args.results} results heard by every stream", began)
            began = cpu_ns(hall.pid)
            await fetch(0)
            phase(f"{args.results} results: the standings made again", began)
            began = cpu_ns(hall.pid)
            await asyncio.gather(*(fetch(k) for k in range(1, args.phones)))
            phase(f"{args.results} results: {args.phones - 1} fetches each", began)
            await asyncio.sleep(1.5)
        for task in streams:
            task.cancel()
        await asyncio.gather(*streams, return_exceptions=True)
        for conn in fetchers:
            conn.close()
    finally:
        venue.store.close()
        hall.terminate()
        hall.wait()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100, help="the event's tables (4 players each)")
    parser.add_argument("--phones", type=int, default=100, help="phones following the standings live")
    parser.add_argument("--results", type=int, default=4, help="results entered, one at a time")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.results > args.tables:
        parser.error("--results is at most --tables")
    with tempfile.TemporaryDirectory(prefix="bench-hall-") as folder:
        found = asyncio.run(run(args, Path(folder)))
    load = os.getloadavg()
    print(f"the hall's process alone: {args.tables * 4} players, {args.phones} phones following live "
          f"(load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f})")
    for name, ms in found.items():
        print(f"  {name:45s} {ms:8.1f} ms")


if __name__ == "__main__":
    main()

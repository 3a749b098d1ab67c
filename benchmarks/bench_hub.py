"""A federation's hub under its followers: from a result confirmed at a venue to the world hearing of it.

    python benchmarks/bench_hub.py [--venues 4] [--tables 10] [--followers 200] [--results 20] [--hubs 1] [--seed 1]

What it does, in one run, against 127.0.0.1 only, bounded in time (docs/hub.md):

* makes ``--venues`` events of ``4 x --tables`` players each (Competitive, rotating partners): round 1
  simulated, round 2 paired, its tables to be confirmed;
* starts a ``nats-server -js`` (a store in a temporary folder), each venue as ``tournament serve
  --upstream`` (a process each, as at a club), and ``--hubs`` ``tournament hub`` (one by default; two
  to compare, the followers shared between them as a load balancer would), then waits until each
  hub holds every event;
* opens ``--followers`` live streams on the hub (``/e/EVENT/live``, Server-Sent Events, as a page
  following an event opens it), spread over the events;
* confirms ``--results`` results, one at a time, each at a venue in turn (the director's
  ``enter_manual``, into the event file the venue serves), and times, for each follower of that
  event, the moment it hears the new revision.

It prints the time from a confirmation to its followers hearing of it (p50, p95, max, over every
follower of every confirmation; the issue's goal is p95 < 2 s), the hub's CPU while the results
came in (per follower, and per follower and result), and beside them, measured in the same run, a
reference: one JetStream publish and its acknowledgement on the same server (p50), and the venue's
own look at its event file (``tournament.web.upstream.POLL``), which bounds the delay a venue adds.

The issue's full figure (20 venues of 50 tables, 5,000 followers, two hubs against one) is this with
``--venues 20 --tables 50 --followers 5000`` (and ``--hubs 2``): the file descriptors of 5,000 streams in one process
need ``ulimit -n`` above 5,000, and a machine to itself.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournament import enter_manual, open_event, pair_next_round  # noqa: E402
from tournament.web import upstream  # noqa: E402

DEADLINE = 120.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, check, deadline: float = DEADLINE):
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        try:
            found = check()
        except OSError:
            found = None
        if found:
            return found
        time.sleep(0.1)
    raise SystemExit(f"gave up waiting {deadline:.0f} s for {what}")


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(url: str):
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Follower:
    """One page following an event live on the hub: each revision heard, and when."""

    def __init__(self) -> None:
        self.heard: list[tuple[int, float]] = []
        self.changed = asyncio.Event()

    async def follow(self, host: str, port: int, event: str) -> None:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET /e/{event}/live HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    self.heard.append((int(line[6:]), time.monotonic()))
                    self.changed.set()
        finally:
            writer.close()


async def measure(args: argparse.Namespace, hub_ports: list[int], events: list[tuple[Path, str]],
                  hub_pids: list[int]) -> dict:
    followers: dict[str, list[Follower]] = {e: [] for _, e in events}
    tasks = []
    for i in range(args.followers):
        event = events[i % len(events)][1]
        f = Follower()
        followers[event].append(f)
        tasks.append(asyncio.ensure_future(f.follow("127.0.0.1", hub_ports[i % len(hub_ports)], event)))
    # every follower has heard the revision it starts from
    end = time.monotonic() + DEADLINE
    while not all(f.heard for fs in followers.values() for f in fs):
        if time.monotonic() > end:
            raise SystemExit("the followers did not all hear the hub")
        await asyncio.sleep(0.05)
    latencies: list[float] = []
    cpu0, wall0 = sum(map(cpu_seconds, hub_pids)), time.monotonic()
    table = 1
    for n in range(args.results):
        path, event = events[n % len(events)]
        if n and n % len(events) == 0:
            table += 1
        before = {id(f): f.heard[-1][0] for f in followers[event]}
        await asyncio.get_running_loop().run_in_executor(None, confirm, path, table)
        confirmed = time.monotonic()
        end = confirmed + 30
        waiting = list(followers[event])
        while waiting and time.monotonic() < end:
            still = []
            for f in waiting:
                new = [at for seq, at in f.heard if seq > before[id(f)]]
                if new:
                    latencies.append(new[0] - confirmed)
                else:
                    still.append(f)
            waiting = still
            if waiting:
                await asyncio.sleep(0.005)
        if waiting:
            raise SystemExit(f"{len(waiting)} followers did not hear result {n + 1} within 30 s")
    cpu, wall = sum(map(cpu_seconds, hub_pids)) - cpu0, time.monotonic() - wall0
    for t in tasks:
        t.cancel()
    return {"latencies": latencies, "cpu": cpu, "wall": wall}


def confirm(path: Path, table: int) -> None:
    with open_event(path) as store:
        enter_manual(store, table, {"NS": 100 + table, "EW": 60})


async def publish_reference(url: str, rounds: int = 200) -> float:
    import nats

    nc = await nats.connect(url)
    js = nc.jetstream()
    await js.add_stream(name="BENCH-REFERENCE", subjects=["bench.reference"])
    times = []
    for i in range(rounds):
        t0 = time.perf_counter()
        await js.publish("bench.reference", b"x" * 200)
        times.append(time.perf_counter() - t0)
    await js.delete_stream("BENCH-REFERENCE")
    await nc.close()
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venues", type=int, default=4)
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--followers", type=int, default=200)
    parser.add_argument("--results", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hubs", type=int, default=1, help="hubs serving the followers (each follower on one)")
    args = parser.parse_args()
    if args.results > args.venues * args.tables:
        raise SystemExit("--results: at most --venues x --tables (a result a table of round 2)")
    server_bin = shutil.which("nats-server") or "/usr/sbin/nats-server"
    if not Path(server_bin).exists():
        raise SystemExit("nats-server is not installed (apt-get install nats-server)")
    processes: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        try:
            nats_port = free_port()
            url = f"nats://127.0.0.1:{nats_port}"
            processes.append(subprocess.Popen([server_bin, "-js", "-a", "127.0.0.1", "-p", str(nats_port), "-sd",
                                               str(folder / "store")], stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL))
            wait_for("nats-server", lambda: socket.create_connection(("127.0.0.1", nats_port), timeout=1).close() or True)
            events = []
            for v in range(args.venues):
                path = folder / f"venue{v + 1}.db"
                subprocess.run([sys.executable, "-m", "tournament.cli", "simulate", str(path), "--game",
                                "competitive", "--players", str(4 * args.tables), "--rounds", "1", "--seed",
                                str(args.seed + v)], check=True, cwd=ROOT, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                with open_event(path) as store:
                    pair_next_round(store)
                    events.append((path, store.uuid.lower()))
                processes.append(subprocess.Popen(
                    [sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(free_port()),
                     "--one-process", "--upstream", url, "--club", f"Club {v + 1}"], cwd=ROOT,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            hub_ports, hub_pids = [], []
            for _ in range(args.hubs):
                hub_port = free_port()
                hub = subprocess.Popen([sys.executable, "-m", "tournament.cli", "hub", "--nats", url, "--port",
                                        str(hub_port)], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                processes.append(hub)
                hub_ports.append(hub_port)
                hub_pids.append(hub.pid)
            for hub_port in hub_ports:
                wait_for("the hubs to hold every event",
                         lambda: len(get(f"http://127.0.0.1:{hub_port}/api/v1/events")["events"]) == args.venues)
            reference = asyncio.run(publish_reference(url))
            out = asyncio.run(measure(args, hub_ports, events, hub_pids))
        finally:
            for p in reversed(processes):
                p.terminate()
            for p in processes:
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    p.kill()
    lat = out["latencies"]
    full = args.venues >= 20 and args.tables >= 50 and args.followers >= 5000
    print(f"bench_hub: {args.venues} venues of {args.tables} tables, {args.hubs} hub(s), {args.followers} live followers, "
          f"{args.results} results confirmed one at a time (127.0.0.1; "
          f"{'the issue' + chr(39) + 's size' if full else 'scaled down from the issue' + chr(39) + 's 20 x 50, 5,000'})")
    print(f"  confirmation at a venue -> its followers on the hub hear it: p50 {percentile(lat, 50) * 1000:.0f} ms, "
          f"p95 {percentile(lat, 95) * 1000:.0f} ms, max {max(lat) * 1000:.0f} ms over {len(lat)} (goal p95 < 2000 ms)")
    print(f"  hubs' CPU (together) while the results came in: {out['cpu']:.2f} s in {out['wall']:.1f} s; per follower "
          f"{out['cpu'] / args.followers * 1000:.2f} ms, per follower and result "
          f"{out['cpu'] / args.followers / args.results * 1000:.3f} ms")
    print(f"  reference (same run): a JetStream publish and its ack {reference * 1000:.2f} ms (p50); a venue looks "
          f"at its event file every {upstream.POLL * 1000:.0f} ms")


if __name__ == "__main__":
    main()

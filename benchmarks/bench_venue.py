"""The venue server under a club's load, against 127.0.0.1 only, bounded in time.

    python benchmarks/bench_venue.py [--tables 100] [--readers 200] [--seconds 60] [--seed 1]

What it does, in one run:

* makes an event of ``4 x --tables`` players (Competitive, rotating partners: one table of four
  per four players) and pairs round 1; simulates each table's game;
* starts ``tournament serve`` on a free port of 127.0.0.1 (``--rate`` high: every client here
  comes from the same address, where a hall's phones each have their own);
* brings each table part of the way through its game first (not timed), so that the tables
  finish at different times: about ``--tables / 10`` of them a minute, as a club's do;
* then, for ``--seconds``: every table posts its next move once a second (each one a DGN word
  with the table's revision, as the table page sends it), a table whose game is over confirms
  it for both sides (the result then enters the event), and ``--readers`` readers read as the
  hall's phones do: half of them keep a table's state loaded (a page every 10 seconds), the
  other half follow the event live as the public pages' script does (a live stream open, and
  the standings' main region fetched again each time it says the event changed);
* measures the live delay: from the moment the confirmation that enters a result is sent to
  the moment a listener on the live stream (``GET /live``) hears of a change at least as new
  as that result (the event's change number read from the file once the confirmation is
  answered);
* afterwards reads the event file: every acknowledged move must be in its table's log exactly
  once, in order (lost: acknowledged but missing; doubled: there twice).

It prints the latency of an accepted move (p50, p99, max), the live delay (p50, p95, max; goal
p95 under 2 s), moves lost and doubled, games confirmed, the server's CPU time per accepted move, and beside it the reference measured in
the same run: the CPU time per move of the recorder taking the same moves in this process
(:class:`domrec.session.Session`, what ``domrec record`` does for each move typed), so a
slower or busier machine shows in both.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from domrec.session import Session, requests_for
from domrec.simulate import play_game

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.changes import latest_seq
from tournament.event.tables import table_record
from tournament.event.venue import links

def cpu_of(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def run(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "venue.db"
    store = create_event(path, make_settings("Bench night", "competitive", "rotating", seed=args.seed))
    add_players(store, [f"Player {i}" for i in range(4 * args.tables)])
    pair_next_round(store)
    players = {p.id: p for p in store.players()}
    tables = store.tables(1)
    games = {t.number: requests_for(play_game(table_record(store.settings, t, players), random.Random(args.seed + t.number)))
             for t in tables}
    tokens = {x["table"]: x["token"] for x in links(store, "http://127.0.0.1")["tables"]}
    store.close()

    # The reference: the recorder taking the same moves in this process.
    started = time.process_time()
    moves_local = 0
    for t in tables[: min(20, len(tables))]:
        session = Session(table_record(store.settings, t, players))
        for text in games[t.number]:
            session.take(text)
            moves_local += 1
    local_cpu = (time.process_time() - started) / moves_local

    port = free_port()
    watch = open_event(path)  # the change number, read from the file as the server writes it
    server = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(port),
                               "--rate", "1000000"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the server did not start: {server.stderr.read().decode()}")
                await asyncio.sleep(0.05)
        base = f"http://127.0.0.1:{port}"
        rng = random.Random(args.seed)
        acknowledged: dict[int, list[str]] = {t.number: [] for t in tables}
        revs: dict[int, int] = {t.number: 0 for t in tables}
        latencies: list[float] = []
        refused = confirmed = reads = live_reads = 0
        heard: list[tuple[float, int]] = []  # (when, seq) of every change the probe listener heard
        news = asyncio.Event()
        delays: list[float] = []
        waiting: list[asyncio.Task] = []
        limits = httpx.Limits(max_connections=args.tables + args.readers + 20)
        # The hall's phones have their own connections (a live stream holds one open, and the page it
        # fetches again takes another): the tables' requests never wait for a connection behind them.
        hall_limits = httpx.Limits(max_connections=2 * args.readers + 20)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as client, \
                httpx.AsyncClient(base_url=base, timeout=60, limits=hall_limits) as hall:

            async def post(number: int, text: str) -> httpx.Response:
                return await client.post(f"/api/v1/tables/1/{number}/dgn", json={"rev": revs[number], "text": text},
                                         headers={"Authorization": f"Bearer {tokens[number]}"})

            # Part of the way through each game first (not timed): the tables finish at different times.
            for t in tables:
                steps = games[t.number]
                # Moves left uniform in 1..6 x tables: a tenth of the tables a minute end their game.
                left = min(len(steps), rng.randint(1, 6 * args.tables))
                for text in steps[: max(0, len(steps) - left)]:
                    r = await post(t.number, text)
                    assert r.status_code == 200, r.text
                    revs[t.number] = r.json()["rev"]
                    acknowledged[t.number].append(text)
            cpu_before = cpu_of(server.pid)
            stop = time.monotonic() + args.seconds

            async def table(number: int) -> None:
                nonlocal refused, confirmed
                steps = games[number]
                await asyncio.sleep(rng.random())
                while time.monotonic() < stop:
                    k = len(acknowledged[number])
                    if k < len(steps):
                        sent = time.perf_counter()
                        r = await post(number, steps[k])
                        if r.status_code == 200:
                            latencies.append(time.perf_counter() - sent)
                            revs[number] = r.json()["rev"]
                            acknowledged[number].append(steps[k])
                        else:
                            refused += 1
                    else:
                        headers = {"Authorization": f"Bearer {tokens[number]}"}
                        for side in ("NS", "EW"):
                            sent_confirm = time.perf_counter()
                            r = await client.post(f"/api/v1/tables/1/{number}/confirm", headers=headers,
                                                  json={"rev": revs[number], "side": side})
                            if r.status_code != 200:
                                raise SystemExit(f"table {number}: confirmation refused: {r.text}")
                            revs[number] = r.json()["rev"]
                        # The last confirmation entered the result: how long until the live stream says so?
                        waiting.append(asyncio.ensure_future(delay(sent_confirm, latest_seq(watch))))
                        confirmed += 1
                        return
                    await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))

            async def delay(sent_at: float, seq: int) -> None:
                """Wait until the probe has heard of change ``seq`` (or a later one)."""
                while True:
                    found = next((when for when, heard_seq in heard if heard_seq >= seq), None)
                    if found is not None:
                        delays.append(max(0.0, found - sent_at))
                        return
                    news.clear()
                    await news.wait()

            async def events(path: str):
                """A live stream's change numbers as they come (the stream is opened again when it ends)."""
                while time.monotonic() < stop:
                    async with hall.stream("GET", path, timeout=httpx.Timeout(60, read=None)) as r:
                        async for line in r.aiter_lines():
                            if line.startswith("data:"):
                                yield int(line[5:].strip())
                            if time.monotonic() >= stop:
                                return

            async def probe() -> None:
                async for seq in events("/live"):
                    heard.append((time.perf_counter(), seq))
                    news.set()

            async def reader(k: int) -> None:
                nonlocal reads, live_reads
                await asyncio.sleep(rng.random() * 10)
                if k < args.live:  # a phone on the public pages: the live stream, the main region fetched again
                    seq = 0
                    async for now in events("/live"):
                        if now != seq:
                            await asyncio.sleep(rng.random() * 0.4)  # as live.js waits, so phones spread out
                            r = await hall.get(f"/standings?part=main&since={seq}")
                            seq = int(r.headers.get("x-seq", now))
                            live_reads += 1
                    return
                while time.monotonic() < stop:
                    number = tables[k % len(tables)].number
                    await hall.get(f"/api/v1/tables/1/{number}",
                                     headers={"Authorization": f"Bearer {tokens[number]}"})
                    reads += 1
                    await asyncio.sleep(10)

            wall = time.monotonic()
            client_cpu = time.process_time()
            listening = asyncio.ensure_future(probe())
            readers = [asyncio.ensure_future(reader(k)) for k in range(args.readers)]
            await asyncio.gather(*(table(t.number) for t in tables))
            await asyncio.sleep(max(0.0, stop - time.monotonic()))
            for r in readers:
                r.cancel()
            await asyncio.gather(*readers, return_exceptions=True)
            wall = time.monotonic() - wall
            client_cpu = time.process_time() - client_cpu
            # Results confirmed at the very end get a few more seconds to be heard of.
            await asyncio.wait(waiting, timeout=10) if waiting else None
            listening.cancel()
            unheard = sum(1 for w in waiting if not w.done())
            for w in waiting:
                w.cancel()
            server_cpu = cpu_of(server.pid) - cpu_before
    finally:
        watch.close()
        server.send_signal(2)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()

    conn = sqlite3.connect(path)
    lost = doubled = 0
    for t in tables:
        rows = [body for (body,) in conn.execute("SELECT body FROM venue_log WHERE table_id = ? AND kind = 'dgn' "
                                                 "ORDER BY rev", [t.id])]
        mine = acknowledged[t.number]
        lost += sum(1 for k, text in enumerate(mine) if k >= len(rows) or rows[k] != text)
        doubled += max(0, len(rows) - len(mine))
    results = conn.execute("SELECT COUNT(*) FROM results WHERE entered_via = 'table'").fetchone()[0]
    conn.close()
    moves = len(latencies)
    print(f"venue: {args.tables} tables posting a move a second, {args.readers} readers ({args.readers - args.live} "
          f"reading a table's state every 10 s, {args.live} following the public pages live), "
          f"{wall:.0f} s on {os.cpu_count()} cores")
    print(f"  accepted moves: {moves} ({moves / wall:.1f}/s); refused: {refused}; reads: {reads}")
    print(f"  latency of an accepted move: p50 {percentile(latencies, 50) * 1000:.1f} ms, "
          f"p99 {percentile(latencies, 99) * 1000:.1f} ms, max {max(latencies or [0]) * 1000:.1f} ms (goal: p99 < 100 ms)")
    print(f"  live delay, a result confirmed to a listener hearing of it: p50 {percentile(delays, 50) * 1000:.0f} ms, "
          f"p95 {percentile(delays, 95) * 1000:.0f} ms, max {max(delays or [0]) * 1000:.0f} ms over {len(delays)} "
          f"results{f' ({unheard} not heard of)' if unheard else ''} (goal: p95 < 2 s); the standings fetched "
          f"again {live_reads} times by {args.live} phones following live")
    print(f"  moves lost: {lost}; moves doubled: {doubled}; games confirmed: {confirmed} "
          f"({confirmed / wall * 60:.1f}/min; results in the event: {results})")
    per_move = server_cpu / max(1, moves + reads)
    print(f"  server CPU: {server_cpu:.2f} s, {server_cpu / max(1, moves) * 1000:.2f} ms per accepted move "
          f"(reads included), {per_move * 1000:.2f} ms per request; the benchmark's own clients, on the same "
          f"cores: {client_cpu:.2f} s")
    print(f"  reference, the same moves taken by the recorder in this process (domrec record's cost): "
          f"{local_cpu * 1000:.3f} ms per move")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--readers", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--live", type=int, default=None,
                        help="how many of the readers follow the public pages live (default: half); the others "
                             "read a table's state every 10 s")
    args = parser.parse_args()
    args.live = args.readers // 2 if args.live is None else max(0, min(args.live, args.readers))
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()

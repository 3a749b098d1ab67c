"""The venue server under a club's load, against 127.0.0.1 only, bounded in time.

    python benchmarks/bench_venue.py [--tables 100] [--readers 200] [--live N] [--seconds 60] [--seed 1]

What it does, in one run:

* makes an event of ``4 x --tables`` players (Competitive, rotating partners: one table of four
  per four players) and pairs round 1; simulates each table's game;
* starts ``tournament serve`` on a free port of 127.0.0.1 (``--rate`` and
  ``--connections-per-device`` high: every client here comes from the same address, where a
  hall's phones each have their own), its hall's pages in their own process on another free port
  (``--hall-port``), as ``serve`` runs by default (``--one-process``: the hall on the tables'
  port, in the tables' process);
* brings each table part of the way through its game first (not timed), so that the tables
  finish at different times: about ``--tables / 10`` of them a minute, as a club's do;
* then, for ``--seconds``: every table posts its next move once a second (each one a DGN word
  with the table's revision, and the key of the closed hands it holds, as the table page sends
  them: it is sent only the hands after them), a table whose game is over confirms
  it for both sides (the result then enters the event), and ``--readers`` readers read as the
  hall's phones do: ``--live`` of them (default: half) follow the public standings live as the
  pages' script does (a live stream open, and the standings' main region fetched again each
  time it says the page changed), from the hall's port; the others keep a table's state loaded
  (a read every 10 s, with the table's key: the tables' port);
* measures the live delay: from the moment the confirmation that enters a result is sent to
  the moment a listener on the live stream (``GET /live``) hears of a change at least as new
  as that result (the public pages' revision, read from the file once the confirmation is
  answered);
* afterwards reads the event file: every acknowledged move must be in its table's log exactly
  once, in order (lost: acknowledged but missing; doubled: there twice).

The clients are light on purpose (raw HTTP/1.1 over asyncio streams, on uvloop's event loop
where it is installed, the bodies written and read by orjson, one keep-alive connection a table
and a phone, no HTTP library), so that on a machine whose cores they share they measure the
server, not themselves; their CPU time is printed beside the server's.

It prints the latency of an accepted move (p50, p95, p99, max; goal p99 under 100 ms at 100
tables), the live delay (p50, p95, max; goal p95 under 2 s), moves lost and doubled, games
confirmed, how often the live phones fetched the standings (in all, per phone, per change of
the public pages), the server's CPU time per accepted move (reads included; goal 1 ms: the
tables' process and the hall's together, and each apart) and the clients' CPU time, and the reference measured in the same run: the CPU time per move of the
recorder taking the same moves in this process (:class:`domrec.session.Session`, what ``domrec
record`` does for each move typed), so a slower or busier machine shows in both.
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

import orjson

from domrec.session import Session, requests_for
from domrec.simulate import play_game

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.changes import STATUS_KINDS, latest_public_seq
from tournament.event.tables import table_record
from tournament.event.venue import links

HOST = "127.0.0.1"
#: Seconds a connection may stay idle before it is opened again (uvicorn closes it after 5).
IDLE = 3.0


def cpu_of(pid: int) -> float:
    """User and system CPU seconds of a process, all its threads."""
    return sum(cpu_split(pid))


def cpu_split(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of a process apart: the system's share is the sockets' and the
    disk's (each commit's flush), which no Python makes smaller."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


async def hall_of(pid: int) -> int:
    """The hall's process that ``serve`` (``pid``) started: its child."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == pid:
                    return int(entry.name)
        await asyncio.sleep(0.05)
    raise SystemExit("the server started no hall's process")


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def asked(keys: list[str]) -> str:
    """The query a table's page adds to its requests: the closed hands it holds (``?hands=KEY.N``),
    so that it is sent only the hands after them, as table.js does."""
    return f"?hands={keys[-1]}.{len(keys)}" if keys else ""


def keys_after(keys: list[str], game: dict | None) -> list[str]:
    """The closed hands' keys a page holds after an answer (the hands themselves are not kept:
    the benchmark needs only what it sends back)."""
    if not isinstance(game, dict):
        return keys
    return keys[: game.get("hands_from", 0)] + list(game.get("hands_keys", []))


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Connection:
    """One keep-alive HTTP/1.1 connection to the server: a request at a time, as a phone's."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.used = 0.0
        #: Over how long a live phone spreads its fetch after a change, as the stream says (s).
        self.spread = 0.4

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None

    async def _head(self, method: str, path: str, body: bytes | None, headers: dict[str, str]) -> tuple[int, dict]:
        if self.writer is not None and time.monotonic() - self.used > IDLE:
            self.close()  # the server closes an idle connection: a request is never sent into one it is closing
        if self.writer is None:
            await self._open()
        assert self.reader is not None and self.writer is not None
        lines = [f"{method} {path} HTTP/1.1", f"host: {HOST}:{self.port}"]
        lines += [f"{k}: {v}" for k, v in headers.items()]
        if body is not None:
            lines += ["content-type: application/json", f"content-length: {len(body)}"]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (body or b""))
        head = await self.reader.readuntil(b"\r\n\r\n")
        status_line, *fields = head[:-4].decode("latin-1").split("\r\n")
        found = {}
        for field in fields:
            name, _, value = field.partition(":")
            found[name.lower()] = value.strip()
        return int(status_line[9:12]), found

    async def request(self, method: str, path: str, data: dict | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
        body = None if data is None else orjson.dumps(data)
        try:
            status, found = await self._head(method, path, body, headers or {})
            assert self.reader is not None
            if found.get("transfer-encoding") == "chunked":
                content = b""
                while True:
                    size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                    content += (await self.reader.readexactly(size + 2))[:size]
                    if size == 0:
                        break
            else:
                content = await self.reader.readexactly(int(found.get("content-length", "0")))
            if found.get("connection") == "close":
                self.close()
            self.used = time.monotonic()
            return status, found, content
        except BaseException:
            self.close()
            raise

    async def events(self, path: str, stop: float):
        """The ``data`` of each Server-Sent Event of the stream at ``path`` until ``stop`` (the
        stream opened again when the server ends it)."""
        while time.monotonic() < stop:
            try:
                status, found = await self._head("GET", path, None, {"accept": "text/event-stream"})
                assert self.reader is not None and status == 200, status
                pending = b""
                while time.monotonic() < stop:
                    size = int((await self.reader.readuntil(b"\r\n")).strip(), 16)
                    chunk = (await self.reader.readexactly(size + 2))[:size]
                    if size == 0:
                        break
                    pending += chunk
                    while b"\n\n" in pending:
                        message, pending = pending.split(b"\n\n", 1)
                        kind = b"message"
                        for line in message.split(b"\n"):
                            if line.startswith(b"event:"):
                                kind = line[6:].strip()
                            elif line.startswith(b"data:") and kind == b"spread":
                                self.spread = int(line[5:].strip()) / 1000  # as live.js keeps it
                            elif line.startswith(b"data:"):
                                yield int(line[5:].strip())
            finally:
                self.close()


def night(path: Path, tables_: int, seed: int) -> tuple[list, dict[int, list], dict[int, str], float]:
    """The event both venue benchmarks play: ``tables_`` tables of Competitive seated for round 1,
    each table's game simulated as the requests its phone sends, the tables' keys, and the
    reference: the recorder (``domrec record``) taking the same moves in this process, CPU a move."""
    store = create_event(path, make_settings("Bench night", "competitive", "rotating", seed=seed))
    add_players(store, [f"Player {i}" for i in range(4 * tables_)])
    pair_next_round(store)
    players = {p.id: p for p in store.players()}
    tables = store.tables(1)
    games = {t.number: requests_for(play_game(table_record(store.settings, t, players),
                                              random.Random(seed + t.number)))
             for t in tables}
    tokens = {x["table"]: x["token"] for x in links(store, f"http://{HOST}")["tables"]}
    settings = store.settings
    store.close()
    started = time.process_time()
    moves = 0
    for t in tables[: min(20, len(tables))]:
        session = Session(table_record(settings, t, players))
        for text in games[t.number]:
            session.take(text)
            moves += 1
    return tables, games, tokens, (time.process_time() - started) / moves


async def run(args: argparse.Namespace, folder: Path) -> None:
    path = folder / "venue.db"
    tables, games, tokens, local_cpu = night(path, args.tables, args.seed)

    port = free_port()
    hall_port = port if args.one_process else free_port()  # where the public pages are read
    watch = open_event(path)  # the public pages' revision, read from the file as the server writes it
    hall_option = ["--one-process"] if args.one_process else ["--hall-port", str(hall_port)]
    server = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(port),
                               "--rate", "1000000", "--connections-per-device", "100000", *hall_option],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        for at in {port, hall_port}:
            while True:
                try:
                    socket.create_connection((HOST, at), timeout=1).close()
                    break
                except OSError:
                    if server.poll() is not None or time.monotonic() > deadline:
                        raise SystemExit(f"the server did not start: {server.stderr.read().decode()}")
                    await asyncio.sleep(0.05)
        hall_pid = None if args.one_process else await hall_of(server.pid)
        rng = random.Random(args.seed)
        acknowledged: dict[int, list[str]] = {t.number: [] for t in tables}
        revs: dict[int, int] = {t.number: 0 for t in tables}
        latencies: list[float] = []
        refused = confirmed = reads = live_reads = live_unchanged = 0  # live_reads: after a phone's first load
        heard: list[tuple[float, int]] = []  # (when, revision) of every change the probe listener heard
        news = asyncio.Event()
        delays: list[float] = []
        waiting: list[asyncio.Task] = []
        first_public = latest_public_seq(watch)
        # Each table and each phone has its own connection, as in a hall.
        conns = {t.number: Connection(port) for t in tables}

        held: dict[int, list[str]] = {t.number: [] for t in tables}  # each table's closed hands' keys

        phones = {t.number: f"{rng.getrandbits(128):032x}" for t in tables}  # each table's phone, as table.js names it
        written = dict.fromkeys(phones, 0)

        async def post(number: int, route: str, data: dict) -> tuple[int, dict]:
            written[number] += 1  # every write carries its own id, as the table page sends it (cid)
            data = {**data, "cid": f"{phones[number]}-{written[number]:x}"}
            status, _, body = await conns[number].request(
                "POST", f"/api/v1/tables/1/{number}/{route}{asked(held[number])}", data,
                {"authorization": f"Bearer {tokens[number]}"})
            answer = orjson.loads(body)
            held[number] = keys_after(held[number], answer.get("game") or (answer.get("state") or {}).get("game"))
            return status, answer

        # Part of the way through each game first (not timed): the tables finish at different times.
        for t in tables:
            steps = games[t.number]
            # Moves left uniform in 1..6 x tables: a tenth of the tables a minute end their game.
            left = min(len(steps), rng.randint(1, 6 * args.tables))
            for text in steps[: max(0, len(steps) - left)]:
                status, answer = await post(t.number, "dgn", {"rev": revs[t.number], "text": text})
                assert status == 200, answer
                revs[t.number] = answer["rev"]
                acknowledged[t.number].append(text)
        cpu_before = cpu_of(server.pid)
        split_before = cpu_split(server.pid)
        hall_before = cpu_split(hall_pid) if hall_pid else (0.0, 0.0)
        stop = time.monotonic() + args.seconds
        spy = None
        if args.profile:  # where the server's Python time goes (the thread holding the interpreter lock), sampled from outside
            spy = subprocess.Popen(["py-spy", "record", "--pid", str(server.pid), "--duration",
                                    str(int(args.seconds)), "--format", "raw", "--rate", "400", "--nonblocking", "--gil", "-o", args.profile],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        hall_spy = None
        if args.profile_hall and hall_pid:  # the same, of the hall's process
            hall_spy = subprocess.Popen(["py-spy", "record", "--pid", str(hall_pid), "--duration",
                                         str(int(args.seconds)), "--format", "raw", "--rate", "400", "--nonblocking",
                                         "--gil", "-o", args.profile_hall],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

        async def table(number: int) -> None:
            nonlocal refused, confirmed
            steps = games[number]
            await asyncio.sleep(rng.random())
            while time.monotonic() < stop:
                k = len(acknowledged[number])
                sent = time.perf_counter()
                if k < len(steps):
                    status, answer = await post(number, "dgn", {"rev": revs[number], "text": steps[k]})
                    if status == 200:
                        latencies.append(time.perf_counter() - sent)
                        revs[number] = answer["rev"]
                        acknowledged[number].append(steps[k])
                    else:
                        refused += 1
                else:
                    for side in ("NS", "EW"):
                        status, answer = await post(number, "confirm", {"rev": revs[number], "side": side})
                        if status != 200:
                            raise SystemExit(f"table {number}: confirmation refused: {answer}")
                        revs[number] = answer["rev"]
                    # The last confirmation entered the result: how long until the live stream says so?
                    waiting.append(asyncio.ensure_future(delay(sent, latest_public_seq(watch))))
                    confirmed += 1
                    return
                await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))

        async def delay(sent_at: float, seq: int) -> None:
            """Wait until the probe has heard of revision ``seq`` (or a later one)."""
            while True:
                found = next((when for when, heard_seq in heard if heard_seq >= seq), None)
                if found is not None:
                    delays.append(max(0.0, found - sent_at))
                    return
                news.clear()
                await news.wait()

        async def probe() -> None:
            async for seq in Connection(hall_port).events("/live", stop + 15):
                heard.append((time.perf_counter(), seq))
                news.set()

        async def reader(k: int) -> None:
            nonlocal reads, live_reads, live_unchanged
            await asyncio.sleep(rng.random() * 10)
            if k < args.live:  # a phone on the public pages: the live stream, the main region fetched again
                fetcher = Connection(hall_port)
                seq = 0
                try:
                    stream = Connection(hall_port)
                    async for now in stream.events("/live", stop):
                        if now != seq:
                            await asyncio.sleep(rng.random() * stream.spread)  # as live.js waits, so phones spread out
                            status, found, _ = await fetcher.request(
                                "GET", f"/standings?part=main&since={seq}", None, {"accept-encoding": "gzip"})
                            if seq:  # the first fetch is the page's first load, not a change heard of
                                live_reads += 1
                                live_unchanged += status == 204
                            seq = int(found.get("x-seq", now))
                finally:
                    fetcher.close()
                return
            number = tables[k % len(tables)].number
            conn = Connection(port)
            mine: list[str] = []  # the closed hands this phone holds, by their keys
            try:
                while time.monotonic() < stop:
                    _, _, body = await conn.request("GET", f"/api/v1/tables/1/{number}{asked(mine)}", None,
                                                    {"authorization": f"Bearer {tokens[number]}"})
                    mine = keys_after(mine, orjson.loads(body).get("game"))
                    reads += 1
                    await asyncio.sleep(10)
            finally:
                conn.close()

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
        tables_cpu = cpu_of(server.pid) - cpu_before
        user_cpu, system_cpu = (now - then for now, then in zip(cpu_split(server.pid), split_before))
        if hall_pid:
            hall_user, hall_system = (now - then for now, then in zip(cpu_split(hall_pid), hall_before))
            user_cpu, system_cpu = user_cpu + hall_user, system_cpu + hall_system
        hall_cpu = (cpu_of(hall_pid) - sum(hall_before)) if hall_pid else 0.0
        server_cpu = tables_cpu + hall_cpu
        # Results confirmed at the very end get a few more seconds to be heard of.
        await asyncio.wait(waiting, timeout=10) if waiting else None
        listening.cancel()
        unheard = sum(1 for w in waiting if not w.done())
        for w in waiting:
            w.cancel()
        for sampler in (spy, hall_spy):
            if sampler is not None:
                sampler.wait()
        public_changes = watch.conn.execute("SELECT COUNT(*) FROM changes WHERE seq > ? AND kind NOT IN (%s)"
                                            % ",".join("?" * len(STATUS_KINDS)),
                                            [first_public, *STATUS_KINDS]).fetchone()[0]
        for c in conns.values():
            c.close()
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
    print(f"  accepted moves: {moves} ({moves / wall:.1f}/s); refused: {refused}; table reads: {reads}")
    print(f"  latency of an accepted move: p50 {percentile(latencies, 50) * 1000:.1f} ms, "
          f"p95 {percentile(latencies, 95) * 1000:.1f} ms, p99 {percentile(latencies, 99) * 1000:.1f} ms, "
          f"max {max(latencies or [0]) * 1000:.1f} ms")
    print(f"  live delay, a result confirmed to a listener hearing of it: p50 {percentile(delays, 50) * 1000:.0f} ms, "
          f"p95 {percentile(delays, 95) * 1000:.0f} ms, max {max(delays or [0]) * 1000:.0f} ms over {len(delays)} "
          f"results{f' ({unheard} not heard of)' if unheard else ''} (goal: p95 < 2 s)")
    per_phone = live_reads / args.live if args.live else 0.0
    per_change = live_reads / args.live / public_changes if args.live and public_changes else 0.0
    print(f"  live phones: the standings fetched again {live_reads} times after their first load "
          f"({live_unchanged} answered 'unchanged'), "
          f"{per_phone:.1f} a phone, {per_change:.2f} a phone per change of the public pages "
          f"({public_changes} changes)")
    print(f"  moves lost: {lost}; moves doubled: {doubled}; games confirmed: {confirmed} "
          f"({confirmed / wall * 60:.1f}/min; results in the event: {results})")
    where = "one process" if args.one_process else (f"the tables' process {tables_cpu:.2f} s "
                                                      f"({tables_cpu / max(1, moves) * 1000:.2f} ms a move), the "
                                                      f"hall's {hall_cpu:.2f} s ({hall_cpu / max(1, moves) * 1000:.2f} "
                                                      f"ms a move)")
    print(f"  server CPU: {server_cpu:.2f} s, {server_cpu / max(1, moves) * 1000:.2f} ms per accepted move "
          f"(reads included; goal: 1 ms; {where}), of which {user_cpu / max(1, moves) * 1000:.2f} ms in the "
          f"server's own code and {system_cpu / max(1, moves) * 1000:.2f} ms in the system's (sockets, "
          f"flushes to disk); the benchmark's own clients, on the same cores: {client_cpu:.2f} s")
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
    parser.add_argument("--one-process", action="store_true",
                        help="serve --one-process: the hall's pages in the tables' process, on their port")
    parser.add_argument("--profile", metavar="FILE", help="sample the server with py-spy while the moves are timed "
                                                          "(its collapsed stacks, every thread, into FILE)")
    parser.add_argument("--profile-hall", metavar="FILE", help="sample the hall's process with py-spy alike")
    args = parser.parse_args()
    args.live = args.readers // 2 if args.live is None else max(0, min(args.live, args.readers))
    with tempfile.TemporaryDirectory() as folder:
        # The clients on uvloop's event loop where it is installed (the server's own): a lighter
        # client takes less of the cores it shares with the server it measures.
        try:
            import uvloop
        except ImportError:
            asyncio.run(run(args, Path(folder)))
        else:
            uvloop.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()

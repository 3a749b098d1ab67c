"""Where a table's move costs the tables' process its CPU, in parts measured apart.

    python benchmarks/bench_venue_split.py [--tables 100] [--moves 60] [--seconds 20] [--seed 1]

``bench_venue.py`` measures the server whole (uvicorn, the sockets, the tables' application, the
hall); this splits the tables' process's share of it:

* **the application alone**: :class:`tournament.web.app.VenueServer`'s ASGI application called in
  this process, no uvicorn, no socket: ``--tables`` tables post ``--moves`` moves each (the
  moves of a simulated game, a DGN word with the table's revision and the key of the closed
  hands it holds, as the table page sends them), all tables at once, through the light path and
  the venue's thread, each move committed to the event file as the server commits it; its CPU a
  move (this process's: the requests' making and reading here are a small part of it);
* **the tables' server over its sockets**: ``tournament serve``'s application and uvicorn settings
  in a process of their own, no hall, no readers; ``--tables`` keep-alive connections post their
  game's moves once a second each for ``--seconds`` (moves spread out as a hall's come, most of
  them committed on their own), its CPU a move: with a table's move answered by the connection itself
  (:meth:`tournament.web.app.VenueServer.light_request`), then with every request the ASGI way;
* **the machine's floor**: no uvicorn and no venue, a bare asyncio protocol on uvloop answering
  each POST with a fixed body the size of a move's answer, at once, then again once it has
  committed the request's body as a row of a SQLite file as the venue commits a move (WAL,
  SQLite's default ``synchronous``: the commit flushed to the disk before the answer);
  ``--tables`` keep-alive connections post once a second each for ``--seconds``: what a move
  costs this machine (the wake-up, the socket's read and write, the flush) whatever serves it;
* **uvicorn's own floor**: a server started with the venue's uvicorn settings
  (:func:`tournament.web.connections.config`: httptools, the header timeout, the writes of a turn
  sent together) whose application answers every POST at once with a fixed body the size of a
  move's answer (2,500 bytes), and again with that answer made on another thread and handed back
  as the venue's thread does; ``--tables`` keep-alive connections post once a second each for
  ``--seconds``, as ``bench_venue.py``'s tables do; the server's CPU a request.

And the reference measured in the same run, as ``bench_venue.py`` prints it: the recorder taking
the same moves in this process (:class:`domrec.session.Session`, ``domrec record``'s cost).  What
``bench_venue.py``'s tables' process spends a move beyond the two parts here is the rest: the
tables' reads, the results (a confirmation ranks the event again), commits made one by one where
here they are grouped, and a busier machine's caches.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_venue import HOST, Connection, asked, cpu_of, free_port, keys_after, night

from tournament.web import connections
from tournament.web.app import VenueServer

#: The floor's server: the venue's uvicorn settings, an application that answers at once.
FLOOR = r'''
import asyncio, queue, sys, threading
import uvicorn
from tournament.web import connections
BODY = b'{"x": "' + b"a" * 2490 + b'"}'
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]
jobs = queue.SimpleQueue()
def worker():
    while True:
        loop, future = jobs.get()
        loop.call_soon_threadsafe(future.set_result, BODY)
threading.Thread(target=worker, daemon=True).start()
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    more = True
    while more:
        more = (await receive()).get("more_body", False)
    body = BODY
    if sys.argv[2] == "thread":
        future = asyncio.get_running_loop().create_future()
        jobs.put((asyncio.get_running_loop(), future))
        body = await future
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": body})
connections.collect_less()
uvicorn.Server(connections.config(app, host="127.0.0.1", port=int(sys.argv[1]), per_address=10 ** 6)).run()
'''

#: The machine's floor (``bare``): no uvicorn and no venue, a bare asyncio protocol on uvloop that
#: answers each POST with the same fixed body once (``commit``) it has committed the request's body
#: as a row of a SQLite file in WAL mode with SQLite's default ``synchronous`` (the venue's: each
#: commit flushed to the disk before the answer), or at once (``sockets``).  What is left is what a
#: move costs the machine whatever serves it: the loop's wake-up as the request comes, the socket's
#: read and write, and the commit's flush.
BARE = r"""
import asyncio, sqlite3, sys
import uvloop
port, mode, path = int(sys.argv[1]), sys.argv[2], sys.argv[3]
BODY = b'{"x": "' + b"a" * 2490 + b'"}'
ANSWER = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: %d\r\n\r\n" % len(BODY) + BODY
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE IF NOT EXISTS log(n INTEGER PRIMARY KEY, body BLOB)")
class Bare(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport, self.kept = transport, b""
    def data_received(self, data):
        self.kept += data
        while True:
            head, found, rest = self.kept.partition(b"\r\n\r\n")
            if not found:
                return
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value)
            if len(rest) < length:
                return
            body, self.kept = rest[:length], rest[length:]
            if mode == "commit":
                db.execute("BEGIN IMMEDIATE")
                db.execute("INSERT INTO log(body) VALUES (?)", (body,))
                db.execute("COMMIT")
            self.transport.write(ANSWER)
async def main():
    server = await asyncio.get_running_loop().create_server(Bare, "127.0.0.1", port)
    await server.serve_forever()
uvloop.run(main())
"""

#: The tables' server over its sockets (``served``): the venue's application and uvicorn settings,
#: its hot requests answered by the connection itself (``light``) or every request the ASGI way.
SERVED = r'''
import sys
from pathlib import Path
import uvicorn
from tournament.web import connections
from tournament.web.app import VenueServer
path, port, mode = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
server = VenueServer(path, base_url=f"http://127.0.0.1:{port}", rate=1e9, burst=10 ** 9, hall_port=port + 1)
server.light_below = mode == "light"
connections.collect_less()
uvicorn.Server(connections.config(server.asgi, host="127.0.0.1", port=port, per_address=10 ** 6)).run()
'''


def application_alone(args: argparse.Namespace, folder: Path) -> tuple[int, float, float]:
    """The moves timed, this process's CPU a move, and the recorder's reference a move."""
    path = folder / "split.db"
    tables, games, tokens, reference = night(path, args.tables, args.seed)

    server = VenueServer(path, base_url=f"http://{HOST}:9", rate=1e9, burst=10 ** 9, hall_port=10)
    connections.collect_less()  # as `tournament serve` does once it has started
    revs = {t.number: 0 for t in tables}
    held: dict[int, list[str]] = {t.number: [] for t in tables}
    rng = random.Random(args.seed)

    async def post(number: int) -> None:
        data = json.dumps({"rev": revs[number], "text": games[number][revs[number]]}).encode()
        where = f"/api/v1/tables/1/{number}/dgn"
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST",
                 "scheme": "http", "path": where, "raw_path": where.encode(), "root_path": "",
                 "query_string": asked(held[number]).lstrip("?").encode(),
                 "client": (HOST, 50000), "server": (HOST, 9),
                 "headers": [(b"host", f"{HOST}:9".encode()),
                             (b"authorization", f"Bearer {tokens[number]}".encode()),
                             (b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]}
        given = False

        async def receive() -> dict:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": data, "more_body": False}
            await asyncio.Event().wait()  # (the client never goes away)
            return {}

        sent: list[dict] = []

        async def send(message: dict) -> None:
            sent.append(message)

        await server.asgi(scope, receive, send)
        assert sent[0]["status"] == 200, sent
        answer = json.loads(sent[1]["body"])
        revs[number] = answer["rev"]
        held[number] = keys_after(held[number], answer.get("game"))

    async def table(number: int, count: int, done: list[int]) -> None:
        for _ in range(count):
            if revs[number] >= len(games[number]):
                return
            await post(number)
            done[0] += 1
            await asyncio.sleep(rng.random() / 1000)

    async def run() -> tuple[int, float]:
        await asyncio.gather(*(table(t.number, 20, [0]) for t in tables))  # every table's game made first
        done = [0]
        started = time.process_time()
        await asyncio.gather(*(table(t.number, args.moves, done) for t in tables))
        return done[0], (time.process_time() - started) / max(1, done[0])

    try:
        moves, cpu = asyncio.run(run())
    finally:
        server.close()
    return moves, cpu, reference


async def listening(server: subprocess.Popen, port: int, seconds: float, what: str) -> None:
    """Wait until ``server`` takes connections on ``port`` (at most ``seconds``; it may have died)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            await asyncio.open_connection(HOST, port)
            return
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{what} did not start") from None
            await asyncio.sleep(0.1)


async def floor(args: argparse.Namespace, mode: str, script: str = FLOOR, *more: str) -> tuple[int, float]:
    """Requests answered, the floor server's CPU a request (``script``: uvicorn's floor, or the
    machine's, :data:`BARE`, with ``more`` arguments)."""
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", script, str(port), mode, *more])
    try:
        await listening(server, port, 30, "the floor's server")
        stop = time.monotonic() + args.seconds
        answered = [0]
        rng = random.Random(args.seed)

        async def client() -> None:
            connection = Connection(port)
            await asyncio.sleep(rng.random())
            while time.monotonic() < stop:
                sent = time.monotonic()
                status, _, _ = await connection.request("POST", "/api/v1/tables/1/1/dgn", {"rev": 1, "text": "N 6-6"})
                assert status == 200, status
                answered[0] += 1
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - sent)))
            connection.close()

        await asyncio.sleep(0.5)
        before = cpu_of(server.pid)
        await asyncio.gather(*(client() for _ in range(args.tables)))
        return answered[0], (cpu_of(server.pid) - before) / max(1, answered[0])
    finally:
        server.terminate()
        server.wait()


async def served(args: argparse.Namespace, folder: Path, mode: str) -> tuple[int, float]:
    """Moves taken, the tables' server's CPU a move: ``--tables`` tables post their game's moves
    one a second each over keep-alive connections, for ``--seconds`` (no readers, no results, no
    hall: moves spread out as a hall's), to a server whose hot requests go ``mode``'s way."""
    path = folder / f"{mode}.db"
    tables, games, tokens, _ = night(path, args.tables, args.seed)
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", SERVED, str(path), str(port), mode])
    try:
        await listening(server, port, 60, "the tables' server")
        stop = time.monotonic() + args.seconds
        taken = [0]
        rng = random.Random(args.seed)

        async def table(number: int) -> None:
            connection = Connection(port)
            rev, held = 0, []
            await asyncio.sleep(rng.random())
            while time.monotonic() < stop and rev < len(games[number]):
                sent = time.monotonic()
                status, _, content = await connection.request(
                    "POST", f"/api/v1/tables/1/{number}/dgn{asked(held)}", {"rev": rev, "text": games[number][rev]},
                    {"authorization": f"Bearer {tokens[number]}"})
                assert status == 200, (status, content)
                answer = json.loads(content)
                rev, held = answer["rev"], keys_after(held, answer.get("game"))
                taken[0] += 1
                await asyncio.sleep(max(0.0, 1.0 - (time.monotonic() - sent)))
            connection.close()

        await asyncio.sleep(0.5)
        before = cpu_of(server.pid)
        await asyncio.gather(*(table(t.number) for t in tables))
        return taken[0], (cpu_of(server.pid) - before) / max(1, taken[0])
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=60, help="moves each table posts to the application alone")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the floor's connections post")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        moves, app_cpu, reference = application_alone(args, Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        bare = asyncio.run(floor(args, "sockets", BARE, str(Path(folder) / "bare.db")))
        committed = asyncio.run(floor(args, "commit", BARE, str(Path(folder) / "bare.db")))
    plain = asyncio.run(floor(args, "plain"))
    handed = asyncio.run(floor(args, "thread"))
    with tempfile.TemporaryDirectory() as folder:
        light = asyncio.run(served(args, Path(folder), "light"))
        asgi = asyncio.run(served(args, Path(folder), "asgi"))
    print(f"the tables' process, split: {args.tables} tables")
    print(f"  the application alone (no uvicorn, no socket): {moves} moves, {app_cpu * 1000:.3f} ms of CPU a move "
          f"({app_cpu / reference:.1f} times the reference)")
    print(f"  the machine's floor (no uvicorn, no venue: a bare asyncio protocol on uvloop, a request a second on "
          f"each of {args.tables} connections): {bare[1] * 1000:.3f} ms a request answered at once ({bare[0]} "
          f"requests), {committed[1] * 1000:.3f} ms with a row committed to a SQLite file first, as a move is "
          f"({committed[0]} requests)")
    print(f"  uvicorn's own floor (a fixed answer, a request a second on each of {args.tables} connections): "
          f"{plain[1] * 1000:.3f} ms a request ({plain[0]} requests); the answer made on another thread: "
          f"{handed[1] * 1000:.3f} ms ({handed[0]} requests)")
    print(f"  the tables' server over its sockets, moves spread out (a move a second on each of {args.tables} "
          f"connections): {light[1] * 1000:.3f} ms a move with a table's move answered by the connection itself "
          f"({light[0]} moves), {asgi[1] * 1000:.3f} ms the ASGI way ({asgi[0]} moves)")
    print(f"  reference, the same moves taken by the recorder in this process (domrec record's cost): "
          f"{reference * 1000:.3f} ms per move")


if __name__ == "__main__":
    main()

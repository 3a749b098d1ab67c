"""The public JSON feed polled by a crowd that ignores caching, while tables play: this code
beside the code before the feed was kept in memory, in one run, against 127.0.0.1 only.

    python benchmarks/bench_feed.py [--teams 248] [--tables 10] [--followers 50] [--every 1]
                                    [--seconds 15] [--quiet 5] [--seed 1] [--reference 8aa26d7a^]
                                    [--one-process]

What it does, in one run, bounded in time (about a minute and a half by default on 2 cores, half a
minute or more of it making the event):

* makes a duplicate teams event of ``--teams`` teams (``tournament simulate --format teams
  --duplicate``, in this process: 248 teams play 248 tables a round, two boards each, five rounds,
  every board played from its deal and entered as its record: 2,480 board results), then takes
  back (``tournament clear --board``) both boards of round 5 at ``--tables`` of its tables, spread
  over the room (2,460 results left), so that those tables play them again at the venue, and
  brings each of them part of the way through its first board (not timed, in this process) so
  that their boards end, and their results enter, at different moments of the run;
* the reference first, then this code, each on its own copy of that file: ``tournament serve`` on
  free ports of 127.0.0.1 (``--rate`` and ``--connections-per-device`` high: every client here
  comes from one address; the hall's pages in their own process, as ``serve`` runs by default, or
  ``--one-process``).  The reference is the code of ``--reference`` (a commit, ``git archive``'d
  into a temporary folder and put first on ``PYTHONPATH``; by default the commit before the feed
  was made once per change, when each request without a matching ETag made it again);
  ``--reference none`` serves this code alone;
* with each server: for ``--quiet`` seconds the tables alone post a move a second each (a DGN word
  with the table's revision, as the table page sends it; a board over is confirmed by both sides
  and the next one started, as the phones do); then, for ``--seconds`` more, ``--followers``
  programs poll ``GET /api/v1/standings`` on the hall's port, each on its own keep-alive
  connection, once every ``--every`` seconds (the next asked when the answer is in and the
  second is up), with no ``If-None-Match`` and no ``Accept-Encoding``: a program that ignores
  caching, the worst case the hall meets.  A request still unanswered when the time is up is
  counted as such, not waited for.  "This code" is the code this file is run with (its folder's
  ``tournament``, first on the server's ``PYTHONPATH``).  A write the server cannot take (a
  fault of its own) ends the run with the line of the server's log that says why.

It prints, side by side for the two servers: the standings answered (and any other status), the
time a follower waited for an answer (p50, p95, max), the hall's CPU time per answer (every
thread of its process while the followers poll, divided by the answers; with ``--one-process``,
the one process's, the tables' moves in it), and the latency of the tables' accepted moves (p50,
p95, p99, max) without followers and with them: what the tables meet.  Beside them, measured in
this process on the same file in the same run: the computation of the answer alone
(:func:`tournament.event.feed.published_standings`, this code's), CPU and wall time.  The load
average is printed first and last: the machine's other work shows in every figure.

``tests/test_bench_feed_smoke.py`` runs it with a few teams and seconds (that it runs to its end and
prints its table; never its times).
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
from dataclasses import dataclass, field
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_venue import HOST, Connection, cpu_of, hall_of, percentile  # noqa: E402  (the same clients)

from tournament import open_event  # noqa: E402
from tournament.event import duplicate, feed  # noqa: E402
from tournament.event.simulate import simulate_duplicate  # noqa: E402
from tournament.event.venue import Venue, links  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
#: The code before the feed was made once per change of the event (commit 8aa26d7a).
REFERENCE = "8aa26d7a^"
#: Moves of its first board a reopened table has played before the run, at most (a board is some 25).
AHEAD = 20


class ServerFault(Exception):
    """A write the server could not take (a 5xx, or a refusal the tables' moves never meet)."""


@dataclass
class Served:
    """What one server met in its turn."""

    name: str
    answers: int = 0
    other: dict[int, int] = field(default_factory=dict)  # statuses other than 200, counted
    waits: list[float] = field(default_factory=list)  # a follower's wait for an answer, s
    body: int = 0  # the standings' size, bytes
    hall_cpu: float = 0.0  # s, while the followers poll
    quiet: list[float] = field(default_factory=list)  # the tables' accepted moves, s: no followers
    polled: list[float] = field(default_factory=list)  # the same with the followers polling
    refused: int = 0
    unanswered: int = 0  # the followers' requests still unanswered when the time was up
    confirmed: int = 0  # boards confirmed by both sides (each a result entered: the feed changes)
    changes: int = 0  # the event's changes while the followers polled (each a new answer for the cache)


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def make_event(path: Path, teams: int, tables: int, seed: int) -> tuple[int, list[int], dict[int, str], int]:
    """The event both servers serve (see the docstring): its last round, the tables reopened, the
    round's tables' keys, and the board results it holds."""
    simulate_duplicate(path, "competitive", 3, None, seed, teams=teams)  # (3 tables: unused where teams are given)
    store = open_event(path)
    try:
        last = store.last_round()
        numbers = [t.number for t in store.tables(last)]
        step = max(1, len(numbers) // max(1, tables))
        chosen = numbers[::step][:tables]
        venue = Venue(store)
        for number in chosen:
            for board in venue.state(last, number)["boards"]:
                duplicate.clear_board(store, last, number, board, "benchmark: the table plays it again at the venue",
                                      by="bench_feed")
        rng = random.Random(seed)
        for number in chosen:  # part of the way through the first board: the boards end at different times
            state = venue.record(last, number, venue.state(last, number)["rev"], "hand 1")
            for _ in range(rng.randint(0, AHEAD)):
                if state["game"]["over"]:
                    break
                state = venue.record(last, number, state["rev"], next_move(state, rng))
        tokens = {x["table"]: x["token"] for x in links(store, f"http://{HOST}")["tables"]}
        results = store.conn.execute("SELECT COUNT(*) FROM board_results").fetchone()[0]
    finally:
        store.close()
    return last, chosen, tokens, results


def next_move(state: dict, rng: random.Random) -> str:
    """A legal move, chosen (seeded), or ``y`` where the hand's end is to be agreed."""
    legal = state["game"]["legal"]
    return rng.choice(legal)["text"] if legal else "y"


def computation(path: Path, rounds: int = 5) -> tuple[float, float]:
    """The standings' answer computed in this process on the same file (this code): the best CPU
    and wall seconds of ``rounds``."""
    store = open_event(path)
    try:
        cpu, wall = [], []
        for _ in range(rounds):
            c, w = time.process_time(), time.perf_counter()
            feed.published_standings(store)
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - w)
    finally:
        store.close()
    return min(cpu), min(wall)


def copy(source: Path, target: Path) -> None:
    """The event file copied by SQLite (each server gets the same event)."""
    src, dst = sqlite3.connect(source), sqlite3.connect(target)
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()


def reference_tree(commit: str, folder: Path) -> Path:
    """The code of ``commit``, unpacked from the project's git history."""
    tree = folder / "reference"
    tree.mkdir()
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", commit], capture_output=True)
        why = archive.stderr.decode().strip() if archive.returncode else None
    except FileNotFoundError:
        why = "git is not installed"
    if why is not None:
        raise SystemExit(f"error: the reference {commit} cannot be taken from the project's git history ({why}): "
                         f"run from a whole clone, or --reference none")
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def short(commit: str) -> str:
    found = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", commit], capture_output=True, text=True)
    return found.stdout.strip() or commit


def ports(count: int) -> list[int]:
    """``count`` free ports of 127.0.0.1, each another (held together while they are chosen)."""
    held = [socket.socket() for _ in range(count)]
    try:
        for s in held:
            s.bind((HOST, 0))
        return [s.getsockname()[1] for s in held]
    finally:
        for s in held:
            s.close()


def stop(server: subprocess.Popen) -> None:
    server.send_signal(2)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


async def start(name: str, tree: Path, event: Path, args: argparse.Namespace,
                folder: Path) -> tuple[subprocess.Popen, int, int, Path]:
    """``tournament serve`` of the code in ``tree`` on ``event``, listening: the process, its port,
    the hall's port and its log.  A port taken by another program between its choice and the
    server's start (tests run side by side) is chosen again."""
    log = folder / f"{event.stem}.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])}
    for _ in range(5):
        port, hall_port = (ports(1) * 2) if args.one_process else ports(2)
        option = ["--one-process"] if args.one_process else ["--hall-port", str(hall_port)]
        with open(log, "wb") as err:  # the server's log (a file: a pipe nobody reads could fill and hold it up)
            server = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(event), "--port",
                                       str(port), "--rate", "1000000", "--connections-per-device", "100000", *option],
                                      cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=err)
        deadline = time.monotonic() + 60
        waiting = [port, hall_port]
        while waiting and server.poll() is None and time.monotonic() < deadline:
            try:
                socket.create_connection((HOST, waiting[0]), timeout=1).close()
                waiting.pop(0)
            except OSError:
                await asyncio.sleep(0.05)
        if not waiting and server.poll() is None:
            return server, port, hall_port, log
        stop(server)
        lines = log.read_text(errors="replace").strip().splitlines()
        if not lines or "already in use" not in lines[-1]:
            raise SystemExit(f"error: the {name} server did not start: {lines[-1] if lines else '?'}")
    raise SystemExit(f"error: the {name} server did not start: no free port was found in five tries")


async def serve(name: str, tree: Path, event: Path, last: int, chosen: list[int], tokens: dict[int, str],
                args: argparse.Namespace, folder: Path) -> Served:
    """``tournament serve`` of the code in ``tree`` on ``event``, measured (see the docstring)."""
    server, port, hall_port, log = await start(name, tree, event, args, folder)
    try:
        hall_pid = server.pid if args.one_process else await hall_of(server.pid)
        warm = Connection(hall_port)  # the hall's first answer (its modules loaded, its reader opened): not timed
        status, _, _ = await warm.request("GET", "/api/v1/standings")
        warm.close()
        if status != 200:
            raise SystemExit(f"error: the {name} server answered the standings {status}")
        try:
            return await asyncio.wait_for(measure(name, port, hall_port, hall_pid, event, last, chosen, tokens, args),
                                          args.quiet + args.seconds + 120)
        except ServerFault as e:
            said = [line for line in log.read_text(errors="replace").splitlines() if line and not line[0].isspace()]
            raise SystemExit(f"error: {name}: {e}" + (f" (its log: {said[-1]})" if said else ""))
    finally:
        stop(server)


async def measure(name: str, port: int, hall_port: int, hall_pid: int, event: Path, last: int, chosen: list[int],
                  tokens: dict[int, str], args: argparse.Namespace) -> Served:
    out = Served(name)
    begun = time.monotonic()
    polled_from = begun + args.quiet
    end = polled_from + args.seconds
    # The event's changes, read from the file as the server writes it (by SQLite alone, read-only:
    # this code never opens the file the reference serves as an event).
    watch = sqlite3.connect(f"file:{event}?mode=ro", uri=True)

    async def table(number: int) -> None:
        rng = random.Random(args.seed * 1000 + number)  # the same moves on both servers
        conn = Connection(port)
        url = f"/api/v1/tables/{last}/{number}"
        auth = {"authorization": f"Bearer {tokens[number]}"}

        async def post(route: str, data: dict) -> tuple[int, dict]:
            status, _, body = await conn.request("POST", url + route, data, auth)
            return status, orjson.loads(body)

        try:
            _, _, body = await conn.request("GET", url, None, auth)
            state = orjson.loads(body)
            await asyncio.sleep(rng.random())
            while time.monotonic() < end and state["status"] != "confirmed":
                sent = time.perf_counter()
                if state["status"] == "waiting":  # the board is over: both sides confirm it
                    for side in ("NS", "EW"):
                        status, answer = await post("/confirm", {"rev": state["rev"], "side": side})
                        if status != 200:
                            raise ServerFault(f"round {last} table {number}: a confirmation answered {status}: "
                                              f"{answer.get('error')}")
                        state = answer
                    out.confirmed += 1
                else:
                    started = state["status"] != "not started" and state.get("game") and state["game"]["hand"]
                    text = next_move(state, rng) if started else "hand 1"
                    status, answer = await post("/dgn", {"rev": state["rev"], "text": text})
                    if status == 200:
                        (out.polled if time.monotonic() >= polled_from else out.quiet).append(
                            time.perf_counter() - sent)
                        state = answer
                    elif status >= 500:
                        raise ServerFault(f"round {last} table {number}: a move answered {status}: "
                                          f"{answer.get('error')}")
                    else:
                        out.refused += 1
                        _, _, body = await conn.request("GET", url, None, auth)
                        state = orjson.loads(body)
                await asyncio.sleep(max(0.0, 1.0 - (time.perf_counter() - sent)))
        finally:
            conn.close()

    async def follower(k: int) -> None:
        conn = Connection(hall_port)
        rng = random.Random(k)
        try:
            await asyncio.sleep(max(0.0, polled_from - time.monotonic()) + rng.random() * args.every)
            while time.monotonic() < end:
                sent = time.perf_counter()
                try:  # no ETag, no gzip; a request still unanswered when the time is up is left
                    status, _, body = await asyncio.wait_for(conn.request("GET", "/api/v1/standings"),
                                                             max(0.001, end - time.monotonic()))
                except asyncio.TimeoutError:
                    out.unanswered += 1
                    return
                out.waits.append(time.perf_counter() - sent)
                if status == 200:
                    out.answers += 1
                    out.body = len(body)
                else:
                    out.other[status] = out.other.get(status, 0) + 1
                await asyncio.sleep(max(0.0, args.every - (time.perf_counter() - sent)))
        finally:
            conn.close()

    tables = [asyncio.ensure_future(table(n)) for n in chosen]
    followers = [asyncio.ensure_future(follower(k)) for k in range(args.followers)]
    try:
        await asyncio.sleep(max(0.0, polled_from - time.monotonic()))
        cpu_before = cpu_of(hall_pid)
        seq_before = watch.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()[0]
        await asyncio.gather(*followers)
        await asyncio.sleep(max(0.0, end - time.monotonic()))
        out.hall_cpu = cpu_of(hall_pid) - cpu_before
        out.changes = watch.execute("SELECT COALESCE(MAX(seq), 0) FROM changes").fetchone()[0] - seq_before
        await asyncio.gather(*tables)
    finally:
        for task in tables + followers:
            task.cancel()
        await asyncio.gather(*tables, *followers, return_exceptions=True)
        watch.close()
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def report(sides: list[Served], args: argparse.Namespace, alone: tuple[float, float]) -> None:
    columns = [s.name for s in sides]
    rows: list[tuple[str, list[str]]] = [
        ("standings answered", [f"{s.answers} ({s.answers / args.seconds:.1f}/s)"
                                + "".join(f", {n} x {code}" for code, n in sorted(s.other.items()))
                                + (f", {s.unanswered} unanswered at the end" if s.unanswered else "")
                                for s in sides]),
        ("a follower's wait: p50 / p95 / max, ms", [f"{ms(percentile(s.waits, 50))} / {ms(percentile(s.waits, 95))} / "
                                                   f"{ms(max(s.waits or [0]))}" for s in sides]),
        (("the server's CPU an answer, ms" if args.one_process else "the hall's CPU an answer, ms"),
         [f"{ms(s.hall_cpu / max(1, s.answers))} ({s.hall_cpu:.1f} s in all)" for s in sides]),
        ("a move, tables alone: p50 / p95 / p99 / max, ms",
         [f"{ms(percentile(s.quiet, 50))} / {ms(percentile(s.quiet, 95))} / {ms(percentile(s.quiet, 99))} / "
          f"{ms(max(s.quiet or [0]))}" for s in sides]),
        ("a move, followers polling: p50 / p95 / p99 / max, ms",
         [f"{ms(percentile(s.polled, 50))} / {ms(percentile(s.polled, 95))} / {ms(percentile(s.polled, 99))} / "
          f"{ms(max(s.polled or [0]))}" for s in sides]),
        ("moves (tables alone + polling), refused", [f"{len(s.quiet)} + {len(s.polled)}, {s.refused}" for s in sides]),
        ("boards confirmed; changes while polled", [f"{s.confirmed}; {s.changes}" for s in sides]),
    ]
    width = max(len(label) for label, _ in rows) + 2
    cell = max(len(c) for c in columns + [v for _, values in rows for v in values]) + 2
    print(f"{'':<{width}}" + "".join(f"{c:>{cell}}" for c in columns))
    for label, values in rows:
        print(f"{label:<{width}}" + "".join(f"{v:>{cell}}" for v in values))
    print(f"the answer computed alone in this process (feed.published_standings, this code, best of 5): "
          f"{ms(alone[0])} ms CPU, {ms(alone[1])} ms wall; the answer is {sides[-1].body:,} bytes")


async def run(args: argparse.Namespace, folder: Path) -> None:
    print(f"bench_feed: load average {load()} on {os.cpu_count()} cores")
    servers: list[tuple[str, Path]] = []
    if args.reference != "none":  # (first: a reference not found is said before the event is made)
        servers.append((f"{short(args.reference)} (reference)", reference_tree(args.reference, folder)))
    servers.append(("this code", ROOT))
    master = folder / "event.db"
    started = time.perf_counter()
    last, chosen, tokens, results = make_event(master, args.teams, args.tables, args.seed)
    tables_a_round = len(tokens)
    print(f"event: {args.teams} duplicate teams, {tables_a_round} tables a round, {last} rounds, {results:,} board "
          f"results; {len(chosen)} tables of round {last} playing again at the venue (made in "
          f"{time.perf_counter() - started:.0f} s)")
    alone = computation(master)
    if args.reference != "none":
        print(f"the reference first: {args.reference}, {short(args.reference)}"
              + (" (the feed made again for each request without a matching ETag)" if args.reference == REFERENCE
                 else ""))
    print(f"{args.followers} followers polling /api/v1/standings every {args.every:g} s without an ETag or gzip for "
          f"{args.seconds:g} s, after {args.quiet:g} s of the tables alone; "
          f"{'one process' if args.one_process else 'the hall in its own process'}; each server in turn")
    sides = []
    for k, (name, tree) in enumerate(servers):
        event = folder / f"served{k}.db"
        copy(master, event)
        sides.append(await serve(name, tree, event, last, chosen, tokens, args, folder))
    report(sides, args, alone)
    print(f"load average after the run: {load()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--teams", type=int, default=248, help="teams of the event (a table a team each round)")
    parser.add_argument("--tables", type=int, default=10, help="tables of the last round playing at the venue")
    parser.add_argument("--followers", type=int, default=50, help="programs polling the standings")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between a follower's polls")
    parser.add_argument("--seconds", type=float, default=15.0, help="seconds the followers poll, each server")
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds of the tables alone before, each server")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--reference", default=REFERENCE,
                        help=f"the commit to serve beside this code (default {REFERENCE}: before the feed was kept "
                             f"in memory), or none")
    parser.add_argument("--one-process", action="store_true",
                        help="serve --one-process: the hall's pages in the tables' process")
    args = parser.parse_args()
    if args.teams < 2 or args.tables < 1 or args.followers < 0 or args.every <= 0 or args.seconds <= 0 \
            or args.quiet < 0:
        parser.error("--teams 2 or more, --tables 1 or more, --followers 0 or more, --every and --seconds above 0")
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args, Path(folder)))


if __name__ == "__main__":
    main()

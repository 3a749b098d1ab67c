"""A hall whose Wi-Fi drops: every table goes on offline, then all come back at once.

    python benchmarks/bench_reconnect.py [--tables 100] [--offline 120] [--every 3] [--moves 10]
                                         [--conflicts 3] [--seed 1] [--whole-answers] [--from-start]

What it does, in one run, against 127.0.0.1 only, bounded in time:

* makes an event of ``4 x --tables`` players (Competitive, rotating partners) and pairs round 1;
  simulates each table's game;
* starts ``tournament serve`` on a free port with its own guards as in a hall (the rate limit and
  the connections a device, both by default): each table's phone comes from an address of its own
  (127.0.x.y: the whole of 127/8 is this computer), as the hall's phones each have theirs;
* **online**: each table plays ``--moves`` moves as the table page sends them (a DGN word, the
  table's revision, the write's own id ``cid``, the closed hands it holds in ``?hands=``), one after
  another, the next once the answer is in;
* **offline** for ``--offline`` seconds (real time): the phones go on playing, a move every
  ``--every`` seconds or so (half to one and a half times it), each write kept in the phone's
  outbox as ``table.js`` keeps it: ``{rev, text, cid, at}``, ``rev`` the revision the write will
  make (one more each), ``at`` the phone's clock.  Meanwhile, on ``--conflicts`` tables, another
  phone (online) writes two moves, the first with a comment of its own: those tables' queued
  writes no longer fit (the very same line the other phone recorded first would be taken);
* **back online, all at once**: each phone sends its outbox as ``table.js``'s ``sendQueued`` does:
  in order, one write at a time on its connection, the next once the answer is in, each naming
  the closed hands the page holds (``?hands=``; ``--whole-answers``: without, as the page sent them
  before, each answered the whole table); a write unanswered within 10 s, a
  connection lost, a 429 or a 5xx is "no answer": the rest wait for the next try (after 1 s, then
  2, 4, … up to 30 s, or the page's five-second refresh if it comes first and the server answers
  it); after a refusal the writes made after it are not sent (listed, to retype or drop); when
  all are sent, the table is read once more.  Deterministic variations, by the table's number:

  - ``lost``: the answer of the first write flushed is lost on the way back (the server answered;
    the phone never heard it): the same write sent again, its answer compared with the first;
  - ``cut``: the first write flushed has its connection cut before any answer (the server may or
    may not have taken it): sent again;
  - ``half``: the first write flushed has its connection cut halfway through its body (the server
    cannot have taken it): sent again;
  - ``drop``: the Wi-Fi dropped just as the last move made online was answered: the phone kept it
    in its outbox (its ``cid`` and ``rev`` as sent, ``at`` added), so the first write flushed is
    one the server already holds;
  - ``twice``: the whole outbox sent again once it is all sent (the same ids);
  - ``tabs``: the table's page open in two tabs of the phone, both sending the same outbox (the
    browser's storage is shared) at once, each on its own connection;
  - ``conflict`` (``--conflicts`` of them): another phone wrote meanwhile.

It reports the time from "back online" until every queued move is stored (per table: p50, p99,
max; the whole hall), the writes stored a second, the requests sent (retries included) and their
answers by status, and afterwards reads the event file: each table's log must be exactly the moves
acknowledged or queued (online, offline, the other phone's), once each and in order (lost: missing,
doubled: there twice), each queued write's ``at`` kept as sent; the director's page must count the
moves sent that were made offline (taken, refused).  Every retried id must be answered alike: the
same status and words, and, when nothing was written to the table in between, the very same answer.
A conflict's refusals are counted (the first queued write refused by the server, the rest not sent)
and the table's log holds everything else.  The server's CPU time per write stored (the tables'
process and the hall's, from "back online" until every table is done), the clients' CPU time
apart, and the reference measured in the same run: the recorder taking the same moves in this
process (what ``domrec record`` costs a move).

``run_hall`` is the benchmark's core, which ``tests/tournament/test_venue_reconnect.py`` runs with
a few tables and seconds (its counts, never its times).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import json
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_venue import HOST, Connection, cpu_split, percentile  # noqa: E402  (the same clients and counts)

from domrec.session import Session, requests_for  # noqa: E402
from domrec.simulate import play_game  # noqa: E402

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402
from tournament.event.tables import table_record  # noqa: E402
from tournament.event.venue import Venue, links  # noqa: E402

#: A request unanswered this long: the server taken as out of reach (table.js ``WAIT_MS``).
WAIT = 10.0
#: The page's refresh (table.js: every five seconds; a refresh the server answers sends the outbox).
REFRESH = 5.0
#: The longest wait between two tries (table.js ``later``).
LONGEST = 30.0
#: The variations, by a table's number (see the docstring); the conflicts are chosen apart.
VARIATIONS = ("plain", "lost", "cut", "drop", "twice", "tabs", "half", "plain", "plain", "plain")


class PhoneConnection(Connection):
    """A keep-alive connection from a phone's own address (``127.0.x.y``)."""

    def __init__(self, port: int, address: str) -> None:
        super().__init__(port)
        self.address = address

    async def _open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port, local_addr=(self.address, 0))


def address(k: int) -> str:
    """The ``k``-th phone's address on this computer (never 127.0.0.1, the benchmark's own)."""
    return f"127.0.{1 + k // 250}.{2 + k % 250}"


@dataclass
class Entry:
    """A write in a phone's outbox, as table.js keeps it."""

    body: dict
    refused: str | None = None


@dataclass
class Table:
    """One table's phone (its page, as table.js holds it) and what the benchmark expects of it."""

    number: int
    token: str
    steps: list[str]
    variation: str
    phone: str  # the phone's 128-bit id, as the page makes it
    rng: random.Random = field(default_factory=random.Random)  # its own: when it plays, when it refreshes
    writes: int = 0  # the page's counter of writes
    rev: int = 0
    hands: list = field(default_factory=list)  # the closed hands the page holds, and their keys
    keys: list = field(default_factory=list)
    next_step: int = 0
    expected: list[str] = field(default_factory=list)  # the table's log, as it must be
    outbox: list[Entry] = field(default_factory=list)
    at_sent: dict[str, str] = field(default_factory=dict)  # cid -> at, of each queued write
    first_at: set[str] = field(default_factory=set)  # cids whose first arrival carried ``at``
    done_at: float | None = None  # when its last queued write was stored (monotonic)
    refused: int = 0  # queued writes the server refused
    not_sent: int = 0  # queued writes not sent after a refusal

    def cid(self) -> str:
        self.writes += 1
        return f"{self.phone}-{self.writes:x}"

    def asked(self) -> str:
        return f"?hands={self.keys[-1]}.{len(self.keys)}" if self.keys else ""

    def whole(self, data: dict | None) -> dict | None:
        """The answer with the hands the page held put back (table.js ``whole``); the page's view
        taken from it."""
        game = data.get("game") if isinstance(data, dict) else None
        if not isinstance(game, dict):
            return data
        n = game.pop("hands_from", None)
        if n is not None:
            game["hands"] = self.hands[:n] + game.get("hands", [])
            game["hands_keys"] = self.keys[:n] + game.get("hands_keys", [])
        return data

    def view(self, data: dict) -> None:
        game = data.get("game") or {}
        self.rev = data["rev"]
        self.hands, self.keys = list(game.get("hands", [])), list(game.get("hands_keys", []))


@dataclass
class Outcome:
    """What a run found (the counts the test asserts, the times the benchmark prints)."""

    tables: int
    queued: int = 0  # writes made offline
    stored: int = 0  # of them, taken by the server
    refused: int = 0  # refused by the server (a conflict)
    not_sent: int = 0  # not sent after a refusal
    requests: int = 0  # requests the phones sent from "back online" (retries, refreshes included)
    flushed_bytes: int = 0  # the bodies of the answers to the writes sent from the outboxes
    flushed_answers: int = 0
    statuses: dict[int, int] = field(default_factory=dict)
    failures: int = 0  # tries that found no answer (a lost answer, a cut, a timeout, a 429 or 5xx)
    retried: int = 0  # answers to an id answered before
    retried_same: int = 0  # ... the very same answer (nothing written between)
    retried_alike: int = 0  # ... the same status and words, the table as it is now
    differing: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    at_changed: int = 0  # queued writes whose ``at`` was not kept as sent
    director_wrong: list[str] = field(default_factory=list)  # tables the director's page counts otherwise
    stuck: list[int] = field(default_factory=list)  # tables whose outbox was not empty at the end
    times: list[float] = field(default_factory=list)  # per table: back online -> all stored (s)
    hall_time: float = 0.0
    server_cpu: float = 0.0
    server_split: tuple[float, float] = (0.0, 0.0)
    client_cpu: float = 0.0
    server_errors: list[str] = field(default_factory=list)  # the server's log: faults, tracebacks


def make_event(folder: Path, tables: int, seed: int, left: int | None = None
               ) -> tuple[Path, dict[int, list[str]], dict[int, str], str, dict[int, int]]:
    """The event file, each table's moves (as the page sends them), the tables' keys and the
    director's, and how many moves of each game are recorded already: with ``left``, each table is
    brought part of the way through its game first (a random part, at least ``left`` moves left),
    so that the tables are at different points of their games, as in a hall an hour into the
    round (a later table's state holds more hands), taken in this process by the venue's own
    operations, a table's moves in one commit (not timed)."""
    path = folder / "reconnect.db"
    store = create_event(path, make_settings("Reconnect night", "competitive", "rotating", seed=seed))
    add_players(store, [f"Player {i}" for i in range(4 * tables)])
    pair_next_round(store)
    players = {p.id: p for p in store.players()}
    games = {t.number: list(requests_for(play_game(table_record(store.settings, t, players),
                                                   random.Random(seed + t.number))))
             for t in store.tables(1)}
    made = links(store, f"http://{HOST}")
    played = {n: 0 for n in games}
    if left is not None:
        rng = random.Random(seed)
        venue = Venue(store)
        for n, steps in games.items():
            played[n] = rng.randint(0, max(0, len(steps) - left))
            rev = 0
            with store.group():
                for text in steps[: played[n]]:
                    rev = venue.record(1, n, rev, text)["rev"]
    store.close()
    return (path, games, {x["table"]: x["token"] for x in made["tables"]}, made["director"].rsplit("/", 1)[1],
            played)


def reference(path: Path, games: dict[int, list[str]], limit: int = 20) -> float:
    """CPU seconds a move of the recorder in this process (``domrec record``'s cost)."""
    from tournament import open_event

    store = open_event(path)
    players = {p.id: p for p in store.players()}
    tables = store.tables(1)[:limit]
    settings = store.settings
    store.close()
    started, moves = time.process_time(), 0
    for t in tables:
        session = Session(table_record(settings, t, players))
        for text in games[t.number]:
            session.take(text)
            moves += 1
    return (time.process_time() - started) / max(1, moves)


def comparable(data: Any) -> Any:
    return {k: v for k, v in data.items() if k != "request_id"} if isinstance(data, dict) else data


async def start_server(path: Path, log: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(port),
                               "--hall-port", str(free_port())],
                              stdout=subprocess.DEVNULL, stderr=log.open("wb"))
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection((HOST, port), timeout=1).close()
            return server, port
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise SystemExit(f"the server did not start: {log.read_text()}")
            await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def family(pid: int) -> list[int]:
    """``pid`` and its children (the hall's process)."""
    found = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def cpu_of(pids: list[int]) -> tuple[float, float]:
    user = system = 0.0
    for pid in pids:
        try:
            u, s = cpu_split(pid)
        except OSError:
            continue
        user, system = user + u, system + s
    return user, system


async def run_hall(path: Path, games: dict[int, list[str]], tokens: dict[int, str], director: str,
                   played: dict[int, int] | None = None, *, offline: float, every: float = 3.0, moves: int = 10,
                   conflicts: int = 3, seed: int = 1, bound: float | None = None,
                   whole_answers: bool = False) -> Outcome:
    """The benchmark's core: serve the event, play online, offline, back online at once; count.
    ``played``: the moves of each game recorded before (:func:`make_event`); ``whole_answers``: the
    outboxes sent as the page sent them before it named its hands there (each answer the whole
    table), to compare."""
    rng = random.Random(seed)
    numbers = sorted(games)
    chosen = set(numbers[6::10][:conflicts]) | set(numbers[::-1][:max(0, conflicts - len(numbers[6::10]))])
    tables = {n: Table(n, tokens[n], games[n], "conflict" if n in chosen else VARIATIONS[n % len(VARIATIONS)],
                       f"{rng.getrandbits(128):032x}") for n in numbers}
    for n, t in tables.items():
        t.rng = random.Random(seed * 100_003 + n)  # each phone's own: the run does not hang on the order of events
        t.next_step = (played or {}).get(n, 0)
        t.expected = t.steps[: t.next_step]
    out = Outcome(len(tables))
    log = path.with_suffix(".log")
    server, port = await start_server(path, log)
    try:
        pids = family(server.pid)
        origin = f"http://{HOST}:{port}"
        api = "/api/v1/tables/1"
        conns: dict[tuple[int, int], PhoneConnection] = {}

        place = {n: k for k, n in enumerate(numbers)}

        def conn_of(t: Table, tab: int = 0, other: bool = False) -> PhoneConnection:
            """The connection of a table's phone (``tab`` 1: its second tab, or a second sending; the
            phone's own address) or of another phone at the table (an address of its own)."""
            key = (t.number, 2 if other else tab)
            if key not in conns:
                conns[key] = PhoneConnection(port, address(place[t.number] + (len(numbers) if other else 0)))
            return conns[key]

        def headers(t: Table) -> dict[str, str]:
            return {"authorization": f"Bearer {t.token}", "origin": origin, "accept-language": "en"}

        async def post(t: Table, conn: PhoneConnection, route: str, body: dict,
                       flushed: bool = False) -> tuple[int, dict]:
            """A write, naming the closed hands the page holds (``?hands=``: it is sent only the hands
            after them); ``flushed``: sent from the outbox (its answer's bytes counted)."""
            query = "" if flushed and whole_answers else t.asked()
            status, _, content = await asyncio.wait_for(
                conn.request("POST", f"{api}/{t.number}/{route}{query}", body, headers(t)), WAIT)
            if flushed:
                out.flushed_bytes += len(content)
                out.flushed_answers += 1
            return status, t.whole(json.loads(content or b"{}"))

        async def read(t: Table, conn: PhoneConnection) -> tuple[int, dict]:
            status, _, content = await asyncio.wait_for(
                conn.request("GET", f"{api}/{t.number}{t.asked()}", None, headers(t)), WAIT)
            return status, t.whole(json.loads(content or b"{}"))

        # --- online ------------------------------------------------------------------------------
        first: dict[str, tuple[int, dict]] = {}  # cid -> its first answer (status, whole body)

        async def online(t: Table) -> None:
            await asyncio.sleep(t.rng.random() * 0.5)
            status, data = await read(t, conn_of(t))  # the page opened: the table as the server holds it
            if status != 200:
                raise SystemExit(f"table {t.number}: the table's page could not be opened: {status} {data}")
            t.view(data)
            for k in range(min(moves, len(t.steps))):
                body = {"rev": t.rev, "text": t.steps[t.next_step], "cid": t.cid()}
                status, data = await post(t, conn_of(t), "dgn", body)
                if status != 200:
                    raise SystemExit(f"table {t.number}: a move made online was refused: {status} {data}")
                first[body["cid"]] = (status, comparable(data))
                t.expected.append(t.steps[t.next_step])
                t.next_step += 1
                if t.variation == "drop" and k == min(moves, len(t.steps)) - 1:
                    # The answer never reached the phone: the write is kept (its cid and rev as sent).
                    conn_of(t).close()
                    t.outbox.append(Entry({**body, "at": stamp()}))
                    t.at_sent[body["cid"]] = t.outbox[-1].body["at"]
                    t.rev += 1  # the revision the server will give it (the page's view, unchecked)
                else:
                    t.view(data)

        await asyncio.gather(*(online(t) for t in tables.values()))

        # --- offline -------------------------------------------------------------------------------
        went = time.monotonic()
        back = went + offline

        async def keep_playing(t: Table) -> None:
            when = went + t.rng.random() * every
            while True:
                await asyncio.sleep(max(0.0, when - time.monotonic()))
                if time.monotonic() >= back or t.next_step >= len(t.steps):
                    return
                body = {"rev": t.rev, "text": t.steps[t.next_step], "cid": t.cid(), "at": stamp()}
                t.outbox.append(Entry(body))
                t.at_sent[body["cid"]] = body["at"]
                t.first_at.add(body["cid"])
                t.next_step += 1
                t.rev += 1
                when += every * (0.5 + t.rng.random())

        async def other_phone(t: Table) -> None:
            """Another phone of the table, online, writes two moves while the first is offline, the
            first with a comment of its own: a line not the offline phone's (the very same line on
            the same revision would be taken as that phone's: ``table_log.twin_logged``)."""
            await asyncio.sleep(offline / 2)
            other = Table(t.number, t.token, t.steps, "other", f"{t.rng.getrandbits(128):032x}")
            conn = conn_of(t, other=True)
            status, data = await read(other, conn)
            assert status == 200, data
            other.view(data)
            for k in range(2):
                text = t.steps[len(t.expected)] + (" {the other phone}" if k == 0 else "")
                status, data = await post(other, conn, "dgn", {"rev": other.rev, "text": text, "cid": other.cid()})
                assert status == 200, data
                other.view(data)
                t.expected.append(text)
            conn.close()

        await asyncio.gather(*(keep_playing(t) for t in tables.values()),
                             *(other_phone(t) for t in tables.values() if t.variation == "conflict"))
        queued: dict[int, list[str]] = {}  # each table's queued writes' ids
        for t in tables.values():
            out.queued += len(t.outbox)
            queued[t.number] = [e.body["cid"] for e in t.outbox]
            if t.variation != "conflict":  # (a dropped answer's move is in the log already, once)
                t.expected += [e.body["text"] for e in t.outbox[1 if t.variation == "drop" else 0:]]

        # --- back online, all at once ------------------------------------------------------------
        cpu_before = cpu_of(pids)
        client_before = time.process_time()
        t0 = time.monotonic()

        def judge(cid: str, status: int, data: dict) -> None:
            """An answer to a write: kept if first, compared if its id was answered before."""
            data = comparable(data)
            if cid not in first:
                first[cid] = (status, data)
                return
            out.retried += 1
            was_status, was = first[cid]
            if (status, data) == (was_status, was):
                out.retried_same += 1
                return
            words = (lambda d: (d.get("said"), d.get("error"), d.get("line"), d.get("column")))
            now_rev = (data.get("state") or data).get("rev")
            then_rev = (was.get("state") or was).get("rev")
            if status == was_status and words(data) == words(was) and now_rev != then_rev:
                out.retried_alike += 1  # the table moved on since: the same words, the table as it is now
                return
            out.differing.append(f"{cid}: first {was_status} {json.dumps(was)[:300]}; again {status} "
                                 f"{json.dumps(data)[:300]}")

        async def flush(t: Table, tab: int, phase: float) -> None:
            """table.js ``sendQueued``, tried again as ``later`` and the refresh try it."""
            conn = conn_of(t, tab)
            backoff = 1.0
            failed_once = False
            mine = list(t.outbox)  # a tab's own copy of the outbox (the same writes, the same ids)
            while True:
                lost = broken = False
                for entry in list(mine):
                    if entry.refused is not None:
                        continue
                    if broken:
                        entry.refused = "not sent: a line made before it was refused"
                        t.not_sent += 1 if tab == 0 else 0
                        continue
                    cid = entry.body["cid"]
                    out.requests += 1
                    if not failed_once and t.variation in ("cut", "half") and tab == 0:
                        failed_once = True
                        await cut(conn, f"{api}/{t.number}/dgn", entry.body, headers(t), whole=t.variation == "cut")
                        out.failures += 1
                        lost = True
                        break
                    try:
                        status, data = await post(t, conn, "dgn", entry.body, flushed=True)
                    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
                        out.failures += 1
                        lost = True
                        break
                    out.statuses[status] = out.statuses.get(status, 0) + 1
                    if status == 429 or status >= 500:
                        out.failures += 1
                        lost = True
                        break
                    t.whole(data.get("state"))
                    judge(cid, status, data)
                    if not failed_once and t.variation == "lost" and tab == 0:
                        failed_once = True
                        conn.close()  # the answer never reached the phone: the same write is sent again
                        out.failures += 1
                        lost = True
                        break
                    if status == 200:
                        mine.remove(entry)
                        t.view(data)
                        if entry in t.outbox:
                            t.outbox.remove(entry)
                            if t.done_at is None and not waiting(t):
                                t.done_at = time.monotonic()
                        continue
                    entry.refused = data.get("error", str(status))
                    if tab == 0:
                        t.refused += 1
                    broken = True
                    if data.get("state"):
                        t.view(data["state"])
                if not lost:
                    break
                # No answer: the next try after the backoff, or at the page's refresh if it comes first
                # and the server answers it.
                while True:
                    since = time.monotonic() - t0
                    tick = phase + REFRESH * (int((since - phase) // REFRESH) + 1) if since >= phase else phase
                    wait = min(backoff, tick - since)
                    by_timer = backoff <= tick - since
                    await asyncio.sleep(max(0.0, wait))
                    if by_timer:
                        backoff = min(backoff * 2, LONGEST)
                        break
                    out.requests += 1
                    try:
                        status, data = await read(t, conn)
                    except (OSError, asyncio.TimeoutError, asyncio.IncompleteReadError, ValueError):
                        continue
                    out.statuses[status] = out.statuses.get(status, 0) + 1
                    if status == 200:
                        break
            if t.done_at is None and not waiting(t):
                t.done_at = time.monotonic()  # (a conflict: its outbox all refused or not sent)
            out.requests += 1
            status, data = await read(t, conn)  # the table as the server holds it now
            out.statuses[status] = out.statuses.get(status, 0) + 1

        async def phone(t: Table) -> None:
            phase = t.rng.random() * REFRESH
            sent = [Entry(dict(e.body)) for e in t.outbox]
            if t.variation == "tabs":
                await asyncio.gather(flush(t, 0, phase), flush(t, 1, t.rng.random() * REFRESH))
            else:
                await flush(t, 0, phase)
            if t.variation == "twice":  # the whole outbox sent again, the same ids
                again = Table(t.number, t.token, t.steps, "twice", t.phone, rev=t.rev, hands=t.hands, keys=t.keys)
                again.outbox = sent
                await flush(again, 1, phase)

        bound = bound if bound is not None else 300.0 + offline
        tasks = [asyncio.ensure_future(phone(t)) for t in tables.values()]
        done, pending = await asyncio.wait(tasks, timeout=bound)
        for task in pending:
            task.cancel()
        for task in done:
            if task.exception() is not None:
                raise task.exception()
        ends = [t.done_at for t in tables.values() if t.done_at is not None and t.variation != "conflict"]
        out.hall_time = (max(ends) - t0) if ends else 0.0
        out.times = [t.done_at - t0 for t in tables.values() if t.done_at is not None and t.variation != "conflict"]
        after = cpu_of(pids)
        out.server_split = (after[0] - cpu_before[0], after[1] - cpu_before[1])
        out.server_cpu = sum(out.server_split)
        out.client_cpu = time.process_time() - client_before
        out.stuck = [t.number for t in tables.values() if waiting(t)]
        out.stored = sum(1 for t in tables.values() for cid in queued[t.number] if first.get(cid, (0,))[0] == 200)
        out.refused = sum(t.refused for t in tables.values())
        out.not_sent = sum(t.not_sent for t in tables.values())

        # What the director's page counts of the moves made offline.
        director_conn = PhoneConnection(port, "127.0.0.1")
        status, _, content = await director_conn.request("GET", "/api/v1/director", None,
                                                         {"authorization": f"Bearer {director}"})
        director_conn.close()
        for c in conns.values():
            c.close()
        seen = {x["table"]: x.get("offline") for x in json.loads(content)["tables"]} if status == 200 else {}
        for t in tables.values():
            want = {"taken": 0, "refused": 1} if t.variation == "conflict" else {"taken": len(t.first_at), "refused": 0}
            got = seen.get(t.number) or {"taken": 0, "refused": 0}
            if {k: got.get(k) for k in want} != want:
                out.director_wrong.append(f"table {t.number}: {got}, not {want}")
    finally:  # the server stopped, whatever happened
        server.send_signal(2)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.kill()
    text = log.read_text(errors="replace")
    out.server_errors = [line for line in text.splitlines() if "Traceback" in line or "ERROR" in line
                         or "failed" in line]

    # The event file: each table's log is its moves, once each, in order.
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    ids = {n: i for i, n in db.execute("SELECT t.id, t.number FROM round_tables t JOIN rounds r ON r.id = t.round_id "
                                       "WHERE r.number = 1")}
    for t in tables.values():
        rows = [b for (b,) in db.execute("SELECT body FROM venue_log WHERE table_id = ? AND kind = 'dgn' "
                                         "ORDER BY rev", [ids[t.number]])]
        out.lost += sum(1 for k, text in enumerate(t.expected) if k >= len(rows) or rows[k] != text)
        out.doubled += max(0, len(rows) - len(t.expected))
        kept = dict(db.execute("SELECT cid, made_at FROM venue_writes WHERE table_id = ? AND made_at IS NOT NULL",
                               [ids[t.number]]))
        out.at_changed += sum(1 for cid in t.first_at if cid in kept and kept[cid] != t.at_sent[cid])
    db.close()
    return out


def stamp() -> str:
    """The phone's clock, as ``new Date().toISOString()`` writes it."""
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def waiting(t: Table) -> list[Entry]:
    """The writes of a table's outbox still to be sent (neither stored nor refused)."""
    return [e for e in t.outbox if e.refused is None]


async def cut(conn: PhoneConnection, path: str, body: dict, headers: dict[str, str], whole: bool = True) -> None:
    """The write sent (``whole``; else its headers and half its body), and its connection cut
    before any answer (the phone's Wi-Fi gone again)."""
    conn.close()
    reader, writer = await asyncio.open_connection(HOST, conn.port, local_addr=(conn.address, 0))
    data = json.dumps(body).encode()
    lines = [f"POST {path} HTTP/1.1", f"host: {HOST}:{conn.port}", *(f"{k}: {v}" for k, v in headers.items()),
             "content-type: application/json", f"content-length: {len(data)}"]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + (data if whole else data[: len(data) // 2]))
    await writer.drain()
    if not whole:
        await asyncio.sleep(0.05)  # the headers taken, the rest of the body never comes
    writer.transport.abort()


def report(args: argparse.Namespace, out: Outcome, local_cpu: float) -> None:
    times = out.times
    where = "each from the start of its game" if args.from_start else "each part of the way through its game"
    how = " (the outboxes sent without ?hands=)" if args.whole_answers else ""
    print(f"reconnect: {out.tables} tables ({where}), {args.moves} moves each online, then {args.offline:.0f} s "
          f"offline (a move every {args.every:g} s or so), all back at once{how}; {os.cpu_count()} cores (shared)")
    print(f"  moves made offline: {out.queued}; stored: {out.stored}; refused (a conflict: another phone wrote "
          f"meanwhile, {args.conflicts} tables): {out.refused} by the server, {out.not_sent} not sent after it")
    print(f"  back online to every queued move stored: the hall {out.hall_time:.2f} s; per table p50 "
          f"{percentile(times, 50):.2f} s, p99 {percentile(times, 99):.2f} s, max {max(times or [0]):.2f} s; "
          f"{out.stored / out.hall_time if out.hall_time else 0:.0f} writes stored a second")
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(out.statuses.items()))
    print(f"  requests from back online: {out.requests} (answers by status: {statuses}); tries without an "
          f"answer (lost answers, cut connections, timeouts, 429, 5xx): {out.failures}; the answers to the writes "
          f"sent from the outboxes: {out.flushed_bytes / 1e6:.1f} MB "
          f"({out.flushed_bytes / 1000 / max(1, out.flushed_answers):.1f} KB each)")
    print(f"  retried ids: {out.retried} answered again; {out.retried_same} the very same answer, "
          f"{out.retried_alike} the same words with the table as it now is; differing: {len(out.differing)}")
    print(f"  moves lost: {out.lost}; doubled: {out.doubled}; a queued write's time changed: {out.at_changed}; "
          f"tables stuck: {len(out.stuck)}; the director's page miscounting: {len(out.director_wrong)}; "
          f"the server's log: {len(out.server_errors)} faults")
    per = 1000 / max(1, out.stored)
    print(f"  server CPU from back online: {out.server_cpu:.2f} s, {out.server_cpu * per:.2f} ms per write stored "
          f"(the tables' process and the hall's; {out.server_split[0] * per:.2f} ms in the server's own code, "
          f"{out.server_split[1] * per:.2f} ms in the system's); the benchmark's clients: {out.client_cpu:.2f} s")
    print(f"  reference, the same moves taken by the recorder in this process (domrec record's cost): "
          f"{local_cpu * 1000:.3f} ms per move")
    for line in out.differing[:5] + out.director_wrong[:5] + out.server_errors[:5]:
        print(f"  ! {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--offline", type=float, default=120.0, help="seconds the hall is offline (default 120)")
    parser.add_argument("--every", type=float, default=3.0, help="seconds between a table's moves offline (about)")
    parser.add_argument("--moves", type=int, default=10, help="moves each table makes online first")
    parser.add_argument("--conflicts", type=int, default=3, help="tables where another phone writes meanwhile")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--whole-answers", action="store_true",
                        help="send the outboxes without ?hands= (as the page did before: each answer the whole "
                             "table), to compare")
    parser.add_argument("--from-start", action="store_true",
                        help="every table at the start of its game (by default each is part of the way through)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        left = args.moves + int(args.offline / args.every * 1.5) + 5  # enough for the run
        path, games, tokens, director, played = make_event(Path(folder), args.tables, args.seed,
                                                           None if args.from_start else left)
        local_cpu = reference(path, games)
        out = asyncio.run(run_hall(path, games, tokens, director, played, offline=args.offline, every=args.every,
                                   moves=args.moves, conflicts=args.conflicts, seed=args.seed,
                                   whole_answers=args.whole_answers))
    report(args, out, local_cpu)
    bad = out.lost or out.doubled or out.differing or out.stuck or out.director_wrong or out.at_changed or any(
        s >= 500 for s in out.statuses)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()

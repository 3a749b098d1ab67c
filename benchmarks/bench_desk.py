"""The director's desk: what a result costs as a whole command, start-up included, by the event's size.

    python benchmarks/bench_desk.py              # 100, 1,000 and 10,000 players, 5 runs of each command
    python benchmarks/bench_desk.py --quick      # 100 and 1,000 players, 3 runs
    python benchmarks/bench_desk.py --keep DIR   # keep the event files (to profile a command on them)
    python benchmarks/bench_desk.py --report     # `tournament report` of 1,000 players, 3 rounds (750 games)

Target (issue 39, "Speed at the desk"): ``tournament result`` (a game record), ``tournament result
--score`` and ``tournament amend`` cost at most 1.5 times as much at 10,000 players as at 100, and
under 1 s at 10,000.  Each command is timed as the director meets it: a process of its own, from
start-up to exit, closing the event (which refreshes the ``standings`` snapshot people browse), its
CPU time (user + system) read from the operating system's accounting of the finished child.
``tournament --version`` is timed in the same run, interleaved with the commands, as the
reference: a slower or busier machine shows in it too.

Each event is a rotating-partner Competitive event whose round 1 is paired and played (manual
scores, entered through the library) but for the tables the runs enter: each run of ``result``
enters a table of its own (a new result, never one already there); ``amend`` corrects one
table again and again.  The figure quoted is the median of the runs.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round

TOOL = str(Path(sys.executable).with_name("tournament"))


def cpu_of(argv: list[str]) -> float:
    """The CPU seconds (user + system) of one run of ``argv`` as a process of its own."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({proc.returncode}): {err.strip()}")
    return usage.ru_utime + usage.ru_stime


def make_event(folder: Path, players: int, spare: int) -> tuple[Path, list[int], list[Path]]:
    """An event of ``players`` with round 1 played but for its last ``2 * spare`` tables: the
    numbers of those tables, and a game record for each of the first ``spare`` of them."""
    from domrec.record import Player as RecordPlayer, Record
    from domrec.simulate import dumps, play_game
    import attrs

    path = folder / f"desk-{players}.db"
    store = create_event(path, make_settings("bench", "competitive", "rotating", seed=7))
    store.defer_browsing = True
    add_players(store, [f"Player {i:05d}" for i in range(players)])
    pair_next_round(store)
    tables = store.tables(1)
    rng = random.Random(7)
    for t in tables[:-2 * spare]:
        enter_manual(store, t.number, {"NS": rng.randrange(0, 260), "EW": rng.randrange(0, 260)})
    names = {p.id: p.name for p in store.players()}
    blank = Record(game="competitive", players=tuple(RecordPlayer(seat=s, name=f"p{s}")
                                                     for s in store.settings.seats()))
    base = play_game(blank, random.Random(7))
    records = []
    for t in tables[-2 * spare:-spare]:
        record = attrs.evolve(base, event={"name": "bench", "round": 1, "table": t.number},
                              players=tuple(RecordPlayer(seat=s.seat, name=names[s.player], id=str(s.player))
                                            for s in t.seats))
        out = folder / f"desk-{players}-t{t.number}.json"
        out.write_text(dumps(record))
        records.append(out)
    store.close()
    return path, [t.number for t in tables[-spare:]], records


def bench(sizes: list[int], runs: int, keep: Path | None) -> None:
    folder = keep or Path(tempfile.mkdtemp(prefix="bench-desk-"))
    folder.mkdir(parents=True, exist_ok=True)
    figures: dict[tuple[str, int], float] = {}
    version: list[float] = []
    names = ["result (record)", "result --score", "amend --score"]
    try:
        for size in sizes:
            path, spare_tables, records = make_event(folder, size, runs + 2)
            amend_table = spare_tables[0]
            cpu_of([TOOL, "result", str(path), "--table", str(amend_table), "--score", "NS=120,EW=80"])
            taken: dict[str, list[float]] = {n: [] for n in names}
            for i in range(runs + 1):  # the first round of runs warms the caches and is not counted
                v = cpu_of([TOOL, "--version"])
                rec = cpu_of([TOOL, "result", str(path), str(records[i])])
                score = cpu_of([TOOL, "result", str(path), "--table", str(spare_tables[i + 1]), "--score",
                                "NS=150,EW=90"])
                amend = cpu_of([TOOL, "amend", str(path), "-r", "1", "-t", str(amend_table), "--score",
                                f"NS={100 + i},EW=80", "--reason", "typed wrong"])
                if i:
                    version.append(v)
                    for n, x in zip(names, (rec, score, amend)):
                        taken[n].append(x)
            for n in names:
                figures[n, size] = statistics.median(taken[n])
            print(f"  {size:>6,} players: " + ", ".join(f"{n} {figures[n, size]:.2f} s" for n in names), flush=True)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    ref = statistics.median(version)
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    print(f"\na command at the desk, CPU seconds (median of {runs} runs each, as processes; load average {load}):")
    head = ["players", *names]
    print("  " + " | ".join(f"{h:>16}" for h in head))
    for size in sizes:
        print("  " + " | ".join(f"{c:>16}" for c in [f"{size:,}", *(f"{figures[n, size]:.2f}" for n in names)]))
    print(f"  `tournament --version` in the same run: {ref:.2f} s (median of {len(version)})")
    first, last = sizes[0], sizes[-1]
    print(f"  ratio {last:,} / {first:,} players: " + ", ".join(
        f"{n} {figures[n, last] / figures[n, first]:.2f}" for n in names) + "  [target <= 1.5]")
    print(f"  at {last:,} players, against `--version`: " + ", ".join(
        f"{n} {figures[n, last] / ref:.2f}x" for n in names) + f"  [target: each under 1 s]")


def bench_report(players: int, rounds: int, runs: int, keep: Path | None) -> None:
    """``tournament report`` of a simulated rotating Competitive event (issue 39: 1,000 players, 3
    rounds, 750 games with their records; target under 20 s of CPU), the whole command as a
    process, each run into a folder of its own (a report kept from an earlier run would skip its
    replay pages), beside ``tournament --version`` in the same run; and what it wrote."""
    from tournament.event.simulate import simulate_event

    folder = keep or Path(tempfile.mkdtemp(prefix="bench-report-"))
    folder.mkdir(parents=True, exist_ok=True)
    try:
        event = folder / f"report-{players}.db"
        if not event.exists():
            simulate_event(event, "competitive", "rotating", players, rounds, seed=1)
        version, taken = [], []
        files = size = 0
        for i in range(runs):
            out = folder / f"run-{i}"
            shutil.rmtree(out, ignore_errors=True)
            out.mkdir()
            version.append(cpu_of([TOOL, "--version"]))
            taken.append(cpu_of([TOOL, "report", str(event), "-o", str(out / "report.html")]))
            written = [p for p in out.rglob("*") if p.is_file()]
            files, size = len(written), sum(p.stat().st_size for p in written)
            shutil.rmtree(out, ignore_errors=True)
            print(f"  run {i + 1}: report {taken[-1]:.2f} s, --version {version[-1]:.2f} s", flush=True)
    finally:
        if keep is None:
            shutil.rmtree(folder, ignore_errors=True)
    try:
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    report, ref = statistics.median(taken), statistics.median(version)
    print(f"\n`tournament report`, {players:,} players, {rounds} rounds: {report:.2f} s of CPU (median of {runs}, "
          f"a process each; load average {load}); {files:,} files, {size / 1e6:.1f} MB")
    print(f"  `tournament --version` in the same run: {ref:.2f} s; the report costs {report / ref:.0f} times it "
          f"[target: under 20 s on an idle machine, where --version takes about 0.35 s: {20 / 0.35:.0f} times]")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="100 and 1,000 players, 3 runs")
    ap.add_argument("--runs", type=int, help="runs of each command (default 5; 3 with --quick)")
    ap.add_argument("--sizes", help="comma-separated numbers of players")
    ap.add_argument("--keep", type=Path, help="a folder to keep the event files in")
    ap.add_argument("--report", action="store_true", help="time `tournament report` instead (1,000 players, 3 rounds)")
    args = ap.parse_args()
    if args.report:
        bench_report(int(args.sizes or 1000), 3, args.runs or 3, args.keep)
        return
    sizes = [int(x) for x in args.sizes.split(",")] if args.sizes else [100, 1000] if args.quick else [100, 1000, 10_000]
    bench(sizes, args.runs or (3 if args.quick else 5), args.keep)


if __name__ == "__main__":
    main()

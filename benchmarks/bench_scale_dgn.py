"""A federation's season of typed sheets: a DGN archive of 100,000 games on every core and on Dask,
beside the same games as JSON Lines, in one run.

    python benchmarks/bench_scale_dgn.py                          # 100,000 games, typed with ends
    python benchmarks/bench_scale_dgn.py --games 5000 --unique 1000 --no-dask   # a quick look
    python benchmarks/bench_scale_dgn.py --form canonical

The archive holds the five games, mixed, without accidents, written in one of the forms clubs write
(``--form``; see ``bench_dgn_forms.py``): ``typed`` (the default: no deal, every seat, ``@`` where a
tile fits two open tiles), ``no-seats``, ``canonical``.  The forms without ends are read by trying
readings and are timed apart by ``bench_dgn_forms.py``.  Simulating a game costs far more than
checking it, so ``--unique`` games (default 10,000) are simulated on every core and the archive
cycles through them up to ``--games``; a checked move is not remembered from one game to the next in
a DGN text, and JSON Lines keeps its cache of moves already seen whatever the games, so both forms
pay for every game.  The two files are written once into ``--cache`` and reused.

Each run is the whole command a user types, as a process: ``domrec validate -j N FILE`` for N in
``--jobs`` (default 1 and 2) and ``domrec validate --dask local FILE`` (when Dask is installed), for
the DGN archive and for the JSON Lines of the same games, taken in turn, so both see the machine
alike.  Printed: wall time, records/s, CPU of the command and its workers, and the figure to read,
**DGN ÷ JSON Lines** at each core count (issue 40: the same figures per core as JSON Lines), beside
``json.loads`` of every JSON line measured in the same run.
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
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")
#: The writer's arguments for each form (None: canonical DGN).
FORMS = {"typed": {"keep_deal": False, "seats": True, "ends": True},
         "no-seats": {"keep_deal": False, "seats": False, "ends": True},
         "canonical": None}
BATCH = 50


def _batch(job: tuple[str, int, str]) -> tuple[list[str], list[str]]:
    """One batch of simulated games: their JSON lines and their DGN texts."""
    from domrec import notation, simulate

    game, seed, form = job
    lines, texts = [], []
    for record in simulate.simulate(game, BATCH, seed, accidents=False):
        lines.append(simulate.dumps(record) + "\n")
        how = FORMS[form]
        text = notation.dumps(record) if how is None else notation.dumps_typed(record, **how)
        texts.append(text.rstrip("\n") + "\n")
    return lines, texts


def archives(games: int, unique: int, form: str, cache: Path) -> tuple[Path, Path]:
    """The JSON Lines and DGN archives of ``games`` games (``unique`` of them simulated), made once."""
    stem = cache / f"domrec-bench-scale-dgn-{form}-{games}-{unique}"
    jsonl, dgn = stem.with_suffix(".jsonl"), stem.with_suffix(".dgn")
    if jsonl.exists() and dgn.exists():
        return jsonl, dgn
    start = time.perf_counter()
    jobs = [(GAMES[k % len(GAMES)], 1000 + k, form) for k in range(max(1, unique // BATCH))]
    with ProcessPoolExecutor() as pool:
        batches = list(pool.map(_batch, jobs))
    written = 0
    with open(f"{jsonl}.partial", "w", encoding="utf-8") as j, open(f"{dgn}.partial", "w", encoding="utf-8") as d:
        while written < games:
            for lines, texts in batches:
                take = min(BATCH, games - written)
                if take <= 0:
                    break
                j.write("".join(lines[:take]))
                d.write(("\n" if written else "") + "\n".join(texts[:take]))
                written += take
    os.replace(f"{jsonl}.partial", jsonl)
    os.replace(f"{dgn}.partial", dgn)
    print(f"generated {games:,} games ({len(jobs) * BATCH:,} simulated) in {time.perf_counter() - start:.0f}s: "
          f"{jsonl.stat().st_size / 1e6:.0f} MB of JSON Lines, {dgn.stat().st_size / 1e6:.0f} MB of DGN", flush=True)
    return jsonl, dgn


def reference(path: Path) -> tuple[int, float]:
    """``json.loads`` of every line: how many, CPU seconds."""
    n = 0
    cpu = time.process_time()
    with path.open("rb") as f:
        for line in f:
            json.loads(line)
            n += 1
    return n, time.process_time() - cpu


def run(args: list[str], games: int) -> tuple[float, float]:
    """The command as a process: (wall seconds, CPU seconds of it and its workers)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    said = (out.stderr.strip().splitlines() or [""])[-1]  # the summary line
    if out.returncode != 0 or not said.startswith(f"{games} records: {games} valid"):
        raise SystemExit(f"{' '.join(args)}: exit {out.returncode}: {said}")
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--unique", type=int, default=10_000, help="games simulated (the archive cycles through them)")
    ap.add_argument("--form", choices=sorted(FORMS), default="typed")
    ap.add_argument("--jobs", type=int, action="append", help="core counts (default: 1 and 2)")
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster runs")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()))
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    cpu = next((x.split(":", 1)[1].strip() for x in Path("/proc/cpuinfo").read_text().splitlines()
                if x.startswith("model name")), "unknown") if Path("/proc/cpuinfo").exists() else "unknown"
    print(f"machine: {cores} cores ({cpu}); load average {os.getloadavg()[0]:.1f}")
    jsonl, dgn = archives(args.games, args.unique, args.form, args.cache)
    n, ref = reference(jsonl)
    print(f"reference: json.loads of the {n:,} JSON lines: {ref:.1f}s CPU, {n / ref:,.0f} records/s")
    domrec = [str(Path(sys.executable).with_name("domrec"))]
    if not Path(domrec[0]).exists():
        domrec = [sys.executable, "-m", "domrec"]
    runs = [(f"-j {j}", ["validate", "-j", str(j)]) for j in (args.jobs or [1, 2])]
    import importlib.util

    if args.no_dask:
        pass
    elif importlib.util.find_spec("distributed") is None:
        print("dask: not installed (pip install 'domrec[dask]'); the LocalCluster runs are skipped")
    else:
        runs.append(("--dask local", ["validate", "--dask", "local"]))
    print(f"{'run':14} {'JSON Lines':>28} {f'DGN ({args.form})':>28}   DGN ÷ JSONL (wall, CPU)")
    for name, command in runs:
        wj, cj = run([*domrec, *command, str(jsonl)], n)
        wd, cd = run([*domrec, *command, str(dgn)], n)
        print(f"{name:14} {n / wj:9,.0f} rec/s {wj:6.1f}s ({cj:5.1f} CPU) {n / wd:9,.0f} rec/s {wd:6.1f}s "
              f"({cd:5.1f} CPU)   {wd / wj:4.2f}, {cd / cj:4.2f}   load {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()

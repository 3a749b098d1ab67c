"""Where a validation's work goes, stage by stage, in machine instructions: a figure a shared
machine does not disturb.

The stages are bench_validate.py's (:func:`bench_validate.prefix_runs`: the pipeline of ``domrec
validate`` cut after parse, structure, replay and the claims), each run over the same simulated
texts in its own process under valgrind's ``cachegrind``, which counts the instructions the
process executes.  One more process does everything but the counted rounds (start-up, the texts
read, a first pass that fills every cache as a long run has it); its count is taken from each of
the others, so what is left is the rounds' own work.  A stage is the difference between two
prefixes; all are printed in multiples of ``json.loads`` of the same texts, counted the same way.

Instructions are not time: the interpreter's work (many short, branching steps) takes more time
an instruction than ``json.loads``'s tight loops, so a ratio in time is higher than the same
ratio in instructions (README, "Speed").  But they move with the code and not with the load:
a change's before and after can be compared on a busy machine.

    python benchmarks/count_stages.py domino-roads
    python benchmarks/count_stages.py --games 50 --tree ../other-checkout   # another tree's code, same texts

``--tree`` counts the code of another checkout of domrec (its ``domrec`` package, these
benchmarks' stages) on the texts simulated here: run it once with and once without to compare.
Needs valgrind (``apt-get install valgrind``); each process runs about 50 times slower under it.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")
#: The prefixes counted, in order; "none" is the process without its rounds.
PREFIXES = ("none", "json.loads", "parse", "+structure", "+replay", "total")
_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def child(prefix: str, texts_file: str, rounds: int) -> None:
    """What each counted process runs: the texts, a first pass, then ``rounds`` of ``prefix``."""
    from bench_validate import prefix_runs, replay_only

    from domrec import reader
    from domrec.validate import batch_mode, validate_text

    texts = Path(texts_file).read_bytes().splitlines()
    batch_mode()
    for t in texts:  # (every cache as a long run has it, as bench_validate.stages does)
        replay_only(reader.loads(t))
        validate_text(t)
    run = dict(prefix_runs()).get(prefix)
    if run is not None:
        for _ in range(rounds):
            run(texts)


def count(prefix: str, texts_file: Path, rounds: int, tree: Path) -> int:
    """Instructions executed by one process running ``prefix`` over the texts, under cachegrind."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tree), str(HERE)]))
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, str(Path(__file__).resolve()), "--child", prefix, str(texts_file), str(rounds)],
        env=env, capture_output=True, text=True, check=False)
    found = _REFS.search(out.stderr)
    if out.returncode != 0 or found is None:
        raise SystemExit(f"the {prefix} run failed under valgrind:\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", ""))


def stage_counts(game: str, games: int, rounds: int, tree: Path, cache: Path | None, jobs: int) -> dict:
    """Instructions a game (the rounds' mean) for each prefix and each stage, and the hands and moves."""
    from bench_validate import simulated_texts

    from domrec import reader

    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
    texts = simulated_texts(game, games, cache=cache)
    records = [reader.loads(t) for t in texts]
    with tempfile.TemporaryDirectory() as tmp:
        texts_file = Path(tmp) / f"{game}.jsonl"
        texts_file.write_bytes(b"".join(t + b"\n" for t in texts))
        with ThreadPoolExecutor(max(1, jobs)) as pool:
            refs = dict(zip(PREFIXES, pool.map(lambda p: count(p, texts_file, rounds, tree), PREFIXES)))
    per = {p: (refs[p] - refs["none"]) / rounds / len(texts) for p in PREFIXES[1:]}
    out = {"json.loads": per["json.loads"], "total": per["total"], "parse": per["parse"],
           "structure": per["+structure"] - per["parse"], "replay": per["+replay"] - per["+structure"],
           "claims": per["total"] - per["+replay"]}
    out["hands"] = sum(len(r.hands) for r in records) / len(records)
    out["moves"] = sum(len(h.moves) for r in records for h in r.hands) / len(records)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="*", default=list(GAMES))
    ap.add_argument("--games", type=int, default=50, help="simulated games a game (default 50)")
    ap.add_argument("--rounds", type=int, default=3, help="counted rounds over the texts (default 3)")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout whose domrec is counted (default this one)")
    ap.add_argument("--cache", type=Path, default=None, help="a folder to keep the simulated texts in")
    ap.add_argument("-j", "--jobs", type=int, default=1, help="processes counted at once (default 1)")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        prefix, texts_file, rounds = args.child
        child(prefix, texts_file, int(rounds))
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("count_stages.py needs valgrind (apt-get install valgrind)")
    sys.path[:0] = [str(args.tree), str(HERE)]
    print(f"instructions a game, {args.games} simulated games a game, {args.rounds} counted rounds; "
          f"the code of {args.tree.resolve()}")
    print("| game | moves a game | json.loads, instructions | validate ÷ json.loads | parse | structure | replay | claims |")
    print("|---|---|---|---|---|---|---|---|")
    for game in args.game:
        c = stage_counts(game, args.games, args.rounds, args.tree, args.cache, args.jobs)
        ref = c["json.loads"]
        print(f"| {game} | {c['moves']:.0f} | {ref / 1e6:.2f} M | **{c['total'] / ref:.2f}×** | "
              + " | ".join(f"{c[s] / ref:.2f}×" for s in ("parse", "structure", "replay", "claims")) + " |",
              flush=True)


if __name__ == "__main__":
    main()

"""Peak memory of every domrec command, and of tournament result, check and report, beside its budget.

    python benchmarks/bench_memory.py          # small inputs: under a minute
    python benchmarks/bench_memory.py --full   # the sizes of issue 27 (a 50 MB record ...): minutes

Each command runs in a process of its own, which reports its own peak resident memory when it
ends (``VmHWM`` in ``/proc/self/status``; where there is none, ``ru_maxrss``, which Linux carries
over an exec from the process that started it), so the interpreter (about 35 MB) is included.
The budget is 10 times the size of the files the command reads plus 100 MB (docs/format.md,
"Limits"); a command may instead refuse its input in one line before any work (``refused``), as
a DGN game over 1 MiB is, and a replay page of more than 2,000 moves.  Figures are in the README.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from domrec import simulate

MIB = 2 ** 20


def long_game(target: int) -> str:
    """A Horse Race to ``target`` points: the longer the target, the more hands (20,000: 5 MB)."""
    template = simulate.make_record("horse-race", 4, {"target": target}, None)
    old = simulate.MAX_HANDS
    simulate.MAX_HANDS = 10 ** 7  # a game as long as the target makes it
    try:
        return simulate.dumps(simulate.play_game(template, random.Random(5)))
    finally:
        simulate.MAX_HANDS = old


def comment_lines(n: int) -> str:
    """A Competitive game typed in DGN with ``n`` comment lines before its hand."""
    record = next(simulate.simulate("competitive", 1, 1, accidents=False))
    from domrec import notation

    text = notation.dumps(record)
    head, body = text.split("\n\n", 1)
    return head + "\n" + "{c}\n" * n + "\n" + body


#: Runs a command and writes its own peak memory on stderr as it ends (see tools/peak.py).
PEAK = str(Path(__file__).resolve().parent.parent / "tools" / "peak.py")


def run(args: list[str], stdin: Path | None = None) -> tuple[float, int, float]:
    """Peak memory (MiB), exit code and seconds of one command (``args[0]``: domrec or tournament)."""
    target = {"domrec": "domrec.cli", "tournament": "tournament.cli:main"}[Path(args[0]).name]
    start = time.monotonic()
    with open(stdin or os.devnull, "rb") as source:
        proc = subprocess.run([sys.executable, PEAK, target, *args[1:]], stdin=source,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    err = proc.stderr.decode(errors="replace")
    if "Traceback" in err:
        sys.stderr.write(err)
    peak = int(err.rsplit("PEAK ", 1)[1].split()[0]) / 1024
    return peak, proc.returncode, time.monotonic() - start


def make_inputs(work: Path, full: bool) -> None:
    """The inputs, made in a process of their own (see :func:`main`)."""
    bin_ = Path(sys.executable).parent
    domrec, tournament = str(bin_ / "domrec"), str(bin_ / "tournament")
    big = work / "big.json"
    # big.json: a Horse Race of 3,521 moves (0.2 MB), or of 40,000 hands (50 MB): over the replay
    # page's 2,000 moves either way.  page.json: 383 moves, or 1,576 (a page near that limit).
    big.write_text(long_game(200_000 if full else 1_000), encoding="utf-8")
    (work / "big.jsonl").write_text(big.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    page = work / "page.json"
    page.write_text(long_game(560 if full else 150), encoding="utf-8")
    (work / "one.dgn").write_text(comment_lines(250_000), encoding="utf-8")  # just under 1 MiB: the longest game
    (work / "comments.dgn").write_text(comment_lines(2_000_000 if full else 300_000), encoding="utf-8")
    (work / "typed.dgn").write_text(comment_lines(250_000 if full else 20_000), encoding="utf-8")
    subprocess.run([domrec, "convert", str(page), "-o", str(work / "canonical.dgn")], check=True,
                   capture_output=True)
    event = work / "event.db"
    players, rounds = ("40", "5") if full else ("8", "2")  # 50 games, or 4
    subprocess.run([tournament, "simulate", str(event), "--players", players, "--rounds", rounds, "--seed", "1",
                    "-q"], check=True, capture_output=True)
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tournament.store.files import open_store

    with open_store(event) as store:
        result = next(r for r in store.results().values() if getattr(r, "kind", "") == "record")
        (work / "table.json").write_text(store.record_text(result.id), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--full", action="store_true", help="the issue's sizes (50 MB record, 8 MB DGN): minutes")
    ap.add_argument("--make", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.make:
        make_inputs(args.make, args.full)
        return
    bin_ = Path(sys.executable).parent
    domrec, tournament = str(bin_ / "domrec"), str(bin_ / "tournament")
    work = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    # Made by another process: a process's peak memory is inherited by the commands it starts (the
    # kernel keeps the larger across exec), so this one must stay small.
    subprocess.run([sys.executable, __file__, "--make", str(work), *(["--full"] if args.full else [])], check=True)
    big, archive, page = work / "big.json", work / "big.jsonl", work / "page.json"
    one_game, comments, typed, canonical = work / "one.dgn", work / "comments.dgn", work / "typed.dgn", \
        work / "canonical.dgn"
    event, table_record = work / "event.db", work / "table.json"
    games = "200" if args.full else "20"

    jobs = [
        ("domrec validate big.json", [domrec, "validate", str(big)], [big], None),
        ("domrec validate -j 2 big.jsonl", [domrec, "validate", "-j", "2", str(archive)], [archive], None),
        ("domrec explain big.json --hand 1", [domrec, "explain", str(big), "--hand", "1"], [big], None),
        ("domrec explain big.json --html", [domrec, "explain", str(big), "--html", str(work / "p1.html")],
         [big], None),
        ("domrec explain page.json --html", [domrec, "explain", str(page), "--html", str(work / "p2.html")],
         [page], None),
        ("domrec convert big.json -o .dgn", [domrec, "convert", str(big), "-o", str(work / "big.dgn")], [big],
         None),
        ("domrec validate canonical.dgn", [domrec, "validate", str(canonical)], [canonical], None),
        ("domrec convert canonical.dgn -o .json", [domrec, "convert", str(canonical), "-o", str(work / "c.json")],
         [canonical], None),
        ("domrec validate one.dgn (1 MiB of comments)", [domrec, "validate", str(one_game)], [one_game], None),
        ("domrec validate comments.dgn", [domrec, "validate", str(comments)], [comments], None),
        ("domrec record < typed.dgn", [domrec, "record", "competitive", "-o", str(work / "r1.json")], [typed],
         typed),
        (f"domrec simulate horse-race -n {games}", [domrec, "simulate", "horse-race", "-n", games, "-o",
                                                   str(work / "sim.jsonl")], [], None),
        ("tournament result --replace", [tournament, "result", str(event), str(table_record), "--replace"],
         [event, table_record], None),
        ("tournament check", [tournament, "check", str(event)], [event], None),
        ("tournament report", [tournament, "report", str(event), "-o", str(work / "report.html")], [event], None),
    ]
    started = time.monotonic()
    print(f"{'command':44} {'input':>9} {'peak':>8} {'budget':>8}  verdict")
    for name, argv, inputs, stdin in jobs:
        size = sum(p.stat().st_size for p in inputs) / MIB
        peak, code, seconds = run(argv, stdin)
        budget = 10 * size + 100
        verdict = "within" if peak <= budget else "OVER"
        if code == 2 and peak <= budget:
            verdict = "within (refused)"
        print(f"{name:44} {size:7.1f} MB {peak:6.0f} MB {budget:6.0f} MB  {verdict}, exit {code}, {seconds:.1f} s")
        for leftover in ("r1.json", "p1.html", "p2.html", "big.dgn", "c.json", "sim.jsonl", "report.html"):
            (work / leftover).unlink(missing_ok=True)
    print(f"(inputs in {work}; {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()

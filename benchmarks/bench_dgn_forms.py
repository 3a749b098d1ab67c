"""The forms clubs write, each beside JSON Lines of the same games, in one run: five games.

For each game, --games simulated games (no accidents, so runs compare) are written in each form a
club writes, and each form is validated as ``domrec validate`` does (``reader.iter_sources``, then
``notation.read_games`` per game, with ``validate.batch_mode()``), in CPU time of this process,
best of --repeat, its runs taken in turn with those of the JSON Lines of the same games (so both
see the machine alike).  The ratio form/JSON Lines is the figure to compare (issue 40's goal for
the typed forms: at most 3x).

* canonical: ``notation.dumps`` (seats, deals, claims: read without the engine);
* typed, the deal written: the deal's lines, then the moves without their forced passes (a table
  that enters its deal types this: the venue's phones, ``domrec record``; each pass the text
  leaves out is put back where the player to move can only pass, asked of the engine);
* typed, ends written: no deal (``left`` lines), every seat, ``@`` where a tile fits two open tiles;
* typed, no ends: the same without any ``@``, as on a paper score sheet;
* typed, no seats: ``@`` kept, a seat only where the turn does not give it;
* score sheet: neither ``@`` nor seats (the reader tries the readings of each hand);
* score sheet, each hand's scores written: the same with each hand's ``end`` line claiming its
  scores, as a club's sheet has them (the reader counts only the readings that give them: a
  Horse Race sheet, whose counts peg on the ends, is read rather than asked about).

The forms without ends try readings on the engine, so they are timed on the first --slow-games
games only (with their own JSON Lines reference).  A form may leave a hand with readings of
different scores: the reader then asks for an end or a seat; those games are counted ("asked").

    python benchmarks/bench_dgn_forms.py                      # all five games
    python benchmarks/bench_dgn_forms.py competitive --games 200 --slow-games 50
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from domrec import notation, reader, simulate
from domrec.validate import batch_mode, validate_text

from bench_dgn import best_pair, judge_archive as validate_dgn  # (games valid, games asked about)

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")

#: (label, the writer's arguments or None for canonical, whether the reader tries readings).
FORMS = (
    ("canonical", None, False),
    ("typed, the deal written", {"keep_deal": True, "seats": True, "ends": True}, False),
    ("typed, ends written", {"keep_deal": False, "seats": True, "ends": True}, False),
    ("typed, no ends", {"keep_deal": False, "seats": True, "ends": False}, True),
    ("typed, no seats", {"keep_deal": False, "seats": False, "ends": True}, False),
    ("score sheet (no ends, no seats)", {"keep_deal": False, "seats": False, "ends": False}, True),
    ("score sheet, each hand's scores written", {"keep_deal": False, "seats": False, "ends": False, "scores": True},
     True),
)


def validate_jsonl(path: Path) -> int:
    """Every line judged as ``domrec validate`` does; the hands counted."""
    hands = 0
    for src in reader.iter_sources([str(path)]):
        report = validate_text(src.text, src.label)
        if not report.valid:
            raise SystemExit(f"{report.source}: simulated game did not validate")
        hands += report.hands
    return hands


def bench(game: str, args: argparse.Namespace, folder: Path) -> list[tuple[str, int, float, float, int]]:
    records = list(simulate.simulate(game, args.games, args.seed, accidents=False))
    slow = records[:args.slow_games]
    rows = []
    for label, how, slow_form in FORMS:
        chosen = slow if slow_form else records
        name = label.split(" (")[0].replace(", ", "-").replace(" ", "-")
        dgn, jsonl = folder / f"{game}-{name}.dgn", folder / f"{game}-{name}.jsonl"
        jsonl.write_text("".join(simulate.dumps(r) + "\n" for r in chosen), encoding="utf-8")
        texts = [notation.dumps(r) if how is None else notation.dumps_typed(r, **how) for r in chosen]
        dgn.write_text("\n".join(t.rstrip("\n") + "\n" for t in texts), encoding="utf-8")
        batch_mode()
        tj, hands, td, (valid, asked) = best_pair(lambda: validate_jsonl(jsonl), lambda: validate_dgn(dgn),
                                                  args.repeat)
        assert valid + asked == len(chosen), (game, label, valid, asked)
        rows.append((label, len(chosen), tj, td, asked))
        print(f"  {game:13s} {label:32s} {len(chosen):5d} games {hands:6d} hands  JSONL {tj:7.3f}s  "
              f"DGN {td:7.3f}s {hands / td:8,.0f} hands/s  DGN/JSONL {td / tj:7.2f}"
              + (f"  ({asked} asked for an end or seat)" if asked else ""), flush=True)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="all", help=f"one of {', '.join(GAMES)}, or all")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--slow-games", type=int, default=20, help="games of the forms without ends (the first ones)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best is printed")
    args = ap.parse_args()
    chosen = GAMES if args.game == "all" else (args.game,)
    print(f"CPU time of one process (best of {args.repeat}), each form beside JSON Lines of the same games; "
          f"pid {os.getpid()}", flush=True)
    table = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in chosen:
            table[game] = bench(game, args, Path(tmp))
    print("\n| form | " + " | ".join(chosen) + " |")
    print("|---|" + "---|" * len(chosen))
    for k, (label, _, _) in enumerate(FORMS):
        cells = []
        for game in chosen:
            _, n, tj, td, asked = table[game][k]
            cells.append(f"{td / tj:.1f}x" + (f" ({asked}/{n} asked)" if asked else ""))
        print(f"| {label} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()

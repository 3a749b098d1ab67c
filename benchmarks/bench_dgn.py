"""DGN against JSON Lines: the same games checked from either archive, on one core.

Simulates --games games, writes them as a JSON Lines archive (one record a
line) and as a DGN archive (canonical form, ``notation.dumps``, games
separated by a blank line), then times, in CPU time of this process (best of
--repeat runs, with ``validate.batch_mode()`` as ``domrec validate`` sets it; the two
figures of a ratio are measured in turn, run for run, so both see the machine alike):

* validate: what ``domrec validate ARCHIVE`` does (reader.iter_sources, then
  validate_text per JSON line or notation.read_games over the DGN file's bytes);
* read: the record only, without replaying it (JSON: parse + shape check to a
  Record; DGN: split, decode, tokenize, build the JSON data, shape check to a
  Record).  Canonical DGN is read without the engine, so the read is
  separable; it goes through notation's private reader (reading._Reader,
  through_game._as_written) because no public function stops before validation.

Both archives are timed in the same run, so the ratio DGN/JSONL is the
figure to compare (the target: canonical DGN validation at most 2x JSONL
validation).  The typed form of the first --typed-games games is timed in the
same run too, against the JSONL validation of the same games (the target: at
most 3x): ``notation.dumps_typed(record, keep_deal=False, seats=False)``, a
hand as a scorer types it, with no seat the engine can work out, no deal
(``left`` gives the tiles still held), no claims, and ``@`` only where a tile
fits two open tiles.  An extra line (--sheet-games, informational) times the
same with every ``@`` left out, as on a paper sheet, where the reader tries the
readings of each hand (docs/notation.md, "What may be left out").

    python benchmarks/bench_dgn.py competitive --games 2000
    python benchmarks/bench_dgn.py all --games 2000
    python benchmarks/bench_dgn.py broadway --games 500 --keep /tmp/dgn   # keep the archives (to profile them)
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

from domrec import notation, reader, simulate
from domrec.notation import reading, through_game
from domrec.games import parse_options
from domrec.validate import batch_mode, validate_text

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")


def best_cpu(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """The least CPU time of ``repeat`` runs of ``fn`` (other programs on the machine do not count)."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def best_pair(first: Callable[[], Any], second: Callable[[], Any], repeat: int) -> tuple[float, Any, float, Any]:
    """``best_cpu`` of two functions whose times are compared, their runs taken in turn (first,
    second, first, …): a ratio of two figures measured minutes apart on a shared machine says
    as much about the machine's moods as about the code; taken in turn, both see the same."""
    best_a = best_b = float("inf")
    result_a = result_b = None
    for _ in range(repeat):
        t, result_a = best_cpu(first, 1)
        best_a = min(best_a, t)
        t, result_b = best_cpu(second, 1)
        best_b = min(best_b, t)
    return best_a, result_a, best_b, result_b


def validate_archive(path: Path) -> tuple[int, int]:
    """Every record of an archive judged as ``domrec validate`` does: (records, hands).

    Stops at the first record that is not valid: the archives are simulated, so it is a bug."""
    records = hands = 0
    for src in reader.iter_sources([str(path)]):
        if src.error:
            raise SystemExit(f"{src.label}: {src.error}")
        if src.form == "dgn":
            reports = (g.report for g in notation.read_games(src.text, src.label))
        else:
            reports = iter((validate_text(src.text, src.label),))
        for report in reports:
            if not report.valid:
                detail = report.problems[0].text() if report.problems else report.status
                raise SystemExit(f"{report.source}: simulated game did not validate: {detail}")
            records += 1
            hands += report.hands
    return records, hands


def read_jsonl(path: Path) -> int:
    """Parse + shape check of every line, no replay."""
    n = 0
    for src in reader.iter_sources([str(path)]):
        reader.loads(src.text)
        n += 1
    return n


def read_dgn(path: Path) -> int:
    """Canonical DGN to Records without the engine: split, decode, tokenize, JSON data, shape check."""
    n = 0
    data = path.read_bytes()
    for chunk in notation.split_games(data):
        r = reading._Reader(notation.decode(chunk), chunk.first_line)
        r.parse()
        if through_game._needs_game(r):
            raise SystemExit(f"{path}:{chunk.first_line}: not canonical DGN (needs the engine to be read)")
        reader.load_dict(through_game._as_written(r))
        n += 1
    return n


def parse_dgn(path: Path) -> int:
    """Only the text part of the DGN read: split, decode, tokenize and parse into the reader's structures."""
    n = 0
    for chunk in notation.split_games(path.read_bytes()):
        reading._Reader(notation.decode(chunk), chunk.first_line).parse()
        n += 1
    return n


def bench(game: str, args: argparse.Namespace, options: dict, folder: Path) -> dict[str, Any]:
    t0 = time.perf_counter()
    records = list(simulate.simulate(game, args.games, args.seed, args.players, options or None, args.variant,
                                     accidents=False))  # no accidents: figures comparable run to run
    t1 = time.perf_counter()
    jsonl = folder / f"{game}.jsonl"
    dgn = folder / f"{game}.dgn"
    typed = folder / f"{game}-typed.dgn"
    jsonl.write_text("".join(simulate.dumps(r) + "\n" for r in records), encoding="utf-8")
    dgn.write_text("\n".join(notation.dumps(r).rstrip("\n") + "\n" for r in records), encoding="utf-8")
    t2 = time.perf_counter()
    typed_games = min(args.typed_games, args.games) if args.typed else 0
    sheet_games = min(args.sheet_games, typed_games)
    sheet = folder / f"{game}-sheet.dgn"
    typed_jsonl = folder / f"{game}-typed.jsonl"
    if typed_games:
        typed.write_text("\n".join(notation.dumps_typed(r, keep_deal=False, seats=False).rstrip("\n") + "\n"
                                   for r in records[:typed_games]), encoding="utf-8")
        typed_jsonl.write_text("".join(simulate.dumps(r) + "\n" for r in records[:typed_games]), encoding="utf-8")
    if sheet_games:
        sheet.write_text("\n".join(notation.dumps_typed(r, keep_deal=False, seats=False, ends=False).rstrip("\n")
                                    + "\n" for r in records[:sheet_games]), encoding="utf-8")
    typed_hands = sum(len(r.hands) for r in records[:typed_games])
    sheet_hands = sum(len(r.hands) for r in records[:sheet_games])
    t3 = time.perf_counter()
    hands = sum(len(r.hands) for r in records)
    moves = sum(len(h.moves) for r in records for h in r.hands)
    del records
    batch_mode()  # after the simulation, as bench_validate does: the collector as `domrec validate` sets it up
    print(f"{game}: simulated {args.games} games in {t1 - t0:.1f}s, wrote the archives in {t2 - t1:.1f}s"
          + (f" (+{t3 - t2:.1f}s typed)" if typed_games else ""), flush=True)

    row: dict[str, Any] = {"game": game, "games": args.games, "hands": hands, "moves": moves,
                           "jsonl_bytes": jsonl.stat().st_size, "dgn_bytes": dgn.stat().st_size}
    row["jsonl_validate"], counted, row["dgn_validate"], counted_dgn = best_pair(
        lambda: validate_archive(jsonl), lambda: validate_archive(dgn), args.repeat)
    assert counted == counted_dgn == (args.games, hands), (counted, counted_dgn)
    row["jsonl_read"], _, row["dgn_read"], _ = best_pair(lambda: read_jsonl(jsonl), lambda: read_dgn(dgn),
                                                         args.repeat)
    row["dgn_parse"], _ = best_cpu(lambda: parse_dgn(dgn), args.repeat)
    if typed_games:
        row.update(typed_games=typed_games, typed_hands=typed_hands, typed_bytes=typed.stat().st_size)
        row["typed_jsonl_validate"], counted, row["typed_validate"], counted_typed = best_pair(
            lambda: validate_archive(typed_jsonl), lambda: validate_archive(typed), args.repeat)
        assert counted == counted_typed == (typed_games, typed_hands), (counted, counted_typed)
    if sheet_games:
        row.update(sheet_games=sheet_games, sheet_hands=sheet_hands)
        row["sheet_validate"], row["sheet_counts"] = best_cpu(lambda: judge_archive(sheet), 1)
    return row


def judge_archive(path: Path) -> tuple[int, int]:
    """(games read, games where the reader asks for an end): a sheet with every ``@`` left out
    may leave readings with different scores, which the reader asks about instead of guessing."""
    read = asked = 0
    for src in reader.iter_sources([str(path)]):
        for game in notation.read_games(src.text, src.label):
            if game.report.valid:
                read += 1
            elif all(p.rule == "DGN: what may be left out" for p in game.report.problems):
                asked += 1
            else:
                raise SystemExit(f"{game.report.source}: {game.report.problems[0].text()}")
    return read, asked


def show(row: dict[str, Any]) -> None:
    g, h = row["game"], row["hands"]

    def rate(t: float) -> str:
        return f"{h / t:>9,.0f} hands/s"

    print(f"{g}: {row['games']:,} games, {h:,} hands, {row['moves']:,} moves; "
          f"JSONL {row['jsonl_bytes'] / 1e6:.2f} MB, DGN {row['dgn_bytes'] / 1e6:.2f} MB "
          f"({row['dgn_bytes'] / row['jsonl_bytes']:.2f}x)")
    print(f"  validate  JSONL {row['jsonl_validate']:7.3f}s {rate(row['jsonl_validate'])}   "
          f"DGN {row['dgn_validate']:7.3f}s {rate(row['dgn_validate'])}   "
          f"DGN/JSONL {row['dgn_validate'] / row['jsonl_validate']:.2f} (target <= 2.00)")
    print(f"  read only JSONL {row['jsonl_read']:7.3f}s {rate(row['jsonl_read'])}   "
          f"DGN {row['dgn_read']:7.3f}s {rate(row['dgn_read'])}   "
          f"DGN/JSONL {row['dgn_read'] / row['jsonl_read']:.2f}")
    print(f"  DGN text parse only (split, decode, tokenize, parse) {row['dgn_parse']:.3f}s; "
          f"replay (validate - read) JSONL {row['jsonl_validate'] - row['jsonl_read']:.3f}s, "
          f"DGN {row['dgn_validate'] - row['dgn_read']:.3f}s")
    if "typed_validate" in row:
        th, tv, tj = row["typed_hands"], row["typed_validate"], row["typed_jsonl_validate"]
        print(f"  typed DGN (no seats, no deal, @ only where a tile fits two), first {row['typed_games']:,} games, "
              f"{th:,} hands: JSONL {tj:.3f}s {th / tj:,.0f} hands/s   typed {tv:.3f}s {th / tv:,.0f} hands/s   "
              f"typed/JSONL {tv / tj:.2f} (target <= 3.00)")
    if "sheet_validate" in row:
        sh, sv = row["sheet_hands"], row["sheet_validate"]
        read, asked = row["sheet_counts"]
        print(f"  [extra] every @ left out, first {row['sheet_games']:,} games, {sh:,} hands: {sv:.3f}s "
              f"{sh / sv:,.0f} hands/s; {read} read, {asked} where the reader asks for an end")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="competitive", help=f"one of {', '.join(GAMES)}, or all")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--option", action="append", default=[], help="name=value")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each timing; the best is printed")
    ap.add_argument("--typed-games", type=int, default=500,
                    help="games of the typed-form line (the first ones; writing the typed form is slow)")
    ap.add_argument("--sheet-games", type=int, default=20,
                    help="games of the every-@-left-out extra line (the first ones; 0: none)")
    ap.add_argument("--no-typed", dest="typed", action="store_false", help="skip the typed-form extra line")
    ap.add_argument("--keep", default=None, help="write the archives to this folder and keep them")
    args = ap.parse_args()
    options = parse_options(args.option)
    chosen = GAMES if args.game == "all" else (args.game,)
    print(f"CPU time of one process (best of {args.repeat}); pid {os.getpid()}")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep or tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for game in chosen:
            rows.append(bench(game, args, options, folder))
            show(rows[-1])
    if len(rows) > 1:
        typed = all("typed_validate" in row for row in rows)
        print("\n| game | JSONL validate | DGN validate | DGN/JSONL |" + (" typed DGN | typed/JSONL |" if typed else ""))
        print("|---|---|---|---|" + ("---|---|" if typed else ""))
        for row in rows:
            extra = ""
            if typed:
                extra = (f" {row['typed_hands'] / row['typed_validate']:,.0f} hands/s | "
                         f"{row['typed_validate'] / row['typed_jsonl_validate']:.2f} |")
            print(f"| {row['game']} | {row['hands'] / row['jsonl_validate']:,.0f} hands/s | "
                  f"{row['hands'] / row['dgn_validate']:,.0f} hands/s | "
                  f"{row['dgn_validate'] / row['jsonl_validate']:.2f} |" + extra)


if __name__ == "__main__":
    main()

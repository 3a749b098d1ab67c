"""Every DGN verdict, message and score, written down: to compare before and after a change to reading.

A change meant only to make DGN reading faster must not change what it says about any text.
This script reads a fixed set of texts and writes, for each, everything a user sees: the
record read (as ``domrec convert`` gives it), the report as ``domrec validate --json`` gives
it, each problem's line as ``domrec validate`` and ``-v`` print it, and the note.  Two runs
are compared with ``cmp`` (or ``diff`` to see what moved).

The texts: every file of ``samples/`` (as ``domrec validate samples`` reads them), and for
each game --games simulated games (with accidents) in canonical DGN, typed DGN (no seats, no
deal), typed without any ``@``, and each of those with a few seeded corruptions (a tile
changed, a move dropped, a score changed, two words swapped), so that refusals are compared
too.  The simulated texts are made once and kept (--cache), as simulating Broadway is slow.

    python benchmarks/dgn_verdicts.py -o /tmp/before.txt
    python benchmarks/dgn_verdicts.py -o /tmp/after.txt && cmp /tmp/before.txt /tmp/after.txt
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path

from domrec import notation, reader, simulate
from domrec.record import unstructure
from domrec.validate import validate_text

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")
ROOT = Path(__file__).resolve().parent.parent
_TILE = re.compile(r"\b[0-9]{1,2}-[0-9]{1,2}\b")


def corruptions(text: str, rng: random.Random) -> Iterator[str]:
    """A few seeded changes of a text, each a likely refusal somewhere."""
    lines = text.split("\n")
    body = [k for k, line in enumerate(lines) if line and not line.startswith("[") and not line.startswith("hand")]
    if not body:
        return
    for _ in range(4):
        k = rng.choice(body)
        words = lines[k].split(" ")
        kind = rng.randrange(4)
        if kind == 0:  # a tile changed
            spots = [i for i, w in enumerate(words) if _TILE.search(w)]
            if not spots:
                continue
            i = rng.choice(spots)
            a, b = rng.randrange(7), rng.randrange(7)
            words[i] = _TILE.sub(f"{max(a, b)}-{min(a, b)}", words[i], count=1)
        elif kind == 1 and len(words) > 1:  # a word dropped
            del words[rng.randrange(len(words))]
        elif kind == 2:  # a number changed
            spots = [i for i, w in enumerate(words) if re.fullmatch(r"[+=]?[0-9]+", w)]
            if not spots:
                continue
            i = rng.choice(spots)
            words[i] = re.sub(r"[0-9]+", lambda m: str(int(m.group()) + rng.choice((1, 5, 10))), words[i])
        elif len(words) > 2:  # two words swapped
            i = rng.randrange(len(words) - 1)
            words[i], words[i + 1] = words[i + 1], words[i]
        else:
            continue
        changed = list(lines)
        changed[k] = " ".join(words)
        yield "\n".join(changed)


def wrong_claims(text: str, rng: random.Random) -> Iterator[str]:
    """A sheet with one hand's claimed score changed, for two of its hands: the reader, which
    counts only the readings giving the claimed scores, finds none and says so as it would
    without the claim (docs/notation.md)."""
    lines = text.split("\n")
    ends = [k for k, line in enumerate(lines) if line.startswith("end ") and re.search(r" [0-9]+", line)]
    for k in rng.sample(ends, min(2, len(ends))):
        changed = list(lines)
        changed[k] = re.sub(r" ([0-9]+)", lambda m: f" {int(m.group(1)) + rng.choice((1, 2, 5))}", lines[k], count=1)
        yield "\n".join(changed)


def inputs(games: int, cache: Path) -> list[tuple[str, str]]:
    """(label, DGN text) of the simulated games, made once and kept in ``cache``."""
    if cache.exists():
        return pickle.loads(cache.read_bytes())
    out: list[tuple[str, str]] = []
    for game in GAMES:
        rng = random.Random(f"verdicts {game}")
        for k, record in enumerate(simulate.simulate(game, games, 7)):
            forms = [("canonical", notation.dumps(record))]
            try:
                forms.append(("typed", notation.dumps_typed(record, keep_deal=False, seats=False)))
                if k % 8 == 0:
                    forms.append(("sheet", notation.dumps_typed(record, keep_deal=False, seats=False, ends=False)))
                if k % 8 == 4:  # (a club's sheet: each hand's end line claims its scores)
                    forms.append(("scored-sheet", notation.dumps_typed(record, keep_deal=False, seats=False,
                                                                        ends=False, scores=True)))
                if k % 4 == 1:
                    forms.append(("typed-deal", notation.dumps_typed(record, keep_deal=True, seats=False)))
            except Exception as e:  # a record the typed writer cannot write: noted, not compared
                forms.append(("unwritable", f"{type(e).__name__}: {e}"))
                continue
            for form, text in forms:
                out.append((f"{game}/{k}/{form}", text))
                if k % 2 == 0 and form not in ("sheet", "scored-sheet"):  # (a corrupted sheet may try
                    for c, bad in enumerate(corruptions(text, rng)):   # thousands of readings)
                        out.append((f"{game}/{k}/{form}/bad{c}", bad))
                if form == "scored-sheet":  # (a hand's claimed scores changed: no reading gives them)
                    for c, bad in enumerate(wrong_claims(text, rng)):
                        out.append((f"{game}/{k}/{form}/claim{c}", bad))
    cache.write_bytes(pickle.dumps(out))
    return out


def verdict(game: notation.DgnGame | None, report) -> str:
    lines = [json.dumps(report.to_dict(), ensure_ascii=False, sort_keys=True)]
    lines.append("summary: " + report.summary())
    for p in report.problems:
        lines.append("problem: " + p.text())
        lines.append("problem -v: " + p.text(pointer=True))
    if game is not None:
        lines.append(f"complete: {game.complete} first_line: {game.first_line}")
        if game.record is not None:
            lines.append("record: " + json.dumps(unstructure(game.record), ensure_ascii=False, sort_keys=True))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--cache", default="/tmp/dgn_verdicts_inputs.pickle")
    args = ap.parse_args()
    with open(args.output, "w", encoding="utf-8") as out:
        for src in reader.iter_sources([str(ROOT / "samples")]):
            out.write(f"== {Path(src.label).relative_to(ROOT) if src.label.startswith('/') else src.label}\n")
            if src.error:
                out.write(f"error: {src.error}\n")
                continue
            if src.form == "dgn":
                for game in notation.read_games(src.text, src.label):
                    out.write(verdict(game, game.report).replace(str(ROOT), "ROOT") + "\n")
            else:
                out.write(verdict(None, validate_text(src.text, src.label)).replace(str(ROOT), "ROOT") + "\n")
        for label, text in inputs(args.games, Path(args.cache)):
            out.write(f"== {label}\n")
            if label.endswith("unwritable"):
                out.write(text + "\n")
                continue
            for game in notation.read_games(text, label):
                out.write(verdict(game, game.report) + "\n")


if __name__ == "__main__":
    main()

"""Full-validation throughput: simulate games, then time parse + shape check +
replay + score checks of all of them on one core.  Prints hands/s and moves/s,
beside the reference measured in the same run on the same texts: ``json.loads``
alone (what any reader of the records pays), so a slower or faster machine
shows in both figures and the ratio stays comparable.

Then the same figure split by stage (:func:`stages`: parse, structure, replay, claims, each in
``json.loads`` of the same texts), and with ``--profile N`` cProfile's N costliest functions of
the replay.  ``bench_all.py`` prints every game's split in one run.

    python benchmarks/bench_validate.py competitive --games 2000
    python benchmarks/bench_validate.py horse-race --players 4
    python benchmarks/bench_validate.py domino-roads --games 1000 --profile 15

Targets (from the issues): every game within 5× the CPU time of ``json.loads``
of the same texts (the ratio printed last; issue 16), and competitive at least
20,000 hands/s; earlier floors: horse-race 8,000, broadway 3,000, castle-rock
8,000, domino-roads 5,000 hands/s.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from pathlib import Path
from typing import Callable

from domrec import games, simulate
from domrec.games import parse_options
from domrec.validate import batch_mode, validate_text

TARGETS = {"competitive": 20_000, "horse-race": 8_000, "broadway": 3_000,
           "castle-rock": 8_000, "domino-roads": 5_000}
#: Full validation may cost at most this many times ``json.loads`` of the same texts.
RATIO_TARGET = 5.0


def measure(game: str, games: int = 2000, seed: int = 1, players: int | None = None,
            options: dict | None = None, variant: str | None = None, repeat: int = 3) -> dict:
    """Simulate ``games`` games, then time their full validation and ``json.loads`` of the same
    texts, both in CPU time of this process (the figure is per core: other programs running on
    the machine do not count against it), each the best of ``repeat`` rounds, as ``timeit``
    does: a round is slowed by whatever else the machine does, never sped up, and the later
    rounds see what a long archive sees (the reader's caches of moves already checked filled
    by its first records).  The collector is set up as ``domrec validate`` sets it up
    (validate.batch_mode)."""
    t0 = time.perf_counter()
    texts = [simulate.dumps(r).encode() for r in
             simulate.simulate(game, games, seed, players, options or None, variant,
                               accidents=False)]  # no accidents: figures comparable run to run
    simulated = time.perf_counter() - t0
    batch_mode()
    elapsed = reference = float("inf")
    for _ in range(max(1, repeat)):
        hands = moves = 0
        start = time.process_time()
        for i, text in enumerate(texts):
            report = validate_text(text, f"game {i}")
            if not report.valid:
                raise SystemExit(f"simulated game {i} did not validate: {report.problems[0].text()}")
            hands += report.hands
            moves += report.moves
        elapsed = min(elapsed, time.process_time() - start)
        start = time.process_time()
        for text in texts:
            json.loads(text)
        reference = min(reference, time.process_time() - start)
    return {"games": len(texts), "simulated": simulated, "hands": hands, "moves": moves, "cpu": elapsed,
            "reference": reference, "texts": texts}


def simulated_texts(game: str, games: int, seed: int = 1, cache: Path | None = None) -> list[bytes]:
    """``games`` simulated games of ``game`` (no accidents: figures comparable run to run), one
    JSON text each.  With ``cache`` (a folder), kept there under a name that holds a digest of
    the simulator's and the engines' source, so a changed simulator or engine simulates again:
    simulating costs far more than checking (45 s for 1,000 Domino Roads games)."""
    from domrec import simulate

    path = None
    if cache is not None:
        root = Path(simulate.__file__).parent
        digest = hashlib.sha256()
        for source in sorted([root / "simulate.py", *(root / "games").glob("*.py")]):
            digest.update(source.read_bytes())
        path = cache / f"domrec-bench-{game}-{games}-{seed}-{digest.hexdigest()[:12]}.jsonl"
        if path.exists():
            return path.read_bytes().splitlines()
    texts = [simulate.dumps(r).encode() for r in simulate.simulate(game, games, seed, accidents=False)]
    if path is not None:
        tmp = path.with_suffix(".partial")
        tmp.write_bytes(b"".join(t + b"\n" for t in texts))
        tmp.replace(path)
    return texts


#: The stages of a validation, in the order they run, as :func:`stages` times them.
STAGES = ("parse", "structure", "replay", "claims")


def replay_only(record) -> int:
    """The engine's part of a validation and nothing else: start the match, then each hand's
    deal, moves and scoring, as :func:`domrec.validate.validate` drives them, without comparing
    a single claim or building a report.  Returns the moves played."""
    match = games.engine(record.game).start(record)
    n = 0
    for hand in record.hands:
        state = match.start_hand(hand)
        apply = state.apply
        for move in hand.moves:
            apply(move)
        n += len(hand.moves)
        match.finish_hand(state)
    return n


def prefix_runs() -> tuple[tuple[str, Callable[[list[bytes]], None]], ...]:
    """The pipeline of ``domrec validate`` cut after each stage, as ``(name, run)`` pairs in order:
    ``json.loads`` (the reference), ``parse`` (the text to Python data as
    :func:`domrec.reader.loads` reads it first: orjson, and the proof that no key is given
    twice), ``+structure`` (:func:`domrec.reader.loads` whole: header, shape check, the frozen
    record), ``+replay`` (also :func:`replay_only` on the record) and ``total``
    (:func:`domrec.validate.validate_text`, whose remainder is the claims).  Each run takes a list
    of texts and drops what it makes as it goes, as a validation of an archive does (and the
    reference loop of :func:`measure`): freeing it is part of the cost.  :func:`stages` times
    them; ``count_stages.py`` counts their machine instructions."""
    from domrec import reader

    fast = reader.orjson is not None
    parse_one = reader.orjson.loads if fast else reader.parse_json
    loads = reader.loads
    no_duplicates = reader._no_duplicates

    def reference(chunk: list[bytes]) -> None:
        for t in chunk:
            json.loads(t)

    def parse(chunk: list[bytes]) -> None:
        for t in chunk:
            doc = parse_one(t)
            if fast:
                no_duplicates(t, doc)

    def structure(chunk: list[bytes]) -> None:
        for t in chunk:
            loads(t)

    def replay(chunk: list[bytes]) -> None:
        for t in chunk:
            replay_only(loads(t))

    def total(chunk: list[bytes]) -> None:
        for t in chunk:
            validate_text(t)

    return (("json.loads", reference), ("parse", parse), ("+structure", structure), ("+replay", replay),
            ("total", total))


#: Texts timed together by :func:`stages` (about a tenth of a second of work).
CHUNK = 50


def stages(texts: list[bytes], repeat: int = 3) -> dict:
    """Where a validation's time goes, stage by stage, in CPU time.

    Each text goes through the pipeline of ``domrec validate`` as far as a stage, then the next
    text: ``parse`` (the text to Python data as :func:`domrec.reader.loads` reads it first:
    orjson, and the proof that no key is given twice), then also ``structure`` (that data to a
    record: header, shape check, the frozen values; :func:`domrec.reader.loads` whole), then also
    ``replay`` (the engine on the record, :func:`replay_only`), then everything
    (:func:`domrec.validate.validate_text`, whose remainder is ``claims``: the claimed scores
    compared, the report made).  A stage's figure is the difference between two of these
    prefixes, each the mean of ``repeat`` rounds run chunk by chunk (all prefixes and
    ``json.loads`` of the same texts run on a chunk in turn, so they see the machine alike): each text is
    worked on while its data is fresh, as in a real run, so the stages add up to the total (a
    stage timed alone over data made earlier pays for fetching it from memory again).  A
    difference within the noise may come out a little below zero; it is shown as zero."""
    from domrec import reader

    batch_mode()
    best = dict.fromkeys(("json.loads", "parse", "+structure", "+replay", "total"), float("inf"))
    moves = hands = 0
    for t in texts:  # (a first pass, untimed: every cache as a long run has it)
        record = reader.loads(t)
        hands += len(record.hands)
        moves += sum(len(h.moves) for h in record.hands)
        replay_only(record)
        validate_text(t)
    runs = prefix_runs()
    # The texts are timed a chunk at a time, every run on a chunk before the next chunk, and the
    # mean of the rounds is kept: so all runs see the machine alike, moment by moment.  (On a
    # machine shared with other work, the best of the rounds would favour the shortest run,
    # json.loads: a short run is likelier to fall wholly in a quiet moment.)
    rounds = max(1, repeat)
    chunks = [texts[k:k + CHUNK] for k in range(0, len(texts), CHUNK)]
    spent = dict.fromkeys(best, 0.0)
    clock = time.process_time
    for _ in range(rounds):
        for chunk in chunks:
            for name, run in runs:
                start = clock()
                run(chunk)
                spent[name] += clock() - start
    for name, _ in runs:
        best[name] = spent[name] / rounds
    best["structure"] = max(0.0, best["+structure"] - best["parse"])
    best["replay"] = max(0.0, best["+replay"] - best["+structure"])
    best["claims"] = max(0.0, best["total"] - best["+replay"])
    best["moves"], best["hands"] = moves, hands
    return best


def profile_replay(texts: list[bytes], top: int) -> None:
    """cProfile's ``top`` costliest functions (own time) of :func:`replay_only` over the records
    of ``texts``, read beforehand: where a cut of the replay stage must come from.  Times under
    the profiler are several times the real ones; their shares are what to read."""
    import cProfile
    import pstats

    from domrec import reader

    records = [reader.loads(t) for t in texts]
    for r in records:  # (a first pass outside the profile: the engines' caches as in a long run)
        replay_only(r)
    profiler = cProfile.Profile()
    profiler.enable()
    for r in records:
        replay_only(r)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("tottime").print_stats(top)


def stage_line(best: dict) -> str:
    """The stages as multiples of ``json.loads``: ``parse 1.1× + structure 0.9× + …``."""
    ref = best["json.loads"]
    parts = " + ".join(f"{name} {best[name] / ref:.2f}×" for name in STAGES)
    return f"{parts} = {best['total'] / ref:.2f}× json.loads"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game", nargs="?", default="competitive")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--option", action="append", default=[], help="name=value")
    ap.add_argument("--variant", default=None)
    ap.add_argument("--repeat", type=int, default=3, help="rounds; the best of them is printed")
    ap.add_argument("--profile", type=int, default=0, metavar="N",
                    help="also print cProfile's N costliest functions of the replay of the same games")
    args = ap.parse_args()
    m = measure(args.game, args.games, args.seed, args.players, parse_options(args.option), args.variant,
                args.repeat)
    hands, moves, elapsed, reference = m["hands"], m["moves"], m["cpu"], m["reference"]
    print(f"{args.game}: simulated {m['games']} games in {m['simulated']:.2f}s")
    print(f"{args.game}: validated {m['games']} games, {hands} hands, {moves} moves in {elapsed:.3f}s of CPU "
          f"(best of {args.repeat})")
    print(f"{args.game}: {hands / elapsed:,.0f} hands/s, {moves / elapsed:,.0f} moves/s "
          f"(target {TARGETS.get(args.game, 0):,} hands/s)")
    print(f"{args.game}: json.loads of the same texts {reference:.3f}s of CPU, {hands / reference:,.0f} hands/s; "
          f"validation costs {elapsed / reference:.1f}× json.loads (target {RATIO_TARGET:g}×)")
    print(f"{args.game}: by stage, in json.loads of the same texts: {stage_line(stages(m['texts'], args.repeat))}")
    if args.profile:
        profile_replay(m["texts"], args.profile)


if __name__ == "__main__":
    main()

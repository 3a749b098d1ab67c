"""Every speed figure of README's table, from one run of one command, each beside its reference
measured in the same run (issue 40's "Done when"):

* each game's full validation: hands/s and its cost in ``json.loads`` of the same texts, with
  the split by stage (parse, structure, replay, claims: bench_validate.py's ``stages``);
* each DGN form a club writes beside JSON Lines of the same games (bench_dgn_forms.py's
  ``bench``, called, not copied);
* the Game API (what the venue and the recorder call): µs per checked move (``Game.push``),
  beside the validation's replay of the same moves;
* OpenSpiel's Python ``team_dominoes`` replaying the same Competitive hands, checked, where
  OpenSpiel is installed (``pip install open_spiel``); a line says so where it is not.

CPU time of this process, the mean of --repeat rounds, each run on a chunk of games in turn
(on a shared machine the best of several rounds favours the shortest run).  The machine (cores, processor, load
average before and after) is printed first and last: figures taken while other programs ran
are slower, the ratios much less so.

    python benchmarks/bench_all.py            # 1,000 games a game, 200 a DGN form (minutes)
    python benchmarks/bench_all.py --quick    # a smoke test: a few games, one round
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # (the sibling benchmarks, run from anywhere)

from bench_validate import CHUNK, STAGES, simulated_texts, stages  # noqa: E402

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")
#: Issue 40's goals: validation within this many times ``json.loads``; a checked move within
#: this many µs; a DGN form within this many times JSON Lines.
RATIO_GOAL, MOVE_GOAL_US, FORM_GOAL = 3.0, 20.0, 3.0


def machine() -> str:
    """Cores, processor, Python and the load average: what the figures were measured on."""
    cpu = "unknown processor"
    info = Path("/proc/cpuinfo")
    if info.exists():
        cpu = next((x.split(":", 1)[1].strip() for x in info.read_text().splitlines()
                    if x.startswith("model name")), cpu)
    return (f"{os.cpu_count()} cores ({cpu}), {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()} ({platform.python_implementation()}); "
            f"load average {load()}")


def load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def game_api(texts: list[bytes], repeat: int) -> dict:
    """The same games built move by move through :class:`domrec.game.Game` as the venue and the
    recorder build them: ``start_hand`` with the deal, ``push`` of each move (checked by the
    engine, refused with the rule if illegal), ``end_hand`` with the written result (which
    replays the hand once more, as every closed hand is).  ``push`` is timed alone, per hand;
    ``whole`` is everything, per move."""
    from domrec import reader
    from domrec.game import Game

    records = [reader.loads(t) for t in texts]
    # The mean of the rounds, as bench_validate's stages take it.
    rounds = max(1, repeat)
    push_time = whole_time = 0.0
    clock = time.process_time
    moves = sum(len(h.moves) for r in records for h in r.hands)
    for _ in range(rounds):
        for record in records:
            start = clock()
            rules = record.rules
            game = Game(record.game, record.players, variant=rules.variant if rules else None,
                        options=rules.options if rules else None)
            for hand in record.hands:
                game.start_hand(hand.deal, hand.leader)
                push = game.push
                t = clock()
                for move in hand.moves:
                    push(move)
                push_time += clock() - t
                game.end_hand(claim=hand.result)
            whole_time += clock() - start
    return {"moves": moves, "push": push_time / rounds, "whole": whole_time / rounds}


def openspiel_actions(records: list) -> tuple[list[tuple[list[int], list[int]]], int]:
    """The Competitive hands that OpenSpiel's ``team_dominoes`` plays by the same rules, as its
    actions: (the deal's chance actions, the plays' actions), worked out once, outside the clock;
    and how many hands were left out (those OpenSpiel ends otherwise)."""
    from open_spiel.python.games import team_dominoes as td

    index = {str(a): k for k, a in enumerate(td._ACTIONS)}
    game = td.DominoesGame()
    out, left_out = [], 0
    for record in records:
        for hand in record.hands:
            order = [m.seat for m in hand.moves[:4]]
            if len(set(order)) != 4 or hand.deal is None:
                left_out += 1
                continue

            def tile(text: str) -> tuple[float, float]:
                a, b = sorted(float(x) for x in str(text).split("-"))
                return a, b

            held = [list(hand.deal.hands[seat]) for seat in order]
            deal = [td._DECK.index(tile(held[k % 4][k // 4])) for k in range(28)]
            plays, ends = [], {}  # ends: the tile at each open end -> its open pip
            for move in hand.moves:
                played = getattr(move, "play", None)
                if played is None:
                    continue
                t, on = tile(str(played)), getattr(move, "on", None)
                player = order.index(move.seat)
                if not ends:
                    edge = None
                    ends = {str(played): [t[0], t[1]]}
                else:
                    pips = ends[str(on)]
                    edge = next(p for p in pips if p in t)
                    pips.remove(edge)
                    if not pips:
                        del ends[str(on)]
                    ends.setdefault(str(played), []).append(t[1] if t[0] == edge else t[0])
                plays.append(index[str(td.Action(player, t, edge))])
            state = game.new_initial_state()
            try:
                for a in deal:
                    state.apply_action(a)
                for a in plays:
                    if a not in state.legal_actions():
                        raise ValueError(a)
                    state.apply_action(a)
                if not state.is_terminal():
                    raise ValueError("not over")
            except Exception:
                left_out += 1
                continue
            out.append((deal, plays))
    return out, left_out


def openspiel(texts: list[bytes], repeat: int) -> dict | None:
    """OpenSpiel's checked replay of the Competitive hands of ``texts`` (each play's action must
    be among ``legal_actions()`` before it is applied; the deal's tiles are taken from its deck),
    beside domrec's replay and full validation of the hands it plays alike.  ``None`` when
    OpenSpiel is not installed."""
    try:
        from open_spiel.python.games import team_dominoes as td
    except ImportError:
        return None
    from domrec import reader

    hands, left_out = openspiel_actions([reader.loads(t) for t in texts])
    game = td.DominoesGame()
    spent = 0.0
    for _ in range(max(1, repeat)):
        start = time.process_time()
        for deal, plays in hands:
            state = game.new_initial_state()
            for a in deal:
                state.apply_action(a)
            for a in plays:
                if a not in state.legal_actions():
                    raise SystemExit(f"OpenSpiel refused action {a}")
                state.apply_action(a)
        spent += time.process_time() - start
    return {"hands": len(hands), "left_out": left_out, "cpu": spent / max(1, repeat)}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="a smoke test: a few games, one round (figures meaningless)")
    ap.add_argument("--games", type=int, default=None, help="simulated games a game (default 1,000; 20 with --quick)")
    ap.add_argument("--dgn-games", type=int, default=None, help="games a DGN form (default 200; 4 with --quick)")
    ap.add_argument("--dgn-slow-games", type=int, default=None,
                    help="games of the DGN forms without ends (default 20; 2 with --quick)")
    ap.add_argument("--repeat", type=int, default=None, help="rounds, their mean printed (default 3; 1 with --quick)")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()),
                    help="where simulated games are kept between runs")
    ap.add_argument("--no-dgn", action="store_true", help="leave the DGN forms out")
    args = ap.parse_args(argv)
    quick = args.quick
    n_games = args.games or (20 if quick else 1000)
    repeat = args.repeat or (1 if quick else 3)
    print(f"machine: {machine()}")
    print(f"pid {os.getpid()}; CPU time of this process, the mean of {repeat} round{'s' if repeat != 1 else ''} (validation run {CHUNK} games "
          f"at a time, each run in turn, so all see the machine alike); {n_games} simulated games a game"
          + (" (--quick: a smoke test, the figures mean nothing)" if quick else ""), flush=True)

    print(f"\nvalidation (goal: within {RATIO_GOAL:g}× json.loads of the same texts), and its stages in json.loads:")
    texts_of, figures = {}, {}
    for game in GAMES:
        texts = texts_of[game] = simulated_texts(game, n_games, cache=args.cache)
        best = figures[game] = stages(texts, repeat)
        ref, total = best["json.loads"], best["total"]
        split = " + ".join(f"{name} {best[name] / ref:.2f}" for name in STAGES)
        print(f"  {game:13} {best['hands'] / total:9,.0f} hands/s  json.loads {best['hands'] / ref:9,.0f} hands/s  "
              f"validate {total / ref:.2f}×  ({split})", flush=True)

    print(f"\nGame API (goal: a checked move within {MOVE_GOAL_US:g} µs), µs per move:")
    apis = {}
    for game in GAMES:
        api = apis[game] = game_api(texts_of[game], repeat)
        replay_us = figures[game]["replay"] / figures[game]["moves"] * 1e6
        print(f"  {game:13} push {api['push'] / api['moves'] * 1e6:6.2f} µs  "
              f"(with start_hand and end_hand {api['whole'] / api['moves'] * 1e6:6.2f} µs)  "
              f"validation's replay of the same moves {replay_us:6.2f} µs", flush=True)

    print("\nOpenSpiel (Python team_dominoes), the same Competitive hands:")
    spiel = openspiel(texts_of["competitive"], repeat)
    if spiel is None:
        print("  OpenSpiel is not installed (pip install open_spiel): comparison skipped")
    else:
        comp = figures["competitive"]
        print(f"  team_dominoes checked replay {spiel['hands'] / spiel['cpu']:9,.0f} hands/s "
              f"({spiel['hands']} hands; {spiel['left_out']} left out: OpenSpiel ends them otherwise); "
              f"domrec's full validation {comp['hands'] / comp['total']:9,.0f} hands/s, "
              f"{comp['hands'] / comp['total'] / (spiel['hands'] / spiel['cpu']):.0f}× as fast", flush=True)

    if args.no_dgn:
        print("\nDGN forms: left out (--no-dgn)")
    else:
        import bench_dgn_forms

        dgn = argparse.Namespace(games=args.dgn_games or (4 if quick else 200),
                                 slow_games=args.dgn_slow_games or (2 if quick else 20), seed=1, repeat=repeat)
        print(f"\nDGN forms (goal: within {FORM_GOAL:g}× JSON Lines of the same games), bench_dgn_forms.py:")
        table = {}
        with tempfile.TemporaryDirectory() as tmp:
            for game in GAMES:
                table[game] = bench_dgn_forms.bench(game, dgn, Path(tmp))
        print("\n| form | " + " | ".join(GAMES) + " |")
        print("|---|" + "---|" * len(GAMES))
        for k, form in enumerate(bench_dgn_forms.FORMS):
            cells = []
            for game in GAMES:
                _, n, tj, td, asked = table[game][k]
                cells.append(f"{td / tj:.1f}×" + (f" ({asked}/{n} asked)" if asked else ""))
            print(f"| {form[0]} | " + " | ".join(cells) + " |")

    print("\nREADME table (validation and Game API):\n")
    print("| game | validate, hands/s | ÷ json.loads | parse | structure | replay | claims | Game.push, µs/move |")
    print("|---|---|---|---|---|---|---|---|")
    for game in GAMES:
        best = figures[game]
        ref = best["json.loads"]
        print(f"| {game} | {best['hands'] / best['total']:,.0f} | {best['total'] / ref:.2f}× | "
              + " | ".join(f"{best[name] / ref:.2f}×" for name in STAGES)
              + f" | {apis[game]['push'] / apis[game]['moves'] * 1e6:.1f} |")
    print(f"\nload average after the run: {load()}")


if __name__ == "__main__":
    main()

"""Page sizes: replay pages, the report's page of a thousand players, everything a report writes.

    python benchmarks/bench_pages.py                 # all three, in under a minute
    python benchmarks/bench_pages.py --games 1000    # the report of a real 1,000-game event (an hour or so)

Targets (issue 24): a whole game's replay page at most 150 KB; the report's page of a
1,000-player event at most 300 KB; `tournament report` of an event with 1,000 games at most
200 MB in all.  The first is measured on simulated games of each game (the largest page of
``--seeds`` games); the second on a real event of 1,000 players over 4 rounds (results typed in
by hand, so that it builds in seconds); the third runs `tournament report` on a simulated event
of ``--games`` games (every result with its record, so every table gets its replay page) and
counts every byte written, with the figure for 1,000 games worked out from it when smaller.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from domrec import replay_page
from domrec.simulate import simulate

from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round
from tournament.event.simulate import simulate_event
from tournament.pages import public, report as rp
from tournament.event.public import public_data
from tournament.pages.public import Site

GAMES = ("competitive", "broadway", "horse-race", "castle-rock", "domino-roads")
KB = 1000


def bench_replay_pages(seeds: int) -> None:
    for game in GAMES:
        t0 = time.perf_counter()
        sizes = []
        for record in simulate(game, seeds, 1):
            sizes.append((len(replay_page.page(record).encode("utf-8")), sum(len(h.moves) for h in record.hands)))
        big, moves = max(sizes)
        mean = sum(s for s, _ in sizes) / len(sizes)
        print(f"replay page, {game}: largest {big / KB:.1f} KB ({moves} moves), mean {mean / KB:.1f} KB over "
              f"{seeds} games  [target <= 150 KB]  ({time.perf_counter() - t0:.1f} s)")


def bench_thousand_players() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        store = create_event(Path(tmp) / "big.db", make_settings("A thousand players", "competitive", "rotating",
                                                                 seed=1))
        store.defer_browsing = True  # as the tournament command does: the snapshot once, at close
        add_players(store, [f"Firstname Lastname {i:04d}" for i in range(1000)])
        rng = random.Random(1)
        for _ in range(4):
            pair_next_round(store)
            for t in store.tables(store.last_round()):
                enter_manual(store, t.number, {"NS": rng.randrange(0, 260), "EW": rng.randrange(0, 260)})
        setup = time.perf_counter() - t0
        data = public_data(store)  # what `tournament report` reads
        store.close()
    apart = rp.rounds_apart(data)
    rounds = {r["round"]: f"big-rounds/round-{r['round']}.html" for r in data["rounds"]} if apart else None
    page = rp.html_page(data, {}, rounds=rounds)
    site = Site(served=False, up="../", report="big.html")
    biggest = max(len(public.round_page_html(data, site, r).encode("utf-8")) for r in data["rounds"])
    print(f"report page, 1,000 players, 4 rounds: {len(page.encode('utf-8')) / KB:.1f} KB  [target <= 300 KB]  "
          f"(rounds on pages of their own: {'yes' if apart else 'no'}, the largest {biggest / KB:.1f} KB; "
          f"set-up {setup:.1f} s)")
    standings = public.page_html(data, Site(served=True), "standings")
    print(f"the hall's standings page, 1,000 players: {len(standings.encode('utf-8')) / KB:.1f} KB  "
          f"[target <= 300 KB]")


def bench_report(games: int) -> None:
    players = 4 * games if games <= 250 else 1000
    rounds = max(1, games // (players // 4))
    with tempfile.TemporaryDirectory() as tmp:
        event = Path(tmp) / "event.db"
        t0 = time.perf_counter()
        simulate_event(event, "competitive", "rotating", players, rounds, seed=1)
        made = time.perf_counter() - t0
        from typer.testing import CliRunner

        from tournament.cli import app

        t0 = time.perf_counter()
        result = CliRunner().invoke(app, ["report", str(event), "-o", str(Path(tmp) / "event.html")])
        took = time.perf_counter() - t0
        assert result.exit_code == 0, result.output
        files = [p for p in Path(tmp).rglob("*") if p.is_file() and p.suffix == ".html"]
        total = sum(p.stat().st_size for p in files)
        replays = [p.stat().st_size for p in files if p.parent.name.endswith("-replays")]
    played = len(replays)
    line = (f"tournament report, {played} games ({players} players, {rounds} round{'' if rounds == 1 else 's'}): "
            f"{total / 1e6:.2f} MB in "
            f"{len(files)} files, {total / played / KB:.1f} KB a game, the largest replay page "
            f"{max(replays) / KB:.1f} KB")
    if played < 1000:
        line += f"; for 1,000 games about {total / played * 1000 / 1e6:.0f} MB"
    print(f"{line}  [target <= 200 MB for 1,000 games]  (report {took:.1f} s, event {made:.1f} s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seeds", type=int, default=3, help="simulated games a game for the replay pages")
    parser.add_argument("--games", type=int, default=12, help="games of the simulated event to report")
    args = parser.parse_args()
    bench_replay_pages(args.seeds)
    bench_thousand_players()
    bench_report(args.games)


if __name__ == "__main__":
    main()

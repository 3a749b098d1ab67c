"""The federation report: what writing it and reading it back cost, beside the JSON export.

    python benchmarks/bench_federation.py            # 200 players, 4 rounds (200 games), 3 runs
    python benchmarks/bench_federation.py --players 1000 --rounds 4

One simulated rotating-partner Competitive event (every game a record), then, in one process, each
timed in CPU seconds (``time.process_time``), the median of the runs:

* **the JSON export's data and text** (``tournament export -o event.json`` without the file): the
  reference, measured in the same run, so a slower or busier machine shows in it too;
* **the federation report's text** (``export --format federation``): the same event data, and each
  recorded game replayed once by domrec to say how its last hand ended;
* **the report read back** (``ratings --from``'s reading: every line checked);
* **the report's games as the ratings take them**, beside the same taken from the event file.

The figures printed are absolute and as ratios to the JSON export's; quote the ratio, with the
load average (printed first and last) beside it.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Callable


def cpu(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(runs):
        start = time.process_time()
        out = fn()
        times.append(time.process_time() - start)
    return statistics.median(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    from tournament.event import federation, federation_file as ff
    from tournament.event.files import open_event
    from tournament.event.ratings import event_games, report_games
    from tournament.event.simulate import simulate_event
    from tournament.pages import report as rp

    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "ev.db"
        summary = simulate_event(path, "competitive", "rotating", args.players, args.rounds, seed=1)
        store = open_event(path)
        try:
            games = sum(1 for r in store.results().values() if r.kind == "record")
            print(f"{args.players} players, {args.rounds} rounds, {games} recorded games ({summary.games} games)")
            json_s, json_text = cpu(lambda: rp.export_json(rp.event_data(store)), args.runs)
            fed_s, text = cpu(lambda: federation.text_of(store), args.runs)
            read_s, report = cpu(lambda: ff.loads(text, "ev.dfr"), args.runs)
            rated_s, rated = cpu(lambda: report_games(report), args.runs)
            from_file_s, from_file = cpu(lambda: list(event_games(store)), args.runs)
            assert rated == from_file, "the report rates other games than its event file"
        finally:
            store.close()
    rows = [("JSON export (reference)", json_s, len(json_text.encode())),
            ("federation report written", fed_s, len(text.encode())),
            ("federation report read back", read_s, None),
            ("its games for the ratings", rated_s, None),
            ("the same from the event file", from_file_s, None)]
    for label, seconds, size in rows:
        extra = f"  {size / 1024:.0f} KB" if size is not None else ""
        print(f"{label:32} {seconds * 1000:9.1f} ms  {seconds / json_s:5.2f}x the JSON export{extra}")
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()

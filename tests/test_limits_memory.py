"""Issue 27, point 1: every command's peak memory within 10 times the files it reads plus 100 MB,
or a one-line refusal before the work starts (docs/format.md, "Limits").

Each command runs in a process of its own, which reads its own high-water mark (``VmHWM`` in
/proc/self/status) as it ends: ``ru_maxrss`` would carry over the peak of the test worker that
started it.  These are checks of a budget, not of time; where there is no /proc they are skipped.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from domrec import simulate
from domrec.replay_page import MAX_PAGE_MOVES
from tests.conftest import TYPED_HAND

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc/self/status (VmHWM)")

MIB = 2 ** 20

#: Runs a command and writes its own peak memory on stderr as it ends.
PEAK = str(Path(__file__).resolve().parent.parent / "tools" / "peak.py")


def peak_of(target: str, *args: str | Path, stdin: Path | None = None) -> tuple[float, subprocess.CompletedProcess]:
    """A command's own peak resident memory (MiB) and how it ended."""
    with open(stdin or os.devnull, "rb") as source:
        r = subprocess.run([sys.executable, PEAK, target, *map(str, args)], stdin=source,
                           capture_output=True, text=True, timeout=900, check=False)
    assert "Traceback" not in r.stderr, r.stderr
    return int(r.stderr.rsplit("PEAK ", 1)[1].split()[0]) / 1024, r


def budget(*files: Path) -> float:
    """10 times the size of the files read, plus 100 MB (in MiB, as the peak is)."""
    return 10 * sum(f.stat().st_size for f in files) / MIB + 100


def horse_race(target: int) -> str:
    """A seeded Horse Race to ``target`` points: the higher, the more hands (300: 820 moves)."""
    template = simulate.make_record("horse-race", 4, {"target": target}, None)
    old = simulate.MAX_HANDS
    simulate.MAX_HANDS = 10 ** 6
    try:
        return simulate.dumps(simulate.play_game(template, random.Random(5)))
    finally:
        simulate.MAX_HANDS = old


def moves_of(text: str) -> int:
    return sum(len(hand.get("moves", [])) for hand in json.loads(text)["hands"])


# --- domrec explain --html ------------------------------------------------------------------


def test_a_long_games_replay_page_keeps_within_its_budget(tmp_path):
    """A page of 820 moves took every position of the game at once; each hand is now kept as
    its data once over (a game of 7,608 moves took 529 MB)."""
    record = tmp_path / "long.json"
    record.write_text(horse_race(300), encoding="utf-8")
    assert 500 < moves_of(record.read_text()) <= MAX_PAGE_MOVES
    peak, r = peak_of("domrec.cli", "explain", record, "--html", tmp_path / "long.html")
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "long.html").stat().st_size > 0
    assert peak < budget(record), peak


def test_a_record_over_the_pages_limit_is_refused_in_one_line_before_its_replay(tmp_path):
    record = tmp_path / "longer.json"
    record.write_text(horse_race(1000), encoding="utf-8")
    moves = moves_of(record.read_text())
    assert moves > MAX_PAGE_MOVES
    peak, r = peak_of("domrec.cli", "explain", record, "--html", tmp_path / "longer.html")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == (f"error: {record} has {moves:,} moves, more than 2,000, the most a "
                                        f"replay page shows; no page was made"), r.stderr
    assert not (tmp_path / "longer.html").exists()
    assert peak < budget(record), peak


# --- domrec record from a pipe --------------------------------------------------------------


def _typed(comments: int) -> str:
    """The typed hand with ``comments`` comment lines before it (they become the event's comment)."""
    head, body = TYPED_HAND.split("\n\n", 1)
    return head + "\n" + "{c}\n" * comments + "\n" + body


@pytest.mark.slow
def test_recording_a_megabyte_of_typed_text_keeps_within_its_budget(tmp_path):
    """1 MB of typed DGN took 133 MB: every line of the tags and comments kept as a string, and
    read twice.  (About 20 s: each move saves the game, its 0.5 MB comment with it.)"""
    typed = tmp_path / "typed.dgn"
    typed.write_text(_typed(250_000), encoding="utf-8")  # just under 1 MiB
    assert 0.9 * MIB < typed.stat().st_size < MIB
    peak, r = peak_of("domrec.cli", "record", "competitive", "-o", tmp_path / "game.json", stdin=typed)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "valid competitive" in r.stdout
    assert peak < budget(typed), peak


def test_tags_and_comments_over_a_mebibyte_are_refused_in_one_line(tmp_path):
    typed = tmp_path / "typed.dgn"
    typed.write_text(_typed(300_000), encoding="utf-8")  # 1.2 MB before the first hand
    peak, r = peak_of("domrec.cli", "record", "competitive", "-o", tmp_path / "game.json", stdin=typed)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines()[0] == ("error: standard input's tags and comments before the first hand are "
                                        "more than 1 MiB, the limit for one game of DGN; not read"), r.stderr
    assert not (tmp_path / "game.json").exists()
    assert peak < budget(typed), peak


# --- tournament result, check and report ----------------------------------------------------


def test_tournament_result_check_and_report_keep_within_their_budget(tmp_path):
    """A 4-game event: ``report`` was measured at 131 MB when its replay pages carried a picture a
    position (and the peak was read with ``ru_maxrss``); it writes every page, one at a time."""
    from typer.testing import CliRunner

    from tournament.cli import app

    event = tmp_path / "event.db"  # (made in this process: only the commands measured need one of their own)
    made = CliRunner().invoke(app, ["simulate", str(event), "--players", "8", "--rounds", "2", "--seed", "1", "-q"])
    assert made.exit_code == 0, made.output
    from tournament.store.files import open_store

    with open_store(event) as store:
        result = next(r for r in store.results().values() if getattr(r, "kind", "") == "record")
        table = tmp_path / "table.json"
        table.write_text(store.record_text(result.id), encoding="utf-8")
    for args, read in ((["result", event, table, "--replace"], [event, table]), (["check", event], [event]),
                       (["report", event, "-o", tmp_path / "event.html"], [event])):
        peak, r = peak_of("tournament.cli.app:main", *args)
        assert r.returncode == 0, (args, r.stdout + r.stderr)
        assert peak < budget(*read), (args[0], peak)
    assert len(list((tmp_path / "event-replays").iterdir())) == 4


def test_a_game_too_long_for_a_page_gets_no_page_and_no_link_in_the_report(tmp_path, monkeypatch):
    """``tournament report`` writes the pages it can: a game over the limit (made small here) has
    no page and no link, and the report is written, exit 0."""
    from typer.testing import CliRunner

    from domrec import replay_page
    from tournament.cli import app
    from tournament.event.simulate import simulate_event

    event = tmp_path / "event.db"
    simulate_event(event, "competitive", "rotating", 8, 1, seed=4)
    monkeypatch.setattr(replay_page, "MAX_PAGE_MOVES", 0)
    r = CliRunner().invoke(app, ["report", str(event), "-o", str(tmp_path / "event.html")])
    assert r.exit_code == 0 and "Traceback" not in r.output, r.output
    assert "-replays/" not in (tmp_path / "event.html").read_text(encoding="utf-8")
    assert not list((tmp_path / "event-replays").glob("*.html"))

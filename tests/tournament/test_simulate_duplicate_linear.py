"""``tournament simulate --format teams --duplicate`` (and duplicate pairs) grew with the square of
the players: each board result entered looked the record's names (its seats: nobody's) up over
every player's name, and in duplicate teams read every table of the event to find the match's
other table; and each round's pairing looked at each table for a team a pair short, reading every
team for each.  The event's names are now indexed once a round, the other table is looked for
only where a board is marked not played, and the tables for a pair short only where a pair is out
of the round.  What the simulation makes must not change: its event file, timestamps and the
event's uuid aside, is compared with what the code before the change made for the same seeds
(digests recorded below).  A later change that alters on purpose what an event file holds (its
schema, a simulated game) changes these digests too: check that the simulation's standings and
games are the same before and after it (``tournament standings``/``tables`` of each case), then
record the new digests, printed by :func:`made`."""

from __future__ import annotations

import hashlib
import re
import sqlite3
from pathlib import Path

import pytest

from tournament.event import desk, results as res, simulate
from tournament.store import boards as boards_sql


def made(path: Path) -> str:
    """The SHA-256 of the event file's every row (its SQL dump), its uuid and timestamps left out:
    the only things two runs of the same seed may differ in."""
    with sqlite3.connect(path) as db:
        text = "\n".join(db.iterdump())
        uuid = db.execute("SELECT value FROM meta WHERE key = 'event_uuid'").fetchone()[0]
    db.close()
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(\+00:00|Z)?", "TIME", text.replace(uuid, "UUID"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: What the code before the change made: (keyword arguments, the summary, the digest of the file).
BEFORE = [
    (dict(teams=6, seed=3), (24, 5, 60, 0),
     "9c94d9259edc3322dc2824f144cdd8a6f1f3eb572f8ac9904150dddc7e620729"),
    (dict(teams=5, seed=8, victory_points=True, rounds_=3), (20, 3, 24, 12),
     "caf7a9c5464552cb9462fb4a70e28799b5316c2f9d7d6414dd643a9dbb4ac0b1"),
    (dict(tables=3, seed=5, rounds_=3), (12, 3, 18, 0),
     "30611fba93efb9b3e2d587423ecee1d85a1ad13e75da5ebf7f6ebd1f38db1b62"),
    (dict(pairs=7, seed=2), (14, 4, 24, 4),
     "bc87be54044e4398064a239647a2b41164207236e2af3a6074864a16f74d4580"),
]


@pytest.mark.parametrize("kwargs, summary, digest", BEFORE)
def test_the_same_event_as_before(tmp_path: Path, kwargs: dict, summary: tuple, digest: str,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # (the trail names who entered each result: the account's login name, as the digests were
    # recorded; any other account running the tests would change the file)
    monkeypatch.setenv("LOGNAME", "root")
    kwargs = dict(kwargs)
    got = simulate.simulate_duplicate(tmp_path / "e.db", "competitive", kwargs.pop("tables", 0),
                                      kwargs.pop("rounds_", None), **kwargs)
    assert (got.players, got.rounds, got.games, got.byes) == summary
    assert made(tmp_path / "e.db") == digest


@pytest.mark.parametrize("teams", [4, 8])
def test_entering_a_result_reads_no_name_and_no_table_but_its_own(teams: int, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Each name is normalised once a round (the index) and once for each seat of a result, however
    many players the event has; the match's other table is never looked for (no board is marked
    not played), nor is a table looked at for a pair short (no pair is out).  Before: every
    player's name twice a result, every table of the event once a result, and every team once a
    table of each round paired."""
    keyed = {"n": 0}
    matched = {"n": 0}
    looked = {"n": 0}
    short_forfeit = desk.short_forfeit

    def counted_short(*args: object, **kw: object) -> bool:
        looked["n"] += 1
        return short_forfeit(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(desk, "short_forfeit", counted_short)
    name_key, match_tables = res.name_key, boards_sql.match_tables

    def counted_key(name: str) -> str:
        keyed["n"] += 1
        return name_key(name)

    def counted_match(store: object) -> dict[int, int]:
        matched["n"] += 1
        return match_tables(store)  # type: ignore[arg-type]

    monkeypatch.setattr(res, "name_key", counted_key)
    monkeypatch.setattr(boards_sql, "match_tables", counted_match)
    got = simulate.simulate_duplicate(tmp_path / "e.db", "competitive", 0, 3, seed=1, teams=teams)
    assert got.games == 3 * teams * 2  # 3 rounds of teams / 2 matches of 2 tables, 2 boards a round
    assert keyed["n"] <= got.rounds * got.players + 4 * got.games, keyed
    assert matched["n"] == 0
    assert looked["n"] == 0

"""The waits after wrong PINs read without clearing them (``tournament pins EVENT --waits``,
:func:`tournament.event.venue.pin_waits`): a line a table that has had a wrong PIN (how many, how
long its confirmations and the director's PIN there still wait), one for the wrong director's
PINs at the tables together (how many, how long the director's PIN still waits at every table),
"no wrong PIN" where there is none.  The command line showed them only by clearing them.

The wrong PINs are typed through the library (``Venue.check_director_pin`` at a table, which counts
against the table and the event alike) on the test's clock: no test waits."""

from __future__ import annotations

import datetime
import re

import pytest
from typer.testing import CliRunner

from tournament import create_event, add_players, make_settings, open_event, pair_next_round
from tournament.cli import app
from tournament.event import venue as vn

T = datetime.datetime(2026, 5, 2, 19, 0, tzinfo=datetime.timezone.utc)


def _event(tmp_path):
    """A club night of 12 players (three tables), its first round paired."""
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=3))
    add_players(store, [f"Player {i}" for i in range(1, 13)])
    pair_next_round(store)
    store.close()
    return path


def _wrong(path, at: datetime.datetime, table: int, count: int, step: int = 0) -> None:
    """``count`` wrong director's PINs typed on the phone of round 1's ``table``, from ``at`` on,
    ``step`` seconds apart (a PIN typed while the table waits is refused uncounted)."""
    store = open_event(path)
    try:
        now = [at]
        venue = vn.Venue(store, pins=True, clock=lambda: now[0])
        typed = "000000" if vn.venue_sql.director_pin(store) != "000000" else "111111"
        for _ in range(count):
            with pytest.raises(vn.VenueError):
                venue.check_director_pin(typed, 1, table)
            now[0] += datetime.timedelta(seconds=step)
    finally:
        store.close()


def _waits(path, at: datetime.datetime) -> vn.PinWaits:
    store = open_event(path)
    try:
        return vn.pin_waits(store, at)
    finally:
        store.close()


def test_the_waits_as_they_stand_each_table_and_the_directors_pin(tmp_path):
    path = _event(tmp_path)
    assert _waits(path, T).lines() == ["no wrong PIN at any table", "director's PIN: no wrong PIN at the tables"]
    _wrong(path, T, 2, 3)  # under the 5 a table has free: no wait
    # 30 s at the 5th, 60 at the 6th, 120 at the 7th (typed at T, each wait over before the next);
    # the event's 10th: 30 s at every table
    _wrong(path, T - datetime.timedelta(seconds=6 * 600), 1, 7, step=600)
    waits = _waits(path, T)
    assert [(t.round, t.table, t.wrong, t.wait) for t in waits.tables] == [(1, 1, 7, 120), (1, 2, 3, 0)]
    assert (waits.director_wrong, waits.director_wait) == (10, 30)
    assert waits.lines() == [
        "round 1 table 1: 7 wrong PINs; its confirmations and the director's PIN there wait 120 seconds more "
        "(tournament pins --clear 1/1)",
        "round 1 table 2: 3 wrong PINs; its confirmations do not wait",
        "director's PIN: 10 wrong at the tables together; it waits 30 seconds more at every table "
        "(tournament pins --clear-director)"]
    # Later: the counts stand (the next wrong PIN waits longer), the waits are over.
    assert _waits(path, T + datetime.timedelta(seconds=119)).lines()[0].endswith("wait 1 second more "
                                                                                  "(tournament pins --clear 1/1)")
    assert _waits(path, T + datetime.timedelta(seconds=200)).lines() == [
        "round 1 table 1: 7 wrong PINs; its confirmations do not wait",
        "round 1 table 2: 3 wrong PINs; its confirmations do not wait",
        "director's PIN: 10 wrong at the tables together; it waits at no table"]


def test_pins_waits_at_the_command_line_reads_and_clears_nothing(tmp_path):
    path = _event(tmp_path)
    runner = CliRunner()
    r = runner.invoke(app, ["pins", str(path), "--waits"])
    assert r.exit_code == 0, r.output
    assert r.stdout == "no wrong PIN at any table\ndirector's PIN: no wrong PIN at the tables\n"
    long_ago = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)
    _wrong(path, long_ago, 3, 1)
    r = runner.invoke(app, ["pins", str(path), "--waits"])
    assert r.exit_code == 0 and r.stdout == ("round 1 table 3: 1 wrong PIN; its confirmations do not wait\n"
                                             "director's PIN: 1 wrong at the tables together; it waits at no table\n")
    # A wait still running (typed a day from now: its seconds are a day's and more, whenever this runs).
    _wrong(path, datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1), 1, 5)
    for _ in range(2):  # (read twice: reading clears nothing)
        r = runner.invoke(app, ["pins", str(path), "--waits"])
        assert r.exit_code == 0, r.output
        lines = r.stdout.splitlines()
        assert len(lines) == 3, lines
        assert re.fullmatch(r"round 1 table 1: 5 wrong PINs; its confirmations and the director's PIN there wait "
                            r"(\d+) seconds more \(tournament pins --clear 1/1\)", lines[0])
        assert int(re.search(r"wait (\d+)", lines[0])[1]) > 86_400
        assert lines[1] == "round 1 table 3: 1 wrong PIN; its confirmations do not wait"
        assert lines[2] == "director's PIN: 6 wrong at the tables together; it waits at no table"
    listed = runner.invoke(app, ["pins", str(path)]).stdout.splitlines()  # without --waits: the PINs, as ever
    assert len(listed) == 12 and all(re.fullmatch(r"#\d+\tPlayer \d+\t\d{4}", x) for x in listed), listed


@pytest.mark.parametrize("also", [["--clear", "1/1"], ["--clear-director"], ["--slips"], ["--by", "Marta"],
                                  ["--lang", "es"]])
def test_waits_is_given_alone(tmp_path, also):
    path = _event(tmp_path)
    _wrong(path, T, 1, 2)
    r = CliRunner().invoke(app, ["pins", str(path), "--waits", *also])
    assert r.exit_code == 2 and r.stderr == "error: --waits only reads the waits after wrong PINs: give it alone\n", r.output
    assert [t.wrong for t in _waits(path, T).tables] == [2]  # nothing cleared

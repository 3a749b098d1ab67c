"""The director's page entering a whole game's result at a table that plays no boards
(``POST …/result`` without ``"board"``).

Whether the table already has a result is read in the entry's own write transaction, under the
venue's lock, as for a duplicate board (tests/tournament/test_director_board_entry_atomic.py): a
result that lands first (``tournament result`` beside the server) makes the entry a correction,
refused without a reason and kept as a correction with one, never met by the entry.  Before,
without an id (``cid``, whose writes :meth:`Venue.once` already made in one transaction), the
check was made before the entry's write was taken: a result landing between was met by the entry,
refused in the command line's words ("give --replace to replace it").

Tested by hooking the check (the venue's ``store.result_for``): right after it, another writer of
the file tries to store the table's result, not waiting for the file; it must find the file held."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tournament.event import results
from tournament.event.files import open_event
from tournament.event.venue import Unprocessable, Venue
from tournament.store.sqlite import is_busy, not_waiting

from tests.tournament.test_venue import _event


@pytest.fixture
def seated(tmp_path: Path):
    """A competitive event's round 1 paired, its venue in this thread (no server: the test calls
    it in the order it needs) and a second connection to the file, another writer (as the command
    line beside the server): the event, the venue, the other store."""
    event = _event(tmp_path, "competitive")
    venue = Venue(open_event(event))
    other = open_event(event)
    try:
        yield event, venue, other
    finally:
        other.close()
        venue.store.close()


def _land_at_the_check(monkeypatch, venue: Venue, other) -> list[str]:
    """At the venue's first reading of table 1's result, after it has read it: another writer
    stores the table's result (20 to 0), not waiting for the file.  What became of it:
    ``["stored"]``, or ``["held"]`` (the file was held by the entry's write)."""
    real = venue.store.result_for
    table_id = venue.table(1, 1).id
    became: list[str] = []

    def check_then_land(asked: int):
        answer = real(asked)
        if asked == table_id and not became:
            try:
                with not_waiting(other.conn):
                    results.enter_manual(other, 1, {"NS": 20, "EW": 0}, 1)
                became.append("stored")
            except sqlite3.OperationalError as e:
                assert is_busy(e), e
                became.append("held")
        return answer

    monkeypatch.setattr(venue.store, "result_for", check_then_land)
    return became


def _stored(venue: Venue) -> dict[str, int]:
    return dict(venue.store.result_for(venue.table(1, 1).id).scores)


@pytest.mark.parametrize("reason", [None, "the phone broke"])
def test_a_result_landing_at_the_check_never_meets_the_entry(seated, monkeypatch, reason) -> None:
    event, venue, other = seated
    became = _land_at_the_check(monkeypatch, venue, other)
    said = venue.director_result(1, 1, {"NS": 30, "EW": 0}, reason)["said"]
    # The check and the write are one step: nothing else could write between them.
    assert became == ["held"]
    assert said == ["round 1 table 1: NS 30, EW 0; winner NS (manual entry, unverified) — stored"], said
    monkeypatch.undo()
    assert _stored(venue) == {"NS": 30, "EW": 0}
    # The other writer, once the file is free, finds the table's result there: the director's stands.
    with pytest.raises(results.HasResult):
        results.enter_manual(other, 1, {"NS": 20, "EW": 0}, 1)
    assert _stored(venue) == {"NS": 30, "EW": 0}


def test_a_result_stored_first_makes_the_entry_a_correction(seated) -> None:
    """The other writer's result is in before the entry reads the table: the entry is a
    correction, the usual line without a reason, kept as a correction with one."""
    event, venue, other = seated
    results.enter_manual(other, 1, {"NS": 20, "EW": 0}, 1)
    with pytest.raises(Unprocessable, match="give the reason for changing a result"):
        venue.director_result(1, 1, {"NS": 30, "EW": 0}, None)
    assert _stored(venue) == {"NS": 20, "EW": 0}
    said = venue.director_result(1, 1, {"NS": 30, "EW": 0}, "scored wrong")["said"]
    assert _stored(venue) == {"NS": 30, "EW": 0}
    assert said == ["round 1 table 1: NS 30, EW 0; winner NS (manual entry, unverified) — amended (the old "
                    "result is kept: `tournament history`)"], said

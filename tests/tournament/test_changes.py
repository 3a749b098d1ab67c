"""The change log: every change people can see, once, in the transaction that makes it.

An older (schema 4) file gets its log at its first change and not before; each kind of change is
logged exactly once (the same record entered twice: one change); a refused, rolled-back or killed
write leaves no row; and, for random sequences of operations, the log reads back numbered
1, 2, 3, … up to :func:`latest_seq`, a change for every operation that changed something.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from domrec.session import requests_for

from tournament import (Refused, TournamentError, add_pairs, add_players, create_event, create_final, enter_forfeit,
                        enter_manual, enter_record, make_settings, open_event, pair_next_round, withdraw)
from tournament.event import changes as ch, progress, stages, venue as vn
from tournament.event.results import amend_manual
from tournament.store import changes as change_sql

from tests.tournament.conftest import play_table


def kinds(store, since: int = 0) -> list[str]:
    return [c["kind"] for c in ch.changes_since(store, since)]


def seqs_are_whole(store) -> None:
    """The log numbered 1, 2, … without a gap, its last number :func:`latest_seq`."""
    seqs = [c["seq"] for c in ch.changes_since(store, 0, 10**6)]
    assert seqs == list(range(1, len(seqs) + 1))
    assert ch.latest_seq(store) == (seqs[-1] if seqs else 0)


# --- an older file ------------------------------------------------------------------------------


def as_schema_4(path: Path) -> None:
    """What the tool before the log wrote: no ``changes`` table, schema 4 (the venue's tables in)."""
    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE changes")
    conn.execute("DELETE FROM sqlite_sequence WHERE name = 'changes'")
    conn.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    conn.execute("PRAGMA user_version = 4")
    conn.commit()
    conn.close()


def versions(path: Path) -> tuple[str, int]:
    conn = sqlite3.connect(path)
    try:
        return (conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0],
                conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_a_new_file_starts_its_log_when_it_is_made(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=1))
    assert versions(tmp_path / "ev.db") == ("5", 5)
    [first] = ch.changes_since(store, 0)
    assert first["seq"] == 1 and first["kind"] == ch.EVENT_CREATED and first["round"] is None
    assert first["data"] == {"name": "Club", "game": "competitive", "format": "rotating"}
    store.close()


def test_a_schema_4_file_gets_its_log_at_its_first_change(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=2))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    vn.ensure_tokens(store)  # a served file: schema 4 with the venue's tables
    t1, t2 = store.tables(1)
    enter_record(store, play_table(store, t1, seed=1), "t1.json")
    store.close()
    as_schema_4(path)

    store = open_event(path)
    assert ch.latest_seq(store) == 0 and ch.changes_since(store, 0) == []
    from tournament.event import feed
    feed.event(store), feed.standings(store), feed.rounds(store)  # reading never upgrades
    assert versions(path) == ("4", 4) and not change_sql.has_changes(store)
    with pytest.raises(Refused):  # a refused write neither
        enter_manual(store, 1, {"NS": 1, "EW": 2})
    assert versions(path) == ("4", 4) and not change_sql.has_changes(store)

    enter_manual(store, 2, {"NS": 100, "EW": 20})
    assert versions(path) == ("5", 5)
    log = ch.changes_since(store, 0)
    assert [c["kind"] for c in log] == [ch.LOG_STARTED, ch.RESULT_ENTERED, ch.TABLE_STATUS]
    assert log[0]["data"] == {"from_schema": 4}
    assert (log[1]["round"], log[1]["table"]) == (1, 2) and log[1]["data"]["scores"] == {"NS": 100, "EW": 20}
    seqs_are_whole(store)
    # What the file held before its log began is read from the feed, not the log.
    assert feed.round_(store, 1)["tables"][0]["status"] == ch.CONFIRMED
    store.close()
    store = open_event(path)  # and an older tool is now refused: the file is schema 5
    assert store.meta()["schema_version"] == "5"
    store.close()


# --- each kind, once ----------------------------------------------------------------------------


def test_players_rounds_and_results_each_log_once(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=7))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo"])
    assert kinds(store, 1) == [ch.PLAYER_ADDED] * 9
    assert ch.changes_since(store, 1)[0]["data"] == {"id": 1, "name": "Ana", "from_round": 1}
    with pytest.raises(Refused):
        add_players(store, ["Jo", "Ana"])  # one refused: none of them, and no change
    mark = ch.latest_seq(store)
    withdraw(store, "Ivo")
    assert kinds(store, mark) == [ch.PLAYER_WITHDRAWN]
    mark = ch.latest_seq(store)
    plan = pair_next_round(store)
    [paired] = ch.changes_since(store, mark)
    assert paired["kind"] == ch.ROUND_PAIRED and paired["round"] == 1
    assert paired["data"] == {"tables": len(plan.tables), "byes": list(plan.byes)}
    t1, t2 = store.tables(1)

    mark = ch.latest_seq(store)
    text = play_table(store, t1, seed=3)
    enter_record(store, text, "t1.json")
    entered, status = ch.changes_since(store, mark)
    assert (entered["kind"], entered["round"], entered["table"]) == (ch.RESULT_ENTERED, 1, 1)
    assert entered["data"]["kind"] == "record" and entered["data"]["verified"] is True
    assert status["kind"] == ch.TABLE_STATUS and status["data"] == {"status": ch.CONFIRMED}
    mark = ch.latest_seq(store)
    enter_record(store, text, "again.json")  # the same record again: unchanged, nothing logged
    assert ch.latest_seq(store) == mark
    with pytest.raises(Refused):  # another result without --replace: refused, nothing logged
        enter_manual(store, 1, {"NS": 1, "EW": 2})
    assert ch.latest_seq(store) == mark

    enter_forfeit(store, 2, ("EW",))
    forfeit = ch.changes_since(store, mark)[0]
    assert forfeit["data"]["kind"] == "forfeit" and forfeit["data"]["forfeit"] == ["EW"]
    mark = ch.latest_seq(store)
    amend_manual(store, 1, 1, {"NS": 150, "EW": 20}, by="Ana", reason="sheet misread")
    [amended] = ch.changes_since(store, mark)
    assert (amended["kind"], amended["round"], amended["table"]) == (ch.RESULT_AMENDED, 1, 1)
    assert amended["data"]["old"]["kind"] == "record" and amended["data"]["new"]["scores"] == {"NS": 150, "EW": 20}
    assert "Ana" not in json.dumps(amended["data"]) and "misread" not in json.dumps(amended["data"])
    mark = ch.latest_seq(store)
    amend_manual(store, 1, 1, {"NS": 150, "EW": 20})  # the same score again: nothing changes
    assert ch.latest_seq(store) == mark
    # A balanced-free standings event has no last round: never "finished" by itself.
    assert progress.status(store) == progress.IN_PROGRESS and ch.EVENT_FINISHED not in kinds(store)
    seqs_are_whole(store)
    store.close()


def test_pairs_a_knockout_its_seating_a_correction_and_the_end(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ko.db", make_settings("Cup", "competitive", "pairs", seed=5))
    add_pairs(store, [(f"A{i}", f"B{i}", f"Pair {i}") for i in range(1, 6)])
    added = ch.changes_since(store, 1)
    assert [c["kind"] for c in added] == [ch.PAIR_ADDED] * 5
    assert added[0]["data"] == {"id": 1, "name": "Pair 1", "players": [{"id": 1, "name": "A1"},
                                                                        {"id": 2, "name": "B1"}], "from_round": 1}
    withdraw(store, "Pair 5")
    assert kinds(store, 6) == [ch.PAIR_WITHDRAWN]
    mark = ch.latest_seq(store)
    stages.create_stage(store, "single", "list", [f"Pair {i}" for i in range(1, 5)])
    created, *seated = ch.changes_since(store, mark)
    assert created["kind"] == ch.STAGE_CREATED and created["data"]["format"] == "single"
    assert created["data"]["final"] is False and created["data"]["first_round"] == 1
    assert [c["kind"] for c in seated] == [ch.TABLE_SEATED] * 2
    assert [(c["round"], c["table"]) for c in seated] == [(1, 1), (1, 2)]
    assert len(seated[0]["data"]["seats"]) == 4 and seated[0]["data"]["match"]

    mark = ch.latest_seq(store)
    enter_manual(store, 1, {"NS": 100, "EW": 10}, round_no=1)
    assert kinds(store, mark) == [ch.RESULT_ENTERED, ch.TABLE_STATUS]  # the final is not due yet
    mark = ch.latest_seq(store)
    enter_manual(store, 2, {"NS": 100, "EW": 10}, round_no=1)
    assert kinds(store, mark) == [ch.RESULT_ENTERED, ch.TABLE_STATUS, ch.TABLE_SEATED]  # the final seated
    mark = ch.latest_seq(store)
    amend_manual(store, 1, 1, {"NS": 10, "EW": 100}, reason="sides swapped")
    amended, reseated = ch.changes_since(store, mark)
    assert amended["kind"] == ch.RESULT_AMENDED and reseated["kind"] == ch.TABLE_RESEATED
    assert (reseated["round"], reseated["table"]) == (2, 1)
    assert progress.status(store) == progress.IN_PROGRESS
    mark = ch.latest_seq(store)
    enter_manual(store, 1, {"NS": 100, "EW": 50}, round_no=2)
    assert kinds(store, mark) == [ch.RESULT_ENTERED, ch.TABLE_STATUS, ch.EVENT_FINISHED]
    champion = progress.champion(store)
    assert champion and ch.changes_since(store, mark)[-1]["data"] == {"champion": champion}
    mark = ch.latest_seq(store)
    amend_manual(store, 2, 1, {"NS": 120, "EW": 50})  # the same champion: no second announcement
    assert kinds(store, mark) == [ch.RESULT_AMENDED]
    amend_manual(store, 2, 1, {"NS": 10, "EW": 50})  # another champion: announced
    assert kinds(store, mark + 1) == [ch.RESULT_AMENDED, ch.EVENT_FINISHED]
    assert progress.champion(store) != champion
    seqs_are_whole(store)
    store.close()


def test_a_rotating_events_final(tmp_path: Path) -> None:
    store = create_event(tmp_path / "f.db", make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    for t in store.tables(1):
        enter_manual(store, t.number, {"NS": 100, "EW": 50})
    mark = ch.latest_seq(store)
    create_final(store, top=4)
    created, *seated = ch.changes_since(store, mark)
    assert created["kind"] == ch.STAGE_CREATED and created["data"]["final"] is True
    assert [(c["kind"], c["round"], c["table"]) for c in seated] == [(ch.TABLE_SEATED, r, 1) for r in (2, 3, 4)]
    for r in (2, 3):
        enter_manual(store, 1, {"NS": 100, "EW": 50}, round_no=r)
    assert ch.EVENT_FINISHED not in kinds(store, mark)
    enter_manual(store, 1, {"NS": 100, "EW": 50}, round_no=4)
    assert kinds(store)[-1] == ch.EVENT_FINISHED and progress.status(store) == progress.FINISHED
    assert ch.changes_since(store, mark)[-1]["data"]["champion"] == progress.champion(store)
    store.close()


def test_a_balanced_schedule_finishes_with_its_last_round(tmp_path: Path) -> None:
    store = create_event(tmp_path / "b.db", make_settings("Club", "competitive", "rotating", seed=3,
                                                          schedule="balanced", rounds=2))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    for _ in range(2):
        pair_next_round(store)
        for t in store.tables(store.last_round()):
            assert progress.status(store) == progress.IN_PROGRESS
            enter_manual(store, t.number, {"NS": 100, "EW": 50})
    assert progress.status(store) == progress.FINISHED
    assert kinds(store).count(ch.EVENT_FINISHED) == 1 and kinds(store)[-1] == ch.EVENT_FINISHED
    assert ch.changes_since(store, 0)[-1]["data"] == {"champion": None}
    store.close()


def test_a_venue_table_logs_its_status_not_its_moves(tmp_path: Path) -> None:
    import random

    from domrec.simulate import play_game
    from tournament.event.tables import table_record

    store = create_event(tmp_path / "v.db", make_settings("Club", "competitive", "rotating", seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    venue = vn.Venue(store)
    players = {p.id: p for p in store.players()}

    def play(number: int) -> dict:
        table = store.table(1, number)
        record = play_game(table_record(store.settings, table, players), random.Random(number))
        state = venue.set_mode(1, number, venue.state(1, number)["rev"], "play")
        for text in requests_for(record, keep_deal=True):
            state = venue.record(1, number, state["rev"], text)
        return state

    mark = ch.latest_seq(store)
    venue.set_mode(1, 1, 0, "play")
    assert ch.latest_seq(store) == mark  # choosing how to record: still not started
    state = play(2)
    statuses = [(c["kind"], c["table"], c["data"]) for c in ch.changes_since(store, mark)]
    assert statuses == [(ch.TABLE_STATUS, 2, {"status": ch.PLAYING}), (ch.TABLE_STATUS, 2, {"status": ch.WAITING})]
    state = venue.call(1, 2, state["rev"])  # the director called: no public change
    assert ch.latest_seq(store) == mark + 2
    venue.record(1, 2, state["rev"], "undo")  # the game reopened: playing again
    assert kinds(store, mark + 2) == [ch.TABLE_STATUS] and ch.table_status(store, 1, 2) == ch.PLAYING

    mark = ch.latest_seq(store)
    state = play(1)
    assert ch.table_status(store, 1, 1) == ch.WAITING and ch.latest_seq(store) == mark + 2
    state = venue.confirm(1, 1, state["rev"], "NS")
    assert ch.latest_seq(store) == mark + 2  # one side of two: still waiting
    venue.confirm(1, 1, state["rev"], "EW")
    assert kinds(store, mark + 2) == [ch.RESULT_ENTERED, ch.TABLE_STATUS]
    assert ch.table_status(store, 1, 1) == ch.CONFIRMED
    # The status only: nothing of a game in play (no hands, no moves, no tiles).
    assert all(c["data"] == {"status": c["data"]["status"]} for c in ch.changes_since(store, 0)
               if c["kind"] == ch.TABLE_STATUS)
    seqs_are_whole(store)
    store.close()


# --- nothing logged by a write that does not land -----------------------------------------------


def test_a_rolled_back_write_leaves_no_change(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=7))
    mark = ch.latest_seq(store)
    with pytest.raises(RuntimeError, match="after its change"):
        with store.write():
            store.insert_player("Ana", 1)
            ch.record(store, ch.PLAYER_ADDED, data={"id": 1, "name": "Ana", "from_round": 1})
            raise RuntimeError("a write that fails after its change was recorded")
    assert ch.latest_seq(store) == mark and store.players() == []
    add_players(store, ["Bo"])  # the next change takes the number the rolled-back one had: no gap
    assert [c["seq"] for c in ch.changes_since(store, mark)] == [mark + 1]
    with pytest.raises(ch.NotInWrite):
        ch.record(store, ch.PLAYER_ADDED, data={})
    with pytest.raises(ValueError):
        with store.write():
            ch.record(store, "player_haircut", data={})
    seqs_are_whole(store)
    store.close()


KILLED = """
import os, signal, sys
from tournament import open_event
from tournament.event import changes as ch
store = open_event(sys.argv[1])
with store.write():
    store.insert_player("Killed", 1)
    ch.record(store, ch.PLAYER_ADDED, data={"id": 99, "name": "Killed", "from_round": 1})
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no SIGKILL here")
def test_a_killed_write_leaves_no_change(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=7))
    add_players(store, ["Ana"])
    mark = ch.latest_seq(store)
    store.close()
    done = subprocess.run([sys.executable, "-c", KILLED, str(path)], cwd=Path(__file__).resolve().parents[2],
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}, timeout=120)
    assert done.returncode == -signal.SIGKILL
    store = open_event(path)
    assert ch.latest_seq(store) == mark and [p.name for p in store.players()] == ["Ana"]
    add_players(store, ["Bo"])
    seqs_are_whole(store)
    store.close()


def test_changes_since_reads_in_pages(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=7))
    add_players(store, [f"P{i}" for i in range(1, 12)])
    whole = ch.changes_since(store, 0)
    assert len(whole) == 12
    got, since = [], 0
    while page := ch.changes_since(store, since, limit=5):
        assert len(page) <= 5
        got += page
        since = page[-1]["seq"]
    assert got == whole and ch.changes_since(store, 12) == []
    for bad in (-1, "3", 1.5, True):
        with pytest.raises(ValueError):
            ch.changes_since(store, bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        ch.changes_since(store, 0, 0)
    store.close()


# --- a property: any sequence of operations -----------------------------------------------------

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo", "Jo"]
OPERATIONS = st.lists(st.one_of(
    st.tuples(st.just("add"), st.lists(st.sampled_from(NAMES), min_size=1, max_size=3)),
    st.tuples(st.just("withdraw"), st.sampled_from(NAMES)),
    st.tuples(st.just("pair"), st.none()),
    st.tuples(st.just("score"), st.tuples(st.integers(1, 3), st.integers(0, 200), st.integers(0, 200))),
    st.tuples(st.just("amend"), st.tuples(st.integers(1, 3), st.integers(0, 200), st.integers(0, 200))),
    st.tuples(st.just("rollback"), st.sampled_from(NAMES)),
), max_size=14)


def _apply(store, op: str, arg) -> None:
    if op == "add":
        add_players(store, arg)
    elif op == "withdraw":
        withdraw(store, arg)
    elif op == "pair":
        pair_next_round(store)
    elif op == "score":
        table, ns, ew = arg
        enter_manual(store, table, {"NS": ns, "EW": ew})
    elif op == "amend":
        table, ns, ew = arg
        amend_manual(store, store.last_round(), table, {"NS": ns, "EW": ew})
    elif op == "rollback":  # a write that fails after logging its change
        with store.write():
            store.insert_player(arg + " (not kept)", 1)
            ch.record(store, ch.PLAYER_ADDED, data={"name": arg})
            raise Refused("rolled back on purpose")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(OPERATIONS)
def test_any_sequence_of_operations_logs_a_whole_numbered_log(operations) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = create_event(Path(folder) / "ev.db", make_settings("Club", "competitive", "rotating", seed=1))
        try:
            for op, arg in operations:
                before = ch.latest_seq(store)
                state = _state(store)
                try:
                    _apply(store, op, arg)
                except TournamentError:
                    # Refused: nothing changed, nothing logged.
                    assert ch.latest_seq(store) == before and _state(store) == state
                else:
                    changed = _state(store) != state
                    assert (ch.latest_seq(store) > before) == changed, (op, arg)
                seqs_are_whole(store)
            log = ch.changes_since(store, 0, 10**6)
            assert log[0]["kind"] == ch.EVENT_CREATED
            assert all(c["kind"] in ch.KINDS for c in log)
            added = [c["data"]["name"] for c in log if c["kind"] == ch.PLAYER_ADDED]
            assert added == [p.name for p in store.players()]  # every player once, no rolled-back one
            entered = [(c["round"], c["table"]) for c in log if c["kind"] == ch.RESULT_ENTERED]
            assert len(entered) == len(set(entered)) == len(store.results())
        finally:
            store.close()


def _state(store) -> tuple:
    """What the public sees of the event, to tell whether an operation changed it."""
    return (tuple(store.players()), tuple(store.rounds()),
            tuple(sorted((r.table, r.kind, tuple(sorted(r.scores.items()))) for r in store.results().values())))

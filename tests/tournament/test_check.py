"""`check` finds what has been tampered with, and the simulator's events pass it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from domrec import games

from tournament import enter_manual, enter_record, open_event, pair_next_round, run_check
from tournament.event.simulate import simulate_event

from tests.tournament.conftest import individual_game, play_table
from tests.tournament.helpers import copy_event


@pytest.fixture(scope="module")
def _simulated_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The simulated event, made once for the module (the simulator is deterministic: the same
    event for every test); a test tampers only with its own copy (:func:`simulated`)."""
    path = tmp_path_factory.mktemp("sim") / "sim.db"
    simulate_event(path, "competitive", "rotating", 14, 3, seed=9)
    return path


@pytest.fixture
def simulated(_simulated_once: Path, tmp_path: Path) -> Path:
    """A copy of the module's simulated event, the test's own to tamper with."""
    return copy_event(_simulated_once, tmp_path / "sim.db")


def findings(path: Path) -> list[str]:
    store = open_event(path)
    try:
        report = run_check(store)
        return [f.text() for f in report.errors]
    finally:
        store.close()


def tamper(path: Path, sql: str, params=()) -> None:
    conn = sqlite3.connect(path)
    conn.execute(sql, params)
    conn.commit()
    conn.close()


def test_clean_event_passes(simulated: Path) -> None:
    assert findings(simulated) == []


def test_changed_stored_scores_are_found(simulated: Path) -> None:
    tamper(simulated, "UPDATE results SET scores = ? WHERE id = (SELECT MIN(id) FROM results)",
           [json.dumps({"NS": 1, "EW": 0})])
    assert any("differ from the record's computed" in f for f in findings(simulated))


def test_edited_record_text_is_found(simulated: Path) -> None:
    conn = sqlite3.connect(simulated)
    rid, text = conn.execute("SELECT id, record FROM results ORDER BY id LIMIT 1").fetchone()
    doc = json.loads(text)
    doc["hands"][0]["moves"] = doc["hands"][0]["moves"][1:]
    conn.execute("UPDATE results SET record = ? WHERE id = ?", [json.dumps(doc), rid])
    conn.commit()
    conn.close()
    assert any("no longer validates" in f or "hash" in f for f in findings(simulated))


def test_repeated_partnership_is_found(simulated: Path) -> None:
    store = open_event(simulated)
    t1 = store.tables(1)[0]
    seat = {s.seat: s.player for s in t1.seats}
    t2 = next(t for t in store.tables(2) if seat["N"] in t.players)
    store.close()
    mine = {s.player: s.seat for s in t2.seats}
    # Move N's round-1 partner into N's partner seat in round 2 (swap with whoever sits there).
    partner_seat = {"N": "S", "S": "N", "E": "W", "W": "E"}[mine[seat["N"]]]
    conn = sqlite3.connect(simulated)
    other = conn.execute("SELECT table_id, seat FROM seats WHERE player_id = ? AND table_id IN "
                         "(SELECT id FROM round_tables WHERE round_id = 2)", [seat["S"]]).fetchone()
    occupant = conn.execute("SELECT player_id FROM seats WHERE table_id = ? AND seat = ?",
                            [t2.id, partner_seat]).fetchone()[0]
    if occupant != seat["S"]:
        conn.execute("UPDATE seats SET player_id = -1 WHERE table_id = ? AND seat = ?", [t2.id, partner_seat])
        if other is not None:
            conn.execute("UPDATE seats SET player_id = ? WHERE table_id = ? AND seat = ?", [occupant, *other])
        else:
            conn.execute("UPDATE byes SET player_id = ? WHERE player_id = ? AND round_id = 2", [occupant, seat["S"]])
        conn.execute("UPDATE seats SET player_id = ? WHERE table_id = ? AND seat = ?",
                     [seat["S"], t2.id, partner_seat])
    conn.commit()
    conn.close()
    assert any("partners a second time" in f for f in findings(simulated))


def test_player_seated_twice_is_found(simulated: Path) -> None:
    conn = sqlite3.connect(simulated)
    a, b = conn.execute("SELECT player_id FROM seats ORDER BY table_id, position LIMIT 2").fetchall()
    conn.execute("UPDATE seats SET player_id = ? WHERE player_id = ? AND table_id = "
                 "(SELECT MIN(table_id) FROM seats)", [a[0], b[0]])
    conn.commit()
    conn.close()
    found = findings(simulated)
    assert any("seated 2 times" in f for f in found) and any("neither a table nor a bye" in f for f in found)


def test_replacing_an_old_result_is_reported_as_changed_standings(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    simulate_event(path, "competitive", "pairs", 12, 2, seed=4)
    store = open_event(path)
    t = store.tables(1)[0]
    enter_manual(store, t.number, {"NS": 0, "EW": 330}, round_no=1, replace=True)
    report = run_check(store)
    assert report.ok
    assert any(f.level == "warning" and "changed since" in f.message for f in report.findings)
    store.close()


@pytest.mark.parametrize("fmt", ["pairs", "rotating"])
def test_simulated_partnership_events_pass_check(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "ev.db"
    summary = simulate_event(path, "competitive", fmt, 22, 4, seed=13)
    assert summary.games > 0
    assert findings(path) == []


def test_simulated_individual_event_passes_check(tmp_path: Path) -> None:
    game = individual_game()
    engine = games.engine(game)
    size = engine.player_counts(engine.defaults)[0]
    path = tmp_path / "ind.db"
    summary = simulate_event(path, game, "individual", 3 * size + 1, 3, seed=2, table_size=size)
    assert summary.byes == 3
    assert findings(path) == []


@pytest.mark.parametrize("sql", [
    # a verified record whose record text has been removed
    "UPDATE results SET record = NULL WHERE id = (SELECT MIN(id) FROM results)",
    # ... and its hash too: it would otherwise pass for a verified result nobody can re-check
    "UPDATE results SET record = NULL, record_hash = NULL WHERE id = (SELECT MIN(id) FROM results)",
    # a result passed off as manual but still marked verified
    "UPDATE results SET record = NULL, record_hash = NULL, kind = 'manual' WHERE id = (SELECT MIN(id) FROM results)",
    # a record marked unverified, or of a kind the tool never writes
    "UPDATE results SET verified = 0 WHERE id = (SELECT MIN(id) FROM results)",
    "UPDATE results SET kind = 'typed' WHERE id = (SELECT MIN(id) FROM results)",
])
def test_result_flags_that_contradict_the_stored_record_are_found(simulated: Path, sql: str) -> None:
    tamper(simulated, sql)
    assert findings(simulated), "a tampered result passed check"


def test_manual_result_marked_verified_is_found(tmp_path: Path) -> None:
    path = tmp_path / "sim.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=3)
    store = open_event(path)
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 10, "EW": 5})
    store.close()
    assert findings(path) == []
    tamper(path, "UPDATE results SET verified = 1 WHERE kind = 'manual'")
    assert findings(path)


@pytest.mark.parametrize("scores", ["xx", '"NS"', '{"NS": "a lot", "EW": 1}', "[1, 2]", "[" * 5000 + "]" * 5000,
                                    '{"NS": ' * 5000 + "1" + "}" * 5000])
def test_unreadable_stored_scores_are_a_damaged_file_not_a_crash(simulated: Path, scores: str) -> None:
    from tournament import EventFileError
    tamper(simulated, "UPDATE results SET scores = ? WHERE id = (SELECT MIN(id) FROM results)", [scores])
    store = open_event(simulated)
    try:
        # check diagnoses it (tests/tournament/test_diagnostics.py); reading the results refuses it
        assert any("table results: result 1" in f and "scores" in f for f in findings(simulated))
        with pytest.raises(EventFileError, match="damaged"):
            store.results()
    finally:
        store.close()

"""Knockout and round-robin stages in an event file: drawn, seated as they fall due, advanced by
results entered through the ordinary record and manual paths, checked, and upgraded from schema 1."""

from __future__ import annotations

import random
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from tournament import (PairingError, Refused, ResultRefused, add_pairs, add_players, create_event, enter_manual,
                        enter_record, make_settings, open_event, pair_next_round, run_check, UnusableInput)
from tournament.pairing import brackets
from tournament.event import stages
from tournament.errors import SettingsError
from tournament.event.simulate import play_stage, simulate_event

from tests.tournament.conftest import play_table


def pairs_event(tmp_path: Path, n: int = 6, name: str = "ev.db"):
    store = create_event(tmp_path / name, make_settings("Cup", "competitive", "pairs", seed=5))
    add_pairs(store, [(f"A{i}", f"B{i}", f"Pair {i}") for i in range(1, n + 1)])
    return store


def open_tables(store):
    results = store.results()
    return [t for t in store.tables() if t.id not in results]


def test_single_elimination_advances_as_results_arrive(tmp_path: Path) -> None:
    store = pairs_event(tmp_path, 6)
    stage = stages.create_stage(store, "single", "list", [f"Pair {i}" for i in range(1, 7)], third_place=True)
    # Six pairs in a draw of eight: seeds 1 and 2 have byes; 3v6 and 4v5 are seated.
    first = store.tables(1)
    assert len(first) == 2
    state = stages.state_of(store, stage)
    assert [m.status for m in state.matches if m.match.round == 1] == ["walkover", "due", "walkover", "due"]
    # A result for a match not yet due is refused (the semi-final of pair 1).
    semi = state.state("R2-1")
    assert semi.status == "waiting"
    with pytest.raises(ResultRefused, match="not due yet"):
        stages.open_table_for_match(store, "R2-1")
    with pytest.raises(UnusableInput, match="no table 3"):
        enter_manual(store, 3, {"NS": 10, "EW": 5}, round_no=1)
    assert [t.number for t in first] == [1, 2]
    t = first[1]
    enter_record(store, play_table(store, t, seed=1))
    now = stages.state_of(store, stage)
    assert now.state(t and "R1-4").status == "decided"
    assert now.state("R2-2").status == "due" and len(store.tables(2)) == 1
    # The same record again changes nothing.
    before = len(store.tables())
    assert enter_record(store, play_table(store, t, seed=1)).status == "unchanged"
    assert len(store.tables()) == before
    play_stage(store, seed=3)
    done = stages.state_of(store, stage)
    assert done.finished and done.champion is not None
    assert run_check(store).ok
    with pytest.raises(Refused, match="Swiss rounds cannot be paired"):
        pair_next_round(store)
    store.close()


def test_replacing_a_result_that_moved_the_bracket_is_refused(tmp_path: Path) -> None:
    store = pairs_event(tmp_path, 4)
    stages.create_stage(store, "single", "list", ["Pair 1", "Pair 2", "Pair 3", "Pair 4"])
    t1, t2 = store.tables(1)
    enter_manual(store, 1, {"NS": 100, "EW": 10}, round_no=1)
    # A correction before the next match is seated is fine.
    enter_manual(store, 1, {"NS": 10, "EW": 100}, round_no=1, replace=True)
    enter_manual(store, 2, {"NS": 100, "EW": 10}, round_no=1)
    final = store.tables(2)[0]
    team_of = {p.id: p.team for p in store.players()}
    assert {team_of[p] for p in final.players} == {4, 2}
    # While the final has no result, a correction re-seats it (issue 14); once it has one, refused.
    enter_manual(store, 1, {"NS": 100, "EW": 10}, round_no=1, replace=True)
    assert {team_of[p] for p in store.tables(2)[0].players} == {1, 2}
    enter_manual(store, 1, {"NS": 10, "EW": 100}, round_no=1, replace=True)
    enter_manual(store, 1, {"NS": 100, "EW": 10}, round_no=2)
    with pytest.raises(Refused, match="would change who plays"):
        enter_manual(store, 1, {"NS": 100, "EW": 10}, round_no=1, replace=True)
    assert store.results()[t1.id].scores == {"NS": 10, "EW": 100}, "nothing was changed"
    # The same score again (no change of winner) is accepted.
    enter_manual(store, 1, {"NS": 10, "EW": 90}, round_no=1, replace=True)
    assert run_check(store).ok
    store.close()


def test_first_to_two_seats_one_game_at_a_time_and_swaps_sides(tmp_path: Path) -> None:
    store = pairs_event(tmp_path, 2)
    stage = stages.create_stage(store, "single", "random", wins_needed=2)
    (g1,) = store.tables(1)
    enter_manual(store, 1, {"NS": 100, "EW": 0}, round_no=1)
    g2 = [t for t in store.tables(1) if t.id != g1.id]
    assert len(g2) == 1 and g2[0].seats[0].player in {s.player for s in g1.seats if s.side == "EW"}
    m = stages.open_table_for_match(store, "R1-1")
    assert m.id == g2[0].id
    enter_manual(store, m.number, {"NS": 100, "EW": 0}, round_no=1)  # the other pair wins game 2
    assert stages.state_of(store, stage).state("R1-1").wins == (1, 1)
    enter_manual(store, stages.open_table_for_match(store, "R1-1").number, {"NS": 50, "EW": 50}, round_no=1)
    assert stages.state_of(store, stage).state("R1-1").status == "due", "a drawn game decides nothing"
    play_stage(store, seed=1)
    state = stages.state_of(store, stage)
    assert state.finished and max(state.state("R1-1").wins) == 2
    with pytest.raises(ResultRefused, match="decided"):
        stages.open_table_for_match(store, "R1-1")
    store.close()


@pytest.mark.parametrize("fmt", ["double", "roundrobin"])
def test_simulated_stages_check_clean(tmp_path: Path, fmt: str) -> None:
    spec = {"format": fmt} if fmt == "double" else {"format": fmt, "double": True}
    simulate_event(tmp_path / "sim.db", "competitive", "pairs", 14, 2, seed=4, stage=spec)
    store = open_event(tmp_path / "sim.db")
    stage = stages.current(store)
    assert not open_tables(store)
    report = run_check(store)
    assert report.ok, report.findings
    if fmt == "double":
        state = stages.state_of(store, stage)
        assert state.finished and brackets.losses(state)[state.champion] <= 1
    else:
        team_of = {p.id: p.team for p in store.players()}
        met = Counter()
        for t in store.tables():
            if t.round > 2:
                met[frozenset(team_of[p] for p in t.players)] += 1
        assert len(met) == 7 * 6 // 2 and set(met.values()) == {2}
    store.close()


def test_groups_feed_a_knockout(tmp_path: Path) -> None:
    simulate_event(tmp_path / "g.db", "competitive", "pairs", 24, 0, seed=2,
                   stage={"format": "roundrobin", "groups": 3},
                   then={"format": "single", "seeding": "groups", "per_group": 2})
    store = open_event(tmp_path / "g.db")
    groups_stage, ko = stages.load(store)
    sched = groups_stage.schedule()
    group_of = {u: i for i, g in enumerate(sched.groups) for u in g}
    winners = {stages.group_standings(store, groups_stage, gi).rows[0].unit for gi in range(3)}
    assert set(ko.seeds[:3]) == winners
    state = stages.state_of(store, ko)
    for m in state.matches:
        if m.match.round == 1 and m.status == brackets.DECIDED:
            assert group_of[m.sides[0]] != group_of[m.sides[1]], "no first-round meeting within a group"
    assert state.finished and run_check(store).ok
    store.close()


def test_multi_player_knockout_end_to_end(tmp_path: Path) -> None:
    simulate_event(tmp_path / "m.db", "castle-rock", "individual", 17, 0, seed=6, table_size=4,
                   stage={"format": "multi", "advance": 2})
    store = open_event(tmp_path / "m.db")
    stage = stages.current(store)
    state = stages.state_of(store, stage)
    assert state.finished and state.champion in stage.seeds
    assert run_check(store).ok
    store.close()


def test_stage_formats_refused_where_they_do_not_fit(tmp_path: Path) -> None:
    store = create_event(tmp_path / "r.db", make_settings("R", "competitive", "rotating"))
    add_players(store, ["a", "b", "c", "d"])
    with pytest.raises(SettingsError, match="rotating"):
        stages.create_stage(store, "single", "random")
    store.close()
    store = pairs_event(tmp_path, 4, "p.db")
    with pytest.raises(SettingsError, match="multi-player"):
        stages.create_stage(store, "multi", "random")
    pair_next_round(store)
    with pytest.raises(Refused, match="no result yet"):
        stages.create_stage(store, "single", "standings")
    with pytest.raises(Refused, match="listed twice"):
        for t in store.tables(1):
            enter_manual(store, t.number, {"NS": 1, "EW": 0})
        stages.create_stage(store, "single", "list", ["Pair 1", "A1"])
    assert stages.current(store) is None, "a refused stage leaves nothing behind"
    store.close()


def test_knockout_seeded_from_swiss_standings(tmp_path: Path) -> None:
    simulate_event(tmp_path / "s.db", "competitive", "pairs", 16, 3, seed=9,
                   stage={"format": "single", "top": 4, "third_place": True})
    store = open_event(tmp_path / "s.db")
    stage = stages.current(store)
    swiss = stages.stage_standings(store, None)
    assert list(stage.seeds) == [s.unit for s in swiss.rows[:4]]
    assert stage.offset == 3 and min(t.round for t in store.tables() if t.round > 3) == 4
    assert run_check(store).ok
    store.close()


def test_schema_1_file_is_upgraded_when_a_stage_is_added(tmp_path: Path) -> None:
    store = pairs_event(tmp_path, 4)
    store.close()
    # Make it exactly what the issue-7 tool wrote: no stage tables, schema 1.
    conn = sqlite3.connect(tmp_path / "ev.db")
    conn.execute("DROP TABLE match_tables")
    conn.execute("DROP TABLE matches")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    store = open_event(tmp_path / "ev.db")
    pair_next_round(store)
    for t in store.tables(1):
        enter_manual(store, t.number, {"NS": 10, "EW": 5})
    assert store.meta()["schema_version"] == "1" and not store.has_stage_tables()
    assert run_check(store).ok
    stages.create_stage(store, "single", "standings")
    assert store.meta()["schema_version"] == "2" and store.has_stage_tables()
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == 2
    play_stage(store, seed=1)
    assert stages.state_of(store, stages.current(store)).finished
    store.close()


def test_a_record_for_a_player_already_out_is_refused(tmp_path: Path) -> None:
    store = create_event(tmp_path / "i.db", make_settings("H", "horse-race", "individual", table_size=2, seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    stage = stages.create_stage(store, "single", "list", ["Ana", "Bo", "Cy", "Di"])
    t1, t2 = store.tables(1)
    rec1 = play_table(store, t1, seed=2)
    enter_record(store, rec1)
    loser = stages.state_of(store, stage).state("R1-1").order[1]
    # Ana (seed 1) plays Di (seed 4) in round 1; the loser is out.
    name = {p.id: p.name for p in store.players()}[loser]
    other = [p for p in store.tables(1)[1].players][0]
    import attrs
    from domrec.reader import loads
    from domrec.simulate import dumps, play_game
    from tournament.event.simulate import game_record
    from tournament.values import SeatAssignment, Table
    fake = Table(0, 1, 9, (SeatAssignment("P1", "P1", loser), SeatAssignment("P2", "P2", other)))
    names = {p.id: p.name for p in store.players()}
    record = play_game(attrs.evolve(game_record(store.settings, fake, names), event=None), random.Random(1))
    with pytest.raises(ResultRefused, match=f"{name} is out|not due"):
        enter_record(store, dumps(record))
    del loads
    store.close()

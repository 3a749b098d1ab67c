"""``knockout --seeding groups``: sides level on every ranking key at a line the draw goes by (the
cut, or between two places that go through) are told, with how the draw decided (the standings'
order: the lower number) and the way to decide otherwise (``--seeding list``); teams, pairs."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_team_stages import cli, open_event, stage_offset, team_event

from tournament import add_pairs, create_event, make_settings
from tournament.event import results as rs


def _play_all(path: Path, scores: dict[str, int]) -> None:
    store = open_event(path)
    try:
        for t in store.tables():
            if t.round > stage_offset(store) and t.id not in store.results():
                rs.enter_manual(store, t.number, scores, t.round)
    finally:
        store.close()


def test_teams_level_at_the_cut_of_a_group_are_named(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    team_event(path, 8).close()
    cli("roundrobin", path, "--groups", "2", "--seeding", "list", "--seeds",
        ",".join(f"Team {t:02d}" for t in range(1, 9)))
    # Each match: one table won by each team by the same margin; every team level on every key.
    _play_all(path, {"NS": 200, "EW": 100})
    out = cli("knockout", path, "--seeding", "groups", "--per-group", "2")
    notes = [x for x in out.splitlines() if x.startswith("note: group ")]
    assert len(notes) == 2, out
    for note in notes:
        assert "are level on every ranking key (games, efectividad) at 1st; the standings' order (by team " \
               "number) decided: " in note and " go through, " in note and " do not (to decide otherwise, draw " \
               "with --seeding list)" in note, note
    a = notes[0]
    through, left = a.split("decided: ")[1].split(" go through, ")
    assert through.count("Team") == 2 and left.count("Team") == 2


def test_teams_apart_at_the_cut_draw_without_a_note(tmp_path: Path) -> None:
    path = tmp_path / "g.db"
    team_event(path, 4).close()
    cli("roundrobin", path, "--groups", "2", "--seeding", "list", "--seeds", "Team 01,Team 02,Team 03,Team 04")
    store = open_event(path)
    try:  # the team at N-S of a match's first table wins both its games: nobody level
        for t in store.tables():
            if t.round > stage_offset(store):
                home = t.number % 2 == 1
                rs.enter_manual(store, t.number, {"NS": 200, "EW": 50} if home else {"NS": 50, "EW": 200}, t.round)
    finally:
        store.close()
    out = cli("knockout", path, "--seeding", "groups", "--per-group", "1")
    assert "note:" not in out and "final" in out


def test_pairs_level_at_the_cut_of_a_group_are_named(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    store = create_event(path, make_settings("Pairs cup", "competitive", "pairs", seed=3))
    add_pairs(store, [(f"A{i}", f"B{i}", None) for i in range(1, 9)])
    store.close()
    cli("roundrobin", path, "--groups", "2")
    _play_all(path, {"NS": 150, "EW": 150})  # every game a draw (stopped by the clock): all level
    out = cli("knockout", path, "--seeding", "groups", "--per-group", "2")
    notes = [x for x in out.splitlines() if x.startswith("note: group ")]
    assert len(notes) == 2 and all("(by pair number) decided: " in n and " do not " in n for n in notes), out

"""Every player seated at individual tables (issue #25, point 3): the split of a field into
tables of the sizes the game allows, the seats of a smaller table, and the placement points
of each size."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, strategies as hst

from domrec import games
from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round, run_check
from tournament.errors import ResultRefused
from tournament.event.standings import from_store as current_standings
from tournament.pairing.seating import table_sizes
from tournament.pairing.standings import table_points

#: The player counts of the games of three to six players, and sets with a gap.
COUNTS = [range(2, 5), range(2, 7), (3, 4), (4,), (2, 3, 4), (2, 4, 6), (3, 5)]


@given(hst.integers(1, 400), hst.sampled_from(COUNTS), hst.data())
def test_every_player_is_seated_once_at_allowed_sizes_as_evenly_as_allowed(n: int, counts, data) -> None:
    largest = data.draw(hst.sampled_from(sorted(counts)))
    allowed = [c for c in counts if c <= largest]
    sizes = table_sizes(n, allowed)
    if sizes is None:
        # No split: then truly none with these counts (a small search says so independently).
        reachable = {0}
        for _ in range(n):
            reachable |= {r + c for r in reachable for c in allowed if r + c <= n}
        assert n not in reachable
        return
    assert sum(sizes) == n  # every player, once
    assert all(s in allowed for s in sizes)
    assert list(sizes) == sorted(sizes, reverse=True)  # the fuller tables first
    assert len(sizes) >= -(-n // largest)
    if list(allowed) == list(range(min(allowed), max(allowed) + 1)) and n >= min(allowed):
        # Consecutive counts: the fewest tables the table size allows, sizes one apart at most.
        assert len(sizes) == -(-n // largest)
        assert max(sizes) - min(sizes) <= 1


def test_the_issues_example_and_the_fallback_to_byes() -> None:
    assert table_sizes(23, range(2, 7)) == (6, 6, 6, 5)
    assert table_sizes(7, (3, 4)) == (4, 3)
    assert table_sizes(5, (3, 4)) is None  # five players of a game for three or four: a bye, as before
    assert table_sizes(24, range(2, 7)) == (6, 6, 6, 6)


def test_placement_points_of_a_smaller_table_keep_first_and_last_and_the_average() -> None:
    full = (5.0, 4.0, 3.0, 2.0, 1.0, 0.0)
    assert table_points(full, 6) == full
    assert table_points(full, 5) == (5.0, 3.75, 2.5, 1.25, 0.0)
    assert table_points(full, 3) == (5.0, 2.5, 0.0)
    assert table_points(full, 2) == (5.0, 0.0)
    for size in range(2, 7):  # evenly spaced points: the same average at every size
        assert sum(table_points(full, size)) / size == pytest.approx(2.5)
    # Uneven points are read off the list at evenly spaced places.
    assert table_points((10.0, 6.0, 3.0, 0.0), 3) == (10.0, 4.5, 0.0)


def _castle_rock() -> str:
    if "castle-rock" not in games.available():
        pytest.skip("castle-rock is not available")
    return "castle-rock"


def test_23_players_at_tables_of_six_sit_6_6_6_5_and_the_standings_count_each_size(tmp_path: Path) -> None:
    game = _castle_rock()
    store = create_event(tmp_path / "cr.db", make_settings("Mixed", game, "individual", 6, seed=3))
    add_players(store, [f"Player {i:02d}" for i in range(23)])
    plan = pair_next_round(store)
    assert [len(t) for t in plan.tables] == [6, 6, 6, 5] and plan.byes == ()
    tables = store.tables(1)
    five = tables[-1]
    engine = games.engine(game)
    assert tuple(s.seat for s in five.seats) == tuple(engine.seats_for(5, store.settings.resolved_options()))
    for t in tables:
        scores = {s: 70 - 10 * i for i, s in enumerate(t.sides())}
        enter_manual(store, t.number, scores)
    rows = {r.unit: r for r in current_standings(store).rows}
    # The winner of the table of five scores what the winner of a table of six does; its last, 0.
    assert rows[five.seats[0].player].placement == 5.0 and rows[five.seats[-1].player].placement == 0.0
    assert rows[five.seats[1].player].placement == 3.75
    assert rows[tables[0].seats[1].player].placement == 4.0
    assert not [f for f in run_check(store).findings if f.level == "error"]
    store.close()


def test_a_manual_tie_at_the_top_of_a_multi_player_table_asks_for_the_winner(tmp_path: Path) -> None:
    game = _castle_rock()
    store = create_event(tmp_path / "tie.db", make_settings("Tie", game, "individual", 4, seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    sides = store.tables(1)[0].sides()
    level = {sides[0]: 50, sides[1]: 50, sides[2]: 20, sides[3]: 10}
    with pytest.raises(ResultRefused, match="--winner"):
        enter_manual(store, 1, level)
    assert store.results() == {}
    entry = enter_manual(store, 1, level, winner=sides[1])
    assert entry.winner == sides[1]
    # Level below the top is fine: they share the places they cover.
    entry = enter_manual(store, 1, {sides[0]: 60, sides[1]: 50, sides[2]: 10, sides[3]: 10}, replace=True)
    assert entry.winner == sides[0]
    store.close()

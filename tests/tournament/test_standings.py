"""Standings, recomputed independently in the test from the stored results."""

from __future__ import annotations

import json
import random
import sqlite3
from collections import defaultdict
from pathlib import Path

import pytest

from tournament import create_event, current_standings, enter_manual, make_settings, pair_next_round
from tournament.event.players import add_pairs, add_players
from tournament.pairing.standings import placements
from tournament.event.simulate import simulate_event

from tests.tournament.conftest import individual_game


def independent_partnership_table(path: Path, pairs: bool, bye: dict) -> dict[int, tuple]:
    """Straight from SQL, written separately from tournament.standings."""
    conn = sqlite3.connect(path)
    team = dict(conn.execute("SELECT id, team_id FROM players").fetchall())
    unit = (lambda p: team[p]) if pairs else (lambda p: p)
    acc: dict[int, list] = defaultdict(lambda: [0.0, 0, 0])  # wins, for, against
    rows = conn.execute("SELECT s.table_id, s.side, s.player_id, r.scores, r.winner FROM seats s "
                        "JOIN results r ON r.table_id = s.table_id").fetchall()
    seen = set()
    for table_id, side, player, scores, winner in rows:
        u = unit(player)
        if (table_id, u) in seen:
            continue
        seen.add((table_id, u))
        scores = json.loads(scores)
        other = "EW" if side == "NS" else "NS"
        acc[u][0] += 1 if winner == side else 0.5 if winner is None else 0
        acc[u][1] += scores[side]
        acc[u][2] += scores[other]
    seen_bye = set()
    for rnd, player in conn.execute("SELECT round_id, player_id FROM byes").fetchall():
        u = unit(player)
        if (rnd, u) in seen_bye:
            continue
        seen_bye.add((rnd, u))
        acc[u][0] += bye["wins"]
        acc[u][1] += bye["for"]
        acc[u][2] += bye["against"]
    conn.close()
    return {u: (w, f - a, f) for u, (w, f, a) in acc.items()}


@pytest.mark.parametrize("fmt,players,seed", [("rotating", 13, 1), ("rotating", 22, 2), ("pairs", 14, 3),
                                              ("pairs", 10, 4)])
def test_partnership_standings_match_an_independent_count(tmp_path: Path, fmt: str, players: int,
                                                          seed: int) -> None:
    path = tmp_path / "ev.db"
    simulate_event(path, "competitive", fmt, players, 4, seed)
    from tournament import open_event
    store = open_event(path)
    table = current_standings(store)
    expected = independent_partnership_table(path, fmt == "pairs", store.settings.bye)
    got = {s.unit: (s.wins, s.diff, s.points_for) for s in table.rows}
    assert {u: v for u, v in got.items() if u in expected} == expected
    keys = [(-s.wins, -s.diff, -s.points_for) for s in table.rows]
    assert keys == sorted(keys)
    # Equal keys share a rank; otherwise the rank is the position.
    for i, s in enumerate(table.rows):
        if i and keys[i] == keys[i - 1]:
            assert s.rank == table.rows[i - 1].rank
        else:
            assert s.rank == i + 1
    assert not table.provisional
    store.close()


def test_placement_points_share_ties() -> None:
    points = (3.0, 2.0, 1.0, 0.0)
    assert placements({"P1": 10, "P2": 30, "P3": 20, "P4": 0}, "P2", points) == {
        "P2": 3.0, "P3": 2.0, "P1": 1.0, "P4": 0.0}
    assert placements({"P1": 10, "P2": 10, "P3": 5, "P4": 5}, None, points) == {
        "P1": 2.5, "P2": 2.5, "P3": 0.5, "P4": 0.5}
    # The game's own winner among the tied top takes first alone.
    assert placements({"P1": 10, "P2": 10, "P3": 10, "P4": 0}, "P3", points) == {
        "P3": 3.0, "P1": 1.5, "P2": 1.5, "P4": 0.0}


def test_tiebreaks_are_configurable_and_provisional_is_flagged(tmp_path: Path) -> None:
    s = make_settings("x", "competitive", "rotating", tiebreaks=("for", "wins"), bye={"wins": 0.5, "for": 100})
    store = create_event(tmp_path / "ev.db", s)
    add_players(store, [f"p{i}" for i in range(9)])
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 200, "EW": 199})
    table = current_standings(store)
    assert table.provisional and table.missing == {1: 1}
    keys = [(-r.points_for, -r.wins) for r in table.rows]
    assert keys == sorted(keys)
    bye_player = store.byes(1)[1][0]
    row = next(r for r in table.rows if r.unit == bye_player)
    assert row.byes == 1 and row.wins == 0.5 and row.points_for == 100
    enter_manual(store, 2, {"NS": 0, "EW": 210})
    assert not current_standings(store).provisional
    # Standings after round 0: nothing counted.
    assert all(r.played == 0 for r in current_standings(store, 0).rows)
    store.close()


def test_withdrawn_players_keep_their_games(tmp_path: Path) -> None:
    from tournament.event.players import withdraw
    store = create_event(tmp_path / "ev.db", make_settings("x", "competitive", "rotating"))
    add_players(store, [f"p{i}" for i in range(8)])
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 200, "EW": 10})
    enter_manual(store, 2, {"NS": 200, "EW": 10})
    gone = withdraw(store, "p0")
    assert gone.withdrawn == 2
    late = add_players(store, ["late"])[0]
    assert late.entered == 2
    plan = pair_next_round(store)
    seated = {s.player for t in plan.tables for s in t} | set(plan.byes)
    assert gone.id not in seated and late.id in seated
    row = next(r for r in current_standings(store).rows if r.unit == gone.id)
    assert row.played == 1 and not row.active
    store.close()


def test_individual_standings(tmp_path: Path) -> None:
    game = individual_game()
    path = tmp_path / "ind.db"
    from domrec import games
    engine = games.engine(game)
    size = engine.player_counts(engine.defaults)[-1]
    simulate_event(path, game, "individual", 2 * size + 1, 3, seed=5, table_size=size)
    from tournament import open_event
    store = open_event(path)
    table = current_standings(store)
    pts = store.settings.placement
    expected = defaultdict(float)
    for t in store.tables():
        r = store.results()[t.id]
        # Every player seated: a smaller table's points are the full table's read at evenly spaced
        # places (first and last kept; the default points are evenly spaced, so a straight line).
        n = len(t.seats)
        scaled = [pts[0] + (pts[-1] - pts[0]) * i / (n - 1) for i in range(n)] if n < len(pts) else pts
        for seat, value in placements(r.scores, r.winner, scaled).items():
            expected[next(s.player for s in t.seats if s.seat == seat)] += value
    for rnd, ps in store.byes().items():
        for p in ps:
            expected[p] += store.settings.bye["placement"]
    assert {r.unit: r.placement for r in table.rows} == pytest.approx(dict(expected))
    total_points = sum(expected.values())
    assert total_points == pytest.approx(sum(r.placement for r in table.rows))
    store.close()


def test_placement_points_of_smaller_tables_add_up_exactly() -> None:
    """Tables of four in an event of tables of six give 5, 10/3, 5/3, 0.  A player second three
    times has 10, as one who won twice and was last once: equal on placement and on score, they
    share a rank.  The points used to be added as 3.333333 (9.999999), which ranked them apart."""
    from tests.tournament.helpers import settings_for
    from tournament.event.paired_on import Recomputed, changed
    from tournament.pairing import standings as st
    from tournament.settings import INDIVIDUAL
    from tournament.values import Player, Result, SeatAssignment, Table

    players = [Player(i, f"P{i}", None, 1, None) for i in range(1, 9)]
    tables, results = [], {}
    layouts = [([2, 1, 3, 4], [5, 6, 7, 8]), ([2, 1, 5, 6], [3, 4, 7, 8]), ([3, 1, 5, 2], [4, 6, 7, 8])]
    for r, layout in enumerate(layouts, 1):
        for n, group in enumerate(layout, 1):
            tid = len(tables) + 1
            tables.append(Table(tid, r, n, tuple(SeatAssignment(f"P{i + 1}", f"P{i + 1}", p)
                                                 for i, p in enumerate(group))))
            results[tid] = Result(tid, tid, "manual", False, {f"P{i + 1}": 40 - 10 * i for i in range(4)}, None,
                                  None, "")
    out = st.compute(settings_for(INDIVIDUAL, size=6), players, [], tables, results, {})
    rows = {row.unit: row for row in out.rows}
    assert (rows[1].placement, rows[1].score) == (rows[2].placement, rows[2].score) == (10, 90)
    assert rows[1].rank == rows[2].rank == 2
    assert st.cell(rows[1], "placement") == st.cell(rows[2], "placement") == 10
    # A round paired by the older version kept 9.999999: that is no change of standing for `check`.
    now = Recomputed({1: (2, {"placement": 10.0, "score": 90})}, {1: "P1"}, ("placement", "score"), "player")
    assert changed({1: (2, {"placement": 9.999999, "score": 90})}, now) == []
    assert changed({1: (2, {"placement": 9.5, "score": 90})}, now) == [1]
    # Nor is a rank that rounding alone gave: 9.999999 ranked 3rd below a 10 then; both share 2nd now.
    level = Recomputed({1: (2, {"placement": 10.0, "score": 90}), 2: (2, {"placement": 10.0, "score": 90})},
                       {1: "P1", 2: "P2"}, ("placement", "score"), "player")
    assert changed({1: (3, {"placement": 9.999999, "score": 90}), 2: (2, {"placement": 10.0, "score": 90})},
                   level) == []
    # A value that did change is still a change.
    assert sorted(changed({1: (3, {"placement": 9.5, "score": 90}), 2: (2, {"placement": 10.0, "score": 90})},
                          level)) == [1]


def test_clubs_best_players_placement_points_add_up_exactly() -> None:
    """A club's best four: 5 + 10/3 + 10/3 + 10/3 is 15, as another's 5 + 5 + 5 + 0 is, with equal
    scores: the clubs share a place.  Added as the rows' floats the first made 15.000000000000002
    and was ranked above the second."""
    from tests.tournament.helpers import settings_for
    from tournament.pairing import prizes
    from tournament.pairing import standings as st
    from tournament.settings import INDIVIDUAL
    from tournament.values import Player, Result, SeatAssignment, Table

    players = [Player(i, f"P{i}", None, 1, None) for i in range(1, 17)]
    layout = [[1, 9, 10, 8], [5, 2, 11, 12], [6, 3, 13, 14], [7, 4, 15, 16]]  # (club A: 1-4, club B: 5-8)
    tables = [Table(n, 1, n, tuple(SeatAssignment(f"P{i + 1}", f"P{i + 1}", p) for i, p in enumerate(group)))
              for n, group in enumerate(layout, 1)]
    results = {t.id: Result(t.id, t.id, "manual", False, {f"P{i + 1}": 40 - 10 * i for i in range(4)}, None, None, "")
               for t in tables}
    out = st.compute(settings_for(INDIVIDUAL, size=6), players, [], tables, results, {})
    club = {**dict.fromkeys(range(1, 5), "A"), **dict.fromkeys(range(5, 9), "B")}
    listed = prizes.groups(out, club, 4, "club")
    assert [(r.group, r.rank, r.sums["placement"]) for r in listed.rows] == [("A", 1, 15), ("B", 1, 15)]
    assert [row["placement"] for row in listed.row_dicts()] == [15, 15]


def test_equal_averages_of_placement_points_compare_equal() -> None:
    """7/3 a game two ways: 5/3 + 3 over two games, and 5 + 5 + 5/3 + 0 + 0 over five.  The
    average is divided exactly: a float of 14/3 divided by 2 is not the float of 35/3 divided by 5."""
    from tests.tournament.helpers import settings_for
    from tournament.pairing import standings as st
    from tournament.settings import INDIVIDUAL
    from tournament.values import Player, Result, SeatAssignment, Table

    x, y = 1, 2
    players = [Player(i, f"P{i}", None, 1, None) for i in range(1, 11)]
    layouts = [[[3, 4, x, 5], [y, 6, 7, 8, 9, 10]], [[3, 4, x, 5, 6, 7], [y, 8, 9, 10]],
               [[3, 4, y, 5]], [[3, 4, 5, y]], [[3, 4, 5, y]]]
    tables, results = [], {}
    for r, layout in enumerate(layouts, 1):
        for n, group in enumerate(layout, 1):
            tid = len(tables) + 1
            tables.append(Table(tid, r, n, tuple(SeatAssignment(f"P{i + 1}", f"P{i + 1}", p)
                                                 for i, p in enumerate(group))))
            results[tid] = Result(tid, tid, "manual", False, {f"P{i + 1}": 50 - 10 * i for i in range(len(group))},
                                  None, None, "")
    out = st.compute(settings_for(INDIVIDUAL, size=6, tiebreaks=("average", "placement")), players, [], tables,
                     results, {})
    rows = {row.unit: row for row in out.rows}
    assert (rows[x].played, rows[y].played) == (2, 5)
    assert rows[x].average == rows[y].average == 7 / 3

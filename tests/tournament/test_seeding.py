"""Round 1 seeded by rating and accelerated (Baku) pairings (issue 39)."""

from __future__ import annotations

import csv
import random
from pathlib import Path

import pytest

from tournament import create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.errors import SeedingError, SettingsError
from tournament.event.players import add_pairs, add_players
from tournament.event.standings import from_store
from tournament.pairing import seeding

from .test_pages import run


# --- the pure rules ---------------------------------------------------------------------------


def test_deal_puts_one_unit_of_each_slice_at_a_table() -> None:
    assert seeding.deal(list(range(1, 9)), 2) == [1, 5, 2, 6, 3, 7, 4, 8]  # top half against bottom half
    dealt = seeding.deal(list(range(1, 17)), 4)
    assert [dealt[i:i + 4] for i in range(0, 16, 4)] == [[1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15],
                                                         [4, 8, 12, 16]]


@pytest.mark.parametrize("units,per_table,size", [(8, 2, 4), (9, 2, 6), (12, 2, 6), (16, 4, 8), (20, 4, 12)])
def test_group_a_is_the_top_half_in_whole_tables(units: int, per_table: int, size: int) -> None:
    order = list(range(100, 100 + units))
    assert seeding.group_a(order, per_table) == set(order[:size])


def test_virtual_points_full_then_half() -> None:
    pairs = make_settings("x", "competitive", "pairs", accelerated=4)
    assert [seeding.virtual_points(pairs, r) for r in range(1, 7)] == [1, 1, 0.5, 0.5, 0, 0]
    three = make_settings("x", "competitive", "pairs", accelerated=3)
    assert [seeding.virtual_points(three, r) for r in range(1, 5)] == [1, 1, 0.5, 0]
    ind = make_settings("x", "horse-race", "individual", accelerated=2, placement=(5, 3, 1, 0))
    assert [seeding.virtual_points(ind, r) for r in (1, 2, 3)] == [5, 2.5, 0]
    assert seeding.virtual_points(make_settings("x", "competitive", "pairs"), 1) == 0


def test_seeded_order_unrated_last_and_ties_by_the_draw() -> None:
    order = seeding.seeded([1, 2, 3, 4, 5], {1: 1500, 2: None, 3: 1800, 4: 1500, 5: None}, random.Random(1))
    assert order[0] == 3 and set(order[1:3]) == {1, 4} and set(order[3:]) == {2, 5}


def test_settings_keep_acceleration_and_refuse_it_where_it_cannot_be() -> None:
    from tournament.settings import Settings

    s = make_settings("x", "competitive", "rotating", accelerated=2)
    assert Settings.from_json(s.to_json()).accelerated == 2
    assert "accelerated" not in make_settings("x", "competitive", "rotating").to_json()
    with pytest.raises(SettingsError, match="balanced"):
        make_settings("x", "competitive", "rotating", schedule="balanced", rounds=3, accelerated=2)
    with pytest.raises(SettingsError, match="1 to"):
        make_settings("x", "competitive", "pairs", accelerated=99)


# --- round 1 seeded in an event -----------------------------------------------------------------


def _pairs_with_ratings(path: Path, n: int, accelerated: int | None = None, seed: int = 0):
    store = create_event(path, make_settings("Open", "competitive", "pairs", seed=seed, accelerated=accelerated))
    # Pair P<i>: its players rated 1000 + 100 i and 1000 + 100 i + 50 (the pair: their mean).
    add_pairs(store, [(f"a{i}", f"b{i}", f"P{i}") for i in range(n)],
              fields=[({"rating": str(1000 + 100 * i)}, {"rating": str(1050 + 100 * i)}) for i in range(n)])
    return store


def _matches(store, round_no: int) -> set[frozenset[str]]:
    name = {t.id: t.name for t in store.teams()}
    team = {p.id: p.team for p in store.players()}
    return {frozenset(name[team[s.player]] for s in t.seats) for t in store.tables(round_no)}


def test_pairs_round_one_top_half_against_bottom_half(tmp_path: Path) -> None:
    store = _pairs_with_ratings(tmp_path / "ev.db", 8)
    pair_next_round(store, "rating")
    assert _matches(store, 1) == {frozenset({"P7", "P3"}), frozenset({"P6", "P2"}), frozenset({"P5", "P1"}),
                                  frozenset({"P4", "P0"})}
    # Kept with the round: each pair's place in the seeding and its rating (the mean of its players').
    kept = store.standings_used(1)
    by_name = {t.name: t.id for t in store.teams()}
    assert kept[by_name["P7"]] == (1, {"seed": 1725.0}) and kept[by_name["P0"]][0] == 8
    store.close()


def test_odd_field_the_lowest_seed_has_the_bye(tmp_path: Path) -> None:
    store = _pairs_with_ratings(tmp_path / "ev.db", 9)
    plan = pair_next_round(store, "rating")
    names = {p.id: p.name for p in store.players()}
    assert {names[p] for p in plan.byes} == {"a0", "b0"}
    assert frozenset({"P8", "P4"}) in _matches(store, 1)
    store.close()


def test_rotating_and_individual_one_of_each_slice_at_a_table(tmp_path: Path) -> None:
    store = create_event(tmp_path / "rot.db", make_settings("R", "competitive", "rotating", seed=2))
    add_players(store, [f"x{i}" for i in range(16)], fields=[{"elo": str(2000 - 10 * i)} for i in range(16)])
    pair_next_round(store, "column:elo")
    names = {p.id: int(p.name[1:]) for p in store.players()}
    tables = sorted(sorted(names[s.player] for s in t.seats) for t in store.tables(1))
    assert tables == [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]]
    for t in store.tables(1):  # 1st and 3rd of the table partners, against the 2nd and 4th
        ranked = sorted(t.seats, key=lambda s: names[s.player])
        assert ranked[0].side == ranked[2].side != ranked[1].side == ranked[3].side
    store.close()

    store = create_event(tmp_path / "ind.db", make_settings("I", "horse-race", "individual", seed=2))
    add_players(store, [f"y{i}" for i in range(12)], fields=[{"rating": str(100 - i)} for i in range(12)])
    pair_next_round(store, "rating")
    names = {p.id: int(p.name[1:]) for p in store.players()}
    tables = sorted(sorted(names[s.player] for s in t.seats) for t in store.tables(1))
    assert tables == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    store.close()


def test_a_random_round_one_is_unchanged_without_seed(tmp_path: Path) -> None:
    store = _pairs_with_ratings(tmp_path / "ev.db", 8, seed=4)
    pair_next_round(store)
    assert store.standings_used(1) == {}  # nothing kept: round 1 drawn as before
    store.close()


def test_refusals_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("R", "competitive", "rotating"))
    add_players(store, [f"x{i}" for i in range(8)], fields=[{"rating": "17OO" if i == 3 else "1700"}
                                                           for i in range(8)])
    with pytest.raises(SeedingError, match="x3.*'17OO' is not a number"):
        pair_next_round(store, "rating")
    with pytest.raises(SeedingError, match="no player has a 'fide' column.*the players' columns are rating") as e:
        pair_next_round(store, "column:fide")
    # the way it names to add them is the command's own (it said `--from`, which `add` has not)
    assert "(tournament add EVENT --csv players.csv)" in str(e.value)
    assert "--csv" in run("add", "--help").output and "--from" not in run("add", "--help").output
    with pytest.raises(SeedingError, match="draw, rating, column:NAME .* or ratings:FILE"):
        pair_next_round(store, "elo")
    assert store.last_round() == 0  # nothing written
    store.close()
    r = run("pair", path, "--seed", "rating")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "Traceback" not in r.output, r.output
    r = run("pair", path)
    assert r.exit_code == 0, r.output
    for n in range(1, 3):
        enter_manual(open_event(path), n, {"NS": 200, "EW": 10})
    r = run("pair", path, "--seed", "rating")
    assert r.exit_code == 2 and "round 1 only" in r.output


def test_players_csv_rating_column_seeds_from_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    players = tmp_path / "players.csv"
    with players.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "rating"])
        for i in range(8):
            w.writerow([f"x{i}", 1000 + i])
    assert run("new", path, "--name", "R", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, "--csv", players).exit_code == 0
    r = run("pair", path, "--seed", "rating", "-q")
    assert r.exit_code == 0, r.output
    assert "round 1 seeded by rating: 8 seeded" in r.output
    store = open_event(path)
    names = {p.id: int(p.name[1:]) for p in store.players()}
    tables = sorted(sorted(names[s.player] for s in t.seats) for t in store.tables(1))
    assert tables == [[0, 2, 4, 6], [1, 3, 5, 7]]
    store.close()


# --- accelerated pairings -------------------------------------------------------------------------

#: Round 1 of 12 pairs seeded P11 (best) … P0: group A (P11-P6) pairs among itself, group B too.
#: Each table's better seed wins, group B's winners by far more (so they rank above A's), A's
#: losers by less (so they rank above B's).
MARGINS = {"P11": 10, "P10": 9, "P9": 8, "P5": 200, "P4": 199, "P3": 198}


def _play_round_one(store) -> None:
    name = {t.id: t.name for t in store.teams()}
    team = {p.id: p.team for p in store.players()}
    for t in store.tables(1):
        sides = {name[team[s.player]]: s.side for s in t.seats}
        winner = next(n for n in sides if n in MARGINS)
        scores = {sides[winner]: 200, next(s for n, s in sides.items() if n != winner): 200 - MARGINS[winner]}
        enter_manual(store, t.number, scores)


@pytest.mark.parametrize("accelerated", [None, 4])
def test_baku_acceleration_round_two(tmp_path: Path, accelerated: int | None) -> None:
    store = _pairs_with_ratings(tmp_path / "ev.db", 12, accelerated=accelerated)
    pair_next_round(store, "rating")
    round_one = _matches(store, 1)
    if accelerated:
        assert round_one == {frozenset(m) for m in (("P11", "P8"), ("P10", "P7"), ("P9", "P6"), ("P5", "P2"),
                                                    ("P4", "P1"), ("P3", "P0"))}
    else:
        assert round_one == {frozenset({f"P{11 - i}", f"P{5 - i}"}) for i in range(6)}
        store.close()
        return
    _play_round_one(store)
    table = from_store(store)
    wins = {r.name: r.wins for r in table.rows}
    assert wins["P11"] == 1 and wins["P8"] == 0  # the virtual points are never in the standings
    pair_next_round(store)
    # With a virtual win, A's winners (2) meet each other, and the one left over meets the best of
    # those on 1, B's winners; A's losers (1) meet B's winners and each other, B's losers stay on 0.
    # Without acceleration the same standings pair P5-P4, P3-P11, P10-P9 (see below).
    assert _matches(store, 2) == {frozenset(m) for m in (("P11", "P10"), ("P9", "P5"), ("P4", "P3"),
                                                         ("P6", "P7"), ("P8", "P0"), ("P1", "P2"))}
    store.close()


def test_the_same_standings_without_acceleration(tmp_path: Path) -> None:
    """The control of :func:`test_baku_acceleration_round_two`: the same round 1 (an event
    accelerated in round 1 only) and the same results; round 2, past the acceleration, is paired
    on the standings alone, and differs."""
    store = _pairs_with_ratings(tmp_path / "ev.db", 12, accelerated=1)
    pair_next_round(store, "rating")
    _play_round_one(store)
    pair_next_round(store)
    assert _matches(store, 2) == {frozenset(m) for m in (("P5", "P4"), ("P3", "P11"), ("P10", "P9"),
                                                         ("P6", "P7"), ("P8", "P0"), ("P1", "P2"))}
    store.close()


def test_acceleration_from_a_random_draw_keeps_the_draw(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("R", "competitive", "pairs", accelerated=2, seed=9))
    add_pairs(store, [(f"a{i}", f"b{i}", f"P{i}") for i in range(8)])
    pair_next_round(store)
    kept = store.standings_used(1)
    assert sorted(rank for rank, _ in kept.values()) == list(range(1, 9))
    order = [u for u, _ in sorted(kept.items(), key=lambda item: item[1][0])]
    top = set(order[:4])
    for t in store.tables(1):  # group A (the draw's top half) among itself
        units = {p.team for p in store.players() if p.id in {s.player for s in t.seats}}
        assert len(units & top) in (0, 2)
    store.close()


def test_new_takes_the_keys_and_the_acceleration_and_info_says_so(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    r = run("new", path, "--name", "Open", "--game", "competitive", "--format", "pairs", "--tiebreak",
            "wins,best-round,median-buchholz,sonneborn-berger", "--accelerated", "3")
    assert r.exit_code == 0, r.output
    info = run("info", path).output
    assert "accelerated pairings (Baku): rounds 1-3" in info
    assert "ranking: wins, then best-round, then median-buchholz, then sonneborn-berger" in info
    r = run("new", tmp_path / "bad.db", "--name", "X", "--game", "competitive", "--format", "rotating",
            "--schedule", "balanced", "--rounds", "3", "--accelerated", "2")
    assert r.exit_code == 2 and "accelerated pairings are for rounds paired on the standings" in r.output
    assert not (tmp_path / "bad.db").exists()



def test_seed_refused_where_round_one_is_not_paired_on_the_standings(tmp_path: Path) -> None:
    store = create_event(tmp_path / "b.db", make_settings("B", "competitive", "rotating", schedule="balanced",
                                                          rounds=3))
    add_players(store, [f"x{i}" for i in range(8)], fields=[{"rating": str(i)} for i in range(8)])
    with pytest.raises(SeedingError, match="balanced"):
        pair_next_round(store, "rating")
    pair_next_round(store, "draw")  # the default, said out loud: allowed
    store.close()


@pytest.mark.parametrize("fmt", ["pairs", "rotating"])
def test_a_seeded_round_one_replays(tmp_path: Path, fmt: str) -> None:
    """Unpaired and paired again with the same --seed, round 1 is the same round, and its kept
    seeding goes and comes back with it."""
    from tournament.event.desk import unpair

    if fmt == "pairs":
        store = _pairs_with_ratings(tmp_path / "ev.db", 10, accelerated=2)
    else:
        store = create_event(tmp_path / "ev.db", make_settings("R", "competitive", fmt, accelerated=2))
        add_players(store, [f"x{i}" for i in range(13)], fields=[{"rating": str(1500 + 7 * i)} for i in range(13)])

    def seated():
        return [tuple((s.seat, s.player) for s in t.seats) for t in store.tables(1)], store.byes().get(1)

    pair_next_round(store, "rating")
    first, kept = seated(), store.standings_used(1)
    unpair(store)
    assert store.standings_used(1) == {}
    pair_next_round(store, "rating")
    assert seated() == first and store.standings_used(1) == kept
    store.close()


def test_seeded_by_a_ratings_file(tmp_path: Path) -> None:
    """``--seed ratings:FILE``: the ratings across events, players matched by name; a player the
    file does not know comes after every rated one."""
    from tournament.event.ratings import import_and_rate
    from tournament.event.simulate import simulate_event

    played = tmp_path / "last-month.db"
    simulate_event(played, "competitive", "rotating", 8, 3, seed=11)
    book = tmp_path / "ratings.db"
    rated, _ = import_and_rate(book, [played], [])
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Next", "competitive", "rotating", seed=1))
    names = sorted(r.name for r in rated) + ["Newcomer"]
    add_players(store, names)
    store.close()
    r = run("pair", path, "--seed", f"ratings:{book}", "-q")
    assert r.exit_code == 0, r.output
    assert "1 without a rating (last)" in r.output
    store = open_event(path)
    kept = store.standings_used(1)
    name = {p.id: p.name for p in store.players()}
    order = [name[u] for u, _ in sorted(kept.items(), key=lambda item: item[1][0])]
    assert order == [x.name for x in sorted(rated, key=lambda x: -x.ordinal)] + ["Newcomer"]
    store.close()
    other = create_event(tmp_path / "other.db", make_settings("Other", "competitive", "rotating"))
    add_players(other, [f"z{i}" for i in range(8)])
    other.close()
    r = run("pair", tmp_path / "other.db", "--seed", f"ratings:{tmp_path / 'missing.db'}")
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "Traceback" not in r.output, r.output
    assert not (tmp_path / "missing.db").exists()  # looked for, never created
    r = run("pair", tmp_path / "other.db", "--seed", f"ratings:{book}")
    assert r.exit_code == 2 and "none of the players is in the ratings file" in r.output

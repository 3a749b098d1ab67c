"""Pairing invariants over hundreds of seeded random events of each format and several sizes."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings as hsettings, strategies as hst

from tournament.pairing import swiss as pairing
from tournament.errors import PairingError
from tournament.settings import INDIVIDUAL, PAIRS, ROTATING

from tests.conftest import examples
from tests.tournament.helpers import MemoryEvent, assert_invariants, rotating_seating_exists, settings_for


def run_event(fmt: str, n: int, rounds: int, seed: int, size: int = 4, churn: bool = True) -> MemoryEvent:
    rng = random.Random(seed)
    ev = MemoryEvent(settings_for(fmt, size, seed))
    ev.add(n)
    for _ in range(rounds):
        if churn and ev.round and rng.random() < 0.2:
            ev.add(1)  # a late entry
        if churn and ev.round and rng.random() < 0.2:
            active = [p for p in ev.players if p.active_in(ev.round + 1)]
            if len(active) > size + 2:
                ev.withdraw(rng)
        ev.pair()
        ev.play(rng)
    assert_invariants(ev)
    return ev


@pytest.mark.parametrize("seed", range(120))
def test_pairs_events(seed: int) -> None:
    rng = random.Random(seed)
    teams = rng.choice([2, 3, 5, 8, 11, 16, 23, 40])
    rounds = max(1, min(7, teams // 2))
    run_event(PAIRS, teams, rounds, seed, churn=teams >= 8)


@pytest.mark.parametrize("seed", range(150))
def test_rotating_events(seed: int) -> None:
    rng = random.Random(1000 + seed)
    n = rng.choice([8, 9, 10, 11, 13, 16, 18, 23, 30, 45, 61])
    run_event(ROTATING, n, rng.randint(2, 7), seed)


@pytest.mark.parametrize("seed", range(120))
def test_individual_events_without_engine(seed: int) -> None:
    rng = random.Random(2000 + seed)
    size = rng.choice([2, 3, 4, 5, 6])
    n = rng.choice([size, size + 1, 2 * size + 1, 17, 30, 47])
    run_event(INDIVIDUAL, n, rng.randint(1, 6), seed, size)


def test_first_round_is_a_seeded_draw() -> None:
    a = run_event(ROTATING, 20, 1, seed=5, churn=False)
    b = run_event(ROTATING, 20, 1, seed=5, churn=False)
    c = run_event(ROTATING, 20, 1, seed=6, churn=False)
    assert [t.players for t in a.tables] == [t.players for t in b.tables]
    assert [t.players for t in a.tables] != [t.players for t in c.tables]
    # A draw, not the entry order.
    assert [t.players for t in a.tables] != [(1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12), (13, 14, 15, 16),
                                              (17, 18, 19, 20)]


def test_rotating_tables_seat_first_and_third_against_second_and_fourth() -> None:
    order = list(range(101, 113))
    fours = pairing.seat_rotating(order, {}, {})
    assert fours == [(101, 102, 103, 104), (105, 106, 107, 108), (109, 110, 111, 112)]  # a&c vs b&d
    # 101 and 103 were partners: the table keeps its four players and rearranges them.
    partners = {101: {103}, 103: {101}}
    fours = pairing.seat_rotating(order, partners, {})
    a, b, c, d = fours[0]
    assert {a, b, c, d} == {101, 102, 103, 104} and {a, c} != {101, 103}
    # A repeated opponent costs more than a step down the standings.
    opponents = {101: Counter({102: 1, 104: 1}), 102: Counter({101: 1}), 104: Counter({101: 1})}
    a, b, c, d = pairing.seat_rotating(order, {}, opponents)[0]
    assert 101 in (a, b, c, d)
    assert sum(opponents.get(x, Counter())[y] for x in (a, c) for y in (b, d)) == 0


def test_later_rounds_follow_the_standings() -> None:
    rng = random.Random(3)
    ev = MemoryEvent(settings_for(ROTATING))
    ev.add(32)
    ev.pair()
    ev.play(rng)
    table = ev.standings()
    ev.pair()
    pos = {s.unit: i for i, s in enumerate(table.rows)}
    round2 = [t for t in ev.tables if t.round == 2]
    assert table.rows[0].unit in round2[0].players
    means = [sum(pos[p] for p in t.players) / 4 for t in round2]
    assert means == sorted(means) or sum(a > b for a, b in zip(means, means[1:])) <= 2


def test_swiss_pairs_neighbours_and_never_rematches() -> None:
    order = [1, 2, 3, 4, 5, 6]
    assert pairing.swiss(order, {}) == [(1, 2), (3, 4), (5, 6)]
    met = {1: Counter({2: 1}), 2: Counter({1: 1})}
    assert pairing.swiss(order, met) == [(1, 3), (2, 4), (5, 6)]
    # The bottom would be left with a rematch: backtrack.
    met = {5: Counter({6: 1}), 6: Counter({5: 1})}
    result = pairing.swiss(order, met)
    assert result is not None and (5, 6) not in result
    assert sorted(x for m in result for x in m) == order
    # Impossible: everybody has met everybody.
    everyone = {u: Counter(v for v in order if v != u) for u in order}
    assert pairing.swiss(order, everyone) is None


def test_pairs_sides_are_balanced() -> None:
    ev = run_event(PAIRS, 16, 7, seed=11, churn=False)
    ns: Counter = Counter()
    team_of = {p.id: p.team for p in ev.players}
    for t in ev.tables:
        ns[team_of[t.seats[0].player]] += 1  # N
    for team in ev.teams:
        assert 2 <= ns[team.id] <= 5, ns  # 7 rounds: N-S 3 or 4 times, never lopsided


def test_rotating_repeats_are_rare() -> None:
    ev = run_event(ROTATING, 48, 6, seed=4, churn=False)
    meetings: Counter = Counter()
    for t in ev.tables:
        seat = {s.seat: s.player for s in t.seats}
        for a in (seat["N"], seat["S"]):
            for b in (seat["E"], seat["W"]):
                meetings[frozenset((a, b))] += 1
    repeats = sum(n - 1 for n in meetings.values() if n > 1)
    assert repeats <= 6, repeats  # 288 meetings; a few repeats at most


def test_individual_repeats_are_avoided_when_possible() -> None:
    ev = run_event(INDIVIDUAL, 24, 3, seed=2, size=4, churn=False)
    meetings: Counter = Counter()
    for t in ev.tables:
        ps = t.players
        for i, a in enumerate(ps):
            for b in ps[i + 1:]:
                meetings[frozenset((a, b))] += 1
    assert max(meetings.values()) == 1


def test_seat_individual_groups_by_standings() -> None:
    order = list(range(1, 13))
    assert pairing.seat_individual(order, 3, {}) == [(1, 2, 3), (4, 5, 6), (7, 8, 9), (10, 11, 12)]
    met = {1: Counter({2: 1}), 2: Counter({1: 1})}
    tables = pairing.seat_individual(order, 3, met)
    assert all(not {1, 2} <= set(t) for t in tables)
    assert tables[0][0] == 1


def test_bye_choices_are_fair() -> None:
    byes = Counter({1: 1, 2: 0, 3: 0, 4: 1, 5: 0})
    order = [1, 2, 3, 4, 5]  # best first
    first = next(pairing.bye_choices(order, 2, byes))
    assert set(first) == {5, 3}  # the lowest ranked among those without a bye
    # Three byes with two... players at level 0 (2,3,5) — all three.
    assert set(next(pairing.bye_choices(order, 3, byes))) == {2, 3, 5}
    # Four byes: all of level 0, then the lowest ranked at level 1.
    assert set(next(pairing.bye_choices(order, 4, byes))) == {2, 3, 5, 4}
    for choice in pairing.bye_choices(order, 2, byes):
        assert not ({1, 4} & set(choice))


@pytest.mark.parametrize("n,rounds", [(4, 4), (5, 6), (6, 6), (7, 6), (8, 8)])
def test_rotating_refuses_only_when_impossible(n: int, rounds: int) -> None:
    """Small events run out of new partners; the pairing must say so exactly when no seating exists."""
    rng = random.Random(n)
    ev = MemoryEvent(settings_for(ROTATING))
    ev.add(n)
    refused = False
    for _ in range(rounds):
        partners = {frozenset((s["N"], s["S"])) for t in ev.tables for s in [{x.seat: x.player for x in t.seats}]}
        partners |= {frozenset((s["E"], s["W"])) for t in ev.tables for s in [{x.seat: x.player for x in t.seats}]}
        byes: Counter = Counter(p for ps in ev.byes.values() for p in ps)
        possible = rotating_seating_exists([p.id for p in ev.players], partners, byes, n % 4)
        try:
            ev.pair()
        except PairingError as e:
            assert not possible, f"refused although a seating exists: {e}"
            refused = True
            break
        ev.play(rng)
        assert_invariants(ev)
    if n == 4:
        assert refused  # four players have only three partnerships to give


def test_pairing_too_few_players() -> None:
    ev = MemoryEvent(settings_for(ROTATING))
    ev.add(3)
    with pytest.raises(PairingError, match="at least 4"):
        ev.pair()


#: Seeded events' every table and bye, and their final standings, as digests, made by the pairing
#: and the standings before issue 39's speed-ups (commit 0b18e8b): the faster code pairs and ranks
#: exactly as they did.  A deliberate change of a rule (not of speed) updates them.
SAME_AS_BEFORE = [((ROTATING, 61, 6, 3), "4f15c745f9cd8984", "f8a385e02510fe94"),
                  ((ROTATING, 200, 4, 5), "db7f950930a2018c", "433b83c27d3cfb0c"),
                  ((PAIRS, 31, 6, 4), "b0c900eb7d777308", "9be2b922db1cd509"),
                  ((INDIVIDUAL, 45, 5, 6), "342bb7ab306cc0bd", "9360f76c7f6ee345")]


@pytest.mark.parametrize("event, tables_digest, standings_digest", SAME_AS_BEFORE)
def test_the_same_pairings_and_standings_as_before_the_speed_up(event, tables_digest, standings_digest) -> None:
    import hashlib
    import json

    fmt, n, rounds, seed = event
    ev = run_event(fmt, n, rounds, seed)
    seated = repr([(t.round, t.number, [(s.seat, s.player) for s in t.seats]) for t in ev.tables])
    assert hashlib.sha256((seated + repr(sorted(ev.byes.items()))).encode()).hexdigest()[:16] == tables_digest
    ranked = json.dumps(ev.standings().to_dict(), sort_keys=True)
    assert hashlib.sha256(ranked.encode()).hexdigest()[:16] == standings_digest


@pytest.mark.parametrize("fmt, players, rounds, seed", [
    ("pairs", 12, 5, 0), ("pairs", 14, 7, 1), ("teams", 20, 4, 5), ("teams", 24, 5, 0)])
def test_a_small_swiss_is_paired_so_that_its_next_rounds_can_be(tmp_path, fmt, players, rounds, seed) -> None:
    """Six pairs, five rounds: round 4 could not be paired (two pairs would meet again) in three
    seeds of eight, as for five teams and four rounds, six teams and five, seven pairs and seven.
    Each round of a small field is now paired so that the next two can be too, and the whole event
    is played with no two meeting twice (``check`` finds nothing wrong)."""
    from tournament import open_event, run_check
    from tournament.event.simulate import simulate_event

    path = tmp_path / "small.db"
    simulate_event(path, "competitive", fmt, players, rounds, seed=seed, team_size=4 if fmt == "teams" else None)
    store = open_event(path)
    try:
        assert len(store.rounds()) == rounds
        report = run_check(store)
        assert report.ok, [f.text() for f in report.findings]
    finally:
        store.close()


def test_swiss_goes_past_a_pairing_refused_and_a_field_that_cannot_look_ahead_is_paired_still() -> None:
    """``accept`` refusing the first pairing gives the next one in the search's order.  Four pairs
    after 1-2 and 3-4 can play two more rounds, not three: looking two rounds ahead refuses every
    pairing of round 2, and the round is paired as without looking ahead."""
    met = {1: Counter({2: 1}), 2: Counter({1: 1}), 3: Counter({4: 1}), 4: Counter({3: 1})}
    first = pairing.swiss([1, 3, 2, 4], met)
    assert first == [(1, 3), (2, 4)]
    assert pairing.swiss([1, 3, 2, 4], met, lambda m: m != first) == [(1, 4), (3, 2)]
    accept = pairing.looking_ahead([1, 2, 3, 4], met, Counter(), ())
    assert accept is not None and not accept(first)
    assert pairing.swiss_round([1, 3, 2, 4], met, Counter()) == ((), first)
    assert pairing.looking_ahead(list(range(pairing.LOOKAHEAD_UNITS + 2)), {}, Counter(), ()) is None


def _pairings(units: list[int], met: dict[int, Counter]):
    """Every pairing of ``units`` in which no two have met (brute force, for small fields)."""
    if not units:
        yield []
        return
    first, rest = units[0], units[1:]
    for i, other in enumerate(rest):
        if other not in met.get(first, ()):
            for tail in _pairings(rest[:i] + rest[i + 1:], met):
                yield [(first, other), *tail]


def _played(units: list[int], games, before: dict[int, Counter] | None = None) -> dict[int, Counter]:
    """Who has met whom after ``games`` (pairs of units; one of a unit with itself, or of one not
    in ``units``, is no game), on top of ``before``."""
    out = {u: Counter(c) for u, c in (before or {}).items()}
    for a, b in games:
        if a != b and a in units and b in units:
            out.setdefault(a, Counter())[b] += 1
            out.setdefault(b, Counter())[a] += 1
    return out


@hsettings(max_examples=examples(60, 600))
@given(n=hst.sampled_from([4, 6, 8]), played=hst.lists(hst.tuples(hst.integers(0, 7), hst.integers(0, 7)), max_size=14),
       refused=hst.sets(hst.integers(0, 100), max_size=6))
def test_swiss_with_accept_finds_an_accepted_pairing_whenever_one_exists(n, played, refused) -> None:
    """Against brute force: with ``accept`` refusing some pairings, :func:`swiss` returns a pairing
    of everyone in which no two have met and which ``accept`` takes, whenever such a pairing
    exists, and None only when none does."""
    units = list(range(n))
    met = _played(units, played)
    every = list(_pairings(units, met))
    refuse = {tuple(sorted(tuple(sorted(m)) for m in p)) for i, p in enumerate(every) if i in refused}

    def accept(found) -> bool:
        return tuple(sorted(tuple(sorted(m)) for m in found)) not in refuse

    found = pairing.swiss(units, met, accept)
    if len(refuse) == len(every):
        assert found is None
    else:
        assert found is not None and accept(found)
        assert sorted(u for m in found for u in m) == units and all(b not in met.get(a, ()) for a, b in found)


@hsettings(max_examples=examples(40, 400))
@given(n=hst.sampled_from([4, 6, 8]), played=hst.lists(hst.tuples(hst.integers(0, 7), hst.integers(0, 7)), max_size=16))
def test_looking_ahead_accepts_exactly_the_pairings_after_which_two_rounds_can_be_paired(n, played) -> None:
    """Against brute force, in fields without byes: a pairing is accepted when, and only when,
    two more rounds can be paired after it with no two meeting again."""
    units = list(range(n))
    met = _played(units, played)

    assert pairing.LOOKAHEAD_ROUNDS == 2
    for candidate in list(_pairings(units, met))[:4]:
        after = _played(units, candidate, met)
        possible = any(next(_pairings(units, _played(units, second, after)), None) is not None
                       for second in _pairings(units, after))
        accept = pairing.looking_ahead(units, met, Counter(), ())
        assert accept is not None and accept(candidate) == possible, (candidate, met)

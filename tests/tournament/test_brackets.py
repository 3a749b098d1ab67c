"""Bracket invariants over many seeded random fields of every size from 2 to 128.

The checks count losses, byes and meetings from the games played, written
here again rather than taken from tournament.brackets (a test that used the
code under test as its oracle could not fail when that code is wrong).
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest

from tournament.pairing import brackets as b

#: Every size of field from 2 to 128 under ``pytest --long``; the default run takes every size
#: up to 40 (every shape of byes in brackets of up to 64) and, above it, sizes on either side of
#: each power of two and a few between (the default run stays within its ten minutes).
_DEFAULT_ABOVE_40 = {47, 48, 63, 64, 65, 91, 96, 100, 121, 127, 128}
SIZES = [n if n <= 40 or n in _DEFAULT_ABOVE_40 else pytest.param(n, marks=pytest.mark.long) for n in range(2, 129)]


def play(bracket: b.Bracket, n: int, rng: random.Random, draws: float = 0.0):
    """Play the bracket to the end with random results; returns (state, games in order)."""
    seeds = list(range(1000, 1000 + n))
    rng.shuffle(seeds)
    games: list[b.Game] = []
    for _ in range(100_000):
        state = b.resolve(bracket, seeds, games)
        due = state.due
        if not due:
            return state, games
        m = rng.choice(due)
        sides = [u for u in m.sides if u != b.NOBODY]
        rng.shuffle(sides)
        if len(sides) == 2 and rng.random() < draws:
            games.append(b.Game(m.match.key, (tuple(sides),)))
        else:
            games.append(b.Game(m.match.key, tuple((u,) for u in sides)))
    raise AssertionError("the bracket never finished")


def head_to_head_results(games: list[b.Game]) -> list[tuple[str, int, int]]:
    """(match, winner, loser) for every decisive game."""
    return [(g.match, g.places[0][0], g.places[1][0]) for g in games if len(g.places) == 2]


def match_results(bracket: b.Bracket, games: list[b.Game]) -> dict[str, tuple[int, int]]:
    """Match -> (winner, loser), counted from the games independently (first to wins_needed)."""
    wins: dict[str, Counter] = {}
    out: dict[str, tuple[int, int]] = {}
    for key, w, loser in head_to_head_results(games):
        if key in out:
            raise AssertionError(f"a game of {key} was played after it was decided")
        c = wins.setdefault(key, Counter())
        c[w] += 1
        if c[w] == bracket.wins_needed:
            out[key] = (w, loser)
    return out


@pytest.mark.parametrize("n", SIZES)
def test_single_elimination(n: int) -> None:
    for seed in range(3):
        rng = random.Random(f"single:{n}:{seed}")
        third = n >= 4 and seed == 1
        bracket = b.single_elimination(n, third_place=third, wins_needed=1 + seed % 2 * 2 if seed == 2 else 1)
        state, games = play(bracket, n, rng, draws=0.1)
        assert state.finished
        decided = match_results(bracket, games)
        losses = Counter(loser for key, (_, loser) in decided.items() if key != "3P")
        champion = state.champion
        assert champion is not None and losses[champion] == 0, "the champion is undefeated"
        assert all(losses[u] == 1 for u in state.seeds if u != champion), "everyone else is out exactly once"
        assert sum(losses.values()) == n - 1
        # Byes: only in the first round, and to the top seeds.
        size = 1 << math.ceil(math.log2(n))
        walkovers = [m for m in state.matches if m.status == b.WALKOVER]
        assert len(walkovers) == size - n
        assert all(m.match.round == 1 for m in walkovers)
        bye_seeds = sorted(state.seeds.index(m.order[0]) + 1 for m in walkovers)
        assert bye_seeds == list(range(1, size - n + 1))
        assert not any(m.status == b.VOID for m in state.matches)
        # Seed 1 meets the lowest seed present first; 1 and 2 can meet only in the final.
        first = [m for m in state.matches if m.match.round == 1 and state.seeds[0] in m.sides][0]
        assert set(first.sides) - {state.seeds[0]} == {b.NOBODY if n < size else state.seeds[-1]}
        final = [m for m in state.matches if m.match.bracket == "final"][0]
        met = {frozenset(m.sides) for m in state.matches if m.status == b.DECIDED and m is not final
               and m.match.bracket != "third-place"}
        assert frozenset(state.seeds[:2]) not in met
        places = b.placings(state)
        assert places[champion] == 1 and sorted(places.values())[1] == 2
        if third:
            third_game = decided["3P"]
            assert places[third_game[0]] == 3 and places[third_game[1]] == 4


def _origins(bracket: b.Bracket) -> dict[tuple[str, int], frozenset[str]]:
    """(losers' match, side) -> the winners' matches whose loser may arrive there."""
    memo: dict[str, frozenset[str]] = {}

    def reach(src: b.Source) -> frozenset[str]:
        if src.kind == "loser" and src.match.startswith("W"):
            return frozenset({src.match})
        if src.kind == "winner" and src.match.startswith("L"):
            if src.match not in memo:
                m = bracket.match(src.match)
                memo[src.match] = reach(m.sources[0]) | reach(m.sources[1])
            return memo[src.match]
        return frozenset()

    return {(m.key, i): reach(s) for m in bracket.matches if m.bracket == "losers" for i, s in enumerate(m.sources)}


def _subtree(bracket: b.Bracket) -> dict[str, set[str]]:
    """Winners' match -> the winners' matches strictly below it."""
    out: dict[str, set[str]] = {}
    for m in sorted((m for m in bracket.matches if m.bracket == "winners"), key=lambda m: m.round):
        out[m.key] = set()
        for s in m.sources:
            if s.kind == "winner":
                out[m.key] |= {s.match} | out[s.match]
    return out


def _may_meet(a: frozenset[str], c: frozenset[str], below: dict[str, set[str]]) -> bool:
    return any(x in below[y] or y in below[x] for x in a for y in c)


def _perfect_matching_exists(left: list, right: list, ok) -> bool:
    match: dict[int, int] = {}

    def aug(i: int, seen: set[int]) -> bool:
        for j in range(len(right)):
            if j not in seen and ok(left[i], right[j]):
                seen.add(j)
                if j not in match or aug(match[j], seen):
                    match[j] = i
                    return True
        return False

    return all(aug(i, set()) for i in range(len(left)))


def _pairing_exists(items: list, ok) -> bool:
    if not items:
        return True
    first, rest = items[0], items[1:]
    return any(ok(first, x) and _pairing_exists([y for y in rest if y is not x], ok) for x in rest)


@pytest.mark.parametrize("n", SIZES)
def test_double_elimination(n: int) -> None:
    bracket = b.double_elimination(n, reset=True)
    origins = _origins(bracket)
    below = _subtree(bracket)
    # Structure: in every losers' round, a possible rematch only where none can be avoided.
    avoidable_rounds: set[int] = set()
    for r in sorted({m.round for m in bracket.matches if m.bracket == "losers"}):
        ms = bracket.in_round(r)
        conflicts = [_may_meet(origins[(m.key, 0)], origins[(m.key, 1)], below) for m in ms]
        if ms[0].sources[0].kind == "loser" and ms[0].sources[0].match.startswith("W") and r > 2:
            drops = [frozenset({m.sources[0].match}) for m in ms]
            surv = [origins[(m.key, 1)] for m in ms]
            avoidable = _perfect_matching_exists(drops, surv, lambda d, s: not _may_meet(d, s, below))
        elif len(ms) <= 8:
            sides = [origins[(m.key, i)] for m in ms for i in (0, 1)]
            avoidable = _pairing_exists(sides, lambda x, y: not _may_meet(x, y, below))
        else:
            continue
        if avoidable:
            avoidable_rounds.add(r)
            assert not any(conflicts), f"n={n}: a rematch is possible in {bracket.round_labels[r - 1]} but avoidable"
    for seed in range(2):
        rng = random.Random(f"double:{n}:{seed}")
        state, games = play(bracket, n, rng)
        assert state.finished
        decided = match_results(bracket, games)
        losses = Counter(loser for _, loser in decided.values())
        champion = state.champion
        assert champion is not None and losses[champion] <= 1
        assert all(losses[u] == 2 for u in state.seeds if u != champion), "everyone else loses exactly twice"
        gf = decided["GF"]
        assert (state.state("GF2").status == b.VOID) == (losses[gf[0]] == 0 and gf[0] == champion)
        # Byes only in the first round of the winners' bracket, to the top seeds.
        w_walkovers = [m for m in state.matches if m.status == b.WALKOVER and m.match.bracket == "winners"]
        assert all(m.match.round == 1 for m in w_walkovers)
        size = 1 << math.ceil(math.log2(n))
        assert sorted(state.seeds.index(m.order[0]) + 1 for m in w_walkovers) == list(range(1, size - n + 1))
        l_walkover_rounds = {m.match.key.split("-")[0] for m in state.matches
                             if m.status in (b.WALKOVER, b.VOID) and m.match.bracket == "losers"}
        assert l_walkover_rounds <= {"L1", "L2"}, "losers' bracket byes only where winners' byes feed it"
        # Every actual rematch in the losers' bracket was structurally possible (the model is sound),
        # so none happens in a round where the draw avoided them.
        met: set[frozenset[int]] = set()
        for key, w, loser in head_to_head_results(games):
            pair = frozenset((w, loser))
            if key.startswith("L") and pair in met:
                m = bracket.match(key)
                assert m.round not in avoidable_rounds, f"n={n}: rematch in {key}"
                assert _may_meet(origins[(key, 0)], origins[(key, 1)], below)
            met.add(pair)
        places = b.placings(state)
        assert places[champion] == 1 and list(places.values()).count(1) == 1


@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 33, 64, 100, 128])
def test_double_elimination_without_reset(n: int) -> None:
    bracket = b.double_elimination(n, reset=False)
    assert not any(m.key == "GF2" for m in bracket.matches)
    state, games = play(bracket, n, random.Random(n))
    decided = match_results(bracket, games)
    losses = Counter(loser for _, loser in decided.values())
    champion = state.champion
    assert losses[champion] <= 1
    gf_loser = decided["GF"][1]
    assert all(losses[u] == 2 for u in state.seeds if u not in (champion, gf_loser))
    assert losses[gf_loser] in (1, 2)


@pytest.mark.parametrize("size,advance", [(3, 1), (4, 2), (4, 1), (5, 2), (6, 3)])
def test_multi_player_knockout(size: int, advance: int) -> None:
    for n in range(2, 129, 3):
        try:
            bracket = b.multi_knockout(n, size, advance, range(2, 7))
        except b.BracketError:
            continue
        rng = random.Random(f"multi:{n}:{size}:{advance}")
        state, games = play(bracket, n, rng)
        assert state.finished and state.champion is not None
        last = max(m.round for m in bracket.matches)
        final = bracket.in_round(last)
        assert len(final) == 1 and len(final[0].sources) <= size
        for r in range(1, last):
            tables = [m for m in state.matches if m.match.round == r]
            players_in = [u for m in tables for u in m.sides]
            assert len(players_in) == len(set(players_in))
            nxt = {u for m in state.matches if m.match.round == r + 1 for u in m.sides}
            for m in tables:
                go_on = [u for u in m.sides if u in nxt]
                assert 1 <= len(go_on) < len(m.sides) and len(go_on) == min(advance, len(m.sides) - 1)
                assert set(go_on) == set(m.order[:len(go_on)]), "the top of each table go on"
        first_round = [u for m in state.matches if m.match.round == 1 for u in m.sides]
        assert sorted(first_round) == sorted(state.seeds)


def test_multi_player_knockout_ties_at_the_cut_go_to_the_better_seed() -> None:
    bracket = b.multi_knockout(8, 4, 2, range(2, 7))
    seeds = list(range(1, 9))
    t1 = bracket.in_round(1)[0]
    state = b.resolve(bracket, seeds, [])
    sides = state.state(t1.key).sides
    worst_first = sorted(sides, reverse=True)
    game = b.Game(t1.key, ((worst_first[0],), (worst_first[1], worst_first[2]), (worst_first[3],)))
    after = b.resolve(bracket, seeds, [game]).state(t1.key)
    assert after.order[:2] == (worst_first[0], min(worst_first[1], worst_first[2]))


def test_first_to_n_counts_wins_and_ignores_draws() -> None:
    bracket = b.single_elimination(2, wins_needed=2)
    seeds = [7, 9]
    win7, win9, draw = b.Game("R1-1", ((7,), (9,))), b.Game("R1-1", ((9,), (7,))), b.Game("R1-1", ((7, 9),))
    assert b.resolve(bracket, seeds, [win7, draw]).state("R1-1").status == b.DUE
    assert b.resolve(bracket, seeds, [win7, draw, win9]).state("R1-1").wins == (1, 1)
    done = b.resolve(bracket, seeds, [win7, draw, win9, win7]).state("R1-1")
    assert done.status == b.DECIDED and done.order == (7, 9) and done.wins == (2, 1)


def test_standard_seeding_order() -> None:
    assert b.standard_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    for size in (2, 4, 16, 64):
        order = b.standard_order(size)
        assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))


def test_refused_draws() -> None:
    with pytest.raises(b.BracketError):
        b.single_elimination(1)
    with pytest.raises(b.BracketError, match="third-place"):
        b.single_elimination(3, third_place=True)
    with pytest.raises(b.BracketError, match="cannot seat"):
        b.multi_knockout(5, 4, 2, (4,))
    with pytest.raises(b.BracketError):
        b.multi_knockout(10, 4, 4, range(2, 7))


def test_draw_text_names_every_match() -> None:
    bracket = b.double_elimination(5)
    state, _ = play(bracket, 5, random.Random(3))
    names = {u: f"Name {u}" for u in state.seeds}
    text = b.draw_text(state, names)
    for m in bracket.matches:
        assert m.key in text
    assert f"champion: Name {state.champion}" in text
    assert list(itertools.chain(text.splitlines()))[0].startswith("== winners' round 1")

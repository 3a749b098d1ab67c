"""A typed hand's choices read as a set of positions (domrec/notation/position_set.py) give the
verdict of the general reading, which walks every reading on the Game API.

The property: for simulated games typed as sheets are (no ``@``, seats or not), whole and with a
claimed score, a tile or two words changed, what a user sees (the verdict, its problems with
line and column, the note, the record read) is the same with the straight path and its set of
positions as with the general reading alone.  And the set of positions does answer: the sheets
of Competitive games are read by it, and a game whose later hand the general reading must word
is handed over with the hands before it read (``ReadBefore``).
"""

from __future__ import annotations

import random
import re
from unittest import mock

import attrs
import pytest
from hypothesis import given, settings

from domrec import notation
from domrec.games import horserace
from domrec.notation import loading, position_set, readings, straight
from domrec.validate import validate

from tests.conftest import CONFIGS, IDS, examples
from tests.test_straight import SEEDS, SETTINGS, corrupted, everything, general
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

GAMES = ["competitive", "horse-race"]


class Taken:
    """What the straight path gave each game: a verdict, the hands read before one it could not
    read, or nothing; and the hands whose choices the set of positions read."""

    def __init__(self) -> None:
        self.read = self.before = self.left = self.chosen = self.parted = 0
        self._read = straight.read
        self._choices = straight.read_choices

    def __call__(self, r, source):
        out = self._read(r, source)
        if out is None:
            self.left += 1
        elif isinstance(out, straight.ReadBefore):
            self.before += 1
        else:
            self.read += 1
        return out

    def choices(self, *args):
        found = self._choices(*args)
        self.chosen += 1
        self.parted += isinstance(found, position_set.Parting)
        return found

    def fast(self, text: str) -> list:
        with mock.patch.object(loading, "read_straight", self), \
                mock.patch.object(straight, "read_choices", self.choices):
            return everything(text)


def sheet(record, seats: bool, hands: int | None = None) -> str:
    if hands is not None:
        record = attrs.evolve(record, hands=record.hands[:hands])
    return notation.dumps_typed(record, keep_deal=False, seats=seats, ends=False)


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=examples(6, 12), **SETTINGS)  # (pytest --long: 12)
@given(seed=SEEDS)
def test_a_sheet_read_as_positions_reads_as_every_reading_walked(game, seed):
    record = next(made_once.simulate(game, 1, seed))
    rng = random.Random(seed)
    for seats in (True, False):
        text = sheet(record, seats, hands=3)
        for one in [text, *corrupted(text, record, rng)]:
            assert Taken().fast(one) == general(one)


def test_competitive_sheets_are_read_as_positions():
    taken = Taken()
    for record in made_once.simulate("competitive", 4, 21):
        text = sheet(record, seats=False)
        assert taken.fast(text) == general(text)
    # (every hand of these sheets leaves a tile that fits both ends, and all their readings
    # give one score: the straight path reads them, each hand's choices as positions)
    assert (taken.read, taken.before, taken.left) == (4, 0, 0)
    assert taken.chosen > 4 * 5


def test_a_game_whose_later_hand_parts_is_handed_over_with_the_hands_before_it():
    # Horse Race sheets: a tile set on one open spot or another pegs differently, so most games
    # have a hand whose readings give different scores, which the general reading words.
    taken = Taken()
    for record in made_once.simulate("horse-race", 6, 1, accidents=False):
        text = sheet(record, seats=False)
        assert taken.fast(text) == general(text)
    assert taken.before >= 1


def test_a_hand_whose_readings_part_is_worded_from_the_positions():
    # Horse Race sheets without ends: a hand's readings give different scores (a tile set on one
    # open spot or another pegs differently).  The set of positions finds where the general
    # reading stops (the first legal reading with other scores), what it names there, and the
    # general reading only plays that reading: the verdict, its message, note and partial record
    # are the general reading's own, for the first hand as for a later one, seats typed or not.
    taken = Taken()
    firsts = 0
    for record in made_once.simulate("horse-race", 8, 2, accidents=False):
        for seats in (True, False):
            text = sheet(record, seats=seats)
            fast = taken.fast(text)
            assert fast == general(text)
            assert fast[0][0] == "invalid" and "give this hand different scores" in fast[0][8][0][7]
            firsts += fast[0][8][0][2] == 1
    assert taken.parted >= 12 and taken.before >= 12  # (a few hands hold more positions than are kept)
    assert firsts  # (a first hand that parts: handed over with no hand before it)


def test_readings_that_part_after_equal_scores_name_each_option_as_the_general_reading():
    # The general reading names, at the first move where the legal readings it read part, each
    # option with the scores of the first reading that made it: on sheets cut to their first
    # hands, every parting the set of positions words matches it (some name more than two
    # options, some an option whose first reading gave the first scores).
    taken = Taken()
    for record in made_once.simulate("horse-race", 16, 11, accidents=False):
        for hands in (1, 2):
            text = sheet(record, seats=False, hands=hands)
            assert taken.fast(text) == general(text)
    assert taken.parted >= 8


def test_positions_past_the_cap_are_left_to_the_general_reading():
    record = next(made_once.simulate("horse-race", 1, 3, accidents=False))
    text = sheet(record, seats=False, hands=4)
    with mock.patch.object(position_set, "MAX_LEVEL", 1):
        taken = Taken()
        assert taken.fast(text) == general(text)
    assert taken.read == 0


def test_readings_are_counted_on_the_graph_of_positions():
    # Two tiles that each fit both ends, on the first hand: the note counts every reading, as
    # the general reading does by walking each, though equal positions were read once.
    counts = []
    for record in made_once.simulate("competitive", 3, 5, accidents=False):
        text = sheet(record, seats=True, hands=2)
        fast = Taken().fast(text)
        assert fast == general(text)
        note = fast[0][6] or ""
        for said in note.split("; "):
            if "readings give the same scores" in said:
                counts.append(int(said.split(": ")[1].split(" ")[0]))
    # The sheets do leave such choices (else the test reads nothing), and a count is of readings,
    # more than the positions they merge into.
    assert counts and all(count >= 2 for count in counts), counts


@pytest.mark.parametrize("game,seed", [("competitive", 2), ("competitive", 3), ("horse-race", 4)])
def test_merging_equal_positions_changes_nothing(monkeypatch, game, seed):
    # Every position kept apart (no two keys equal): the readings are then counted one by one,
    # and the verdicts, notes and records are those of the positions merged.
    texts = [sheet(record, seats=False, hands=2) for record in made_once.simulate(game, 3, seed, accidents=False)]
    merged = [Taken().fast(text) for text in texts]
    monkeypatch.setattr(position_set, "_key", lambda state: object())
    monkeypatch.setattr(position_set, "MAX_LEVEL", 10_000)
    monkeypatch.setattr(position_set, "MAX_POSITIONS", 10_000)
    taken = Taken()
    assert [taken.fast(text) for text in texts] == merged
    assert taken.chosen


def test_positions_that_close_alike_are_closed_once_and_the_replay_closes_the_last():
    # Competitive's open hand says which positions close alike once the deal is known (its
    # close_key: not which tile lies at an end, nor the ends once a player is out): those are
    # closed once, and where every position a hand's readings end at closes alike, the
    # validator's replay of the record is the chosen reading's close.  Each closed apart
    # instead, and every chosen reading closed before that replay, the verdicts, notes and
    # records are the same, with more closes.
    from domrec.games import competitive

    texts = [sheet(record, seats=False) for record in made_once.simulate("competitive", 4, 7, accidents=False)]
    closes = []
    close = straight._close

    def counted(*args):
        closes[-1] += 1
        return close(*args)

    def read():
        closes.append(0)
        with mock.patch.object(straight, "_close", counted):
            taken = Taken()
            return [taken.fast(text) for text in texts], taken

    alike, taken = read()
    assert taken.read == len(texts) and taken.chosen > closes[0]
    choices = straight.read_choices
    with mock.patch.object(competitive.OpenCompetitiveHand, "close_key", lambda self: object()), \
            mock.patch.object(straight, "read_choices", lambda *args: choices(*args[:9], False)):
        apart, _ = read()
    assert apart == alike == [general(text) for text in texts]
    assert closes[0] < closes[1] // 2, closes


def _snapshot(state) -> tuple:
    """Everything a hand state holds, as values (its match's too)."""
    from domrec.games import base

    match = getattr(state, "_match", None) or getattr(state, "match", None)
    return (base.state_key(state, frozenset({"_match", "match"})), base.state_key(match))


@pytest.mark.parametrize("open_hand", [False, True])
@pytest.mark.parametrize("game,players,seed", [("competitive", None, 8), ("horse-race", 4, 8),
                                               ("horse-race", 2, 9), ("horse-race", 3, 5)])
def test_a_state_copied_and_played_on_leaves_the_state_as_it_was(game, players, seed, open_hand):
    # The written-out copies (Competitive's and Horse Race's clone) copy what a hand changes in
    # place: a copy taken at any move and played to the hand's end leaves the original exactly
    # as it was, and ends as the original does when played on.
    from domrec import games
    from domrec.record import Hand

    record = next(made_once.simulate(game, 1, seed, players, accidents=False))
    hand = record.hands[0]
    for k in range(0, len(hand.moves), 2):
        match = games.engine(game).start(record)
        state = match.start_open_hand(Hand(leader=hand.leader)) if open_hand else match.start_hand(hand)
        for move in hand.moves[:k]:
            state.apply(move)
        before = _snapshot(state)
        twin = state.clone()
        assert _snapshot(twin) == before and set(vars(twin)) == set(vars(state))
        for move in hand.moves[k:]:
            twin.apply(move)
        assert _snapshot(state) == before
        for move in hand.moves[k:]:
            state.apply(move)
        assert _snapshot(state) == _snapshot(twin)


@pytest.mark.parametrize("open_hand", [False, True])
@pytest.mark.parametrize("players,seed", [(4, 8), (2, 9), (3, 5)])
def test_horse_race_written_key_tells_states_apart_as_state_key(players, seed, open_hand):
    # Horse Race's position_key names each attribute (cheaper than state_key's walk of them):
    # it names every one a state holds, and two states' keys are equal exactly when their
    # state_keys are, over the states of every move of simulated hands.
    from domrec import games
    from domrec.games import base
    from domrec.record import Hand

    states = []
    for record in made_once.simulate("horse-race", 4, seed, players, accidents=False):
        hand = record.hands[0]
        state = games.engine("horse-race").start(record)
        state = state.start_open_hand(Hand(leader=hand.leader)) if open_hand else state.start_hand(hand)
        named = {*state._KEY_VALUE_NAMES, *state._KEY_DICTS, *state._KEY_OTHERS, *state.position_skip}
        assert set(vars(state)) == named and len(vars(state)) == state._KEY_SIZE
        for move in hand.moves:
            state.apply(move)
            states += [state.clone(), state.clone()]  # (two equal states each time)
    written = [s.position_key() for s in states]
    general = [base.state_key(s, s.position_skip, (s.match,)) for s in states]
    by_written: dict = {}
    by_general: dict = {}
    for k, (w, g) in enumerate(zip(written, general)):
        by_written.setdefault(w, []).append(k)
        by_general.setdefault(g, []).append(k)
    assert sorted(by_written.values()) == sorted(by_general.values())
    assert len(by_written) <= len(states) // 2


# --- a sheet's claimed scores rule readings out as they are read ------------------------------

HORSE_RACE = [(g, n, o, v) for g, n, o, v in CONFIGS if g == "horse-race"]


class _Least:
    """Every state's ``least_scores`` after every move of a validation, beside the hand's scores."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, dict[str, int] | None]] = []
        self.scores: dict[int, dict[str, int]] = {}
        self.hand = -1

    def hand_started(self, index, hand, state) -> None:
        self.hand = index

    def moved(self, index, move, points, state) -> None:  # (``index``: the move's, in its hand)
        least = state.least_scores()
        self.seen.append((self.hand, None if least is None else dict(least)))

    def hand_finished(self, index, outcome, match) -> None:
        self.scores[index] = outcome.scores


@pytest.mark.parametrize("game,players,options,variant", HORSE_RACE,
                         ids=[i for i, c in zip(IDS, CONFIGS) if c in HORSE_RACE])
@settings(max_examples=6, **SETTINGS)
@given(seed=SEEDS)
def test_horse_race_least_scores_never_pass_the_hands_scores(game, players, options, variant, seed):
    # The bound the readings drop by: what a side has pegged so far never passes what the hand
    # gives it in the end, at every move of every hand (celko excepted: its end takes pips off,
    # and the engine says it cannot tell).  A bound that passed them would drop the true reading.
    record = next(made_once.simulate(game, 1, seed, players, options, variant))
    seen = _Least()
    validate(record, observer=seen)
    assert seen.seen
    for index, least in seen.seen:
        if variant == "celko":
            assert least is None
            continue
        final = seen.scores.get(index)
        if final is not None:  # (a hand the record leaves unfinished has no scores to compare)
            assert all(n <= final[side] for side, n in least.items()), (index, least, final)


@pytest.mark.parametrize("game,players,options,variant", HORSE_RACE,
                         ids=[i for i, c in zip(IDS, CONFIGS) if c in HORSE_RACE])
def test_dropping_readings_past_the_claimed_scores_changes_no_verdict(game, players, options, variant):
    # Score sheets with each hand's scores, right and with a claim changed (no reading then gives
    # it: every reading is read again, as if none had been dropped), read by the straight path
    # and by the general reading alone, each with readings dropped and without: the same verdict,
    # problems, note and record all four ways.
    rng = random.Random(f"{players} {options} {variant}")
    passed = _Passed()
    # (the first game of seed 5 drops readings in every configuration but celko's: the default run
    # reads it; pytest --long a second game too)
    for record in made_once.simulate(game, examples(1, 2), 5, players, options, variant, accidents=False):
        record = attrs.evolve(record, hands=record.hands[:4])
        text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False, scores=True)
        ends = list(re.finditer(r"\nend [a-z-]* ?[A-Z]+[0-9]* ([0-9]+)", text))
        m = rng.choice(ends)
        wrong = text[:m.start(1)] + str(int(m.group(1)) + 1) + text[m.end(1):]
        for one in (text, wrong):
            with mock.patch.object(readings, "past_claim", passed), mock.patch.object(straight, "past_claim", passed):
                dropped = [Taken().fast(one), general(one)]
            with mock.patch.object(horserace.HorseRaceHand, "least_scores", lambda self: None):
                kept = [Taken().fast(one), general(one)]
            assert dropped == [kept[0]] * 2 == kept
        assert kept[0][0][0] == "invalid"  # (the changed claim)
    assert variant == "celko" or passed.count, "no reading was dropped: the test reads nothing"


_PAST_CLAIM = readings.past_claim


class _Passed:
    """:func:`readings.past_claim`, counting the readings it drops."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, claim, least) -> bool:
        out = _PAST_CLAIM(claim, least)
        self.count += out
        return out


def test_a_sheets_claimed_scores_keep_the_readings_within_the_limit():
    # A Horse Race sheet whose hand 8 has more than 300 positions when every reading is read, but
    # not when those past its end line's claimed scores are dropped as soon as they pass them:
    # with the limit at 300 it is read (and as it was scored), where it was asked about.
    record = list(made_once.simulate("horse-race", 12, 1, accidents=False))[11]
    text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False, scores=True)
    with mock.patch.object(readings, "LIMIT", 300):
        with mock.patch.object(horserace.HorseRaceHand, "least_scores", lambda self: None):
            asked = everything(text)[0]
        read = everything(text)[0]
    assert asked[0] == "invalid" and "more than 300 positions of hand 8" in asked[8][0][7]
    assert read[0] == "valid", read[8]
    assert read[2] == dict(record.result.scores) if record.result and record.result.scores else True

"""A typed game read straight through (domrec/notation/straight.py) reads as the general reading does.

The straight path is only a shorter way to the same verdict: for simulated games of every
game and option set, typed as a scorer types them (no seats, no deal), and with a claimed
score, a tile or a word changed, the verdict, its problems (with line and column), the note
and the record read are the same with the straight path as without it (where it gives up,
the general reading reads the game, so the two are one).  A sheet with every ``@`` left out
is compared on a few games (its readings are tried, which takes a while).
"""

from __future__ import annotations

import random
import re
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domrec import games, notation
from domrec.notation import loading, straight
from domrec.record import unstructure

from tests.conftest import CONFIGS, IDS, examples
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SEEDS = st.integers(min_value=0, max_value=10**9)
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
_TILE = re.compile(r"\b[0-6]-[0-6]\b")


def simulated(config, seed):
    game, players, options, variant = config
    return next(made_once.simulate(game, 1, seed, players, options, variant))


def everything(text: str) -> list:
    """What a user sees of each game of ``text``: verdict, problems where they are, note, record."""
    out = []
    for game in notation.read_games(text, "typed.dgn"):
        r = game.report
        out.append((r.status, r.finished, r.scores, r.winner, r.hands, r.moves, r.note, game.complete,
                    [(p.line, p.column, p.hand, p.move, p.seat, p.kind, p.rule, p.message, p.pointer)
                     for p in r.problems],
                    None if game.record is None else unstructure(game.record)))
    return out


def general(text: str) -> list:
    """:func:`everything` with the straight path turned off: the general reading alone."""
    with mock.patch.object(loading, "read_straight", lambda r, source: None):
        return everything(text)


class Taken:
    """Counts the games the straight path read (and those it left to the general reading)."""

    def __init__(self) -> None:
        self.read = self.left = 0
        self._read = straight.read

    def __call__(self, r, source):
        out = self._read(r, source)
        if not isinstance(out, tuple):  # (None, or the hands read before one it could not read)
            self.left += 1
        else:
            self.read += 1
        return out


def corrupted(text: str, record, rng: random.Random) -> list[str]:
    """The text with a claimed hand score that is wrong, a tile changed, and two words swapped."""
    sides = games.engine(record.game).start(record).sides
    out = [text.replace("\nend\n", f"\nend {sides[0]} 999\n", 1)]
    tiles = list(_TILE.finditer(text))
    if tiles:
        m = rng.choice(tiles)
        a, b = rng.randint(0, 6), rng.randint(0, 6)
        out.append(text[:m.start()] + f"{max(a, b)}-{min(a, b)}" + text[m.end():])
    lines = text.split("\n")
    moves = [i for i, line in enumerate(lines) if line and line[0].isdigit() or line.startswith(("r", "+", "x", "-"))]
    if moves:
        i = rng.choice(moves)
        words = lines[i].split()
        if len(words) > 1:
            k = rng.randrange(len(words) - 1)
            words[k], words[k + 1] = words[k + 1], words[k]
            lines[i] = " ".join(words)
            out.append("\n".join(lines))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 2), **SETTINGS)  # (a second seed: pytest --long)
@given(seed=SEEDS)
def test_a_typed_game_reads_the_same_straight_through_as_by_the_general_reading(config, seed):
    record = simulated(config, seed)
    rng = random.Random(seed)
    typed = notation.dumps_typed(record, keep_deal=False, seats=False)
    # (a Horse Race text under chain_draw: false, typed without seats, leaves the ends of chains
    # open: the general reading reads it either way, so its corruptions would only compare it
    # with itself, slowly)
    open_chains = (config[2] or {}).get("chain_draw") is False
    texts = [typed] if open_chains else [typed, *corrupted(typed, record, rng)]
    taken = Taken()
    for text in texts:
        with mock.patch.object(loading, "read_straight", taken):
            fast = everything(text)
        assert fast == general(text)
    # (the typed form is read straight through where it leaves no choice: every game but Horse
    # Race under chain_draw: false, whose chains may end unwritten; see the test below)
    assert taken.read >= (0 if open_chains else 1)


def placed(text: str, straight_on: bool) -> list:
    """Where each move of each game of ``text`` (and its seat) is placed, as line:column, with
    the straight path on or off: a problem found later (explain, a claim) is placed so."""
    kept = []
    real = loading._with_position

    def keep(report, positions):
        kept.append(positions)
        return real(report, positions)

    read: list = []  # (each game, with the positions of the last placing made while reading it)
    with mock.patch.object(loading, "_with_position", keep), \
            mock.patch.object(loading, "read_straight", straight.read if straight_on else lambda r, source: None):
        for game in notation.read_games(text, "typed.dgn"):
            read.append((game, kept[-1] if kept else None))
    out = []
    for game, positions in read:
        if game.record is None or positions is None:
            continue
        for i, hand in enumerate(game.record.hands):
            out.extend((i, k, positions.locate(f"/hands/{i}/moves/{k}"), positions.locate(f"/hands/{i}/moves/{k}/seat"))
                       for k in range(len(hand.moves)))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 2), **SETTINGS)  # (a second seed: pytest --long)
@given(seed=SEEDS)
def test_a_game_typed_with_its_deals_reads_the_same_straight_through_as_by_the_general_reading(config, seed):
    """The form a table that enters its deals types (the venue's phones, ``domrec record``): the
    deal's lines, the moves without the seats the turn gives, the forced passes left out.  The
    straight path puts the passes back as the general reading does, in the same places."""
    record = simulated(config, seed)
    rng = random.Random(seed)
    typed = notation.dumps_typed(record, keep_deal=True, seats=False)
    texts = [typed, *corrupted(typed, record, rng)]
    taken = Taken()
    for text in texts:
        with mock.patch.object(loading, "read_straight", taken):
            fast = everything(text)
        assert fast == general(text)
        assert placed(text, True) == placed(text, False)
    free_lead = any(hand.leader is None for hand in record.hands)  # (a lead the first move's seat makes)
    assert taken.read >= (0 if free_lead else 1)


def _moves(record) -> list:
    """Each hand's moves as JSON data, without the points each move claims (a typed text has none)."""
    return [[{k: v for k, v in m.items() if k != "score"} for m in h["moves"]] for h in unstructure(record)["hands"]]


@pytest.mark.parametrize("keep_deal", [False, True], ids=["without-seats-or-deal", "with-its-deals"])
@pytest.mark.parametrize("game", ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"])
def test_every_game_typed_is_read_straight_through_with_the_moves_it_was_typed_from(game, keep_deal):
    """Typed without seats, with the deals (their forced passes left out, and put back by the
    reading) or without them (every pass written, and ``left``)."""
    records = list(made_once.simulate(game, 3, 11))
    taken = Taken()
    with mock.patch.object(loading, "read_straight", taken):
        for record in records:
            text = notation.dumps_typed(record, keep_deal=keep_deal, seats=False)
            (found,) = notation.read_games(text, "typed.dgn")
            assert found.report.status == "valid" and found.complete
            assert _moves(found.record) == _moves(record)
    assert (taken.read, taken.left) == (3, 0)


@pytest.mark.parametrize("config", [("competitive", None, None, None), ("broadway", None, None, None),
                                    ("horse-race", 4, {"partnerships": True}, None)],
                         ids=["competitive", "broadway", "horse-race"])
def test_a_hand_with_its_deal_closed_just_before_a_forced_pass_reads_as_by_the_general_reading(config):
    """``end`` typed where the player to move can only pass: the reading puts that pass back at
    the hand's end (placed at its last move), and the verdict (the hand is not over: an ``end``
    with no scores cannot close it) is the same with the straight path as without it."""
    import attrs

    from domrec.record import Pass
    from tests.test_game import new_game

    for seed in range(6):
        record = simulated(config, seed)
        g = new_game(record)
        cut = None
        for i, hand in enumerate(record.hands):
            g.start_hand(hand.deal, hand.leader, hand.comment)
            for k, move in enumerate(hand.moves):
                if type(move) is Pass and k and type(hand.moves[k - 1]) is not Pass and g.forced_pass():
                    cut = k
                    break
                g.push(move)
            if cut is not None:
                break
            g.end_hand(claim=hand.result)
        if cut is None:
            continue
        stopped = attrs.evolve(record.hands[i], moves=record.hands[i].moves[:cut], result=None)
        short = attrs.evolve(record, hands=(*record.hands[:i], stopped), result=None)
        text = notation.dumps_typed(short, keep_deal=True, seats=False).rstrip("\n") + "\nend\n"
        fast = everything(text)
        assert fast == general(text)
        assert placed(text, True) == placed(text, False)
        assert len(fast[0][9]["hands"][i]["moves"]) == cut + 1  # (the pass put back)
        return
    pytest.fail("no hand with a forced pass after a move in the simulated games")


def test_a_claimed_score_that_is_wrong_is_judged_straight_through_and_placed_on_its_end_line():
    record = next(made_once.simulate("competitive", 1, 5))
    text = notation.dumps_typed(record, keep_deal=False, seats=False).replace("\nend\n", "\nend NS 999\n", 1)
    taken = Taken()
    with mock.patch.object(loading, "read_straight", taken):
        (found,) = notation.read_games(text, "typed.dgn")
    assert taken.read == 1
    line = text.split("\n").index("end NS 999") + 1
    # (EW, left out of the end line, is claimed 0, and this hand EW went out: said too, on that
    # line, at its first column: before NS's 999, in the order of the text)
    assert [(p.kind, p.line, p.hand) for p in found.report.problems] == [("score", line, 1)] * 2
    assert "EW is claimed 0 for hand 1 (it is left out" in found.report.problems[0].message
    assert "NS is claimed 999 for hand 1" in found.report.problems[1].message


def test_a_move_the_rules_refuse_is_left_to_the_general_reading():
    record = next(made_once.simulate("competitive", 1, 5))
    text = notation.dumps_typed(record, keep_deal=False, seats=False)
    first = text.split("\n").index("hand 1 lead " + record.hands[0].moves[0].seat) + 1
    lines = text.split("\n")
    while not lines[first][:1].isdigit():
        first += 1
    words = lines[first].split()
    words[1] = words[0]  # the lead played twice
    lines[first] = " ".join(words)
    text = "\n".join(lines)
    taken = Taken()
    with mock.patch.object(loading, "read_straight", taken):
        (found,) = notation.read_games(text, "typed.dgn")
    assert (taken.read, taken.left) == (0, 1)
    assert found.report.status == "invalid"
    assert found.report.problems[0].line == first + 1


@pytest.mark.parametrize("game", ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"])
def test_a_sheet_without_ends_reads_the_same_as_by_the_general_reading(game):
    """Where a tile fits both ends and the text does not say which, the straight path reads the
    hand's positions (domrec/notation/position_set.py) or leaves the game to the general
    reading, which tries the readings (or asks): the same verdict either way."""
    record = next(made_once.simulate(game, 1, 3))
    hands = record.hands[:2]
    import attrs

    text = notation.dumps_typed(attrs.evolve(record, hands=hands), keep_deal=False, seats=False, ends=False)
    taken = Taken()
    with mock.patch.object(loading, "read_straight", taken):
        fast = everything(text)
    assert fast == general(text)

"""Corrections of random lines of simulated games of all five games, finished and in play: each is
either made (and the corrected game is a valid record, as the validator reads it) or refused in one
line with :class:`CorrectionRefused`; nothing else ever comes out (a server would answer 500)."""

from __future__ import annotations

import random

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from domrec import notation, phrases
from domrec.record import Draw, Player
from domrec.session import PARTS, RequestRefused, Session, requests_for
from domrec.simulate import make_record, simulate
from domrec.validate import validate

from tournament.event.corrections import CorrectionRefused, correct, game_lines, replayed

from tests.conftest import examples
from tests.tournament.helpers import hand_by_hand

GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]


@pytest.mark.parametrize("game", GAMES)
def test_random_corrections_are_made_or_refused_in_one_line(game):
    rng = random.Random(f"corrections:{game}")
    made = refused = 0
    # Two games (the second typed with its deal, the first without) in the default run; a third
    # (without, another deal) under pytest --long.
    for k, record in enumerate(simulate(game, examples(2, 3), 21)):
        template = attrs.evolve(record, hands=(), result=None)
        texts = requests_for(record, keep_deal=bool(k % 2))
        for cut in (len(texts), len(texts) // 2):
            session = Session(template, texts[:cut])
            hands = game_lines(session)
            # The lines record the same game again.
            again = Session(template, ["\n".join(h) for h in hands])
            assert again.game.totals == session.game.totals and again.over == session.over
            everything = [x for h in hands for x in h]
            for _ in range(6):
                h = rng.randrange(len(hands)) + 1
                line = rng.choice([None, *range(1, len(hands[h - 1]) + 1)])
                text = rng.choice(["", rng.choice(everything), "E 6-4", "left N 0-0", "end NS 3 EW 0", "hand 1\nzz"])
                try:
                    fixed = correct(session, h, line, text)
                except CorrectionRefused as e:
                    assert e.message and "\n" not in e.message
                    refused += 1
                    continue
                made += 1
                if fixed.session.over:
                    assert validate(fixed.session.record()).status == "valid"
    assert refused


#: Four seats with names, as a table's game has them (the simulated games' seats).
SEATS = tuple(Player(seat=s, name=n) for s, n in zip("NESW", ("Ana", "Bo", "Cy", "Di")))

#: A Competitive hand typed with its deal, requests as a phone sends them, up to the last move: the
#: hand ends blocked (every seat still holds a tile), and its end is not yet recorded.
BLOCKED_DEAL_TYPED = [
    "hand 1 lead W", "leaddraw N 4-4; E 6-4; S 4-1; W 6-5", "deal N 6-5 4-3 4-1 4-4 5-4 2-0 2-2",
    "deal E 5-0 6-3 5-2 3-0 6-1 5-5 3-3", "deal S 6-0 6-2 5-1 4-2 3-1 6-6 2-1", "deal W 0-0 3-2 1-0 1-1 4-0 5-3 6-4",
    "5-3", "5-1@5-3", "3-3@5-3", "4-1@5-1", "4-0@4-1", "3-1@3-3", "6-1@3-1", "6-5@6-1", "1-0@4-0", "2-1@1-0",
    "5-2@2-1", "5-4@5-2", "6-4@5-4", "6-2@6-4", "5-0@6-5", "2-0@6-2", "0-0@2-0", "6-0@5-0", "3-0@0-0", "4-3@3-0",
    "4-2@4-3", "6-3@6-0", "2-2@4-2", "3-2@6-3"]


def _moves(session: Session) -> list[list]:
    """Each hand's moves, a draw of the boneyard's next tile (``+``) with that tile named: the
    lines of a hand without the boneyard's order name it."""
    out = []
    for hand in session.record().hands:
        moves, drawn = [], 0
        for m in hand.moves:
            if isinstance(m, Draw):
                m = attrs.evolve(m, draw=hand.deal.boneyard[drawn] if m.draw is True else m.draw)
                drawn += 1
            moves.append(m)
        out.append(moves)
    return out


def _same_game(one: Session, other: Session) -> None:
    """Two sessions hold the same game: the same hands' moves, totals, and the hand in play as open."""
    assert _moves(one) == _moves(other)
    assert one.game.totals == other.game.totals
    assert (one.game.in_hand, one.game.hand_over, one.over) == (other.game.in_hand, other.game.hand_over, other.over)
    assert one.left_typed == other.left_typed  # (a ``left`` line waiting for the hand's end)


def _lines_record_the_game_again(session: Session) -> list[list[str]]:
    """The lines view of ``session``, checked: its lines record the same game again, and a
    correction that changes nothing of the game (a move's line typed again with another space)
    is replayed whole and refused as changing nothing (never logged as a correction)."""
    hands = game_lines(session)
    _same_game(replayed(session.template, ["\n".join(h) for h in hands]), session)
    n = max(k for k, x in enumerate(hands[-1], 1) if " " in x)  # the last hand's last line of two words or more
    with pytest.raises(CorrectionRefused, match="the correction changes nothing: hand"):  # (after its replay)
        correct(session, len(hands), n, hands[-1][n - 1].replace(" ", "  ", 1))
    return hands


def test_a_blocked_hand_not_yet_closed_whose_deal_was_typed_is_listed_in_order():
    """The hand ended blocked and its end is not recorded yet: its lines are the hand line, its
    deal, then its moves, with no ``end`` before them (there was one, so every correction of the
    game was refused: the replay of the listed lines closed the hand before its first move)."""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    session = Session(template, BLOCKED_DEAL_TYPED)
    assert session.game.in_hand and session.game.hand_over
    assert all(session.game.state.holdings().values())  # blocked: nobody went out
    hands = _lines_record_the_game_again(session)
    assert [x.split()[0] for x in hands[0][:6]] == ["hand", "leaddraw", "deal", "deal", "deal", "deal"]
    assert not any(x.split()[0] in ("left", "end") for x in hands[0])
    moves = hands[0][6:]  # one line a move, every pass written
    assert len(moves) == len(session.record().hands[0].moves)
    assert [x.split()[1] for x in moves if x.split()[1] != "-"] == BLOCKED_DEAL_TYPED[6:]


#: A Horse Race hand typed without its deal (its public boneyard only), up to the move that wins it:
#: W goes out (a domino), and the tiles the others hold (``left``) are not typed yet.
WON_BEFORE_LEFT = [
    "hand 1 lead S", "boneyard 1-0 3-1 3-2 6-3 5-4 3-3 5-0 6-1", "6-0", "2-0@6-0", "6-4@6-0", "4-4@6-4",
    "5-2@2-0", "4-2@4-4", "4-3@4-4", "5-5@5-2", "5-1@5-5", "2-1@4-2", "4-1@5-1", "3-0@4-3", "6-5@5-5", "4-0@4-4",
    "5-3@5-5"]


def test_a_horse_race_hand_just_won_before_its_left_lines_is_listed_as_it_stands():
    """The hand is won and its ``left`` lines are not typed yet, so its deal is not known: it is
    listed as it stands (its public parts, its moves, no closing), and corrections are made.  The
    writer used to close it as a finished record's hand, with the tiles left by a replay that knew
    no holdings (every seat holding nothing), and its own check refused that: the lines view and
    every correction of the game were refused."""
    template = attrs.evolve(make_record("horse-race", 4), players=SEATS)
    session = Session(template, WON_BEFORE_LEFT)
    assert session.game.in_hand and session.game.hand_over and not session.game.deal_known
    hands = _lines_record_the_game_again(session)
    assert hands[0][:2] == WON_BEFORE_LEFT[:2]
    assert [x.split()[1] for x in hands[0][2:]] == WON_BEFORE_LEFT[2:]
    # The table then types what was left, and the hand is closed as it would have been.
    session.take("left N 6-6 0-0; E 2-2; S 6-2 1-1")
    assert not session.game.in_hand
    _lines_record_the_game_again(session)


@pytest.mark.parametrize("game", GAMES)
def test_every_hand_over_and_not_yet_closed_is_listed_as_it_stands(game):
    """Wherever a simulated game's hand is over and its closing (``left``, ``end``, ``y``) not yet
    recorded, with and without its deal typed, the lines view lists it so that its lines record
    the game again, and a correction that changes nothing of the game is made.  (Where the two
    tests above came from: these points are a few requests of a whole game, which the random
    cuts above seldom hit.)"""
    seen = 0
    for k, record in enumerate(simulate(game, 2, 21)):
        template = attrs.evolve(record, hands=(), result=None)
        session = Session(template)
        for text in requests_for(record, keep_deal=bool(k % 2)):
            session.take(text)
            if session.game.in_hand and session.game.hand_over:
                _lines_record_the_game_again(session)
                seen += 1
    assert seen


def test_a_game_ended_on_time_stays_ended_through_a_correction():
    """The clock stopped the game after its hand (``time``): the lines view lists that call after
    the hand's lines, so a correction keeps the game over (it lost it: a correction of such a game
    reopened it, and one of a confirmed game was refused as leaving it in play); removing the
    line takes the call back."""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    session = Session(template, [*BLOCKED_DEAL_TYPED, "end", "time"])
    assert session.over and session.game.ended == "time"
    hands = _lines_record_the_game_again(session)
    assert hands[-1][-2:] == ["end", "time"]
    fixed = correct(session, 1, len(hands[-1]), "")
    assert not fixed.session.over and fixed.session.game.totals == session.game.totals


def test_a_last_hand_kept_as_it_is_stays_closed_through_a_correction():
    """The table closed its hand before it was over (``end`` typed mid-hand: kept as it is): the
    lines view lists that hand with the tiles each seat still held and its ``end``, so a
    correction leaves it closed, with its deal (without them the hand came back in play, and,
    its deal typed or not, nothing of it said what was held).  The same with the deal not typed
    (the hand given by its ``left``); and the typed text of the game keeps the hand's deal."""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    typed = Session(template, [*BLOCKED_DEAL_TYPED[:14], "end"])
    assert not typed.game.in_hand and not typed.record().hands[0].result
    hands = _lines_record_the_game_again(typed)
    assert hands[0][-1] == "end" and hands[0][-2].startswith("left ")
    held = {s: sorted(ts) for s, ts in typed.record().hands[0].deal.hands.items()}
    untyped = Session(template, ["\n".join(hands[0])])
    assert not untyped.game.in_hand
    assert {s: sorted(ts) for s, ts in untyped.record().hands[0].deal.hands.items()} == held
    _lines_record_the_game_again(untyped)
    back = notation.loads(notation.dumps_typed(untyped.record(), keep_deal=False))
    assert {s: sorted(ts) for s, ts in back.hands[0].deal.hands.items()} == held


def test_a_left_line_waiting_for_the_hands_end_is_listed_and_kept_through_a_correction():
    """A ``left`` line typed for a hand that is not over waits for the hand's end (its ``end``
    line, or the next hand's first move).  It is no part of the record yet, so the lines view,
    written from the record, had left it out: a correction then lost it.  Listed now, as typed,
    with the deal typed and without."""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    typed = Session(template, BLOCKED_DEAL_TYPED[:14])
    held = typed.game.state.holdings()
    left = "left " + "; ".join(f"{s} {' '.join(str(t) for t in ts)}" for s, ts in held.items())
    typed.take(left)
    assert typed.game.in_hand and not typed.game.hand_over and typed.left_typed is not None
    hands = _lines_record_the_game_again(typed)
    assert hands[0][-1] == left
    untyped = Session(template, ["\n".join(x for x in hands[0] if x.split()[0] != "deal")])
    assert untyped.game.in_hand and not untyped.game.deal_known and untyped.left_typed == typed.left_typed
    assert _lines_record_the_game_again(untyped)[0][-1] == left
    untyped.take("end")  # and the hand closes with it, kept as it is, its deal worked out from it
    assert not untyped.game.in_hand
    assert {s: sorted(ts) for s, ts in untyped.record().hands[0].deal.hands.items()} == \
        {s: sorted(ts) for s, ts in typed.record().hands[0].deal.hands.items()}


@pytest.mark.parametrize("game", GAMES)
def test_a_last_hand_closed_before_its_first_move_keeps_its_deal_through_a_correction(game):
    """Hand 2's deal typed (which starts it), then ``end`` before its first move: the hand is
    closed as it is, the game's last.  Its lines had been its hand line alone, which a correction
    replayed as hand 2 announced and waiting for its deal: the deal was lost.  Listed now with
    its deal lines and its ``end``, every game."""
    record = next(r for seed in range(40) for r in simulate(game, 1, seed) if len(r.hands) >= 2)
    template = attrs.evolve(record, hands=(), result=None)
    blocks = notation.dumps_typed(record, keep_deal=True).split("\n\n")
    deal = [x for x in blocks[2].splitlines() if x and (x.startswith("{") or x.split()[0] in PARTS)
            and x.split()[0] not in ("left", "end")]
    session = Session(template, ["\n".join(x for x in blocks[1].splitlines() if x)])
    if session.game.in_hand:
        session.take("y")
    session.take("\n".join(deal))
    assert session.game.in_hand and not session.game.moves
    session.take("end")
    assert not session.game.in_hand and len(session.record().hands) == 2
    hands = game_lines(session)
    assert hands[-1] == [deal[0], *deal[1:], "end"]
    again = replayed(template, ["\n".join(h) for h in hands])
    _same_game(again, session)
    assert again.record().hands[1].deal == session.record().hands[1].deal
    with pytest.raises(CorrectionRefused, match="changes nothing"):  # (hand 1 typed again: replayed whole, the same)
        correct(session, 1, 2, hands[0][1].replace(" ", "  ", 1))


def test_undo_takes_back_a_left_line_waiting_for_the_hands_end_first():
    """A ``left`` line waiting for the hand's end is the last thing typed: ``undo`` takes it back
    (a move taken back under it left it saying what was no longer held, and the lines view,
    which lists it, could not be replayed: found by random table sessions); the next undo takes
    back the last move."""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    session = Session(template, BLOCKED_DEAL_TYPED[:14])
    moves = len(session.game.moves)
    held = session.game.state.holdings()
    session.take("left " + "; ".join(f"{s} {' '.join(str(t) for t in ts)}" for s, ts in held.items()))
    assert session.left_typed is not None
    said = session.take("undo")
    assert session.left_typed is None and len(session.game.moves) == moves
    assert said == ["took back the left line of hand 1"]
    assert phrases.translate(said[0], "es") == "deshecha la línea left de la mano 1"
    assert not any(x.startswith("left") for x in _lines_record_the_game_again(session)[0])
    session.take("undo")
    assert len(session.game.moves) == moves - 1
    _lines_record_the_game_again(session)


#: A Horse Race hand with its deal and boneyard order typed, where the table names some draws'
#: tiles (``+5-4``) and not others (``+``: the boneyard's next tile).
DRAWS_NAMED_AND_NOT = [
    "hand 1 lead P4", "deal P1 5-5 4-1 6-1 2-1 1-1", "deal P2 3-1 1-0 6-6 4-2 6-4", "deal P3 6-2 5-1 6-5 5-3 6-0",
    "deal P4 3-3 4-3 3-0 4-4 5-0", "boneyard 5-4 2-0 2-2 0-0 5-2 4-0 6-3 3-2", "5-0", "3-0@5-0", "5-5@5-0", "+5-4",
    "5-4@5-5", "4-2@5-4", "3-1@3-0", "P3 6-2@4-2", "P4 +2-0", "+"]


def test_draws_named_and_not_in_one_hand_are_written_with_their_tiles():
    """Without the deal each draw is written with its tile; a draw that did not name it takes the
    boneyard's next tile, counting the draws before it that named theirs (only the unnamed ones
    were counted: the third draw here was written as the first's 5-4, and the writer refused the
    game, so the lines view and every correction of it were refused)."""
    session = Session(make_record("horse-race", 4), DRAWS_NAMED_AND_NOT)
    draws = [x for x in _lines_record_the_game_again(session)[0] if x.split()[1].startswith("+")]
    assert draws == ["P1 +5-4", "P4 +2-0", "P4 +"]  # as recorded: the lines keep the boneyard's order
    typed = notation.dumps_typed(session.record(), keep_deal=False, in_play=True)
    assert [w for w in typed.split() if w.startswith("+")] == ["+5-4", "+2-0", "+2-2"]


def test_a_last_hand_closed_before_its_first_move_is_listed_and_corrected():
    """A hand closed right after its deal was typed (``end`` before any move): its lines are its
    hand line, its public parts, its deal lines as typed and its ``end`` (a ``left`` would be
    refused: it ends a hand being played), and they record the hand again, closed,
    with its deal.  (Its hand line and public parts alone had come back as a hand announced and
    waiting for its deal: the deal was lost.)"""
    template = attrs.evolve(make_record("competitive"), players=SEATS)
    session = Session(template, [*BLOCKED_DEAL_TYPED[:6], "end"])
    assert not session.game.in_hand and not session.record().hands[0].moves
    hands = game_lines(session)
    assert hands == [[*BLOCKED_DEAL_TYPED[:6], "end"]]
    again = replayed(template, ["\n".join(h) for h in hands])
    assert not again.game.in_hand and again.game.totals == session.game.totals
    assert again.record().hands[0].deal == session.record().hands[0].deal
    with pytest.raises(CorrectionRefused, match="changes nothing"):  # (its lines typed again: replayed, the same)
        correct(session, 1, 1, "hand 1  lead W")


def test_a_closed_hand_with_draws_named_and_not_is_listed_with_their_tiles():
    """A closed hand whose draws name their tile and not (``+``) is listed without the boneyard's
    order (as the writer leaves it out once a draw names its tile): its ``+`` draws are listed
    with the tile they took (they were listed as ``+``, which nothing in the lines could give a
    tile to: the lines view's replay, so every correction of the game, was refused)."""
    session = Session(make_record("horse-race", 4), [*DRAWS_NAMED_AND_NOT, "end"])
    assert not session.game.in_hand
    hands = _lines_record_the_game_again(session)
    assert not any(x.startswith("boneyard") for x in hands[0])
    assert [x for x in hands[0] if x.split()[-1].startswith("+")] == ["P1 +5-4", "P4 +2-0", "P4 +2-2"]


#: Lines a person may type at a table at any moment (some refused, some not), as the random
#: sessions below send them between the game's own requests.
TYPED = ["undo", "y", "n", "-", "+", "time", "hand 1", "hand 2", "left", "left N 6-6", "left P1 0-0",
         "end NS 10 EW 0", "end P1 10", "6-6", "x", "r3+4", "hand 1 lead N", "hand 1 lead P2", "zz 9-9",
         "6-4@4-2", "deal N 6-6", "boneyard 0-0", "row 1-0"]


def _same_reading(session: Session, again: Session) -> bool:
    """The lines view's game and the table's hold the same game: each hand's moves (a draw
    compared by its seat: the tile of a ``+`` is the boneyard's, which a hand typed without its
    deal names only once its ``left`` is typed), the totals, the hand in play as open or not (a
    last hand with no move yet aside: its hand line alone is an announcement), over, ended."""
    def hands(s: Session) -> list[tuple]:
        return [tuple((type(m).__name__, m.seat) if isinstance(m, Draw) else m for m in h.moves)
                for h in s.record().hands]
    mine, theirs = hands(session), hands(again)
    last = session.record().hands[-1:] + again.record().hands[-1:]
    empty = any(not h.moves and not h.score_sheet for h in last)
    while empty and mine and not mine[-1]:
        mine.pop()
    while empty and theirs and not theirs[-1]:
        theirs.pop()
    return (mine == theirs and session.game.totals == again.game.totals and session.over == again.over
            and session.game.ended == again.game.ended and (empty or session.game.in_hand == again.game.in_hand)
            and session.left_typed == again.left_typed)


@settings(max_examples=examples(20, 40), deadline=None)
@given(seed=st.integers(0, 10 ** 9))
def test_at_every_moment_of_a_random_table_the_lines_view_records_the_same_game(seed):
    """A table driven at random, as in a hall (the game's requests one at a time, in chunks and a
    hand at a time, lines typed by mistake, undo, closing, the legal moves tapped, hands started,
    corrections made from the lines view): at every moment its lines view (what the director
    corrects from) is listed, and its lines record the same game again.
    Each way it failed was a game whose every correction was refused, or one a correction changed
    (a hand over and not closed, a game ended on time, a last hand stopped, draws named and not,
    an undo after the last hand, a hand's score alone after a stopped one)."""
    rng = random.Random(seed)
    game = rng.choice(GAMES)
    record = next(simulate(game, 1, rng.randrange(50)))
    template = attrs.evolve(record, hands=(), result=None)
    texts = requests_for(record, keep_deal=rng.random() < 0.5)
    whole = hand_by_hand(texts)
    session = Session(template)
    at = at_hand = 0
    for _ in range(rng.randrange(5, 60)):
        action = rng.choice(["next"] * 6 + ["chunk", "hand", "typed", "undo", "legal", "y", "start", "correct"])
        text = None
        if action == "next" and at < len(texts):
            text = texts[at]
        elif action == "chunk" and at < len(texts):
            text = "\n".join(texts[at:at + rng.randrange(2, 12)])
        elif action == "hand" and at_hand < len(whole):
            text = whole[at_hand]
        elif action == "typed":
            text = rng.choice(TYPED)
        elif action in ("undo", "y"):
            text = action
        elif action == "legal":
            legal = session.legal()
            text = rng.choice(legal)["text"] if legal else None
        elif action == "start":
            lead = rng.choice([None, *session.game.seats])
            text = f"hand {session.game.hand_number + int(session.game.in_hand)}" + (f" lead {lead}" if lead else "")
        if text is not None:
            try:
                session.take(text)
            except RequestRefused as e:
                assert "\n" not in str(e)
            else:
                at += len(text.split("\n")) if action in ("next", "chunk") else 0
                at_hand += action == "hand"
        lines = game_lines(session)  # never refused: every game a table can record is written
        if not lines:
            continue
        again = replayed(template, ["\n".join(h) for h in lines])
        assert _same_reading(session, again), (seed, lines[-1])
        if action == "correct":
            h = rng.randrange(len(lines)) + 1
            line = rng.choice([None, *range(1, len(lines[h - 1]) + 1)])
            try:
                session = correct(session, h, line, rng.choice(["", *lines[h - 1], *TYPED])).session
            except CorrectionRefused as e:
                assert e.message and "\n" not in e.message


@pytest.mark.parametrize("game", GAMES)
def test_an_end_line_given_the_scores_the_hand_gives_is_no_correction(game):
    """The director writes hand 1's ``end`` line again with the scores the hand already gives:
    the lines view lists hands without their claims, so the hand would look as it was while the
    trail said "corrected": refused as changing nothing.  A claim the hand does not give is
    refused as the table's end line is, naming it."""
    record = next(simulate(game, 1, 3))
    session = Session(attrs.evolve(record, hands=(), result=None))
    for text in requests_for(record, keep_deal=True):
        session.take(text)
    hands = game_lines(session)
    n, line = next((k, x) for k, x in enumerate(hands[0], 1) if x.split()[0] == "end")
    claimed = next(x for x in notation.dumps(record).splitlines() if x.startswith("end ") and len(x.split()) > 2)
    assert claimed != line
    with pytest.raises(CorrectionRefused, match="the correction changes nothing: hand 1 records the same"):
        correct(session, 1, n, claimed)
    side, points = claimed.split()[-2:]
    with pytest.raises(CorrectionRefused, match=f"hand 1, line {n}"):
        correct(session, 1, n, f"{claimed.rsplit(' ', 1)[0]} {int(points) + 1}")


def test_a_score_sheet_hands_comment_stays_on_its_hand():
    """Scores only: hand 1's comment was carried onto every later hand (the recorder kept it after
    the hand's score was recorded), and each correction replayed it onto them again."""
    session = Session(make_record("competitive"), ["hand 1 {only hand one}\nend NS 51 EW 0", "hand 2\nend NS 0 EW 30"])
    assert [h.comment for h in session.record().hands] == ["only hand one", None]
    fixed = correct(session, 2, 2, "end NS 0 EW 31")
    assert [h.comment for h in fixed.session.record().hands] == ["only hand one", None]


@pytest.mark.parametrize("requests", [
    ["hand 1 {first}", "{second}", "end NS 51 EW 0", "hand 2\nend NS 0 EW 30"],
    [*BLOCKED_DEAL_TYPED[:6], "5-3 {x} {y}", "{z}"],
], ids=["a hand's", "a move's"])
def test_a_comment_of_two_lines_is_listed_so_that_it_replays(requests):
    """Two comments typed for one hand (or one move) are kept as one of two lines; the lines view
    listed it as the writer writes it, across two lines (``{first`` alone), which the recorder
    refused: every correction of the game was refused.  Now one ``{…}`` a line of it, side by side."""
    session = Session(attrs.evolve(make_record("competitive"), players=SEATS), requests)
    hands = game_lines(session)
    assert all(x.count("{") == x.count("}") and "\n" not in x for h in hands for x in h), hands
    _same_game(replayed(session.template, ["\n".join(h) for h in hands]), session)
    again = replayed(session.template, ["\n".join(h) for h in hands]).record()
    assert [(h.comment, [m.comment for m in h.moves]) for h in again.hands] == \
        [(h.comment, [m.comment for m in h.moves]) for h in session.record().hands]
    assert any("\n" in (c or "") for h in again.hands for c in (h.comment, *(m.comment for m in h.moves)))

"""``undo`` right after a ``left`` line closed its hand takes that line back (a tester's finding).

A hand played without its deal ends with a ``left`` line: the tiles each seat still holds, from
which the recorder works out the deal and closes the hand.  An ``undo`` typed right after it took
back the hand's last move and kept the deal worked out from the ``left`` line: the hand then ended
on a confirmation, no ``left`` asked again, so a wrong ``left`` line that was accepted could not be
put right.  The ``left`` line is the last thing the table typed: ``undo`` takes it back now, the
worked-out deal with it (and the forced passes that deal made at the close), and the hand asks for
its ``left`` line again; the next ``undo`` takes back the hand's last move, the deal still unknown.
Likewise after ``end`` kept such a hand as it stood (not over): ``undo`` reopens it waiting for
its end line, its ``left`` line still typed and its deal unknown.

The games where a hand ends with ``left``: Competitive, Horse Race, Broadway (a blocked hand),
Domino Roads with three and with four players.  Castle Rock's hands end empty: it has no ``left``.

A venue table's log replays the lines typed at the table, ``undo`` included, with the meaning it
had when they were typed (the hand's last move, the deal kept): tests/tournament/test_undo_left_log.py.
"""

from __future__ import annotations

import functools

import attrs
import pytest

from domrec import notation
from domrec.recorder import Recorder, read_record
from domrec.session import Session
from tests import simulated as made_once
from tests.in_memory import tmp_path  # noqa: F401  (files written move by move: in memory)
from tests.test_recorder import new_recorder

#: The games (and player counts) where a hand without its deal ends with a ``left`` line.
CONFIGS = {
    "competitive": ("competitive", None, {"first_lead": "any"}, None),
    "horse-race": ("horse-race", 4, None, None),
    "broadway": ("broadway", None, None, None),
    "domino-roads-3": ("domino-roads", 3, None, None),
    "domino-roads-4": ("domino-roads", 4, None, None),
}


@functools.cache
def _hand_with_left(name: str) -> tuple:
    """The first simulated game of ``name`` with a hand that, typed without its deal, ends with a
    ``left`` line giving tiles: the record, the typed lines before that line, the line, and the
    lines after it up to the next hand."""
    game, players, options, variant = CONFIGS[name]
    for seed in range(60):
        record = next(made_once.simulate(game, 1, seed, players, options, variant, accidents=False))
        hands = notation.dumps_typed(record, keep_deal=False).split("\n\n")[1:]
        for k, hand in enumerate(hands):
            lines = hand.splitlines()
            at = next((i for i, line in enumerate(lines) if line.startswith("left")), None)
            if at is not None:
                before = [line for h in hands[:k] for line in h.splitlines()] + lines[:at]
                return record, tuple(before), lines[at], tuple(lines[at + 1:]), k + 1
    raise AssertionError(f"no hand of {name} ends with a left line")


def _at_the_left_line(name: str, interactive: bool, path=None):
    record, before, left, after, number = _hand_with_left(name)
    r, said, refused = new_recorder(record, path, interactive)
    for line in before:
        r.feed_line(line)
    assert not refused, refused
    g = r.game
    assert g.in_hand and g.hand_number == number and not g.deal_known
    return record, r, said, refused, left, after, number


@pytest.mark.parametrize("interactive", [True, False], ids=["terminal", "pipe"])
@pytest.mark.parametrize("name", CONFIGS)
def test_undo_after_the_closing_left_line_takes_that_line_back(name, interactive, tmp_path):
    path = tmp_path / "g.dgn"
    record, r, said, refused, left, after, number = _at_the_left_line(name, interactive, path)
    g = r.game
    moves, over = list(g.moves), g.hand_over
    r.feed_line(left)
    assert not refused, refused
    assert not g.in_hand and g.hand_number == number  # closed by its left line
    closed = read_record(path).hands[number - 1]
    assert closed.deal is not None and closed.deal.hands  # the deal worked out, saved

    r.feed_line("undo")
    assert not refused, refused
    assert f"took back the left line of hand {number}" in said
    assert g.in_hand and g.hand_number == number
    assert not g.deal_known and r.left_typed is None  # the worked-out deal is gone with its line
    assert list(g.moves) == moves  # every move kept (the passes the deal made at the close gone)
    assert g.hand_over == over
    if over:  # the hand asks for its left line again
        assert said[-1].startswith(f"hand {number} is over: give the tiles still held"), said[-3:]
        assert r.prompt == f"hand {number}> "
    # saved as before its left line was typed: the moves, no deal (the file waits for the left line)
    saved = path.read_text()
    assert not any(line.startswith(("deal ", "left ")) for line in saved.splitlines()), saved

    r.feed_line("undo")  # the next undo takes back the last move, the deal still unknown
    assert not refused, refused
    assert said[-1].startswith("took back ") and "left line" not in said[-1]
    assert list(g.moves) == moves[:-1] and not g.deal_known

    # typed again, the hand closes on its left line again, as the record has it
    r.feed_line(_last_move_line(record, number, moves))
    r.feed_line(left)
    for line in after:
        r.feed_line(line)
    assert not refused, refused
    again = read_record(path).hands[number - 1]
    assert (again.deal, again.moves) == (closed.deal, closed.moves)


def _last_move_line(record, number: int, moves: list) -> str:
    """The hand's last move as canonical DGN writes it (seat and move), to type it again."""
    one = attrs.evolve(record, hands=(attrs.evolve(record.hands[number - 1], moves=(moves[-1],)),), result=None)
    body = [line for line in notation.dumps(one).splitlines() if line and not line.startswith("[")]
    return next(line for line in body if line.split()[0] not in ("hand", "deal", "boneyard", "pile", "row",
                                                                 "leaddraw", "redeal", "left", "end"))


@pytest.mark.parametrize("name", CONFIGS)
def test_a_wrong_left_line_that_was_accepted_is_put_right_by_undo(name):
    """The finding itself: a left line giving two seats each other's tile (every count right, no
    tile played) is accepted, and closes the hand with another deal and other scores; ``undo``
    takes it back and the right line gives the hand its right deal."""
    record, r, said, refused, left, after, number = _at_the_left_line(name, True)
    wrong = _swapped(r, left)
    if wrong is None:
        pytest.skip(f"no swap of two seats' tiles makes another left line {name}'s rules accept here")
    g = r.game
    r.feed_line(wrong)
    assert not refused, refused
    assert not g.in_hand
    wrongly = g.hands()[-1].deal
    r.feed_line("undo")
    assert g.in_hand and not g.deal_known and r.left_typed is None
    r.feed_line(left)
    assert not refused, refused
    assert not g.in_hand
    assert g.hands()[-1].deal != wrongly
    assert _dealt(g.hands()[-1].deal) == _dealt(record.hands[number - 1].deal)  # the hand's own deal


def _dealt(deal) -> dict:
    return {seat: sorted(str(t) for t in tiles) for seat, tiles in deal.hands.items()}


def _swapped(r: Recorder, left: str) -> str | None:
    """``left`` with one tile of a seat and one of another swapped, that the game takes (on a copy)."""
    g = r.game
    parsed = notation.parse_hand_line(g.game, g.seats, left)["left"]
    seats = [s for s, tiles in parsed.items() if tiles]
    for a in seats:
        for b in seats:
            if a >= b:
                continue
            for x in parsed[a]:
                for y in parsed[b]:
                    if x == y:
                        continue
                    other = {s: list(t) for s, t in parsed.items()}
                    other[a] = [y if t == x else t for t in other[a]]
                    other[b] = [x if t == y else t for t in other[b]]
                    twin = g.fork()
                    try:
                        if twin.left_problem(other) is None and twin.end_hand(other, None) is not None:
                            return "left " + "; ".join(f"{s} {' '.join(t) or '-'}" for s, t in other.items())
                    except Exception:  # noqa: BLE001 - refused: try the next swap
                        continue
    return None


@pytest.mark.parametrize("name", CONFIGS)
def test_undo_after_a_left_line_and_its_end_keeps_the_left_line_waiting(name):
    """A left line typed before the hand's end waits for its end line; ``end`` keeps the hand as
    it stands (not over), its deal worked out from that line.  ``undo`` reopens it waiting for its
    end line again, the left line still typed and the deal unknown (it had reopened it with the
    worked-out deal, the left line gone); the next ``undo`` takes back the left line."""
    record, r, said, refused, left, after, number = _at_the_left_line(name, True)
    g = r.game
    moves = list(g.moves)
    for _ in range(len(moves)):  # back to where the hand is not over, even with the deal the left line gives
        r.feed_line("undo")
        if not g.hand_over:
            break
    middle = list(g.moves)
    held = _held_now(record, number, middle)
    r.feed_line(held)
    if refused or not g.in_hand or r.left_typed is None:
        pytest.skip(f"no left line mid-hand of {name} waits for its end line here: {refused[-1:]}")
    assert r.prompt == f"hand {number} (end, or undo)> "
    r.feed_line("end")
    assert not refused, refused
    assert not g.in_hand and r.kept_last
    r.feed_line("undo")
    assert not refused, refused
    assert said[-1] == f"reopened hand {number} (no move was taken back)"
    assert g.in_hand and list(g.moves) == middle and not g.deal_known
    assert r.left_typed is not None and r.prompt == f"hand {number} (end, or undo)> "
    r.feed_line("undo")
    assert said[-1] == f"took back the left line of hand {number}"
    assert g.in_hand and r.left_typed is None and list(g.moves) == middle and not g.deal_known


def _held_now(record, number: int, moves: list) -> str:
    """The left line giving what each seat holds after ``moves`` of hand ``number`` (its deal known)."""
    from domrec.game import Game

    hand = record.hands[number - 1]
    g = Game.from_record(attrs.evolve(record, hands=record.hands[:number - 1], result=None))
    g.start_hand(hand.deal, hand.leader, None)
    for m in moves:
        g.push(m)
    held = g.state.holdings()
    return "left " + "; ".join(f"{s} {' '.join(str(t) for t in held.get(s, [])) or '-'}" for s in g.seats)


@pytest.mark.parametrize("name", CONFIGS)
def test_a_next_hand_started_by_a_move_since_taken_back_is_stepped_over(name):
    """After the left line closed hand N, a move starting hand N + 1 and its undo leave hand
    N + 1 started with nothing typed of it: the next ``undo`` steps over it, as before, and takes
    back hand N's left line (it had taken back hand N's last move)."""
    record, r, said, refused, left, after, number = _at_the_left_line(name, True)
    g = r.game
    moves = list(g.moves)
    r.feed_line(left)
    assert not g.in_hand
    later = notation.dumps_typed(record, keep_deal=False).split("\n\n")[1:]
    if len(later) <= number:
        pytest.skip("the game has no next hand")
    nxt = [line for line in later[number].splitlines()]
    first = next((line for line in nxt if line.split()[0] not in ("hand", "deal", "boneyard", "pile", "row",
                                                                  "leaddraw", "redeal")), None)
    r.feed_line(first.split()[0] if first.split()[0] not in g.seats else " ".join(first.split()[:2]))
    if refused or not g.in_hand or g.hand_number != number + 1 or not g.moves:
        pytest.skip(f"hand {number + 1} does not start with that move alone here")
    r.feed_line("undo")
    r.feed_line("undo")
    assert said[-1] == f"took back the left line of hand {number}" or said[-2] == \
        f"took back the left line of hand {number}", said[-3:]
    assert g.in_hand and g.hand_number == number and list(g.moves) == moves and not g.deal_known


def test_the_venues_session_keeps_the_meaning_its_logs_were_written_with():
    """A table's session (the venue's log, replayed) reads ``undo`` after a closing left line as
    its logs were written: the hand's last move taken back, the worked-out deal kept."""
    record, before, left, after, number = _hand_with_left("competitive")
    session = Session(attrs.evolve(record, hands=(), result=None))
    session.take("\n".join(before))
    moves = list(session.game.moves)
    session.take(left)
    assert not session.game.in_hand
    said = session.take("undo")
    assert said[0].startswith("took back ") and "left line" not in said[0], said
    assert session.game.in_hand and session.game.deal_known and list(session.game.moves) == moves[:-1]

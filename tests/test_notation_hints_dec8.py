"""A paper sheet copied into DGN (a tester's, 2026-12-08): the slips it made, said where they are.

* A seat or a pass left out: the rules refuse a move far from it, in the engines' own words; the
  reader, which knows which seats the text left out, adds where to look (a seat to write before
  the move refused, or the moves whose seats the turn gave: docs/notation.md, "Seats").
* Notation errors are listed in the order of the text, header lines included.
* A one typed as the letter l or I, or a bar, and a full stop for a cell's comma, are offered the
  move they were meant for, as the letter O for a zero is.
"""

from __future__ import annotations

import re

import pytest

from domrec import notation, reader
from domrec.phrases import translate

#: docs/notation.md's Domino Roads example with the partner's seat left out (``2-2@EW1 E 5-4@EW1``
#: typed ``2-2@EW1 5-4@EW1``): W keeps the turn and goes out too early.
ROADS_NO_SEAT = """\
[Game "domino-roads"]
[Event "Caminos – Peña Dominó Ñuñoa"]
[N "Ana Pérez"]
[E "Bo Ibáñez"]
[S "Cy Núñez"]
[W "Di Álvarez"]

hand 1
r4+2 s5-1@NS1/5 1-0@NS1 W r5+1 s4-2@EW1/4 2-2@EW1 5-4@EW1 s3-3@EW2/3
6-1@EW1 5-0@EW1 3-2@EW2 1-1@EW1 5-5@EW1 4-4@EW2 6-2@EW2 N r2+2
s2-2@NS2/2 S 4-4@NS1 3-0@NS1 5-2@NS2 E r2+1 S r5+2 2-0@NS2 4-3@NS1
N 4-1@NS1 6-0@NS1 W r4+5 6-4@EW1 - N r2+3 5-5@NS1 S 5-3@NS2
E r5+1 W 4-0@EW1 6-2@EW1 S r5+4 4-3@NS1 N 6-3@NS1 W r3+4 s5-2@EW3/2
E 6-5@EW3
left N 3-3 3-1 2-1 1-1 0-0; S 5-3; W 6-6 6-6 6-1 0-0
end
"""

#: A Competitive hand with no deal and one pass left out (``- - 6-1`` typed ``- 6-1``).
COMPETITIVE_PASS_LEFT_OUT = """\
[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead E
3-3 3-2 5-3 5-0 3-0 2-0 6-3 6-0
- 6-4 4-0 - 6-1 0-0 2-1
5-2 1-0 - 4-1 5-1 3-1 - 4-3
4-4 - - 4-2 - - 2-2 5-4
left N 6-5; E 1-1 5-5
end out NS 43
"""

#: Castle Rock after the boneyard is empty: the next player's places and the last captures typed
#: without their seats.
CASTLE_ROCK_PAPER = """\
[Game "castle-rock"]
[P1 "Ana"]
[P2 "Bo"]

hand 1
row 4-4 5-5 6-5 3-3
P2 6-6 +4-0 5-0 x3-3 x6-6 x5-5,6-5,5-0 +4-2 2-1 +0-0 4-2
x2-1 +2-0 4-0 x4-4,4-2,4-0 +6-1 2-2 +5-3 0-0 +3-2 2-0
x0-0 +3-0 3-2 x2-2,2-0,3-2 +4-3 3-0 +6-0 4-3 +1-0 5-3
x3-0,4-3,5-3 +4-1 6-1 +3-1 6-0 +1-1 1-0 x6-0 +5-1 1-1
x6-1,1-0,1-1 +6-2 5-1 +5-4 4-1 +5-2 3-1 x5-1,4-1,3-1 +6-3 5-2
+6-4 6-3 6-2 x6-3 5-4 6-4 x5-4
end out P1 12 P2 7

hand 2
row 4-0 6-2 3-0 6-6
P1 1-0 x6-2 x6-6 x4-0,3-0,1-0 +5-4 4-2 +1-1 5-1 +2-1 2-2
x5-1 +0-0 2-1 x4-2,2-2,2-1 +6-4 0-0 +3-3 5-4 +2-0 1-1
+4-4 6-4 x1-1 +5-2 4-4 +5-5 2-0 x5-4,6-4,4-4 +3-1 5-5
+6-1 5-2 x5-5 +6-0 3-3 +4-3 6-0 +5-3 4-3 x6-0
+6-3 5-3 x3-3,4-3,5-3 +4-1 6-1 +6-5 4-1 +3-2 6-5 +5-0
3-2 x4-1 x6-1 x6-5 x2-0,5-2,3-2 6-3 3-1 5-0
end out P1 18 P2 -2
"""

#: Broadway: N's exposure typed without its seat (``!5-5?`` for ``S !5-5?``) when E is to move.
BROADWAY_EXPOSURE = """\
[Game "broadway"]
[Event "Broadway del jueves – Círculo Ajedrez y Dominó"]
[N "Ángel Muñoz"]
[E "Inés Cortázar"]
[S "Óscar Núñez"]
[W "Sebastián Ortíz"]

hand 1
S 6-6@0,0 - 1-6@-1,-1 3-6@1,-2 1-3@-1,-2 1-1@-2,-2 2-6@-1,1
!5-5? 2-1@-2,1 {E tardó}
2-5@-2,0 2-2@-3,0 6-0@1,1 4-3@0,-4
4-6@1,-4 4-1@-1,-4 4-4@0,-5 0-1@-3,-2
5-1@-3,-3 0-4@-1,-6 3-5@1,-3 5-0@-4,-3
5-6@2,-2 0-2@-4,-1 4-2@-5,1 4-5@-3,-5
5-5@-5,-4 0-0@-5,-2 3-0@-3,-6 2-3@-3,2 W 3-3@-4,3
end out NS 7 EW 8
"""

#: A header with a misspelt tag above a tag line missing its ``[``.
HEADER_ORDER = """\
[Game "competitive"]
[Evnet "Liga"]
[N "Ana"]
E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead S
end out NS 20
"""

HINT_OVER = re.compile(r"\(was a seat or a pass left out\? the seats of this hand's moves from (\d+):(\d+) on "
                       r"are not written, so the turn gave them\)")


def _problems(text: str):
    (game,) = notation.read_source(reader.Source("game.dgn", text.encode(), form="dgn"))
    return game.report.problems


def _texts(text: str) -> list[str]:
    return [p.text() for p in _problems(text)]


def test_a_seat_left_out_is_looked_for_among_the_moves_the_turn_gave():
    (problem,) = _problems(ROADS_NO_SEAT)
    assert (problem.line, problem.column) == (10, 49)
    assert problem.message.startswith("the hand is already over: W played the last tile of their stock")
    m = HINT_OVER.search(problem.message)
    assert m is not None, problem.message
    # From the first move after W's written seat (W r5+1 at 9:25): the seat left out (9:51) lies in it.
    assert (int(m.group(1)), int(m.group(2))) == (9, 32)
    assert problem.text().endswith("so the turn gave them) [domino-roads: hand end]")


def test_a_pass_left_out_is_looked_for_from_the_hands_first_move():
    (problem,) = _problems(COMPETITIVE_PASS_LEFT_OUT)
    assert problem.text() == (
        "11:13: hand 1, move 28: the hand is already over: W went out (was a seat or a pass left out? the seats "
        "of this hand's moves from 8:1 on are not written, so the turn gave them) [competitive: end of hand]")
    mended = COMPETITIVE_PASS_LEFT_OUT.replace("\n- 6-4 4-0 - 6-1", "\n- 6-4 4-0 - - 6-1")
    assert _problems(mended) == ()


def test_no_hint_where_every_seat_is_written():
    mended = COMPETITIVE_PASS_LEFT_OUT.replace("\n- 6-4 4-0 - 6-1", "\n- 6-4 4-0 - - 6-1")
    canonical = notation.dumps(notation.loads(mended))
    lines = canonical.rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if line.startswith(("N ", "E ", "S ", "W ")))
    lines[last] += " N 6-5"  # (a move after the hand's end, with its seat: nothing the turn gave)
    (problem,) = _problems("\n".join(lines) + "\n")
    assert problem.message.startswith("the hand is already over")
    assert "(" not in problem.message, problem.message


def test_castle_rock_place_and_capture_without_their_seats_name_the_seat_to_write():
    first = _texts(CASTLE_ROCK_PAPER)[0]
    assert first == (
        "12:10: hand 1, move 53, P2: P2 has already placed a tile this turn: a turn is one tile, then captures "
        "(its seat is not written, so the turn gave it: write first the seat of the player who made it, as in "
        "P1 6-2) [castle-rock: turn]")
    # The places mended, the last capture still without its seat (the recorder asks for P1 x5-4).
    mended = CASTLE_ROCK_PAPER.replace("+6-4 6-3 6-2 x6-3 5-4 6-4 x5-4", "+6-4 6-3 P1 6-2 x6-3 P2 5-4 P1 6-4 x5-4")
    assert _texts(mended)[0] == (
        "12:36: hand 1, move 57: whose move is this? the hand is over (its seat is not written: write it first, "
        "as in P1 x5-4) [DGN: what may be left out]")


def test_broadway_exposure_without_its_seat_names_the_seat_to_write():
    (problem,) = _problems(BROADWAY_EXPOSURE)
    assert problem.text() == (
        "10:2: hand 1, move 8, E: it is E's own turn: a tile shown by the player to move is simply played, an "
        "exposure is out of turn (its seat is not written, so the turn gave it: write first the seat of the player "
        "who made it, as in S !5-5?) [broadway: exposed tile]")


def test_the_hints_are_said_in_spanish():
    for text in (ROADS_NO_SEAT, COMPETITIVE_PASS_LEFT_OUT, CASTLE_ROCK_PAPER, BROADWAY_EXPOSURE):
        said = _problems(text)[0].text()
        spanish = translate(said, "es")
        assert "the turn gave" not in spanish and "dio el turno" in spanish, spanish


def test_header_problems_are_listed_in_the_order_of_the_text():
    assert [(p.line, p.column) for p in _problems(HEADER_ORDER)] == [(2, 1), (4, 1)]
    assert _texts(HEADER_ORDER)[0].startswith("2:1: unknown tag [Evnet]: did you mean [Event]?")


PLAYERS = '[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\n'


@pytest.mark.parametrize("game, moves, word, meant, why", [
    ("competitive", "6-6 4-l", "4-l", "4-1", "it has the letter l where a one is meant"),
    ("competitive", "6-6 6-I", "6-I", "6-1", "it has the letter I where a one is meant"),
    ("competitive", "6-6 6-|", "6-|", "6-1", "it has a bar (|) where a one is meant"),
    ("broadway", "S 6-6@0,0 4-4@0.-5", "4-4@0.-5", "4-4@0,-5", "it has a full stop where a comma is meant"),
    ("broadway", "S 6-6@0,0 l-6@-1,-1", "l-6@-1,-1", "1-6@-1,-1", "it has the letter l where a one is meant"),
    ("domino-roads", "r4+2 s5-l@NS1/5", "s5-l@NS1/5", "s5-1@NS1/5", "it has the letter l where a one is meant"),
])
def test_lookalikes_of_one_and_a_full_stop_for_a_comma_are_offered_the_move_meant(game, moves, word, meant, why):
    lead = " lead S" if game == "competitive" else ""
    text = f'[Game "{game}"]\n{PLAYERS}\nhand 1{lead}\n{moves}\n'
    (problem,) = _problems(text)
    assert problem.kind == "input"
    assert problem.message == f"{word!r} is not a move of {game}: {why}; did you mean {meant}?"
    assert "quería decir" in translate(problem.message, "es")


def test_castle_rock_capture_with_a_full_stop():
    text = '[Game "castle-rock"]\n[P1 "a"]\n[P2 "b"]\n\nhand 1\nrow 4-0 6-2 3-0 6-6\nP1 1-0 x6-2.6-6\n'
    (problem,) = _problems(text)
    assert problem.message == ("'x6-2.6-6' is not a move of castle-rock: it has a full stop where a comma is meant; "
                               "did you mean x6-2,6-6?")


def test_a_full_stop_that_makes_no_one_move_is_offered_nothing():
    text = f'[Game "broadway"]\n{PLAYERS}\nhand 1\nS 6-6@0,0 4-4@0.5.5\n'
    (problem,) = _problems(text)
    assert problem.message == "'4-4@0.5.5' is not a move of broadway (see docs/notation.md)"


def test_castle_rock_draw_left_out_is_not_blamed_on_a_seat():
    # With tiles in the boneyard the turn passes with the draw: a place refused as a second one is a
    # draw left out, which no seat would mend, so nothing is added.
    text = CASTLE_ROCK_PAPER.replace("x2-1 +2-0 4-0", "x2-1 4-0")
    first = _problems(text)[0]
    assert (first.line, first.column) == (8, 6)
    assert first.text() == ("8:6: hand 1, move 12, P1: P1 has already placed a tile this turn: a turn is one tile, "
                            "then captures, then a draw [castle-rock: turn]")


#: A Competitive block typed without its deal or its closing passes, its left line giving the rest.
BLOCK_NO_CLOSING_PASSES = """\
[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead W
leaddraw N 4-4; E 6-4; S 4-1; W 6-5
5-3 5-1 3-3 4-1 4-0 3-1 6-1 6-5
1-0 2-1 5-2 5-4 6-4 6-2 5-0 2-0
0-0 6-0 3-0 4-3 - 4-2 6-3 2-2
3-2
left N 4-4; E 5-5; S 6-6
end blocked NS 0 EW 32
"""


def test_the_docs_say_what_the_reader_does_with_a_blocks_closing_passes():
    from pathlib import Path

    (game,) = notation.read_source(reader.Source("game.dgn", BLOCK_NO_CLOSING_PASSES.encode(), form="dgn"))
    assert game.report.status == "valid", game.report.problems
    docs = Path(__file__).resolve().parent.parent / "docs"
    rules = " ".join((docs / "rules" / "competitive.md").read_text(encoding="utf-8").split())
    dgn = " ".join((docs / "notation.md").read_text(encoding="utf-8").split())
    assert "ends blocked only after four passes in a row" not in rules
    assert "a block ends only after a full round of written passes" not in dgn
    assert "A block's closing passes may still be left out" in dgn

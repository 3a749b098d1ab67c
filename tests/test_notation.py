"""DGN, the text notation (domrec/notation/): every token form of every game, the tags,
archives, and every bad input reported at its line:column (never a traceback)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from domrec import notation
from domrec.cli import app
from domrec.errors import InputError, RuleViolation
from domrec.notation import header, tokens
from domrec.record import Capture, Draw, Exposed, GameResult, Pass, Play, Reuse, Roll, unstructure
from tests.conftest import TYPED_HAND

runner = CliRunner()

# --- texts every test starts from (canonical DGN, as the writer gives it) --------------------

COMP = """\
[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead N
deal N 6-3 4-3 5-2 4-0 6-1 6-6 5-5
deal E 3-0 3-2 3-3 2-1 1-1 6-2 6-4
deal S 2-2 6-0 5-1 3-1 5-3 1-0 4-2
deal W 4-1 5-4 6-5 4-4 2-0 5-0 0-0
N 5-2 W 6-5@5-2 S 4-2@5-2 E 6-4@4-2
N 6-6@6-4 W - S 6-0@6-6 E 6-2@6-5
N 4-0@6-0 W 2-0@6-2 S 1-0@2-0 E 1-1@1-0
N 6-1@1-1 W 5-4@4-0 S 5-1@5-4 E 2-1@5-1
N 6-3@6-1 W - S 5-3@6-3 E 3-2@2-1
N 4-3@3-2 W 4-1@4-3 S 3-1@4-1 E 3-0@3-1
N 5-5@5-3
end out NS 23 EW 0
"""

COMP_HEAD = COMP[:COMP.index("deal N")]
COMP_DEAL = COMP[COMP.index("deal N"):COMP.index("N 5-2")]
#: The same hand as people type it: no seats, no forced passes (the deal is known).
COMP_TYPED_MOVES = """\
5-2 6-5@5-2 4-2@5-2 6-4@4-2 6-6@6-4 6-0@6-6 6-2@6-5
4-0@6-0 2-0@6-2 1-0@2-0 1-1@1-0 6-1@1-1 5-4@4-0 5-1@5-4 2-1@5-1
6-3@6-1 5-3@6-3 3-2@2-1 4-3@3-2 4-1@4-3 3-1@4-1 3-0@3-1
5-5@5-3
"""
#: Without the deal every pass is written, and the tiles still held end the hand.
COMP_OPEN_MOVES = (COMP_TYPED_MOVES.replace("6-6@6-4 ", "6-6@6-4 - ").replace("6-3@6-1 ", "6-3@6-1 - "))
COMP_LEFT = "left E 3-3; S 2-2; W 5-0 4-4 0-0\n"

BROADWAY = """\
[Game "broadway"]
[Event "exposed tiles: a scoring penalty play and an unplayable exposure"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead N
deal N 2-1 4-0 5-0 6-6 4-3 5-1 6-0
deal E 3-2 5-2 5-5 3-3 6-4 3-1 0-0
deal S 1-0 6-3 1-1 4-4 6-5 3-0 5-4
deal W 2-2 6-1 5-3 4-1 4-2 2-0 6-2
N 6-6@0,0=0 E 6-4@1,1=0 S 5-6@-1,1=1 W 3-5@-1,-1=0 S !1-0?
N 0-5@-3,0=0 E 5-5@-2,1=1 S 5-4@-1,2=5 W 4-1@1,3=0
N 3-4@-1,3=1 E 3-2@-2,3=0 S 3-6@0,-1=1 E !5-2
N *2-5@-4,1=0 W 4-2@2,3=0
N 2-1@-1,4=1 S !4-4 W *4-4@2,1=1 E 1-3@0,-3=0 S 1-1@0,5=1 W 1-6@1,-3=1
N 1-5@-4,2=1 E 3-3@-1,-3=1 S 0-3@-3,-1=1 W 0-2@-4,-1=1
N 4-0@3,2=0 E 0-0@-5,-2=0 S 0-1@-4,-2=1 W 2-2@-5,0=1
N 6-0@2,-1=0 W 2-6@2,-3=1
end out NS 13 EW 7
"""

HORSE_NAMED = """\
[Game "horse-race"]
[P1 "Ana"]
[P2 "Bo"]
[P3 "Cy"]
[P4 "Di"]

hand 1 lead P3
deal P1 6-1 0-0 4-2 4-3 2-1
deal P2 5-5 3-2 6-2 6-0 1-1
deal P3 4-0 6-5 2-2 6-4 3-3
deal P4 3-0 5-0 3-1 4-4 5-4
boneyard 5-3 5-2 2-0 5-1 6-6 4-1 6-3 1-0
P3 3-3=0 P3 +5-3=0 P3 5-3@3-3=0 P4 5-4@5-3=2 P4 3-1@3-3=1 P4 3-0@3-3=1 P4 5-0@3-0=2 P4 4-4@5-4=0
end out P1 0 P2 0 P3 0 P4 23
"""

HORSE_ORDER = """\
[Game "horse-race"]
[P1 "Ana"]
[P2 "Bo"]
[P3 "Cy"]
[P4 "Di"]

hand 1 lead P2
deal P1 3-2 5-1 5-0 6-4 6-0
deal P2 5-2 1-1 6-5 6-3 4-2
deal P3 1-0 2-2 3-1 6-2 2-1
deal P4 6-1 4-3 0-0 4-1 5-3
boneyard 4-4 2-0 6-6 5-4 4-0 3-0 3-3 5-5
P2 1-1=0 P2 +=0 P2 +=0 P2 +=0 P2 +=0 P2 +=0 P2 +=0 P2 +=0 P2 +=0 P2 -=0 P3 3-1@1-1=1 P3 2-1@1-1=1
P3 1-0@1-1=1 P3 2-2@2-1=0 P3 6-2@2-2=0
end out P1 0 P2 0 P3 32 P4 0
"""

CASTLE = """\
[Game "castle-rock"]
[P1 "Ana"]
[P2 "Bo"]

hand 1 lead P2
deal P1 3-0 4-3
deal P2 5-4 1-1
row 4-2 5-1 2-1 5-0
boneyard 2-0 5-3 4-1 1-0 6-5 6-2 0-0 3-2 4-4 2-2 5-5 3-1 6-4 5-2 3-3 6-3 6-6 6-0 6-1 4-0
P2 1-1 P2 + P1 3-0 P1 x5-0 P1 x5-1,2-1,1-1 P1 +
P2 5-4 P2 x3-0 P2 + P1 4-3 P1 x4-2,5-4,4-3 P1 +
P2 4-1 P2 + P1 5-3 P1 +
P2 6-5 P2 + P1 1-0 P1 +
P2 2-0 P2 + P1 3-2 P1 +
P2 0-0 P2 + P1 6-2 P1 x3-2 P1 x1-0,2-0,0-0 P1 +
P2 5-5 P2 + P1 2-2 P1 x6-2 P1 x5-3,6-5,5-5 P1 +
P2 4-4 P2 + P1 3-1 P1 x2-2 P1 x4-4 P1 +
P2 6-4 P2 + P1 5-2 P1 x3-1 P1 +
P2 6-6 P2 + P1 6-0 P1 x5-2 P1 x6-4,6-6,6-0 P1 +
P2 6-1 P1 4-0 P1 x6-1
P2 3-3 P1 6-3
end out P1 19 P2 -3
"""

CASTLE_NAMED = """\
[Game "castle-rock"]
[P1 "Ana"]
[P2 "Bo"]
[P3 "Cy"]
[P4 "Di"]

hand 1 lead P4
deal P1 5-4 3-3
deal P2 6-4 4-4
deal P3 3-2 3-0
deal P4 6-5 5-5
row 4-2 5-1 4-3 5-2
P4 6-5 P4 x4-3 P4 +1-1 P1 5-4 P1 x6-5 P1 +6-2 P2 6-4 P2 +6-0 P3 3-0 P3 +6-3
P4 1-1 P4 +3-1 P1 3-3 P1 x5-2 P1 x1-1 P1 x5-1 P1 x4-2,5-4,6-4 P1 +6-6 P2 6-0 P2 x3-3 P2 +4-0 P3 6-3
P3 x6-0 P3 +5-3 P4 3-1 P4 +5-0 P1 6-6 P1 x3-0,6-3,3-1 P1 +6-1 P2 4-0 P2 +4-1
P3 3-2 P3 +1-0 P4 5-0 P4 +2-1 P1 6-2 P1 x5-0 P1 +2-2 P2 4-4 P2 +2-0
P3 5-3 P3 +0-0 P4 2-1 P1 2-2 P2 2-0
P3 0-0 P3 x2-1,2-2,2-0 P4 5-5 P4 x0-0 P1 6-1 P2 4-1
P3 1-0 P3 x6-1,4-1,1-0
end out P1 4 P2 -6 P3 0 P4 -5
"""

ROADS_BRIDGE = """\
[Game "domino-roads"]
[Event "Rule text, figure 4: a bridge with total 10"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead S
deal N 0-0 6-6 6-1 5-3 5-2 4-3 4-1 3-2 2-2 1-1
deal E 6-3 6-1 5-3 5-1 4-3 3-3 3-1 2-2 1-1 1-0
deal S 6-2 4-6 4-4 4-0 6-6 4-4 6-5 5-5 5-5 5-4
deal W 2-1 0-0 6-2 6-0 5-2 5-0 4-2 3-3 3-0 2-0
S r5+3 S s6-2@NS1/2 S 4-6@NS1 S s4-4@NS2/4 S 4-0@NS2 W r2+1 W s2-1@EW1/2 W - E - N r6+4 N b0-0@NS1/1/6+NS2/1/4
S 6-6@NS1 S 4-4@NS1 S 6-5@NS1 S 5-5@NS1 S 5-5@NS1 S 5-4@NS1
end out NS 497 EW 67
"""

ROADS_BLOCK = """\
[Game "domino-roads"]
[Event "A road of length 10, then a road-block"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead S
deal N 6-6 6-3 6-1 5-5 5-2 4-3 4-0 3-1 2-1 1-0
deal E 0-0 6-5 6-2 6-1 5-4 5-0 4-3 3-3 3-0 1-1
deal S 6-0 6-6 2-0 4-4 2-2 4-1 5-1 5-3 3-3 3-5
deal W 0-0 6-4 6-2 5-5 5-2 4-4 4-2 3-2 2-2 1-1
S r3+3 S s6-0@NS1/0 S 6-6@NS1 S 2-0@NS1 S 4-4@NS1 S 2-2@NS1 S 4-1@NS1 S 5-1@NS1 S 5-3@NS1 S 3-3@NS1 S 3-5@NS1
end out NS 618 EW 64

hand 2 lead W
deal N 5-5 6-0 6-6 2-0 4-4 2-2 4-1 5-1 5-3 3-3
deal E 6-6 6-3 6-1 5-4 5-0 4-2 3-2 2-2 1-1 1-0
deal S 0-0 0-0 6-5 6-2 6-1 5-2 4-4 4-0 3-1 2-1
deal W 3-4 3-5 6-4 6-2 5-5 5-2 4-3 3-3 3-0 1-1
W r5+2 W s3-4@EW1/4 W 3-5@EW1 W - N r4+2 N #5-5@EW1 N s6-0@NS1/0 N 6-6@NS1 N 2-0@NS1 N 4-4@NS1 N 2-2@NS1 N 4-1@NS1
N 5-1@NS1 N 5-3@NS1 N 3-3@NS1
end out NS 373 EW 267
"""

ROADS_REUSE = """\
[Game "domino-roads"]
[P1 "Ana"]
[P2 "Bo"]
[P3 "Cy"]

hand 1 lead P1
deal P1 3-1 3-2 2-2 4-2 6-0 6-6 2-0 4-4 2-2
deal P2 6-6 6-3 6-2 6-1 5-5 5-3 5-2 4-4 4-3
deal P3 6-5 6-4 6-2 6-1 5-5 5-4 5-2 5-0 4-3
pile P1 4-1 5-1 5-3 3-3
pile P2 4-0 3-0 1-1 0-0
pile P3 3-3 2-1 1-1 0-0
P1 r2+2 P1 s3-1@P1-1/1 P1 3-2@P1-1 P1 2-2@P1-1 P1 4-2@P1-1 P2 r6+5 P2 - P3 reuse P3 s6-5@P3-1/6
P1 r3+3 P1 s6-0@P1-2/0 P1 6-6@P1-2 P1 2-0@P1-2 P1 4-4@P1-2 P1 2-2@P1-2 P1 4-1@P1-2 P1 5-1@P1-2 P1 5-3@P1-2 P1 3-3@P1-2
end out P1 469 P2 0 P3 10
"""

CANONICAL = {"competitive": COMP, "broadway": BROADWAY, "horse-race named draws": HORSE_NAMED,
             "horse-race boneyard order": HORSE_ORDER, "castle-rock": CASTLE, "castle-rock named draws": CASTLE_NAMED,
             "domino-roads bridge": ROADS_BRIDGE, "domino-roads block": ROADS_BLOCK,
             "domino-roads three players": ROADS_REUSE}


# --- helpers ----------------------------------------------------------------------------------


def read1(text: str | bytes, source: str = "t.dgn") -> notation.DgnGame:
    found = list(notation.read_games(text, source))
    assert len(found) == 1, [g.report.source for g in found]
    return found[0]


def plain(record) -> dict:
    """A record as the JSON data a .json file holds (lists, not tuples)."""
    return json.loads(json.dumps(unstructure(record)))


def data(text: str | bytes) -> dict:
    game = read1(text)
    assert game.record is not None, [p.text() for p in game.report.problems]
    return plain(game.record)


def moves(text: str, hand: int = 0) -> list[dict]:
    return data(text)["hands"][hand]["moves"]


def where(text: str, needle: str, nth: int = 0) -> tuple[int, int]:
    """Line and column (1-based) of the ``nth`` occurrence of ``needle`` in ``text``."""
    pos = -1
    for _ in range(nth + 1):
        pos = text.index(needle, pos + 1)
    line = text.count("\n", 0, pos) + 1
    col = pos - (text.rfind("\n", 0, pos) + 1) + 1
    return line, col


def within(text: str, token: str, part: str) -> tuple[int, int]:
    """Line and column of ``part`` inside the first ``token`` in ``text``: where a problem with a
    field of a move (its tile, its cell, its claimed score) is reported."""
    line, col = where(text, token)
    return line, col + token.index(part)


def only_problem(game: notation.DgnGame):
    problems = game.report.problems
    assert problems, "expected a problem"
    return problems[0]


def assert_at(game: notation.DgnGame, status: str, line: int, column: int, *words: str):
    """The game's first problem is at line:column, with ``words`` in its one-line message."""
    assert game.report.status == status, (game.report.status, [p.text() for p in game.report.problems])
    p = only_problem(game)
    assert (p.line, p.column) == (line, column), p.text()
    text = p.text()
    assert "\n" not in text and text.startswith(f"{line}:{column}: ")
    for w in words:
        assert w in text, text
    return p


# --- the canonical texts read and are written back byte for byte -------------------------------


@pytest.mark.parametrize("name", sorted(CANONICAL))
def test_canonical_text_reads_valid_and_writes_back_identically(name):
    text = CANONICAL[name]
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert game.complete
    assert notation.dumps(game.record) == text
    assert notation.loads(text) == game.record


# --- tiles and passes ---------------------------------------------------------------------------

_TILE_IN_TEXT = re.compile(r"(?<![0-9,@/-])([0-9])-([0-9])(?![0-9])")


def _body(text: str) -> tuple[str, str]:
    cut = text.index("\nhand 1")
    return text[:cut], text[cut:]


@pytest.mark.parametrize("form", [r"\1\2", r"\1:\2", r"\1|\2"], ids=["63", "6:3", "6|3"])
@pytest.mark.parametrize("name", ["competitive", "castle-rock", "horse-race named draws", "domino-roads bridge"])
def test_every_tile_form_reads_as_the_same_record(name, form):
    text = CANONICAL[name]
    head, body = _body(text)
    changed = head + _TILE_IN_TEXT.sub(form, body)
    assert changed != text
    assert data(changed) == data(text)


def test_tile_halves_are_kept_as_written():
    text = COMP.replace("N 5-2 W", "N 2|5 W").replace("W 6-5@5-2", "W 56@25").replace("deal N 6-3", "deal N 3:6")
    d = data(text)
    assert d["hands"][0]["moves"][0]["play"] == "2-5"
    assert d["hands"][0]["moves"][1] == {"seat": "W", "play": "5-6", "on": "2-5"}
    assert d["hands"][0]["deal"]["hands"]["N"][0] == "3-6"
    assert read1(text).report.status == "valid"


def test_two_digit_halves_need_a_separator():
    # 63 is 6-3, but 633 is no tile; 12-11 is a tile (of a bigger set)
    assert tokens._tile_text("63") == "6-3"
    assert tokens._tile_text("12-11") == "12-11"
    assert tokens._tile_text("633") is None
    assert tokens._tile_text("6-") is None


@pytest.mark.parametrize("word", ["-", "pass", "p", "PASS", "Pass"])
def test_every_pass_form(word):
    text = COMP.replace("W - S 6-0", f"W {word} S 6-0").replace("W - S 5-3", f"W {word} S 5-3")
    assert data(text) == data(COMP)
    assert moves(text)[5] == {"seat": "W", "pass": True}


def test_on_names_the_tile_played_on_and_may_be_left_out_where_the_hand_leaves_one_reading():
    # Every "@" left out: the reader tries the ends on the engine; readings that give the same
    # scores are decided by the written rule (the end laid earliest), and a note says so.
    text = COMP_HEAD + COMP_DEAL + re.sub(r"@[0-9]-[0-9]", "", COMP_TYPED_MOVES)
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert "readings give the same scores" in game.report.note and "the end laid earliest" in game.report.note
    assert game.report.scores == {"NS": 23, "EW": 0}
    assert plain(game.record)["hands"][0]["moves"][3]["on"] in ("4-2", "6-5")
    # where the tile fits one end only, "on" may be left out (and the record has none)
    fixed = COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES.replace("6-5@5-2", "6-5").replace("4-0@6-0", "4-0")
    game = read1(fixed)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    ms = plain(game.record)["hands"][0]["moves"]
    assert ms[1] == {"seat": "W", "play": "6-5"} and ms[8] == {"seat": "N", "play": "4-0"}
    assert ms[3] == {"seat": "E", "play": "6-4", "on": "4-2"}


# --- seats, forced passes, move numbers, commas -------------------------------------------------


def test_typed_form_without_seats_and_forced_passes_is_the_same_record():
    assert data(COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES + "end out NS 23 EW 0\n") == data(COMP)


def test_move_numbers_are_ignored():
    numbered = " ".join(f"{k + 1}. {m}" if k % 4 == 0 else m for k, m in enumerate(COMP_TYPED_MOVES.split()))
    assert "1. 5-2" in numbered and "5. 6-6@6-4" in numbered
    assert data(COMP_HEAD + COMP_DEAL + numbered + "\n") == data(COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES)
    # a move number with several dots, and one glued to nothing else
    assert data(COMP_HEAD + COMP_DEAL + "1... " + COMP_TYPED_MOVES) == data(COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES)


def test_moves_separated_by_commas_without_spaces():
    glued = ",".join(COMP_TYPED_MOVES.split())
    assert data(COMP_HEAD + COMP_DEAL + glued + "\n") == data(COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES)
    # a problem in the middle of a glued word is reported at that move's column
    bad = COMP_HEAD + COMP_DEAL + "5-2,6-5@5-2,3-3@5-2\n"
    game = read1(bad)
    line, col = where(bad, "3-3@5-2")
    assert_at(game, "invalid", line, col, "S does not hold 3-3")


def test_commas_between_moves_with_spaces_too():
    spaced = ", ".join(COMP_TYPED_MOVES.split())
    assert data(COMP_HEAD + COMP_DEAL + spaced + "\n") == data(COMP_HEAD + COMP_DEAL + COMP_TYPED_MOVES)


# --- draws (Horse Race, Castle Rock) -----------------------------------------------------------


def test_named_draw_and_draw_in_boneyard_order():
    assert moves(HORSE_NAMED)[1] == {"seat": "P3", "draw": "5-3", "score": 0}
    ms = moves(HORSE_ORDER)
    assert [m["draw"] for m in ms[1:9]] == [True] * 8 and ms[9] == {"seat": "P2", "pass": True, "score": 0}
    assert moves(CASTLE_NAMED)[2] == {"seat": "P4", "draw": "1-1"}
    assert moves(CASTLE)[1] == {"seat": "P2", "draw": True}


def test_draw_forms_in_the_typed_text():
    typed = HORSE_NAMED.replace("P3 +5-3=0", "+53").replace("=0", "").replace("=1", "").replace("=2", "")
    game = read1(typed)
    assert game.report.status == "valid"
    assert unstructure(game.record)["hands"][0]["moves"][1] == {"seat": "P3", "draw": "5-3"}


def test_draw_without_a_tile_needs_the_boneyard_order():
    text = CASTLE_NAMED.replace("P4 +1-1", "P4 +")
    line, col = where(text, "+ P1 5-4")
    assert_at(read1(text), "invalid", line, col, "draws without naming the tile", "boneyard")


# --- captures (Castle Rock) --------------------------------------------------------------------


def test_captures_of_one_tile_and_of_three():
    ms = moves(CASTLE)
    assert ms[3] == {"seat": "P1", "capture": ["5-0"]}
    assert ms[4] == {"seat": "P1", "capture": ["5-1", "2-1", "1-1"]}
    assert notation.dumps(notation.loads(CASTLE)) == CASTLE


def test_capture_tile_forms():
    text = CASTLE.replace("P1 x5-1,2-1,1-1", "P1 x51,2:1,1|1")
    assert data(text) == data(CASTLE)


def test_capture_of_two_tiles_is_not_a_capture():
    text = CASTLE.replace("P1 x5-1,2-1,1-1", "P1 x5-1,2-1")
    game = read1(text)
    assert game.report.status != "valid"
    p = only_problem(game)
    assert p.line == where(text, "x5-1,2-1")[0]


# --- Broadway ----------------------------------------------------------------------------------


def test_broadway_x_y_lies_along_each_seats_axis():
    ms = moves(BROADWAY)
    assert ms[0] == {"seat": "N", "play": "6-6", "at": [[0, 0], [1, 0]], "score": 0}  # N: along x
    assert ms[1] == {"seat": "E", "play": "6-4", "at": [[1, 1], [1, 2]], "score": 0}  # E: along y
    assert ms[2]["at"] == [[-1, 1], [0, 1]]  # S: along x
    assert ms[3]["at"] == [[-1, -1], [-1, 0]]  # W: along y


def test_broadway_full_form_names_both_cells():
    text = BROADWAY.replace("N 6-6@0,0=0", "N 6-6@0,0:1,0=0").replace("E 6-4@1,1=0", "E 6-4@1,1:1,2=0")
    assert data(text) == data(BROADWAY)


def test_broadway_full_form_is_written_when_the_cells_are_not_in_axis_order():
    d = data(BROADWAY)
    m = d["hands"][0]["moves"][1]  # E 6-4 at (1,1)-(1,2): write it as 4-6 at (1,2)-(1,1)
    d["hands"][0]["moves"][1] = {"seat": "E", "play": "4-6", "at": [[1, 2], [1, 1]], "score": m["score"]}
    from domrec.reader import load_dict
    from domrec.validate import validate

    record = load_dict(d)
    assert validate(record).status == "valid"
    text = notation.dumps(record)
    assert "E 4-6@1,2:1,1=0" in text
    back = read1(text)
    assert back.report.status == "valid"
    assert unstructure(back.record) == d


def test_broadway_exposures_and_penalty_plays():
    ms = moves(BROADWAY)
    assert ms[4] == {"seat": "S", "exposed": "1-0", "unplayable": True}
    exposed = [m for m in ms if "exposed" in m]
    assert {"seat": "E", "exposed": "5-2"} in exposed and {"seat": "S", "exposed": "4-4"} in exposed
    penalties = [m for m in ms if m.get("penalty")]
    assert penalties == [{"seat": "N", "play": "2-5", "at": [[-4, 1], [-3, 1]], "penalty": True, "score": 0},
                         {"seat": "W", "play": "4-4", "at": [[2, 1], [2, 2]], "penalty": True, "score": 1}]


def test_broadway_exposure_and_penalty_need_their_seat():
    without = BROADWAY.replace("S !1-0?", "!1-0?")
    assert_at(read1(without), "invalid", *within(without, "!1-0?", "1-0"), "exposure is out of turn")
    without = BROADWAY.replace("N *2-5@-4,1=0", "*2-5@-4,1=0")
    game = read1(without)
    assert game.report.status == "invalid"
    assert only_problem(game).line == where(without, "*2-5")[0]


def test_broadway_exposure_marked_unplayable_that_fits_is_refused_at_its_token():
    text = BROADWAY.replace("E !5-2", "E !5-2?")
    assert_at(read1(text), "invalid", *within(text, "!5-2?", "?"), "not unplayable")


def test_broadway_play_needs_a_cell():
    text = BROADWAY.replace("W 4-1@1,3=0", "W 4-1=0")
    assert_at(read1(text), "unusable", *where(text, "4-1=0"), "say where", "4-1@x,y")


def test_broadway_typed_form_reads_back():
    typed = re.sub(r"=[0-9]+", "", BROADWAY).replace("end out NS 13 EW 7", "end")
    assert data(typed) == {**data(BROADWAY), "hands": [
        {**h, "moves": [{k: v for k, v in m.items() if k != "score"} for m in h["moves"]],
         "result": {}} for h in data(BROADWAY)["hands"]]}


# --- Domino Roads -----------------------------------------------------------------------------


def test_roads_rolls_with_and_without_plus():
    assert moves(ROADS_BRIDGE)[0] == {"seat": "S", "roll": [5, 3]}
    assert data(ROADS_BRIDGE.replace("S r5+3", "S r53").replace("N r6+4", "N r64")) == data(ROADS_BRIDGE)


def test_roads_starter_span_bridge():
    ms = moves(ROADS_BRIDGE)
    assert ms[1] == {"seat": "S", "starter": "6-2", "road": "NS1", "facing": 2}
    assert ms[2] == {"seat": "S", "span": "4-6", "road": "NS1"}
    bridge = next(m for m in ms if "bridge" in m)
    assert bridge == {"seat": "N", "bridge": "0-0", "join": [{"road": "NS1", "span": 1, "half": 6},
                                                            {"road": "NS2", "span": 1, "half": 4}]}


def test_roads_block_and_reuse():
    assert {"seat": "N", "block": "5-5", "road": "EW1"} in moves(ROADS_BLOCK, 1)
    assert {"seat": "P3", "reuse": True} in moves(ROADS_REUSE)


def test_roads_quoted_road_names():
    text = ROADS_BRIDGE.replace("NS1", '"road one"').replace("NS2", '"a/b+c@d"')
    d = data(text)
    ms = d["hands"][0]["moves"]
    assert ms[1]["road"] == "road one"
    assert next(m for m in ms if "bridge" in m)["join"] == [{"road": "road one", "span": 1, "half": 6},
                                                           {"road": "a/b+c@d", "span": 1, "half": 4}]
    assert read1(text).report.status == "valid"
    assert notation.dumps(read1(text).record) == text


def test_roads_road_name_starting_with_a_digit_is_quoted_by_the_writer():
    text = ROADS_BRIDGE.replace("NS1", '"1st"')
    game = read1(text)
    assert game.report.status == "valid"
    assert notation.dumps(game.record) == text


def test_roads_unclosed_quoted_name():
    text = ROADS_BRIDGE.replace("S 4-6@NS1", 'S 4-6@"NS1')
    game = read1(text)
    assert game.report.status == "unusable"
    assert only_problem(game).line == where(text, '4-6@"NS1')[0]


def test_roads_tile_without_a_road():
    text = ROADS_BRIDGE.replace("S 4-6@NS1", "S 4-6")
    assert_at(read1(text), "unusable", *where(text, "4-6 S"), "say which", "@NS1")


def test_roads_typed_form_partner_plays_carry_their_seat():
    typed = ("r5+3 s6-2@NS1/2 4-6@NS1 s4-4@NS2/4 4-0@NS2 W r2+1 s2-1@EW1/2 -\n"
             "- r6+4 b0-0@NS1/1/6+NS2/1/4 S 6-6@NS1 4-4@NS1 6-5@NS1 5-5@NS1 5-5@NS1\n5-4@NS1\nend\n")
    text = ROADS_BRIDGE[:ROADS_BRIDGE.index("S r5+3")] + typed
    d = data(text)
    expected = data(ROADS_BRIDGE)
    expected["hands"][0]["result"] = {}
    assert d == expected
    # without the seat, S's plays after N's bridge would be N's
    wrong = text.replace("S 6-6@NS1", "6-6@NS1")
    game = read1(wrong)
    assert game.report.status == "invalid"
    assert only_problem(game).line == where(wrong, "6-6@NS1")[0]


# --- claims -----------------------------------------------------------------------------------


def test_claims_are_read_and_checked_at_their_token():
    assert moves(BROADWAY)[6]["score"] == 1
    text = BROADWAY.replace("S 5-4@-1,2=5", "S 5-4@-1,2=4")
    p = assert_at(read1(text), "invalid", *within(text, "5-4@-1,2=4", "=4"), "credited 4", "3 segments, 5 points")
    assert (p.claimed, p.computed, p.kind) == (4, 5, "score")


def test_negative_claim():
    text = BROADWAY.replace("W 3-5@-1,-1=0", "W 3-5@-1,-1=-2")
    assert moves(text)[3]["score"] == -2
    assert_at(read1(text), "invalid", *within(text, "3-5@-1,-1=-2", "=-2"), "credited -2")


def test_claim_on_a_pass_and_on_a_draw():
    ms = moves(HORSE_ORDER)
    assert ms[1] == {"seat": "P2", "draw": True, "score": 0} and ms[9] == {"seat": "P2", "pass": True, "score": 0}


def test_hand_end_claims_are_checked():
    text = COMP.replace("end out NS 23 EW 0", "end out NS 25 EW 0")
    # At the claimed number itself, as the pointer names NS's score.
    p = assert_at(read1(text), "invalid", *within(text, "end out NS 25", "25"), "NS is claimed 25", "scores 23")
    assert p.pointer == "/hands/0/result/scores/NS"
    text = COMP.replace("end out NS 23 EW 0", "end blocked")
    # At the way of ending claimed, the word "blocked", as the pointer names the hand's end.
    p = assert_at(read1(text), "invalid", *within(text, "end blocked", "blocked"), "claimed to end 'blocked'")
    assert p.pointer == "/hands/0/result/end"


# --- comments ---------------------------------------------------------------------------------


def test_comments_on_moves_hands_and_header_with_escapes():
    text = (COMP.replace('[W "Di"]\n', '[W "Di"]\n{club night}\n')
            .replace("hand 1 lead N\n", "hand 1 lead N\n{a quiet \\} hand}\n")
            .replace("W 6-5@5-2", "W 6-5@5-2 {brace \\} and backslash \\\\ here} {and more}"))
    d = data(text)
    assert d["version"] == "1.1"  # comments need format 1.1
    assert d["event"] == {"comment": "club night"}
    assert d["hands"][0]["comment"] == "a quiet } hand"
    assert d["hands"][0]["moves"][1]["comment"] == "brace } and backslash \\ here\nand more"
    again = notation.dumps(notation.loads(text))
    assert "{a quiet \\} hand}" in again and "{brace \\} and backslash \\\\ here" in again
    assert "[Format" not in again  # 1.1 is what the content needs
    assert unstructure(notation.loads(again)) == d


def test_comment_on_the_hand_line():
    d = data(COMP.replace("hand 1 lead N\n", "hand 1 lead N {on the line}\n"))
    assert d["hands"][0]["comment"] == "on the line" and d["hands"][0]["leader"] == "N"


def test_comment_before_any_hand_after_the_header_is_the_events():
    d = data(COMP.replace('[W "Di"]\n\n', '[W "Di"]\n\n{after a blank}\n'))
    assert d["event"]["comment"] == "after a blank"


# --- tags -------------------------------------------------------------------------------------


def test_reserved_tags_are_case_insensitive():
    head = ('[GAME "competitive"]\n[event "Club"]\n[ROUND 2]\n[n "Ana"]\n[e "Bo"]\n[S "Cy"]\n[w "Di"]\n'
            '[scores "NS 23 EW 0"]\n[WINNER "NS"]\n')
    d = data(head + COMP[COMP.index("\nhand 1"):])
    assert d["game"] == "competitive" and d["event"] == {"name": "Club", "round": 2}
    assert [p["seat"] for p in d["players"]] == ["N", "E", "S", "W"]
    assert d["result"] == {"scores": {"NS": 23, "EW": 0}, "winner": "NS"}


@pytest.mark.parametrize("tag, value", [
    ("[Round 3]", 3), ("[Round -3]", -3), ("[Flag true]", True), ("[Flag false]", False), ("[Nothing null]", None),
    ("[Obj {\"a\": 1}]", {"a": 1}), ("[Handicap 1.5]", 1.5), ("[Site Paris]", "Paris"), ('[Site "Paris"]', "Paris"),
    ("[Date 2024-05-01]", "2024-05-01"), ('[Round "3"]', "3"), ('[Note "say \\"hi\\"\\n"]', 'say "hi"\n'),
])
def test_tag_values_bare_json_literals_and_text(tag, value):
    text = COMP.replace('[N "Ana"]', tag + '\n[N "Ana"]')
    d = data(text)
    key = tag[1:].split()[0].strip("[")
    key = {"Round": "round", "Site": "site", "Date": "date"}.get(key, key)
    assert d["event"] == {key: value}
    # and the writer gives a text that reads back to the same
    assert unstructure(notation.loads(notation.dumps(notation.loads(text)))) == d


def test_tag_value_bare_json_array():
    d = data(COMP.replace('[N "Ana"]', '[Seq [1,2]]\n[N "Ana"]'))
    assert d["event"] == {"Seq": [1, 2]}


def test_event_list_survives_dgn():
    record = attrs.evolve(notation.loads(COMP), event={"rounds": [1, 2]})
    assert unstructure(notation.loads(notation.dumps(record)))["event"] == {"rounds": [1, 2]}


def test_field_tag_for_keys_that_are_no_plain_tag_name():
    text = COMP.replace('[N "Ana"]', '[Field "my key" "x"]\n[Field "game" 3]\n[Field "N" {"a":1}]\n[N "Ana"]')
    d = data(text)
    assert d["event"] == {"my key": "x", "game": 3, "N": {"a": 1}}
    assert d["game"] == "competitive" and d["players"][0] == {"seat": "N", "name": "Ana"}
    written = notation.dumps(notation.loads(text))
    assert '[Field "my key" "x"]' in written and '[Field "game" 3]' in written
    assert unstructure(notation.loads(written)) == d


def test_event_keys_the_writer_must_put_in_field():
    record = attrs.evolve(notation.loads(COMP), event={"name": "x", "with space": 1, "winner": "me", "scores": 2,
                                                       "E": "seatlike", "P7": 7, "ok_key": "y", "comment": "c"})
    text = notation.dumps(record)
    assert "[Event \"x\"]" in text and "[ok_key \"y\"]" in text
    for key in ("with space", "winner", "scores", "E", "P7"):
        assert f'[Field "{key}"' in text
    assert unstructure(notation.loads(text))["event"] == record.event


def test_id_tags():
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Id "N=club-17"]\n[Id "W=x y"]')
    d = data(text)
    assert d["players"][0] == {"seat": "N", "name": "Ana", "id": "club-17"}
    assert d["players"][3] == {"seat": "W", "name": "Di", "id": "x y"}
    assert notation.dumps(notation.loads(text)) == text


def test_id_of_an_unknown_seat_and_an_id_without_equals():
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Id "Q=1"]')
    assert_at(read1(text), "unusable", *where(text, "[Id"), "[Id] names seat Q")
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Id "N"]')
    assert_at(read1(text), "unusable", *where(text, "[Id"), "[Id \\\"SEAT=id\\\"]".replace("\\", ""))


CASTLE_SEATS = (CASTLE.replace('[P1 "Ana"]\n[P2 "Bo"]', '[Seats "Ann Bob"]\n[Bob "Bo"]\n[Ann "Ana"]')
                .replace("lead P2", "lead Bob"))
CASTLE_SEATS = re.sub(r"\bP1\b", "Ann", re.sub(r"\bP2\b", "Bob", CASTLE_SEATS))


def test_seats_tag_declares_labels_in_clockwise_order():
    d = data(CASTLE_SEATS)
    assert [p["seat"] for p in d["players"]] == ["Ann", "Bob"]  # the order of [Seats], not of the tags
    assert d["players"][0]["name"] == "Ana"
    game = read1(CASTLE_SEATS)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    written = notation.dumps(game.record)
    assert '[Seats "Ann Bob"]' in written
    assert unstructure(notation.loads(written)) == d


def test_seats_tag_naming_a_seat_without_a_player():
    text = CASTLE_SEATS.replace('[Seats "Ann Bob"]', '[Seats "Ann Bob Cy"]')
    assert_at(read1(text), "unusable", *where(text, "[Seats"), "[Seats] names Cy")


def test_scores_and_winner_tags():
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Scores "NS 23 EW 0"]\n[Winner "NS"]')
    d = data(text)
    assert d["result"] == {"scores": {"NS": 23, "EW": 0}, "winner": "NS"}
    # the game is not over at 23: a claimed result is a problem, at the tag that claims it
    game = read1(text)
    assert_at(game, "invalid", *where(text, "[Scores"), "not over")


def test_winner_draw_is_null():
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Winner "draw"]')
    assert data(text)["result"] == {"winner": None}
    assert notation.loads(text).result == GameResult(winner=None)
    assert '[Winner "draw"]' in notation.dumps(notation.loads(text))


def test_scores_tag_that_is_no_list_of_pairs():
    for bad in ('[Scores "NS 23 EW"]', '[Scores "NS x"]', '[Scores "NS 1 NS 2"]'):
        text = COMP.replace('[W "Di"]', '[W "Di"]\n' + bad)
        assert_at(read1(text), "unusable", *where(text, "[Scores"), "[Scores]")


def test_format_tag_and_minimal_version():
    assert data(COMP)["version"] == "1.0"
    text = COMP.replace('[N "Ana"]', '[Format "domrec 1.1"]\n[N "Ana"]')
    assert data(text)["version"] == "1.1"
    assert '[Format "domrec 1.1"]' in notation.dumps(notation.loads(text))  # 1.1 is more than 1.0 needs
    assert "[Format" not in notation.dumps(notation.loads(COMP))
    # a header comment is the event's comment, which 1.0 holds; a hand's comment needs 1.1
    commented = COMP.replace('[N "Ana"]', '{x}\n[N "Ana"]')
    assert data(commented)["version"] == "1.0" and data(commented)["event"] == {"comment": "x"}
    commented = COMP.replace("hand 1 lead N", "hand 1 lead N {x}")
    assert data(commented)["version"] == "1.1"
    assert "[Format" not in notation.dumps(notation.loads(commented))
    text = COMP.replace('[N "Ana"]', '[format "domrec 1.0"]\n[N "Ana"]').replace("hand 1 lead N", "hand 1 lead N {c}")
    assert data(text)["version"] == "1.0"  # as written (validation then judges it)


def test_format_tag_must_name_domrec():
    text = COMP.replace('[N "Ana"]', '[Format "1.1"]\n[N "Ana"]')
    assert_at(read1(text), "unusable", *where(text, "[Format"), "domrec 1.1")


def test_variant_and_option_tags():
    text = HORSE_NAMED.replace('[P1 "Ana"]', '[Variant "standard"]\n[Option "target=61"]\n'
                                             '[Option "chain_draw=true"]\n[Option "win_check=immediate"]\n[P1 "Ana"]')
    d = data(text)
    assert d["rules"] == {"variant": "standard",
                          "options": {"target": 61, "chain_draw": True, "win_check": "immediate"}}
    assert read1(text).report.status == "valid"
    assert notation.dumps(notation.loads(text)) == text


def test_option_given_twice_or_without_equals():
    text = HORSE_NAMED.replace('[P1 "Ana"]', '[Option "target=61"]\n[Option "target=50"]\n[P1 "Ana"]')
    assert_at(read1(text), "unusable", *where(text, "[Option", 1), "given twice: first at line 2")
    text = HORSE_NAMED.replace('[P1 "Ana"]', '[Option "target"]\n[P1 "Ana"]')
    assert_at(read1(text), "unusable", *where(text, "[Option"), "name=value")


def test_seat_given_twice():
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[N "Other"]')
    assert_at(read1(text), "unusable", *where(text, '[N "Other"]'), "seat N is given twice: first at line 2")


@pytest.mark.parametrize("first, again, words", [
    ('[Event "Club night"]', '[Event "Other"]', "tag [Event] is given twice: first at line 2"),
    ('[Scores "NS 1 EW 0"]', '[Scores "NS 2 EW 0"]', "tag [Scores] is given twice: first at line 2"),
    ('[Club "Casino"]', '[Club "Other"]', "tag [Club] is given twice: first at line 2"),
    ('[Field "Club" "Casino"]', '[Club "Other"]', "tag [Club] is given twice: first at line 2"),
])
def test_a_tag_given_twice_is_said_at_the_second_naming_the_first(first, again, words):
    """The second of a tag given twice is where the problem is; the message says where the first
    was, so the typist can choose which to keep without hunting for it."""
    text = COMP.replace('[Game "competitive"]\n', f'[Game "competitive"]\n{first}\n').replace(
        '[W "Di"]', f'[W "Di"]\n{again}')
    game = read1(text)
    p = assert_at(game, game.report.status, *where(text, again), words)
    assert p.text().count("line 2") == 1


# --- bad input: each one line at its line:column, status and exit code --------------------------

BAD = {
    # name: (text, needle that marks the spot (or (line, col)), status, words)
    "syntax error": (COMP.replace("S 4-2@5-2", "S 4-2@@5-2"), "4-2@@5-2", "unusable", ["is not a move of competitive"]),
    "unknown tag typo": (COMP.replace('[W "Di"]', '[W "Di"]\n[Scroes "NS 1 EW 0"]'), "[Scroes", "unusable",
                         ["unknown tag [Scroes]", "did you mean [Scores]?"]),
    "winner typo": (COMP.replace('[W "Di"]', '[W "Di"]\n[Winer "NS"]'), "[Winer", "unusable",
                    ["did you mean [Winner]?"]),
    "seat not in the header (deal)": (COMP.replace("deal W", "deal X"), "X 4-1", "unusable",
                                      ["'X' is not a seat of this game (seats: N E S W)"]),
    "seat not in the header (move)": (COMP.replace("N 6-6@6-4", "Q 6-6@6-4"), "Q 6-6", "unusable",
                                      ["Q is not a seat of this game"]),
    "seat not in the header (lead)": (COMP.replace("hand 1 lead N", "hand 1 lead Z"), "Z\n", "unusable",
                                      ["'Z' is not a seat"]),
    "tile that is no tile (syntax)": (COMP.replace("S 4-2@5-2", "S 4-x@5-2"), "4-x@5-2", "unusable",
                                      ["'4-x@5-2' is not a move"]),
    "tile that is no tile (deal word)": (COMP.replace("deal N 6-3", "deal N 6-y"), "6-y", "unusable",
                                         ["'6-y' is not a tile", "deal N"]),
    "tile not of the set": (COMP.replace("deal N 6-3", "deal N 7-3"), "7-3", "invalid",
                            ["7-3 is not a tile of the double-six set"]),
    "unclosed comment": (COMP.replace("S 4-2@5-2", "S 4-2@5-2 {forgot"), "{forgot", "unusable",
                         ["a comment is not closed"]),
    "stray close brace": (COMP.replace("S 4-2@5-2", "S 4-2@5-2 }"), "} E", "unusable", ["} closes no comment"]),
    "unclosed tag": (COMP.replace('[E "Bo"]', '[E "Bo"'), '[E "Bo"', "unusable", ["a tag is not closed"]),
    "play on a tile not at an end": (COMP.replace("E 6-4@4-2", "E 6-4@5-2"), "5-2\nN 6-6", "invalid",
                                     ["5-2 is not at an end of the line", "hand 1, move 4, E: "]),
    "illegal move": (COMP.replace("S 4-2@5-2", "S 3-3@5-2"), "3-3@5-2", "invalid",
                     ["S does not hold 3-3", "[competitive: playing from hand]"]),
    # (at the tile itself, not the left line's start: the record has no left for its pointer to name)
    "left contradicts the moves": (COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2; W 5-0 4-4 1-1\n",
                                   "1-1\n", "invalid", ["left W lists 1-1, but it was played in this hand"]),
    "left names a tile of no set": (COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2; W 5-0 4-4 7-7\n",
                                    "left", "invalid", ["7-7 is not a tile of the double-six set"]),
    # (a tile short: a tile played in the hand listed in a left line is said as such, above)
    "left with the wrong count": (COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2; W 5-0 4-4\n",
                                  "left", "invalid", ["left W lists 2 tiles", "W still holds 3"]),
    "left contradicts the deal": (COMP + "left W 0-0\n", "left", "invalid", None),
    "missing left": (COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3\n", "left", "invalid",
                     ["the deal is not written, so give the tiles S and W still held: left S …; W …"]),
    "missing left (one seat)": (
        HORSE_NAMED[:HORSE_NAMED.index("deal P1")] + "3-3 +5-3 5-3@3-3 5-4@5-3 3-1@3-3 3-0@3-3 5-0@3-0 4-4@5-4\n"
        "left P1 6-1 0-0 4-2 4-3 2-1; P3 4-0 6-5 2-2 6-4\nend\n", "left", "invalid",
        ["hand 1: the deal is not written, so give the tiles P2 still held: left P2 …", "[the deal]"]),
    "hands out of order": (COMP + "\nhand 3 lead N\n", "3 lead N", "unusable", ["expected hand 2, not hand 3"]),
    "no game tag": (COMP.replace('[Game "competitive"]\n', ""), (1, 1), "unusable", ["needs a [Game"]),
    "unknown game": (COMP.replace("competitive", "chess"), (1, 1), "unusable", ['unknown game "chess"']),
    "no players": (COMP_HEAD[:COMP_HEAD.index("[N")] + "\n" + COMP[COMP.index("hand 1"):], (1, 1), "unusable",
                   ["needs its players"]),
    "move before the first hand": ('[Game "competitive"]\n[N "A"]\n[E "B"]\n[S "C"]\n[W "D"]\n\n5-2\n', "5-2",
                                   "unusable", ["expected a tag or the first hand"]),
    "move after end": (COMP + "N 5-5\n", "N 5-5\n", "unusable", ["a move after the hand's end line"]),
    "deal after the moves": (COMP.replace("end out", "deal N 6-6\nend out"), "deal N 6-6\n", "unusable",
                             ["deal comes before the hand's moves"]),
    "seat without a move": (COMP.replace("N 5-5@5-3\n", "N 5-5@5-3 W\n"), "W\nend", "unusable",
                            ["seat W is not followed by a move"]),
    "semicolon between moves": (COMP.replace("N 5-5@5-3", "N 5-5@5-3;"), ";", "unusable",
                                ["; separates the seats of a deal"]),
    # A road move written nearly right is told what it lacks, in notation the player can copy.
    "starter without its half": (ROADS_BRIDGE.replace("s6-2@NS1/2", "s6-2@NS1"), "s6-2@NS1", "unusable",
                                 ["a road's starter says the half it is built from: s6-2@NS1/6 or s6-2@NS1/2"]),
    "double starter without its half": (ROADS_BRIDGE.replace("s4-4@NS2/4", "s4-4@NS2"), "s4-4@NS2", "unusable",
                                        ["a road's starter says the half it is built from: s4-4@NS2/4"]),
    "bridge without spans": (ROADS_BRIDGE.replace("b0-0@NS1/1/6+NS2/1/4", "b0-0@NS1+NS2"), "b0-0@NS1+NS2",
                             "unusable", ["a bridge says, for each road, the span and the half it joins: "
                                          "b0-0@NS1/2/6+NS2/1/4"]),
}


def _spot(text: str, needle) -> tuple[int, int]:
    return needle if isinstance(needle, tuple) else where(text, needle)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_is_reported_at_its_line_and_column(name):
    text, needle, status, words = BAD[name]
    game = read1(text)
    line, col = _spot(text, needle)
    if words is None:  # a known deal and a wrong left: the left line's seat or the line itself
        assert game.report.status == status and only_problem(game).line == line
        return
    assert_at(game, status, line, col, *words)


@pytest.mark.parametrize("name", sorted(BAD))
def test_bad_input_through_the_command_is_one_line_with_its_exit_code(tmp_path, name):
    text, needle, status, _ = BAD[name]
    path = tmp_path / "game.dgn"
    path.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert r.exit_code == {"invalid": 1, "unusable": 2}[status], r.output
    assert "Traceback" not in r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith(f"{path}: {status.upper()}")
    line, col = _spot(text, needle)
    assert lines[1].startswith(f"  {line}:{col}: "), r.stdout


def test_latin1_text_is_refused_where_the_first_bad_byte_is():
    raw = COMP.replace('[N "Ana"]', '[N "Jos\u00e9"]').encode("latin-1")
    game = read1(raw)
    assert_at(game, "unusable", 2, 8, "the text is not UTF-8 (byte 0xE9); save the file as UTF-8")
    # the same text in UTF-8 reads
    assert data(COMP.replace('[N "Ana"]', '[N "Jos\u00e9"]').encode("utf-8"))["players"][0]["name"] == "Jos\u00e9"


def test_unknown_tag_typo_by_transposition():
    text = COMP.replace("[Game", "[Gmae")
    assert_at(read1(text), "unusable", 1, 1, "unknown tag [Gmae]", "did you mean [Game]?")


def test_typo_check_of_tag_names():
    assert header._near("Gmae", ("game",)) == "game"  # two letters swapped
    assert header._near("Winer", ("winner",)) == "winner"  # one letter dropped from a long name
    assert header._near("Venue", ("game", "site")) is None
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[Rounds 3]\n[Name "x"]')
    assert data(text)["event"] == {"Rounds": 3, "Name": "x"}  # real words, not typos


def test_a_long_tag_name_is_not_compared_letter_by_letter_with_every_reserved_name(monkeypatch):
    """A tag name far longer than any reserved name is no typo of one: its letters are not weighed
    against each (a table's phone posting ``[`` and 8,000 letters held the venue's one thread for
    seconds, the edit distance being worked out in full for every reserved name, and again at each
    reading of the request)."""
    sizes = []
    real = header._distance

    def counted(a, b):
        sizes.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(header, "_distance", counted)
    assert header._near("x" * 5000, ("game", "variant", "option")) is None
    assert header._near("Gmae", ("game",)) == "game"
    assert header._near("Winer", ("winner",)) == "winner"
    assert sizes and all(abs(a - b) <= 2 for a, b in sizes), sizes[:3]
    text = COMP.replace('[W "Di"]', '[W "Di"]\n[' + "Optoin" * 500 + ' "x"]')
    sizes.clear()
    read1(text)
    assert all(abs(a - b) <= 2 for a, b in sizes)


def test_seat_followed_by_a_seat_is_a_seat_without_a_move():
    text = COMP.replace("N 5-2 W", "N W")
    assert_at(read1(text), "unusable", *where(text, "N W"), "seat N is not followed by a move")


def test_seat_followed_by_a_seat_is_unusable_on_its_line():
    text = COMP.replace("N 5-2 W", "N W")
    game = read1(text)
    assert game.report.status == "unusable" and only_problem(game).line == where(text, "N W")[0]


def test_loads_raises_notation_error_with_position_and_rule_violation():
    with pytest.raises(notation.NotationError) as e:
        notation.loads(BAD["syntax error"][0])
    assert (e.value.line, e.value.column) == where(BAD["syntax error"][0], "4-2@@5-2")
    assert str(e.value).startswith(f"{e.value.line}:{e.value.column}: ")
    with pytest.raises(InputError, match="2 games"):
        notation.loads(COMP + "\n" + COMP)


def test_loads_raises_when_reading_through_the_rules_stops_at_a_problem():
    with pytest.raises(RuleViolation, match="does not hold 3-3"):
        notation.loads(COMP_HEAD + COMP_DEAL + "5-2 3-3@5-2\n")


# --- the deal left out --------------------------------------------------------------------------


def test_deal_inferred_from_the_moves_and_left():
    text = COMP_HEAD + COMP_OPEN_MOVES + COMP_LEFT + "end\n"
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    d = unstructure(game.record)
    expected = data(COMP)
    assert sorted(map(sorted, d["hands"][0]["deal"]["hands"].values())) == \
        sorted(map(sorted, expected["hands"][0]["deal"]["hands"].values()))
    assert [m.get("play") for m in d["hands"][0]["moves"]] == [m.get("play") for m in expected["hands"][0]["moves"]]
    assert game.report.scores == {"NS": 23, "EW": 0}


def test_horse_race_deal_inferred_with_every_seat_that_holds_tiles_given():
    text = BAD["missing left (one seat)"][0].replace("; P3", "; P2 5-5 3-2 6-2 6-0 1-1; P3")
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert game.report.scores == {"P1": 0, "P2": 0, "P3": 0, "P4": 23}
    deal = plain(game.record)["hands"][0]["deal"]
    assert sorted(deal["hands"]["P4"]) == sorted(["3-0", "5-0", "3-1", "4-4", "5-4"])  # P4 went out: none left
    assert plain(game.record)["hands"][0]["moves"][1] == {"seat": "P3", "draw": "5-3"}  # no claim typed


def test_one_seats_left_may_be_left_out_where_the_whole_set_is_dealt():
    text = COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2\n"
    assert read1(text).report.status == "valid"


def test_last_hand_without_deal_or_left_is_being_recorded():
    text = COMP_HEAD + "5-2 6-5@5-2 4-2@5-2\n"
    game = read1(text)
    assert game.report.status == "valid" and not game.report.finished
    assert "still being played" in game.report.note
    assert "deal" not in unstructure(game.record)["hands"][0]


def test_moves_without_deal_are_checked_as_far_as_shown_tiles_allow():
    text = COMP_HEAD + "5-2 6-5@5-2 5-2@6-5\n"  # 5-2 already played
    game = read1(text)
    assert game.report.status == "invalid"
    assert only_problem(game).line == where(text, "5-2@6-5")[0]
    assert only_problem(game).column == where(text, "5-2@6-5")[1]


# --- archives -----------------------------------------------------------------------------------


def test_archive_is_split_into_games_labelled_by_their_first_line():
    archive = COMP + "\n" + BROADWAY + "\n" + CASTLE
    found = list(notation.read_games(archive, "club.dgn"))
    assert [g.report.source for g in found] == ["club.dgn:1", f"club.dgn:{COMP.count(chr(10)) + 2}",
                                                f"club.dgn:{COMP.count(chr(10)) + BROADWAY.count(chr(10)) + 3}"]
    assert [g.first_line for g in found] == [1, COMP.count("\n") + 2, COMP.count("\n") + BROADWAY.count("\n") + 3]
    assert [g.record.game for g in found] == ["competitive", "broadway", "castle-rock"]
    assert all(g.report.status == "valid" for g in found)


def test_a_single_game_is_labelled_by_the_file_alone():
    assert read1(COMP, "one.dgn").report.source == "one.dgn"


def test_a_blank_line_inside_the_header_does_not_start_a_game():
    text = COMP.replace('[E "Bo"]\n', '[E "Bo"]\n\n')
    assert data(text) == data(COMP)


def test_tag_after_hands_without_a_blank_line_is_an_error():
    text = COMP + '[Game "competitive"]\n'
    assert_at(read1(text), "unusable", *where(text, '[Game "competitive"]', 1), "a tag must come before the first hand")


def test_archive_problems_are_positioned_in_the_whole_file_and_others_still_checked():
    bad_names = ["syntax error", "unknown tag typo", "seat not in the header (deal)", "unclosed comment",
                 "unclosed tag", "play on a tile not at an end", "left contradicts the moves", "missing left",
                 "tile not of the set"]
    parts: list[bytes] = []
    expected = []  # (first line, status, line, col)
    line_no = 1
    for name in bad_names:
        text, needle, status, _ = BAD[name]
        if parts:
            parts.append(b"\n")
            line_no += 1
        l, c = _spot(text, needle)
        expected.append((line_no, status, line_no + l - 1, c))
        parts.append(text.encode() if text.endswith("\n") else (text + "\n").encode())
        line_no += text.count("\n") if text.endswith("\n") else text.count("\n") + 1
        parts.append(b"\n" + COMP.encode())
        expected.append((line_no + 1, "valid", None, None))
        line_no += 1 + COMP.count("\n")
    parts.append(b"\n" + COMP.replace('[N "Ana"]', '[N "Jos\u00e9"]').encode("latin-1"))
    expected.append((line_no + 1, "unusable", line_no + 2, 8))
    found = list(notation.read_games(b"".join(parts), "arch.dgn"))
    assert len(found) == len(expected)
    for game, (first, status, line, col) in zip(found, expected):
        assert game.report.source == f"arch.dgn:{first}"
        assert game.report.status == status, (first, [p.text() for p in game.report.problems])
        if line is not None:
            p = only_problem(game)
            assert (p.line, p.column) == (line, col), (first, p.text())


def test_archive_through_the_command(tmp_path):
    path = tmp_path / "arch.dgn"
    bad = BAD["illegal move"][0]
    path.write_text(COMP + "\n" + bad + "\n" + BAD["unclosed comment"][0], encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 2
    out = r.stdout.splitlines()
    second = COMP.count("\n") + 2
    third = second + bad.count("\n") + 1
    assert out[0].startswith(f"{path}:1: valid competitive")
    assert out[1] == f"{path}:{second}: INVALID (1 problem)"
    l, c = where(bad, "3-3@5-2")
    assert out[2].startswith(f"  {second + l - 1}:{c}: hand 1, move 3, S: ")
    r = runner.invoke(app, ["validate", "-v", str(path)])  # -v: the pointer too, for a program
    assert r.stdout.splitlines()[2].startswith(f"  {second + l - 1}:{c}: /hands/0/moves/2/play (hand 1, move 3, S): ")
    assert out[3].startswith("  note: replay stopped at move 3 of hand 1, so the rest of that hand was not checked")
    assert out[4] == f"{path}:{third}: UNUSABLE (1 problem)"
    l, c = where(BAD["unclosed comment"][0], "{forgot")
    assert out[5] == f"  {third + l - 1}:{c}: hand 1: a comment is not closed: it starts here with {{ and has no }}"
    assert "3 records: 1 valid, 1 invalid, 1 unusable" in r.stderr


# --- BOM, line ends -----------------------------------------------------------------------------


def test_bom_is_skipped():
    assert data(b"\xef\xbb\xbf" + COMP.encode()) == data(COMP)
    bad = BAD["unknown tag typo"][0]
    game = read1(b"\xef\xbb\xbf" + bad.encode())
    assert_at(game, "unusable", *where(bad, "[Scroes"))
    first_line = BAD["syntax error"][0]
    game = read1(("\ufeff" + first_line).encode())
    assert_at(game, "unusable", *where(first_line, "4-2@@5-2"))


def test_bom_in_an_archive_keeps_the_labels():
    found = list(notation.read_games(b"\xef\xbb\xbf" + (COMP + "\n" + COMP).encode(), "a.dgn"))
    assert [g.report.source for g in found] == ["a.dgn:1", f"a.dgn:{COMP.count(chr(10)) + 2}"]


def test_crlf_line_ends():
    assert data(COMP.replace("\n", "\r\n").encode()) == data(COMP)
    bad = BAD["syntax error"][0]
    assert_at(read1(bad.replace("\n", "\r\n")), "unusable", *where(bad, "4-2@@5-2"))



def test_lines_ended_by_a_carriage_return_alone_as_an_old_mac_saved_them(tmp_path):
    # was "1:1: a tag is not closed": the whole text one line
    assert data(COMP.replace("\n", "\r").encode()) == data(COMP)
    bad = BAD["syntax error"][0]
    assert_at(read1(bad.replace("\n", "\r")), "unusable", *where(bad, "4-2@@5-2"))
    found = list(notation.read_games((COMP + "\n" + COMP).replace("\n", "\r"), "a.dgn"))
    assert [g.report.source for g in found] == ["a.dgn:1", f"a.dgn:{COMP.count(chr(10)) + 2}"]
    assert all(g.report.status == "valid" for g in found)
    # a lone one among CRLF line ends ends its line too, as an editor shows it
    assert data(COMP.replace("\n", "\r\n").replace("\r\nhand 1", "\rhand 1").encode()) == data(COMP)
    path = tmp_path / "mac.dgn"
    path.write_bytes(COMP.replace("\n", "\r").encode())
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 0 and "mac.dgn: valid competitive" in r.output, r.output


# --- the writer ---------------------------------------------------------------------------------


def test_writer_refuses_a_seat_label_dgn_cannot_hold():
    record = notation.loads(CASTLE_SEATS)
    odd = attrs.evolve(record, players=(attrs.evolve(record.players[0], seat="two words"), record.players[1]))
    with pytest.raises(notation.WriteError, match="cannot be written in DGN"):
        notation.dumps(odd)
    keyword = attrs.evolve(record, players=(attrs.evolve(record.players[0], seat="deal"), record.players[1]))
    with pytest.raises(notation.WriteError):
        notation.dumps(keyword)


def test_writer_breaks_move_lines_when_the_first_seat_comes_round_and_at_twelve_moves():
    for text in CANONICAL.values():
        for line in text.splitlines():
            words = line.split()
            if words and words[0] in ("N", "E", "S", "W", "P1", "P2", "P3", "P4") and not line.startswith("deal"):
                assert len(words) <= 24


def test_typed_writer_leaves_out_seats_claims_and_forced_passes():
    record = notation.loads(COMP)
    typed = notation.dumps_typed(record)
    played = typed[typed.index("\n5-2 "):typed.index("\nend")]
    assert COMP_TYPED_MOVES.split() == played.split()  # no seats, no claims, no forced passes
    open_ = notation.dumps_typed(record, keep_deal=False)
    assert "deal" not in open_ and COMP_LEFT.strip() in open_
    for text in (typed, open_):
        game = read1(text)
        assert game.report.status == "valid" and game.report.scores == {"NS": 23, "EW": 0}


def test_pass_move_types_are_read_as_record_classes():
    record = notation.loads(COMP)
    assert isinstance(record.hands[0].moves[5], Pass) and isinstance(record.hands[0].moves[0], Play)
    assert isinstance(notation.loads(CASTLE).hands[0].moves[1], Draw)
    assert isinstance(notation.loads(CASTLE).hands[0].moves[3], Capture)
    assert isinstance(notation.loads(BROADWAY).hands[0].moves[4], Exposed)
    assert isinstance(notation.loads(ROADS_BRIDGE).hands[0].moves[0], Roll)
    assert any(isinstance(m, Reuse) for m in notation.loads(ROADS_REUSE).hands[0].moves)


# --- the public parts of a deal: lead draw, redeals ----------------------------------------------

REDEAL = ("redeal W N 6-5 6-4 6-3 6-2 6-1 6-0 5-5; E 5-4 5-3 5-2 5-1 5-0 4-3 4-2; S 4-1 4-0 3-2 3-1 3-0 2-1 6-6; "
          "W 0-0 1-1 2-2 3-3 4-4 2-0 1-0\n")


def test_leaddraw_and_redeal_lines():
    text = COMP.replace("hand 1 lead N\n", "hand 1 lead N\nleaddraw N 6-5; E 2-1; S 4-3; W 5-1\n" + REDEAL)
    game = read1(text)
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    deal = plain(game.record)["hands"][0]["deal"]
    assert deal["lead_draw"] == {"N": "6-5", "E": "2-1", "S": "4-3", "W": "5-1"}
    assert deal["redeals"] == [{"seat": "W", "hands": {
        "N": ["6-5", "6-4", "6-3", "6-2", "6-1", "6-0", "5-5"],
        "E": ["5-4", "5-3", "5-2", "5-1", "5-0", "4-3", "4-2"],
        "S": ["4-1", "4-0", "3-2", "3-1", "3-0", "2-1", "6-6"],
        "W": ["0-0", "1-1", "2-2", "3-3", "4-4", "2-0", "1-0"]}}]
    assert notation.dumps(game.record) == text
    # the typed forms keep them
    for keep_deal in (True, False):
        typed = notation.dumps_typed(game.record, keep_deal=keep_deal)
        assert "leaddraw N 6-5; E 2-1; S 4-3; W 5-1" in typed
        back = read1(typed)
        assert back.report.status == "valid"
        assert plain(back.record)["hands"][0]["deal"]["lead_draw"] == deal["lead_draw"]


def test_leaddraw_that_names_another_leader_is_a_problem():
    text = COMP.replace("hand 1 lead N\n", "hand 1 lead N\nleaddraw N 1-0; E 2-1; S 6-6; W 5-1\n")
    assert_at(read1(text), "invalid", *where(text, "N\nleaddraw"), "N cannot lead this hand: S drew 6-6")


def test_leaddraw_with_two_tiles_for_a_seat():
    text = COMP.replace("hand 1 lead N\n", "hand 1 lead N\nleaddraw N 6-5 6-4; E 2-1\n")
    assert_at(read1(text), "unusable", *where(text, "N 6-5 6-4"), "leaddraw gives one tile per seat")


def test_deal_line_with_several_seats_and_dash_for_none():
    one_line = "deal " + "; ".join(COMP_DEAL.replace("deal ", "").strip().split("\n")) + "\n"
    assert data(COMP.replace(COMP_DEAL, one_line)) == data(COMP)
    text = CASTLE.replace("deal P1 3-0 4-3\n", "deal P1 -\n")
    game = read1(text)  # P1 is dealt nothing: a deal problem, read all the same
    assert_at(game, "invalid", *where(text, "P1 -"), "P1 was dealt 0 tiles")
    assert plain(game.record)["hands"][0]["deal"]["hands"]["P1"] == []


# --- an illegal move: where, and what it kept from being checked ---------------------------------

TYPED = TYPED_HAND + "end out NS 14 EW 0\n"


def test_an_illegal_typed_move_is_reported_at_its_field_and_its_hand_rest_is_said_unchecked():
    assert read1(TYPED).report.valid
    on = TYPED.replace("4-1 6-1", "4-1 6-1@5-5")  # 5-5 is no end of the line
    p = assert_at(read1(on), "invalid", *within(on, "6-1@5-5", "5-5"), "5-5 is not at an end")
    assert p.pointer == "/hands/0/moves/10/on"
    assert read1(on).report.note == ("replay stopped at move 11 of hand 1, so the rest of that hand was not "
                                     "checked: 14 moves and its claimed result (only its tiles were: played "
                                     "twice, not of the set, also in left)")
    seat = TYPED.replace("4-0 4-1 6-1", "4-0 4-1 W 6-1")  # N's turn
    p = assert_at(read1(seat), "invalid", *where(seat, "W 6-1"), "it is N's turn, not W's")
    assert p.pointer == "/hands/0/moves/10/seat"


def test_a_seat_typed_at_the_end_of_a_line_is_found_there():
    text = TYPED.replace("4-0 4-1 6-1", "4-0 4-1 W\n6-1")
    p = assert_at(read1(text), "invalid", *where(text, "W\n6-1"), "not W's")
    assert p.pointer == "/hands/0/moves/10/seat"


# --- the canonical reader's shortcuts refuse what they cannot vouch for --------------------------


def test_a_seat_move_pair_cached_for_other_seats_is_not_a_move_here():
    """The canonical "SEAT move" pairs are cached across games; a game whose seats differ
    must not take a pair of a seat it does not have from there."""
    three = CASTLE.replace('[P2 "Bo"]', '[P2 "Bo"]\n[P3 "Cy"]').replace("P2 1-1 P2 +", "P3 1-1 P3 +")
    for _ in range(2):  # the second reading takes the pairs from the cache
        read1(three)
    two = CASTLE.replace("P2 1-1 P2 +", "P3 1-1 P3 +")
    assert_at(read1(two), "unusable", *where(two, "P3 1-1"), "P3 is not a seat of this game (seats: P1 P2)")


@pytest.mark.parametrize("hand_line", ["hand 1 lead Z", "hand  1 lead\tZ", " hand 1  lead Z "])
def test_a_keyword_line_spaced_any_way_is_located_the_same(hand_line):
    """Lines written one space apart are split by offsets summed; others by searching: both
    point at the same word."""
    text = COMP.replace("hand 1 lead N", hand_line)
    assert_at(read1(text), "unusable", *where(text, "Z"), "'Z' is not a seat")


@pytest.mark.parametrize("end_line", ["end out NS 24 EW 0", "end out  NS 24\tEW 0", "end  out NS  24 EW 0 "])
def test_a_wrong_claim_on_an_end_line_is_pointed_at_its_number_however_spaced(end_line):
    text = COMP.replace("end out NS 23 EW 0", end_line)
    game = read1(text)
    assert game.report.status == "invalid"
    p = only_problem(game)
    assert (p.line, p.column) == where(text, "24"), p.text()


def test_a_deal_line_read_by_the_fast_path_locates_each_tile():
    text = COMP.replace("deal S 2-2 6-0", "deal S 2-2 7-0")
    assert_at(read1(text), "invalid", *where(text, "7-0"), "7-0 is not a tile of the double-six set")
    spaced = COMP.replace("deal S 2-2 6-0", "deal  S 2-2\t 7-0")
    assert_at(read1(spaced), "invalid", *where(spaced, "7-0"), "7-0 is not a tile of the double-six set")


def _split_games_line_by_line(data: bytes) -> list[notation.Chunk]:
    """The games of a DGN text as the rule says it, a line at a time (what split_games's regexes must match)."""
    bom = 3 if data.startswith(b"\xef\xbb\xbf") else 0
    data = data[bom:]
    lines = data.split(b"\n")
    chunks: list[notation.Chunk] = []
    start, seen_body, blank_before = 0, False, True
    at = lambda k: bom + sum(len(x) + 1 for x in lines[:k])  # noqa: E731 (the byte line k starts at)
    for k, line in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith(b"[") and blank_before and seen_body:
            chunks.append(notation.Chunk(start + 1, b"\n".join(lines[start:k]), offset=at(start)))
            start, seen_body = k, False
        if stripped and not stripped.startswith(b"["):
            seen_body = True
        blank_before = not stripped
    chunks.append(notation.Chunk(start + 1, b"\n".join(lines[start:]), offset=at(start)))
    return [c for c in chunks if c.data.strip()] or chunks[:1]


_SPLIT_LINES = [b'[Game "competitive"]', b'  [N "Ana"]', b"", b"  ", b"\t", b"\r", b" \x0b", b"hand 1", b"N 6-6",
                b"x [", b"[", b"\xef\xbb\xbf[G]", b"end out NS 1 EW 0\r"]


@settings(max_examples=400, deadline=None)
@given(st.booleans(), st.lists(st.sampled_from(_SPLIT_LINES), max_size=14))
def test_split_games_finds_the_games_the_line_by_line_rule_finds(bom, lines):
    data = (b"\xef\xbb\xbf" if bom else b"") + b"\n".join(lines)
    assert notation.split_games(data) == _split_games_line_by_line(data)


@pytest.mark.parametrize("sample", ["broadway/sample-hand.json", "competitive/domino.json",
                                    "domino-roads/simulated-game-4-players.json"])
def test_a_comment_on_one_game_s_move_stays_off_the_same_move_in_the_next_game(sample):
    # The reader shares one data object among the moves written alike (in any game of a run):
    # a comment must change only its own move, and a Broadway placement completed by the seat
    # must not change the shared data either.  Each text is read plain (its lines split whole)
    # and with a comment elsewhere (read token by token), since the two share differently.
    from pathlib import Path

    from domrec.reader import load

    path = Path("samples/valid") / sample
    text = notation.dumps(load(path))
    lines = text.splitlines()
    first_moves = next(i for i, line in enumerate(lines) if re.match(r"(N|E|S|W|P[0-9]) ", line))
    hand_line = next(i for i, line in enumerate(lines) if line.startswith("hand 1"))

    def with_line(at: int, extra: str) -> str:
        return "\n".join(lines[:at] + [extra] + lines[at:]) + "\n"

    commented = with_line(first_moves + 1, "{said at the table}")
    tokenized = with_line(hand_line + 1, "{the hand's own comment}")
    plain = notation.loads(text)
    games = list(notation.read_games("\n".join([text, commented, tokenized, commented, text, tokenized])))
    assert all(g.report.valid for g in games)
    assert games[0].record == plain and games[4].record == plain
    for said in (games[1], games[3]):
        assert [m.comment for m in said.record.hands[0].moves if m.comment is not None] == ["said at the table"]
    for other in (games[2], games[5]):
        assert [m.comment for h in other.record.hands for m in h.moves if m.comment is not None] == []
        assert other.record.hands[0].moves == plain.hands[0].moves


def test_a_first_hand_without_its_leader_says_so_in_its_own_words():
    """Horse Race's first leader is drawn by lot: a hand 1 that names none, which either seat's
    lead makes legal, is asked about at its hand line (who led is part of what happened), in the
    hand's own words (never "the play of hand 0", which no game has)."""
    game = read1('[Game "horse-race"]\n[P1 "a"]\n[P2 "b"]\n\nhand 1\n6-6 6-5\n')
    assert [(p.line, p.column, p.rule) for p in game.report.problems] == [(5, 1, "DGN: what may be left out")]
    message = game.report.problems[0].message
    assert message.startswith("whose lead is it? the hand names no leader, and P1 and P2 could each have led it")
    assert "hand 0" not in message


# --- a deal's problem at the line and word that hold it ------------------------------------------

_DEALT = Path(__file__).resolve().parent.parent / "samples" / "valid" / "competitive" / "deal-written-passes-left-out.dgn"


@pytest.mark.parametrize("change, word, nth, shift, words", [
    (("deal S 2-2 1-1 5-3 3-0 6-0 5-0 4-4", "deal S 2-2 1-1 5-3 3-0 6-0 5-0"), "deal S", 0, 5, "S was dealt 6 tiles"),
    (("leaddraw N 3-3; E 2-1", "leaddraw N 3-3; E 3-3"), "3-3", 1, 0, "3-3 is drawn twice"),
    (("hand 1\n", "hand 1 lead E\n"), "lead E", 0, 5, "E cannot lead"),
], ids=["a seat dealt too few", "a tile drawn twice", "a lead the draw refuses"])
def test_a_deal_the_rules_refuse_is_placed_at_its_line(change, word, nth, shift, words):
    """A hand whose deal (or lead) the rules refuse when it starts: the problem at the seat of its
    deal line, at the lead draw's tile, at the lead's seat; not at the hand line's first column,
    where the old reader placed every such problem."""
    text = _DEALT.read_text().replace(*change)
    line, column = where(text, word, nth)
    assert_at(read1(text), "invalid", line, column + shift, words)


# --- look-alike characters: which one, in one problem ----------------------------------------------

_TYPED = COMP_HEAD + COMP_TYPED_MOVES + "end\n"


@pytest.mark.parametrize("text, needle, said", [
    # A seat typed with a Cyrillic Е, on the hand line, in a left line and before a move.
    (COMP.replace("hand 1 lead N", "hand 1 lead \u0415"), "\u0415",
     "'\u0415' (Cyrillic) looks like E but is another letter: type E"),
    (COMP_HEAD.replace(" lead N", "") + COMP_OPEN_MOVES + COMP_LEFT.replace("left E", "left \u0415"), "\u0415",
     "'\u0415' (Cyrillic) looks like E but is another letter: type E"),
    (COMP.replace("E 6-4@4-2", "\u0415 6-4@4-2"), "\u0415",
     "'\u0415' (Cyrillic) looks like E but is another letter: type E"),
    # A tile in full-width digits.
    (_TYPED.replace("5-2 6-5@5-2", "\uff15-\uff13 6-5@5-2", 1), "\uff15",
     "'\uff15-\uff13': its '\uff15' (full-width) looks like 5 but is another digit: type 5-3"),
    # A tag's name with a Cyrillic а (said at its tag, as a tag's every problem): the game's tag
    # (the game cannot be read), the event's, a seat's.
    (COMP.replace("[Game", "[G\u0430me"), "[G\u0430me",
     "'G\u0430me': its '\u0430' (Cyrillic) looks like a but is another letter: type Game"),
    (COMP.replace('[N "Ana"]', '[Ev\u0435nt "Club"]\n[N "Ana"]'), "[Ev\u0435nt",
     "'Ev\u0435nt': its '\u0435' (Cyrillic) looks like e but is another letter: type Event"),
    (COMP.replace('[E "Bo"]', '[\u0415 "Bo"]'), "[\u0415",
     "'\u0415' (Cyrillic) looks like E but is another letter: type E"),
    # A keyword: the hand line before the first hand (full tokenizer), a later hand, a deal line.
    (COMP.replace("hand 1 lead N", "h\u0430nd 1 lead N"), "h\u0430nd",
     "'h\u0430nd': its '\u0430' (Cyrillic) looks like a but is another letter: type hand"),
    (COMP_HEAD + "end out NS 20\n\nh\u0430nd 2\nend out EW 30\n", "h\u0430nd",
     "'h\u0430nd': its '\u0430' (Cyrillic) looks like a but is another letter: type hand"),
    (COMP.replace("deal E", "d\u0435al E"), "d\u0435al",
     "'d\u0435al': its '\u0435' (Cyrillic) looks like e but is another letter: type deal"),
])
def test_a_look_alike_character_is_named_in_one_problem(text, needle, said):
    """``left Е 3-3`` (Cyrillic Е) said ``'Е' is not a seat of this game (seats: N E S W)``, which
    shows the reader the very E it lists; ``５-３`` was no move, ``[Gаme …]`` no tag name (a letter,
    then letters…: every character is one), and ``hаnd 1`` gave 30 problems, one a word of the
    game.  Now one problem, at the word, naming the character, what it looks like, and what to type."""
    game = read1(text)
    assert game.report.status == "unusable"
    assert len(game.report.problems) == 1, [p.text() for p in game.report.problems]
    p = game.report.problems[0]
    assert p.text().endswith(said), p.text()
    assert (p.line, p.column) == where(text, needle), p.text()


@pytest.mark.parametrize("typed, meant", [("6-O", "6-0"), ("O-O", "0-0"), ("6-o", "6-0"), ("6-O@6-5", "6-0@6-5")])
def test_the_letter_o_typed_for_a_zero_is_named(typed, meant):
    """The letter O for a zero, the commonest slip on a sheet, was "'6-O' is not a move of
    competitive (see docs/notation.md)": now it says so, and what was meant, still refused (the
    reader never guesses a tile); a word that would not be read with zeros keeps its refusal."""
    text = _TYPED.replace("5-2 6-5@5-2", f"{typed} 6-5@5-2", 1)
    game = read1(text)
    assert game.report.status == "unusable" and len(game.report.problems) == 1
    p = game.report.problems[0]
    assert p.text().endswith(f"'{typed}' is not a move of competitive: it has the letter O where a zero is meant; "
                             f"did you mean {meant}?"), p.text()
    assert (p.line, p.column) == where(text, typed), p.text()
    other = read1(_TYPED.replace("5-2 6-5@5-2", "Oops 6-5@5-2", 1)).report.problems[0]
    assert other.text().endswith("'Oops' is not a move of competitive (see docs/notation.md)"), other.text()


def test_a_misnumbered_hand_with_nothing_after_its_error_gets_no_note_of_moves_checked():
    """A score sheet's hand numbered 3 after hand 1: the problem says so, and a note followed it
    saying hand 2 "was checked by the rules only up to its first notation error, and after it only
    for tiles played twice…", of a hand with no move to check.  A hand with moves after its error
    keeps the note."""
    head = '[Game "competitive"]\n[N "A"]\n[E "B"]\n[S "C"]\n[W "D"]\n\n'
    game = read1(head + "hand 1\nend blocked NS 10\n\nhand 3\nend blocked EW 12\n")
    assert [p.text() for p in game.report.problems] == [
        "10:6: hand 2: hands are numbered in order: expected hand 2, not hand 3"]
    assert "checked by the rules only up to" not in (game.report.note or ""), game.report.note
    for after in ("N 6-6 W 6-x S 6-4 E 6-3\n", "N 6-6 W 6-x\nleft N 6-6\n"):  # (a move, or a left line, after it)
        broken = read1(head + "hand 1 lead N\n" + after)
        assert "hand 1 was checked by the rules only up to its first notation error" in (broken.report.note or ""), after


def test_a_word_that_is_no_plain_word_keeps_its_refusal():
    """Only a word the reader would take, typed with look-alikes, is told so: ``Ж`` is no seat
    however it is drawn, and ``Еx`` (Cyrillic Е) would be no seat typed plain either."""
    for seat, said in (("\u0416", "'\u0416' is not a seat of this game (seats: N E S W)"),
                       ("\u0415x", "'\u0415x' is not a seat of this game (seats: N E S W)")):
        game = read1(COMP.replace("hand 1 lead N", f"hand 1 lead {seat}"))
        assert [p.text() for p in game.report.problems] == [f"7:13: hand 1: {said}"]

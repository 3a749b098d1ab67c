"""``undo`` right after the ``left`` line that closed a hand, at a real terminal (tmux).

A hand typed without its deal closes on its ``left`` line, the deal worked out from it.  An
``undo`` there took back the hand's last move and kept that deal: typed again, the move ended the
hand on a confirmation, no ``left`` asked again, so a wrong ``left`` line could not be put right.
Now the ``undo`` takes back the ``left`` line and its deal: the hand asks for the tiles still held
again; a wrong ``left`` line (accepted: each seat's count right, no tile played) is put right.
Library tests for every game: tests/test_recorder_undo_left.py.
"""

from __future__ import annotations

import pytest

from domrec import notation
from domrec import tiles as T
from domrec.recorder import read_record
from domrec.validate import validate
from tests.in_memory import tmp_path  # noqa: F401  (files written move by move: in memory)
from tests.test_recorder_terminal import competitive, term, typed_hand  # noqa: F401  (tmux; skips without it)

pytestmark = pytest.mark.slow


def test_undo_after_the_closing_left_line_asks_for_it_again(term, tmp_path):
    record = competitive()  # hand 1 ends out: E plays 6-6, and N, S, W still hold tiles
    parts, words = typed_hand(record, 0, keep_deal=False)
    hand = notation.dumps_typed(record, keep_deal=False).split("\n\n")[1].splitlines()
    left = next(x for x in hand if x.startswith("left "))
    assert left == "left N 6-3; S 5-3; W 5-5 5-4 4-3"
    wrong = "left N 5-3; S 6-3; W 5-5 5-4 4-3"  # N and S given each other's tile: accepted all the same
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), *[f"--player={p.seat}={p.name}" for p in record.players])
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    for w in words:
        term.line(w)
    asked = "hand 1 is over: give the tiles still held, e.g. left N …; S …; W …"
    n = term.said().count(asked)
    assert n >= 1
    term.wait_prompt("hand 1>")

    term.line(wrong)
    assert "hand 1 ends out: NS 0, EW 43" in term.said()
    term.wait_prompt("hand 1's end line, or hand 2 (deal lines, or the first move)>")

    # undo takes back the left line and the deal worked out from it: the left line is asked again
    term.line("undo")
    said = term.said()
    assert "took back the left line of hand 1" in said
    assert "took back E plays 6-6" not in said  # (it took back the hand's last move, the deal kept)
    assert said.count(asked) == n + 1
    term.wait_prompt("hand 1>")
    saved = out.read_text()
    assert "deal " not in saved and "left " not in saved  # saved as before the left line: no deal

    # the next undo takes back the last move, the deal still unknown: typed again, the move asks
    # for the left line (it had closed the hand on a confirmation, with the wrong line's deal)
    term.line("undo")
    assert "took back E plays 6-6 on 6-1" in term.said()
    term.wait_prompt("hand 1, E to play>")
    term.line(words[-1])
    assert term.said().count(asked) > n + 1 and "Confirm (y)" not in term.said()
    term.wait_prompt("hand 1>")

    term.line(left)
    term.wait_prompt("hand 1's end line, or hand 2 (deal lines, or the first move)>")
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    got = read_record(out)
    assert validate(got).status == "valid" and validate(got).scores == {"NS": 0, "EW": 43}
    assert got.hands[0].moves == record.hands[0].moves
    for seat, tiles in record.hands[0].deal.hands.items():  # the right line's deal, not the wrong one's
        assert sorted(map(T.tile, got.hands[0].deal.hands[seat]), key=str) == sorted(map(T.tile, tiles), key=str)

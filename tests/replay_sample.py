"""The sample of a hand's positions that the default run opens where a test would look at every
one (the replay page's drawings compared, its texts measured, the pictures' text sizes): every
position under ``pytest --long``.  Python only, so that a test without a browser can use it too."""

from __future__ import annotations

import os
import re


#: In the default run a hand's positions are compared one in ``STRIDE`` (a different one of each
#: ``STRIDE`` in each hand), with its deal and its end, and the first position after each kind of
#: move the record holds (a play, a draw, a pass, a capture, a span, a bridge, a roll ...), scoring
#: or not: every kind of drawing, on a third of the positions, at a third of the time.  Under
#: ``pytest --long`` every position is, stepped through as before.
STRIDE = 4


def _move_kind(position) -> str | None:
    """A move's kind: its words after the player, tiles, numbers and roads left out ("plays # on #",
    "draws", "spans # onto road NS#")."""
    return re.sub(r"[-\d(),]+", "#", " ".join(position.last.split()[1:])) if position.last else None


def _sample(hands) -> dict[str, list[int]]:
    """The positions of each hand (by its number) compared in the default run (see ``STRIDE``)."""
    seen: set = set()
    wanted = {}
    for k, hand in enumerate(hands):
        chosen = []
        for i, position in enumerate(hand.positions):
            kind = (_move_kind(position), bool(position.points))
            if i in (0, len(hand.positions) - 1) or i % STRIDE == k % STRIDE or kind not in seen:
                chosen.append(i)
                seen.add(kind)
        wanted[str(hand.number)] = chosen
    return wanted


def _chosen(hands) -> dict[int, list[int]]:
    """The positions of each hand (by its number) a test looks at: :func:`_sample`'s in the
    default run, every one under ``pytest --long`` (``DOMREC_LONG_TESTS=1``)."""
    if os.environ.get("DOMREC_LONG_TESTS") == "1":
        return {hand.number: list(range(len(hand.positions))) for hand in hands}
    return {int(number): chosen for number, chosen in _sample(hands).items()}

"""How many tables, and of which sizes: every player seated at a multi-player game.

A game of three to six players (Castle Rock, Domino Roads, Horse Race…) need not leave anybody
out because the field is not a multiple of the table size: 23 players at tables of six sit
6, 6, 6, 5, not three tables of six and five byes.  :func:`table_sizes` splits a field into
the fewest tables the largest size allows, as even as the game's player counts allow (the
sizes differ by one where the counts are consecutive).  Only when no split exists (five
players of a game for three or four) does a round give byes, as it always has.  Pure: numbers
in, numbers out; the engine's counts come in through the settings.
"""

from __future__ import annotations

from collections.abc import Collection


def table_sizes(players: int, allowed: Collection[int]) -> tuple[int, ...] | None:
    """Table sizes seating exactly ``players``, largest first, or None if none exists.

    ``allowed``: the player counts the game allows at a table, the largest being the event's
    table size.  Fewest tables first (the event asked for tables as full as its size), then the
    smallest difference between the largest and the smallest table, with at most two sizes."""
    counts = sorted({c for c in allowed if c >= 1})
    if players < 1 or not counts:
        return None
    largest = counts[-1]
    fewest = -(-players // largest)
    for tables in range(fewest, players // counts[0] + 1):
        best: tuple[int, int, int] | None = None  # (spread, small, large)
        for i, small in enumerate(counts):
            for large in counts[i:]:
                if best is not None and large - small >= best[0]:
                    break
                # ``k`` tables of ``large``, the rest of ``small``: k * large + (tables - k) * small.
                extra = players - tables * small
                step = large - small
                if extra < 0 or (step == 0 and extra) or (step and (extra % step or extra // step > tables)):
                    continue
                best = (large - small, small, large)
        if best is not None:
            _, small, large = best
            k = (players - tables * small) // (large - small) if large != small else tables
            return (large,) * k + (small,) * (tables - k)
    return None

"""Duplicate movements: which pair sits where, against whom, with which boards, round by round.

Two families, as bridge clubs run them (docs/duplicate.md):

* **Mitchell**: the North-South pairs stay at their tables; after each round the East-West
  pairs move up one table and the boards down one.  With an odd number of tables every EW pair
  meets every NS pair and plays every set of boards once.  With an even number the EW pairs
  would reach boards they have played halfway round, and two cures are offered: the **relay**
  (share-and-relay: tables 1 and T share a set, and a relay stand between tables T/2 and
  T/2 + 1 holds one, so that the T sets go round T places, tables 1 … T - 1 and the stand;
  every EW pair still meets every NS pair), the default; or the **skip** (the EW pairs skip a
  table after round T/2; one round fewer, each EW pair misses one NS pair and one set).
* **Howell**: everybody moves; over 2T - 1 rounds every pair meets every other pair once and
  plays every set once (a *complete* Howell).  Pair 2T stays at table 1; the others go round by
  the circle method, and table i + 1 plays set r + f(i) in round r, with the offsets f of
  :data:`ADDERS` found by a search (tools/find_howell_adders.py): the tables of a round play
  different sets, as trays must.  No such Howell exists for 3 tables (it would be a Room square
  of side 5), nor of this form for 5; there every table plays the same set in a round (each
  table lays it out from its own slip).  Beyond 8 tables a complete Howell is too long for a
  session; the default is then a *partial* ("3/4") Howell of its first rounds, which keeps its
  promises (no pair met twice, no board played twice) and leaves some pairs unmet.

Pairs are numbered 1 … 2T: in a Mitchell NS pair t sits at table t and EW pair T + t starts
at table t.  An odd number of pairs plays the movement of (n + 1) / 2 tables with a **phantom**,
the missing pair 2T (``phantom=True``): each round the pair it would meet **sits out** and the
table it would sit at is not a table of that round (its number is kept: the room is laid out by
the movement's table numbers).  In a Mitchell pair 2T is an EW pair, so each round a different NS
pair sits out; in a Howell it is the pair that stays at table 1, so table 1 is the sit-out table
every round.  A round has ``boards_per_round`` boards (2 to 4); set s holds boards
``(s - 1) * boards_per_round + 1`` …  Plain values, no database: the event stores a movement's
settings and asks it where a pair goes (:meth:`Movement.station`, :meth:`Movement.next_station`);
:func:`for_event` draws the one its settings choose (``--movement mitchell-skip``, ``--rounds N``) for
the pairs seated, refusing a choice those tables make meaningless.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from tournament.errors import SettingsError
from tournament.settings import MAX_BOARDS_PER_ROUND, MIN_BOARDS_PER_ROUND, Settings

MIN_TABLES, MAX_TABLES = 3, 30
#: The largest Howell played complete by default: 8 tables, 15 rounds (30 boards at 2 a round).
COMPLETE_HOWELL_TABLES = 8
DIRECTIONS = ("NS", "EW")

#: Complete Howells: tables -> f(1) … f(T - 1), the set offsets of tables 2 … T (module docstring).
ADDERS: dict[int, tuple[int, ...]] = {
    4: (2, 4, 1),
    6: (6, 10, 7, 2, 8),
    7: (3, 5, 9, 1, 6, 2),
    8: (6, 10, 1, 7, 11, 8, 2),
    9: (8, 14, 7, 9, 3, 12, 4, 11),
    10: (7, 18, 8, 11, 9, 4, 6, 1, 12),
    11: (16, 1, 13, 2, 9, 7, 4, 20, 14, 19),
    12: (18, 4, 19, 1, 9, 7, 14, 3, 17, 2, 21),
    13: (20, 9, 21, 8, 3, 11, 13, 18, 6, 24, 2, 15),
    14: (9, 17, 8, 26, 18, 12, 5, 1, 25, 14, 10, 2, 15),
    15: (12, 18, 9, 5, 19, 27, 15, 23, 8, 17, 14, 22, 10, 4),
    16: (24, 10, 6, 20, 27, 8, 14, 21, 26, 5, 17, 30, 23, 13, 4),
    17: (5, 11, 28, 6, 13, 20, 10, 24, 31, 1, 8, 17, 14, 9, 30, 4),
    18: (12, 22, 13, 23, 2, 27, 10, 26, 32, 18, 25, 17, 9, 16, 24, 31, 8),
    19: (28, 13, 27, 32, 30, 11, 9, 14, 4, 24, 7, 19, 34, 26, 23, 25, 6, 1),
    20: (24, 36, 33, 18, 32, 11, 8, 37, 2, 6, 35, 16, 5, 27, 34, 10, 25, 30, 1),
    21: (5, 11, 31, 21, 35, 9, 19, 27, 7, 33, 25, 36, 24, 4, 23, 17, 3, 28, 10, 1),
    22: (4, 22, 35, 31, 23, 27, 3, 6, 8, 1, 40, 25, 39, 33, 21, 28, 14, 5, 26, 2, 37),
    23: (4, 42, 13, 32, 30, 25, 36, 22, 6, 12, 28, 39, 20, 7, 19, 8, 37, 14, 27, 38, 2, 34),
    24: (14, 43, 31, 15, 35, 33, 24, 12, 41, 6, 1, 30, 42, 19, 21, 7, 39, 17, 29, 34, 23, 46, 2),
    25: (10, 8, 26, 12, 33, 47, 14, 28, 42, 7, 36, 30, 27, 48, 37, 15, 13, 19, 24, 44, 40, 17, 9, 2),
    26: (10, 32, 20, 12, 27, 48, 38, 35, 5, 34, 26, 13, 42, 24, 43, 4, 29, 23, 16, 33, 19, 28, 49, 9, 44),
    27: (33, 13, 28, 9, 25, 22, 50, 4, 15, 19, 8, 26, 5, 12, 37, 7, 18, 45, 2, 27, 16, 39, 10, 17, 14, 29),
    28: (50, 29, 45, 12, 41, 5, 28, 20, 38, 34, 26, 7, 27, 18, 24, 6, 43, 35, 42, 21, 31, 40, 2, 44, 13, 4, 30),
    29: (41, 6, 38, 47, 29, 33, 9, 30, 27, 39, 2, 42, 32, 3,
         22, 28, 16, 50, 12, 43, 26, 31, 37, 34, 53, 46, 25, 54),
    30: (11, 17, 31, 54, 35, 29, 44, 52, 58, 15, 5, 43, 34, 32,
         24, 22, 53, 38, 14, 2, 45, 26, 50, 37, 51, 19, 30, 1, 13),
}


class MovementError(SettingsError):
    """A movement that cannot be drawn: too few or too many tables, boards a round, rounds."""


@attrs.frozen
class Sitting:
    """One table in one round: who sits North-South and East-West, and which boards they play."""

    round: int
    table: int
    ns: int
    ew: int
    board_set: int
    boards: tuple[int, ...]


@attrs.frozen
class Station:
    """Where a pair plays a round: the table, its direction, its opponents and the boards.

    shared_with is the other table playing the same boards that round (a Mitchell's share
    tables 1 and T, or every table of a same-boards Howell): they play them in another order."""

    pair: int
    round: int
    table: int
    direction: str
    opponent: int
    boards: tuple[int, ...]
    shared_with: tuple[int, ...] = ()
    #: The pair meets the phantom this round: it sits out at no table (``table`` is the one it would
    #: have sat at, ``opponent`` the phantom, ``boards`` empty: nobody plays that table's boards).
    sits_out: bool = False


@attrs.frozen
class Movement:
    """A whole movement: ``sittings[r - 1]`` is round r, one :class:`Sitting` a table played.

    With a ``phantom`` (an odd number of pairs) the table where it would sit is left out of
    ``sittings``, so a round's table numbers may have a gap; ``sit_outs[r - 1]`` is that table's
    sitting in round r (the phantom and the real pair sitting out there, and the boards nobody
    plays there)."""

    kind: str  # "mitchell" or "howell"
    style: str  # mitchell: "odd", "relay", "skip"; howell: "complete", "partial", "same boards"
    tables: int
    boards_per_round: int
    sets: int
    sittings: tuple[tuple[Sitting, ...], ...]
    sit_outs: tuple[Sitting, ...] = ()
    phantom: int | None = None
    _stations: dict[tuple[int, int], Station] = attrs.field(init=False, repr=False, eq=False, hash=False)

    def __attrs_post_init__(self) -> None:
        stations: dict[tuple[int, int], Station] = {}
        for sittings in self.sittings:
            by_set: dict[int, list[int]] = {}
            for s in sittings:
                by_set.setdefault(s.board_set, []).append(s.table)
            for s in sittings:
                shared = tuple(t for t in by_set[s.board_set] if t != s.table)
                for pair, direction, other in ((s.ns, "NS", s.ew), (s.ew, "EW", s.ns)):
                    stations[(pair, s.round)] = Station(pair, s.round, s.table, direction, other, s.boards, shared)
        for s in self.sit_outs:
            pair, direction = (s.ew, "EW") if s.ns == self.phantom else (s.ns, "NS")
            stations[(pair, s.round)] = Station(pair, s.round, s.table, direction, self.phantom or 0, (),
                                                sits_out=True)
        object.__setattr__(self, "_stations", stations)

    @property
    def rounds(self) -> int:
        return len(self.sittings)

    @property
    def pairs(self) -> tuple[int, ...]:
        """The real pairs: 1 … 2T, but the phantom."""
        return tuple(p for p in range(1, 2 * self.tables + 1) if p != self.phantom)

    def sits_out(self, round: int) -> Station | None:
        """The pair that sits out round ``round`` (its station says at which table it would have
        sat), or None where every pair plays (an even number of pairs)."""
        if not 1 <= round <= len(self.sit_outs):
            return None
        s = self.sit_outs[round - 1]
        return self.station(s.ew if s.ns == self.phantom else s.ns, round)

    @property
    def boards(self) -> tuple[int, ...]:
        """Every board played in the movement, in order (a curtailed Mitchell leaves some sets
        of its cycle unplayed: they need no slips)."""
        return tuple(sorted({b for s in self.all_sittings() for b in s.boards}))

    def station(self, pair: int, round: int) -> Station:
        """Where pair plays round (both counting from 1)."""
        found = self._stations.get((pair, round))
        if found is None:
            if pair not in self.pairs:
                raise MovementError(f"there is no pair {pair}: the pairs are 1 to {len(self.pairs)}")
            raise MovementError(f"there is no round {round}: the movement has {self.rounds}")
        return found

    def next_station(self, pair: int, after: int) -> Station | None:
        """Where pair goes once round after is over (after 0: where it starts);
        None after the last round."""
        return self.station(pair, after + 1) if after < self.rounds else None

    def guide(self, pair: int) -> tuple[Station, ...]:
        """The pair's whole card: each round's table, direction, opponents and boards."""
        return tuple(self.station(pair, r) for r in range(1, self.rounds + 1))

    def all_sittings(self) -> Iterator[Sitting]:
        for sittings in self.sittings:
            yield from sittings


def _check(tables: int, boards_per_round: int) -> None:
    if not MIN_TABLES <= tables <= MAX_TABLES:
        raise MovementError(f"a duplicate movement is drawn for {MIN_TABLES} to {MAX_TABLES} tables, not {tables}")
    if not MIN_BOARDS_PER_ROUND <= boards_per_round <= MAX_BOARDS_PER_ROUND:
        raise MovementError(f"a round has {MIN_BOARDS_PER_ROUND} to {MAX_BOARDS_PER_ROUND} boards, "
                            f"not {boards_per_round}")


def _rounds(asked: int | None, most: int, kind: str) -> int:
    if asked is None:
        return most
    if not 1 <= asked <= most:
        raise MovementError(f"this {kind} has 1 to {most} rounds, not {asked}")
    return asked


def _boards(board_set: int, per_round: int) -> tuple[int, ...]:
    return tuple(range((board_set - 1) * per_round + 1, board_set * per_round + 1))


def mitchell(tables: int, boards_per_round: int = 2, rounds: int | None = None,
             even: str = "relay") -> Movement:
    """A Mitchell of tables tables; even (relay or skip) says how an even number
    of tables avoids boards played before.  rounds cuts the movement short (a curtailed
    Mitchell: each pair still plays each board at most once)."""
    _check(tables, boards_per_round)
    n = tables
    if n % 2:
        style, most = "odd", n
    elif even in ("relay", "skip"):
        style, most = even, (n if even == "relay" else n - 1)
    else:
        raise MovementError(f"an even Mitchell is played with a relay or a skip, not {even!r}")
    count = _rounds(rounds, most, f"{n}-table Mitchell")
    half = n // 2

    def position(t: int) -> int:  # where table t (0-based) takes its boards from, on the boards' cycle
        if style != "relay":
            return t
        if t == n - 1:
            return 0  # the last table shares table 1's set
        return t if t < half else t + 1  # the relay stand sits at position half

    out = []
    for r in range(count):
        skip = 1 if style == "skip" and r >= half else 0
        row = []
        for t in range(n):
            ew = (t - r - skip) % n  # EW pair e sits at table e + r (+ 1 after the skip)
            board_set = (position(t) + r) % n + 1  # boards move down one position a round
            row.append(Sitting(r + 1, t + 1, t + 1, n + ew + 1, board_set, _boards(board_set, boards_per_round)))
        out.append(tuple(row))
    return Movement("mitchell", style, n, boards_per_round, n, tuple(out))


def howell(tables: int, boards_per_round: int = 2, rounds: int | None = None) -> Movement:
    """A Howell of ``tables`` tables: complete up to :data:`COMPLETE_HOWELL_TABLES` tables, a
    partial one (three quarters of the rounds, rounded up) beyond, unless rounds says."""
    _check(tables, boards_per_round)
    n = tables
    m = 2 * n - 1
    default = m if n <= COMPLETE_HOWELL_TABLES else -(-3 * m // 4)
    count = _rounds(rounds if rounds is not None else default, m, f"{n}-table Howell")
    adders = ADDERS.get(n)
    style = "same boards" if adders is None else ("complete" if count == m else "partial")
    offsets = (0,) + (adders if adders is not None else (0,) * (n - 1))
    fixed = 2 * n  # the pair that stays at table 1
    out = []
    for r in range(count):
        row = []
        for i in range(n):
            if i == 0:
                a, b = fixed, r + 1
                ns, ew = (a, b) if r % 2 == 0 else (b, a)
            else:
                a, b = (r + i) % m + 1, (r - i) % m + 1
                ns, ew = (a, b) if i % 2 else (b, a)
            board_set = (r + offsets[i]) % m + 1
            row.append(Sitting(r + 1, i + 1, ns, ew, board_set, _boards(board_set, boards_per_round)))
        out.append(tuple(row))
    sets = len({s.board_set for row in out for s in row})
    if sets != m:  # a partial Howell: renumber the sets it uses 1, 2, … in order of first use
        order: dict[int, int] = {}
        for row in out:
            for s in row:
                order.setdefault(s.board_set, len(order) + 1)
        out = [tuple(attrs.evolve(s, board_set=order[s.board_set], boards=_boards(order[s.board_set],
                                                                                  boards_per_round))
                     for s in row) for row in out]
    return Movement("howell", style, n, boards_per_round, sets, tuple(out))


def with_phantom(moving: Movement) -> Movement:
    """``moving`` played by 2T - 1 pairs: pair 2T is the phantom (an EW pair of a Mitchell, the pair
    that stays at table 1 of a Howell), and the table where it would sit each round is taken out of
    the round's sittings (kept as the round's sit-out, its number kept: the room is laid out by the
    movement's numbers and the boards pass between them); the pair it would meet sits out.  The
    movement's boards are those still played at some table."""
    phantom = 2 * moving.tables
    played, out = [], []
    for row in moving.sittings:
        out.append(next(s for s in row if phantom in (s.ns, s.ew)))
        played.append(tuple(s for s in row if phantom not in (s.ns, s.ew)))
    return Movement(moving.kind, moving.style, moving.tables, moving.boards_per_round, moving.sets, tuple(played),
                    tuple(out), phantom)


def movement(kind: str, tables: int, boards_per_round: int = 2, rounds: int | None = None,
             even: str = "relay", phantom: bool = False) -> Movement:
    """The movement an event's settings name (mitchell or howell); ``phantom``: for 2 × tables - 1
    pairs, one sitting out each round (:func:`with_phantom`)."""
    if kind == "mitchell":
        drawn = mitchell(tables, boards_per_round, rounds, even)
    elif kind == "howell":
        drawn = howell(tables, boards_per_round, rounds)
    else:
        raise MovementError(f"a duplicate movement is a mitchell or a howell, not {kind!r}")
    return with_phantom(drawn) if phantom else drawn


def full_rounds(kind: str, tables: int, even: str = "relay") -> int:
    """The most rounds the movement has at ``tables`` tables: a Mitchell T (a skip Mitchell of an
    even number T - 1), a Howell 2T - 1 (every pair met)."""
    if kind == "howell":
        return 2 * tables - 1
    return tables - 1 if even == "skip" and tables % 2 == 0 else tables


def for_event(settings: Settings, pairs: int) -> Movement:
    """The movement an event's settings choose, for ``pairs`` pairs on (pairs + 1) // 2 tables (an
    odd number with a phantom: :func:`with_phantom`).  A choice the pairs make meaningless is
    refused in a line saying what this number of tables allows (the settings cannot change once
    made, so it says too how many pairs would fit): a skip at an odd number of tables (it needs no
    cure), a curtailed session (``--rounds N``) longer than the movement."""
    kind = settings.movement or "mitchell"
    tables = (pairs + 1) // 2
    even = settings.even or "relay"
    rounds = settings.movement_rounds or None
    if kind == "mitchell" and even == "skip" and tables % 2:
        raise MovementError(f"--movement mitchell-skip is for an even number of tables: {pairs} pairs play on "
                            f"{tables} tables, an odd number, which a Mitchell plays without a skip or relay "
                            f"(enter pairs for {tables - 1} or {tables + 1} tables, or make the event with "
                            f"--movement mitchell)")
    if rounds is not None and MIN_TABLES <= tables <= MAX_TABLES:
        most = full_rounds(kind, tables, even)
        if rounds > most:
            name = f"{tables}-table " + ("skip Mitchell" if kind == "mitchell" and even == "skip" else kind.capitalize())
            raise MovementError(f"--rounds {rounds}: a {name} ({pairs} pairs) has 1 to {most} rounds, not {rounds} "
                                f"(enter more pairs, or make the event with --rounds {most} or fewer)")
    return movement(kind, tables, settings.boards_per_round, rounds, even, phantom=pairs % 2 == 1)

"""What the director asks of a round's pairing: pins, keep-apart, sitting out.

Values in, values out (no database): the event layer reads the director's requests and hands
them to :func:`tournament.pairing.swiss.pair_round` as one :class:`Constraints`.

* **Sitting out** — a player who asked to miss a round is not seated and has a bye that round
  (scored by the event's ``--bye`` setting), and counts as having had one.
* **Keep apart** — two players (in a pairs event, the pairs they play in) at different tables:
  their meeting is costed as if they had met :data:`APART_WEIGHT` times already (Swiss pairs
  treat it as a rematch, which is never paired; rotating partners also never partner them), so
  the pairing separates them whenever it can; when it cannot, the round is refused with one line
  naming them (:func:`refuse_violations`), never paired with them together.
* **Pins** — a player at a given table number: tables keep the players the pairing gave them
  and are renumbered, the pinned player's table taking the pinned number (the table that had it
  takes the old number).  Two pinned players seated together at different numbers, or two
  tables pinned to one number, cannot both be met: refused with one line.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence

import attrs

from tournament.errors import PairingError
from tournament.pairing.plan import History, Plan
from tournament.values import SeatAssignment

#: How many earlier meetings a keep-apart pair counts as: far above any real event's repeats.
APART_WEIGHT = 1000


@attrs.frozen
class Constraints:
    """``pins`` (player, table number), ``apart`` (player, player) for this round, ``sitting_out``
    (players); ``names`` only words the refusals."""

    pins: tuple[tuple[int, int], ...] = ()
    apart: tuple[tuple[int, int], ...] = ()
    sitting_out: frozenset[int] = frozenset()
    names: dict[int, str] = attrs.field(factory=dict)

    def __bool__(self) -> bool:
        return bool(self.pins or self.apart or self.sitting_out)

    def name(self, player: int) -> str:
        return f"{self.names.get(player, '?')} (#{player})"


def with_apart(hist: History, apart: Sequence[tuple[int, int]], unit: Callable[[int], int],
               partners_too: bool) -> History:
    """The history a keep-apart pairing is costed on: each pair (as units) counted as having met
    :data:`APART_WEIGHT` times, and (rotating partners) as having partnered."""
    if not apart:
        return hist
    opponents = {u: Counter(c) for u, c in hist.opponents.items()}
    partners = {u: set(s) for u, s in hist.partners.items()}
    for a, b in apart:
        ua, ub = unit(a), unit(b)
        if ua == ub:
            continue
        opponents.setdefault(ua, Counter())[ub] += APART_WEIGHT
        opponents.setdefault(ub, Counter())[ua] += APART_WEIGHT
        if partners_too:
            partners.setdefault(a, set()).add(b)
            partners.setdefault(b, set()).add(a)
    return History(partners, opponents, hist.ns_balance, hist.byes)


def refuse_violations(plan: Plan, constraints: Constraints) -> None:
    """A plan seating two kept-apart players at one table is refused, naming them."""
    table_of = {s.player: n for n, seats in enumerate(plan.tables, 1) for s in seats}
    for a, b in constraints.apart:
        if a in table_of and table_of.get(a) == table_of.get(b):
            raise PairingError(f"round {plan.round} cannot keep {constraints.name(a)} and {constraints.name(b)} "
                               f"apart (every pairing seats them together); lift it with `tournament apart "
                               f"EVENT A B --lift` and pair again")


def place_pins(plan: Plan, constraints: Constraints) -> Plan:
    """The plan with its tables renumbered so that each pinned player sits at their table."""
    if not constraints.pins:
        return plan
    tables = list(plan.tables)
    count = len(tables)
    index_of = {s.player: i for i, seats in enumerate(tables) for s in seats}
    wanted: dict[int, tuple[int, int]] = {}  # table index -> (pinned number, player)
    for player, number in constraints.pins:
        if player not in index_of:
            continue  # not seated this round (a bye, sitting out, withdrawn)
        if number > count:
            raise PairingError(f"round {plan.round} has {count} table{'s' if count != 1 else ''}: "
                               f"{constraints.name(player)} cannot sit at table {number} as pinned")
        i = index_of[player]
        if i in wanted and wanted[i][0] != number:
            other = wanted[i][1]
            raise PairingError(f"round {plan.round} seats {constraints.name(other)} and {constraints.name(player)} "
                               f"together, pinned to tables {wanted[i][0]} and {number}: unpin one")
        wanted[i] = (number, player)
    taken: dict[int, int] = {}
    for i, (number, player) in wanted.items():
        if number in taken and taken[number] != i:
            other = wanted[taken[number]][1]
            raise PairingError(f"round {plan.round}: {constraints.name(other)} and {constraints.name(player)} "
                               f"are both pinned to table {number} but seated apart: unpin one")
        taken[number] = i
    # Pinned tables to their numbers; the others keep their order in the places left.
    order: list[int | None] = [None] * count
    for number, i in taken.items():
        order[number - 1] = i
    rest = iter(i for i in range(count) if i not in wanted)
    ordered = [i if i is not None else next(rest) for i in order]
    return Plan(plan.round, tuple(tables[i] for i in ordered), plan.byes)


def apart_met(tables: Sequence[Sequence[SeatAssignment]], apart: Sequence[tuple[int, int]]) -> bool:
    """Whether no kept-apart pair shares a table (for tests and checks)."""
    for seats in tables:
        players = {s.player for s in seats}
        if any(a in players and b in players for a, b in apart):
            return False
    return True

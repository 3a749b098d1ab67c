"""Duplicate scoring: each pair's result on a board against the others who held the same tiles.

A board's result at a table is the hand's points for North-South and for East-West.  A pair's
*net* is its side's points minus the other side's.  Every pair that played the board in the
same direction held the same tiles, so their nets can be compared (docs/duplicate.md):

* **Matchpoints**: 2 for each pair of the direction whose net it beat, 1 for each it tied;
  the top is 2 (n - 1) for n tables.  Over a session a pair's percentage is its matchpoints
  over the sum of its boards' tops, so a board played by fewer tables weighs less.
* **IMPs**: the board's *datum* is the mean of the direction's nets, leaving out the top one
  and the bottom one when at least :data:`TRIM_FROM` tables played it; a pair scores its
  difference from the datum converted by :func:`imps`.  The scale is bridge's IMP table read
  in *steps* of a game's own size (:data:`IMP_STEP`): 1 IMP from one step, widening as bridge's
  table widens, to 24 IMPs from 200 steps.  A step is 5 points in Competitive.
* A board played by fewer than ``min_tables`` tables in a direction is *too few tables*: it
  gets no score rather than a meaningless one.
* **Duplicate teams**: a team's pairs sit NS at one table and EW at the other on the same
  boards; the team's net on a board is the sum of both, in IMPs, summed over the match, and
  turned into victory points (0 to 20) by the continuous scale if the event says so.

Exact arithmetic (fractions) everywhere a mean or a comparison is made; nothing is rounded but
what is shown.  Plain values, no database.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from fractions import Fraction
from typing import Iterable, Sequence

import attrs

from tournament.errors import Refused

#: Bridge's IMP table, its thresholds counted in *half steps* (bridge's 10 points are half a step
#: of 20): a difference of d points is worth as many IMPs as thresholds h with 2 |d| >= h * step.
IMP_HALF_STEPS: tuple[int, ...] = (2, 5, 9, 13, 17, 22, 27, 32, 37, 43, 50, 60, 75, 90, 110, 130, 150, 175,
                                   200, 225, 250, 300, 350, 400)

#: A game's IMP step, in points: a round number near a sixth of the median swing of a hand
#: between the two sides (measured over simulated hands: ``benchmarks/bench_duplicate.py
#: --steps``, docs/duplicate.md), so that the median swing is worth 3 or 4 IMPs, as a Competitive
#: hand's 29 points are worth 3 at 5 points a step (Broadway's 2 points: 1 IMP at the least step).
IMP_STEP: dict[str, int] = {"competitive": 5, "broadway": 1, "horse-race": 1, "castle-rock": 2,
                            "domino-roads": 25}

#: From this many tables on, a board's datum leaves out its top and bottom result.
TRIM_FROM = 5
#: The fewest tables in a direction that make a board comparable.
MIN_TABLES = 2
DIRECTIONS = ("NS", "EW")
#: The victory-point scale: 20 points a match, 10 each for a tie.
VP_TOTAL = 20


class ScoringError(Refused):
    """Results that cannot be scored together: a pair twice on a board, a pair in both seats of
    a table, a step that is not a whole number of points above zero."""


@attrs.frozen
class TableResult:
    """One table's result on one board: the pairs and the points each side won."""

    board: int
    ns: int
    ew: int
    ns_points: int
    ew_points: int


@attrs.frozen
class PairBoard:
    """A pair's score on a board: ``matchpoints`` of ``top``, ``imps`` from ``datum``; all three
    ``None`` when the board had too few tables in the pair's direction."""

    board: int
    pair: int
    direction: str
    opponent: int
    net: int
    matchpoints: int | None
    top: int | None
    datum: Fraction | None
    imps: int | None

    @property
    def too_few(self) -> bool:
        return self.matchpoints is None


@attrs.frozen
class BoardTraveller:
    """A board's results in one direction, as bridge's traveller lists them."""

    board: int
    direction: str
    tables: int
    datum: Fraction | None
    results: tuple[PairBoard, ...]

    @property
    def too_few(self) -> bool:
        return self.datum is None


@attrs.frozen
class PairTotal:
    """A pair's session: boards scored, matchpoints of the tops' sum, percentage, IMPs."""

    pair: int
    boards: int
    matchpoints: int
    top: int
    imps: int
    #: Boards the pair played that had too few tables to be scored.
    unscored: int

    @property
    def percent(self) -> float:
        return 100.0 * self.matchpoints / self.top if self.top else 0.0


@attrs.frozen
class Session:
    """A session scored: every traveller, every pair's boards and totals."""

    travellers: tuple[BoardTraveller, ...]
    totals: tuple[PairTotal, ...]

    def pair_boards(self, pair: int) -> tuple[PairBoard, ...]:
        """The pair's card: its score on each board it played, by board."""
        return tuple(sorted((r for t in self.travellers for r in t.results if r.pair == pair),
                            key=lambda r: r.board))

    def total(self, pair: int) -> PairTotal:
        return next(t for t in self.totals if t.pair == pair)


def imps(difference: int | Fraction, step: int = IMP_STEP["competitive"]) -> int:
    """``difference`` points as IMPs on the scale of ``step`` points (the sign kept)."""
    if not isinstance(step, int) or step < 1:
        raise ScoringError(f"an IMP step is a whole number of points above zero, not {step!r}")
    size = abs(Fraction(difference)) * 2 / step  # in half steps
    won = bisect_right(IMP_HALF_STEPS, size)
    return won if difference >= 0 else -won


def imp_scale(step: int) -> tuple[tuple[Fraction, int], ...]:
    """The scale of ``step`` as (the smallest difference, in points, that scores k IMPs; k)."""
    return tuple((Fraction(h * step, 2), k) for k, h in enumerate(IMP_HALF_STEPS, 1))


def datum(nets: Sequence[int | Fraction]) -> Fraction:
    """The mean of ``nets``, leaving out the top one and the bottom one from :data:`TRIM_FROM` on."""
    values = sorted(Fraction(n) for n in nets)
    if len(values) >= TRIM_FROM:
        values = values[1:-1]
    return sum(values, Fraction(0)) / len(values)


def score_session(results: Iterable[TableResult], step: int = IMP_STEP["competitive"],
                  min_tables: int = MIN_TABLES) -> Session:
    """Every board's travellers and every pair's totals, from the tables' results."""
    by_board: dict[int, list[TableResult]] = defaultdict(list)
    for r in results:
        if r.ns == r.ew:
            raise ScoringError(f"board {r.board}: pair {r.ns} cannot sit both NS and EW at one table")
        by_board[r.board].append(r)
    travellers = []
    for board in sorted(by_board):
        rows = by_board[board]
        seen: set[int] = set()
        for r in rows:
            for pair in (r.ns, r.ew):
                if pair in seen:
                    raise ScoringError(f"board {board}: pair {pair} has two results on it (a board is played once)")
                seen.add(pair)
        for direction in DIRECTIONS:
            travellers.append(_traveller(board, direction, rows, step, min_tables))
    return Session(tuple(travellers), _totals(travellers))


def _traveller(board: int, direction: str, rows: list[TableResult], step: int, min_tables: int) -> BoardTraveller:
    if direction == "NS":
        entries = [(r.ns, r.ew, r.ns_points - r.ew_points) for r in rows]
    else:
        entries = [(r.ew, r.ns, r.ew_points - r.ns_points) for r in rows]
    n = len(entries)
    if n < min_tables:
        return BoardTraveller(board, direction, n, None, tuple(
            PairBoard(board, pair, direction, other, net, None, None, None, None) for pair, other, net in entries))
    nets = sorted(net for _, _, net in entries)
    middle = datum(nets)
    top = 2 * (n - 1)
    out = []
    for pair, other, net in entries:
        below = bisect_left(nets, net)
        ties = bisect_right(nets, net) - below - 1
        out.append(PairBoard(board, pair, direction, other, net, 2 * below + ties, top, middle,
                             imps(net - middle, step)))
    return BoardTraveller(board, direction, n, middle, tuple(out))


def _totals(travellers: Sequence[BoardTraveller]) -> tuple[PairTotal, ...]:
    sums: dict[int, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])
    for t in travellers:
        for r in t.results:
            s = sums[r.pair]
            if r.too_few:
                s[4] += 1
                continue
            s[0] += 1
            s[1] += r.matchpoints or 0
            s[2] += r.top or 0
            s[3] += r.imps or 0
    return tuple(PairTotal(pair, *s) for pair, s in sorted(sums.items()))


def ranking(session: Session, by: str = "matchpoints") -> tuple[PairTotal, ...]:
    """The pairs best first by ``by`` (``matchpoints``: the percentage; ``imps``), the other as
    the tie-break, then the pair number."""
    if by == "matchpoints":
        return tuple(sorted(session.totals, key=lambda t: (-Fraction(t.matchpoints, t.top or 1), -t.imps, t.pair)))
    if by == "imps":
        return tuple(sorted(session.totals, key=lambda t: (-t.imps, -Fraction(t.matchpoints, t.top or 1), t.pair)))
    raise ScoringError(f"duplicate pairs are ranked by matchpoints or imps, not {by!r}")


# --- duplicate teams -------------------------------------------------------------------------------


@attrs.frozen
class TeamBoard:
    """One board of a team match: the home team's result at each table and its net in IMPs.

    At the first table the home team's pair sits NS, at the second its other pair sits EW."""

    board: int
    first: tuple[int, int]  # (NS points, EW points) at the table where the home pair sits NS
    second: tuple[int, int]  # (NS points, EW points) at the table where the home pair sits EW

    @property
    def net(self) -> int:
        """The home team's points minus the visitors', both tables together."""
        return (self.first[0] - self.first[1]) + (self.second[1] - self.second[0])


@attrs.frozen
class TeamMatch:
    """A team match scored: each board's IMPs to the home team, the totals, and the victory
    points (``None`` unless asked for)."""

    boards: tuple[tuple[TeamBoard, int], ...]
    home_imps: int
    away_imps: int
    home_vp: float | None = None
    away_vp: float | None = None

    @property
    def margin(self) -> int:
        return self.home_imps - self.away_imps


def team_match(boards: Sequence[TeamBoard], step: int = IMP_STEP["competitive"],
               victory_points: bool = False) -> TeamMatch:
    """Score a match of duplicate teams: each board's team net in IMPs, summed (the home team's
    IMPs are the boards it gained, the visitors' those it lost), and victory points if asked."""
    numbers = [b.board for b in boards]
    if len(set(numbers)) != len(numbers):
        raise ScoringError("a board is listed twice in the match")
    scored = tuple((b, imps(b.net, step)) for b in boards)
    home = sum(i for _, i in scored if i > 0)
    away = -sum(i for _, i in scored if i < 0)
    if not victory_points:
        return TeamMatch(scored, home, away)
    vp = victory_point(home - away, len(boards))
    return TeamMatch(scored, home, away, vp, round(VP_TOTAL - vp, 2))


def victory_point(margin: int, boards: int) -> float:
    """The home team's victory points (0 to 20, two decimals) for an IMP ``margin`` over
    ``boards`` boards, by the continuous scale bridge's federations use: a margin worth less
    and less each IMP, the whole 20 from a margin of 15 times the square root of the boards.

    ``V = 10 + 10 (1 - t^(3 M / X)) / (1 - t^3)``, ``t`` the golden ratio's inverse
    (0.618…), ``X = 15 sqrt(boards)``, ``M`` the margin up to ``X``; the loser has 20 - V."""
    if boards < 1:
        raise ScoringError(f"a match has at least one board, not {boards}")
    tau = (math.sqrt(5) - 1) / 2
    blitz = 15 * math.sqrt(boards)
    size = min(abs(margin), blitz)
    won = 10 * (1 - tau ** (3 * size / blitz)) / (1 - tau ** 3)
    return round(10 + won if margin >= 0 else 10 - won, 2)

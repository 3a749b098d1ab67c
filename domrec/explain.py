"""A hand told move by move, for an arbiter settling a dispute.

It watches the same replay that validation runs (an :class:`Observer` on
:func:`domrec.validate.validate`), so what it shows is what the validator
judged: the table after each move as the engine sees it, each player's tiles,
the points of each move, and the end-of-hand arithmetic.  Problems in the
hand are printed where they happen.
"""

from __future__ import annotations

from typing import Any

from domrec import tiles as T
from domrec.games.base import HandOutcome, HandState, Match
from domrec.errors import one_line
from domrec.record import Hand, Move, Record, move_to_dict
from domrec.validate import Report, validate


#: Each move's words, by the move (a frozen value: equal moves read alike).  A table's page
#: shows a move as an offer before it is made, then in the hand's list, and the recorder says
#: it too: the same words each time, which cost more than a look-up.  Bounded: a hall's moves,
#: many times over, are forgotten at once.
_DESCRIBED: dict[Move, str] = {}
_DESCRIBED_MAX = 8192


def describe_move(move: Move) -> str:
    """A move in words: ``W plays 3-1 on 6-3``."""
    try:
        return _DESCRIBED[move]
    except KeyError:
        pass
    except TypeError:  # a move holding something unhashable: said each time
        return _describe(move)
    text = _describe(move)
    if len(_DESCRIBED) >= _DESCRIBED_MAX:
        _DESCRIBED.clear()
    _DESCRIBED[move] = text
    return text


def _describe(move: Move) -> str:
    d = move_to_dict(move)
    seat = d.pop("seat")
    d.pop("score", None)
    if d.get("pass"):
        return f"{seat} passes"
    if "play" in d:
        text = f"{seat} plays {d['play']}"
        if "on" in d:
            text += f" on {d['on']}"
        if "at" in d:
            (x1, y1), (x2, y2) = d["at"]
            text += f" at ({x1},{y1})-({x2},{y2})"
        if d.get("penalty"):
            text += " (penalty play of the exposed tile)"
        return text
    if "draw" in d:
        return f"{seat} draws" + (f" {d['draw']}" if d["draw"] is not True else "")
    if "exposed" in d:
        return f"{seat} exposes {d['exposed']}" + (" (it fits nowhere)" if d.get("unplayable") else "")
    if "capture" in d:
        return f"{seat} captures {' '.join(d['capture'])}"
    if "roll" in d:
        a, b = d["roll"]
        return f"{seat} rolls {a} and {b} (total {a + b})"
    if d.get("reuse"):
        return f"{seat} uses the unused toss"
    if "starter" in d:
        return f"{seat} starts road {d['road']} with {d['starter']}, facing {d['facing']}"
    if "span" in d:
        return f"{seat} spans {d['span']} onto road {d['road']}"
    if "bridge" in d:
        ends = " and ".join(f"{j['road']} span {j['span']} ({j['half']})" for j in d["join"])
        return f"{seat} bridges {ends} with {d['bridge']}"
    if "block" in d:
        return f"{seat} blocks road {d['road']} with {d['block']}"
    return f"{seat}: {d}"


class _Teller:
    """Collects the lines of one hand as the replay runs."""

    def __init__(self, wanted: int) -> None:
        self.wanted = wanted
        self.current = -1
        self.lines: list[str] = []
        self.state: HandState | None = None
        self.totals_before: dict[str, int] = {}
        self.match: Match | None = None
        self.seen = False
        self.dealt = True
        #: Where each move's lines end (its 1-based number: the index in ``lines`` after them), so that
        #: a problem of that move is told right under it.
        self.after_move: dict[int, int] = {}

    def hand_started(self, index: int, hand: Hand, state: HandState) -> None:
        self.current = index
        if index != self.wanted:
            return
        self.seen = True
        self.state = state
        leader = hand.leader or state.to_move
        self.lines.append(f"Hand {index + 1}, led by {leader}.")
        # A hand recorded without its deal (being recorded, or read up to a broken rule): nobody's
        # tiles are known, which "(none)" for every seat would misstate.
        self.dealt = hand.deal is not None
        if self.dealt:
            self.lines.append("Dealt:")
            for seat, tiles in state.holdings().items():
                self.lines.append(f"  {seat}: {T.format_tiles(tiles)}")
        else:
            self.lines.append("Dealt: not known (the hand is recorded without its deal)")
        for extra in getattr(state, "deal_notes", lambda: [])():
            self.lines.append(f"  {extra}")
        self.lines.extend("  " + line for line in state.render())

    def moved(self, index: int, move: Move, points: int, state: HandState) -> None:
        if self.current != self.wanted:
            return
        score = f"  (+{points})" if points else ""
        self.lines.append(f"{index + 1:3}. {describe_move(move)}{score}")
        self.lines.extend("     " + line for line in state.render())
        if self.dealt:
            held = "  ".join(f"{seat} {T.format_tiles(tiles)}" for seat, tiles in state.holdings().items())
            self.lines.append(f"     in hand: {held}")
        self.after_move[index + 1] = len(self.lines)

    def hand_finished(self, index: int, outcome: HandOutcome, match: Match) -> None:
        if index != self.wanted:
            return
        self.lines.append(f"End of hand: {outcome.end}.")
        self.lines.extend("  " + line for line in outcome.working())
        scores = ", ".join(f"{side} {n}" for side, n in outcome.scores.items())
        totals = ", ".join(f"{side} {n}" for side, n in match.totals.items())
        self.lines.append(f"Hand score: {scores}.  Totals after the hand: {totals}.")


def explain(record: Record, hand: int, source: str = "<record>",
            read: Report | None = None) -> tuple[list[str], Report]:
    """The story of hand ``hand`` (1-based) and the report of the whole replay; ``read``: the
    verdict of the DGN reader that stopped at a broken rule, ``record`` holding the text up to
    it (the story goes as far as the record, the verdict is the reader's)."""
    teller = _Teller(hand - 1)
    report = validate(record, source, observer=teller)
    if read is not None:
        report = read
    # A problem of a move told there too, under the move (an arbiter reads the hand move by move:
    # a wrong claim said only at the end was missed), the latest first so the places hold.
    told = teller.lines[:]
    for p in sorted((p for p in report.problems if p.hand == hand and p.move in teller.after_move),
                    key=lambda p: -p.move):
        told.insert(teller.after_move[p.move], f"     ! PROBLEM at this move: {p.text()}")
    lines = [f"{record.game}: " + ", ".join(f"{p.seat} {p.name}" for p in record.players)] + told
    if not teller.seen:
        count = len(record.hands)
        ours = any(p.hand == hand for p in report.problems)
        lines.append(f"Hand {hand} was not replayed (the record has {count} hand{'' if count == 1 else 's'}"
                     + ("; the replay stopped at its start: the problem below" if ours
                        else ", and replay stopped before it" if report.problems else "") + ").")
    for p in report.problems:
        if p.hand == hand or p.hand is None:
            lines.append(f"PROBLEM {p.text()}")
    return [one_line(line) for line in lines], report


def past_reading(record: Record, hand: int, move: int | None, read: Report) -> str | None:
    """Why the position asked of a DGN text whose reading stopped at a broken rule cannot be told
    or drawn, or ``None`` when it was read.  ``record`` holds the text up to the move that broke
    the rule (its last hand, its moves up to that one or up to the first the reader could not
    settle): a later hand, or a later move of that hand, was not read, which is the text's fault (exit 1), not a hand or move the text lacks
    (the reading cannot count what it did not read).  ``read``: the reader's verdict."""
    last = len(record.hands)
    made = len(record.hands[-1].moves) if record.hands else 0
    first = f"; the first problem: {read.problems[0].text()}" if read.problems else ""
    if hand > last:
        return f"hand {hand} was not read: the text could be read only as far as hand {last}, move {made}{first}"
    if hand == last and move is not None and move > made:
        return f"move {move} of hand {hand} was not read: the text could be read only as far as move {made}{first}"
    return None


def state_after(record: Record, hand: int) -> Any:
    """The engine state at the end of hand ``hand`` (1-based), e.g. to draw a picture of it."""
    teller = _Teller(hand - 1)
    validate(record, observer=teller)
    return teller.state

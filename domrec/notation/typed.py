"""The short form people type: :func:`dumps_typed`, a record written as DGN with what the
rules can give left out (seats the turn gives, forced passes, claims, or the deal).

The game is played again through the Game API (:mod:`domrec.game`) while it is
written, to know whose turn it is and which passes are forced; without the
deal, the tiles each seat held at the end are taken from the validator's own
replay (:func:`domrec.explain.state_after`).  Moves and deal lines are written
by :mod:`domrec.notation.writer`.
"""

from __future__ import annotations

from typing import Any

import attrs

from domrec.notation.tokens import _escape_comment
from domrec.notation.writer import _hand_lines, _move_text, dumps
from domrec.record import Record, unstructure


def _passes_before_exposures(moves: tuple) -> set[int]:
    """Indexes of the passes in a run of passes that an exposure (Broadway) directly follows."""
    out: set[int] = set()
    run: list[int] = []
    for k, move in enumerate(moves):
        name = type(move).__name__
        if name == "Pass":
            run.append(k)
            continue
        if name == "Exposed":
            out.update(run)
        run = []
    return out


def dumps_typed(record: Record, keep_deal: bool = True, ends: bool = True, seats: bool = True,
                in_play: bool = False, scores: bool = False) -> str:
    """``record`` as a person would type it: moves without the seats the turn gives, no
    claims, and either the deal without the forced passes (``keep_deal``) or, without the
    deal, the tiles each seat still held at the end (``left``) and every pass written.

    Without ``ends``, no tile says which tile it went on (``@``), as on a paper score
    sheet; without ``seats``, a move's seat is written only where the engine says that
    seat may not be the one to move (a Broadway exposure and a penalty play keep theirs).
    The reader works both out where the rest of the hand leaves one reading
    (:mod:`domrec.notation.readings`); where it does not, the text is not enough.

    Reading the text back gives the same game (:func:`read_games` infers what is left out);
    the property tests hold it to that.  A hand is written so only where the rules say who
    moves: a seat is kept wherever the engine does not name that seat alone as the one that
    may move (``Game.movers``, the question the reader asks of a seatless move).

    With ``scores``, each closed hand's ``end`` line claims the hand's scores (and how it
    ended), as a club's score sheet writes them: the reader then counts only the readings that
    give those scores (docs/notation.md).

    With ``in_play``, the record's last hand is a hand still in play (a table's game before the
    hand is closed), written as it stands: its moves without the closing they may have reached
    (no ``left``, no ``end``), as the table has recorded it.  Such a hand's deal is not known
    until its ``left`` is typed, so the writer has no tiles left to tell: the replay knows no
    holdings, and a closing written from them (every seat holding nothing) is refused.
    """
    from domrec.game import Game

    data = unstructure(attrs.evolve(record, result=None))
    head = dumps(attrs.evolve(record, result=None, hands=())).rstrip("\n")
    rules = record.rules
    g = Game(record.game, record.players, variant=rules.variant if rules else None,
             options=record.options or None, event=record.event, version=record.version)
    out = [head]
    states = _hand_states(record)
    for i, hand in enumerate(record.hands):
        lines = [f"hand {i + 1}" + (f" lead {hand.leader}" if hand.leader is not None else "")]
        if hand.comment is not None:
            lines.append("{" + _escape_comment(hand.comment) + "}")
        if hand.score_sheet:
            lines.extend(_hand_lines(i, {"result": unstructure(attrs.evolve(record, hands=(hand,)))["hands"][0]
                                         ["result"]}, record.game)[1:])
            g.add_score_sheet_hand(hand.result.scores or {}, hand.result.end, hand.leader, hand.comment)
            out.append("\n".join(lines))
            continue
        hd = data["hands"][i]
        deal = hd.get("deal") or {}
        public = {k: v for k, v in deal.items() if k in ("row", "boneyard", "piles", "lead_draw")}
        if keep_deal:
            lines.extend(_hand_lines(i, {"deal": deal}, record.game)[1:])
            g.start_hand(hand.deal, hand.leader)
        else:
            if "boneyard" in public and any(type(m).__name__ == "Draw" and m.draw is not True for m in hand.moves):
                public.pop("boneyard")
            lines.extend(_hand_lines(i, {"deal": {"hands": {}, **public}}, record.game)[1:])
            from domrec.record import Deal

            pub = Deal(hands={}, row=hand.deal.row, piles=hand.deal.piles, lead_draw=hand.deal.lead_draw,
                       boneyard=hand.deal.boneyard if "boneyard" in public else None)
            g.start_hand(pub, hand.leader)
        words: list[str] = []
        # A forced pass is put back by the reader before the next move in turn, never before a
        # tile shown out of turn (!): so the passes just before an exposure are written out.
        before_exposure = _passes_before_exposures(hand.moves)
        for n, (move, md) in enumerate(zip(hand.moves, hd["moves"])):
            md = {k: v for k, v in md.items() if k != "score" and (ends or k != "on")}
            if keep_deal and md.get("pass") and g.forced_pass() and n not in before_exposure:
                g.push(move)
                continue
            if not keep_deal and "draw" in md and md["draw"] is True and "boneyard" not in public:
                md["draw"] = str(drawn_tile(hand, n))
            text = _move_text(md, record.game)
            # The reader gives a seatless move to one of the seats the engine says may move
            # (``movers``), trying each where there are several (docs/notation.md, "Ends and
            # seats worked out").  With ``seats`` the seat is left out only where that answer is
            # this seat alone, so the reader has nothing to choose; the turn (``to_move``) is not
            # enough: a Horse Race chain under ``chain_draw: false`` may have ended unwritten, and
            # both readings may then be legal with different scores.
            who = g.movers()
            free = move.seat in who if not seats else who == [move.seat]
            if not free or "exposed" in md or md.get("penalty"):
                text = f"{move.seat} {text}"
            g.push(attrs.evolve(move, draw=md["draw"]) if "draw" in md else move)
            words.append(text)
        for k in range(0, len(words), 8):
            lines.append(" ".join(words[k:k + 8]))
        held = None
        last = i == len(record.hands) - 1
        ended = _ended(states, i) and not (in_play and last)
        # The last hand may stop before it is over (kept as it is): without the deal, the tiles
        # each seat still holds are what tells its deal, as a text ending there gives them (once
        # a move is made: before the first, ``left`` has no hand being played to end).
        stopped = (last and not in_play and not ended and bool(hand.moves) and hand.deal is not None
                   and bool(hand.deal.hands))
        if not keep_deal:
            held = _held_at_end(states, i)
            if held is not None and (ended or stopped):
                parts = [f"{s} {' '.join(str(t) for t in ts) or '-'}" for s, ts in held.items() if ts]
                if parts:
                    lines.append("left " + "; ".join(parts))
        if ended:
            lines.append(_hand_lines(i, {"result": hd["result"]}, record.game)[-1] if scores and "result" in hd
                         else "end")
            g.end_hand(None if keep_deal else {s: [str(t) for t in ts] for s, ts in (held or {}).items()})
        out.append("\n".join(lines))
    return "\n\n".join(out) + "\n"


class _Ends:
    """Observer of one replay keeping each hand's engine state as the hand leaves it (what
    :func:`domrec.explain.state_after` gives for one hand, for every hand in one replay: a
    long game is written in time proportional to its hands)."""

    def __init__(self) -> None:
        self.states: dict[int, Any] = {}

    def hand_started(self, index: int, hand: Any, state: Any) -> None:
        self.states[index] = state

    def moved(self, index: int, move: Any, points: int, state: Any) -> None:
        pass

    def hand_finished(self, index: int, outcome: Any, match: Any) -> None:
        pass


def _hand_states(record: Record) -> dict[int, Any]:
    from domrec.validate import validate

    ends = _Ends()
    validate(record, observer=ends)
    return ends.states


def _ended(states: dict[int, Any], index: int) -> bool:
    state = states.get(index)
    return state is not None and state.over


def _held_at_end(states: dict[int, Any], index: int) -> dict[str, list] | None:
    """What each seat held when hand ``index`` ended, from the validator's own replay."""
    state = states.get(index)
    if state is None:
        return None
    return {s: list(ts) for s, ts in state.holdings().items()}


def drawn_tile(hand: Any, n: int) -> str:
    """The tile the ``draw: true`` of move ``n`` (0-based) takes, from the boneyard's order.

    Where the order is given, every draw takes the boneyard's next tile, a draw that names its
    tile too (the engines refuse any other): so every draw before this one counts, named or not.
    Found by position, never by identity: equal moves may be one shared value (the reader
    keeps one object for a move written the same way again, see :mod:`domrec.shape`)."""
    draws = sum(1 for m in hand.moves[:n] if type(m).__name__ == "Draw")
    return hand.deal.boneyard[draws]

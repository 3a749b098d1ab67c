"""The canonical DGN writer: :func:`dumps`, one text for a record, that reads back as written.

Every hand has its deal and every move its seat (``SEAT move`` pairs, a new
line when the first seat of the line moves again or after twelve moves), so
the reader needs no engine to read it.  The header uses the tag vocabulary of
:mod:`domrec.notation.header` (a key that would read back as another tag is
written as ``[Field "key" value]``); a record DGN cannot hold is refused with
:class:`WriteError`.  The move and hand-line writers are shared with the typed
form (:mod:`domrec.notation.typed`) and the recorder.
"""

from __future__ import annotations

import json
import re
from typing import Any

import attrs

from domrec.errors import InputError, shown
from domrec.notation.header import _DEFAULT_SEAT, _EVENT_TAGS, _RESERVED, _SEAT_LABEL, _TAG_NAME, _near
from domrec.notation.tokens import _KEYWORDS, DGN_VERSION, _escape_comment
from domrec.record import Hand, HandTexts, Record, converter, unstructure


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, str):
        return _quote(v)
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def _option_text(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class WriteError(InputError):
    """A record that DGN cannot hold (e.g. a seat label with spaces)."""


def dumps(record: Record, kept: HandTexts | None = None) -> str:
    """The canonical DGN text of ``record`` (one game, ending with a newline).  ``kept``: the
    hands' texts from this game's earlier writes (:class:`~domrec.record.HandTexts`: the
    recorder's saves), used where a hand has not changed since; the text is the same."""
    data = unstructure(attrs.evolve(record, hands=()))
    seats = [p["seat"] for p in data["players"]]
    for s in seats:
        if not _SEAT_LABEL.match(s) or s.lower() in _KEYWORDS or s.lower() in ("lead", "pass", "p", "reuse"):
            raise WriteError(f"seat {shown(s)!r} cannot be written in DGN: a seat label is a letter then "
                             f"letters, digits or _, and not a DGN word")
    if len(set(seats)) != len(seats):
        raise WriteError("two players share a seat label: DGN names each seat once")
    known = set(seats)
    game = data["game"]
    restated = _restated_ends(record)
    hands = [_hand_text(i, hand, game, restated.get(i), kept) for i, hand in enumerate(record.hands)]
    if kept is not None:
        kept.keep_only(record.hands)
    for i, hand in enumerate(hands):
        if not hand.seats <= known:
            j, seat = next((j, m.seat) for j, m in enumerate(record.hands[i].moves) if m.seat not in known)
            raise WriteError(f"hand {i + 1}, move {j + 1} is by {shown(seat)!r}, who is not at the "
                             f"table: DGN cannot write it")
    lines = [f"[Game {_quote(data['game'])}]"]
    newer = "ended" in data or any(h.newer for h in hands)
    if data["version"] != (DGN_VERSION if newer else "1.0"):
        lines.append(f"[Format {_quote('domrec ' + data['version'])}]")
    rules = data.get("rules") or {}
    if "variant" in rules:
        lines.append(f"[Variant {_quote(rules['variant'])}]")
    for name, v in (rules.get("options") or {}).items():
        lines.append(f"[Option {_quote(f'{name}={_option_text(v)}')}]")
    by_key = {v: k for k, v in _EVENT_TAGS.items()}
    default_seats = all(_DEFAULT_SEAT.match(s) for s in seats)
    seat_names = {s.lower() for s in seats}
    for key, v in (data.get("event") or {}).items():
        if key in by_key:
            lines.append(f"[{by_key[key].capitalize()} {_value(v)}]")
        elif (_TAG_NAME.match(key) and key.lower() not in _RESERVED and key.lower() not in seat_names
              and not _DEFAULT_SEAT.match(key.upper()) and _near(key, tuple(sorted(_RESERVED - {"field"}))) is None):
            lines.append(f"[{key} {_value(v)}]")
        else:
            lines.append(f"[Field {_quote(key)} {_value(v)}]")
    if not default_seats:
        lines.append(f"[Seats {_quote(' '.join(seats))}]")
    for p in data["players"]:
        lines.append(f"[{p['seat']} {_quote(p['name'])}]")
    for p in data["players"]:
        if "id" in p:
            lines.append(f"[Id {_quote(p['seat'] + '=' + p['id'])}]")
    if "ended" in data:
        lines.append(f"[Ended {_quote(data['ended'])}]")
    result = data.get("result")
    if result is not None:
        if "scores" in result:
            lines.append(f"[Scores {_quote(' '.join(f'{k} {v}' for k, v in result['scores'].items()))}]")
        if "winner" in result:
            lines.append(f"[Winner {_quote('draw' if result['winner'] is None else result['winner'])}]")
    for hand in hands:
        lines.append("")
        lines.extend(hand.lines)
    return "\n".join(lines) + "\n"


@attrs.frozen
class _HandText:
    """A hand as the canonical text writes it: its lines, whether only DGN 1.1 holds it (no deal
    written, a comment), and the seats its moves are by."""

    lines: tuple[str, ...]
    newer: bool
    seats: frozenset[str]


def _hand_text(i: int, hand: Hand, game: str, end: str | None, kept: HandTexts | None) -> _HandText:
    """Hand ``i`` (0-based) written, its claimed end written ``end`` where that is not ``None``
    (:func:`_restated_ends`); from ``kept`` where it was written so before."""

    def make() -> _HandText:
        data = converter.unstructure(hand, Hand)
        if end is not None:
            data["result"]["end"] = end
        newer = (not (data.get("deal") or {}).get("hands") or "comment" in data
                 or any("comment" in m for m in data.get("moves", ())))
        return _HandText(tuple(_hand_lines(i, data, game)), newer, frozenset(m["seat"] for m in data.get("moves", ())))

    return make() if kept is None else kept.get(hand, ("dgn", i, game, end), make)


class _Outcomes:
    """Keeps each finished hand's outcome from a replay (the observer of :func:`_restated_ends`)."""

    def __init__(self) -> None:
        self.outcomes: dict[int, Any] = {}

    def hand_started(self, index: int, hand: Any, state: Any) -> None:
        pass

    def moved(self, index: int, move: Any, points: int, state: Any) -> None:
        pass

    def hand_finished(self, index: int, outcome: Any, match: Any) -> None:
        self.outcomes[index] = outcome


def _restated_ends(record: Record) -> dict[int, str]:
    """Hands whose claimed ``end`` is true but not the canonical word: index -> the word to write.

    A hand can end two ways at once (in Broadway, a last tile that empties the hands and
    makes the sudden-death lead: ``out`` and ``sudden-death``); a record may claim either,
    and the canonical text writes the engine's word, so that two records of the same game
    write the same text.  Only the replay knows, so the record is replayed, and only where
    the engine says a claim may be such a restatement (``may_restate``): other records
    cost nothing."""
    from domrec import games
    from domrec.validate import validate

    try:
        may_restate = getattr(games.engine(record.game), "may_restate", None)
    except games.UnknownGameError:  # written as it stands; validation refuses it
        return {}
    if may_restate is None or not any(h.result is not None and h.result.end is not None
                                      and may_restate(i, h.result.end) for i, h in enumerate(record.hands)):
        return {}
    watch = _Outcomes()
    validate(record, observer=watch)
    out: dict[int, str] = {}
    for i, outcome in watch.outcomes.items():
        claim = record.hands[i].result
        if claim is not None and claim.end is not None and claim.end != outcome.end and outcome.ends_as(claim.end):
            out[i] = outcome.end
    return out


def _hand_lines(i: int, hand: dict, game: str) -> list[str]:
    head = f"hand {i + 1}"
    if "leader" in hand:
        head += f" lead {hand['leader']}"
    out = [head]
    if "comment" in hand:
        out.append("{" + _escape_comment(hand["comment"]) + "}")
    deal = hand.get("deal")
    if deal is not None:
        if "lead_draw" in deal:
            out.append("leaddraw " + "; ".join(f"{s} {t}" for s, t in deal["lead_draw"].items()))
        for rd in deal.get("redeals", ()):
            out.append(f"redeal {rd['seat']} " + "; ".join(f"{s} {_tiles_text(ts)}" for s, ts in rd["hands"].items()))
        for seat, tiles in deal["hands"].items():
            out.append(f"deal {seat} {_tiles_text(tiles)}")
        for seat, tiles in (deal.get("piles") or {}).items():
            out.append(f"pile {seat} {_tiles_text(tiles)}")
        for key in ("row", "boneyard"):
            if key in deal:
                out.append(f"{key} {_tiles_text(deal[key])}")
    line: list[str] = []
    first_seat = None
    prev = None
    for move in hand.get("moves", ()):
        seat = move["seat"]
        if line and ((seat == first_seat and prev != seat) or len(line) >= 12):
            out.append(" ".join(line))
            line = []
        if not line:
            first_seat = seat
        line.append(f"{seat} {_move_text(move, game)}")
        prev = seat
    if line:
        out.append(" ".join(line))
    if "result" in hand:
        res = hand["result"]
        words = ["end"]
        if "end" in res:
            words.append(res["end"])
        for side, n in (res.get("scores") or {}).items():
            words += [side, str(n)]
        out.append(" ".join(words))
    return out


def _tiles_text(tiles: Any) -> str:
    return " ".join(tiles) if tiles else "-"


def _road_text(name: str) -> str:
    return name if re.fullmatch(r"[^/+@=\"\s,;{}]+", name) and not name[0].isdigit() else _quote(name)


def _move_text(move: dict, game: str) -> str:
    if move.get("pass"):
        text = "-"
    elif move.get("reuse"):
        text = "reuse"
    elif "roll" in move:
        text = f"r{move['roll'][0]}+{move['roll'][1]}"
    elif "draw" in move:
        text = "+" if move["draw"] is True else f"+{move['draw']}"
    elif "capture" in move:
        text = "x" + ",".join(move["capture"])
    elif "exposed" in move:
        text = f"!{move['exposed']}" + ("?" if move.get("unplayable") else "")
    elif "starter" in move:
        text = f"s{move['starter']}@{_road_text(move['road'])}/{move['facing']}"
    elif "span" in move:
        text = f"{move['span']}@{_road_text(move['road'])}"
    elif "bridge" in move:
        a, b = move["join"]
        text = (f"b{move['bridge']}@{_road_text(a['road'])}/{a['span']}/{a['half']}"
                f"+{_road_text(b['road'])}/{b['span']}/{b['half']}")
    elif "block" in move:
        text = f"#{move['block']}@{_road_text(move['road'])}"
    else:
        text = move["play"]
        if "at" in move:
            (x1, y1), (x2, y2) = move["at"]
            step = (1, 0) if move["seat"] in ("N", "S") else (0, 1)
            if (x2 - x1, y2 - y1) == step:
                text += f"@{x1},{y1}"
            else:
                text += f"@{x1},{y1}:{x2},{y2}"
            if move.get("penalty"):
                text = "*" + text
        elif "on" in move:
            text += f"@{move['on']}"
    if "score" in move:
        text += f"={move['score']}"
    if "comment" in move:
        text += " {" + _escape_comment(move["comment"]) + "}"
    return text

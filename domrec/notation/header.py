"""A DGN game's header: its ``[Tag "value"]`` lines read into the record's top level.

The tags give the game, the format version, the variant and rule options,
the seats and their players, ids, event fields, the claimed result and the
``[Ended]`` mark.  A tag's value is quoted JSON text or bare (a JSON literal
or plain text), held to the same limits as any value of a record; a tag name
that is a typo of a reserved one is refused with the likely name (:func:`_near`).

:class:`_HeaderReader` is the header half of the reader
(:class:`~domrec.notation.reading._Reader`, which owns the state it fills in).
The tag vocabulary kept here (seat labels, reserved names, event tags) is the
writer's too (:mod:`domrec.notation.writer`), so both agree on what a tag may be.
It relies on :mod:`domrec.notation.tokens` and on the record's limits
(:mod:`domrec.reader`).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from domrec import games
from domrec.errors import InputError, NotJSONError, TooLargeError, pointer_token, shown
from domrec.lookalikes import plain
from domrec.notation.tokens import NotationError, _Text, look_alike
from domrec.reader import JSON_NUMBERS, MAX_DEPTH, check_value

if TYPE_CHECKING:
    from domrec.notation.positions import _Positions


_SEAT_LABEL = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
_DEFAULT_SEAT = re.compile(r"(?:[NESW]|P[1-9][0-9]*)\Z")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.\-]*\Z")
_EVENT_TAGS = {"event": "name", "site": "site", "date": "date", "round": "round", "table": "table", "board": "board"}
_SINGLE_TAGS = {"game", "format", "variant", "seats", "scores", "winner", "ended", "event", "site", "date", "round",
                "table", "board"}
_RESERVED = {"game", "format", "variant", "option", "seats", "id", "scores", "winner", "ended", "field", *_EVENT_TAGS}
_POINTS = re.compile(r"-?[0-9]+")


def _json_record_words(text: str, tags: list) -> str:
    """What to add to "a game needs a [Game] tag" when the text has no tag and is a JSON record
    (a ``.json`` file saved as ``game.dgn``): DGN reads its ``{…}`` as a comment, and the missing
    tag alone would send its player looking for a mistake in a record that has none."""
    if tags or not text.lstrip("\ufeff \t\r\n").startswith("{"):
        return ""
    try:
        doc = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return ""
    return "; this text is a JSON record, not DGN: name its file *.json" if isinstance(doc, dict) else ""


_TAG_BODY = re.compile(r"([^\s\"]+)\s*(.*)\Z", re.S)
_JSON = json.JSONDecoder()  # stateless: one for every tag


def _harmless(name: str | None, declared: list[str] | None) -> bool:
    """Whether a header tag named ``name`` can be left out of a reading without changing how its
    hands are judged (see :meth:`_HeaderReader._header_error`)."""
    if name is None:
        return False
    meant = plain(name)  # ([Gаme …] with a Cyrillic а: the game's tag, typed with a look-alike)
    if meant is not None:
        return _harmless(meant, declared)
    low = name.lower()
    if low in _EVENT_TAGS or low in ("field", "scores", "winner"):
        return True
    if low in _RESERVED:  # game, format, variant, option, seats, id, ended
        return False
    if declared is not None and name in declared:
        return False
    if declared is None and _DEFAULT_SEAT.match(name.upper()) and len(name) <= 4:
        return False
    near = _near(name, tuple(sorted(_RESERVED - {"field"})))  # ([Optoin …]: a rule mistyped)
    return near is None or _harmless(near, declared)


def _tag_value(raw: str, src: _Text, pos: int) -> tuple[str, Any, bool]:
    """(name, value, quoted) of a tag line ``[Name "value"]``."""
    body = raw.strip()[1:-1].strip()
    m = _TAG_BODY.match(body)
    if m is None:
        raise src.error("a tag needs a name: [Name \"value\"]", pos)
    name, rest = m.group(1), m.group(2).strip()
    if rest.startswith('"'):
        try:
            value, end = _JSON.raw_decode(rest)
        except (ValueError, RecursionError):
            raise src.error(f"the value of tag {name} is not a well-formed quoted text", pos) from None
        _checked(value, src, pos)
        tail = rest[end:].strip()
        if tail:
            return name, (value, tail), True
        return name, value, True
    return name, rest, False


def _bare_checked(value: str, src: "_Text", at: int) -> Any:
    out = _bare_value(value, src, at)
    if isinstance(out, str) and ("[" in out or "]" in out):
        raise src.error("a tag line holds one tag: write each [Name \"value\"] on a line of its own", at)
    return out


def _bare(value: str) -> Any:
    """A tag value typed without quotes: a JSON literal (3, true, [1,2]) is that value, anything else text."""
    if value and (value[0] in "-0123456789[{" or value in ("true", "false", "null")):
        try:
            return json.loads(value, **JSON_NUMBERS)
        except (ValueError, NotJSONError):  # not JSON (nor NaN, Infinity, 1e400): text
            return value
        except RecursionError:
            raise TooLargeError(_TOO_DEEP) from None
    return value


def _near(name: str, words: tuple[str, ...]) -> str | None:
    """A reserved tag name that ``name`` is a typo of, if any: two neighbouring letters
    swapped, or (for names of five letters or more) one letter changed, added or dropped.
    Short words and plurals are real words more often than typos ([Name], [Data], [Rounds])."""
    low = name.lower()
    for word in words:
        if low == word or low in (word + "s", word[:-1]) or word in (low + "s",):
            continue
        if abs(len(low) - len(word)) > 2:  # (never near: the distance is at least the lengths' difference)
            continue
        d = _distance(low, word)
        if d == 1 and (len(word) >= 5 or sorted(low) == sorted(word)):
            return word
        if d == 2 and len(word) >= 6 and sorted(low) == sorted(word):
            return word
    return None


def _distance(a: str, b: str) -> int:
    """Letters to add, drop, change or swap (two neighbours) to turn ``a`` into ``b``."""
    rows = [list(range(len(b) + 1))]
    for i, ca in enumerate(a, 1):
        row = [i]
        for j, cb in enumerate(b, 1):
            best = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, rows[-2][j - 2] + 1)
            row.append(best)
        rows.append(row)
    return rows[-1][-1]


def _json_text(text: str, src: _Text, at: int, what: str) -> Any:
    """A quoted (JSON) text of the notation, held to the limits of every record's text:
    valid Unicode (no "\\ud800" escape without its pair), nesting within MAX_DEPTH."""
    try:
        return _checked(json.loads(text, **JSON_NUMBERS), src, at)
    except NotJSONError as e:
        raise src.error(f"{what}: {e.message}", at) from None
    except (ValueError, RecursionError):
        raise src.error(f"{what} is not a well-formed quoted text", at) from None


_TOO_DEEP = f"this value nests lists and objects more than {MAX_DEPTH} levels deep (the limit for a record)"


def _bare_value(text: str, src: _Text, at: int) -> Any:
    """A tag value typed without quotes (:func:`_bare`), within the record's limits."""
    try:
        return _checked(_bare(text), src, at)
    except TooLargeError as e:
        raise src.error(e.message, at) from None


def _checked(value: Any, src: _Text, at: int) -> Any:
    """A value read from a tag or a quoted text, refused (at its line and column) when it
    breaks the record's limits: a tag's value sits at level 3 of a record (in ``event``)."""
    try:
        check_value(value, level=3)
    except InputError as e:
        raise src.error(e.message, at) from None
    return value


def _field_value(rest: str, src: _Text, at: int) -> Any:
    rest = rest.strip()
    if rest.startswith('"'):
        return _json_text(rest, src, at, "the value of [Field]")
    return _bare_value(rest, src, at)


def _score_pairs(src: _Text, words: list[str], at: int, what: str) -> dict[str, int]:
    """``SIDE points SIDE points…`` (of a [Scores] tag or an end line) as a dict."""
    if len(words) % 2:
        raise src.error(f"{what} lists sides with their points, like NS 23 EW 0", at)
    out: dict[str, int] = {}
    for side, n in zip(words[::2], words[1::2]):
        if not _POINTS.fullmatch(n):
            raise src.error(f"{what}: {shown(n)!r} is not a number of points (for {shown(side)})", at)
        if side in out:
            raise src.error(f"{what} gives {side} twice", at)
        out[side] = int(n)
    return out


def _numbers_in_tag(text: str, at: int, words: list[str]) -> list[tuple[str, int]]:
    """Each side of a ``[Scores "NS 204 EW 130"]`` tag starting at offset ``at``, with the offset of
    its number as typed, found word by word along the tag's line.  A value that hides its words
    behind JSON escapes (``\\u0020``) gives fewer or none: those sides stay placed at the tag."""
    end = text.find("\n", at)
    line = text[:end if end >= 0 else len(text)]
    head = _TAG_HEAD.match(line, at)
    cursor = head.end() if head is not None else at
    out = []
    for side, number in zip(words[::2], words[1::2]):
        found = []
        for word in (side, number):
            m = re.compile(rf"(?<![^\s\"]){re.escape(word)}(?![^\s\"\]])").search(line, cursor)
            if m is None:
                return out
            found.append(m.start())
            cursor = m.end()
        out.append((side, found[1]))
    return out


_TAG_HEAD = re.compile(r"[ \t]*\[[ \t]*[^\s\"\]]+")


class _HeaderReader:
    """Reads the header's tags (a part of :class:`~domrec.notation.reading._Reader`, which
    sets the attributes below in its ``__init__``)."""

    src: _Text
    pos: _Positions
    doc: dict[str, Any]
    result_claim: dict[str, Any]
    ended: Any
    uses_11: bool
    #: A header without seat tags is taken (no players: the caller gives them), where a game's
    #: text must name its players: the recorder's piped tags, whose seats default to their labels.
    players_optional: bool = False
    #: Where the tags read from a line missing its ``[`` or ``]`` are: that line has its problem
    #: already, so a tag among them that cannot be read adds none (it is left out).
    mended: frozenset[int] = frozenset()

    def _header(self, tags: list[tuple[str, Any, bool, int]], comments: list[str]) -> None:
        src, pos = self.src, self.pos
        doc = self.doc
        event: dict[str, Any] = {}
        seat_tags: list[tuple[str, str, int]] = []
        declared: list[str] | None = None
        ids: list[tuple[str, str, int]] = []
        options: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        first_pos = tags[0][3] if tags else 0
        read = []
        for name, value, quoted, at in tags:
            low = name.lower()
            if isinstance(value, tuple) and low != "field":
                if at in self.mended:
                    self._mended_error(name, at, declared)
                    continue
                self._header_error(src.error(f"tag {name} has text after its value; write [Name \"value\"]", at),
                                   name)
                continue
            read.append((name, value, quoted, at))
            if low == "seats":
                declared = str(value).split()
                for s in declared:
                    if not _SEAT_LABEL.match(s):
                        raise src.error(f"{shown(s)!r} cannot be a seat label: a seat begins with a letter and has "
                                        f"letters, digits or _ only", at)
                pos["/players"] = at
        once: dict[str, int] = {}  # (each tag given once at most: where it was given)
        for name, value, quoted, at in read:
            try:
                self._tag(name, value, quoted, at, once, declared, seat_tags, ids, options, rules, event)
            except NotationError as e:
                if at in self.mended:
                    self._mended_error(name, at, declared)
                    continue
                self._header_error(e, name, declared)
        if comments:
            if "comment" in event:
                event["comment"] = str(event["comment"]) + "\n" + "\n".join(comments)
            else:
                event["comment"] = "\n".join(comments)
        pos["/players"] = seat_tags[0][2] if seat_tags else first_pos
        pos["/rules"] = next((at for name, _, _, at in tags if name.lower() in ("variant", "option")), first_pos)
        pos[""] = first_pos
        if "game" not in doc:
            raise src.error("a game needs a [Game \"…\"] tag (broadway, competitive, horse-race, castle-rock or "
                            "domino-roads)" + _json_record_words(src.text, tags), first_pos)
        if declared is not None:
            missing = [s for s in declared if s not in {t[0] for t in seat_tags}]
            if missing:
                raise src.error(f"[Seats] names {', '.join(missing)} but no tag gives their player "
                                f"([{missing[0]} \"name\"])", self.pos.at["/players"])
            order = {s: i for i, s in enumerate(declared)}
            seat_tags.sort(key=lambda t: order[t[0]])
        if not seat_tags and not self.players_optional:
            raise src.error("a game needs its players, one tag per seat in clockwise order: [N \"Ana\"] [E \"Bo\"] … "
                            "or [P1 \"Ana\"] [P2 \"Bo\"] …", first_pos)
        players = []
        for i, (seat, name, at) in enumerate(seat_tags):
            players.append({"seat": seat, "name": name})
            pos[f"/players/{i}"] = at
        for seat, ident, at in ids:
            found = [p for p in players if p["seat"] == seat]
            if not found:
                raise src.error(f"[Id] names seat {seat}, which no seat tag gives", at)
            found[0]["id"] = ident
        self.seats = [p["seat"] for p in players]
        self.doc_players = players
        self.rules = rules
        self.options = options
        self.event = event

    def _header_error(self, e: NotationError, name: str | None, declared: list[str] | None = None) -> None:
        """A header tag that cannot be read.  Where it is a tag the rules do not depend on (the
        event's own tags and fields, the claimed result), the error is kept and the
        header read on, so the hands are still judged and every problem is found in one pass;
        a tag that says the game, its format, rules, seats or players stops the reading of the
        game, for no hand can be judged without it."""
        if not _harmless(name, declared):
            raise e
        self._broke(e, None)

    def _mended_error(self, name: str, at: int, declared: list[str] | None) -> None:
        """A tag read from a line missing its ``[`` or ``]`` that cannot be read as a tag either.
        Its line has its problem already (kept in ``errors``): nothing more is said of it, and
        where the rules depend on the tag, that problem stops the game, as any such tag does."""
        if _harmless(name, declared):
            return
        where = self.src.where(at)
        kept = next((e for e in self.errors if (e.line, e.column) == where), None)
        if kept is None:  # (cannot happen: the line's problem was kept when the tag was mended)
            raise self.src.error(f"tag {name} cannot be read", at)
        self.errors.remove(kept)
        raise kept

    def _twice(self, what: str, first: int, at: int) -> NotationError:
        """``what`` given a second time, at ``at``: said there, naming the line of the first."""
        return self.src.error(f"{what} is given twice: first at line {self.src.where(first)[0]}", at)

    def _tag(self, name: str, value: Any, quoted: bool, at: int, once: dict[str, int], declared: list[str] | None,
             seat_tags: list[tuple[str, str, int]], ids: list[tuple[str, str, int]], options: dict[str, Any],
             rules: dict[str, Any], event: dict[str, Any]) -> None:
        """One tag of the header, into the record's data (the lists and maps given)."""
        src, pos, doc = self.src, self.pos, self.doc
        low = name.lower()
        text = value if quoted else str(value)
        if low in _SINGLE_TAGS:
            if low in once:
                raise self._twice(f"tag [{name}]", once[low], at)
            once[low] = at
        if (not quoted and (low in _RESERVED or _DEFAULT_SEAT.match(name.upper())) and low not in _EVENT_TAGS
                and low != "field" and ("[" in str(value) or "]" in str(value))):
            raise src.error("a tag line holds one tag: write each [Name \"value\"] on a line of its own", at)
        if low == "game":
            doc["game"] = text
            pos["/game"] = at
        elif low == "format":
            m = re.fullmatch(r"\s*domrec\s+(\S+)\s*", str(text))
            if m is None:
                raise src.error(f"[Format] names the record format and its version, like \"domrec 1.1\", "
                                f"not {shown(str(text))!r}", at)
            doc["version"] = m.group(1)
            pos["/version"] = at
        elif low == "variant":
            rules["variant"] = text
            pos["/rules/variant"] = at
        elif low == "option":
            opt_name, eq, raw = str(text).partition("=")
            opt_name = opt_name.strip()
            if not eq or not opt_name:
                raise src.error(f"write a rule option as [Option \"name=value\"], not {shown(str(text))!r}", at)
            if opt_name in options:
                raise self._twice(f"rule option {opt_name}", pos.at.get(f"/rules/options/{opt_name}", at), at)
            try:
                options[opt_name] = games.parse_options([f"{opt_name}={raw.strip()}"])[opt_name]
            except InputError as e:  # (a number with a leading zero: unusable, said at the tag)
                raise NotationError(e.message, *src.where(at), e.pointer) from None
            pos[f"/rules/options/{opt_name}"] = at
        elif low == "seats":
            return
        elif low == "id":
            seat, eq, ident = str(text).partition("=")
            if not eq:
                raise src.error(f"write a player's id as [Id \"SEAT=id\"], not {shown(str(text))!r}", at)
            ids.append((seat.strip(), ident.strip(), at))
        elif low == "scores":
            words = str(text).split()
            self.result_claim["scores"] = _score_pairs(src, words, at, "[Scores]")
            pos["/result/scores"] = at
            pos["/result"] = at
            # A wrong total is pointed at its number (``EW 130``: the ``130``), as an end line's is.
            for side, number_at in _numbers_in_tag(src.text, at, words):
                pos[f"/result/scores/{pointer_token(side)}"] = number_at
        elif low == "winner":
            self.result_claim["winner"] = None if str(text).lower() == "draw" else text
            pos["/result/winner"] = at
            pos["/result"] = at
        elif low == "ended":
            self.ended = text  # the shape check refuses anything but "time", pointing at this tag
            self.uses_11 = True
            pos["/ended"] = at
        elif low == "field":
            if not (isinstance(value, tuple) and quoted):
                raise src.error("write an event field as [Field \"key\" value]", at)
            key, rest = value
            event[key] = _field_value(rest, src, at)
            pos["/event/" + key.replace("~", "~0").replace("/", "~1")] = at
        elif low in _EVENT_TAGS:
            key = _EVENT_TAGS[low]
            event[key] = value if quoted else _bare_checked(value, src, at)
            pos[f"/event/{key}"] = at
        elif (declared is not None and name in declared) or (declared is None and _DEFAULT_SEAT.match(name.upper())
                                                             and len(name) <= 4):
            seat = name if declared is not None else name.upper()
            first = next((where for s, _, where in seat_tags if s == seat), None)
            if first is not None:
                raise self._twice(f"seat {seat}", first, at)
            seat_tags.append((seat, text if quoted else str(value), at))
        else:
            alike = look_alike(name, _TAG_NAME.match)
            if alike is not None:
                raise src.error(alike, at)
            near = _near(name, tuple(sorted(_RESERVED - {"field"})))
            if near is not None:
                raise src.error(f"unknown tag [{name}]: did you mean [{near.capitalize()}]? (to keep it as an "
                                f"event field, write [Field \"{name}\" …])", at)
            if not _TAG_NAME.match(name):
                raise src.error(f"{shown(name)!r} is not a tag name (a letter, then letters, digits, "
                                f"_ . -); write [Field \"key\" value] for any other key", at)
            if name in event:
                raise self._twice(f"tag [{name}]", pos.at.get(f"/event/{name}", at), at)
            event[name] = value if quoted else _bare_checked(value, src, at)
            pos[f"/event/{name}"] = at

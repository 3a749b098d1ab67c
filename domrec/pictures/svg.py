"""A small layer over :mod:`xml.etree.ElementTree` for writing SVG.

Why ElementTree and not a drawing package: the pictures need rectangles,
circles, lines, text and groups, nothing more, and ElementTree is part of
Python, well kept, and escapes every attribute and text node itself.  Names
and comments from records reach the pictures, so markup must never be built
by joining strings; with ElementTree a player called ``</svg><script>`` is
only ever text.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

from domrec.errors import clip, one_line

NS = "http://www.w3.org/2000/svg"

#: The font every picture uses: the reader's own sans-serif (nothing is fetched).
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif"


#: A text's width is not measured by SVG: each character's width is guessed, in hundredths of the
#: font size, a little wider than the usual sans-serif's (DejaVu Sans, Arial): narrow letters and
#: punctuation, the widest letters and the ellipsis, capitals, East Asian wide characters and emoji
#: as wide as the font size, and every other character.  (svg.js guesses alike, character by character.)
_NARROW, _BROAD = frozenset("ijlI.,:;'|! "), frozenset("MWmw@%\u2026")
#: (symbols and emoji, CJK and Hangul, CJK compatibility to the fullwidth forms, emoji and the CJK
#: extensions: wider ranges than Unicode's East Asian wide, every character in them taken as wide)
_WIDE = ((0x2600, 0x27BF), (0x2E80, 0xD7A3), (0xF900, 0xFF60), (0x1F000, 0x3FFFD))


def _em(c: str) -> int:
    """One character's guessed width, in hundredths of the font size."""
    if c in _NARROW:
        return 33
    if c in _BROAD:
        return 100
    if "A" <= c <= "Z":
        return 80
    code = ord(c)
    return 100 if any(a <= code <= b for a, b in _WIDE) else 64


def text_width(text: str, size: float) -> float:
    """The guessed width of ``text`` set at ``size`` px (see :func:`_em`)."""
    return sum(_em(c) for c in text) * size / 100


def fit_text(text: str, room: float, size: float) -> str:
    """``text`` on one line shortened with an ellipsis (:func:`~domrec.errors.clip`) so that, set at
    ``size`` px, it is no wider than ``room`` px as guessed (:func:`text_width`)."""
    chars = list(text)
    if sum(_em(c) for c in chars) * size <= room * 100:
        return clip(text, len(chars))
    total, kept = 100, 0  # (the ellipsis)
    for c in chars:
        total += _em(c)
        if total * size > room * 100:
            break
        kept += 1
    return clip(text, kept)


#: Python spellings of attribute names already turned into SVG's (a picture asks for the same
#: few dozen names tens of thousands of times: a fifth of a picture's CPU went to spelling them).
_NAMES: dict[str, str] = {}


def _attrs(attrs: dict[str, Any]) -> dict[str, str]:
    """Attribute names in Python spelling (``class_``, ``font_size``) to SVG spelling."""
    out: dict[str, str] = {}
    names = _NAMES
    for key, value in attrs.items():
        if value is None:
            continue
        name = names.get(key)
        if name is None:
            name = names[key] = key.rstrip("_").replace("_", "-")
        if isinstance(value, float):  # a tenth of a unit is finer than any screen shows, and pages hold thousands
            out[name] = f"{value:.1f}".rstrip("0").rstrip(".")
        else:
            out[name] = value if value.__class__ is str else str(value)
    return out


def number(value: float) -> str:
    """A number as an attribute's value is written (to a tenth, trailing zeros dropped)."""
    return _attrs({"n": float(value)})["n"]


def element(tag: str, **attrs: Any) -> ET.Element:
    """A detached element (``class_="tile"`` becomes ``class="tile"``)."""
    return ET.Element(tag, _attrs(attrs))


def sub(parent: ET.Element, tag: str, **attrs: Any) -> ET.Element:
    """A child element of ``parent``."""
    return ET.SubElement(parent, tag, _attrs(attrs))


def text(parent: ET.Element, x: float, y: float, words: str, **attrs: Any) -> ET.Element:
    """A line of text; ``words`` may hold anything (it is escaped on output)."""
    attrs.setdefault("font_family", FONT)
    node = sub(parent, "text", x=float(x), y=float(y), **attrs)
    node.text = words
    return node


def title(parent: ET.Element, words: str) -> ET.Element:
    """A tooltip (and an accessible name) for ``parent``."""
    node = sub(parent, "title")
    node.text = words
    return node


def document(width: float, height: float, label: str) -> ET.Element:
    """An ``<svg>`` root that scales to its container (viewBox, no fixed size in CSS terms)."""
    root = element("svg", xmlns=NS, width=float(width), height=float(height),
                   viewBox=f"0 0 {width:.0f} {height:.0f}", role="img")
    root.set("aria-label", label)
    title(root, label)
    return root


#: What XML 1.0 cannot hold, not even as a character reference, and ElementTree writes as it is: a
#: control character of a record's name or comment (a terminal's ESC, NUL) would make the whole
#: picture unreadable to a browser ("not well-formed").  None is ever part of the markup drawn.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def to_string(root: ET.Element) -> str:
    """The element as SVG markup (no XML declaration, so it can also sit inside HTML); a character
    XML cannot hold is written as the terminal shows it (``\\x1b``)."""
    text = ET.tostring(root, encoding="unicode")
    if _NOT_XML.search(text) is None:
        return text
    return _NOT_XML.sub(lambda m: one_line(m.group()) if m.group() < "\x20" else "\ufffd", text)

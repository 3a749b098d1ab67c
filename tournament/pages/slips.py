"""The players' PIN slips: one printable page, a slip a player, to hand out at check-in.

With ``tournament serve --pins`` a confirmation at the table takes the player's own 4-digit PIN
(:func:`tournament.event.venue.make_pins`).  ``tournament pins EVENT --slips -o pins.html`` writes
this page: each slip holds a player's name and PIN and nothing else (no key, no link: a slip
left on a table opens nothing), inside dashed cut lines, many to an A4 sheet, in the order
people are looked up at a desk (by name, case and accents aside).

Every name is escaped and isolated (``<bdi>``, without direction controls), as on every page of
the tool, so a right-to-left name never moves the PIN printed beside it.  The page carries a
generator mark, so an earlier page of slips is replaced without ``--force`` and any other file
is not (:mod:`domrec.output`'s rules, as ``tournament sheets``).
"""

from __future__ import annotations

import html
import re
import unicodedata
from typing import Any, Iterable, Mapping

from domrec import output as outputs

from tournament.i18n import translations
from tournament.names import plain_direction
from tournament.settings import Settings
from tournament.values import Player

SLIPS_MARK = '<meta name="generator" content="domrec tournament pins">'
#: The page of PIN slips (an earlier one is replaced without --force).
SLIPS = outputs.Kind("a page of PIN slips written by tournament pins", outputs.marked(SLIPS_MARK), private=True)

# Two columns of six slips, each 95 x 40 mm, on an A4 page within its 10 mm margins (190 x 277
# mm): 12 a page, a page a section, so that no slip is ever cut across two pages.  A slip's dashed
# border is where the scissors go.
PER_PAGE = 12
_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;color:#000;background:#fff}
.page{display:grid;grid-template-columns:repeat(2,95mm);grid-template-rows:repeat(6,40mm);justify-content:center;
      align-content:start;margin:10mm auto;break-after:page;page-break-after:always}
.page:last-child{break-after:auto;page-break-after:auto}
.slip{border:1px dashed #000;margin:0 -1px -1px 0;padding:4mm 6mm;display:flex;flex-direction:column;
      justify-content:center;gap:2mm;overflow:hidden;break-inside:avoid;page-break-inside:avoid}
.slip .name{display:block;font-size:14pt;font-weight:bold;unicode-bidi:isolate;overflow-wrap:anywhere;
            max-height:2.6em;overflow:hidden;line-height:1.3}
.slip .pin{font-size:12pt;margin:0}
.slip .pin b{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:22pt;
             letter-spacing:2mm;margin-left:2mm}
@page{size:A4;margin:10mm}
@media print{.page{margin:0 auto}}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _looked_up(name: str) -> list[Any]:
    """A name as a desk looks it up: accents and case aside, numbers as numbers ("Player 2"
    before "Player 10")."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c)).casefold()
    return [int(part) if k % 2 else part for k, part in enumerate(re.split(r"(\d+)", plain))]


def slip_html(player: Player, pin: str, lang: str = "en") -> str:
    """One player's slip: the name (escaped, isolated) and the PIN."""
    _ = translations(lang).gettext
    name = plain_direction(player.name)
    return (f'<div class="slip"><bdi class="name" dir="auto">{_e(name)}</bdi>'
            f'<p class="pin">{_e(_("PIN"))} <b>{_e(pin)}</b></p></div>')


def slips_page(settings: Settings, players: Iterable[Player], pins: Mapping[int, str], lang: str | None = None) -> str:
    """The printable page in ``lang`` (default: the event's): a slip for each of ``players`` with a
    PIN in ``pins``, sorted by name as a desk looks people up."""
    lang = lang or settings.lang
    _ = translations(lang).gettext
    chosen = sorted((p for p in players if p.id in pins), key=lambda p: (_looked_up(p.name), p.name, p.id))
    title = _("%(event)s — the players' PINs") % {"event": plain_direction(settings.name)}
    pages = ["<section class=\"page\">\n" + "\n".join(slip_html(p, pins[p.id], lang)
                                                        for p in chosen[k:k + PER_PAGE]) + "\n</section>"
             for k in range(0, len(chosen), PER_PAGE)]
    return (f"<!DOCTYPE html>\n<html lang=\"{_e(lang)}\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
            f"{SLIPS_MARK}\n"
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style></head><body>\n"
            f'<main class="slips">\n' + "\n".join(pages) + '\n</main>\n</body></html>\n')

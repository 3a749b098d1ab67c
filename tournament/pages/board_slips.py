"""A duplicate event's board slips: one printable A4 page a board a table, to lay the deal out.

A slip is what a bridge board's tray holds, written down: the board's number, who leads, each
seat's tiles in the order the board lists them, and the boneyard (first drawn on top), the row or
the piles where the game has them (docs/duplicate.md, "Laying out the boards").  Before a round
each table takes the slip of each of its boards and lays the tiles out from its own set.
``tournament boards EVENT --slips -o FILE`` writes the page: for every table of the rounds seated,
a slip for each board it plays (in the order it plays them), or one slip a board before round 1.

The page carries a generator mark, so an earlier page of board slips is replaced without
``--force`` and any other file is not (:mod:`domrec.output`'s rules).
"""

from __future__ import annotations

import html
from typing import Any, Iterable, Sequence

from domrec import output as outputs

from tournament.i18n import translations
from tournament.names import plain_direction
from tournament.pairing.boards import Board
from tournament.settings import Settings

BOARD_SLIPS_MARK = '<meta name="generator" content="domrec tournament board slips">'
#: The page of board slips (an earlier one is replaced without --force).  It holds every board's deal,
#: which the tables still to play a board must not read: written readable by its owner alone (0600),
#: as the PIN slips and the sheets with keys are (docs/duplicate.md, "Who may read the deals").
BOARD_SLIPS = outputs.Kind("a page of board slips written by tournament boards", outputs.marked(BOARD_SLIPS_MARK),
                           private=True)

_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;color:#000;background:#fff}
.slip{margin:10mm auto;max-width:190mm;break-after:page;page-break-after:always}
.slip:last-child{break-after:auto;page-break-after:auto}
.slip h1{font-size:28pt;margin:0 0 2mm}
.slip .where{font-size:14pt;margin:0 0 6mm}
.slip table{border-collapse:collapse;width:100%}
.slip th{text-align:left;padding:3mm 4mm 3mm 0;font-size:16pt;width:30mm;vertical-align:top}
.slip td{padding:3mm 0;font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:18pt;
         word-spacing:3mm;border-bottom:1px solid #999}
@page{size:A4;margin:10mm}
@media print{.slip{margin:0 auto}}
"""


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def slip_html(board: Board, where: str, lang: str = "en") -> str:
    """One board's slip: its number, where it is played (``where``, already in ``lang``), who leads,
    each seat's tiles in order, then the boneyard, row or piles."""
    _ = translations(lang).gettext
    deal = board.deal
    rows = [(s, deal.hands[s]) for s in board.seats]
    if deal.boneyard:
        rows.append((_("Boneyard (first drawn on top)"), deal.boneyard))
    if deal.row:
        rows.append((_("Row"), deal.row))
    for s in board.seats if deal.piles else ():
        rows.append((_("%(seat)s's pile") % {"seat": s}, deal.piles[s]))
    body = "".join(f"<tr><th>{_e(name)}</th><td>{_e(' '.join(tiles))}</td></tr>" for name, tiles in rows)
    return (f'<section class="slip"><h1>{_e(_("Board %(n)s") % {"n": board.number})}</h1>'
            f'<p class="where">{_e(where)}{" · " if where else ""}{_e(_("%(seat)s leads") % {"seat": board.leader})}</p>'
            f"<table><tbody>{body}</tbody></table></section>")


def slips_page(settings: Settings, boards: Sequence[Board], tables: Iterable[tuple[int, int, Sequence[int]]] = (),
               lang: str | None = None) -> str:
    """The printable page in ``lang`` (default: the event's): for each (round, table, boards) of
    ``tables`` a slip for each of its boards; with no tables, one slip a board."""
    lang = lang or settings.lang
    _ = translations(lang).gettext
    by_number = {b.number: b for b in boards}
    slips = [slip_html(by_number[n], _("Round %(r)s, table %(t)s") % {"r": r, "t": t}, lang)
             for r, t, numbers in tables for n in numbers if n in by_number]
    if not slips:
        slips = [slip_html(b, "", lang) for b in boards]
    title = _("%(event)s — board slips") % {"event": plain_direction(settings.name)}
    return (f"<!DOCTYPE html>\n<html lang=\"{_e(lang)}\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
            f"{BOARD_SLIPS_MARK}\n<title>{_e(title)}</title>\n<style>{_CSS}</style></head><body>\n"
            + "\n".join(slips) + "\n</body></html>\n")

"""Tables printed at the terminal: readable at 80 columns, everything with ``--wide``.

A narrow terminal must never cut a number: numbers never wrap and their columns are as wide as
their widest cell.  Names wrap instead, between words, never inside one (a column is never
narrower than its longest word).  When even so the table is wider than the terminal, the
columns that matter least go (:data:`tournament.pages.display.DROP_ORDER`: the player number, the
status, Buchholz, byes, points for and against, …) and a line under the table names them and
says ``--wide`` shows them; the ranking columns never go.  ``--wide`` prints every column at its
natural width, however wide that is.

The width is the terminal's; output to a pipe or file is laid out for ``COLUMNS`` when that is
set, else for 200 columns (a file is read in an editor, not on an 80-column screen).
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import sys
import textwrap
from typing import Any, Iterable, Sequence

from domrec.errors import printable
from tournament.pages.display import DROP_ORDER, is_text_column

#: The narrowest a wrapping column (a name) is squeezed to before columns are dropped instead.
MIN_TEXT_WIDTH = 10
#: Columns of a round's tables that hold names (they wrap).
NAME_COLUMNS = ("N", "E", "S", "W", "NS pair", "EW pair", "NS", "EW", "players")
PIPE_WIDTH = 200


def _wraps(column: str) -> bool:
    return is_text_column(column) or column in NAME_COLUMNS or column == "result" or (column[:1] == "P" and column[1:].isdigit())


def _numeric(text: str) -> bool:
    """A cell that reads as a number (``12``, ``-3.5``, ``2-0-1``, ``+35``): right-aligned."""
    return all(ch.isdigit() or ch in "+-.,/ ×" for ch in text)


def terminal_width() -> int:
    """The width to lay a table out for (see the module's docstring)."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns  # honours COLUMNS too
    return _columns_env(PIPE_WIDTH)


def _columns_env(default: int) -> int:
    text = os.environ.get("COLUMNS", "")
    return int(text) if text.isdigit() and 20 <= int(text) <= 10_000 else default


def _cell(value: Any) -> str:
    """A cell as printed (:func:`printable`)."""
    return "" if value is None else printable(str(value))


def fit(rows: Sequence[dict[str, Any]], columns: Sequence[str], width: int,
        keep: Iterable[str] = ()) -> tuple[list[str], list[str]]:
    """The columns that fit ``width`` (numbers at full width, names squeezed to at least
    :data:`MIN_TEXT_WIDTH`), and those left out, least important first to go; ``keep`` (the
    ranking columns) never go."""
    keep = set(keep)
    shown = list(columns)
    hidden: list[str] = []

    def needed() -> int:
        return needed_width(rows, shown, True)

    # The known columns in their order, then any other (a later tie-break's column), rightmost first.
    for c in [*DROP_ORDER, *reversed([c for c in columns if c not in DROP_ORDER])]:
        if needed() <= width:
            break
        if c in shown and c not in keep and (c in DROP_ORDER or not _wraps(c)):
            shown.remove(c)
            hidden.append(c)
    return shown, hidden


#: Where a word may break besides spaces: after a hyphen between letters ("Rodríguez-|Villanueva"),
#: as print does; never inside a word otherwise.
_HYPHEN = re.compile(r"(?<=\w-)(?=\w)")


def _pieces(text: str) -> list[str]:
    return [piece for word in text.split() for piece in _HYPHEN.split(word)]


def longest_word(rows: Sequence[dict[str, Any]], column: str) -> int:
    """The longest unbreakable piece of a column (its header's too): a word, or a part of a
    hyphenated one.  A name wraps between them, never inside one."""
    return max([len(w) for w in _pieces(column)] +
               [len(w) for r in rows for line in _cell(r.get(column)).splitlines() for w in _pieces(line)] + [1])


def _wrap_cell(text: str, width: int) -> str:
    """A cell's text wrapped to ``width`` between words and after hyphens (:data:`_HYPHEN`)."""
    out: list[str] = []
    for line in text.splitlines() or [""]:
        out.extend(textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=True) or [""])
    return "\n".join(out)


def column_widths(rows: Sequence[dict[str, Any]], columns: Sequence[str], width: int,
                  chrome: int | None = None, compact: bool = False) -> dict[str, int]:
    """Each column's width in a table ``width`` wide: numbers at their natural width; the names
    share what is left, each at least :func:`squeezed_width` (``compact``: :data:`MIN_TEXT_WIDTH`,
    its long words shortened), the rest handed out a character at a time to the column that lacks
    the most of its natural width.  ``chrome``: the rules and padding (a ruled table's by default)."""
    widths = {c: (_min_width(rows, c) if compact else squeezed_width(rows, c)) if _wraps(c)
              else natural_width(rows, c) for c in columns}
    natural = {c: natural_width(rows, c) for c in columns if _wraps(c)}
    chrome = 1 + 3 * len(columns) if chrome is None else chrome
    spare = width - chrome - sum(widths.values())
    while spare > 0 and natural:
        lacking = {k: natural[k] - widths[k] for k in natural if natural[k] > widths[k]}
        small = [k for k in lacking if lacking[k] <= spare]
        # compact: a name shortened with "…" loses as much by one character as by twenty, so the
        # spare first makes whole the names it can; then to the column that lacks the most.
        c = min(small, key=lambda k: lacking[k]) if compact and small else max(natural, key=lambda k: natural[k] - widths[k])
        if natural[c] <= widths[c]:
            break
        widths[c] += 1
        spare -= 1
    return widths


def squeezed_width(rows: Sequence[dict[str, Any]], column: str) -> int:
    """The narrowest a wrapping column goes: :data:`MIN_TEXT_WIDTH` (or its natural width, if
    less), and never narrower than its longest word."""
    natural = natural_width(rows, column)
    return min(natural, max(MIN_TEXT_WIDTH, longest_word(rows, column)))


def natural_width(rows: Sequence[dict[str, Any]], column: str) -> int:
    """A column's widest line (a cell may hold several)."""
    return max([len(column)] + [len(line) for r in rows for line in (_cell(r.get(column)).splitlines() or [""])])


def needed_width(rows: Sequence[dict[str, Any]], columns: Sequence[str], squeeze: bool) -> int:
    """The width of a rich table of these columns: a border, then each column's padding and
    right border; ``squeeze``: names as narrow as :func:`squeezed_width` lets them."""
    return 1 + sum(3 + (squeezed_width(rows, c) if squeeze and _wraps(c) else natural_width(rows, c))
                   for c in columns)


#: Shorter headers for a table that needs every column at a narrow terminal (the compact layout),
#: each explained in a line under the table.
ABBREVIATIONS = {"played": "pl", "against": "agst", "Buchholz": "Bch", "forfeits": "ff", "byes": "bye",
                 "firsts": "1st", "placement": "plc", "average": "avg",
                 # a team's standings (``standings --by team``)
                 "points_for": "for", "points_against": "agst", "efectividad": "efec", "match_points": "MP",
                 "matches_won": "mW", "matches_lost": "mL",
                 # (the same, as the grid heads them: tournament.pages.display.TEAM_LABELS)
                 "matches played": "mPl", "games won": "gW", "games lost": "gL", "points for": "for",
                 "points against": "agst", "match points": "MP", "matches won": "mW", "matches drawn": "mD",
                 "matches lost": "mL"}
#: What each abbreviation stands for, in the line under the table.
ABBREVIATED = {"pl": "played", "agst": "points against", "Bch": "Buchholz", "ff": "forfeits", "bye": "byes",
               "1st": "firsts", "plc": "placement", "avg": "average", "for": "points for",
               "efec": "efectividad", "MP": "match points", "mW": "matches won", "mL": "matches lost",
               "mPl": "matches played", "gW": "games won", "gL": "games lost", "mD": "matches drawn"}
#: A cell of one paragraph of words (a name) takes at most this many lines; beyond, it ends in "…".
MAX_NAME_LINES = 2
#: The compact layout's space between columns: no vertical rules, two spaces.
COMPACT_GAP = 2


def shorten(text: str, width: int, lines: int = MAX_NAME_LINES) -> str:
    """``text`` wrapped between words (or after a hyphen) to ``width`` in at most ``lines`` lines;
    what does not fit is cut and marked with an ellipsis ("…"), so the cell says it is shortened:
    a reader never takes "Fernández-Or" for a whole name."""
    out = textwrap.wrap(text, max(width, 1), break_long_words=False, break_on_hyphens=True) or [""]
    parts = text.split(" & ")
    if lines == 1 and len(out) > 1 and len(parts) > 1 and all(re.match(r"#\d+ ", x) for x in parts):
        # Partners each with a number (``#7 Ana & #16 Bo``): each shortened in its share, so that
        # no partner's number is lost to the other's long name.
        share = (width - 3 * (len(parts) - 1)) // len(parts)
        need = {i: len(x) for i, x in enumerate(parts)}
        spare = width - 3 * (len(parts) - 1) - sum(min(n, share) for n in need.values())
        widths = {}
        for i in sorted(need, key=need.get):
            widths[i] = min(need[i], share + max(spare, 0)) if need[i] > share else need[i]
            spare -= max(0, widths[i] - share)
        return " & ".join(x if len(x) <= widths[i] else shorten(x, widths[i], 1) for i, x in enumerate(parts))
    if len(out) <= lines and all(len(line) <= width for line in out):
        return "\n".join(out)
    kept: list[str] = []
    for line in out[:lines - 1]:
        if len(line) > width:
            break
        kept.append(line)
    rest = ""
    for line in out[len(kept):]:  # the lines a hyphen broke join again without a space
        rest += ("" if not rest or re.search(r"\w-$", rest) else " ") + line
    kept.append(rest[:max(width - 1, 0)].rstrip(" &,·") + "…")  # not "Ana &…": "Ana…"
    return "\n".join(kept)


def _one_paragraph(value: Any) -> bool:
    """A cell of words only (a name), not one laid out in lines (a side's pair, then its players)."""
    return "\n" not in _cell(value)


def compact_width(rows: Sequence[dict[str, Any]], columns: Sequence[str]) -> int:
    """The compact layout's width, names squeezed to :data:`MIN_TEXT_WIDTH` (see :func:`print_table`)."""
    return sum(_min_width(rows, c) if _wraps(c) else natural_width(rows, c) for c in columns) \
        + COMPACT_GAP * max(0, len(columns) - 1)


def _min_width(rows: Sequence[dict[str, Any]], column: str) -> int:
    """The narrowest a name column goes in the compact layout: :data:`MIN_TEXT_WIDTH` (or less
    when its names are shorter); its longest word may be shortened, as its names are."""
    return min(natural_width(rows, column), MIN_TEXT_WIDTH)


def _abbreviate(rows: list[dict[str, Any]], columns: list[str],
               keep: Iterable[str] = ()) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """The rows under the compact layout's short headers, the headers, and the line that explains
    them; a status folds into the name ("(withdrawn)", "(from round 2)") where a name column is shown.  A column
    that ranks (``keep``) keeps its own name: the line under the table says it in full."""
    named = next((c for c in ("name", "team") if c in columns), None)
    if "status" in columns and named:
        # (a late entry's "from round 2" too: listed last, the name says why)
        rows = [{**r, named: f"{r[named]} ({r['status']})"} if r.get("status") not in (None, "active") else r
                for r in rows]
        columns = [c for c in columns if c != "status"]
    keep = set(keep)
    short = {c: c if c in keep else ABBREVIATIONS.get(c, c) for c in columns}
    for c in columns:  # a header of the data already reads so: that one keeps its long name
        if short[c] != c and list(short.values()).count(short[c]) > 1:
            short[c] = c
    rows = [{short[c]: r.get(c) for c in columns} for r in rows]
    used = [f"{short[c]} {ABBREVIATED[short[c]]}" for c in columns if short[c] != c and short[c] != "for"]
    return rows, [short[c] for c in columns], ([f"({', '.join(used)})"] if used else [])


@functools.cache
def _console_class() -> type:
    """rich's Console, but for a reader gone (``tournament standings … | head -1``): rich's own
    answer is to exit 1, which says the command was refused, where every other way a command
    meets a closed pipe ends it as done (exit 0, no word: :func:`tournament.cli.app.guarded`);
    this one raises BrokenPipeError for that to happen here too."""
    from rich.console import Console

    class PipeConsole(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True  # (nothing more written: the reader has gone)
            raise BrokenPipeError

    return PipeConsole


def print_table(rows: list[dict[str, Any]], title: str, footer: Iterable[str] = (), wide: bool = False,
                keep: Iterable[str] = (), lines: int = MAX_NAME_LINES) -> None:
    """A table at the terminal's width (see the module's docstring): ruled, as wide as it needs;
    when that does not fit with names in at most ``lines`` lines, the compact layout
    (no vertical rules, short headers explained under the table, names shortened with "…") keeps
    every column; only when even that does not fit do the least important columns go, said so
    in a line under the table."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    from domrec.console import unescaped

    columns = list(rows[0]) if rows else []
    hidden: list[str] = []
    width = terminal_width()
    compact = False
    legend: list[str] = []
    if not wide and needed_width(rows, columns, True) > width or not wide and not _ruled_fits(rows, columns, width, lines):
        compact = True
        keep = set(keep)
        shortened = _abbreviate(rows, columns, keep)
        if compact_width(shortened[0], shortened[1]) > width:  # the ranking columns' short names too
            shortened = _abbreviate(rows, columns)
            keep = {ABBREVIATIONS.get(c, c) for c in keep}
        rows, columns, legend = shortened
        for c in [*[ABBREVIATIONS.get(c, c) for c in DROP_ORDER],
                  *reversed([c for c in columns if c not in DROP_ORDER])]:
            if compact_width(rows, columns) <= width:
                break
            if c in columns and c not in keep and (c in DROP_ORDER or c in ABBREVIATED or not _wraps(c)):
                columns.remove(c)
                hidden.append(ABBREVIATED.get(c, c))
        if hidden:
            used = [f"{c} {ABBREVIATED[c]}" for c in columns if c in ABBREVIATED and c != "for"]
            legend = [f"({', '.join(used)})"] if used else []
    if "byes" in hidden and "name" in columns:  # a bye is no game, yet may count as one won: said
        rows = [{**r, "name": f"{r['name']} ({r['byes']} bye{'s' if r['byes'] != 1 else ''})"}
                if isinstance(r.get("byes"), (int, float)) and r["byes"] else r for r in rows]
    if wide:
        width = max([len(title), needed_width(rows, columns, False)] + [len(line) for line in footer])
    elif compact:  # what must stay (numbers, ranking columns) is wider than the terminal: never cut, it runs over
        width = max(width, compact_width(rows, columns))
    else:
        width = max(width, needed_width(rows, columns, True))
    # Rich writes its own codes (the title's italics, the headers' bold) under the escaping of
    # standard output (domrec.console.Printable); everything it is given from the event file is
    # escaped here instead (_cell, printable).
    console = _console_class()(file=unescaped(sys.stdout), width=width, soft_wrap=False)
    if compact:
        # As wide as its title (up to the terminal's width), so that the title reads on one line.
        table = Table(title=Text(_cell(title)), box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                      padding=(0, 1, 0, 0), collapse_padding=True, min_width=min(len(title), width))
        widths = column_widths(rows, columns, width, chrome=COMPACT_GAP * max(0, len(columns) - 1), compact=True)
    else:
        table = Table(title=Text(_cell(title)), show_lines=False, min_width=min(len(title), width))
        widths = column_widths(rows, columns, width) if not wide else {c: natural_width(rows, c) for c in columns}
    for c in columns:
        if _wraps(c):  # wrapped here, between words and after hyphens: rich would cut a long word
            table.add_column(Text(_cell(c)), no_wrap=True, overflow="fold", width=widths[c])
        else:  # a number: never wrapped, never cut
            # Words (a club, a category from the players CSV) read from the left; numbers line up right.
            words = any(isinstance(r.get(c), str) and r.get(c) and not _numeric(r.get(c)) for r in rows)
            table.add_column(Text(_cell(c)), no_wrap=True, justify="left" if words else "right", min_width=widths[c])
    # Every cell a Text, never a str: rich reads a str as markup, so a club typed as "[red]Norte[/]"
    # would print red (and "[link=…]" would make a link) instead of as it was entered.
    for r in rows:
        table.add_row(*(Text(_fit_cell(_cell(r.get(c)), widths[c], wide, lines, c != "result")) if _wraps(c)
                        else Text(_cell(r.get(c))) for c in columns))
    console.print(table)
    for line in [*footer, *legend]:
        for part in wrap_lines(line, width):
            console.print(Text(part))  # escaped by wrap_lines
    if hidden:
        for part in wrap_lines(f"not shown at this width: {', '.join(hidden)} (--wide shows every column)", width):
            console.print(Text(part))  # escaped by wrap_lines


def _fit_cell(text: str, width: int, wide: bool, lines: int = MAX_NAME_LINES, shortens: bool = True) -> str:
    """A name cell: wrapped between words; a name (one paragraph) in at most ``lines`` lines,
    shortened with "…" beyond (never with ``--wide``)."""
    if wide or "\n" in text or not shortens:
        return _wrap_cell(text, width)
    return shorten(text, width, lines)


def _ruled_fits(rows: Sequence[dict[str, Any]], columns: Sequence[str], width: int,
                lines: int = MAX_NAME_LINES) -> bool:
    """Whether the ruled layout shows every name whole in at most ``lines`` lines."""
    widths = column_widths(rows, columns, width)
    return all(shorten(_cell(r.get(c)), widths[c], lines) == _wrap_cell(_cell(r.get(c)), widths[c])
               for c in columns if _wraps(c) and c != "result" for r in rows if _one_paragraph(r.get(c)))


def fits_whole(rows: Sequence[dict[str, Any]], width: int, lines: int = MAX_NAME_LINES) -> bool:
    """Whether ``rows`` print ruled at ``width`` with every column and every name whole in at most
    ``lines`` lines (else :func:`print_table` lays them out compact)."""
    columns = list(rows[0]) if rows else []
    return needed_width(rows, columns, True) <= width and _ruled_fits(rows, columns, width, lines)


def wrap_lines(text: str, width: int | None = None) -> list[str]:
    """``text``'s lines fitted to the terminal (:func:`terminal_width`): a long line wraps
    between words, its continuation indented two spaces past the line's own indent, so a
    finding, an audit entry or a bracket's match reads as one item at 80 columns.  Words are
    never split (a word wider than the terminal runs over).  Control characters are escaped first
    (:func:`printable`), so that the width counted is the width shown."""
    width = width or terminal_width()
    out: list[str] = []
    for line in printable(text, tabs=True).splitlines() or [""]:
        if len(line) <= width:
            out.append(line)
            continue
        indent = line[:len(line) - len(line.lstrip())]
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False, drop_whitespace=True)
                   or [line])
    return out

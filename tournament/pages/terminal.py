"""Tables printed at the terminal: readable at 80 columns, everything with ``--wide``.

A narrow terminal must never cut a number: numbers never wrap and their columns are as wide as
their widest cell.  Names wrap instead.  When even so the table is wider than the terminal, the
columns that matter least go (:data:`tournament.pages.display.DROP_ORDER`: the player number, the
status, Buchholz, byes, points for and against, …) and a line under the table names them and
says ``--wide`` shows them; the ranking columns never go.  ``--wide`` prints every column at its
natural width, however wide that is.

The width is the terminal's; output to a pipe or file is laid out for ``COLUMNS`` when that is
set, else for 200 columns (a file is read in an editor, not on an 80-column screen).
"""

from __future__ import annotations

import os
import shutil
import sys
from typing import Any, Iterable, Sequence

from tournament.pages.display import DROP_ORDER, is_text_column

#: The narrowest a wrapping column (a name) is squeezed to before columns are dropped instead.
MIN_TEXT_WIDTH = 10
#: Columns of a round's tables that hold names (they wrap).
NAME_COLUMNS = ("N", "E", "S", "W", "NS pair", "EW pair")
PIPE_WIDTH = 200


def _wraps(column: str) -> bool:
    return is_text_column(column) or column in NAME_COLUMNS or column == "result" or (column[:1] == "P" and column[1:].isdigit())


def terminal_width() -> int:
    """The width to lay a table out for (see the module's docstring)."""
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns  # honours COLUMNS too
    return _columns_env(PIPE_WIDTH)


def _columns_env(default: int) -> int:
    text = os.environ.get("COLUMNS", "")
    return int(text) if text.isdigit() and 20 <= int(text) <= 10_000 else default


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def natural_width(rows: Sequence[dict[str, Any]], column: str) -> int:
    return max([len(column)] + [len(_cell(r.get(column))) for r in rows])


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


def needed_width(rows: Sequence[dict[str, Any]], columns: Sequence[str], squeeze: bool) -> int:
    """The width of a rich table of these columns: a border, then each column's padding and
    right border; ``squeeze``: names at :data:`MIN_TEXT_WIDTH` at most."""
    return 1 + sum(3 + (min(natural_width(rows, c), MIN_TEXT_WIDTH) if squeeze and _wraps(c)
                        else natural_width(rows, c)) for c in columns)


def print_table(rows: list[dict[str, Any]], title: str, footer: Iterable[str] = (), wide: bool = False,
                keep: Iterable[str] = ()) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    columns = list(rows[0]) if rows else []
    hidden: list[str] = []
    width = terminal_width()
    if not wide:
        columns, hidden = fit(rows, columns, width, keep)
    if "status" in hidden and "name" in columns:  # a withdrawn player stays marked
        rows = [{**r, "name": f"{r['name']} (withdrawn)"} if r.get("status") == "withdrawn" else r for r in rows]
    if wide:
        width = max([len(title), needed_width(rows, columns, False)] + [len(line) for line in footer])
    else:  # what must stay (numbers, ranking columns) is wider than the terminal: never cut, it runs over
        width = max(width, needed_width(rows, columns, True))
    console = Console(width=width, soft_wrap=False)
    table = Table(title=Text(title), show_lines=False)
    for c in columns:
        if _wraps(c):
            table.add_column(Text(c), overflow="fold", min_width=min(natural_width(rows, c), MIN_TEXT_WIDTH))
        else:  # a number: never wrapped, never cut
            table.add_column(Text(c), no_wrap=True, justify="right", min_width=natural_width(rows, c))
    for r in rows:
        table.add_row(*(Text(_cell(r.get(c))) for c in columns))
    console.print(table)
    for line in footer:
        console.print(Text(line))
    if hidden:
        console.print(Text(f"not shown at this width: {', '.join(hidden)} (--wide shows every column)"))

"""The event's public pages: one set of Jinja2 templates, served live and written as files.

``tournament serve`` serves these pages to the hall with no key (find your table, the round's
tables, the standings, every result with its replay, a page a player, the crosstable, the bracket
or final, the projector), and ``tournament report`` writes the very same pages as files, from the
same templates (``templates/`` beside this module).  What differs is said by a :class:`Site`:
where a link points (the server's paths, or files relative to each other), and whether the page
carries the server's live script (a file never does: it is read as it was written).

The data comes from :mod:`tournament.event.public` (one read of the event); this module only
shapes it for people (the standings' columns as :mod:`tournament.pages.display` names them, the
projector's screens) and renders it.  Every value goes through Jinja2's autoescaping: a player's
name is data, never markup.  Every sentence a person reads is written ``_("...")`` in the
templates, ready for a translation; until one is installed the sentences read as written.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

import attrs
import jinja2
from markupsafe import Markup, escape

from tournament import i18n
from tournament.event import public as pub
from tournament.event.duplicate_hall import ranked_pairs, still_travelling
from tournament.names import plain_direction
from tournament.pages import display
from tournament.pages.words import Words, game_name

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"

#: The page written by ``tournament report`` carries this mark (:mod:`domrec.output` knows its own).
REPORT_MARK = '<meta name="generator" content="domrec tournament report">'
#: A page served by ``tournament serve``.
SERVE_MARK = '<meta name="generator" content="domrec tournament serve">'

#: The projector's screens, drawn on a canvas of 1920x1080 units that the page scales to the screen
#: it is shown on (1280x720, 1280x800, 1366x768 alike: ``--u`` in projector.css), no text under 32
#: units: how many names or standings rows a screen holds at most (columns of rows), and how long
#: each screen stays up before the next.  The columns are fitted to the longest name (:func:`_fit`).
FIND_COLUMNS, FIND_ROWS, FIND_COLUMNS_DENSE = 2, 16, 3
#: *Find your table*'s narrow columns (name, table, seat): a row's height in its type's em, and the
#: most rows a column holds.  At a row of 1.5 em a column held 15 names, and 32 players of long
#: names took three screens of one column, a quarter of each empty; rows of 1.25 em (the type as
#: big: a line of a list read from the back of a hall, as a timetable's) hold 18.
FIND_LINE, FIND_ROWS_DENSE = 1.25, 24
STANDINGS_COLUMNS, STANDINGS_ROWS = 2, 15
#: The standings' rows as *find your table*'s (:data:`FIND_LINE` em high, each screen in the
#: biggest type that holds its rows, up to :data:`GROW` times the page's, its rows spread evenly
#: over its columns): at 1.5 em and 15 rows a column, 32 players of long names took three screens
#: of 11, 11 and 10 rows, the bottom third of each empty, and 12 players half the screen's height.
STANDINGS_LINE, STANDINGS_ROWS_DENSE = FIND_LINE, 24
PLACINGS_COLUMNS, PLACINGS_ROWS = 2, 12
SCREEN_SECONDS = 8
#: ``/projector?seconds=N``: seconds a screen, clamped to these bounds (anything else: the default).
SECONDS_RANGE = (3, 120)
#: ``/projector?size=``: the text's size, as a factor of the normal 36 units.
SIZES = {"small": 32 / 36, "normal": 1.0, "large": 1.25}
#: The canvas's room for the screens (1920 less the QR code's column, the padding and the gap) and
#: the gap between two columns; the smallest type a screen falls to before it takes fewer columns.
STAGE_WIDTH, COLUMN_GAP, TYPE_FLOOR = 1920 - 56 - 330 - 28, 36, 32
#: A screen of *find your table* with room to spare is set in bigger type, up to these times the
#: page's (its names read from further back, the screen filled: 12 players were two thirds of a
#: screen of 36 units, and are the whole of it at 45).
GROW = (1.25, 1.12)
#: Bold sans serif type, a character's width in em, erring wide (DejaVu Sans Bold, the widest of the
#: faces a projector's laptop falls back to): a name that fits by this count fits on the screen.
_NARROW, _SEMI, _WIDE = set("iljI.,'’|!:;()"), set("ftr -"), set("mwMW@")


def text_em(text: str) -> float:
    """How wide ``text`` is in bold sans serif, in em (an estimate that errs wide, :data:`_NARROW`)."""
    return sum(0.36 if c in _NARROW else 0.48 if c in _SEMI else 1.08 if c in _WIDE
               else 0.82 if c.isupper() else 0.72 for c in text)


def projector_settings(seconds: str | None, size: str | None) -> tuple[int, str]:
    """``?seconds=`` and ``?size=`` as the projector takes them: a number of seconds clamped to
    :data:`SECONDS_RANGE`, a size of :data:`SIZES`; anything else the default (never a refusal: a
    projector shows what it can)."""
    n = SCREEN_SECONDS
    if seconds and seconds.isascii() and seconds.isdigit() and len(seconds) < 6:
        n = min(max(int(seconds), SECONDS_RANGE[0]), SECONDS_RANGE[1])
    return n, size if size in SIZES else "normal"


@attrs.frozen
class Fit:
    """A screen's columns fitted to its longest text: how many columns, the type's size (units)
    and the row's height, and how many rows a column holds."""

    columns: int
    font: float
    #: Rows a column holds; of a screen whose rows wrap, the lines its one column holds.
    rows: int
    #: A name longer than the screen's width even alone at the floor's type: its rows wrap (the
    #: screen is drawn with class ``wraps``), a long one on as many lines as it needs (counted by
    #: :func:`_paged`), so nothing is cut.
    wraps: bool = False
    #: A row's height in the type's em (:data:`FIND_LINE` for *find your table*'s narrow columns).
    line: float = 1.5

    @property
    def row(self) -> float:
        return self.font * self.line


def _fit(widths_em: Iterable[float], fixed_em: float, most_columns: int, most_rows: int, size: float,
         head_rows: int = 0, line: float = 1.5) -> Fit:
    """The layout that shows most rows a screen with the widest text whole: ``widths_em`` the text
    that must not be cut (a name), ``fixed_em`` what sits beside it on its row (table, seat, a
    standings row's numbers); fewer columns, then smaller type down to :data:`TYPE_FLOOR`; a row
    ``line`` em high."""
    best: Fit | None = None
    for fit in _fits(widths_em, fixed_em, most_columns, most_rows, size, head_rows, line):
        if best is None or fit.columns * fit.rows > best.columns * best.rows:
            best = fit
    if best is None:  # a name longer than the screen: one column, the floor's type; its rows wrap
        best = Fit(1, TYPE_FLOOR, _wrapped_lines(most_rows, head_rows), wraps=True)
    return best


def _fits(widths_em: Iterable[float], fixed_em: float, most_columns: int, most_rows: int, size: float,
          head_rows: int = 0, line: float = 1.5, grow: bool = False) -> list[Fit]:
    """Every number of columns the widest text fits in whole, each at the biggest type it fits in
    (down to :data:`TYPE_FLOOR`), the most columns first (:func:`_fit` takes the one holding most);
    ``grow``: up to :data:`GROW` times the page's type, too."""
    widest = max(widths_em, default=0.0)
    out = []
    base = 36 * size
    fonts = sorted({base, max(TYPE_FLOOR, base * 0.94), max(TYPE_FLOOR, base * 0.89),
                    *((base * g for g in GROW) if grow else ())}, reverse=True)
    for columns in range(most_columns, 0, -1):
        width = (STAGE_WIDTH - COLUMN_GAP * (columns - 1)) / columns
        for font in fonts:
            if (widest + fixed_em) * font <= width - 0.6 * font:  # the cell's padding
                rows = max(1, min(most_rows, int(STAGE_HEIGHT // (font * line)) - head_rows))
                out.append(Fit(columns, font, rows, line=line))
                if not grow:  # (growing, each size that fits: the biggest may hold too few rows)
                    break
    return out


def _wrapped_lines(most_rows: int, head_rows: int) -> int:
    """The lines a screen whose rows wrap holds: a column at the floor's type (never more than a
    screen's rows, :data:`STAGE_HEIGHT` at a row's height a line, though a wrapped line is lower)."""
    return max(1, min(most_rows, int(STAGE_HEIGHT // (TYPE_FLOOR * 1.5)) - head_rows))


def _paged(widths_em: Sequence[float], fixed_em: float, most_columns: int, most_rows: int, size: float,
           head_rows: int = 0, line: float = 1.5, snug: bool = False) -> list[tuple[int, int, Fit]]:
    """The rows (their texts' widths in em, in the order shown) cut into screens, each fitted to its
    own widest text (:func:`_fit`): ``(start, end, fit)`` a screen, the fewest screens there can be,
    the rows spread over them as evenly as their room lets (of all the ways to cut the rows into that
    many screens, the one whose screens' row counts have the least sum of squares; of two such, the
    one whose first screens hold more).  Filling each screen from the first on left the last one
    nearly empty: a very long name sorting last held its screen alone, a screen for one row.  So a
    name too long for the screens' columns costs
    the screen it is on, never the others (one fit for every row put every screen of 200 players
    in one column at the floor's type, its rows on two lines: 50 screens): the screens around it
    keep their columns.  On a screen whose rows wrap, a row takes the lines its name needs (erring
    wide, half a line more for a break between words), the others one each.

    ``snug``: each screen, once cut, laid out in the biggest type that holds its rows (then the
    most columns), up to :data:`GROW` times the page's, not the layout that would hold most: 32
    names, which two columns of 36 units hold, were set in three of 34 (:func:`_even_columns`
    spreads them over the columns)."""
    n = len(widths_em)
    fits: dict[float, Fit] = {}

    def fit_of(widest: float) -> Fit:
        if widest not in fits:
            fits[widest] = _fit((widest,), fixed_em, most_columns, most_rows, size, head_rows, line)
        return fits[widest]

    room = max(STAGE_WIDTH - (fixed_em + 0.6) * TYPE_FLOOR, TYPE_FLOOR)  # a wrapped name's line

    def lines(width: float) -> int:
        text = width * TYPE_FLOOR
        return 1 if text <= room else math.ceil(text / room + 0.5)

    count = [0] * (n + 1)   # the fewest screens that show the rows from k on
    spread = [0] * (n + 1)  # of those, the least sum of the squares of their row counts
    cut = [n] * (n + 1)     # where the first of them ends
    for k in range(n - 1, -1, -1):
        widest, used, best = 0.0, 0, None
        for e in range(k + 1, n + 1):
            widest = max(widest, widths_em[e - 1])
            fit = fit_of(widest)
            used += lines(widths_em[e - 1])
            if e > k + 1 and ((used > fit.rows) if fit.wraps else (e - k > fit.rows * fit.columns)):
                break  # (a screen's room only shrinks as its rows grow)
            # (the fewest screens from k on have the fewest from e on: their spread is spread[e])
            here = (1 + count[e], (e - k) ** 2 + spread[e])
            if best is None or here <= best:
                best, cut[k] = here, e
        count[k], spread[k] = best or (1, (n - k) ** 2)
    out, k = [], 0
    while k < n:
        out.append((k, cut[k], fit_of(max(widths_em[k:cut[k]]))))
        k = cut[k]
    if not snug:
        return out
    # Each screen's layouts that hold its rows, in bigger type too (none for a screen whose rows wrap).
    holding = [[] if fit.wraps else
               [f for f in _fits((max(widths_em[k:e]),), fixed_em, most_columns, most_rows, size, head_rows, line, True)
                if f.columns * f.rows >= e - k] for k, e, fit in out]
    # Every screen in one type, as big as each holds (a screen shrunk for a long name keeps its own):
    # paged through, the names do not grow and shrink from one screen to the next.
    biggest = [max((f.font for f in h), default=0.0) for h in holding]
    cap = min((b for b in biggest if b >= 36 * size), default=36 * size)

    def snug_fit(h: list[Fit]) -> Fit:  # (max: the first of the biggest type, its most columns)
        return max((f for f in h if f.font <= cap), key=lambda f: f.font, default=max(h, key=lambda f: f.font))

    return [(k, e, snug_fit(h) if h else fit) for (k, e, fit), h in zip(out, holding)]


#: The canvas's height for a screen's rows (1080 less the bar, the heading and the padding).
STAGE_HEIGHT = 1080 - 36 - 80 - 8 - 66

#: The public pages, in the order of their links: name -> the heading people read.
PAGES = ("index", "tables", "standings", "games", "crosstable", "bracket")
#: The pages that show a table's status in play (playing, waiting for its confirmation): they
#: change with every change of the event, the others only with the public pages' revision
#: (:func:`tournament.event.changes.latest_public_seq`): a result, a round, a correction, a name.
SHOWS_STATUS = ("tables", "games")


@attrs.frozen
class Site:
    """Where the pages' links point.

    Served (``served=True``): the server's own paths (``/standings``, ``/players/12``,
    ``/games/3/7`` for a confirmed game's replay), and the live script on every page.  Written
    as files: each page a file of the ``pages`` folder, linked relative to each other, the replay
    pages that ``tournament report`` wrote (``replays``: (round, table) -> the link from the
    report's folder), and the report's one-page summary (``report``); no script."""

    served: bool = True
    #: Files: the prefix from the page being written to the pages' folder ("" inside it).
    pages: str = ""
    #: Files: the prefix from the page being written to the report's folder ("../" inside the pages').
    up: str = ""
    #: Files: the report's file name, linked from every page; None where there is none.
    report: str | None = None
    replays: dict[tuple[int, int], str] = attrs.field(factory=dict)
    #: Served: tables whose replay may be opened ((round, table) of every result with its record).
    recorded: frozenset[tuple[int, int]] = frozenset()
    #: Files: whether the pages' folder holds the public pages (a report written to stdout has none).
    has_pages: bool = True
    #: Served: the path the event's pages sit under ("" at a venue; ``/e/ID`` on a federation's hub).
    root: str = ""

    def _path(self, page: str, *args: Any) -> str | None:
        """A served page's path under :attr:`root`."""
        if page == "index":
            return "/"
        if page == "player":
            return f"/players/{int(args[0])}"
        if page == "team":
            return f"/teams/{int(args[0])}"
        if page in ("board", "pair"):  # a duplicate event's traveller, a pair's card
            return f"/{page}s/{int(args[0])}"
        if page == "match":  # a duplicate-teams match board by board: its round and first table
            return f"/matches/{int(args[0])}/{int(args[1])}"
        if page == "replay":
            return f"/games/{int(args[0])}/{int(args[1])}" if tuple(args) in self.recorded else None
        if page == "report":
            return None
        return f"/{page}"

    def url(self, page: str, *args: Any) -> str | None:
        """The link to ``page`` (one of :data:`PAGES`, ``player`` with its number, ``replay`` with
        round and table, ``projector``, ``report``), or None where there is no such page."""
        if self.served:
            path = self._path(page, *args)
            return None if path is None else (self.root + path if self.root else path)
        if page == "replay":
            link = self.replays.get((int(args[0]), int(args[1])))
            return self.up + link if link else None
        if page == "report":
            return self.up + quote(self.report) if self.report else None
        if page == "projector" or not self.has_pages:
            return None
        if page in ("board", "pair", "boards", "match"):  # the hall's alone: the report has its hand record
            return None
        if page in ("player", "team"):
            return f"{self.pages}{page}-{int(args[0])}.html"
        return f"{self.pages}{page}.html"


def file_name(page: str, *args: Any) -> str:
    """The file a public page is written to, in the pages' folder."""
    return f"{page}-{int(args[0])}.html" if page in ("player", "team") else f"{page}.html"


def _shown(value: Any) -> Any:
    """A value as a page shows it: ``None`` as nothing, and text without direction controls (a name
    stored before they were refused would show "Player 1" for ``\u202e1 reyalP``)."""
    if value is None:
        return ""
    if isinstance(value, Markup):
        return Markup(plain_direction(str(value)))
    return plain_direction(value) if isinstance(value, str) else value


@functools.lru_cache(maxsize=len(i18n.LANGUAGES))
def environment(lang: str = i18n.DEFAULT) -> jinja2.Environment:
    """The templates' environment in ``lang``: autoescaped, ``None`` shown as nothing, and Jinja2's
    i18n extension with the language's catalogs (:mod:`tournament.i18n`); the data's own labels
    (a round's "final, game 2", the standings' columns) through the ``label`` filter."""
    words = Words(lang)
    env = i18n.environment(jinja2.FileSystemLoader(str(TEMPLATES)), lang, trim_blocks=True, lstrip_blocks=True,
                           finalize=_shown)
    env.globals.update(round_heading=words.round_heading, number=_number, vp=_vp, sides_in_seating_order=sides_in_seating_order,
                       standings_view=standings_view, round_view=round_view, column_rules=column_rules,
                       prize_views=prize_views,
                       compact_rows=COMPACT_ROWS, ranked_text=words.ranked_text,
                       grid_rows=functools.partial(grid_rows, label=words.label, lang=lang),
                       links_of=lambda units, links: [links.get(unit) for unit in units],
                       group_keys=_group_keys, ranked_pairs=ranked_pairs, still_travelling=still_travelling, team_standings_view=team_standings_view, team_matches=pub.round_matches, rounds_places_text=_rounds_places_text, format_name=words.format_name,
                       crosstable_em=functools.partial(crosstable_em, words=words))
    env.filters.update(label=words.label, header=words.header, get_link=lambda unit, links: links.get(unit),
                       place_row=lambda p: [p["place"], p["name"]],
                       pick=lambda row, keys: [row.get(k) for k in keys],
                       team_key=lambda k: TEAM_KEY_COLUMNS.get(k, k), when=words.when, outcome=words.outcome,
                       game=lambda g: game_name(g, lang), places_first=places_first)
    return env


def crosstable_em(cross: dict[str, Any], words: Words) -> float:
    """The narrowest a crosstable (:func:`pub.crosstable`, :func:`pub.team_crosstable`) is laid
    out, in rem, its names wrapped between words: the width under which it scrolls sideways (and
    says so).  Reckoned from its cells' text, erring wide (a character 0.75 em of the cells' type,
    0.62 em of the names')."""
    table, cell = 0.9, 0.9 * 0.85

    def lines(c: dict[str, Any] | None) -> list[str]:
        if c is None:
            return [""]
        if c.get("bye"):
            return [words._("bye")]
        if c.get("outcome") is None:
            if "tables" in c:  # a team's match in play: its tables and its games so far
                return [f"{words._('T')}{'-'.join(map(str, c['tables']))} {c['for']}–{c['against']}"]
            return [f"{words._('T')}{c.get('table')}"]
        first = f"{words.outcome(c['outcome'])} {c.get('for', '')}" + (f"–{c['against']}" if "against" in c else "")
        if c.get("forfeit"):
            first += " " + words._("by forfeit")
        return [first, " ".join(map(str, c.get("opponents", [c.get("opponent", "")])))]

    def padded(chars: int, per: float) -> float:
        return chars * per + table  # the cell's padding, .5 em a side
    rounds = sum(max([padded(len(str(n)), 0.75 * table)] + [padded(max(map(len, lines(row["cells"][k]))), 0.75 * cell)
                                                            for row in cross["rows"]])
                 for k, n in enumerate(cross["rounds"]))
    longest_word = max((len(w) for row in cross["rows"] for w in re.split(r"[\s-]+", str(row["name"]))), default=0)
    name = max(7 * table, padded(longest_word, 0.62 * table))
    numbers = 2 * padded(max(len(words._("rank")), len(words._("no.")), len(str(len(cross["rows"])))), 0.7 * table)
    return rounds + name + numbers


def places_first(match: dict[str, Any]) -> list[int]:
    """The order a bracket's box lists a match's sides in, as indexes of ``match["sides"]``: by
    place once the match has an order (the winner first, then second…), the sides still without a
    place after them as seated.  A box read top-down is the result; the seats are the table's."""
    order = match.get("order") or []
    sides = match["sides"]
    placed = sorted((i for i, side in enumerate(sides) if side is not None and side in order),
                    key=lambda i: order.index(sides[i]))
    return placed + [i for i in range(len(sides)) if i not in placed]


def prepare(lang: str = i18n.DEFAULT) -> None:
    """Compile every public page's template in ``lang`` now (Jinja2 compiles a template at its first
    use, a fifth of a second for the standings and their macros): the hall's process does it as it
    starts, so that the first result of the evening, which sends every live page to fetch the
    standings again, does not wait for it (nor is its cost counted to that result)."""
    env = environment(lang)
    for name in env.list_templates(filter_func=lambda n: n.endswith(".html.j2")):
        env.get_template(name)


def render(template: str, values: dict[str, Any], part: str | None = None, lang: str = i18n.DEFAULT) -> str:
    """The page ``template`` with ``values`` in ``lang``; with ``part`` only that block of it
    (``main``: the region the live script swaps in)."""
    tpl = environment(lang).get_template(template)
    if part is None:
        return tpl.render(values)
    return "".join(tpl.blocks[part](tpl.new_context(dict(values))))


# --- what the templates are given ------------------------------------------------------------------


#: Table rows kept as made (:func:`grid_rows`), at most; all forgotten at once past it.
ROWS_KEPT = 20_000
_rows_made: dict[tuple, str] = {}


def grid_rows(rows: Sequence[Sequence[Any]], links: Sequence[Any] | None, classes: Sequence[Any], compact: bool,
              name_at: int, status_at: int, label: Callable[[Any], str], lang: str) -> Markup:
    """The rows of the ``grid`` macro's table (``<tr>`` a row, in the macro's own markup), each
    row's cells after its first made once and kept while they read the same: after a result a
    thousand players' standings differ in the few rows whose player moved and in their ranks
    (the first cell), and the rest is what was made before.  A cell as the macro shows a value:
    nothing for None, text without direction controls, escaped; the name column (``name_at``)
    linked when the row has a link; the status column's value through ``label``.  ``compact``:
    the cells carry no class (the table's columns are styled by their place)."""
    shared = (compact, name_at, status_at, lang if status_at >= 0 else None,
              None if compact else tuple(map(str, classes)))
    out = []
    for i, row in enumerate(rows):
        link = links[i] if links and i < len(links) else None
        if not row:
            out.append("<tr></tr>")
            continue
        rest = row[1:]
        try:  # a value's type is in the key: 1, 1.0 and True are equal, not shown alike
            key = (shared, link if name_at > 0 else None, tuple(rest), tuple(map(type, rest)))
            tail = _rows_made.get(key)
        except TypeError:  # a value that cannot be a key: made, not kept
            key, tail = None, None
        if tail is None:
            tail = "".join(_grid_cell(k, v, link, classes, compact, name_at, status_at, label)
                           for k, v in enumerate(rest, 1))
            if key is not None:
                if len(_rows_made) >= ROWS_KEPT:
                    _rows_made.clear()
                _rows_made[key] = tail
        out.append(f"<tr>{_grid_cell(0, row[0], link, classes, compact, name_at, status_at, label)}{tail}</tr>")
    return Markup("".join(out))


def _grid_cell(i: int, v: Any, link: Any, classes: Sequence[Any], compact: bool, name_at: int, status_at: int,
               label: Callable[[Any], str]) -> str:
    """One cell of :func:`grid_rows`, as the ``grid`` macro made it."""
    cls = "" if compact or i >= len(classes) else escape(_shown(classes[i]))
    if link and i == name_at:
        text = f'<a href="{escape(_shown(link))}">{escape(_shown(v))}</a>'
    elif i == status_at:
        text = escape(_shown(label(v)))
    elif type(v) is int:  # a number: nothing to escape
        text = str(v)
    else:
        text = escape(_shown(v))
    return f"<td{cls}>{text}</td>"


def _vp(value: Any) -> str:
    """Victory points as the command line prints them, always two decimals: 29.30, 22.00 (nothing
    for no value)."""
    return "" if value is None else f"{float(value):.2f}"


def _number(value: Any) -> Any:
    """A figure as people read it: 3 not 3.0, 2.5 as 2.5; nothing for no value."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _group_keys(row: dict[str, Any]) -> list[str]:
    """The ranking keys of a round robin's group (its standings rows carry them)."""
    return [k for k in ("wins", "diff", "for", "placement", "score") if k in row]


def _rounds_places_text(stage: dict[str, Any]) -> str:
    return ", ".join(f"{p['place']}. #{p['id']} {p['name']}" for p in stage["rounds_places"])


#: Units of :data:`STAGE_HEIGHT` a standings screen's rows leave free, filling it
#: (:func:`_rows_filling`): the provisional note takes a second line of the heading (about 20).
HEADING_SLACK = 24


def _rows_filling(fit: Fit, shown: int, head_rows: int) -> Fit:
    """``fit`` with its rows as tall as a screen showing ``shown`` rows a column (and ``head_rows``
    of headings) lets them be, up to 1.5 em and never lower than its own: the standings' rows are
    :data:`STANDINGS_LINE` high to hold more a screen, and 12 players' rows in type grown as far as
    their names let it left a third of the screen empty below them."""
    if fit.wraps or not shown:
        return fit
    line = math.floor((STAGE_HEIGHT - HEADING_SLACK) / (fit.font * (shown + head_rows)) * 100) / 100
    return attrs.evolve(fit, line=min(1.5, max(fit.line, line)))


def _even_columns(items: Sequence[Any], columns: int) -> list[Sequence[Any]]:
    """``items`` spread over ``columns`` (a screen's, which hold them), the columns as long as each
    other give or take one: the screen filled across, never a full column beside a column of one
    name (16 names in columns of 15 were 15 and 1)."""
    count = min(columns, len(items))
    if not count:
        return []
    each, more = divmod(len(items), count)
    out, k = [], 0
    for c in range(count):
        n = each + (c < more)
        out.append(items[k:k + n])
        k += n
    return out


def _columns_of(items: Sequence[Any], rows: int) -> list[Sequence[Any]]:
    """``items`` cut into columns of ``rows`` (a projector screen's columns)."""
    return [items[k:k + rows] for k in range(0, len(items), rows)] or [[]]


def sides_in_seating_order(seats: list[dict[str, Any]]) -> list[str]:
    """A table's sides in the order they sit (N before E: NS before EW), not alphabetically."""
    return list(dict.fromkeys(s["side"] for s in seats))


def standings_view(table: dict[str, Any], keep: Iterable[str] | None = None) -> dict[str, Any]:
    """The standings as people read them (:func:`tournament.pages.display.display_row`): columns,
    rows of cells, each row's unit number; which columns are numbers (right-aligned), which rank
    (never hidden on a phone), which may be hidden on a phone.  ``keep``: only these columns."""
    data = table["standings"]
    tiebreaks = tuple(table["tiebreaks"])
    keys = tuple(data[0]) if data else ()
    sources = display.cell_sources(keys, tiebreaks) if data else {}
    columns = list(sources)
    if keep is not None:
        wanted = set(keep)
        columns = [c for c in columns if c in wanted]
    ranking = display.ranking_columns(table["tiebreaks"])
    numeric = {c for c in columns if not display.is_text_column(c)}
    optional = {c for c in columns if c not in ranking}
    picked = [sources[c] for c in columns]
    # Each row as display_row shows it, its columns worked out once (a thousand rows): the plain
    # values taken at once, the W-D-L record made.
    record_at = [k for k, source in enumerate(picked) if source is None]
    plain = [source if source is not None else keys[0] for source in picked]
    take = operator.itemgetter(*plain) if len(plain) > 1 else (lambda r: (r[plain[0]],)) if plain else None
    rows = []
    for r in data:
        if tuple(r) == keys and take is not None:
            cells = [_number(v) for v in take(r)]
            for k in record_at:
                cells[k] = display.display_value(r, None)
            rows.append(cells)
        elif tuple(r) == keys:
            rows.append([])
        else:
            shown = display.display_row(r, tiebreaks)
            rows.append([_number(shown[c]) for c in columns])
    return {"columns": columns, "rows": rows,
            "ids": [r["id"] for r in table["standings"]], "numeric": numeric, "optional": optional,
            "classes": [_cell_class(c, numeric, optional) for c in columns],
            "ranking": ranking, "record": display.RECORD in columns}


#: Past this many rows a table's cells carry no class: its columns are styled by their place
#: (:func:`column_rules`), so a thousand players' standings are their values and little else.
COMPACT_ROWS = 100


def column_rules(columns: Sequence[str], numeric: Iterable[str], optional: Iterable[str]) -> tuple[str, Markup]:
    """A class for a table and the CSS giving its columns, by their place (``td:nth-child(3)``),
    what the cell classes ``n``, ``name`` and ``o`` give a cell (``templates/report.css``).  The
    class is named after the rules, so two tables of the same columns share them."""
    import hashlib

    numeric, optional = set(numeric), set(optional)

    def cells(kind: Callable[[str], bool]) -> str:
        return ",".join(f":nth-child({i})" for i, c in enumerate(columns, start=1) if kind(c))

    n, name, o = cells(lambda c: c in numeric), cells(lambda c: c == "name"), cells(lambda c: c in optional)
    rules = []
    if n:
        rules.append(f"td:is({n}){{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}}")
    if name:
        rules.append(f"td:is({name}){{overflow-wrap:break-word;min-width:6em}}")
        rules.append(f"@media print{{td:is({name}){{overflow-wrap:normal;word-break:normal;hyphens:manual}}}}")
        rules.append(f"@media screen and (max-width:600px){{td:is({name}){{overflow-wrap:anywhere}}}}")
    if o:
        rules.append(f"@media screen and (max-width:600px){{td:is({o}){{display:none}}}}")
    own = "c" + hashlib.sha1("\n".join(rules).encode()).hexdigest()[:8]
    scoped = [r.replace("td:is(", f"table.{own} td:is(") for r in rules]
    return own, Markup("<style>{}</style>").format(Markup("".join(scoped)))


def _cell_class(column: str, numeric: set[str], optional: set[str]) -> Markup:
    """A column's cells' class: n (a number: right-aligned, never cut), o (may be hidden on a phone),
    name (wraps anywhere)."""
    names = (["n"] if column in numeric else []) + (["o"] if column in optional else []) + \
        (["name"] if column == "name" else [])
    return Markup(' class="{}"').format(" ".join(names)) if names else Markup("")


def side_names(seats: list[dict[str, Any]], pair_of: dict[int, str]) -> dict[str, str]:
    """Who each side of a table is, to head a pair's players with its name and to name a winner
    by: the pair (a pairs event: ``pair_of``, player -> pair), or the one player of a seat."""
    by_side: dict[str, list[dict[str, Any]]] = {}
    for seat in seats:
        by_side.setdefault(seat["side"], []).append(seat)
    return {side: pair_of.get(who[0]["id"]) or who[0]["name"] for side, who in by_side.items()
            if who[0]["id"] in pair_of or len(who) == 1}


def round_view(r: dict[str, Any], site: Site, links: dict[int, str], data: dict[str, Any] | None = None) -> dict[str, Any]:
    """A round's tables as its table shows them: the sides in seating order (a column each), and a
    row a table: each side's players (seat, name, the link to their page; the seat only where a
    side has several players or its seat is not its name; a pair's name first, in a pairs event),
    score and whether it won; the result, its winner named (``winner_name``: the pair, or a
    multi-player seat's player); the link to its replay."""
    pair_of = {p["id"]: p["pair"] for p in (data or {}).get("players", []) if p.get("pair")}
    sides: list[str] = []
    for t in r["tables"]:
        for side in sides_in_seating_order(t["seats"]):
            if side not in sides:
                sides.append(side)
    # A team event: each match's running result heads its first table.
    matches = pub.round_matches(data, r) if data and data.get("teams") else []
    heads = {m["first"]: m for m in matches}
    # ... and a set's later games (seated after the round's last table) come under their match's
    # line, not after the other matches' tables.
    under = {n: m["first"] for m in matches for n in m["tables"]}
    tables = sorted(r["tables"], key=lambda t: (under.get(t["table"], t["table"]), t["table"]))
    rows = []
    for t in tables:
        res = t["result"]
        named = side_names(t["seats"], pair_of)
        # A forfeit by player: who did not come, by name; no side won it (the partner who came won
        # their own game, as the standings count it), so no side's stored score is shown.
        gone = (res or {}).get("forfeit_players") or []
        cells = []
        for side in sides:
            who = [s for s in t["seats"] if s["side"] == side]
            cells.append({"pair": named.get(side) if len(who) > 1 else None,
                          "names": [(s["seat"] if len(who) > 1 or s["seat"] != side else None, s["name"],
                                     site.url("player", s["id"])) for s in who],
                          "score": res["scores"].get(side) if res is not None and not gone else None,
                          "win": res is not None and not gone and res["winner"] == side})
        rows.append({"table": t["table"], "match": t["match"], "cells": cells, "result": res,
                     "absent": [s["name"] for p in gone for s in t["seats"] if s["id"] == p],
                     "team_match": heads.get(t["table"]),
                     "winner_name": named.get(res["winner"]) if res is not None and res["winner"] else None,
                     "status": t.get("status"),  # the feed's: not started, playing, waiting (never a move)
                     # A duplicate table's boards, and each board's result there as it comes in.
                     "boards": t.get("boards") or [], "board_results": t.get("board_results") or [],
                     # ... and each board that is over there, in the table's order: its result, or
                     # ``not_played`` (marked so: nothing to come, never "to play").
                     "board_lines": _board_lines(t),
                     "replay": site.url("replay", r["round"], t["table"]) if res is not None else None})
    return {"sides": sides, "rows": rows, "match": any(t["match"] for t in r["tables"])}


def _board_lines(t: dict[str, Any]) -> list[dict[str, Any]]:
    """A duplicate table's boards that are over there, in the order it plays them: each board's
    result (the feed's, ``withheld`` or not), or ``{"board", "not_played": True}``."""
    results = {b["board"]: b for b in t.get("board_results") or ()}
    skipped = set(t.get("not_played") or ())
    return [results[b] if b in results else {"board": b, "not_played": True}
            for b in t.get("boards") or () if b in results or b in skipped]


#: A team standings' ranking keys (``--team-tiebreak``) -> the column showing each (head-to-head
#: is not a figure of one row: it shows in the order only).
TEAM_KEY_COLUMNS = {"games": "games won", "efectividad": "efectividad", "match-points": "match points",
                    "for": "for"}
#: A team standings' columns after its ranking ones, in this order.
TEAM_COLUMNS = ("games won", "games lost", "for", "against", "efectividad", "match points", "played",
                "matches W-D-L")


def _team_cells(row: dict[str, Any]) -> dict[str, Any]:
    return {"rank": row["rank"], "name": row["team"], "games won": _number(row["won"]),
            "games lost": _number(row["lost"]), "for": row["points_for"], "against": row["points_against"],
            "efectividad": row["efectividad"], "match points": row["match_points"], "played": row["played"],
            # A bye is a match won (2 match points): W counts it, as the match points do; the byes
            # column (where a team had one) says how many of them were byes.
            "matches W-D-L": f"{row['matches_won'] + row['byes']}-{row['matches_drawn']}-{row['matches_lost']}",
            "byes": row["byes"], "status": row["status"]}


def team_standings_view(data: dict[str, Any], keep: Iterable[str] | None = None) -> dict[str, Any] | None:
    """A team event's team standings as a table (None in other events): rank, the team, the
    columns its preset ranks by (``team_tiebreaks``, in their order), then the others; the byes
    and status columns only where a team had a bye or withdrew.  ``keep``: only these columns
    (the projector's).  Duplicate teams: their victory (or match) points and IMPs."""
    table = data["standings"]
    if "teams" not in table:
        return None
    rows = table["teams"]
    keys = list(table.get("team_tiebreaks", ()))
    if "team_ranked_by" in table:  # duplicate teams: by victory (or match) points, then IMPs
        first = "VP" if table["team_ranked_by"] == "victory-points" else "match points"
        ranking = ["rank", "name", first, "IMPs", "IMPs for"]
        others, cells = DUPLICATE_TEAM_COLUMNS, [_duplicate_team_cells(r) for r in rows]
        extra = {"provisional": table["team_provisional"], "duplicate": True, "ranked_by": table["team_ranked_by"]}
    else:
        ranking = ["rank", "name", *dict.fromkeys(TEAM_KEY_COLUMNS[k] for k in keys if k in TEAM_KEY_COLUMNS)]
        others, cells = TEAM_COLUMNS, [_team_cells(r) for r in rows]
        extra = {"provisional": table["provisional"]}
    columns = ranking + [c for c in others if c not in ranking]
    if any(r["byes"] for r in rows):
        columns.append("byes")
    if any(r["status"] != "active" for r in rows):
        columns.append("status")
    if keep is not None:
        columns = [c for c in columns if c in set(keep)]
    numeric = {c for c in columns if c not in ("name", "matches W-D-L", "status")}
    optional = {c for c in columns if c not in ranking}
    return {"columns": columns, "rows": [[c[k] for k in columns] for c in cells], "ids": [r["id"] for r in rows],
            "numeric": numeric, "optional": optional, "classes": [_cell_class(c, numeric, optional) for c in columns],
            "ranking": ranking, "tiebreaks": keys, "through_round": table["through_round"], "team": True, **extra}


#: Duplicate teams' standings columns after the ranking ones (VP or match points, the IMP
#: difference, the IMPs won), as the terminal's ``standings`` shows them.
DUPLICATE_TEAM_COLUMNS = ("IMPs", "IMPs for", "IMPs against", "played", "matches W-D-L")


def _duplicate_team_cells(r: dict[str, Any]) -> dict[str, Any]:
    return {"rank": r["rank"], "name": r["team"], "VP": _vp(r["victory_points"]),
            "match points": r["match_points"], "IMPs": r["imps"], "IMPs for": r["imps_for"],
            "IMPs against": r["imps_against"], "played": r["played"],
            "matches W-D-L": f"{r['won'] + r['byes']}-{r['drawn']}-{r['lost']}", "byes": r["byes"], "status": r["status"]}


def team_links(data: dict[str, Any], site: Site) -> dict[int, str]:
    """Each team -> its page."""
    out = {}
    for t in data.get("teams", ()):
        link = site.url("team", t["id"])
        if link:
            out[t["id"]] = link
    return out


def prize_views(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The prize lists of ``data["prizes"]`` (``report --by COLUMN [--best K]``) as tables: a
    category's players (place, name, their rank in the event, the ranking columns), then, with
    ``--best``, the clubs (rank, the club, the sums, how many counted, who)."""
    from tournament.pages import display

    tiebreaks = data["standings"]["tiebreaks"]
    keep = ["place", "name", "event", *(display.LABELS.get(k, k) for k in tiebreaks)]
    out = []
    for column, entry in data.get("prizes", {}).items():
        for c in entry["categories"]:
            rows = []
            for r in c["rows"]:
                shown = display.display_row({k: v for k, v in r.items() if k not in ("place", "event_rank")},
                                            tiebreaks)
                shown.update(place=r["place"], event=r["event_rank"])
                rows.append(shown)
            # A withdrawn player keeps their place, marked so (the status column, where one withdrew).
            marked = keep + ["status"] if any(r.get("status", "active") != "active" for r in rows) else keep
            columns = [x for x in marked if rows and x in rows[0]]
            out.append({"column": column, "value": c["value"], "best": None, "columns": columns,
                        "rows": [[r[x] for x in columns] for r in rows],
                        "numeric": [x for x in columns if x != "name"]})
        if "groups" in entry:
            g = entry["groups"]
            columns = ["rank", column, *g["keys"], "counted", "players"]
            out.append({"column": column, "value": None, "best": g["best"], "columns": columns,
                        "rows": [[r[x] for x in columns] for r in g["rows"]],
                        "numeric": [x for x in columns if x not in (column, "players")]})
    return out


def player_links(data: dict[str, Any], site: Site) -> dict[int, str]:
    """Each unit of the standings -> the page of its player (of a pair: its first player's page,
    which shows the pair's games).

    Made once for ``data`` (one moment of the event) and each way of linking a player (a player's
    link depends on nothing else): a report writes a page a player, and each page lists every
    unit, so made afresh each time the links would cost the square of the field."""
    made = data.setdefault("_player_links", {})
    key = f"{site.served} {site.pages} {site.has_pages} {site.root}"
    out: dict[int, str] | None = made.get(key)
    if out is not None:
        return out
    out = made[key] = {}
    for player, unit in sorted(data.get("unit_of", {}).items()):  # (the export's data has no units: no links)
        if unit not in out:
            link = site.url("player", player)
            if link:
                out[unit] = link
    return out


def _duplicate(data: dict[str, Any]) -> bool:
    """A duplicate event (pairs or teams): scored board by board, its pages the boards' (docs/duplicate.md)."""
    return "duplicate_standings" in data or "duplicate_team_standings" in data


def _duplicate_pairs(data: dict[str, Any]) -> bool:
    """A duplicate pairs event: its pairs play boards against the field (a duplicate-teams event's
    matches have their crosstable of teams: docs/duplicate.md)."""
    return "duplicate_standings" in data and "duplicate_team_standings" not in data


def event_pages(data: dict[str, Any]) -> list[str]:
    """The pages of :data:`PAGES` this event has: a bracket only with stages, and a crosstable but
    in a duplicate pairs event (its pairs play boards against the field, each ranked against every
    table that played it: its standings and travellers say it, and a crosstable of games showed a
    table number in every cell and every pair ranked 1)."""
    return [p for p in PAGES if (p != "bracket" or data["stages"]) and (p != "crosstable" or not _duplicate_pairs(data))]


def _nav(data: dict[str, Any], site: Site) -> list[tuple[str, str]]:
    out = [(p, site.url(p)) for p in event_pages(data)]
    if site.served and _duplicate(data):  # boards, travellers
        out.append(("boards", site.url("boards")))
    if site.served:
        out.append(("projector", site.url("projector")))
    report = site.url("report")
    if report:
        out.append(("report", report))
    return [(p, link) for p, link in out if link]


def stages_title(stages: list[dict[str, Any]], lang: str = i18n.DEFAULT) -> str:
    """The heading over an event's stages, naming what they are: a final of a rotating event is
    not a "knockout and round robin"."""
    return Words(lang).stages_title(stages)


def values(data: dict[str, Any], site: Site, page: str, lang: str = i18n.DEFAULT, **extra: Any) -> dict[str, Any]:
    """What every public page's template is given (``languages``: the switch, on a served page)."""
    languages = [(code, i18n.NAMES[code]) for code in sorted(i18n.LANGUAGES, key=lambda c: c != "es")]
    return {"data": data, "event": data["event"], "site": site, "page": page, "nav": _nav(data, site),
            "live": site.served, "mark": Markup(SERVE_MARK if site.served else REPORT_MARK),
            "languages": languages if site.served else [],
            "seq": data.get("seq", 0), "follow": "tables" if page in SHOWS_STATUS else None,
            "links": player_links(data, site), "team_links": team_links(data, site),
            "player_pages": {p["id"]: site.url("player", p["id"]) for p in data["players"]} if "teams" in data else {},
            "stages_title": stages_title(data["stages"], lang),
            "champions": [(x["name"], x["champion"]) for x in data["stages"] if x.get("champion")], **extra}


# --- the pages ----------------------------------------------------------------------------------------


def _withdrawn_rows(data: dict[str, Any], rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows of find your table for the players who withdrew and are not seated in the round
    shown: a search finds them too (their page is there), each with the round they withdrew from."""
    seated = {row["id"] for row in rows}
    units = pub._pair_numbers(data)
    gone = [p for p in data["players"] if p.get("withdrawn_from") and p["id"] not in seated]
    return sorted(({"name": p["name"], "key": pub._plain(p["name"]), "id": p["id"], "table": None, "seat": None,
                    "partners": [], "opponents": [], "match": None, "result": None,
                    "no": units.get(p["id"], p["id"]), "withdrawn": p["withdrawn_from"]} for p in gone),
                  key=lambda row: (row["key"], row["name"]))


def page_values(data: dict[str, Any], site: Site, page: str, *args: Any, query: str = "",
                lang: str = i18n.DEFAULT) -> dict[str, Any]:
    """The values of one public page (``page`` of :data:`PAGES`, or ``player`` with a number);
    :class:`tournament.event.public.NotPublic` for a page that is not there."""
    rounds = data["rounds"]
    if page == "index":
        current = pub.current_round(rounds) if rounds else None
        rows = pub.find_your_table(current, pub._pair_numbers(data)) if current else []
        found = pub.search(rows + _withdrawn_rows(data, rows), query) if query else rows
        letters = _letters(found)
        return values(data, site, page, lang, current=current, rows=found, query=query, total=len(rows),
                      letters=letters if not query else [],
                      anchors={row["id"]: anchor for row, anchor in zip(found, _anchors(found))} if not query else {})
    if page == "tables":
        return values(data, site, page, lang, current=pub.current_round(rounds) if rounds else None)
    if page in ("standings", "games"):
        return values(data, site, page, lang)
    if page == "crosstable":
        if _duplicate_pairs(data):
            raise pub.NotPublic("a duplicate event has no crosstable: its pairs play boards, each ranked against "
                                "every table that played it (see the standings and each board's traveller)")
        return values(data, site, page, lang, cross=pub.crosstable(data),
                      team_cross=pub.team_crosstable(data) if "teams" in data else None)
    if page == "bracket":
        if not data["stages"]:
            raise pub.NotPublic("this event has no knockout, round robin or final")
        return values(data, site, page, lang)
    if page == "player":
        team = pub.team_of_players(data).get(int(args[0]))  # a team event: the player's team
        return values(data, site, page, lang, view=pub.player_view(data, int(args[0])),
                      team=next((t for t in data["teams"] if t["id"] == team), None) if team is not None else None)
    if page == "team":
        return values(data, site, page, lang, view=pub.team_view(data, int(args[0])))
    if page in ("boards", "board", "pair"):
        return values(data, site, page, lang, view=duplicate_view(data, page, *args))
    if page == "match":
        return values(data, site, page, lang, view=match_view(data, int(args[0]), int(args[1])))
    raise pub.NotPublic(f"no page {page!r}")


def duplicate_view(data: dict[str, Any], page: str, *args: Any) -> dict[str, Any]:
    """A duplicate event's hall pages: ``boards`` (each board, how many tables have played it,
    whether its deal is shown), ``board`` (its traveller, and its deal once every table that plays
    it has played it: ``data["boards"]`` holds only those), ``pair`` (a pair's card, board by
    board).  :class:`tournament.event.public.NotPublic` in any other event, or for a board or pair
    not there."""
    if "duplicate_standings" not in data and "duplicate_team_standings" not in data:
        raise pub.NotPublic("this is not a duplicate event: it has no boards")
    if "duplicate_team_standings" in data:  # a board's traveller lists the matches, not pairs
        if page == "pair":
            raise pub.NotPublic("duplicate teams are scored by the team: there are no pairs' cards")
        played = {t["board"]: t["matches"] for t in data["travellers"]}
    else:
        played = {t["board"]: t["results"] for t in data["travellers"]}
    # How many have played each board: a traveller withheld in the hall (pub._withheld) says it alone.
    count = {t["board"]: t.get("played", len(played[t["board"]])) for t in data["travellers"]}
    shown = {b["board"]: b for b in data["boards"]}
    if page == "boards":
        return {"boards": [{"board": n, "tables": count.get(n, 0), "complete": n in shown}
                           for n in data["board_numbers"]]}
    number = int(args[0])
    if page == "board":
        if number not in data["board_numbers"]:
            raise pub.NotPublic(f"there is no board {number}")
        withheld = next((t.get("withheld", False) for t in data["travellers"] if t["board"] == number), False)
        # The tables marked not playing it: out of the board (no result, none to come), said by name.
        skipped = [{"round": r["round"], "table": t["table"]} for r in data["rounds"] for t in r["tables"]
                   if number in (t.get("not_played") or ())]
        if "duplicate_team_matches" in data:  # not scored in a match (marked not played at one of its tables)
            skipped = [{"round": m["round"], "first": m["tables"][0], "last": m["tables"][1]}
                       for m in data["duplicate_team_matches"]
                       if any(b["board"] == number for b in m.get("not_scored") or ())]
        return {"board": number, "deal": shown.get(number), "results": played.get(number, []),
                "withheld": withheld, "played": count.get(number, 0), "not_played": skipped}
    card = data["pair_cards"].get(number)
    if card is None:
        raise pub.NotPublic(f"there is no pair {number}")
    # (a pair with no board scored yet has no rank: it is not on the standings yet)
    standing = next((r for r in ranked_pairs(data["duplicate_standings"]) if r["pair"] == number), None)
    sat_out = [r["round"] for r in data["rounds"] if (r.get("sits_out") or {}).get("pair") == number]
    # A Mitchell ranks each direction apart (its "fields"): the card says whose rank 1 it is.
    field = standing["direction"] if standing and standing["direction"] in (
        data["duplicate_standings"].get("fields") or ()) else None
    return {**card, "standing": standing, "field": field, "sat_out": sat_out}


def match_view(data: dict[str, Any], round_no: int, first: int) -> dict[str, Any]:
    """A duplicate-teams match's page: the match (:func:`tournament.event.public.round_matches`)
    of round ``round_no`` whose first table is ``first``, board by board.
    :class:`tournament.event.public.NotPublic` elsewhere."""
    if "duplicate_team_matches" not in data:
        raise pub.NotPublic("this is not a duplicate-teams event: its matches are its tables' games")
    r = next((x for x in data["rounds"] if x["round"] == round_no), None)
    found = next((m for m in pub.round_matches(data, r) if m["first"] == first), None) if r else None
    if found is None:
        raise pub.NotPublic(f"round {round_no} has no match at table {first}")
    return {"match": found, "heading": Words().round_heading(r) if r else "", "r": r}


def page_html(data: dict[str, Any], site: Site, page: str, *args: Any, query: str = "",
              part: str | None = None, lang: str = i18n.DEFAULT) -> str:
    return render(f"{page}.html.j2", page_values(data, site, page, *args, query=query, lang=lang), part, lang)


def _letter(row: dict[str, Any]) -> str:
    first = row["key"][:1].upper()
    return first if first.isalpha() else "#"


def _letters(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The first letters of a seating list, each with the id of its first row (to jump to)."""
    out: dict[str, str] = {}
    for row in rows:
        letter = _letter(row)
        out.setdefault(letter, f"letter-{letter if letter != '#' else 'other'}")
    return list(out.items())


def _anchors(rows: list[dict[str, Any]]) -> list[str | None]:
    """Each row's anchor: the first row of a letter is where that letter's link jumps to."""
    seen: set[str] = set()
    out: list[str | None] = []
    for row in rows:
        letter = _letter(row)
        out.append(None if letter in seen else f"letter-{letter if letter != '#' else 'other'}")
        seen.add(letter)
    return out


# --- the projector -------------------------------------------------------------------------------------


def projector_screens(data: dict[str, Any], lang: str = i18n.DEFAULT, size: str = "normal") -> list[dict[str, Any]]:
    """What the projector shows, screen after screen.  During the event: "find your table" for the
    round being played (by name), then the standings (rank, name and the ranking columns).  Once a
    final or knockout has its champion: the champion, then the final placings; never the rounds'
    standings.  An event finished with no final (its last round's results all in): the final
    standings only, no "find your table" for a round nobody sits down to.  Each screen's columns
    are fitted to its longest name at ``size`` (:data:`SIZES`): fewer columns, smaller type down
    to a floor, more screens (:func:`_fit`); ``font`` and ``columns`` of each screen say how."""
    scale = SIZES.get(size, 1.0)
    words = Words(lang)
    final = pub.final_standing(data)
    screens: list[dict[str, Any]] = []
    if final is not None:
        screens.append({"kind": "champion", "stage": final["stage"], "champion": final["champion"]})
        rows = final["placings"]
        for k, e, fit in _paged([text_em(p["name"] + (f" ({p['pair']})" if p.get("pair") else "")) for p in rows],
                                3.1, PLACINGS_COLUMNS, PLACINGS_ROWS, scale, 1):
            screens.append({"kind": "placings", "stage": final["stage"], "rows": rows[k:e],
                            "columns": _columns_of(rows[k:e], fit.rows), "fit": fit})
        return _numbered(screens)
    if not data["rounds"]:
        return _numbered([{"kind": "empty"}])
    finished = bool(data.get("event", {}).get("finished"))
    if not finished:
        current = pub.current_round(data["rounds"])
        rows = pub.find_your_table(current, pub._pair_numbers(data))
        screens.extend(_find_screens(rows, words.round_heading(current), words, scale))
    if "duplicate_standings" in data:  # a duplicate event's pairs by matchpoints and IMPs
        doc = data["duplicate_standings"]
        rows = ranked_pairs(doc)  # (a pair with no board scored yet is not on the standings yet)
        # The matchpoints' column as wide as its widest "mp/top" (4.8 em at least), in the row's type:
        # the widths are in the row's em (projector.css sets a table's type to the row's), as here.
        mp_em = round(max([4.8, *(text_em(f"{r['matchpoints']}/{r['top']}") * 0.9 + 0.6 for r in rows)]), 2)
        # (the provisional note beside the heading, on two lines where it is long, makes the heading
        # about 20 units taller than the 66 STAGE_HEIGHT keeps for it: the rows leave 40 at least)
        for fit, columns, fields in _duplicate_pages(rows, doc.get("fields") or (), 2.2 + mp_em + 4.2 + 3.4,
                                                     scale * 34 / 36):
            screens.append({"kind": "duplicate", "columns": columns, "fields": fields, "fit": fit,
                            "final": finished, "provisional": doc["provisional"], "missing": doc["missing"],
                            "mp_em": mp_em if mp_em > 4.8 else 0})
        return _numbered(screens)
    table = data["standings"]
    teams = team_standings_view(data)
    view: dict[str, Any] | None = None
    if teams is not None:  # a team event's projector shows the teams' standings
        view = team_standings_view(data, [*teams["ranking"], "played"]) if teams["rows"] else None
    elif table["standings"]:
        view = standings_view(table, display.ranking_columns(table["tiebreaks"]))
    if view is not None:
        # A team's columns have longer names (games won, efectividad): one table across the screen.
        at = view["columns"].index("name")
        # Each number's column as wide as its heading needs, 3.1 em at least (a team's 6.6, its rank's
        # 3.1; the Spanish "pts. pto." was cut to "pts…" in 3.1 em, a team's "games won" and "rank"
        # once the columns were in the rows' em): the heading's type is at most the row's (max(32,
        # 0.72 of it)), and the columns are in the row's em (projector.css), as the fit reckons them.
        least = {c: 6.6 if teams is not None and c != "rank" else 3.1 for c in view["columns"] if c != "name"}
        widths = {c: round(max(w, text_em(str(words.header(c).striptags())) * HEADING_EM + 0.6), 2)
                  for c, w in least.items()}
        numbers = sum(widths.values())
        for k, e, fit in _paged([text_em(str(r[at])) for r in view["rows"]], numbers,
                                1 if teams is not None else STANDINGS_COLUMNS, STANDINGS_ROWS_DENSE, scale * 34 / 36,
                                1, STANDINGS_LINE, snug=True):
            chunk = view["rows"][k:e]
            columns = _columns_of(chunk, fit.rows) if fit.wraps else _even_columns(chunk, fit.columns)
            fit = _rows_filling(fit, max(map(len, columns)), 1)
            screens.append({"kind": "standings", "view": view, "columns": columns, "fit": fit,
                            "through": table["through_round"], "provisional": table["provisional"],
                            "team": teams is not None, "final": finished,
                            "widths": {c: w for c, w in widths.items() if w > least[c]}})
    return _numbered(screens)


def _duplicate_pages(rows: list[dict[str, Any]], split: Sequence[str], fixed_em: float,
                     size: float) -> list[tuple[Fit, list[list[dict[str, Any]]], list[str] | None]]:
    """A duplicate event's ranked pairs (:func:`ranked_pairs`) cut into screens: ``(fit, columns,
    fields)`` a screen, ``fields`` each column's direction (``None``: a Howell, one list, no heading).

    A Mitchell ranks North-South and East-West apart, each from 1 (``split``, the standings'
    ``fields``): one list cut anyhow showed "1 2 3 4 1 2 3 4" with nothing saying where a direction
    began.  So each direction is paged on its own and each of its columns is headed by it (a
    direction continued on the next screen or column says so again); a direction's last screen and
    the next one's first share a screen where their columns fit on one together (a club's 4 + 4
    pairs: North-South left, East-West right)."""
    def widths(group: list[dict[str, Any]]) -> list[float]:
        return [text_em(f"{r['pair']} {r['name']}") for r in group]

    if not split:  # a Howell: one list, the column's headings above it (a head row)
        return [(fit, _columns_of(rows[k:e], fit.rows), None)
                for k, e, fit in _paged(widths(rows), fixed_em, STANDINGS_COLUMNS, STANDINGS_ROWS, size, 1)]
    groups = [(field, list(group)) for field, group in
              itertools.groupby(rows, key=lambda r: r["direction"] if r["direction"] in split else "")]
    pages: list[tuple[Fit, list[list[dict[str, Any]]], list[str] | None]] = []
    last = 0.0  # the widest name of the screen before
    for field, group in groups:  # (two head rows a column: its direction, and the columns' headings)
        for n, (k, e, fit) in enumerate(_paged(widths(group), fixed_em, STANDINGS_COLUMNS, STANDINGS_ROWS, size, 2)):
            columns, widest = _columns_of(group[k:e], fit.rows), max(widths(group[k:e]))
            if n == 0 and pages:  # the direction's first screen beside the one before, if both fit
                both = _fit((max(widest, last),), fixed_em, STANDINGS_COLUMNS, STANDINGS_ROWS, size, 2)
                before, before_fields = pages[-1][1], pages[-1][2] or []
                if not both.wraps and len(before) + len(columns) <= both.columns and \
                        all(len(c) <= both.rows for c in [*before, *columns]):
                    pages[-1] = (both, [*before, *columns], [*before_fields, *[field] * len(columns)])
                    last = max(widest, last)
                    continue
            pages.append((fit, columns, [field] * len(columns)))
            last = widest
    return pages


def _find_screens(rows: list[dict[str, Any]], heading: str, words: Words, scale: float) -> list[dict[str, Any]]:
    """"Find your table" for a round's seating: a club night on one screen with each player's
    partners, when every row fits whole; else narrower columns (name, table, seat and a duplicate
    table's boards: the partners are on the phones' pages), as many as the longest name allows."""
    def where(row: dict[str, Any]) -> str:
        if row["table"] is None:
            return words._("bye")
        boards = f" · {words._('boards %(list)s') % {'list': ', '.join(map(str, row['boards']))}}" if row.get("boards") else ""
        return f"{words._('table')} {row['table']} · {row['seat']}{boards}"

    def whole(row: dict[str, Any]) -> float:
        partners = f" {words._('with')} {' & '.join(row['partners'])}" if row["partners"] else ""
        return text_em(f"{row['name']} → {where(row)}") + text_em(partners) * 0.9

    screens: list[dict[str, Any]] = []
    wide = _fit(map(whole, rows), 0, FIND_COLUMNS, FIND_ROWS, scale)
    if len(rows) <= wide.rows * wide.columns and wide.font >= 36 * scale * 0.94:
        paged, dense, boards_em, table_em = [(0, len(rows), wide)] if rows else [], False, 0.0, 3.2
    else:
        boards_em = max((text_em(", ".join(map(str, r["boards"]))) for r in rows if r.get("boards")), default=0.0)
        if boards_em:  # ... and its heading, whole ("tableros"), in the heading's smaller type
            boards_em = max(boards_em, text_em(words._("boards")) * 0.89)
        # The table's column: its number, or the word a bye says there ("descanso"), whole.
        table_em = max(3.2, text_em(words._("bye")) - 1.6 - 0.3)
        fixed = table_em + 1.6 + 0.6 + (boards_em + 0.3 if boards_em else 0)
        paged, dense = _paged([text_em(r["name"]) for r in rows], fixed, FIND_COLUMNS_DENSE, FIND_ROWS_DENSE, scale, 1,
                              FIND_LINE, snug=True), True
    for k, e, fit in paged:
        chunk = rows[k:e]
        first, last = _range_ends(chunk[0]["name"], chunk[-1]["name"], f"{heading}: {words._('find your table')}")
        columns = _even_columns(chunk, fit.columns) if dense and not fit.wraps else _columns_of(chunk, fit.rows)
        screens.append({"kind": "find", "heading": heading, "columns": columns, "fit": fit,
                        "first": first, "last": last, "partners": not dense, "dense": dense,
                        "boards_em": round(boards_em + 0.3, 2) if boards_em else 0,
                        "table_em": round(table_em, 2) if table_em > 3.2 else 0})
    return screens


#: How wide a standings heading's bold text is for :func:`text_em`.  Its column is in the row's em
#: (projector.css: a table's type is its rows') and the heading's type is at most the row's, but
#: :func:`text_em` does not err wide for every word: "rank" is 2.55 em in DejaVu Sans Bold against
#: 2.64 reckoned, so 0.9 of the reckoning cut it ("ra…") at the floor's type; the whole of it does not.
HEADING_EM = 1.0


def _range_ends(first: str, last: str, heading: str) -> tuple[str, str]:
    """The names a "find your table" screen runs from and to, as its heading shows them: whole
    where they fit beside the heading (its 42 units, the range's 34, the page's number), else each
    cut after the first word that tells them apart ("Guillermina – Wenceslao", "Player 0006 –
    Player 0012"): a guide in whole words, not a long name shortened with "…" mid-word."""
    room = STAGE_WIDTH - text_em(heading) * 42 - text_em("99/99") * 34 - 2 * 0.6 * 42
    if text_em(f"{first} – {last}") * 34 <= room:
        return first, last
    a, b = first.split(), last.split()
    n = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
    return " ".join(a[:n + 1]), " ".join(b[:n + 1])


def _numbered(screens: list[dict[str, Any]]) -> list[dict[str, Any]]:
    for i, s in enumerate(screens):
        s.update(index=i, count=len(screens))
    return screens


def projector_html(data: dict[str, Any], site: Site, url: str | None = None, part: str | None = None,
                   lang: str = i18n.DEFAULT, seconds: int = SCREEN_SECONDS, size: str = "normal") -> str:
    """The projector page: one screen at a time, each up for ``seconds``, its text at ``size``
    (:func:`projector_settings`), paging by
    itself (a CSS animation; the live script takes over where it runs, so that an update does
    not start the round of screens again); the public page's QR code when ``url`` is given; the
    round's clock when the event has a time limit."""
    screens = projector_screens(data, lang, size)
    clock = data.get("clock")
    ends_local = None
    if clock:
        import datetime

        ends_local = datetime.datetime.fromisoformat(clock["ends_at"]).astimezone().strftime("%H:%M")
    return render("projector.html.j2", {
        **values(data, site, "projector", lang), "screens": screens, "seconds": seconds,
        "cycle": seconds * len(screens), "qr": public_qr(url, lang) if url else None, "url": url,
        "clock": clock, "ends_local": ends_local}, part, lang)


@functools.lru_cache(maxsize=4)
def public_qr(url: str, lang: str = i18n.DEFAULT) -> Markup:
    """The public page's address as a QR code, inline SVG that scales to its box (segno: made here,
    nothing fetched; a quiet zone around it, as scanners need)."""
    import segno

    return Markup(segno.make(url, error="m").svg_inline(scale=1, omitsize=True,
                                                        title=Words(lang)._("QR code of the event's public page")))


# --- the report's one page -------------------------------------------------------------------------------


def report_html(data: dict[str, Any], site: Site, lang: str = i18n.DEFAULT, **extra: Any) -> str:
    """The report's one page in ``lang``: the event, its champion, standings, stages and every
    round (``extra``: ``round_links``, each round's page when the rounds are on pages of their own)."""
    return render("report.html.j2", values(data, site, "report", lang, **extra), lang=lang)


def round_page_html(data: dict[str, Any], site: Site, r: dict[str, Any], part: str | None = None,
                    lang: str = i18n.DEFAULT) -> str:
    """A round's tables as a page of its own (``tournament report`` of a big event), with a link
    back to the report; ``part="round"``: only its tables (what they would weigh on the report)."""
    return render("round.html.j2", values(data, site, "round", lang, r=r), part, lang)


# --- written as files --------------------------------------------------------------------------------------


def site_pages(data: dict[str, Any], site: Site, lang: str = i18n.DEFAULT) -> Iterable[tuple[str, Callable[[], str]]]:
    """Every public page as (file name, a function making its text), for ``tournament report``:
    made one at a time as they are written, never all held at once."""
    for page in event_pages(data):
        yield file_name(page), functools.partial(page_html, data, site, page, lang=lang)
    for p in data["players"]:
        yield file_name("player", p["id"]), functools.partial(page_html, data, site, "player", p["id"], lang=lang)
    for t in data.get("teams", ()):
        yield file_name("team", t["id"]), functools.partial(page_html, data, site, "team", t["id"], lang=lang)



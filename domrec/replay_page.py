"""The replay page: a whole record on one HTML page an arbiter can step through.

:func:`page` turns a record into one self-contained HTML document: every hand's positions
(from the replay the validator runs, :func:`domrec.pictures.positions.replay`), a move list
beside each hand's table, buttons and keys to step through it, the hand's scoring arithmetic
and the totals after each hand.  For an invalid record the page opens at the first problem:
the problem's sentence and rule at the top of its hand, above the table its player faced, and
the move that broke it marked in the move list.

Why a template engine here (Jinja2) when the tournament report has none: this page is mostly
markup (a document head, a style sheet, a script, a section a hand, a list a move) around
little logic, and everything in it that comes from a record (names, comments, the event's
fields, seats in problem sentences) must be escaped.  Jinja2's autoescaping does that for
every value by default, so a forgotten escape cannot happen; the only values marked safe are
our own script and the positions as JSON (escaped for a script element by :func:`_json`).

Why the positions travel as data and the script draws them: a picture a position made a game's
page 3 to 7 MB (twenty thousand bytes a move, most of it the same tiles again); a hand's first
position and then each move's changes (:mod:`domrec.pictures.changes`) take a few dozen bytes a
move, and each tile face is drawn once (tiles.js).  The script draws with ports of the picture
modules' ``draw`` (``domrec/pictures/*.js``), from the same scenes the Python drawing uses, and
a browser test holds the two equal, picture for picture.  Without JavaScript the page says the
table needs its script, and shows everything else: the moves, the problems, the arithmetic.
"""

from __future__ import annotations

import collections
import functools
import json
import string
from collections.abc import Callable
from importlib import resources
from typing import Any

import attrs
import jinja2
from markupsafe import Markup

from domrec import phrases, working
from domrec.errors import TooLargeError, one_line, plain_direction
from domrec.explain import describe_move
from domrec.i18n import DEFAULT, LANGUAGES, N_, NAMES, environment, translations
from domrec.output import REPLAY_MARK
from domrec.pictures import MODULES
from domrec.pictures.changes import steps
from domrec.pictures.positions import GAME_TITLES, HandReplay, replay, side_of
from domrec.record import Record
from domrec.validate import Problem, Report

#: The page's sentences made from a replay (where a problem is, the verdict, the scores over a
#: picture), as patterns of :mod:`domrec.phrases`, beside the engines' own: a page in another
#: language than English shows them translated.
#: The games' titles over a replay (:data:`domrec.pictures.positions.GAME_TITLES`), for the catalogs.
TITLES = (N_("Competitive dominoes"), N_("Horse Race"), N_("Castle Rock"), N_("Domino Roads"), N_("Broadway"))
PAGE_PHRASES = (
    N_("hand %(n)s"), N_("hand %(n)s, move %(n2)s"), N_("hand %(n)s, %(seat)s"),
    N_("hand %(n)s, move %(n2)s, %(seat)s"),
    N_("move %(n)s of %(n2)s"), N_("move %(n)s of %(n2)s (the deal)"),
    N_("Scores: %(list)s"), N_("Totals after the hand: %(list)s (this hand: %(list2)s)"),
    N_("Totals after the hand: %(list)s (this hand: nothing scored)"),
    N_("valid %(game)s, %(n)s hand, %(scores)s; winner %(side)s"),
    N_("valid %(game)s, %(n)s hands, %(scores)s; winner %(side)s"),
    N_("valid %(game)s, %(n)s hand, %(scores)s; a draw"), N_("valid %(game)s, %(n)s hands, %(scores)s; a draw"),
    N_("valid %(game)s, %(n)s hand, %(scores)s; game not finished"),
    N_("valid %(game)s, %(n)s hands, %(scores)s; game not finished"),
    N_("INVALID (%(n)s problem)"), N_("INVALID (%(n)s problems)"),
    N_("replay stopped at move %(n)s of hand %(n2)s"), N_("replay stopped at hand %(n)s"),
    N_("the game's setup breaks a rule, so no hand was replayed"), N_("its deal could not be replayed"),
    # (the verdict's asides, said after it: :func:`_verdict`)
    N_("scores only: play was not replayed"), N_("scores only for hand %(n)s: its play was not replayed"),
    N_("scores only for hands %(list)s and %(n)s: their play was not replayed"),
    N_("ended on time: the side ahead wins"), N_("ended on time, level"),
    N_("a score-sheet hand: the scores as claimed"),  # (a hand's working: its arithmetic stays as it is)
)


@attrs.frozen
class ProblemView:
    """One problem as the page shows it: where, what, and which rule."""

    anchor: str                 # the element id (problem-1, problem-2, …)
    where: str                  # "hand 1, move 2, W" (empty for the whole game)
    message: str
    rule: str
    pointer: str
    at: str | None              # "9:9" for a record read from DGN
    first: bool


@attrs.frozen
class MoveLine:
    """A move of a hand's move list (1-based), replayed or not."""

    number: int
    text: str
    name: str
    points: int | None          # what the replay scored it (None: not replayed)
    comment: str | None
    target: str | None          # the position after it, as an address (h2-m14; None: not replayed)
    problems: tuple[ProblemView, ...] = ()
    #: The record's first problem, when it is this move's: shown above the table, pointed to from here.
    lead: ProblemView | None = None


@attrs.frozen
class HandView:
    """A hand's section of the page."""

    number: int
    anchor: str
    comment: str | None
    kind: str                   # played, sheet (scores only) or unplayed (not replayed)
    positions: int              # how many positions the script can draw (the deal, then a move each)
    moves: tuple[MoveLine, ...]
    record_moves: int
    open_at: int | None         # the position the script opens at (the first problem's)
    first_problem: bool
    lead_problems: tuple[ProblemView, ...]   # the record's first problem, when it is this hand's: above the table
    top_problems: tuple[ProblemView, ...]
    end_problems: tuple[ProblemView, ...]
    end: str | None
    working: tuple[str, ...]
    scores: str | None
    totals: str | None
    unplayed_why: str | None
    counter: str | None         # the bar's counter and scores as written in the page: the hand's last position
    running: str | None
    data: dict | None           # what the script draws the positions from


def _scores_text(scores: dict[str, int] | None) -> str | None:
    return None if scores is None else ", ".join(f"{side} {n}" for side, n in scores.items())


def _said(text: str, lang: str) -> str:
    """A sentence of the replay (the engines', or the page's own) in ``lang``."""
    return text if lang == DEFAULT else phrases.translate(text, lang, phrases.PHRASES + PAGE_PHRASES)


def _problem_view(index: int, problem: Problem, lang: str = DEFAULT) -> ProblemView:
    at = f"{problem.line}:{problem.column}" if problem.line is not None else None
    return ProblemView(f"problem-{index + 1}", _said(one_line(problem.place()), lang), _said(problem.message, lang),
                       _said(problem.rule, lang) if problem.rule else problem.rule, problem.pointer or "/", at,
                       index == 0)


def _counter(move: int, moves: int) -> str:
    return f"move {move} of {moves}" + (" (the deal)" if move == 0 else "")


def _opening(problem: Problem, positions: int) -> int | None:
    """Where the first problem's hand opens: just before an illegal move (the table its player
    faced), just after a move whose claimed score is wrong (the picture shows what it scored), at
    the hand's end for a claim about the whole hand.  Position ``k`` is the table after ``k`` moves."""
    if not positions:
        return None
    if problem.move is None:
        return positions - 1
    wanted = problem.move - 1 if problem.kind == "illegal" else problem.move
    return min(max(wanted, 0), positions - 1)


def _hand_data(number: int, replayed: HandReplay, moves: int) -> dict:
    """What the page's script draws a hand's positions from: the first whole, then each one as its
    changes from the one before.  (The "Last:" line of each picture the script reads from the move
    list, which says the same.)"""
    shown = replayed.positions
    datas = [p.data() for p in shown]
    return {"hand": number, "moves": moves, "first": _compact(datas[0]), "changes": steps(datas, _number)}


@attrs.frozen
class HandDrawn:
    """What the page keeps of a replayed hand (:class:`HandReplay`) once the hand is over: its data
    for the script and the little the page says of its positions.  A position holds its racks and
    its board's scene, thousands of bytes; its changes take a few dozen, so a long game's page is
    made keeping one hand's positions at a time (:func:`_drawn`), not every position of the game."""

    number: int
    end: str | None
    working: tuple[str, ...]
    scores: dict[str, int] | None
    totals: dict[str, int] | None
    sheet: bool
    positions: int                    # how many positions the script can draw
    points: dict[int, int]            # what each move scored, by the move's number in the hand
    counter: str | None               # the hand's last position's counter (``move 9 of 9``), in English
    running: str | None               # and its scores line
    data: dict | None                 # :func:`_hand_data`
    #: The texts its positions hold in words (:func:`_scene_texts`), for a page in another language.
    texts: frozenset[str] = frozenset()


def _scene_texts(replayed: HandReplay) -> frozenset[str]:
    """The texts a hand's positions hold in words, which the page's script shows as they are: how
    the hand ended, and the words of each board's scene (a Horse Race tile's "6-4: set on 4-4", what
    it pegs, Domino Roads' dice, Broadway's face-up rows).  A text without a space is notation (a
    tile, a seat, a road) and is left out.  The page gives each in its language (:func:`_scene_words`)."""
    out: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if " " in value:
                out.add(value)
        elif isinstance(value, (list, tuple)):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for position in replayed.positions:
        walk(position.scene)
        if position.ended:
            out.add(position.ended)
    return frozenset(out)


def _drawn(record: Record, lang: str = DEFAULT) -> Callable[[HandReplay], HandDrawn]:
    """The camera's ``keep`` for the page: each hand's positions turned into its data as it ends
    (and, for a page in another language than English, the texts its positions hold)."""

    def keep(replayed: HandReplay) -> HandDrawn:
        shown = replayed.positions
        data = None
        if shown and 1 <= replayed.number <= len(record.hands):
            data = _hand_data(replayed.number, replayed, len(record.hands[replayed.number - 1].moves))
        return HandDrawn(replayed.number, replayed.end, replayed.working, replayed.scores, replayed.totals,
                         replayed.sheet, len(shown), {p.move: p.points for p in shown},
                         _counter(shown[-1].move, shown[-1].moves) if shown else None,
                         shown[-1].header_lines()[2] if shown else None, data,
                         _scene_texts(replayed) if lang != DEFAULT and data is not None else frozenset())

    return keep


_LETTERS = string.ascii_letters


#: JSON written by the C encoder with the separators the page uses.
_json_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _alias(index: int) -> str:
    return _LETTERS[index] if index < len(_LETTERS) else _alias(index // len(_LETTERS) - 1) + _LETTERS[index % len(_LETTERS)]


def _aliased(hands: list[dict]) -> tuple[dict[str, str], list[dict]]:
    """The hands' positions with every dict key (in the positions and in the changes' paths) written
    as a short alias, the most frequent first, and the table of aliases (``{"a": "board", ...}``),
    which the script reads back.  Every key is aliased, the seats' too, so no alias is mistaken for
    a key: the key ``board`` repeated in each move's changes is one letter, and a path is one
    string (``["board", "row"]`` is ``"a.c"``)."""
    # The positions and the changes' values are written as JSON once and read back twice by the C
    # parser, which hands each dict to a hook: once to count its keys, once to rename them.  Walking
    # the values in Python, item by item (most items are numbers), cost a tenth of a page's making.
    counts: collections.Counter[str] = collections.Counter()
    for hand in hands:
        for edits in hand["changes"]:
            for edit in edits:
                counts.update(k for k in edit[0] if isinstance(k, str))
    text = _json_text([[hand["first"], [edit[1:] for edits in hand["changes"] for edit in edits]] for hand in hands])

    def tally(pairs: list[tuple[str, object]]) -> None:
        counts.update(k for k, _ in pairs)

    json.loads(text, object_pairs_hook=tally)
    alias = {key: _alias(i) for i, (key, _) in enumerate(counts.most_common())}
    renamed = json.loads(text, object_pairs_hook=lambda pairs: {alias[k]: v for k, v in pairs})

    def path(keys: list) -> str:  # aliases are letters and indexes digits: "a.d.2" is a path
        return ".".join(alias[k] if isinstance(k, str) else str(k) for k in keys)

    out = []
    for hand, (first, values) in zip(hands, renamed):
        rest = iter(values)
        out.append({**hand, "first": first,
                    "changes": [[[path(edit[0]), *next(rest)] for edit in edits] for edits in hand["changes"]]})
    return {a: key for key, a in alias.items()}, out


def _number(text: str) -> float | int:
    """A number of a position's JSON written with a point or an exponent, read as :func:`_compact`
    leaves it: a whole one as an integer."""
    value = float(text)
    return int(value) if value.is_integer() and abs(value) < 2 ** 53 else value


def _compact(value: object) -> object:
    """``value`` with each whole float written as an integer (``3`` for ``3.0``): the same number
    to a script, a byte or two less a coordinate."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return int(value)
    if isinstance(value, list):
        return [_compact(v) for v in value]
    if isinstance(value, dict):
        return {k: _compact(v) for k, v in value.items()}
    return value


def _hand_view(record: Record, number: int, replayed: HandDrawn | None, problems: list[ProblemView],
               raw: list[Problem], stopped: str | None, lang: str = DEFAULT) -> HandView:
    hand = record.hands[number - 1]
    names = {p.seat: plain_direction(p.name) for p in record.players}
    shown = replayed.positions if replayed else 0
    points = replayed.points if replayed else {}
    by_move: dict[int, list[ProblemView]] = {}
    lead: list[ProblemView] = []
    top: list[ProblemView] = []
    end: list[ProblemView] = []
    for view, problem in zip(problems, raw):
        if view.first:  # the page opens here: above the table, whatever it is about
            lead.append(view)
        elif problem.move is not None and 1 <= problem.move <= len(hand.moves):
            by_move.setdefault(problem.move, []).append(view)
        elif problem.kind == "score":
            end.append(view)
        else:
            top.append(view)
    led = {raw[0].move: lead[0]} if lead and raw[0].move is not None else {}
    moves = tuple(MoveLine(k, _said(describe_move(m), lang), names.get(m.seat, ""), points.get(k), m.comment,
                           f"h{number}-m{k}" if k < shown else None, tuple(by_move.get(k, ())), led.get(k))
                  for k, m in enumerate(hand.moves, start=1))
    if replayed is not None and replayed.sheet:
        kind = "sheet"
    elif shown:
        kind = "played"
    else:
        kind = "unplayed"
    first = bool(raw) and problems[0].first
    open_at = _opening(raw[0], shown) if first else None
    why = None
    if kind == "unplayed":
        why = "its deal could not be replayed" if any(p.kind == "deal" for p in raw) else stopped
        why = _said(why, lang) if why else why
    counter, running = (replayed.counter, replayed.running) if replayed else (None, None)
    return HandView(number, f"hand-{number}", hand.comment, kind, shown, moves, len(hand.moves), open_at, first,
                    tuple(lead), tuple(top), tuple(end),
                    _said(replayed.end, lang) if replayed and replayed.end else None,
                    tuple(working.translate(w, lang) for w in replayed.working) if replayed else (), _scores_text(replayed.scores) if replayed else None,
                    _scores_text(replayed.totals) if replayed else None, why,
                    _said(counter, lang) if counter is not None else None,
                    _said(running, lang) if running is not None else None,
                    replayed.data if replayed and shown else None)


#: The event's fields the format names (docs/format.md), shown in the page's language; any
#: other field is shown by its own name, as the record writes it.
EVENT_FIELDS = {"name": N_("name"), "round": N_("round"), "table": N_("table"), "board": N_("board"),
                "date": N_("date"), "site": N_("site"), "comment": N_("comment")}


def _event_lines(record: Record, gettext: Any = str) -> list[tuple[str, str]]:
    """The event's fields as (name, value) text, in the record's order."""
    out = []
    for key, value in (record.event or {}).items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        out.append((gettext(EVENT_FIELDS[key]) if key in EVENT_FIELDS else str(key), text))
    return out


def _rules_line(record: Record, gettext: Any = str) -> str | None:
    rules = record.rules
    if rules is None or (rules.variant is None and not rules.options):
        return None
    parts = [gettext("variant %(variant)s") % {"variant": rules.variant}] if rules.variant else []
    parts += [f"{k} = {json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}"
              for k, v in (rules.options or {}).items()]
    return "; ".join(parts)


def _sides(record: Record, report: Report, hands: list[HandDrawn]) -> list[tuple[str, list[tuple[str, str]]]]:
    """Partnerships (side -> its seats and names) when the game is played by sides of several seats."""
    sides = tuple(report.scores or next((h.totals for h in hands if h.totals), None) or ())
    seats = [p.seat for p in record.players]
    if not sides or all(side in seats for side in sides):
        return []
    out = []
    for side in sides:
        members = [(p.seat, p.name) for p in record.players if side_of(p.seat, sides) == side]
        out.append((side, members))
    return out


def _verdict(report: Report, lang: str = DEFAULT) -> str:
    """The report's verdict line without its source, in ``lang``.  Its asides (hands checked by their
    scores alone, a game ended on time) are said each in turn after the rest, in another language
    than English: listed whole with them, the verdict's patterns would be every combination."""
    summary = report.summary()
    prefix = one_line(report.source) + ": "
    text = summary[len(prefix):] if summary.startswith(prefix) else summary
    if lang == DEFAULT:
        return text
    asides = [a for a in (report.scores_only if report.valid else None, *_ON_TIME) if a and f" ({a})" in text]
    for aside in asides:
        text = text.replace(f" ({aside})", "", 1)
    return " ".join([_said(text, lang), *(f"({_said(a, lang)})" for a in asides)])


#: What the verdict says of a game ended on time (:meth:`domrec.validate.Report.summary`).
_ON_TIME = ("ended on time: the side ahead wins", "ended on time, level")


@functools.cache
def _environment(lang: str = DEFAULT) -> jinja2.Environment:
    return environment(jinja2.PackageLoader("domrec", "templates"), lang, undefined=jinja2.StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True, finalize=_shown)


def _shown(value: object) -> object:
    """A value as the page shows it: text without direction controls (names, comments, the
    event's fields from the record), so that it reads in the order it is written; each name is
    also isolated (``<bdi>``, or ``unicode-bidi: isolate``) by the template."""
    return plain_direction(value) if type(value) is str else value


@functools.cache
def edition() -> str:
    """What the page's look depends on besides the record: domrec's version and the text of the
    templates and the scripts.  A tournament report keeps a replay page written for the same record
    and edition instead of drawing it again (:func:`tournament.report.write_replays`)."""
    import hashlib
    from importlib import metadata

    digest = hashlib.sha256()
    for name in ("replay.html.j2", "problem.html.j2", "replay.js"):
        digest.update(resources.files("domrec").joinpath("templates", name).read_bytes())
    for name in sorted(p.name for p in resources.files("domrec.pictures").iterdir() if p.name.endswith(".js")):
        digest.update(resources.files("domrec.pictures").joinpath(name).read_bytes())
    try:
        version = metadata.version("domrec")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"{version}-{digest.hexdigest()[:12]}"


def page(record: Record, source: str = "<record>", identity: str | None = None, lang: str = DEFAULT,
         switch: bool = False) -> str:
    """The replay page of ``record`` as one HTML document (nothing fetched, every text escaped).

    ``source`` names the record in the validator's report (a file name, ``round 2 table 3``).
    An invalid record gets a page too, opening at its first problem; a record that cannot be
    replayed at all (the setup breaks a rule) shows its problems and its moves as written.
    ``identity`` (a record's hash) is written in the page's head with :func:`edition`, so that a
    later writer can tell the page is already the one it would write.  ``lang``: the page's
    language (domrec.i18n: its own words, the moves, the problems, and every word of its pictures).
    ``switch``: a line of links to the page in each language (``?lang=es``), for a page served
    among others that have it (the venue's); a file written by ``explain`` has none."""
    return page_with_report(record, source, identity, lang, switch=switch)[0]


#: The most moves (all hands together) a replay page is made of.  A page costs about 150 to 350
#: bytes and some milliseconds a move (a Horse Race's spinner is laid out anew for each), so a game
#: of 40,000 moves (a 2.4 MB record) took 380 s and 530 MB, for a page of some 14 MB that no browser
#: steps through with ease; the longest of 30 simulated games of each game has 790 moves.  A record over the limit
#: is refused in one line before its replay starts (docs/replay.md, "Limits").
MAX_PAGE_MOVES = 2_000


def check_size(record: Record, source: str = "<record>") -> None:
    """Refuse (:class:`TooLargeError`, one line) a record with more moves than a page shows."""
    moves = sum(len(hand.moves) for hand in record.hands)
    if moves > MAX_PAGE_MOVES:
        raise TooLargeError(f"{one_line(source)} has {moves:,} moves, more than {MAX_PAGE_MOVES:,}, the most a "
                            f"replay page shows; no page was made")


def page_with_report(record: Record, source: str = "<record>", identity: str | None = None,
                     lang: str = DEFAULT, read: Report | None = None, switch: bool = False) -> tuple[str, Report]:
    """:func:`page`, and the validator's report of the same replay (for the verdict beside it).
    A record of more than :data:`MAX_PAGE_MOVES` moves is refused before its replay
    (:class:`TooLargeError`).  ``read``: the verdict of the DGN reader that stopped at a broken
    rule, ``record`` holding the text up to it: the page steps through that, under the reader's
    verdict."""
    check_size(record, source)
    hands, report = replay(record, source, keep=_drawn(record, lang))
    if read is not None:
        report = read
    return render(record, hands, report, identity, lang, switch), report


#: The sentences the page's script writes itself (the counter over a picture, its scores line), as
#: patterns whose ``%(name)s`` the script fills in.
SCRIPT_PHRASES = (N_("move %(n)s of %(n2)s"), N_("move %(n)s of %(n2)s (the deal)"), N_("Scores: %(list)s"),
                  N_("Totals after the hand: %(list)s (this hand: %(list2)s)"),
                  N_("Totals after the hand: %(list)s (this hand: nothing scored)"), N_("hand %(n)s"))

#: Every word the pictures' scripts write (frame.js, and each game's script by the game's id), as
#: patterns they fill in with ``D.frame.say`` (a count's pattern for one and for many): the
#: picture's title, its last move and its racks, the board's words and its notes, and each tile's
#: title (what a screen reader and a pointer's tooltip say).  A page in another language carries
#: frame.js's and its game's translated; an English page carries none, and the scripts write the
#: patterns themselves, as the picture modules do.
PICTURE_PHRASES: dict[str, tuple[str, ...]] = {
    # frame.js: the title, the last move, the racks
    "frame": (N_("the deal"), N_("hand over (%(end)s)"), N_("Nothing played yet"),
        N_("Nothing played yet; %(seat)s to play"), N_("Last: %(move)s"), N_(", scoring %(n)s"),
        N_("%(who)s, to play"), N_("%(n)s tile"), N_("%(n)s tiles"), N_("%(seat)s: a tile not shown")),
    # competitive.js
    "competitive": (N_("tile %(n)s of the line: %(tile)s"), N_("The line is empty: the lead is still to be made."),
        N_("The line: %(tiles)s, open ends: %(a)s and %(b)s.")),
    # broadway.js
    "broadway": (N_("%(seat)s laid %(tile)s at %(cells)s, %(n)s matched"),
        N_("%(seat)s laid %(tile)s at %(cells)s, the lead"), N_("%(label)s (penalty play)"),
        N_("%(seat)s's %(tile)s, face up"),
        N_("Points made in play this hand: NS %(ns)s · EW %(ew)s (built on %(tile)s)."),
        N_("Points made in play this hand: NS %(ns)s · EW %(ew)s (built on %(tile)s; sudden death)."),
        N_("N and S lay tiles east-west, E and W north-south."), N_("Coordinates: x along the bottom, y up the left."),
        N_("The tableau is empty: %(seat)s leads %(tile)s."),
        N_("The tableau is empty: the holder of %(tile)s leads it."), N_("Yellow: the last tile laid."),
        N_("Yellow: the last tile laid; orange rings: the halves it matched."),
        N_("Tan: penalty plays (an exposed tile laid by an opponent).")),
    # castlerock.js
    "castle-rock": (N_("The row: %(tiles)s, blocked end first (−1 each to every player at the end)"),
        N_("The row is empty: the next tile placed starts it"), N_("the open end: the next tile is placed here"),
        N_("the blocked end"), N_("the open end"), N_("place %(n)s"), N_("row, %(where)s (%(n)s of %(n2)s): %(tile)s"),
        N_("%(seat)s captured %(n)s"), N_("%(seat)s captured %(n)s (+%(n2)s now)"),
        N_("captured by %(seat)s: %(tile)s"), N_("captured by %(seat)s: %(tile)s (just taken)"),
        N_("the boneyard: %(tiles)s"), N_("Boneyard: %(tiles)s to draw"), N_("Boneyard: empty"),
        N_("%(seat)s just drew %(tile)s (now in their rack)")),
    # horserace.js
    "horse-race": (N_("open end %(n)s of %(tile)s: counts %(n)s"),
        N_("%(tile)s is a spinner with a side free: it counts both halves, %(n)s"),
        N_("a free side of the spinner %(tile)s (counted with the spinner)"),
        N_("a free end of the spinner %(tile)s: it counts nothing until a tile is set on it"),
        N_("Count of the open ends: %(sums)s"), N_("%(tiles)s on the table"), N_("; spinner %(tiles)s"),
        N_("; spinners %(tiles)s"), N_("; boneyard: %(tiles)s."), N_("Discs: open ends and what they count."),
        N_("Discs: open ends and what they count; rings: free spinner places (they add nothing)."),
        N_("The layout is empty: the lead is still to be set."), N_("Boneyard: %(tiles)s."),
        N_("%(words)s (the last tile set)")),
    # roads.js
    "domino-roads": (N_("length %(n)s"), N_("length %(n)s, blocked"), N_("length %(n)s, joined"),
        N_("length %(n)s, joined to %(road)s"), N_("length %(n)s, blocked, joined to %(road)s"),
        N_("road %(road)s of %(side)s: %(details)s"), N_("starter %(tile)s of %(road)s, facing %(n)s"),
        N_("span %(n)s of %(road)s: %(tile)s"), N_("road-block %(tile)s on %(road)s"),
        N_("%(side)s roads (%(seat)s and %(seat2)s)"), N_("%(side)s's roads"), N_("%(heading)s: %(n)s"),
        N_("%(heading)s: none yet"),
        N_("bridge 0-0 joining the %(n)s of span %(span)s of %(road)s to the %(n2)s of span %(span2)s of %(road2)s"),
        N_("Piles (next top-up first)"), N_("empty"), N_("%(seat)s's pile, tile %(n)s: not known"),
        N_("%(seat)s's pile, tile %(n)s: %(tile)s"), N_("Roads: %(list)s."), N_("%(n)s joined pair"),
        N_("%(n)s joined pairs"), N_("%(n)s blocked")),
}

#: The texts the picture modules put in a position's scene in words (:func:`_scene_texts`), which
#: the scripts show whole: a Horse Race tile's words and what the count pegs, Domino Roads' dice,
#: Broadway's face-up rows.  Each is said in the page's language as a whole sentence.
SCENE_PHRASES = (
    N_("%(tile)s: the lead"), N_("%(tile)s: the lead, a spinner"), N_("%(tile)s: set on %(tile2)s"),
    N_("%(tile)s: set on a side of the spinner %(tile2)s"), N_("%(tile)s: set on an end of the spinner %(tile2)s"),
    N_("%(tile)s: set on %(tile2)s, set apart for room (the dashed line)"),
    N_("%(tile)s: set on a side of the spinner %(tile2)s, set apart for room (the dashed line)"),
    N_("%(tile)s: set on an end of the spinner %(tile2)s, set apart for room (the dashed line)"),
    N_("pegs %(n)s: one point per five"), N_("pegs %(n)s: the full count, in celko"),
    N_("no score: not a multiple of five"), N_("no score: nothing is open to count"), N_("no score"),
    N_("No dice rolled yet: %(seat)s rolls first."), N_("No dice rolled yet."),
    N_("Last toss: total %(n)s. Hand over: %(seat)s went out."), N_("Last toss: total %(n)s, used. %(seat)s rolls next."),
    N_("Unused toss: total %(n)s. %(seat)s may reuse it or roll again."),
    N_("Turn %(n)s: %(seat)s has the dice, total %(n2)s; %(seat2)s playing."),
    N_("Turn %(n)s: %(seat)s reused the toss, total %(n2)s; %(seat2)s playing."),
    N_("%(seat)s holds face up (exposed):"), N_("%(seat)s exposed, for %(seat2)s or %(seat3)s to lay:"),
)


def _script_words(lang: str, game: str | None = None) -> dict[str, str]:
    """The script's sentences in ``lang``, those of ``game``'s pictures with them (none in English:
    the script's own are used)."""
    if lang == DEFAULT:
        return {}
    gettext = translations(lang).gettext
    return {pattern: gettext(pattern)
            for pattern in SCRIPT_PHRASES + PICTURE_PHRASES["frame"] + PICTURE_PHRASES.get(game or "", ())}


def _scene_words(hands: list[HandDrawn], lang: str) -> dict[str, str]:
    """The texts the hands' positions hold in words (:attr:`HandDrawn.texts`) in ``lang``, each whole
    (the script looks each up as it is: ``D.frame.word``): how a hand ended as the page's heading
    says it, a scene's words by :data:`SCENE_PHRASES`.  Those no pattern matches are left out (shown
    as they are)."""
    out: dict[str, str] = {}
    for text in sorted(set().union(*(h.texts for h in hands))) if hands else ():
        said = phrases.translate(text, lang, SCENE_PHRASES)
        if said == text:
            said = _said(text, lang)
        if said != text:
            out[text] = said
    return out


def _identity(identity: str, lang: str = DEFAULT) -> str:
    return f"{identity} {edition()}" + ("" if lang == DEFAULT else f" {lang}")


def identity_mark(identity: str, lang: str = DEFAULT) -> str:
    """The head's line naming the record, the page's edition and its language (see :func:`page`)."""
    return f'<meta name="domrec-record" content="{_identity(identity, lang)}">'


#: The drawing scripts every page carries, in order, before its game's own and the page's (replay.js).
SHARED_SCRIPTS = ("svg.js", "tiles.js", "frame.js")


@functools.cache
def _script(game: str) -> Markup:
    """The page's script: the drawing helpers, ``game``'s drawing (none for a game without pictures)
    and the stepping (replay.js), each file as written (none holds ``</script``)."""
    folder = resources.files("domrec.pictures")
    names = [*SHARED_SCRIPTS, *([MODULES[game].rsplit(".", 1)[1] + ".js"] if game in MODULES else [])]
    parts = [folder.joinpath(name).read_text(encoding="utf-8") for name in names]
    parts.append(resources.files("domrec").joinpath("templates", "replay.js").read_text(encoding="utf-8"))
    text = _shortened("\n".join(parts))
    if "</script" in text.lower() or "<!--" in text:
        raise AssertionError("a replay script must not hold </script or <!--")  # pragma: no cover
    return Markup(text)


_WORD = set(string.ascii_letters + string.digits + "_$")
#: After these (or at the start), a ``/`` opens a regular expression; elsewhere it divides.
_BEFORE_PATTERN = set("(,=:[!&|?{};+-*%<>~^")


def _shortened(script: str) -> str:
    """The script without its comments and the spaces it does not need (a third of its size, on
    every page; the files keep them).  Strings and regular expressions are copied as they are;
    a space stays only between two words (``var x``) or two like signs (``a + +b``), and a line
    break stays unless it follows ``;``, ``{`` or ``,`` (where no statement can end, so joining
    the lines never joins two statements: a line ending otherwise keeps its break, whatever
    JavaScript's semicolon insertion would make of it).  The files hold no template literal and no
    ``/`` after a word but a division (checked by the browser tests, which run it)."""
    out: list[str] = []
    last = ""        # the last character written
    word = ""        # the word being written, to tell ``return /x/`` from a division
    i, n = 0, len(script)
    while i < n:
        c = script[i]
        if c in "\"'":
            j = i + 1
            while script[j] != c:
                j += 2 if script[j] == "\\" else 1
            out.append(script[i:j + 1])
            i, last, word = j + 1, c, ""
        elif script.startswith("/*", i):
            i = script.index("*/", i) + 2
        elif script.startswith("//", i):
            i = script.index("\n", i)
        elif c == "/" and (last in _BEFORE_PATTERN or last in ("", "\n") or word in ("return", "typeof")):
            j, in_class = i + 1, False
            while in_class or script[j] != "/":
                in_class = (in_class or script[j] == "[") and script[j] != "]"
                j += 2 if script[j] == "\\" else 1
            j += 1
            while j < n and script[j] in _WORD:
                j += 1
            out.append(script[i:j])
            i, last, word = j, "/", ""
        elif c in " \t\r":
            j = i
            while j < n and script[j] in " \t\r":
                j += 1
            after = script[j] if j < n else ""
            if (last in _WORD and after in _WORD) or (last == after and last in "+-"):
                out.append(" ")
            i = j
            word = word if last in _WORD else ""
        elif c == "\n":
            if last not in ("", "\n", ";", "{", ","):  # (a page's bytes: a break after these says nothing)
                out.append("\n")
                last = "\n"
            i, word = i + 1, ""
        else:
            out.append(c)
            word = word + c if c in _WORD else ""
            i, last = i + 1, c
    return "".join(out).strip()


def _json(value: object) -> Markup:
    """``value`` as JSON to sit in a ``<script type="application/json">``: ``<``, ``>`` and ``&``
    written as escapes, so that no text of a record can close the element or open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def render(record: Record, hands: list[HandDrawn], report: Report, identity: str | None = None,
           lang: str = DEFAULT, switch: bool = False) -> str:
    """The page from a replay already run (:func:`page` runs it)."""
    views = [_problem_view(i, p, lang) for i, p in enumerate(report.problems)]
    by_hand: dict[int | None, tuple[list[ProblemView], list[Problem]]] = {}
    for view, problem in zip(views, report.problems):
        hand = problem.hand if problem.hand is not None and 1 <= problem.hand <= len(record.hands) else None
        pair = by_hand.setdefault(hand, ([], []))
        pair[0].append(view)
        pair[1].append(problem)
    replayed = {h.number: h for h in hands}
    stopped = None
    illegal = next((p for p in report.problems if p.kind == "illegal" and p.hand is not None), None)
    if illegal is not None:
        stopped = f"replay stopped at move {illegal.move} of hand {illegal.hand}" if illegal.move else \
            f"replay stopped at hand {illegal.hand}"
    elif report.problems and not hands:
        stopped = "the game's setup breaks a rule, so no hand was replayed"
    stopped = _said(stopped, lang) if stopped else stopped
    hand_views = [_hand_view(record, k, replayed.get(k), *by_hand.get(k, ([], [])), stopped=stopped, lang=lang)
                  for k in range(1, len(record.hands) + 1)]
    sides = _sides(record, report, hands)
    columns = list(report.scores or next((h.totals for h in hands if h.totals), None) or ())
    totals = [(h.number, [h.totals.get(c) for c in columns]) for h in hands if h.totals is not None]
    title = translations(lang).gettext(GAME_TITLES[record.game]) if record.game in GAME_TITLES else record.game
    event_name = (record.event or {}).get("name") or (record.event or {}).get("event")
    keys, played = _aliased([h.data for h in hand_views if h.data is not None])
    data = {"game": record.game, "title": title, "names": [[p.seat, plain_direction(p.name)] for p in record.players],
            "keys": keys, "hands": played, "say": {**_script_words(lang, record.game), **_scene_words(hands, lang)}}
    return _environment(lang).get_template("replay.html.j2").render(
        script=_script(record.game), data=_json(data),
        mark=Markup(REPLAY_MARK), identity=_identity(identity, lang) if identity else None, title=title,
        event_name=event_name if isinstance(event_name, str) else None,
        game=record.game, players=record.players, sides=sides, event=_event_lines(record, translations(lang).gettext),
        rules=_rules_line(record, translations(lang).gettext), verdict=_verdict(report, lang),
        status=report.status,
        note=report.note, game_problems=by_hand.get(None, ([], []))[0],
        first=views[0] if views else None,
        hands=hand_views, columns=columns, totals=totals,
        switch=[(code, NAMES[code]) for code in sorted(LANGUAGES, key=lambda c: c != "es")] if switch else None)


__all__ = ["MAX_PAGE_MOVES", "REPLAY_MARK", "check_size", "edition", "identity_mark", "page", "page_with_report", "render"]

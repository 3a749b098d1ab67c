"""The replay page: a whole record on one HTML page an arbiter can step through.

:func:`page` turns a record into one self-contained HTML document: every
position of every hand drawn by the game's picture module (from the replay
the validator runs, :func:`domrec.pictures.positions.replay`), a move list
beside each hand's picture, buttons and keys to step through it, the hand's
scoring arithmetic and the totals after each hand.  For an invalid record the
page opens at the first problem, with the problem's sentence and rule beside
the move that broke it.

Why a template engine here (Jinja2) when the tournament report has none: this
page is mostly markup (a document head, a style sheet, a script, a section a
hand, a list a move) around little logic, and everything in it that comes from
a record (names, comments, the event's fields, seats in problem sentences)
must be escaped.  Jinja2's autoescaping does that for every value by default,
so a forgotten escape cannot happen; the pictures are our own ElementTree
output (escaped when they were written) and are the only values marked safe.

Why every position is in the page, not drawn by a script: the page must work
from a file, without network and without JavaScript (then it shows each
hand's final position), and a script would have to re-implement the drawing.
Each picture is inlined once; the script only chooses which one is shown.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import attrs
import jinja2
from markupsafe import Markup

from domrec import phrases
from domrec.errors import one_line
from domrec.explain import describe_move
from domrec.i18n import DEFAULT, N_, environment, translations
from domrec.output import REPLAY_MARK
from domrec.pictures.positions import GAME_TITLES, HandReplay, Position, replay, side_of
from domrec.record import Record
from domrec.validate import Problem, Report



#: The page's sentences made from a replay (where a problem is, the verdict, the scores over a
#: picture), as patterns of :mod:`domrec.phrases`, beside the engines' own: a page in another
#: language than English shows them translated.
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
    target: str | None          # the id of the position after it (None: not replayed)
    problems: tuple[ProblemView, ...] = ()


@attrs.frozen
class Frame:
    """One position of a hand, as shown: its picture and what the controls say about it."""

    anchor: str                 # h2-m14
    move: int
    svg: Markup
    counter: str                # "move 14 of 21"
    scores: str                 # "Scores: NS 0 · EW 70"
    last: str


@attrs.frozen
class HandView:
    """A hand's section of the page."""

    number: int
    anchor: str
    comment: str | None
    kind: str                   # played, sheet (scores only) or unplayed (not replayed)
    frames: tuple[Frame, ...]
    moves: tuple[MoveLine, ...]
    record_moves: int
    shown: int | None           # index in frames shown without a script (the final position)
    open_at: int | None         # index in frames the script opens at (the first problem's position)
    first_problem: bool
    top_problems: tuple[ProblemView, ...]
    end_problems: tuple[ProblemView, ...]
    end: str | None
    working: tuple[str, ...]
    scores: str | None
    totals: str | None
    unplayed_why: str | None


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


def _frame(position: Position, lang: str = DEFAULT) -> Frame:
    header = position.header_lines()
    counter = f"move {position.move} of {position.moves}" + (" (the deal)" if position.move == 0 else "")
    return Frame(f"h{position.hand}-m{position.move}", position.move, Markup(position.svg()), _said(counter, lang),
                 _said(header[2], lang), header[1])


def _opening(problem: Problem, frames: tuple[Frame, ...]) -> int | None:
    """Where the first problem's hand opens: just before an illegal move (the table its player
    faced), just after a move whose claimed score is wrong (the picture shows what it scored), at
    the hand's end for a claim about the whole hand."""
    if not frames:
        return None
    moves = [f.move for f in frames]
    if problem.move is None:
        return len(frames) - 1
    wanted = problem.move - 1 if problem.kind == "illegal" else problem.move
    if wanted in moves:
        return moves.index(wanted)
    return len(frames) - 1 if wanted > moves[-1] else 0


def _hand_view(record: Record, number: int, replayed: HandReplay | None, problems: list[ProblemView],
               raw: list[Problem], stopped: str | None, lang: str = DEFAULT) -> HandView:
    hand = record.hands[number - 1]
    names = {p.seat: p.name for p in record.players}
    frames = tuple(_frame(p, lang) for p in replayed.positions) if replayed else ()
    after = {f.move: f for f in frames}
    points = {p.move: p.points for p in replayed.positions} if replayed else {}
    by_move: dict[int, list[ProblemView]] = {}
    top: list[ProblemView] = []
    end: list[ProblemView] = []
    for view, problem in zip(problems, raw):
        if problem.move is not None and 1 <= problem.move <= len(hand.moves):
            by_move.setdefault(problem.move, []).append(view)
        elif problem.kind == "score":
            end.append(view)
        else:
            top.append(view)
    moves = tuple(MoveLine(k, _said(describe_move(m), lang), names.get(m.seat, ""), points.get(k), m.comment,
                           after[k].anchor if k in after else None, tuple(by_move.get(k, ())))
                  for k, m in enumerate(hand.moves, start=1))
    if replayed is not None and replayed.sheet:
        kind = "sheet"
    elif frames:
        kind = "played"
    else:
        kind = "unplayed"
    first = bool(raw) and problems[0].first
    open_at = _opening(raw[0], frames) if first else None
    why = None
    if kind == "unplayed":
        why = "its deal could not be replayed" if any(p.kind == "deal" for p in raw) else stopped
        why = _said(why, lang) if why else why
    return HandView(number, f"hand-{number}", hand.comment, kind, frames, moves, len(hand.moves),
                    len(frames) - 1 if frames else None, open_at, first, tuple(top), tuple(end),
                    _said(replayed.end, lang) if replayed and replayed.end else None,
                    replayed.working if replayed else (),
                    _scores_text(replayed.scores) if replayed else None,
                    _scores_text(replayed.totals) if replayed else None, why)


def _event_lines(record: Record) -> list[tuple[str, str]]:
    """The event's fields as (name, value) text, in the record's order."""
    out = []
    for key, value in (record.event or {}).items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        out.append((str(key), text))
    return out


def _rules_line(record: Record, gettext: Any = str) -> str | None:
    rules = record.rules
    if rules is None or (rules.variant is None and not rules.options):
        return None
    parts = [gettext("variant %(variant)s") % {"variant": rules.variant}] if rules.variant else []
    parts += [f"{k} = {json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v}"
              for k, v in (rules.options or {}).items()]
    return "; ".join(parts)


def _sides(record: Record, report: Report, hands: list[HandReplay]) -> list[tuple[str, list[tuple[str, str]]]]:
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


def _verdict(report: Report) -> str:
    summary = report.summary()
    prefix = one_line(report.source) + ": "
    return summary[len(prefix):] if summary.startswith(prefix) else summary


@functools.cache
def _environment(lang: str = DEFAULT) -> jinja2.Environment:
    return environment(jinja2.PackageLoader("domrec", "templates"), lang, undefined=jinja2.StrictUndefined,
                       trim_blocks=True, lstrip_blocks=True)


@functools.cache
def edition() -> str:
    """What the page's look depends on besides the record: domrec's version and the template's
    text.  A tournament report keeps a replay page written for the same record and edition
    instead of drawing it again (:func:`tournament.report.write_replays`)."""
    import hashlib
    from importlib import metadata, resources

    digest = hashlib.sha256()
    for name in ("replay.html.j2", "problem.html.j2", "replay.js"):
        digest.update(resources.files("domrec").joinpath("templates", name).read_bytes())
    try:
        version = metadata.version("domrec")
    except metadata.PackageNotFoundError:
        version = "0"
    return f"{version}-{digest.hexdigest()[:12]}"


def page(record: Record, source: str = "<record>", identity: str | None = None, lang: str = DEFAULT) -> str:
    """The replay page of ``record`` as one HTML document (nothing fetched, every text escaped).

    ``source`` names the record in the validator's report (a file name, ``round 2 table 3``).
    An invalid record gets a page too, opening at its first problem; a record that cannot be
    replayed at all (the setup breaks a rule) shows its problems and its moves as written.
    ``identity`` (a record's hash) is written in the page's head with :func:`edition`, so that a
    later writer can tell the page is already the one it would write.  ``lang``: the page's
    language (domrec.i18n: its own words, the moves, the problems; the pictures stay English)."""
    return page_with_report(record, source, identity, lang)[0]


def page_with_report(record: Record, source: str = "<record>", identity: str | None = None,
                     lang: str = DEFAULT) -> tuple[str, Report]:
    """:func:`page`, and the validator's report of the same replay (for the verdict beside it)."""
    hands, report = replay(record, source)
    return render(record, hands, report, identity, lang), report


def _identity(identity: str, lang: str = DEFAULT) -> str:
    return f"{identity} {edition()}" + ("" if lang == DEFAULT else f" {lang}")


def identity_mark(identity: str, lang: str = DEFAULT) -> str:
    """The head's line naming the record, the page's edition and its language (see :func:`page`)."""
    return f'<meta name="domrec-record" content="{_identity(identity, lang)}">'


def render(record: Record, hands: list[HandReplay], report: Report, identity: str | None = None,
           lang: str = DEFAULT) -> str:
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
    title = GAME_TITLES.get(record.game, record.game)
    event_name = (record.event or {}).get("name") or (record.event or {}).get("event")
    env = _environment(lang)
    return env.get_template("replay.html.j2").render(
        mark=Markup(REPLAY_MARK), identity=_identity(identity, lang) if identity else None, title=title,
        event_name=event_name if isinstance(event_name, str) else None,
        game=record.game, players=record.players, sides=sides, event=_event_lines(record),
        rules=_rules_line(record, translations(lang).gettext), verdict=_said(_verdict(report), lang),
        status=report.status,
        note=report.note, game_problems=by_hand.get(None, ([], []))[0],
        first=views[0] if views else None,
        hands=hand_views, columns=columns, totals=totals)


__all__ = ["REPLAY_MARK", "edition", "identity_mark", "page", "page_with_report", "render"]

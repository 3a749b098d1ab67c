"""What goes on the tables: a pre-filled DGN file and a printable score sheet for each table.

``tournament sheets`` writes, for every table of a round, the DGN header of
its game — the game, the event's variant and rule options, the event's name,
round and table, the players in their seats with their event numbers as
``[Id "N=12"]`` (the ids :mod:`tournament.event.results` matches records by) and no
hands — ready to be continued by ``domrec record FILE`` or typed up by hand
(none for a table forfeited before it is played: no game is played there);
and one HTML page of paper score sheets, one sheet (one printed page) a table.

``tournament record`` opens the recorder on the same file (writing it first
when it is not there yet) and, once the game is over, enters it through the
ordinary result path.

Nothing here replaces a file it did not write: every file is written whole or
not at all by :mod:`domrec.output`'s rules (a temporary file renamed into place;
never over a link, a folder, a device or a database).  A game file is a record
(a game may have been recorded in it): an existing one is replaced only with
``force``.  The score-sheet page carries a generator mark, so an earlier page
is replaced without ``force``.
"""

from __future__ import annotations

import contextlib
import functools
import html
import random
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import attrs

from domrec import notation, output as outputs
from domrec.errors import DomrecError, InputError
from domrec.record import Player as RecordPlayer, Record

from tournament.errors import ResultRefused, UnusableInput
from tournament.i18n import N_, translations
from tournament.settings import PAIRS, Settings
from tournament.event.duplicate import board_ends
from tournament.event.players import shown_numbers
from tournament.event.tables import table_record
from tournament.pairing.boards import Board
from tournament.store.event_store import EventStore
from tournament.values import Player, Table

SHEETS_MARK = '<meta name="generator" content="domrec tournament sheets">'
#: The page of score sheets (an earlier one is replaced without --force).
SHEETS = outputs.Kind("a page written by tournament sheets", outputs.marked(SHEETS_MARK))
#: The same page when it carries the tables' links (a QR code a sheet): each link holds its table's key,
#: so the page is written readable by its owner alone (0600), as the event file and the PIN slips are
#: (docs/venue.md, "Who may do what"): another account of the laptop could record at any table.
SHEETS_WITH_KEYS = attrs.evolve(SHEETS, private=True)
#: A duplicate table's pre-filled game file of a board: it holds the board's deal, every seat's
#: tiles, which the tables still to play the board must not read, so it is written readable by its
#: owner alone (0600), as the board slips, the PIN slips and the sheets with keys are
#: (docs/duplicate.md, "Who may read the deals").
BOARD_RECORDS = attrs.evolve(outputs.RECORDS, private=True)


def game_file_kind(board: Board | None) -> outputs.Kind:
    """How a table's pre-filled game file is written: a board's (its deal) private, else a record's."""
    return outputs.RECORDS if board is None else BOARD_RECORDS

#: The ways a hand ends (a record's ``result.end``), as a sheet's "Ended" column names them.
HAND_ENDS = (N_("out"), N_("blocked"), N_("sudden-death"), N_("target"), N_("abandoned"))

#: Score-sheet rows: the longest of the simulated games, plus spare rows, within these bounds.
MIN_ROWS, MAX_ROWS, SPARE_ROWS, SIMULATED_GAMES = 8, 20, 2, 12


# --- names -------------------------------------------------------------------------------------


def default_folder(event: str | Path) -> Path:
    """The folder next to the event file where its tables' game files live: ``club.db`` ->
    ``club-games``."""
    path = Path(event)
    return path.with_name(f"{path.stem}-games")


def dgn_name(round_no: int, table_no: int) -> str:
    return f"round{round_no}-table{table_no}.dgn"


def board_dgn_name(round_no: int, table_no: int, board_no: int) -> str:
    """A duplicate table's file for one board (a table plays two to four a round)."""
    return f"round{round_no}-table{table_no}-board{board_no}.dgn"


def board_record(settings: Settings, table: Table, players: dict[int, Player], board: Board) -> Record:
    """A board's game for a duplicate table before its first move: the table's players in their
    seats, the board's number (``event.board``), and the board's hand with its deal, so that
    ``domrec record`` offers only the legal moves and ``tournament result EVENT FILE`` finds the
    round, table and board in it."""
    record = table_record(settings, table, players)
    return attrs.evolve(record, event={**(record.event or {}), "board": board.number}, hands=(board.hand(),))


def board_dgn(settings: Settings, table: Table, players: dict[int, Player], board: Board) -> str:
    """:func:`board_record` as DGN (``[Board N]``, the deal lines)."""
    try:
        return notation.dumps(board_record(settings, table, players, board))
    except InputError as e:
        raise UnusableInput(f"round {table.round} table {table.number} board {board.number} cannot be written as "
                            f"DGN: {e.message}") from None


def boards_played(store: EventStore, round_no: int) -> dict[int, tuple[Board, ...]]:
    """A duplicate event's round: each table (by id) -> the boards it plays, in its order (duplicate
    pairs: as the movement seats them; duplicate teams: the round's boards at every table).  Empty
    in any other event, whose tables play a whole game."""
    from tournament.event import duplicate, duplicate_teams
    from tournament.store import boards as boards_sql

    settings = store.settings
    if settings.team_duplicate:
        numbers = duplicate_teams.round_boards(store, round_no)
        plays = {t.id: numbers for t in store.tables(round_no)}
    elif settings.duplicate:
        plays = {r["table_id"]: tuple(r["boards"]) for r in boards_sql.board_tables(store, round_no)}
    else:
        return {}
    made = {b.number: b for b in duplicate.boards(store)}
    return {table_id: tuple(made[n] for n in numbers if n in made) for table_id, numbers in plays.items()}


def sheets_name(round_no: int, table_no: int | None = None) -> str:
    if table_no is not None:
        return f"round{round_no}-table{table_no}-score-sheet.html"
    return f"round{round_no}-score-sheets.html"


# --- the pre-filled record ------------------------------------------------------------------------


def table_dgn(settings: Settings, table: Table, players: dict[int, Player]) -> str:
    """The DGN text of :func:`table_record` (tags only)."""
    try:
        return notation.dumps(table_record(settings, table, players))
    except InputError as e:  # a seat label DGN cannot hold; the engines' seats never are
        raise UnusableInput(f"round {table.round} table {table.number} cannot be written as DGN: {e.message}") \
            from None


def find_table(store: EventStore, table_no: int, round_no: int | None = None) -> Table:
    if not store.last_round():
        raise UnusableInput("no round has been paired yet (use `tournament pair`)")
    rnd = round_no if round_no is not None else store.last_round()
    if not 1 <= rnd <= store.last_round():
        raise UnusableInput(f"round {rnd} has not been paired (the last round is {store.last_round()})")
    table = next((t for t in store.tables(rnd) if t.number == table_no), None)
    if table is None:
        numbers = [t.number for t in store.tables(rnd)]
        have = f"tables 1 to {max(numbers)}" if numbers else "no tables"
        raise UnusableInput(f"round {rnd} has no table {table_no} (it has {have})")
    return table


def check_file_is_table(settings: Settings, record: Record, table: Table, players: dict[int, Player],
                        source: str) -> None:
    """Refuse a game file that is not the game of ``table`` (another table's file given by mistake):
    the same game, rules, seats and players, and round and table, as a result is checked for."""
    from tournament.event.results import _check_table, record_seats

    mapped = record_seats(settings, record, players, source)
    _check_table(record, table, mapped, players, source)


# --- the paper score sheet --------------------------------------------------------------------


@attrs.frozen
class SheetShape:
    """How a score sheet of this event's game is laid out: how many hand rows, and the ways a
    hand can end (worth a column only when there are several): ``ends`` a hand of a game,
    ``board_ends`` a duplicate board's one hand (a game's first: Broadway's sudden death never
    comes in it)."""

    rows: int
    ends: tuple[str, ...]
    board_ends: tuple[str, ...] = ()


def first_hand_ends(settings: Settings) -> tuple[str, ...]:
    """The ways a game's first hand can end under the event's rules: what a sheet's "Ended" column
    must ask for the score to be entered as the table saw it (a Competitive block scores an even
    number; a Broadway side is charged its tiles only in a block; a Horse Race target one hand can
    reach ends the game at once).  The engine's answer, the same list the table's phone and the
    director's page offer and the server checks (:func:`tournament.event.duplicate.board_ends`)."""
    return board_ends(settings)


def sheet_shape(settings: Settings) -> SheetShape:
    """Rows for a typical game of the event's game under its rules, learnt the only generic way:
    by playing a few games (seeded, so the sheet is the same every time) with domrec's simulator
    at a full table; the longest of them, plus spare rows."""
    rules = attrs.evolve(settings, name="-", seed=0, bye={}, placement=(), tiebreaks=(), time_limit=None,
                         forfeit_score=0)
    return _shape(rules.to_json())


@functools.lru_cache(maxsize=16)
def _shape(rules_json: str) -> SheetShape:
    from domrec.simulate import play_game

    settings = Settings.from_json(rules_json)
    template = Record(game=settings.game, rules=settings.rules(),
                      players=tuple(RecordPlayer(seat=s, name=s) for s in settings.seats()))
    longest, ends = 0, Counter()
    try:
        for k in range(SIMULATED_GAMES):
            record = play_game(template, random.Random(f"tournament-sheets:{k}"))
            longest = max(longest, len(record.hands))
            ends.update(h.result.end for h in record.hands if h.result is not None and h.result.end)
    except Exception:  # the simulator cannot play these rules: a sheet still gets its rows
        longest = max(longest, 12)
    rows = min(MAX_ROWS, max(MIN_ROWS, longest + SPARE_ROWS))
    # Every way the engine lets a hand end is asked, not only those a dozen simulated games met (a
    # Broadway block is rare in them, yet it is what charges a side its tiles); then the ways only
    # a later hand has (Broadway's sudden death, a target reached).
    first = first_hand_ends(settings)
    later = tuple(end for end, _ in ends.most_common() if end not in first)
    return SheetShape(rows, first + later, first)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


_CSS = """
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif;margin:0;color:#000;background:#eee}
.sheet{background:#fff;max-width:190mm;margin:8mm auto;padding:10mm 12mm;border:1px solid #bbb}
h1{font-size:16pt;margin:0 0 1mm}
.where{font-size:14pt;font-weight:bold;margin:0 0 1mm}
.rules,.file{font-size:9pt;color:#333;margin:0 0 3mm}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #000;padding:1mm 2mm;text-align:left;vertical-align:middle}
.seats{margin-bottom:4mm}
.seats td.no{width:14mm;text-align:right}
.seats td.seat,.seats td.side{width:16mm}
.grid th{font-size:10pt;text-align:center}
.grid th small{display:block;font-weight:normal;font-size:8pt}
.grid td{height:7mm}
.grid td.hand{width:12mm;text-align:center}
.grid td.lead{width:14mm}
.grid td.end{width:24mm}
.grid tfoot th{height:10mm;text-align:right}
.grid th.run{background:#eee}.grid th.run small{font-size:7pt}
.grid td.run{background:#f2f2f2;border-left:1px dashed #000}
.called{display:flex;flex-wrap:wrap;align-items:flex-end;gap:3mm 8mm;margin:4mm 0 0;padding:2mm 3mm;
        border:1.5px solid #000;font-size:10pt}
.called .label{font-weight:bold}
.called .blank{display:inline-block;width:22mm;border-bottom:1px solid #000;height:6mm}
.called .blank.short{width:12mm}
@media print{.grid th.run,.grid td.run{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
.winner{margin:4mm 0 2mm;font-size:11pt}
.grid td.forfeit{font-style:italic;text-align:center}
.forfeited{margin:3mm 0 0;font-size:11pt;font-weight:bold}
.grid.forfeit{margin-top:2mm}
.grid.match-boards td{height:8mm}
.grid.match-boards td.pts{width:17mm}.grid.match-boards td.net{width:18mm}
.grid.match-boards td.imp{width:15mm}
.note{font-size:9pt;margin:2mm 0}
.scale{width:auto;margin-bottom:2mm}.scale th,.scale td{font-size:8pt;padding:0.5mm 1.2mm;text-align:center}
.change{margin:4mm 0;font-size:10pt}
.change ul{list-style:none;padding:0;margin:2mm 0}
.change li{margin:3mm 0}
.signatures{display:flex;flex-wrap:wrap;gap:6mm;margin-top:8mm}
.sig{flex:1 1 40%;min-width:50mm}
.sig .line{border-bottom:1px solid #000;height:12mm}
.sig .who{font-size:9pt;margin-top:1mm}
.codes{display:flex;flex-wrap:wrap;gap:4mm 8mm;margin-top:5mm}
.qr{display:flex;gap:4mm;align-items:center;font-size:9pt;flex:1 1 80mm}
.qr svg{width:32mm;height:32mm;flex:none}
.qr code{word-break:break-all}
@page{size:A4;margin:10mm}
@media print{
 body{background:#fff}
 .sheet{margin:0;border:none;max-width:none;padding:0;break-after:page;page-break-after:always;
        break-inside:avoid;page-break-inside:avoid}
 .sheet:last-child{break-after:auto;page-break-after:auto}
}
"""


def _rules_text(settings: Settings, lang: str = "en") -> str:
    _ = translations(lang).gettext
    from tournament.pages.words import game_name

    parts = [game_name(settings.game, lang)]
    if settings.variant:
        parts.append(_("variant %(variant)s") % {"variant": settings.variant})
    parts.extend(f"{k}={v}" for k, v in settings.options.items())
    if settings.time_limit is not None:  # a game the clock stops: the side ahead wins (docs/tournament.md)
        parts.append(_("time limit %(minutes)s minutes") % {"minutes": settings.time_limit})
    return ", ".join(parts)


def sheet_html(settings: Settings, table: Table, players: dict[int, Player], shape: SheetShape,
               team_names: dict[int, str] | None = None, match: str | None = None,
               dgn_file: str | None = None, link: str | None = None, public: str | None = None,
               lang: str = "en", boards: Sequence[Board] = (), numbers: dict[int, int] | None = None,
               forfeit: tuple[CaptainsForfeit, dict[str, str]] | None = None) -> str:
    """One table's sheet (a ``<section>``) in ``lang``: every name escaped; with ``link``, the table's
    page on the venue server as a QR code to scan, and written out for whoever cannot scan it; with
    ``public``, the event's public page (standings, results, where to sit next) likewise.  A
    duplicate table (``boards``: those it plays this round) scores a row a board, not a game.  A
    table forfeited before it is played (``forfeit``: the stored forfeit, and each side's team) says
    so, with each side's points as stored: no boxes, no game file, no table link to record at."""
    _ = translations(lang).gettext
    team_names = team_names or {}
    sides = table.sides()
    members = {side: [players[s.player] for s in table.seats if s.side == side] for side in sides}
    pair_of = {side: team_names.get(ms[0].team) if settings.format == PAIRS and ms and ms[0].team else None
               for side, ms in members.items()}
    where = _("Round %(round)s · Table %(table)s") % {"round": table.round, "table": table.number} + \
        (f" · {match}" if match else "")
    out = [f'<section class="sheet" id="table-{table.round}-{table.number}">',
           f"<h1>{_e(settings.name)}</h1>",
           f'<p class="where">{_e(where)}</p>',
           f'<p class="rules">{_e(_rules_text(settings, lang))}</p>',
           "<table class=\"seats\"><thead><tr>" + "".join(f"<th>{_e(h)}</th>" for h in (
               _("Seat"), _("Side"), _("No."), _("Player"))) + "</tr></thead><tbody>"]
    # One numbering (docs/tournament.md): in a pairs event a player goes by their pair's number, the
    # standings' and the public pages' ``no.``; the player's own is the event's inner bookkeeping.
    by_pair = settings.format == PAIRS
    for s in table.seats:
        p = players[s.player]
        no = numbers.get(p.id, p.id) if numbers is not None else p.team if by_pair and p.team is not None else p.id
        out.append(f'<tr><td class="seat">{_e(s.seat)}</td><td class="side">{_e(s.side)}</td>'
                   f'<td class="no">#{_e(no)}</td><td class="name">{_e(p.name)}</td></tr>')
    out.append("</tbody></table>")
    if forfeit is not None:  # not played: nothing to score or sign at the table (docs/tournament.md)
        lost, named = forfeit
        out.append(f'<p class="forfeited">{_e(forfeit_line(table.number, lost, named, _))}</p>')
        head = "".join(f"<th>{_e(h)}</th>" for h in (_("Side"), _("Team"), _("Points")))
        out.append(f'<table class="grid forfeit"><thead><tr>{head}</tr></thead><tbody>'
                   + "".join(f'<tr><td class="side">{_e(side)}</td><td>{_e(named.get(side, ""))}</td>'
                             f'<td class="end forfeit">{_e(lost.scores.get(side, 0))}</td></tr>' for side in sides)
                   + "</tbody></table>")
        out.extend(_codes(None, public, lang))
        out.append("</section>")
        return "\n".join(out)
    if boards:
        out.extend(_board_rows(settings, table, sides, members, pair_of, boards, shape, lang))
        out.extend(_signatures(sides, members, pair_of, lang))
        files = ", ".join(board_dgn_name(table.round, table.number, b.number) for b in boards)
        line = _("Board files: %(files)s") % {"files": files}
        out.append(f'<p class="file">{_e(line)}</p>')
        out.extend(_codes(link, public, lang))
        out.append("</section>")
        return "\n".join(out)
    with_end = len(shape.ends) > 1
    hand_word, lead_word, seat_word, ended_word = _("Hand"), _("Lead"), _("seat"), _("Ended")
    head = [f'<th>{_e(hand_word)}</th>', f'<th>{_e(lead_word)}<small>{_e(seat_word)}</small></th>']
    if with_end:
        ends = " / ".join(_(end) if end in HAND_ENDS else end for end in shape.ends)
        head.append(f'<th>{_e(ended_word)}<small>{_e(ends)}</small></th>')
    # Each side's points of the hand, then its running total: the scorer adds as the game goes, so
    # the target (or the side ahead when time is called) is read off the sheet, not summed at the end.
    running_word = _("running total")
    for side in sides:
        who = pair_of[side] or " & ".join(p.name for p in members[side])
        small = f"<small>{_e(who)}</small>" if who != side else ""
        head.append(f'<th>{_e(side)}{small}</th><th class="run">{_e(running_word)}<small>{_e(side)}</small></th>')
    out.append(f'<table class="grid"><thead><tr>{"".join(head)}</tr></thead><tbody>')
    blanks = "".join('<td></td><td class="run"></td>' for _ in sides)
    end_cell = '<td class="end"></td>' if with_end else ""
    for n in range(1, shape.rows + 1):
        out.append(f'<tr><td class="hand">{n}</td><td class="lead"></td>{end_cell}{blanks}</tr>')
    span = 3 if with_end else 2
    total_word, winner_word = _("Total"), _("Winner:")
    totals = "".join('<td colspan="2"></td>' for _ in sides)
    out.append(f'</tbody><tfoot><tr><th colspan="{span}">{_e(total_word)}</th>{totals}</tr></tfoot></table>')
    # The time a director called time, and the hand then in play: what decides a game the clock
    # stopped (the side ahead wins, docs/tournament.md), written down where both sides sign.
    called, at, during = _("Time called"), _("at (hh:mm)"), _("during hand")
    out.append(f'<div class="called"><span class="label">{_e(called)}</span>'
               f'<span class="field">{_e(at)} <span class="blank"></span></span>'
               f'<span class="field">{_e(during)} <span class="blank short"></span></span></div>')
    out.append(f'<p class="winner">{_e(winner_word)} ______________________</p>')
    out.extend(_signatures(sides, members, pair_of, lang))
    if dgn_file:
        line = _("Game file: %(file)s") % {"file": dgn_file}
        out.append(f'<p class="file">{_e(line)}</p>')
    out.extend(_codes(link, public, lang))
    out.append("</section>")
    return "\n".join(out)


def _board_rows(settings: Settings, table: Table, sides: Sequence[str], members: dict[str, list[Player]],
                pair_of: dict[str, str | None], boards: Sequence[Board], shape: SheetShape, lang: str) -> list[str]:
    """A duplicate table's grid: a row a board it plays, in its order, with the board's leader
    printed (the board fixes it) and each side's points on that board; no totals, for each board
    is scored against the other tables that play it, not added up at the table."""
    _ = translations(lang).gettext
    with_end = len(shape.board_ends) > 1  # a board is one hand: the ways a first hand can end
    head = [f'<th>{_e(_("Board"))}</th>', f'<th>{_e(_("Lead"))}<small>{_e(_("seat"))}</small></th>']
    if with_end:
        ends = " / ".join(_(end) if end in HAND_ENDS else end for end in shape.board_ends)
        head.append(f'<th>{_e(_("Ended"))}<small>{_e(ends)}</small></th>')
    for side in sides:
        who = pair_of[side] or " & ".join(p.name for p in members[side])
        head.append(f'<th>{_e(side)}<small>{_e(who)}</small></th>' if who != side else f"<th>{_e(side)}</th>")
    out = [f'<table class="grid boards"><thead><tr>{"".join(head)}</tr></thead><tbody>']
    end_cell = '<td class="end"></td>' if with_end else ""
    for board in boards:
        out.append(f'<tr><td class="hand">{board.number}</td><td class="lead">{_e(board.leader)}</td>{end_cell}'
                   + "".join("<td></td>" for _side in sides) + "</tr>")
    out.append("</tbody></table>")
    return out


def _signatures(sides: Sequence[str], members: dict[str, list[Player]], pair_of: dict[str, str | None],
                lang: str) -> list[str]:
    _ = translations(lang).gettext
    out = ['<div class="signatures">']
    for side in sides:
        who = ", ".join(p.name for p in members[side])
        label = f"{side} — {pair_of[side]} ({who})" if pair_of[side] else f"{side} — {who}"
        signature = _("Signature %(who)s") % {"who": label}
        out.append(f'<div class="sig"><div class="line"></div><div class="who">{_e(signature)}</div></div>')
    out.append("</div>")
    return out


def _codes(link: str | None, public: str | None, lang: str) -> list[str]:
    """The table's page and the public page as QR codes, each written out beside its code."""
    if not (link or public):
        return []
    _ = translations(lang).gettext
    out = ['<div class="codes">']
    if link:
        title = _("QR code of this table's page")
        scan = _("Record this table on a phone: scan the code, or open")
        out.append(f'<div class="qr">{qr_svg(link, title)}<p>{_e(scan)}<br><code>{_e(link)}</code></p></div>')
    if public:
        title = _("QR code of the event's public page")
        scan = _("The standings, every result and where you sit next: scan the code, or open")
        out.append(f'<div class="qr public">{_public_qr(public, title)}<p>{_e(scan)}<br>'
                   f'<code>{_e(public)}</code></p></div>')
    out.append("</div>")
    return out


@attrs.frozen
class CaptainsChange:
    """A captain's one change in a set, as their sheet records it: the team, ``cross`` (the draw
    cross) or ``sub`` (``out`` and ``into``, players' names), and the games played before it."""

    team: str
    kind: str
    after: int | None
    out: str | None = None
    into: str | None = None


@attrs.frozen
class CaptainsForfeit:
    """A match's table lost by forfeit before it is played (its team a pair short, the forfeit the
    pairing stored; or one entered by hand): the sides that did not play, each side's points, the
    side that won the game."""

    absent: tuple[str, ...]
    scores: dict[str, int]
    winner: str | None


@attrs.frozen
class CaptainsMatch:
    """A team match as its captain's sheet lists it: the two teams (home first) and its tables;
    a set (``target``: its game points) also the captains' changes made so far."""

    home: str
    away: str
    tables: tuple[Table, ...]
    #: Each table's side -> the team sitting there (``home`` or ``away``'s name).
    sides: tuple[dict[str, str], ...]
    target: int | None = None
    changes: tuple[CaptainsChange, ...] = ()
    #: Each table's forfeit, stored before it is played (a team a pair short: the pairing stores it), or None.
    forfeits: tuple[CaptainsForfeit | None, ...] = ()
    #: Duplicate teams: the round's boards, which both tables play (the match is scored on them in IMPs).
    boards: tuple[int, ...] = ()


def team_matches(store: EventStore, tables: Sequence[Table]) -> list[CaptainsMatch]:
    """The matches of a team event's round, in table order (none in another event)."""
    if not store.settings.teams:
        return []
    from tournament.event.teams import squads
    from tournament.pairing import teams as pairing

    found = squads(store)
    names = {s.id: s.name for s in found}
    squad_of = pairing.squad_of_players(found, store.teams())
    by_no = {t.number: t for t in tables}
    target = store.settings.team_set
    made = _captains_changes(store, tables[0].round, names) if target and tables else {}
    results = store.results()
    boards: tuple[int, ...] = ()
    if store.settings.team_duplicate and tables:  # every table of the round plays the round's boards
        from tournament.event.duplicate_teams import round_boards

        boards = tuple(round_boards(store, tables[0].round))
    out = []
    for m in pairing.round_matches(tables, {}, squad_of):
        mine = tuple(by_no[n] for n in m.tables)
        out.append(CaptainsMatch(names[m.home], names[m.away], mine,
                                 tuple({side: names[team] for side, team in pairing.table_sides(t, squad_of).items()}
                                       for t in mine), target,
                                 tuple(made[n] for n in (names[m.home], names[m.away]) if n in made),
                                 tuple(_forfeit(results.get(t.id)) for t in mine), boards))
    return out


def _forfeit(result: Any) -> CaptainsForfeit | None:
    """A table's forfeit by a side, as its captain's sheet fills it in; None for any other table."""
    if result is None or result.kind != "forfeit" or not result.absent:
        return None
    return CaptainsForfeit(tuple(result.absent), dict(result.scores), result.winner)


def _captains_changes(store: EventStore, round_no: int, names: dict[int, str]) -> dict[str, CaptainsChange]:
    """Team name -> the change its captain made in the round's set (the change log's
    ``captain_change``: a team makes one a match, and plays one match a round)."""
    from tournament.event import changes

    out = {}
    for data in changes.in_round(store, changes.CAPTAIN_CHANGE, round_no):
        team = names.get(data.get("team"))
        if team is None or data.get("kind") not in ("cross", "sub"):
            continue
        after = data.get("after")
        out[team] = CaptainsChange(team, data["kind"], after if isinstance(after, int) else None,
                                   (data.get("out") or {}).get("name"), (data.get("in") or {}).get("name"))
    return out


def captains_sheet_html(settings: Settings, match: CaptainsMatch, players: dict[int, Player],
                        team_names: dict[int, str], lang: str = "en") -> str:
    """A match's captain's sheet (a ``<section>``): each of its tables with each team's pair there,
    a box for each team's score and games won at each table, the match's totals, and a signature
    for each captain: what the captains sign once all the match's tables are in.  A table forfeited
    before it is played (a team a pair short: the pairing stores the forfeit) has no boxes: its
    points and game are filled in as stored, and a line under the grid says it is forfeited.  A
    duplicate-teams match (``match.boards``) is scored on its boards instead, as a bridge team
    match's scorecard is (:func:`_duplicate_match_html`)."""
    _ = translations(lang).gettext
    first, last = match.tables[0].number, match.tables[-1].number
    where = _("Round %(round)s · Tables %(first)s-%(last)s") % {"round": match.tables[0].round, "first": first,
                                                                  "last": last}
    heading = _("Captain's sheet: %(home)s against %(away)s") % {"home": match.home, "away": match.away}
    out = [f'<section class="sheet captains" id="match-{match.tables[0].round}-{first}">',
           f"<h1>{_e(settings.name)}</h1>", f'<p class="where">{_e(where)}</p>', f"<p><b>{_e(heading)}</b></p>"]
    if match.boards:  # duplicate teams: scored board by board in IMPs, not in games (docs/duplicate.md)
        out.extend(_duplicate_match_html(settings, match, players, team_names, lang))
    else:
        out.extend(_games_match_html(match, players, team_names, _))
        if match.target:
            out.append(_captains_changes_html(settings, match, _))
    winner_word = _("Winner of the match:")
    out.append(f'<p class="winner">{_e(winner_word)} ______________________</p>')
    out.append('<div class="signatures">')
    for team in (match.home, match.away):
        signature = _("Signature of the captain of %(team)s") % {"team": team}
        out.append(f'<div class="sig"><div class="line"></div><div class="who">{_e(signature)}</div></div>')
    out.append("</div></section>")
    return "\n".join(out)


def _pair_text(table: Table, side: str, players: dict[int, Player], team_names: dict[int, str]) -> str:
    """The pair at ``side`` of ``table`` as a captain's sheet names it: its name and its players (its
    name alone where it is its players' names, as a pair entered without a name of its own is named)."""
    who = [players[x.player] for x in table.seats if x.side == side]
    pair = team_names.get(who[0].team) if who and who[0].team else None
    names = " & ".join(p.name for p in who)
    return f"{pair} ({names})" if pair and pair != names else names


def forfeit_line(table_no: int, forfeit: CaptainsForfeit, sides: dict[str, str], _: Any) -> str:
    """A table forfeited before it is played, as its sheet and its match's captain's sheet say it:
    ``Table 3: forfeited by Team 2, not played (Team 1 wins the game by the forfeit score)``."""
    words = {"table": table_no, "team": ", ".join(sides[x] for x in forfeit.absent if x in sides),
             "winner": sides.get(forfeit.winner or "", "")}
    if words["winner"]:
        return _("Table %(table)s: forfeited by %(team)s, not played (%(winner)s wins the game by the "
                 "forfeit score)") % words
    return _("Table %(table)s: forfeited by %(team)s, not played") % words


def _games_match_html(match: CaptainsMatch, players: dict[int, Player], team_names: dict[int, str],
                      _: Any) -> list[str]:
    """A team match of games: a row a team at each table, with boxes for its points and games won
    there (a table forfeited before it is played: filled in as stored, and a line under the grid
    says so), and each team's totals."""
    out = []
    team_word, score_word, games_word = _("Team"), _("Points"), _("Games won")
    head = "".join(f"<th>{_e(h)}</th>" for h in (_("Table"), team_word, _("Side"), _("Pair"), score_word, games_word))
    out.append(f'<table class="grid match"><thead><tr>{head}</tr></thead><tbody>')
    lost: list[str] = []  # a line a table forfeited before it is played: no boxes to fill there
    for i, (table, sides) in enumerate(zip(match.tables, match.sides)):
        forfeit = match.forfeits[i] if i < len(match.forfeits) else None
        for team in (match.home, match.away):
            side = next(x for x, name in sides.items() if name == team)
            # A forfeited table is not played: its points and game filled in as stored, not boxes to fill.
            boxes = ('<td class="end"></td><td class="end"></td>' if forfeit is None else
                     f'<td class="end forfeit">{forfeit.scores.get(side, 0)}</td>'
                     f'<td class="end forfeit">{1 if forfeit.winner == side else 0}</td>')
            row = "<tr>" if forfeit is None else '<tr class="forfeit">'
            out.append(f'{row}<td class="hand">{table.number}</td><td>{_e(team)}</td><td>{_e(side)}</td>'
                       f'<td>{_e(_pair_text(table, side, players, team_names))}</td>{boxes}</tr>')
        if forfeit is not None:
            lost.append(forfeit_line(table.number, forfeit, sides, _))
    out.append("</tbody><tfoot>")
    for team in (match.home, match.away):
        total = _("Total %(team)s") % {"team": team}
        out.append(f'<tr><th colspan="4">{_e(total)}</th><td></td><td></td></tr>')
    out.append("</tfoot></table>")
    out += [f'<p class="forfeited">{_e(line)}</p>' for line in lost]
    return out


def _number(value: Any) -> str:
    """A point threshold as a sheet prints it: 5, 12.5, 1,000."""
    whole = value.denominator == 1 if hasattr(value, "denominator") else float(value).is_integer()
    return f"{int(value):,}" if whole else f"{float(value):,.1f}"


def _duplicate_match_html(settings: Settings, match: CaptainsMatch, players: dict[int, Player],
                          team_names: dict[int, str], lang: str) -> list[str]:
    """A duplicate-teams match as a bridge team match's scorecard (docs/duplicate.md, "Duplicate
    teams"): who sits where at its two tables; then a row a board of the round, the hall's match
    page's columns as boxes to fill in: each side's points at each table (as the board's score is
    entered, NS and EW), the home team's net and the IMPs it gives the one team or the other; the
    IMPs' totals (and each team's victory points where the event gives them); how the net is counted,
    and the game's IMP scale.  No games, no games won: the match is won on IMPs."""
    from tournament.pairing import matchpoints as mp
    from tournament.pages.words import game_name

    _ = translations(lang).gettext
    out = []
    head = "".join(f"<th>{_e(h)}</th>" for h in (_("Table"), _("Side"), _("Team"), _("Pair")))
    out.append(f'<table class="seats match"><thead><tr>{head}</tr></thead><tbody>')
    for table, sides in zip(match.tables, match.sides):
        for side in table.sides():
            out.append(f'<tr><td class="no">{table.number}</td><td class="side">{_e(side)}</td>'
                       f'<td>{_e(sides.get(side, ""))}</td>'
                       f'<td>{_e(_pair_text(table, side, players, team_names))}</td></tr>')
    out.append("</tbody></table>")
    # The home team's pair sits NS at the first table, EW at the second (docs/duplicate.md).
    first = next((t for t, sides in zip(match.tables, match.sides) if sides.get("NS") == match.home),
                 match.tables[0])
    second = next((t for t in match.tables if t is not first), first)
    head_top = [f'<th rowspan="2">{_e(_("Board"))}</th>']
    head_low = []
    for table, sides in zip(match.tables, match.sides):
        head_top.append(f'<th colspan="{len(table.sides())}">{_e(_("Table %(n)s") % {"n": table.number})}</th>')
        head_low += [f'<th>{_e(side)}<small>{_e(sides.get(side, ""))}</small></th>' for side in table.sides()]
    head_top.append(f'<th rowspan="2">{_e(_("net"))}<small>{_e(match.home)}</small></th>')
    head_top.append(f'<th colspan="2">{_e(_("IMPs"))}</th>')
    head_low += [f'<th>{_e(team)}</th>' for team in (match.home, match.away)]
    points = sum(len(t.sides()) for t in match.tables)
    out.append(f'<table class="grid match-boards"><thead><tr>{"".join(head_top)}</tr><tr>{"".join(head_low)}</tr>'
               "</thead><tbody>")
    for board in match.boards:
        out.append(f'<tr><td class="hand">{board}</td>' + '<td class="pts"></td>' * points
                   + '<td class="net"></td><td class="imp"></td><td class="imp"></td></tr>')
    out.append("</tbody><tfoot>")
    totals = [_("IMPs")] + ([_("VP")] if settings.victory_points else [])
    for label in totals:
        out.append(f'<tr><th colspan="{points + 2}">{_e(label)}</th><td></td><td></td></tr>')
    out.append("</tfoot></table>")
    words = {"home": match.home, "away": match.away, "first": first.number, "second": second.number}
    how = _("The net of %(home)s on a board: NS points minus EW points at table %(first)s, plus EW points minus "
            "NS points at table %(second)s. A net for %(home)s gives it the IMPs of the scale below, a net against "
            "it gives them to %(away)s; the team with more IMPs wins the match. A board not played at one of the two "
            "tables is not scored in the match: write \"not played\" in its row, and no net, no IMPs.") % words
    out.append(f'<p class="note">{_e(how)}</p>')
    step = mp.IMP_STEP.get(settings.game)
    if step:
        scale = mp.imp_scale(step)
        title = _("The IMP scale (%(game)s): a net of at least these points is worth these IMPs") % {
            "game": game_name(settings.game, lang)}
        out.append(f'<p class="note"><b>{_e(title)}</b></p><table class="scale">')
        for start in range(0, len(scale), 12):
            part = scale[start:start + 12]
            out.append(f'<tr><th>{_e(_("net"))}</th>' + "".join(f"<td>{_number(v)}</td>" for v, _k in part) + "</tr>")
            out.append(f'<tr><th>{_e(_("IMPs"))}</th>' + "".join(f"<td>{k}</td>" for _v, k in part) + "</tr>")
        out.append("</table>")
    return out


def _captains_changes_html(settings: Settings, match: CaptainsMatch, _: Any) -> str:
    """A set's captains' changes on its sheet: the set's target, then a line a team, the change
    its captain made (which, and after which game) as the event recorded it, or, not made yet,
    boxes to mark and fill in by hand (a substitution: who leaves, who comes in; the draw cross,
    where the team has two pairs; after which game)."""
    from tournament.settings import SET_CHANGE_AFTER

    made = {c.team: c for c in match.changes}
    rule = _("Set to %(target)s game points: the first team to reach them wins the match. Each captain may "
             "make one change, after %(games)s games or more and between games.") % {
        "target": match.target, "games": SET_CHANGE_AFTER}
    title = _("Captain's change")
    out = [f'<div class="change"><p><b>{_e(title)}</b></p><p>{_e(rule)}</p><ul>']
    for team in (match.home, match.away):
        change = made.get(team)
        if change is None:
            boxes = [_("☐ substitution: out ____________ in ____________")]
            if settings.pairs_a_team == 2:
                boxes.append(_("☐ draw cross"))
            text = _("%(team)s: %(boxes)s — after game ____") % {"team": team, "boxes": "  ".join(boxes)}
        elif change.kind == "cross":
            text = (_("%(team)s: draw cross after game %(game)s") % {"team": team, "game": change.after}
                    if change.after is not None else _("%(team)s: draw cross") % {"team": team})
        else:
            words = {"team": team, "out": change.out or "?", "in": change.into or "?", "game": change.after}
            text = (_("%(team)s: substitution after game %(game)s: %(out)s out, %(in)s in") % words
                    if change.after is not None else _("%(team)s: substitution: %(out)s out, %(in)s in") % words)
        out.append(f'<li class="{"made" if change else "blank"}">{_e(text)}</li>')
    out.append("</ul></div>")
    return "".join(out)


def qr_svg(text: str, title: str = "QR code of this table's page") -> str:
    """``text`` as a QR code, inline SVG (segno: made here, nothing fetched)."""
    import segno

    return segno.make(text, error="m").svg_inline(scale=3, title=title)


def qr_data_uri(text: str) -> str:
    """``text`` as a QR code, an SVG picture in a ``data:`` address (for an ``<img>``: a page's
    script shows it without ever taking markup from the server)."""
    import segno

    return segno.make(text, error="m").svg_data_uri(scale=4)


@functools.lru_cache(maxsize=4)
def _public_qr(url: str, title: str) -> str:
    """The public page's code: the same on every sheet, so made once."""
    return qr_svg(url, title)


def sheets_page(settings: Settings, tables: Sequence[Table], players: dict[int, Player],
                team_names: dict[int, str] | None = None, matches: dict[int, str] | None = None,
                shape: SheetShape | None = None, links: dict[int, str] | None = None,
                public: str | None = None, lang: str | None = None,
                captains: Sequence[CaptainsMatch] = (), boards: dict[int, tuple[Board, ...]] | None = None,
                numbers: dict[int, int] | None = None,
                forfeits: dict[int, tuple[CaptainsForfeit, dict[str, str]]] | None = None) -> str:
    """The printable page in ``lang`` (default: the event's language): one sheet a table, a page
    break after each when printed, then a team event's captain's sheet a match; with ``links`` (table id -> its venue page), each sheet
    carries its table's QR code; with ``public`` (the venue's public page), the public page's
    code too.  ``forfeits`` (table id -> its forfeit stored before it is played, and each side's
    team; default: the ``captains``' forfeited tables): those tables' sheets say they are forfeited."""
    lang = lang or settings.lang
    _ = translations(lang).gettext
    shape = shape or sheet_shape(settings)
    matches = matches or {}
    links = links or {}
    round_no = tables[0].round if tables else 0
    boards = boards or {}
    if forfeits is None:
        forfeits = forfeited_tables(captains)
    body = [sheet_html(settings, t, players, shape, team_names, matches.get(t.id), dgn_name(t.round, t.number),
                       links.get(t.id), public, lang, boards.get(t.id, ()), numbers, forfeits.get(t.id))
            for t in tables]
    body += [captains_sheet_html(settings, m, players, team_names or {}, lang) for m in captains]
    title = _("%(event)s — round %(round)s score sheets") % {"event": settings.name, "round": round_no}
    return (f"<!DOCTYPE html>\n<html lang=\"{_e(lang)}\"><head><meta charset=\"utf-8\">\n"
            "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\n"
            f"{SHEETS_MARK}\n"
            f"<title>{_e(title)}</title>\n<style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def forfeited_tables(captains: Sequence[CaptainsMatch]) -> dict[int, tuple[CaptainsForfeit, dict[str, str]]]:
    """Table id -> its forfeit stored before it is played (a team a pair short), with each of its
    sides' team, for the matches ``captains``: the tables that get no game file and no boxes."""
    return {t.id: (lost, sides) for m in captains for t, sides, lost in zip(m.tables, m.sides, m.forfeits)
            if lost is not None}


def _match_label(key: str, game: int, lang: str) -> str:
    return translations(lang).gettext("match %(key)s, game %(game)s") % {"key": key, "game": game}


def _match_labels(store: EventStore, round_no: int, lang: str | None = None) -> dict[int, str]:
    """Table id -> "match W2-1, game 2" for the tables of a knockout or round-robin stage."""
    if not store.has_stage_tables():
        return {}
    out = {}
    for stage in store.stages():
        for row in store.match_tables(stage["id"]):
            if row["round"] == round_no:
                out[row["table_id"]] = _match_label(row["key"], row["game"], lang or store.settings.lang)
    return out


# --- writing ------------------------------------------------------------------------------------


@attrs.frozen
class Written:
    round: int
    folder: Path
    files: tuple[Path, ...]


def write_file(path: Path, text: str, force: bool = False, kind: outputs.Kind = outputs.RECORDS) -> None:
    """``text`` into ``path``, whole or not at all; an existing game file only with ``force``."""
    try:
        outputs.write_text(path, text, kind, force)
    except outputs.OutputError as e:
        raise UnusableInput(e.message) from None


def prepare_folder(folder: Path) -> bool:
    """The folder a command writes in, made if missing (its parent must be there); whether this
    call made it, so that the command takes it away again if it writes nothing there (:func:`unmade`)."""
    if folder.exists() and not folder.is_dir():
        raise UnusableInput(f"{folder} is a file, not a folder")
    if not folder.exists():
        if not folder.parent.is_dir():
            raise UnusableInput(f"cannot make {folder}: folder {folder.parent} does not exist")
        try:
            folder.mkdir()
        except FileExistsError:
            return False  # (another program made it meanwhile: not ours to take away)
        except OSError as e:
            raise UnusableInput(f"cannot make {folder}: {e.strerror}") from None
        return True
    return False


@contextlib.contextmanager
def folder_for(folder: Path) -> Iterator[None]:
    """The block writes in ``folder``, made for it if missing (:func:`prepare_folder`); if the block
    fails or is stopped (Ctrl-C) a folder it made and left empty is taken away again, so that a
    report or export that wrote nothing leaves nothing behind (a folder that was there stays)."""
    made = prepare_folder(folder)
    try:
        yield
    except BaseException:
        unmade(folder, made)
        raise


def write_sheets(store: EventStore, folder: str | Path, round_no: int | None = None,
                 force: bool = False, table_no: int | None = None, url: str | None = None,
                 lang: str | None = None, written: Callable[[], None] | None = None) -> Written:
    """Every table of the round (default: the last round paired), or the one table ``table_no``
    (a knockout game seated after the others): its pre-filled ``.dgn`` and its sheet in one HTML
    page.  An existing file is refused (nothing is written) unless ``force``.  With ``url`` (the
    venue server's address), each sheet carries its table's link as a QR code (the tables' keys
    are made where missing, as ``tournament links`` makes them).  ``lang``: the sheets' language
    (default: the event's).  A table forfeited before it is played (a team a pair short: the
    pairing stores the forfeit) gets no ``.dgn``, for no game is played there: its sheet says it
    is forfeited.  The files are written as one (:class:`domrec.output.Together`): all of them, or
    none and a folder made for them taken away again; ``written()`` is called once they are in
    place (what a Ctrl-C then says)."""
    if table_no is not None:
        tables = [find_table(store, table_no, round_no)]
        rnd = tables[0].round
    else:
        last = store.last_round()
        if not last:
            raise UnusableInput("no round has been paired yet (use `tournament pair`)")
        rnd = round_no if round_no is not None else last
        if not 1 <= rnd <= last:
            raise UnusableInput(f"round {rnd} has not been paired (the last round is {last})")
        tables = store.tables(rnd)
        if not tables:
            raise UnusableInput(f"round {rnd} has no tables")
    players = {p.id: p for p in store.players()}
    team_names = {t.id: t.name for t in store.teams()}
    folder = Path(folder)
    plays = boards_played(store, rnd)  # a duplicate table: a file a board, with the board's deal
    captains = team_matches(store, tables if table_no is None else store.tables(rnd))
    lost = forfeited_tables(captains)  # forfeited before it is played: no game to record, no file
    texts: list[tuple[Path, str]] = []
    kinds: list[outputs.Kind] = []
    for t in tables:
        if t.id in lost:
            continue
        if plays.get(t.id):
            texts.extend((folder / board_dgn_name(rnd, t.number, b.number), board_dgn(store.settings, t, players, b))
                         for b in plays[t.id])
            kinds.extend(game_file_kind(b) for b in plays[t.id])  # (a board's deal: its owner's alone)
        else:
            texts.append((folder / dgn_name(rnd, t.number), table_dgn(store.settings, t, players)))
            kinds.append(game_file_kind(None))
    table_links = public = None
    if url is not None:
        from tournament.event.venue import links

        found = links(store, url, rnd)
        table_links = {t.id: x["url"] for t in tables for x in found["tables"] if x["table"] == t.number}
        public = found["public"]
    page = sheets_page(store.settings, tables, players, team_names, _match_labels(store, rnd, lang), links=table_links,
                       public=public, lang=lang, captains=captains if table_no is None else (),
                       boards=plays, numbers=shown_numbers(store), forfeits=lost)
    kinds.append(SHEETS if table_links is None else SHEETS_WITH_KEYS)
    texts.append((folder / sheets_name(rnd, table_no), page))
    if folder.is_dir():
        existing = []
        for (path, _), kind in zip(texts, kinds):
            try:
                outputs.check(path, kind, force)
            except outputs.NeedsForce:
                existing.append(path)
            except outputs.OutputError as e:
                raise UnusableInput(f"{e.message}; nothing was written") from None
        if existing:
            more = f" (and {len(existing) - 1} more of the files to write)" if len(existing) > 1 else ""
            raise UnusableInput(f"{existing[0]} already exists{more}: not replaced; nothing was written "
                                f"(--force replaces them, and any game recorded in them)")
    made = prepare_folder(folder)
    written_together(folder, made, [(path, text, kind) for (path, text), kind in zip(texts, kinds)], force, written)
    return Written(rnd, folder, tuple(path for path, _ in texts))


def written_together(folder: Path, made: bool, files: list, force: bool, then) -> None:
    """``files`` ((path, text, kind) each) written in ``folder`` as one (:class:`domrec.output.Together`):
    all of them, or none and the folder as it was (taken away again if this command ``made`` it);
    ``then`` once they are in place."""
    try:
        with outputs.Together() as batch:
            for path, text, kind in files:
                batch.file(path, text, kind, force)
            batch.commit(then=then)
    except outputs.OutputError as e:
        unmade(folder, made)
        raise UnusableInput(e.message) from None
    except BaseException:
        unmade(folder, made)
        raise


def unmade(folder: Path, made: bool) -> None:
    """The folder a command made (``made``) taken away again when nothing was written in it (a
    failure or Ctrl-C before its files were moved in); a folder not empty is left as it is."""
    if made:
        try:
            folder.rmdir()
        except OSError:
            pass


def existing_record(path: Path) -> Record:
    """The game already in ``path`` (to continue it or to enter it)."""
    from domrec.recorder import RecorderError, read_record

    try:
        return read_record(path)
    except RecorderError as e:
        raise UnusableInput(str(e)) from None
    except DomrecError as e:
        raise UnusableInput(f"{path}: {getattr(e, 'message', e)}") from None


def is_finished(record: Record) -> bool:
    from domrec.validate import validate

    return validate(record).finished


def board_to_record(store: EventStore, table: Table, plays: Sequence[Board], number: int | None,
                    replace: bool) -> Board:
    """The board a duplicate table records at the desk: ``number``, or else the first it plays with
    no result yet (as its phone would); a board with its result in only with ``replace``."""
    from tournament.store import boards as boards_sql

    where = f"table {table.number} of round {table.round}"
    numbers = ", ".join(str(b.number) for b in plays)
    if number is not None:
        board = next((b for b in plays if b.number == number), None)
        if board is None:
            raise UnusableInput(f"{where} plays board{'s' if len(plays) > 1 else ''} {numbers}, not board {number}")
        if boards_sql.result(store, table.id, number) is not None and not replace:
            raise ResultRefused(f"board {number} at {where} has its result already; give --replace to record it "
                                f"again (the result it replaces is kept)")
        return board
    left = next((b for b in plays if boards_sql.result(store, table.id, b.number) is None), None)
    if left is None:
        raise ResultRefused(f"{where} has the results of its boards {numbers}: give --board B --replace to record "
                            f"one again")
    return left


def board_finished(record: Record) -> bool:
    """A board's game is its one hand: finished once that hand is closed, by its result (an ``end``
    line) or by its play being over (:func:`tournament.pairing.boards.closed_hand`)."""
    from tournament.pairing import boards as bd

    return bd.closed_hand(record) is not None


def refuse_if_decided(store: EventStore, table: Table, replace: bool) -> None:
    """A table that has its result is not recorded again, unless the result is to be replaced."""
    existing = store.result_for(table.id)
    if existing is not None and not replace:
        scores = ", ".join(f"{k} {v}" for k, v in table.in_seat_order(existing.scores))
        raise ResultRefused(f"round {table.round} table {table.number} already has a result ({scores}); "
                            f"give --replace to record a new game for it")


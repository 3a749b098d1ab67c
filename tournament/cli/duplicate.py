"""A duplicate event's commands: ``boards``, and what ``tables``, ``result`` and ``standings`` print for
one (docs/duplicate.md).  Thin over :mod:`tournament.event.duplicate`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from tournament.cli.app import EXIT_OK, EXIT_UNUSABLE, MAX_COUNT, SEED_MAX, SEED_MIN, emit, fail, guarded, \
    open_for_command, refuse_unreadable, say_error, whole_scores
from tournament.errors import TournamentError, UnusableInput
from tournament.event import duplicate as dup, results as res
from tournament.pairing.boards import Board, boards_json
from tournament.store.event_store import EventStore


#: A movement's style as the tables' footer says it: a Mitchell's "odd" is its odd number of tables
#: (no relay or skip needed), not an odd number of pairs (a sit-out, said pair by pair).
STYLE_WORDS = {"odd": "odd number of tables"}


@guarded
def boards(
    event: Path = typer.Argument(..., help="The event file (a duplicate event)."),
    count: Optional[int] = typer.Option(None, "--boards", min=1, max=1000, help="Deal this many boards."),
    seed: Optional[int] = typer.Option(None, "--seed", min=SEED_MIN, max=SEED_MAX,
                                       help="With --boards: the same seed deals the same boards on any machine "
                                            "(default: a fresh unpredictable seed, said and kept)."),
    from_file: Optional[Path] = typer.Option(None, "--from", help="Read the boards from a file of deals (DGN "
                                                                  "deal lines, JSON records, or boards' JSON)."),
    as_json: bool = typer.Option(False, "--json", help="Print the boards as JSON."),
    slips: bool = typer.Option(False, "--slips", help="Write the printable board slips (A4, a board a table "
                                                      "of each round seated; a board a page before round 1)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="--slips: the HTML file (- for stdout)."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="--slips: only this round's tables."),
    lang: Optional[str] = typer.Option(None, "--lang", help="--slips: en or es (default: the event's)."),
    force: bool = typer.Option(False, "--force", help="--slips: replace a file that is not earlier slips."),
    replace: bool = typer.Option(False, "--replace", help="With --boards or --from: store these boards in place "
                                                          "of the event's (before round 1 is seated)."),
) -> None:
    """A duplicate event's boards: deal them (--boards N --seed S) or read them (--from FILE) before round 1
    is seated, or print them."""
    from domrec import reader

    if count is not None and from_file is not None:
        raise UnusableInput("give --boards N (to deal them) or --from FILE (to read them), not both")
    if count is None and (seed is not None or (replace and from_file is None)):
        raise UnusableInput("--seed goes with --boards N, --replace with --boards N or --from FILE")
    with open_for_command(event) as store:
        dup.check_boards_event(store, "tournament boards")
        if count is not None:
            seed = dup.fresh_seed() if seed is None else seed
            made = dup.deal(store, count, seed, replace)
        elif from_file is not None:
            try:
                data = reader.read_bytes(from_file)
            except OSError as e:
                raise UnusableInput(reader.unreadable(from_file, e, "a file of deals")) from None
            made = dup.read(store, data, reader.display_name(from_file), replace)
        else:
            made = dup.boards(store)
        if slips:
            _write_slips(store, made, output, round_no, lang, force)
            return
        if output is not None or round_no is not None or lang is not None or force:
            raise UnusableInput("--output, --round, --lang and --force go with --slips")
        if as_json:
            sys.stdout.write(json.dumps(boards_json(made), ensure_ascii=False, indent=1) + "\n")
            return
        if count is not None or from_file is not None:
            typer.echo(f"stored {len(made)} board{'s' if len(made) != 1 else ''} ({made[0].game}): "
                       f"{dup.boards_span(made[0].number, made[-1].number)}"
                       + (f", dealt with seed {seed} (--seed {seed} deals {'it' if len(made) == 1 else 'them'} again)"
                          if count else ""))
            return
        if not made:
            raise UnusableInput(f"the event has no boards yet: tournament boards {event} --boards N --seed S")
        for b in made:
            typer.echo("\n".join(board_lines(b)))
        if dup.seed_of(store) is not None:
            typer.echo(f"dealt with seed {dup.seed_of(store)}")


def _write_slips(store: EventStore, made: Any, output: Optional[Path], round_no: Optional[int],
                 lang: Optional[str], force: bool) -> None:
    from tournament.cli.app import write_output
    from tournament.i18n import page_language
    from tournament.pages.board_slips import BOARD_SLIPS, slips_page

    if output is None:
        raise UnusableInput("--slips writes a page: give --output FILE (- for stdout)")
    if not made:
        raise UnusableInput("the event has no boards yet: tournament boards EVENT --boards N --seed S")
    if store.settings.team_duplicate:  # every table of a round lays out the round's boards
        from tournament.event.duplicate_teams import round_boards
        tables = [(t.round, t.number, round_boards(store, t.round)) for t in store.tables(round_no)]
    else:
        tables = [(t.round, t.table, t.boards) for t in dup.table_boards(store, round_no)]
    if round_no is not None and not tables:  # in the words of every event's `tables --round`
        from tournament.event.rounds import round_tables
        round_tables(store, round_no)
    page = slips_page(store.settings, made, tables, page_language(lang, store.settings.lang))
    write_output(output, page, BOARD_SLIPS, force)
    if str(output) != "-":
        count = page.count('class="slip"')
        typer.echo(f"wrote {output}: {count} board slip{'s' if count != 1 else ''}")


def board_lines(board: Board) -> list[str]:
    """A board as text: its number, leader, each seat's tiles, and the boneyard, row or piles."""
    deal = board.deal
    lines = [f"board {board.number} ({board.game}), {board.leader} leads"]
    lines += [f"  {s}: {' '.join(deal.hands[s])}" for s in board.seats]
    if deal.boneyard:
        lines.append(f"  boneyard, first drawn first: {' '.join(deal.boneyard)}")
    if deal.row:
        lines.append(f"  row: {' '.join(deal.row)}")
    for s in board.seats if deal.piles else ():
        lines.append(f"  {s}'s pile: {' '.join(deal.piles[s])}")
    return lines


def print_round(store: EventStore, round_no: int, as_csv: bool, as_json: bool, wide: bool = False) -> None:
    """A duplicate round's tables: at each, its NS and EW pairs (the movement's number and name)
    and its boards in order, with how many have a result; then each pair's table, direction and
    boards, by pair number (where to go)."""
    names = {t.id: t.name for t in store.teams()}
    done = {(r["table_id"], r["board"]) for r in dup.sql.results(store)}
    rows: list[dict[str, Any]] = []
    for t in dup.table_boards(store, round_no):
        played = sum((t.table_id, b) in done for b in t.boards)
        rows.append({"round": t.round, "table": t.table, "ns": t.ns, "ns_name": names[t.ns_pair], "ew": t.ew,
                     "ew_name": names[t.ew_pair], "boards": list(t.boards), "results": played})
    if not rows:  # in the words of every event's `tables --round`
        from tournament.event.rounds import round_tables
        round_tables(store, round_no)
    out = dup.sits_out(store, round_no)  # an odd number of pairs: one pair sits out the round
    if as_json:
        emit(rows, False, True, "", {"round": round_no, **({"sits_out": {"pair": out.pair, "name": out.name,
                                                                         "table": out.table}} if out else {})})
        return
    if as_csv:
        emit([{**r, "boards": " ".join(map(str, r["boards"]))} for r in rows], True, False, "")
        return
    marks = dup.not_played_boards(store)
    skipped = {(t.round, t.table): len(marks.get(t.table_id, ()))
               for t in dup.table_boards(store, round_no)}  # boards marked not played: none to come
    # A board the director closed on the table's phone, with neither a result nor a mark now: the
    # phone does not play it again (the table's state's ``to_enter``), so it is the director's to enter.
    from tournament.store.desk import venue_taken_boards

    taken = venue_taken_boards(store)
    owed = {(t.round, t.table): sorted(b for b in taken.get(t.table_id, ()) if b in t.boards and
                                       (t.table_id, b) not in done and b not in marks.get(t.table_id, ()))
            for t in dup.table_boards(store, round_no)}
    # (a table whose every board has its result or is marked not played is done: said so, as
    # "0 of 2, 2 not played" read as a table with two boards still to come)
    shown = [{"table": r["table"], "NS": f"{r['ns']} {r['ns_name']}", "EW": f"{r['ew']} {r['ew_name']}",
              "boards": " ".join(map(str, r["boards"])), "results": f"{r['results']} of {len(r['boards'])}"
              + (f", {n} not played" + (": done" if r["results"] + n >= len(r["boards"]) else "")
                 if (n := skipped.get((r["round"], r["table"]), 0)) else "")
              + "".join(f", board {b} to be entered by the director" for b in owed.get((r["round"], r["table"]), ()))}
             for r in rows]
    moving = dup.movement(store)
    guide = []
    for r in sorted(((r["ns"], r, "NS") for r in rows), key=lambda x: x[0]) + \
            sorted(((r["ew"], r, "EW") for r in rows), key=lambda x: x[0]):
        pair, row, side = r
        guide.append(f"pair {pair}: table {row['table']} {side}, boards {' '.join(map(str, row['boards']))}")
    if out is not None:  # said where each pair learns where to go, in its place by number
        at = next((i for i, line in enumerate(guide) if int(line.split(":")[0].split()[1]) > out.pair), len(guide))
        guide.insert(at, f"pair {out.pair}: sits out this round (table {out.table} is not played)")
    style = STYLE_WORDS.get(moving.style, moving.style)
    if moving.style == "skip":  # when the EW pairs skip a table: the director says so to the room
        style = f"skip: after round {moving.tables // 2} the EW pairs move up two tables"
    curtailed = store.settings.movement_rounds
    footer = [f"{moving.tables}-table {moving.kind} ({style}), round {round_no} of {moving.rounds}"
              + (f" (curtailed: --rounds {curtailed})" if curtailed else ""), *guide]
    emit(shown, False, False, f"{store.settings.name} — round {round_no}", footer=footer, wide=wide,
         keep=("table", "boards"))


def enter(store: EventStore, records: list[str], round_no: Optional[int], table: Optional[int],
          board: Optional[int], score: Optional[str], replace: bool, by: Optional[str],
          reason: Optional[str] = None, not_played: bool = False) -> None:
    """``tournament result`` in a duplicate event: a typed score of one board at one table, or the
    records of boards' hands (exit 1 if any was refused); ``reason``, with ``replace``: why a
    board's result is replaced (kept in the trail, as ``tournament history`` shows it).
    ``not_played``: the board was not played at the table (``reason`` says why), so the round
    can end without it."""
    from domrec import reader
    from tournament.event import desk

    # (the standings the last round was paired on, before a board's result: the note is this
    # result's, as amend's and the director's page's are)
    before = desk.pairing_basis(store) if store.settings.team_duplicate else None
    if not_played:  # (--replace: over the hand the table's phone is playing, time having run out mid-hand)
        if records or score is not None:
            raise UnusableInput("--not-played is --round R --table T --board B --not-played --reason TEXT "
                                "[--replace], without a record or --score")
        if table is None or board is None:
            raise UnusableInput("say which board was not played: --round R --table T --board B --not-played "
                                "--reason TEXT")
        if round_no is None:  # as a typed score: the last round seated
            round_no = store.last_round() or 1
        typer.echo(dup.mark_not_played(store, round_no, table, board, reason, by, replace).summary())
        say_if_stale(store, before)  # (a mark: when it changed the standings the round was paired on)
        return
    ops: Any = dup
    if store.settings.team_duplicate:
        from tournament.event import duplicate_teams as ops
    if reason is not None and not replace:
        raise UnusableInput("--reason goes with --replace in a duplicate event: why a board's result is replaced "
                            "(kept in the trail, tournament history)")
    if score is not None:
        if records:
            raise UnusableInput("give record files or --score, not both")
        if board is None:  # a whole game's score: this event's results are its boards'
            raise UnusableInput(res.BOARD_BY_BOARD)
        if round_no is None:  # as every event's typed result: the last round seated
            round_no = store.last_round()
            if not round_no:
                raise UnusableInput("no round has been seated yet: there is no board to score")
        if table is None:
            raise UnusableInput("a board's typed result needs --table T --board B --score NS=..,EW=.. "
                                "(--round R: default the last round seated)")
        typer.echo(ops.enter_score(store, round_no, table, board, whole_scores(score), replace, by,
                                   reason=reason).summary())
        say_if_stale(store, before)
        return
    if not records:
        raise UnusableInput("give a board's record file, or --round R --table T --board B --score NS=..,EW=..")
    worst = EXIT_OK
    seen = 0
    for src in reader.iter_sources(records):
        seen += 1
        try:
            refuse_unreadable(src, store.path)
            if src.form == "dgn":
                judged = [(g.record if g.complete else None, g.report) for g in res.read_dgn(src.text, src.label)]
            else:
                judged = [res.judge(src.text, src.label, src.archive_line)]
            for record, report in judged:
                try:
                    entry = ops.enter_record(store, record, report, round_no, table, board, replace, by, reason=reason)
                    typer.echo(f"{src.label}: {entry.summary()}")
                except TournamentError as e:
                    say_error(str(e), getattr(e, "problems", ()))
                    worst = max(worst, e.exit_code)
        except TournamentError as e:
            say_error(str(e), getattr(e, "problems", ()))
            worst = max(worst, e.exit_code)
    if not seen:
        fail(f"no game records in {', '.join(records)}; nothing was entered", EXIT_UNUSABLE)
    say_if_stale(store, before)
    raise typer.Exit(worst)


def say_if_stale(store: EventStore, before: Any = None) -> None:
    """After a board's result entered, replaced or taken back, or a board marked not played (or the
    mark taken back), in a Swiss event of duplicate teams: a note when the last round, unplayed, was
    paired on standings it changed (as a game's correction says it).  A board of a round before the
    last can change them: a board marked not played at one table of a match settles it at both, and
    taking a result or a mark back (or entering one afresh) rescores the match.  ``before``:
    :func:`tournament.event.desk.pairing_basis` taken before the change, so that a change that left
    those standings as they were does not repeat an earlier correction's note."""
    from tournament.event import desk

    note = desk.stale_board_pairing(store, str(store.path), before)  # (the director's page says it too)
    if note:
        typer.echo(note)


def print_standings(store: EventStore, as_csv: bool, as_json: bool, wide: bool) -> None:
    """The duplicate standings: ranked by the event's choice, each pair's matchpoints, percentage
    and IMPs; a board played by too few tables said so underneath."""
    doc = dup.standings(store)
    if as_csv:  # as every event's CSV: whether the standings are provisional, on each row
        doc = {**doc, "pairs": [{**r, "provisional": "yes" if doc["provisional"] else ""} for r in doc["pairs"]]}
    if _printed_for_programs(doc, "pairs", as_csv, as_json):
        return
    if not doc["pairs"]:  # before round 1 is seated: nothing to rank (a blank table said nothing)
        typer.echo(f"{store.settings.name}: no board has a result yet (round 1 is not paired)")
        return
    shown = [{"rank": r["rank"], "pair": f"{r['pair']} {r['name']}", "dir": r["direction"], "boards": r["boards"],
              "MP": f"{r['matchpoints']}/{r['top']}", "%": f"{r['percent']:.2f}", "IMPs": r["imps"]}
             for r in doc["pairs"]]
    # In the hall's words: the matchpoints rank as a percentage (a pair that sat out a board is not
    # behind for it), as the JSON's ``percent`` does.
    footer = ["ranked by IMPs, then matchpoint percentage" if doc["ranked_by"] == "imps" else
              "ranked by matchpoint percentage, then IMPs"]
    footer += _too_few_said(doc["too_few"])
    if doc["provisional"]:
        left = ", ".join(f"round {r}: {n} board result{'s' if n > 1 else ''} missing" for r, n in doc["missing"].items())
        footer.insert(0, f"PROVISIONAL — results still missing ({left})")
    title = f"{store.settings.name} — duplicate standings"
    provisional = " (provisional)" if doc["provisional"] else ""
    if not doc["fields"]:  # a Howell: one list
        emit(shown, False, False, title + provisional, footer=footer, wide=wide, keep=("rank", "pair"))
        return
    # A Mitchell: a list a direction, each ranked on its own (docs/duplicate.md, "Ranking").
    groups = [(FIELD_NAMES[f], [s for s, r in zip(shown, doc["pairs"]) if r["direction"] == f]) for f in doc["fields"]]
    groups.append(("no direction yet", [s for s, r in zip(shown, doc["pairs"]) if r["direction"] not in doc["fields"]]))
    groups = [(name, rows) for name, rows in groups if rows]
    for i, (name, rows) in enumerate(groups):
        if i:
            typer.echo("")
        emit(rows, False, False, f"{title}{provisional}, {name}", footer=footer if i == len(groups) - 1 else (),
             wide=wide, keep=("rank", "pair"))


def _too_few_said(too_few: list[dict[str, Any]]) -> list[str]:
    """The boards the standings do not score for too few tables, underneath them.  A board that
    every table due to play it has played (or is marked not playing) has too few tables for good:
    a line each.  One still travelling has been played at too few tables *so far*: those are said
    in one line, as what is still to come (after round 1 every board is so, and sixteen lines of
    "too few tables" read as errors); the report says them alike
    (:func:`tournament.event.duplicate_hall.still_travelling`)."""
    from tournament.event.duplicate_hall import still_travelling

    short, waiting = still_travelling(too_few)
    lines = [f"board {f['board']} {f['direction']}: too few tables ({f['tables']}), not scored" for f in short]
    if waiting:  # (a board short in one direction only names it)
        lines.append(f"not scored yet: board{'s' if len(waiting) > 1 else ''} {', '.join(waiting)} (played at too "
                     f"few tables so far; more tables are still to play them)")
    return lines


#: A Mitchell's fields as the standings' titles name them.
FIELD_NAMES = {"NS": "North-South", "EW": "East-West"}


def print_team_standings(store: EventStore, as_csv: bool, as_json: bool, wide: bool, lang: str = "en") -> None:
    """Duplicate teams' standings: each team's matches, match points (or victory points) and IMPs."""
    from tournament.event import duplicate_teams as dt

    doc = dt.standings(store)
    if _printed_for_programs(doc, "teams", as_csv, as_json):
        return
    vp = doc["ranked_by"] == "victory-points"
    # A bye is a match won (2 MP, 12 VP) but no match played: its own column, as the other team events'.
    shown = [{"rank": r["rank"], "team": r["team"], "played": r["played"], "W-D-L": f"{r['won']}-{r['drawn']}-{r['lost']}",
              "byes": r["byes"], **({"VP": f"{r['victory_points']:.2f}"} if vp else {"MP": r["match_points"]}),
              "IMPs": f"{r['imps_for']}-{r['imps_against']}", "+/-": r["imps"]} for r in doc["teams"]]
    from tournament.i18n import translations

    _ = translations(lang).gettext
    footer = [_("ranked by victory points, then the IMP difference, then the IMPs won") if vp else
              _("ranked by match points, then the IMP difference, then the IMPs won")]
    last = store.last_round()
    if last:
        footer = dt.match_lines(store, last, lang) + footer
    emit(shown, False, False, f"{store.settings.name} — duplicate teams standings"
         + (" (provisional)" if doc["provisional"] else ""), footer=footer, wide=wide, keep=("rank", "team"))


def _printed_for_programs(doc: dict[str, Any], rows: str, as_csv: bool, as_json: bool) -> bool:
    """Standings for another program: the whole document as JSON, or its ``rows`` as CSV; False
    when neither was asked for (the terminal's table is printed instead)."""
    if as_json:
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    elif as_csv:
        emit(doc[rows], True, False, "")
    return as_json or as_csv

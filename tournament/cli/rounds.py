"""Commands of rounds and results: ``pair``, ``balance``, ``tables``, ``result``, ``amend``, ``record``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional, Sequence

import typer

from domrec.errors import InputError

from tournament.cli.app import (EXIT_OK, EXIT_UNUSABLE, MAX_COUNT, emit, fail, guarded, once_written,
                                open_for_command, refuse_unreadable, say_error, whole_scores)
from tournament.errors import TournamentError, UnusableInput
from tournament.event import results as res, rounds
from tournament.settings import PAIRS
from tournament.values import SCORES_ONLY_NOTE
from tournament.store.event_store import EventStore


def _print_round(store: EventStore, round_no: int, as_csv: bool, as_json: bool, wide: bool = False,
                 quiet: bool = False, lang: Optional[str] = None) -> None:
    """A round's tables and byes; a team event's match lines under them in ``lang`` (default: the
    event's language), in the hall's words; a duplicate event's tables with their boards."""
    if store.settings.duplicate and not quiet:
        from tournament.cli.duplicate import print_round
        print_round(store, round_no, as_csv, as_json, wide)
        return
    rounds.round_tables(store, round_no)
    rows = rounds.table_rows(store, round_no)
    players = {p.id: p for p in store.players()}
    bye_players = store.byes(round_no).get(round_no, [])
    byes = [f"#{p} {players[p].name}" for p in bye_players]
    if store.settings.teams:  # a team's bye: the team, with its pairs
        from tournament.event.teams import bye_lines
        byes = bye_lines(store, bye_players)
    elif store.settings.format == PAIRS:  # a pair's number and name, once a pair
        byes = list(dict.fromkeys(rounds.pair_label(store, p) for p in bye_players))
    if as_json:
        extra: dict[str, Any] = {"round": round_no, "byes": [{"id": p, "name": players[p].name}
                                                              for p in bye_players]}
        if store.settings.team_duplicate:  # every table of the round plays these boards
            from tournament.event import duplicate_teams
            extra["boards"] = list(duplicate_teams.round_boards(store, round_no))
            extra["tables"] = duplicate_teams.table_docs(store, round_no)  # each table's boards: results, not played
        emit(rows, False, True, "", extra)
        return
    if as_csv:
        if store.settings.team_duplicate:  # a column a board of the round: its points at the seat's table
            from tournament.event.duplicate_teams import board_cells
            cells = board_cells(store, round_no)
            for row in rows:
                row.update(cells.get(row["table"], {}))
        for p in bye_players:
            row = {k: "" for k in (rows[0] if rows else {"round": 0, "table": 0, "seat": "", "side": "",
                                                          "id": 0, "name": "", "score": "", "result": ""})}
            row.update({"round": round_no, "table": "bye", "id": p, "name": players[p].name})
            if "pair_id" in row and p in players:  # a pair's bye: its number and name, as a seat's row
                team = next((t for t in store.teams() if t.id == players[p].team), None)
                row.update({"pair": team.name if team else "", "pair_id": team.id if team else None})
            rows.append(row)
        emit(rows, True, False, "")
        return
    tables = store.tables(round_no)
    seats = {(r["table"], r["seat"]): r for r in rows}
    pairs = store.settings.format == PAIRS
    results = {t.number: _result_text(store.result_for(t.id), [s.side for s in t.seats],
                                      _side_names(t, seats, pairs),
                                      {p: players[p].name for p in t.players}) for t in tables}
    scores = {t.number: _score_text(store.result_for(t.id), [s.side for s in t.seats],
                                    {p: players[p].name for p in t.players}) for t in tables}
    if store.settings.team_duplicate:  # a table's results are its boards'
        from tournament.event.duplicate_teams import table_texts
        results = scores = table_texts(store, round_no)
    full, compact, one = [], [], []
    for t in tables:
        line: dict[str, Any] = {"table": t.number}
        short: dict[str, Any] = {"table": t.number}
        single: dict[str, Any] = {"table": t.number}
        for side in dict.fromkeys(s.side for s in t.seats):
            mine = [seats[(t.number, s.seat)] for s in t.seats if s.side == side]
            # One numbering (docs/tournament.md): in a pairs event a pair's number, as it was
            # added and as the standings show it; its players by name.  Elsewhere each player's.
            people = [r["name"] if pairs else f"#{r['id']} {r['name']}" for r in mine]
            pair = f"#{mine[0]['pair_id']} {mine[0]['pair']}" if pairs else ""
            if store.settings.teams:
                line[f"{side} team"] = mine[0]["team"]
            if pairs:
                line[f"{side} pair"] = pair
            line.update({r["seat"]: who for r, who in zip(mine, people)})
            head = [pair] if pairs else []
            if store.settings.teams:
                head.insert(0, mine[0]["team"])
            lines = head + [f"{r['seat']} {who}" for r, who in zip(mine, people)]
            if len(mine) > 1:  # partners: one column a side, the pair's name then its players
                short[side] = "\n".join(lines)
            else:  # players on their own: one column for the table's players, a line each
                short["players"] = (short.get("players", "") + "\n" + lines[0]).lstrip("\n")
            # One line: a side's number and name (a pair's; partners of a rotating event both)
            who = pair if pairs else " & ".join(people)
            team = mine[0].get("team") or ""
            single[side] = who + (f" ({team})" if team and team not in who else "")
        line["result"] = short["result"] = results.get(t.number, "")
        single["score"] = scores.get(t.number, "")
        full.append(line)
        compact.append(short)
        one.append(single)
    footer = [f"bye: {', '.join(byes)}"] if byes else []
    if store.settings.teams:
        from tournament.event.teams import match_lines
        footer = match_lines(store, round_no, lang or store.settings.lang) + footer
        if store.settings.team_duplicate:  # the match's boards and IMPs, not games
            from tournament.event import duplicate_teams
            footer = duplicate_teams.match_lines(store, round_no, lang or store.settings.lang) + [f for f in footer if f.startswith("bye")]
    title = f"{store.settings.name} — round {round_no}"
    if not quiet:
        from tournament.pages import terminal
        # A seat a column, partners side by side, when that fits the terminal between words;
        # else a column a side (a pair: its name, then its players), so a name is never cut.
        width = terminal.terminal_width()
        if wide or terminal.fits_whole(full, width, lines=1):  # a name a line: else one line a table
            emit(full, False, False, title, footer=footer, wide=wide, keep=("table",))
        elif all(list(r) == list(one[0]) for r in one) and terminal.compact_width(one, list(one[0])) <= width:
            # One line a table: each side's number and name (shortened with "…"), then the score.
            emit(one, False, False, title, footer=footer, keep=("table", "score"), lines=1)
        else:  # a table of many players: a column a side or a line a player, names whole
            emit(compact, False, False, title, footer=footer, keep=("table",))
    else:
        played = sum(1 for t in tables if results.get(t.number) != "to play")
        seated, given = f"{len(rows)} seated", len(bye_players)
        if pairs:  # counted as the event numbers them: pairs
            seated = f"{len({r['pair_id'] for r in rows})} pairs seated"
            given = len(set(byes))
        typer.echo(f"{title}: {len(tables)} table{'s' if len(tables) != 1 else ''}, "
                   f"{seated}, {given} bye{'s' if given != 1 else ''}"
                   f"{f', {played} played' if played else ''} (`tournament tables` prints them)")


def _side_names(t: Any, seats: dict[tuple[int, str], dict[str, Any]], pairs: bool) -> dict[str, str]:
    """Who a side is, to name a winner by: the one player of a seat; partners (a pair, or of a
    rotating event) are named by the side, their names on the row beside the result already."""
    out: dict[str, str] = {}
    for side in dict.fromkeys(s.side for s in t.seats):
        mine = [seats[(t.number, s.seat)] for s in t.seats if s.side == side]
        if len(mine) == 1:
            out[side] = mine[0]["name"]
    return out


def _absent_and_order(result: Any, sides: Sequence[str],
                      people: dict[int, str] | None) -> tuple[str | None, list[str]]:
    """What both forms of a result start from: who did not come (a forfeit by player, named from
    ``people``, else ``None``) and the sides in seating order, any side the seats do not name
    after them; one place, so the long and the short form never disagree on either."""
    gone = getattr(result, "absent_players", ()) or ()
    if gone:
        return ", ".join((people or {}).get(p, f"#{p}") for p in gone), []
    order = [x for x in dict.fromkeys(sides) if x in result.scores]
    order += [x for x in result.scores if x not in order]
    return None, order


def _result_text(result: Any, sides: Sequence[str], names: dict[str, str] | None = None,
                 people: dict[int, str] | None = None) -> str:
    """A result as the table shows it: the sides' scores in seating order (``sides``, a side a
    seat: NS before EW, not the alphabetical order the store keeps them in), then who won, by
    name where a side is one player or a pair (``names``: ``P3 won (Ana)``).  A forfeit by
    player names who did not come (``people``: the table's players by number) and no side: the
    partner who came won it as the standings count it, so no side's stored score is shown."""
    if result is None:
        return "to play"
    who, order = _absent_and_order(result, sides, people)
    if who is not None:
        return f"forfeit: {who} did not play; the others won {max(result.scores.values())}-0"
    scores = " ".join(f"{side}={result.scores[side]}" for side in order)  # as --score takes them; never split
    who = (names or {}).get(result.winner or "")
    outcome = (f"{result.winner} won" + (f" ({who})" if who else "")) if result.winner else "draw"
    if result.kind == "forfeit":
        absent = getattr(result, "absent", ()) or ()
        return f"{scores} · {outcome} (forfeit{': ' + ', '.join(absent) + ' did not play' if absent else ''})"
    if getattr(result, "note", None) == SCORES_ONLY_NOTE:
        return f"{scores} · {outcome} (scores only)"
    return f"{scores} · {outcome}" + ("" if result.verified else " (manual)")


def _score_text(result: Any, sides: Sequence[str], people: dict[int, str] | None = None) -> str:
    """A result in a few characters, for the one-line form of a round: the sides' scores in
    seating order (the columns' order) between en dashes, which a minus sign cannot be taken for
    (``214–21``, ``53–-31``), then who won by side (``NS won``, never the names the row shows),
    and how it was entered if not from a verified record."""
    if result is None:
        return "to play"
    who, order = _absent_and_order(result, sides, people)
    if who is not None:
        return f"forfeit: {who} absent"
    text = "–".join(str(result.scores[side]) for side in order)
    text += f" {result.winner} won" if result.winner else " draw"
    if result.kind == "forfeit":
        return text + " (forfeit)"
    if getattr(result, "note", None) == SCORES_ONLY_NOTE:
        return text + " (scores only)"
    return text + ("" if result.verified else " (manual)")


@guarded
def pair(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the tables as CSV."),
    as_json: bool = typer.Option(False, "--json", help="Print the tables as JSON."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="One line (tables, players seated, byes) instead "
                                                            "of every table: for big events."),
    seed: Optional[str] = typer.Option(None, "--seed", help="Round 1 only: draw (default), rating (the players "
                                       "CSV's rating column), column:NAME or ratings:FILE (a ratings file); "
                                       "seeded, the top half meets the bottom half."),
) -> None:
    """Pair the next round: numbered tables, seats and byes (refused while a table lacks its result)."""
    with open_for_command(event) as store:
        try:
            plan = rounds.pair_next_round(store, seed)
        except TournamentError as e:  # (the boards' command names the event file as typed: run as it is)
            if "tournament boards EVENT " in e.message:
                e.message = e.message.replace("tournament boards EVENT ", f"tournament boards {_typed(event)} ")
                e.args = (e.message,)
            raise
        # Ctrl-C while the tables are printed: the round is stored all the same; say where to see it.
        once_written(f"round {plan.round} is paired and stored, but its tables were not all printed: "
                     f"tournament tables {_typed(event)} shows them")
        _print_round(store, plan.round, as_csv, as_json, quiet=quiet)
        kept = store.standings_used(1) if plan.round == 1 and not (as_csv or as_json) else {}
        if kept:  # a seeded round 1 (or an accelerated event's draw) says what it was seeded by
            unrated = sum(1 for _, v in kept.values() if v.get("seed") is None)
            what = f"by {seed.strip()}" if seed and seed.strip().lower() != "draw" else "by the draw"
            typer.echo(f"round 1 seeded {what}: {len(kept)} seeded" + (f", {unrated} without a rating (last)"
                                                                          if unrated and what != "by the draw" else "")
                       + (f"; accelerated (Baku) in rounds 1-{store.settings.accelerated}"
                          if store.settings.accelerated else ""))


def _typed(event: Path) -> str:
    """The event file as a command line to copy names it (quoted where a shell would split it)."""
    import shlex

    return shlex.quote(str(event))


@guarded
def balance(
    event: Path = typer.Argument(..., help="The event file."),
    as_json: bool = typer.Option(False, "--json", help="JSON: every pair of partners and of opponents, with counts."),
) -> None:
    """Who partnered and who opposed whom, and how often (repeats against their lower bound)."""
    from tournament.pairing.schedule import meetings
    with open_for_command(event) as store:
        met = meetings(store.settings, store.players(), store.tables(), store.byes(), store.teams())
        typer.echo(json.dumps(met.to_dict(), ensure_ascii=False, indent=1) if as_json else met.text())


@guarded
def tables(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Which round (default: the last)."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV (one row a seat) for posting at the venue."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
    wide: bool = typer.Option(False, "--wide", help="Every column at full width, however wide the terminal."),
    lang: Optional[str] = typer.Option(None, "--lang", help="A team event's match lines: en or es, in the "
                                                            "words of the hall's pages (default: the event's "
                                                            "language)."),
) -> None:
    """Print a round's tables and byes."""
    from tournament.cli.pages import _language

    with open_for_command(event) as store:
        if not store.last_round():
            raise UnusableInput("no round has been paired yet (use `tournament pair`)")
        n = round_no if round_no is not None else store.last_round()
        _print_round(store, n, as_csv, as_json, wide, lang=_language(lang, store.settings.lang))


@guarded
def result(
    event: Path = typer.Argument(..., help="The event file."),
    records: list[str] = typer.Argument(None, help="Game record files (*.json, *.dgn, *.jsonl archives, "
                                                   "- for stdin)."),
    table: Optional[int] = typer.Option(None, "--table", "-t", min=1, max=MAX_COUNT,
                                        help="Manual entry: the table number."),
    score: Optional[str] = typer.Option(None, "--score", help="Manual entry: scores by side, NS=200,EW=143."),
    winner: Optional[str] = typer.Option(None, "--winner", help="Manual entry: the winning side when the "
                                                                "highest score does not decide it."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="The round (default: the record's "
                                                "event.round, else the last round)."),
    replace: bool = typer.Option(False, "--replace", help="Replace a table's different result (audited)."),
    match: Optional[str] = typer.Option(None, "--match", "-m", help="Manual entry in a knockout or round robin: "
                                                                    "the match (e.g. W2-1) instead of --table."),
    forfeits: Optional[list[str]] = typer.Option(None, "--forfeit", help="With --table: the side that did not "
                                                 "play (NS, or P2,P3); the event's forfeit score."),
    absent: Optional[list[str]] = typer.Option(None, "--absent", help="With --table, in individual and "
                                               "rotating events: a player (name or number) who did not play; "
                                               "give it again for each. The others win by the forfeit score."),
    by: Optional[str] = typer.Option(None, "--by", help="Who enters the results (default: your login name); "
                                                        "kept with each (`tournament history --entered`)."),
    reason: Optional[str] = typer.Option(None, "--reason", help="With --forfeit or --absent: why they did not "
                                         "play; --score with --replace, or a duplicate event's board with "
                                         "--replace: why (kept in the trail, `tournament history`)."),
    board: Optional[int] = typer.Option(None, "--board", "-b", min=1, max=MAX_COUNT,
                                        help="A duplicate event: the board (with --round and --table)."),
    not_played: bool = typer.Option(False, "--not-played", help="A duplicate event: the table did not play the "
                                    "board (with --board and --reason; --replace: over the hand its phone is "
                                    "playing); pairs: it is scored over the other tables; teams: it is not "
                                    "scored in the match."),
) -> None:
    """Enter results: game records (checked by domrec), a manual score (marked unverified) or a forfeit;
    in a duplicate event, a board's result at a table (a typed score or the record of its hand), or
    that the table did not play it."""
    from domrec import reader

    from tournament.event.audit import clean_text

    # --forfeit twice would silently keep the last side only: `--forfeit NS --forfeit EW` must not
    # store "EW did not play" when the director meant both (a list given once says so, and is refused).
    if forfeits and len(forfeits) > 1:
        raise UnusableInput(f"--forfeit given {len(forfeits)} times: name the side that did not play once, "
                            f"e.g. --forfeit {forfeits[0]} (a table where no side played has no result to enter)")
    forfeit = forfeits[0] if forfeits else None
    author = clean_text(by, "--by")
    with open_for_command(event) as store:
        store.author = author
        if store.settings.duplicate or store.settings.team_duplicate:
            if match is not None or forfeit is not None or absent or winner is not None:
                raise UnusableInput("a duplicate event's result is a board's: --round R --table T --board B and "
                                    "--score NS=..,EW=.. or the hand's record (no --match, --forfeit, --absent, "
                                    "--winner)")
            from tournament.cli.duplicate import enter
            enter(store, list(records or []), round_no, table, board, score, replace, author, reason, not_played)
            return
        if board is not None or not_played:
            raise UnusableInput(f"{'--not-played' if not_played else '--board'} is for a duplicate event's boards")
        from tournament.event.desk import pairing_basis
        before = pairing_basis(store) if replace else None  # (the note is this correction's: _say_if_stale)
        if match is not None:
            if table is not None or round_no is not None:
                raise UnusableInput("give --match, or --table (and --round), not both")
            from tournament.event import stages as stg
            t = stg.open_table_for_match(store, match)
            table, round_no = t.number, t.round
            if score is None and forfeit is None:
                raise UnusableInput("a manual result needs --score SIDE=N,SIDE=N")
        if absent:
            if records or score is not None or winner is not None or forfeit is not None or table is None:
                raise UnusableInput("a forfeit by player is --table N --absent PLAYER (again for each), without "
                                    "records, --score, --winner or --forfeit")
            typer.echo(res.enter_player_forfeit(store, table, tuple(absent), round_no, replace, reason).summary())
            return
        if forfeit is None and reason is not None and not (score is not None and replace):
            raise UnusableInput("--reason goes with --forfeit, --absent or --score with --replace (a replaced "
                                "result's reason: tournament amend --reason)")
        if forfeit is not None:
            if records or score is not None or winner is not None or table is None:
                raise UnusableInput("a forfeit is --table N --forfeit SIDE, without records, --score or --winner")
            absent = tuple(x.strip() for x in forfeit.split(",") if x.strip())
            typer.echo(res.enter_forfeit(store, table, absent, round_no, replace, reason).summary())
            _say_if_stale(store, event, replace, before)
            return
        if table is not None or score is not None:
            if records:  # (a record names its own table: its players, seated by the round's pairing)
                given = " and ".join(o for o, v in (("--table", table), ("--score", score)) if v is not None)
                raise UnusableInput(f"a record file finds its own table by its players: give the record alone, "
                                    f"without {given} (a manual result is --table N --score SIDE=N,SIDE=N, "
                                    f"without a record)")
            if table is None or score is None:
                raise UnusableInput("a manual result needs both --table N and --score SIDE=N,SIDE=N")
            entry = res.enter_manual(store, table, whole_scores(score), round_no, replace, winner, reason=reason)
            typer.echo(entry.summary())
            _say_if_short(store, entry)
            _say_if_stale(store, event, replace, before)
            return
        if not records:
            raise UnusableInput("give a record file, or --table and --score for a manual result")
        worst = EXIT_OK
        seen = 0

        def refused(e: TournamentError) -> None:
            nonlocal worst
            say_error(str(e), getattr(e, "problems", ()))
            worst = max(worst, e.exit_code)

        for src in reader.iter_sources(records):
            seen += 1
            try:
                refuse_unreadable(src, event)
                if src.form == "dgn":  # each game of the text on its own, as the lines of a .jsonl are
                    for game in res.read_dgn(src.text, src.label):
                        try:
                            entry = res.enter_dgn_game(store, game, round_no, replace)
                            typer.echo(f"{game.report.source}: {entry.summary()}")
                        except TournamentError as e:
                            refused(e)
                    continue
                entry = res.enter_record(store, src.text, src.label, round_no, replace, line=src.archive_line)
                typer.echo(f"{src.label}: {entry.summary()}")
            except TournamentError as e:
                refused(e)
        if not seen:  # an empty archive: say so rather than succeed having entered nothing
            fail(f"no game records in {', '.join(records)}; nothing was entered", EXIT_UNUSABLE)
        _say_if_stale(store, event, replace, before)
        raise typer.Exit(worst)


def _say_if_short(store: EventStore, entry: res.Entry) -> None:
    """After a typed score: a warning when no side reached the game's target in an event with no
    time limit (:func:`tournament.event.results.short_of_target`); stored all the same, and
    ``check`` lists it until the director accepts it."""
    table = store.table(entry.round, entry.table)
    short = res.short_of_target(store.settings, table, entry.scores) if table is not None else None
    if short:
        typer.echo(f"warning: round {entry.round} table {entry.table}: {short}", err=True)


def _say_if_stale(store: EventStore, event: Path, replaced: bool = True, before: Any = None) -> None:
    """After a correction: a note when the last round, unplayed, was paired on standings it changed
    (``before``: :func:`tournament.event.desk.pairing_basis` taken before it, so that the note is
    this correction's, not an earlier one's)."""
    from tournament.event import desk

    stale = desk.stale_pairing(store, str(event), before) if replaced else None
    if stale:
        typer.echo(f"note: {stale}")


@guarded
def amend(
    event: Path = typer.Argument(..., help="The event file."),
    record: Optional[str] = typer.Argument(None, help="The table's game record (.json or .dgn; - for stdin)."),
    round_no: int = typer.Option(..., "--round", "-r", min=1, max=MAX_COUNT, help="The round of the result."),
    table: int = typer.Option(..., "--table", "-t", min=1, max=MAX_COUNT, help="The table of the result."),
    score: Optional[str] = typer.Option(None, "--score", help="A manual score instead of a record: NS=200,EW=143."),
    winner: Optional[str] = typer.Option(None, "--winner", help="With --score: the winning side when the highest "
                                                                "score does not decide it."),
    reason: Optional[str] = typer.Option(None, "--reason", help="Why (kept in the audit trail)."),
    by: Optional[str] = typer.Option(None, "--by", help="Who corrects it (default: your login name)."),
) -> None:
    """Correct the result of any round's table (a record or a manual score); the old one is kept in the
    audit trail (`tournament history`) and the standings follow."""
    from domrec import reader

    with open_for_command(event) as store:
        if (record is None) == (score is None):
            raise UnusableInput("give the table's game record or --score SIDE=N,SIDE=N (not both)")
        from tournament.event.desk import pairing_basis
        before = pairing_basis(store)
        if score is not None:
            entry = res.amend_manual(store, round_no, table, whole_scores(score), winner, by, reason)
        else:
            if winner is not None:
                raise UnusableInput("--winner goes with --score; a record's winner is the one domrec computes")
            sources = list(reader.iter_sources([record]))
            if len(sources) != 1:
                raise UnusableInput(f"{record} holds {len(sources)} records; an amendment takes the one game "
                                    f"of the table")
            src = sources[0]
            refuse_unreadable(src, event)
            if src.form == "dgn":
                entry = res.amend_dgn(store, src.text, src.label, round_no, table, by, reason)
            else:
                entry = res.amend_record(store, src.text, src.label, round_no, table, by, reason, line=src.archive_line)
        typer.echo(entry.summary())
        if score is not None:
            _say_if_short(store, entry)
        _say_if_stale(store, event, before=before)


@guarded
def clear(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: int = typer.Option(..., "--round", "-r", min=1, max=MAX_COUNT, help="The round of the result."),
    table: int = typer.Option(..., "--table", "-t", min=1, max=MAX_COUNT, help="The table of the result."),
    reason: Optional[str] = typer.Option(None, "--reason", help="Why (required; kept in the audit trail)."),
    by: Optional[str] = typer.Option(None, "--by", help="Who clears it (default: your login name)."),
    board: Optional[int] = typer.Option(None, "--board", "-b", min=1, max=MAX_COUNT,
                                        help="A duplicate event: take back this board's result (or 'not "
                                             "played')."),
) -> None:
    """Take back a result entered by mistake: the table is to play again (the old result is kept in the
    audit trail, `tournament history`), and a round left without results can be un-paired; in a duplicate
    event (pairs or teams), one board's result at the table (--board), or its mark "not played"."""
    with open_for_command(event) as store:
        if board is not None:
            from tournament.cli.duplicate import say_if_stale
            from tournament.event import desk, duplicate as dup
            before = desk.pairing_basis(store) if store.settings.team_duplicate else None
            typer.echo(dup.clear_board(store, round_no, table, board, reason, by).summary())
            say_if_stale(store, before)  # a board taken back rescores its match: a note if this changed the pairing's
            return
        typer.echo(res.clear_result(store, round_no, table, reason, by).summary())
        _say_if_stale(store, event)


@guarded
def record(
    event: Path = typer.Argument(..., help="The event file."),
    table: int = typer.Option(..., "--table", "-t", min=1, max=MAX_COUNT, help="The table number."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="The round (default: the last paired)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The game file (*.dgn or *.json; default: "
                                                                       "EVENT-games/roundR-tableT.dgn next to the "
                                                                       "event); continued if it exists."),
    replace: bool = typer.Option(False, "--replace", help="Replace the table's result (audited)."),
    board: Optional[int] = typer.Option(None, "--board", "-b", min=1, max=MAX_COUNT,
                                        help="A duplicate event: the board (default: the table's first board "
                                             "without a result)."),
) -> None:
    """Record a table's game move by move (domrec record, pre-filled with the table's players), then
    enter it as the table's result once it is finished. From a pipe: DGN moves on standard input.
    In a duplicate event, one board's hand from its deal, entered as that board's result."""
    from domrec import reader
    from domrec import record_cli
    from domrec.convert import text_of
    from tournament.pages import sheets as sh

    with open_for_command(event) as store:
        from tournament.event import duplicate as dup

        dup.refuse_missing_table(store, round_no, table)  # a sit-out's table says who sits out
        t = sh.find_table(store, table, round_no)
        players = {p.id: p for p in store.players()}
        plays = sh.boards_played(store, t.round).get(t.id)
        if board is not None and not plays:
            raise UnusableInput("--board is for a duplicate event's tables")
        the_board = sh.board_to_record(store, t, plays, board, replace) if plays else None
        name = (sh.dgn_name(t.round, t.number) if the_board is None
                else sh.board_dgn_name(t.round, t.number, the_board.number))
        path = output if output is not None else sh.default_folder(event) / name
        label = reader.display_name(path)
        done = sh.is_finished if the_board is None else sh.board_finished
        if path.suffix not in (".dgn", ".json"):
            raise UnusableInput(f"{label}: the game file is a .dgn (or .json) file")
        finished = False
        if path.exists() or path.is_symlink():
            if not path.is_file():
                raise UnusableInput(f"{label} exists and is not a regular file")
            existing = sh.existing_record(path)
            sh.check_file_is_table(store.settings, existing, t, players, label)
            if the_board is not None and (existing.event or {}).get("board") != the_board.number:
                raise UnusableInput(f"{label} is not the game file of board {the_board.number}")
            finished = done(existing)
        else:
            if output is None:
                sh.prepare_folder(path.parent)
            elif not path.parent.is_dir():
                raise UnusableInput(f"cannot write {label}: folder {path.parent} does not exist")
        if not finished and the_board is None:
            sh.refuse_if_decided(store, t, replace)
        if not path.exists():
            template = (sh.table_record(store.settings, t, players) if the_board is None
                        else sh.board_record(store.settings, t, players, the_board))
            sh.write_file(path, text_of([template], "json" if path.suffix == ".json" else "dgn"),
                          kind=sh.game_file_kind(the_board))  # (a board's deal: 0600)
            typer.echo(f"wrote {label}: round {t.round} table {t.number}"
                       + (f" board {the_board.number}" if the_board is not None else ""))
    code = EXIT_OK
    if not finished:
        code = record_cli.run(str(path), None, [], None, [], None)
        if code == EXIT_UNUSABLE:
            raise typer.Exit(code)
        if not done(sh.existing_record(path)):
            what, more = ("the game", "") if the_board is None else ("the board's hand", f" --board {the_board.number}")
            typer.echo(f"{label}: {what} is not finished; no result was stored (`tournament record {event} "
                       f"--round {t.round} --table {t.number}{more}` continues it)")
            raise typer.Exit(code)
    try:
        data = reader.read_bytes(path)
    except OSError as e:
        raise UnusableInput(reader.unreadable(path, e)) from None
    except InputError as e:
        raise UnusableInput(f"{label}: {e.message}") from None
    if the_board is not None:  # the board's result, as `tournament result --board` enters it
        from tournament.cli.duplicate import enter

        with open_for_command(event) as store:
            enter(store, [str(path)], t.round, t.number, the_board.number, None, replace, None)
        raise typer.Exit(code)
    with open_for_command(event) as store:
        if path.suffix == ".dgn":
            entries = res.enter_dgn(store, data, label, t.round, replace)
        else:
            entries = [res.enter_record(store, data, label, t.round, replace)]
    for entry in entries:
        typer.echo(f"{label}: {entry.summary()}")
    raise typer.Exit(code)

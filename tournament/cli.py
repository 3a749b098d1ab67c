"""The ``tournament`` command: a thin layer over the library.

Exit codes: 0 done; 1 refused (an invalid record, a record of no table of the
round, a second result for a table without --replace, a round that cannot be
paired, ``check`` found errors); 2 unusable input or usage (missing file, not
an event file, damaged database, unknown game, bad option).  Nothing is ever
half written: every write is one transaction.
"""

from __future__ import annotations

import functools
import json
import math
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Sequence

import typer

from domrec import console
from domrec.errors import DomrecError, InputError, one_line
from domrec.games import parse_options

from tournament.event import check as checking, players as pl, results as res, rounds, standings as st
from tournament.pages import display
from tournament.errors import DamagedEventFile, TournamentError, UnusableInput
from tournament.settings import FORMATS, PAIRS, make_settings
from tournament.event.simulate import simulate_event
from tournament.store.event_store import EventStore
from tournament.event.files import create_event, open_event

console.plain_help_types()
app = typer.Typer(cls=console.OneLineErrors, add_completion=True, no_args_is_help=True,
                  context_settings=console.CONTEXT_SETTINGS,
                  help="Run a domino tournament: players, pairings, tables, results checked by domrec, standings.")

EXIT_OK, EXIT_REFUSED, EXIT_UNUSABLE = 0, 1, 2

#: Bounds of every whole-number option (docs/tournament.md, "Limits"): a number past them is a
#: usage error (exit 2) before it can reach SQLite, whose integers stop at 2**63 - 1, or a loop.
MAX_COUNT = 1_000_000
SEED_MIN, SEED_MAX = -(2 ** 63), 2 ** 63 - 1


@app.callback()
def _options(version: bool = console.version_option("tournament")) -> None:
    """The options every tournament command shares (--version, -h)."""


def _say_error(message: str, details: Sequence[str] = ()) -> None:
    """An error and its problem lines on stderr, in colour on a terminal."""
    console.echo_err(f"error: {message}", "invalid")
    for line in details:
        console.echo_err(f"  {line}", "problem")


def _fail(message: str, code: int, details: Sequence[str] = ()) -> None:
    _say_error(message, details)
    raise typer.Exit(code)


def guarded(fn: Callable) -> Callable:
    """Every command: a one-line error and the right exit code, never a traceback."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except TournamentError as e:
            _fail(str(e), e.exit_code, getattr(e, "problems", ()))
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                _fail(f"the event file is busy (another program holds it): {e}", EXIT_UNUSABLE)
            if "readonly" in str(e):
                _fail(f"the event file (or its folder) is read-only; nothing was written: {e}", EXIT_UNUSABLE)
            if "decode" not in str(e):
                _fail(f"the event file cannot be used: {e}", EXIT_UNUSABLE)
            _fail(_damaged(kwargs, e), EXIT_UNUSABLE)
        except sqlite3.DatabaseError as e:
            _fail(_damaged(kwargs, e), EXIT_UNUSABLE)
        except BrokenPipeError:  # `tournament tables … | head`: the reader has gone, nothing to report
            import os
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(EXIT_OK)
        except KeyboardInterrupt:
            _fail("interrupted; the last write was not made", EXIT_UNUSABLE)
        except DomrecError as e:  # domrec refusing what it was given (a simulated game that would not end)
            _fail(one_line(str(e)), EXIT_UNUSABLE)
        except Exception as e:  # a bug: say so in one line
            _fail(f"internal error ({type(e).__name__}: {e}); please report it", EXIT_UNUSABLE)
    return wrapper


def _damaged(kwargs: dict[str, Any], e: Exception) -> str:
    """One line for a damaged page or value met while reading: what, and what to run."""
    from domrec.errors import clip
    event = kwargs.get("event")
    return (f"{event or 'the event file'} is damaged ({clip(str(e), 80)}): run `tournament check "
            f"{event or 'EVENT.db'}` to see which tables and rows are affected")


def _open(path: Path) -> EventStore:
    """The event, its browsing snapshot refreshed once when the command closes it (not after every
    result it enters)."""
    store = open_event(path)
    store.defer_browsing = True
    return store


def _parse_options(texts: list[str]) -> dict[str, Any]:
    try:
        return parse_options(texts)
    except InputError as e:
        raise UnusableInput(e.message) from None


def _parse_pairs(text: str, what: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UnusableInput(f"write {what} as NAME=VALUE,NAME=VALUE, not {text!r}")
        if key.strip() in out:
            raise UnusableInput(f"{key.strip()} is given twice in {text!r}")
        out[key.strip()] = value.strip()
    return out


def _number(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise UnusableInput(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise UnusableInput(f"{what} must be a finite number, not {text!r}")
    return value


def _emit(rows: list[dict[str, Any]], as_csv: bool, as_json: bool, title: str,
          extra: dict[str, Any] | None = None, footer: Iterable[str] = (), wide: bool = False,
          keep: Iterable[str] = ()) -> None:
    if as_json:
        doc = {**(extra or {}), "rows": rows} if extra is not None else rows
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv:
        from tournament.pages.report import write_csv
        write_csv(sys.stdout, list(rows[0]) if rows else [], rows)
        return
    from tournament.pages import terminal

    terminal.print_table(rows, title, footer, wide, keep)


@app.command()
@guarded
def new(
    event: Path = typer.Argument(..., help="The event file to create (refused if it exists)."),
    name: str = typer.Option(..., "--name", help="The event's name."),
    game: str = typer.Option(..., "--game", help="broadway, competitive, horse-race, castle-rock or domino-roads."),
    format: str = typer.Option(..., "--format", help=f"{', '.join(FORMATS)}."),
    table_size: Optional[int] = typer.Option(None, "--table-size", min=1, max=MAX_COUNT,
                                             help="Players a table (individual format)."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant (celko for Horse Race)."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX,
                             help="Seed of the first-round draw (and of random tie order)."),
    bye: Optional[str] = typer.Option(None, "--bye", help="What a bye scores: wins=1,for=0,against=0 "
                                                          "(partnership formats) or placement=1.5,score=0."),
    placement: Optional[str] = typer.Option(None, "--placement", help="Placement points by place, e.g. 3,2,1,0."),
    tiebreak: Optional[str] = typer.Option(None, "--tiebreak", help="Ranking keys in order, e.g. wins,diff,for "
                                                                    "or wins,head-to-head,efectividad."),
    time_limit: Optional[int] = typer.Option(None, "--time-limit", min=1, max=1440,
                                             help="Minutes a game (shown on sheets and the report)."),
    forfeit_score: Optional[int] = typer.Option(None, "--forfeit-score", min=0, max=1_000_000,
                                                help="A forfeit's score for the side that played (default: "
                                                     "the game's target)."),
    schedule: Optional[str] = typer.Option(None, "--schedule", help="Rotating partners: standings (default) or "
                                                                    "balanced (fixed in advance, --rounds N)."),
    rounds_: Optional[int] = typer.Option(None, "--rounds", min=1, max=MAX_COUNT,
                                          help="The rounds of a balanced schedule."),
) -> None:
    """Create an event file: its name, game, rules and format."""
    options = _parse_options(option)
    bye_values = {k: _number(v, f"bye {k}") for k, v in _parse_pairs(bye, "a bye").items()} if bye else None
    places = tuple(_number(x, "a placement point") for x in placement.split(",")) if placement else None
    keys = tuple(k.strip() for k in tiebreak.split(",") if k.strip()) if tiebreak else None
    settings = make_settings(name, game, format, table_size, seed, variant, options, bye_values, places, keys,
                             time_limit, forfeit_score, schedule=schedule, rounds=rounds_)
    store = create_event(event, settings)
    store.close()
    typer.echo(f"created {event}: {settings.name} — {settings.game}, {settings.format}, tables of "
               f"{settings.table_size}" + (f"; balanced schedule of {settings.rounds} rounds" if settings.rounds else ""))


@app.command()
@guarded
def add(
    event: Path = typer.Argument(..., help="The event file."),
    names: list[str] = typer.Argument(None, help="Player names (a pairs event: the two partners)."),
    from_csv: Optional[Path] = typer.Option(None, "--csv", help="A CSV file with a header: name (and partner, "
                                                                "pair for a pairs event)."),
    pair_name: Optional[str] = typer.Option(None, "--pair", help="The pair's name (pairs event; default A & B)."),
) -> None:
    """Enter players (or partnerships), by name or from a CSV file; late entries play from the next round."""
    with _open(event) as store:
        names = list(names or [])
        pairs = store.settings.format == PAIRS
        if from_csv is not None:
            if names:
                raise UnusableInput("give names or --csv, not both")
            entries = pl.read_csv(from_csv, pairs)
        elif pairs:
            if len(names) != 2:
                raise UnusableInput("a pairs event enters one partnership at a time: give exactly two names "
                                    "(or use --csv)")
            entries = [(names[0], names[1], pair_name)]
        else:
            if not names:
                raise UnusableInput("give at least one name, or --csv FILE")
            if pair_name:
                raise UnusableInput("--pair is for pairs events only")
            entries = names
        if pairs:
            teams = pl.add_pairs(store, entries)
            for t in teams:
                typer.echo(f"added pair #{t.id} {t.name} (from round {t.entered})")
        else:
            added = pl.add_players(store, entries)
            for p in added:
                typer.echo(f"added #{p.id} {p.name} (from round {p.entered})")


@app.command()
@guarded
def players(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV instead of a table."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a table."),
) -> None:
    """List the players (numbers, names, pairs, entry and withdrawal)."""
    with _open(event) as store:
        teams = {t.id: t.name for t in store.teams()}
        rows = []
        for p in store.players():
            row = {"id": p.id, "name": p.name}
            if store.settings.format == PAIRS:
                row["pair"] = teams.get(p.team, "")
            row.update({"from_round": p.entered, "withdrawn_from": p.withdrawn})
            rows.append(row)
        _emit(rows, as_csv, as_json, f"{store.settings.name}: players")


@app.command()
@guarded
def withdraw(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's exact name or number (#12); in a pairs event, "
                                           "the pair's name or a member's."),
) -> None:
    """Withdraw a player (or pair) from the next round on; their games so far still count."""
    with _open(event) as store:
        who = pl.withdraw(store, player)
        typer.echo(f"withdrew {who.name} from round {who.withdrawn} on")


def _print_round(store: EventStore, round_no: int, as_csv: bool, as_json: bool, wide: bool = False) -> None:
    rounds.round_tables(store, round_no)
    rows = rounds.table_rows(store, round_no)
    players = {p.id: p for p in store.players()}
    bye_players = store.byes(round_no).get(round_no, [])
    byes = [f"#{p} {players[p].name}" for p in bye_players]
    if as_json:
        _emit(rows, False, True, "", {"round": round_no, "byes": [{"id": p, "name": players[p].name}
                                                                   for p in bye_players]})
        return
    if as_csv:
        for p in bye_players:
            row = {k: "" for k in (rows[0] if rows else {"round": 0, "table": 0, "seat": "", "side": "",
                                                          "id": 0, "name": "", "result": ""})}
            row.update({"round": round_no, "table": "bye", "id": p, "name": players[p].name})
            rows.append(row)
        _emit(rows, True, False, "")
        return
    by_table: dict[int, dict[str, Any]] = {}
    results = {t.number: _result_text(store.result_for(t.id), [s.side for s in t.seats])
               for t in store.tables(round_no)}
    for r in rows:
        t = by_table.setdefault(r["table"], {"table": r["table"], "result": results.get(r["table"], "")})
        who = f"#{r['id']} {r['name']}"
        if store.settings.format == PAIRS and r["seat"] in ("N", "E"):
            t[f"{r['side']} pair"] = r["pair"]
        t[r["seat"]] = who
    _emit(list(by_table.values()), False, False, f"{store.settings.name} — round {round_no}",
          footer=[f"bye: {', '.join(byes)}"] if byes else [], wide=wide)


def _result_text(result: Any, sides: Sequence[str]) -> str:
    """A result as the table shows it: the sides' scores in seating order (``sides``, a side a
    seat: NS before EW, not the alphabetical order the store keeps them in), then who won."""
    if result is None:
        return "to play"
    order = [x for x in dict.fromkeys(sides) if x in result.scores]
    order += [x for x in result.scores if x not in order]
    scores = " ".join(f"{side}={result.scores[side]}" for side in order)  # as --score takes them; never split
    outcome = f"{result.winner} won" if result.winner else "draw"
    if result.kind == "forfeit":
        absent = getattr(result, "absent", ()) or ()
        return f"{scores} · {outcome} (forfeit{': ' + ', '.join(absent) + ' did not play' if absent else ''})"
    return f"{scores} · {outcome}" + ("" if result.verified else " (manual)")


@app.command()
@guarded
def pair(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="Print the tables as CSV."),
    as_json: bool = typer.Option(False, "--json", help="Print the tables as JSON."),
) -> None:
    """Pair the next round: numbered tables, seats and byes (refused while a table lacks its result)."""
    with _open(event) as store:
        plan = rounds.pair_next_round(store)
        _print_round(store, plan.round, as_csv, as_json)


@app.command()
@guarded
def balance(
    event: Path = typer.Argument(..., help="The event file."),
    as_json: bool = typer.Option(False, "--json", help="JSON: every pair of partners and of opponents, with counts."),
) -> None:
    """Who partnered and who opposed whom, and how often (repeats against their lower bound)."""
    from tournament.pairing.schedule import meetings
    with _open(event) as store:
        met = meetings(store.settings, store.players(), store.tables(), store.byes())
        typer.echo(json.dumps(met.to_dict(), ensure_ascii=False, indent=1) if as_json else met.text())


@app.command()
@guarded
def tables(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Which round (default: the last)."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV (one row a seat) for posting at the venue."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
    wide: bool = typer.Option(False, "--wide", help="Every column at full width, however wide the terminal."),
) -> None:
    """Print a round's tables and byes."""
    with _open(event) as store:
        n = round_no if round_no is not None else store.last_round()
        if not n:
            raise UnusableInput("no round has been paired yet (use `tournament pair`)")
        _print_round(store, n, as_csv, as_json, wide)


@app.command()
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
) -> None:
    """Enter results: game records (checked by domrec), a manual score (marked unverified) or a forfeit."""
    from domrec import reader

    # --forfeit twice would silently keep the last side only: `--forfeit NS --forfeit EW` must not
    # store "EW did not play" when the director meant both (a list given once says so, and is refused).
    if forfeits and len(forfeits) > 1:
        raise UnusableInput(f"--forfeit given {len(forfeits)} times: name the side that did not play once, "
                            f"e.g. --forfeit {forfeits[0]} (a table where no side played has no result to enter)")
    forfeit = forfeits[0] if forfeits else None
    with _open(event) as store:
        if match is not None:
            if table is not None or round_no is not None:
                raise UnusableInput("give --match, or --table (and --round), not both")
            from tournament.event import stages as stg
            t = stg.open_table_for_match(store, match)
            table, round_no = t.number, t.round
            if score is None and forfeit is None:
                raise UnusableInput("a manual result needs --score SIDE=N,SIDE=N")
        if forfeit is not None:
            if records or score is not None or winner is not None or table is None:
                raise UnusableInput("a forfeit is --table N --forfeit SIDE, without records, --score or --winner")
            absent = tuple(x.strip() for x in forfeit.split(",") if x.strip())
            typer.echo(res.enter_forfeit(store, table, absent, round_no, replace).summary())
            return
        if table is not None or score is not None:
            if records:
                raise UnusableInput("give record files or --table/--score, not both")
            if table is None or score is None:
                raise UnusableInput("a manual result needs both --table N and --score SIDE=N,SIDE=N")
            scores = {}
            for side, value in _parse_pairs(score, "scores").items():
                if not re.fullmatch(r"-?[0-9]+", value):
                    raise UnusableInput(f"the score of {side} must be a whole number, not {value!r}")
                scores[side] = int(value)
            entry = res.enter_manual(store, table, scores, round_no, replace, winner)
            typer.echo(entry.summary())
            return
        if not records:
            raise UnusableInput("give a record file, or --table and --score for a manual result")
        worst = EXIT_OK
        seen = 0

        def refused(e: TournamentError) -> None:
            nonlocal worst
            _say_error(str(e), getattr(e, "problems", ()))
            worst = max(worst, e.exit_code)

        for src in reader.iter_sources(records):
            seen += 1
            try:
                if src.error:
                    message = src.error.message
                    raise UnusableInput(message if message.startswith(src.label) else f"{src.label}: {message}")
                if src.form == "dgn":  # each game of the text on its own, as the lines of a .jsonl are
                    for game in res.read_dgn(src.text, src.label):
                        try:
                            entry = res.enter_dgn_game(store, game, round_no, replace)
                            typer.echo(f"{game.report.source}: {entry.summary()}")
                        except TournamentError as e:
                            refused(e)
                    continue
                entry = res.enter_record(store, src.text, src.label, round_no, replace)
                typer.echo(f"{src.label}: {entry.summary()}")
            except TournamentError as e:
                refused(e)
        if not seen:  # an empty archive: say so rather than succeed having entered nothing
            _fail(f"no game records in {', '.join(records)}; nothing was entered", EXIT_UNUSABLE)
        raise typer.Exit(worst)


@app.command()
@guarded
def sheets(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Which round (default: the last paired)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The folder to write to (made if missing; "
                                                                       "default: EVENT-games next to the event)."),
    force: bool = typer.Option(False, "--force", help="Replace files already there (and any game recorded "
                                                      "in them)."),
    table: Optional[int] = typer.Option(None, "--table", "-t", min=1, max=MAX_COUNT,
                                        help="Only this table (e.g. a knockout game "
                                             "seated after the others)."),
) -> None:
    """Write each table's pre-filled game file (.dgn, for `domrec record` or typing up) and one printable
    HTML page of score sheets, one sheet a table."""
    from tournament.pages import sheets as sh

    with _open(event) as store:
        written = sh.write_sheets(store, output if output is not None else sh.default_folder(event), round_no,
                                  force, table)
    for path in written.files:
        typer.echo(f"wrote {path}")


@app.command()
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
) -> None:
    """Record a table's game move by move (domrec record, pre-filled with the table's players), then
    enter it as the table's result once it is finished. From a pipe: DGN moves on standard input."""
    from domrec import reader
    from domrec import record_cli
    from domrec.convert import text_of
    from tournament.pages import sheets as sh

    with _open(event) as store:
        t = sh.find_table(store, table, round_no)
        players = {p.id: p for p in store.players()}
        path = output if output is not None else sh.default_folder(event) / sh.dgn_name(t.round, t.number)
        label = reader.display_name(path)
        if path.suffix not in (".dgn", ".json"):
            raise UnusableInput(f"{label}: the game file is a .dgn (or .json) file")
        finished = False
        if path.exists() or path.is_symlink():
            if not path.is_file():
                raise UnusableInput(f"{label} exists and is not a regular file")
            existing = sh.existing_record(path)
            sh.check_file_is_table(store.settings, existing, t, players, label)
            finished = sh.is_finished(existing)
        else:
            if output is None:
                sh.prepare_folder(path.parent)
            elif not path.parent.is_dir():
                raise UnusableInput(f"cannot write {label}: folder {path.parent} does not exist")
        if not finished:
            sh.refuse_if_decided(store, t, replace)
        if not path.exists():
            template = sh.table_record(store.settings, t, players)
            sh.write_file(path, text_of([template], "json" if path.suffix == ".json" else "dgn"))
            typer.echo(f"wrote {label}: round {t.round} table {t.number}")
    code = EXIT_OK
    if not finished:
        code = record_cli.run(str(path), None, [], None, [], None)
        if code == EXIT_UNUSABLE:
            raise typer.Exit(code)
        if not sh.is_finished(sh.existing_record(path)):
            typer.echo(f"{label}: the game is not finished; no result was stored (`tournament record {event} "
                       f"--round {t.round} --table {t.number}` continues it)")
            raise typer.Exit(code)
    try:
        data = reader.read_bytes(path)
    except (OSError, InputError) as e:
        raise UnusableInput(f"{label}: {getattr(e, 'strerror', None) or getattr(e, 'message', e)}") from None
    with _open(event) as store:
        if path.suffix == ".dgn":
            entries = res.enter_dgn(store, data, label, t.round, replace)
        else:
            entries = [res.enter_record(store, data, label, t.round, replace)]
    for entry in entries:
        typer.echo(f"{label}: {entry.summary()}")
    raise typer.Exit(code)


@app.command()
@guarded
def standings(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Standings after this round."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
    stage_id: Optional[int] = typer.Option(None, "--stage", min=1, max=MAX_COUNT,
                                           help="Only one stage's games: 1 is the opening "
                                                "rounds, later stages as `bracket` numbers them."),
    wide: bool = typer.Option(False, "--wide", help="Every column at full width, however wide the terminal "
                                                   "(else the least important go when it is narrow)."),
) -> None:
    """The standings, from scratch; results of unfinished rounds are marked provisional."""
    from tournament.event import finals, stages as stg

    with _open(event) as store:
        last = store.last_round()
        if round_no is not None and not 0 <= round_no <= last:
            raise UnusableInput(f"round {round_no} has not been paired (the last round is {last})")
        final_stage = finals.final_stage(store)
        if final_stage is not None and stage_id in (None, final_stage.id) and round_no is None:
            _final_standings(store, final_stage, stage_id is None, as_csv, as_json, wide)
            return
        if stage_id is None:
            table = st.from_store(store, round_no)
        else:
            if round_no is not None:
                raise UnusableInput("give --round or --stage, not both")
            later = stg.load(store)
            chosen = next((x for x in later if x.id == stage_id), None)
            if stage_id != 1 and chosen is None:
                known = ", ".join(str(x) for x in [1, *(x.id for x in later)])
                raise UnusableInput(f"no stage {stage_id}; stages: {known}")
            table = stg.stage_standings(store, chosen)
        rows = [table.row_dict(s) for s in table.rows]
        note = []
        if table.provisional:
            missing = ", ".join(f"round {r}: {n} table{'s' if n > 1 else ''} missing"
                                for r, n in sorted(table.missing.items()))
            note.append(f"PROVISIONAL — results still missing ({missing})")
        note.append(table.ranked_by())
        if as_json:
            sys.stdout.write(json.dumps(table.to_dict(), ensure_ascii=False, indent=1) + "\n")
            return
        if as_csv:
            for r in rows:
                r["provisional"] = "yes" if table.provisional else ""
                r["ranked_by"] = ", ".join(table.tiebreaks)
        title = f"{store.settings.name} — standings after round {table.through_round}"
        if stage_id is not None:
            title = (f"{store.settings.name} — standings of stage {stage_id} "
                     f"({chosen.name if chosen is not None else 'the opening rounds'})")
        shown = rows if as_csv else [display.display_row(r, table.tiebreaks) for r in rows]
        _emit(shown, as_csv, False, title + (" (provisional)" if table.provisional else ""), footer=note, wide=wide,
              keep=display.ranking_columns(table.tiebreaks))


def _final_standings(store: EventStore, stage: Any, both: bool, as_csv: bool, as_json: bool,
                     wide: bool = False) -> None:
    """A rotating event with a final: the final's result, then (``both``) the standings of the
    rounds, which the final's games are not added into.  CSV: one of the two (``--stage`` chooses).
    The standings of the rounds are shown as without a final (one won-drawn-lost column, the
    ranking keys kept at a narrow terminal), so that a tie-break stays visible."""
    from tournament.event import finals, stages as stg

    rows = finals.rows(store, stage)
    done = finals.finished(store, stage)
    rounds = stg.stage_standings(store, None)
    if as_json:
        doc = {**rounds.to_dict(), "final": {"stage": stage.id, "name": stage.name, "finished": done,
                                             "champion": finals.champion(store, stage), "rows": rows}}
        sys.stdout.write(json.dumps(doc if both else doc["final"], ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv and both:
        _emit([rounds.row_dict(s) for s in rounds.rows], True, False, "")
        return
    title = f"{store.settings.name} — {stage.name} (from round {stage.offset + 1})"
    footer = [] if done else ["PROVISIONAL — the final's games are not all in"]
    if stage.format == stg.FINAL_TABLE:
        footer.append("a final table is ranked by its own games (" + ", then ".join(rounds.tiebreaks) +
                      "), then by the place in the rounds (rounds_place)")
    _emit(rows, as_csv, False, title, footer=footer, wide=wide,
          keep={"place", "name", "rounds_place", *display.ranking_columns(rounds.tiebreaks)})
    if not both:
        return
    note = [f"PROVISIONAL — results still missing ({', '.join(f'round {r}: {n}' for r, n in rounds.missing.items())})"] \
        if rounds.provisional else []
    _emit([display.display_row(rounds.row_dict(s), rounds.tiebreaks) for s in rounds.rows], False, False,
          f"{store.settings.name} — standings of the rounds (1-{rounds.through_round}), before the final",
          footer=note + ["ranked by " + ", then ".join(rounds.tiebreaks)], wide=wide,
          keep=display.ranking_columns(rounds.tiebreaks))


@app.command(name="check")
@guarded
def check_cmd(
    event: Path = typer.Argument(..., help="The event file."),
    as_json: bool = typer.Option(False, "--json", help="Findings as JSON."),
) -> None:
    """Re-validate every record, recompute every standing, check every pairing rule; exit 1 on errors."""
    try:
        store = _open(event)
    except DamagedEventFile:  # too damaged to open: the diagnosis alone
        report = checking.diagnose_file(event)
    else:
        with store, console.progress_bar("checking the event", None):
            report = checking.run(store)
    if as_json:
        sys.stdout.write(json.dumps({"ok": report.ok, "records": report.records, "results": report.results,
                                     "rounds": report.rounds,
                                     "findings": [{"level": f.level, "where": f.where, "message": f.message}
                                                  for f in report.findings]}, ensure_ascii=False) + "\n")
    else:
        for f in report.findings:
            typer.echo(console.paint(f.text(), "invalid" if f.level == "error" else "warning"))
        errors = len(report.errors)
        typer.echo(f"{event}: {report.rounds} rounds, {report.results} results ({report.records} records "
                   f"re-validated): {errors} error{'s' if errors != 1 else ''}, "
                   f"{len(report.findings) - errors} warning{'s' if len(report.findings) - errors != 1 else ''}")
    raise typer.Exit(EXIT_OK if report.ok else EXIT_REFUSED)


@app.command()
@guarded
def info(event: Path = typer.Argument(..., help="The event file.")) -> None:
    """The event's settings and progress."""
    with _open(event) as store:
        s = store.settings
        results = store.results()
        lines = [f"event: {s.name}", f"uuid: {store.uuid}", f"game: {s.game}" + (f" ({s.variant})" if s.variant else ""),
                 f"options: {json.dumps(s.options, ensure_ascii=False) if s.options else 'defaults'}",
                 f"format: {s.format}, tables of {s.table_size}", f"seed: {s.seed}",
                 f"bye scores: {', '.join(f'{k}={v:g}' for k, v in s.bye.items())}",
                 f"ranking: {', then '.join(s.tiebreaks)}",
                 f"time limit: {f'{s.time_limit} minutes a game' if s.time_limit else 'none'}",
                 f"forfeit score: {s.forfeit_score}-0"]
        if s.rounds:
            lines.append(f"schedule: {s.schedule}, {s.rounds} rounds")
        if s.placement:
            lines.append(f"placement points: {', '.join(f'{p:g}' for p in s.placement)}")
        lines.append(f"players: {len(store.players())}; rounds paired: {store.last_round()}; "
                     f"results: {len(results)}")
        typer.echo("\n".join(lines))


@app.command()
@guarded
def simulate(
    event: Path = typer.Argument(..., help="The event file to create (refused if it exists)."),
    game: str = typer.Option("competitive", "--game", help="The game."),
    format: str = typer.Option("rotating", "--format", help=f"{', '.join(FORMATS)}."),
    players_: int = typer.Option(16, "--players", "-p", min=2, max=MAX_COUNT, help="How many players."),
    rounds_: int = typer.Option(5, "--rounds", "-n", min=0, max=MAX_COUNT,
                                help="How many opening rounds (0: only --stage)."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX, help="Same seed, same event."),
    table_size: Optional[int] = typer.Option(None, "--table-size", min=1, max=MAX_COUNT,
                                             help="Players a table (individual format)."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
    stage: Optional[str] = typer.Option(None, "--stage", help="After the opening rounds (--rounds 0 for none): "
                                        "single, double, multi, roundrobin or groups (groups then a knockout)."),
    third_place: bool = typer.Option(False, "--third-place", help="Knockout: play a third-place game."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="Knockout: a match is won by the first to win N games."),
    advance: int = typer.Option(2, "--advance", min=1, max=MAX_COUNT,
                                help="Multi-player knockout: the top K of each table go "
                                     "on; groups: the top K of each group."),
    groups: int = typer.Option(2, "--groups", min=1, max=MAX_COUNT, help="Groups (--stage groups)."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the standings enter the stage."),
) -> None:
    """Run a whole event with simulated games (domrec simulate), entered through the result path."""
    options = _parse_options(option)
    if format == PAIRS and players_ % 2:
        raise UnusableInput("a pairs event needs an even number of players")
    spec = then = None
    if stage is not None:
        seeding = {"seeding": "standings" if rounds_ else "random", "top": top}
        if stage == "groups":
            spec = {"format": "roundrobin", "groups": groups, **seeding}
            then = {"format": "single", "seeding": "groups", "per_group": advance, "third_place": third_place,
                    "wins_needed": first_to}
        elif stage == "roundrobin":
            spec = {"format": "roundrobin", **seeding}
        elif stage in ("single", "double", "multi"):
            spec = {"format": stage, "third_place": third_place, "wins_needed": first_to, "advance": advance,
                    **seeding}
        else:
            raise UnusableInput(f"unknown --stage {stage!r}; stages: single, double, multi, roundrobin, groups")
    with console.progress_bar("simulating", rounds_ if spec is None else None, enabled=not quiet) as bar:
        def say(line: str) -> None:  # a line a round (or a stage's games), above the bar on a terminal
            bar.say(line)
            bar.advance()

        summary = simulate_event(event, game, format, players_, rounds_, seed, table_size, options or None,
                                 variant, progress=None if quiet else say, stage=spec, then=then)
    typer.echo(f"simulated {summary.path}: {summary.players} players, {summary.rounds} rounds, "
               f"{summary.games} games, {summary.byes} byes")


def _seed_names(seeds: Optional[str], seeds_file: Optional[Path]) -> list[str]:
    if seeds and seeds_file:
        raise UnusableInput("give --seeds or --seeds-file, not both")
    if seeds_file is not None:
        text = pl.read_list_file(seeds_file, "a seeds file")
        return [line.strip() for line in text.splitlines() if line.strip()]
    return [n.strip() for n in seeds.split(",") if n.strip()] if seeds else []


def _print_stage(store: EventStore, stage: Any) -> None:
    from tournament.pairing import brackets as br
    from tournament.event import stages as stg

    names = stg.side_names(store, stage)
    if stage.format == stg.FINAL_TABLE:
        from tournament.event import finals
        typer.echo(f"{store.settings.name} — {stage.name} (rounds {stage.offset + 1}-{stage.offset + 3})")
        typer.echo(finals.draw_text(store, stage))
    elif stage.knockout:
        state = stg.state_of(store, stage)
        rounds_of = {r: stage.event_round(r) for r in range(1, len(state.bracket.round_labels) + 1)}
        typer.echo(f"{store.settings.name} — {stage.name}")
        typer.echo(br.draw_text(state, names, rounds_of))
    else:
        sched = stage.schedule()
        typer.echo(f"{store.settings.name} — {stage.name}: {len(sched.rounds)} rounds, from round "
                   f"{stage.offset + 1}")
        from tournament.pairing.roundrobin import group_name
        for gi, members in enumerate(sched.groups):
            if len(sched.groups) > 1:
                typer.echo(f"group {group_name(gi)}: " + ", ".join(names.get(u, str(u)) for u in members))


@app.command()
@guarded
def knockout(
    event: Path = typer.Argument(..., help="The event file."),
    format: str = typer.Option("single", "--format", help="single, double or multi (multi-player tables)."),
    seeding: str = typer.Option("standings", "--seeding", help="list, standings, random or groups."),
    seeds: Optional[str] = typer.Option(None, "--seeds", help="--seeding list: names or numbers, best first, "
                                                              "comma-separated."),
    seeds_file: Optional[Path] = typer.Option(None, "--seeds-file", help="--seeding list: one name a line."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the seeding enter."),
    per_group: int = typer.Option(2, "--per-group", min=1, max=MAX_COUNT,
                                  help="--seeding groups: how many of each group go on."),
    third_place: bool = typer.Option(False, "--third-place", help="Single elimination: a third-place game."),
    reset: bool = typer.Option(True, "--reset/--no-reset", help="Double elimination: a second grand final when "
                                                                "the losers' champion wins the first."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="A match is won by the first to win N games."),
    advance: int = typer.Option(2, "--advance", min=1, max=MAX_COUNT,
                                help="Multi-player knockout: the top K of each table go on."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Start a knockout stage: draw the bracket from the seeding and seat the first games."""
    from tournament.event import stages as stg

    with _open(event) as store:
        stage = stg.create_stage(store, format, seeding, _seed_names(seeds, seeds_file), top, per_group,
                                 third_place=third_place, reset=reset, wins_needed=first_to, advance=advance,
                                 name=name)
        _print_stage(store, stage)


@app.command()
@guarded
def roundrobin(
    event: Path = typer.Argument(..., help="The event file."),
    seeding: str = typer.Option("random", "--seeding", help="list, standings or random (who goes in which group)."),
    seeds: Optional[str] = typer.Option(None, "--seeds", help="--seeding list: names or numbers, comma-separated."),
    seeds_file: Optional[Path] = typer.Option(None, "--seeds-file", help="--seeding list: one name a line."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the seeding enter."),
    double: bool = typer.Option(False, "--double", help="Everyone meets everyone twice (seats swapped)."),
    groups: int = typer.Option(1, "--groups", min=1, max=MAX_COUNT,
                               help="Groups played side by side (then: tournament knockout "
                                    "--seeding groups)."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Start a round-robin stage (or groups): every round is seated at once, by the circle method."""
    from tournament.event import stages as stg

    with _open(event) as store:
        stage = stg.create_stage(store, "roundrobin", seeding, _seed_names(seeds, seeds_file), top,
                                 groups=groups, double=double, name=name)
        _print_stage(store, stage)


@app.command()
@guarded
def final(
    event: Path = typer.Argument(..., help="The event file (a rotating-partner event)."),
    top: Optional[int] = typer.Option(None, "--top", min=1, max=MAX_COUNT,
                                      help="How many of the standings play the final: final tables of four "
                                           "take 4, 8, 12, … (table 1: places 1-4, table 2: places 5-8, …); "
                                           "default 4, or one block of --pairs when that is more."),
    pairs: Optional[str] = typer.Option(None, "--pairs", help="A knockout of pairs formed from the standings "
                                        "instead: which places partner within each block, e.g. 1-4,2-3 (1st "
                                        "with 4th, 2nd with 3rd, 5th with 8th, …)."),
    format: str = typer.Option("single", "--format", help="With --pairs: single or double elimination."),
    third_place: bool = typer.Option(False, "--third-place", help="With --pairs: a third-place game."),
    reset: bool = typer.Option(True, "--reset/--no-reset", help="With --pairs --format double: a second "
                                                                "grand final when the losers' champion wins."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="With --pairs: a match is won by the first to win N games."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Draw the final of a rotating-partner event from the standings of its rounds: final tables of four
    (three games, each partnering each once), or a knockout of pairs formed from the standings."""
    from tournament.event import finals

    with _open(event) as store:
        stage = finals.create_final(store, top, pairs, format, third_place=third_place, reset=reset,
                                    wins_needed=first_to, name=name)
        _print_stage(store, stage)
        note = finals.cut_note(store, stage)
        if note:
            typer.echo(note, err=True)


@app.command()
@guarded
def bracket(
    event: Path = typer.Argument(..., help="The event file."),
    stage_id: Optional[int] = typer.Option(None, "--stage", min=1, max=MAX_COUNT,
                                           help="Which stage (default: the last)."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """Draw the knockout bracket (or the round-robin groups) as text: who plays, who won, what is due."""
    from tournament.pages import report as rp
    from tournament.event import stages as stg

    with _open(event) as store:
        all_stages = stg.load(store)
        if not all_stages:
            raise UnusableInput("this event has no knockout or round-robin stage (start one with `tournament "
                                "knockout` or `tournament roundrobin`)")
        chosen = all_stages[-1] if stage_id is None else next((x for x in all_stages if x.id == stage_id), None)
        if chosen is None:
            raise UnusableInput(f"no stage {stage_id}; stages: {', '.join(str(x.id) for x in all_stages)}")
        if as_json:
            doc = next(d for d in rp.event_data(store)["stages"] if d["id"] == chosen.id)
            sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
            return
        _print_stage(store, chosen)
        if chosen.format == stg.ROUND_ROBIN:
            for gi in range(len(chosen.schedule().groups)):
                t = stg.group_standings(store, chosen, gi)
                _emit([display.display_row(t.row_dict(r), t.tiebreaks) for r in t.rows], False, False,
                      rp._group_label(gi, len(chosen.schedule().groups)))


def _write_output(path: Path, text: str, kind: Any, force: bool = False) -> None:
    """By :mod:`domrec.output`'s rules: written beside the target and renamed into place (a reader
    never sees half a file), never over a link, a device, a FIFO, a folder or a database, and over
    a file tournament did not write only with --force; ``-`` is standard output."""
    from domrec import output as outputs

    try:
        outputs.write_text(path, text, kind, force)
    except outputs.OutputError as e:
        raise UnusableInput(e.message) from None


@app.command()
@guarded
def report(
    event: Path = typer.Argument(..., help="The event file."),
    output: Path = typer.Option(..., "--output", "-o", help="The HTML file to write (- for stdout)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing file that is not an earlier report."),
    screen: bool = typer.Option(False, "--screen", help="The projector page instead: the current round's "
                                                        "seating by player name in large type, then the standings."),
) -> None:
    """Write one self-contained HTML page of the event: standings, bracket, rounds and tables."""
    from tournament.pages import report as rp

    from domrec import output as outputs

    with _open(event) as store:
        data = rp.event_data(store)
        replays = {}
        if not screen and str(output) != "-":  # replay pages beside the report (none beside stdout)
            try:
                outputs.check(output, rp.REPORT, force)
                replays = rp.write_replays(store, output, force)
            except outputs.OutputError as e:
                raise UnusableInput(e.message) from None
    page = rp.screen_page(data) if screen else rp.html_page(data, replays)
    _write_output(output, page, rp.REPORT, force)
    if str(output) != "-":
        typer.echo(f"wrote {output}")


@app.command()
@guarded
def export(
    event: Path = typer.Argument(..., help="The event file."),
    output: Path = typer.Option(..., "--output", "-o", help="JSON: the file to write (- for stdout); CSV: a "
                                                            "folder (made if missing) for players, standings, "
                                                            "tables, matches, placings .csv."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV files instead of one JSON file."),
    force: bool = typer.Option(False, "--force", help="Replace existing files that tournament export did not "
                                                      "write."),
) -> None:
    """Export everything (players, standings, every table and result, every stage's draw) as JSON or CSV."""
    import io
    from domrec import output as outputs
    from tournament.pages import report as rp

    with _open(event) as store:
        data = rp.event_data(store)
    if not as_csv:
        _write_output(output, rp.export_json(data), rp.EXPORT, force)
        if str(output) != "-":
            typer.echo(f"wrote {output}")
        return
    if str(output) == "-":
        raise UnusableInput("--csv writes a folder of CSV files; give a folder, not -")
    if output.exists() and not output.is_dir():
        raise UnusableInput(f"{output} is not a folder; --csv writes a folder of CSV files")
    texts = []
    for stem, (columns, rows) in rp.csv_tables(data).items():
        buf = io.StringIO()
        rp.write_csv(buf, columns, rows)
        texts.append((output / f"{stem}.csv", buf.getvalue()))
    for path, text in texts:  # every file checked before any is written
        try:
            outputs.check(path, rp.csv_kind(text), force)
        except outputs.OutputError as e:
            raise UnusableInput(f"{e.message}; nothing was written") from None
    try:
        output.mkdir(exist_ok=True)
    except OSError as e:
        raise UnusableInput(f"cannot make {output}: {e.strerror}") from None
    for path, text in texts:
        _write_output(path, text, rp.csv_kind(text), force)
    typer.echo(f"wrote {output}/ (players, standings, tables, matches, placings .csv)")


@app.command()
@guarded
def ratings(
    ratings_file: Path = typer.Argument(..., help="The ratings file (created by the first --add)."),
    add: list[Path] = typer.Option([], "--add", help="Import an event's results (repeatable; the same event "
                                                     "again counts once)."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """Ratings across events (openskill): import events, list rating and uncertainty."""
    from tournament.event import ratings as rt

    # Every event file is opened (and so checked) before the ratings file is opened or created:
    # a missing or foreign event file must not leave a new, empty ratings file behind.
    # The bar (a terminal only) runs while events are imported and everything is rated; what
    # each import did is said after it, so that no line is written across the bar.
    stores: list[EventStore] = []
    imported: list[str] = []
    try:
        with console.progress_bar("rating", None):
            for path in add:
                stores.append(_open(path))
            book = rt.open_ratings(ratings_file, create=bool(add))
            try:
                for path, store in zip(add, stores):
                    imported.append(book.import_event(store, str(path)).summary())
                rows = [r.row() for r in book.ratings()]
                events = book.events()
            finally:
                book.close()
    finally:
        for store in stores:
            store.close()
        for line in imported:
            typer.echo(line, err=as_csv or as_json)
    if as_json:
        sys.stdout.write(json.dumps({"events": events, "ratings": rows}, ensure_ascii=False, indent=1) + "\n")
        return
    _emit(rows, as_csv, False, f"ratings: {len(events)} event(s), {sum(e['games'] for e in events)} games",
          footer=["rating = mu - 3 sigma (openskill Plackett-Luce); sigma is the uncertainty"])


def _whole_scores(text: str) -> dict[str, int]:
    scores = {}
    for side, value in _parse_pairs(text, "scores").items():
        if not re.fullmatch(r"-?[0-9]+", value):
            raise UnusableInput(f"the score of {side} must be a whole number, not {value!r}")
        scores[side] = int(value)
    return scores


@app.command()
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

    with _open(event) as store:
        if (record is None) == (score is None):
            raise UnusableInput("give the table's game record, or --score SIDE=N,SIDE=N, (not both)")
        if score is not None:
            entry = res.amend_manual(store, round_no, table, _whole_scores(score), winner, by, reason)
        else:
            if winner is not None:
                raise UnusableInput("--winner goes with --score; a record's winner is the one domrec computes")
            sources = list(reader.iter_sources([record]))
            if len(sources) != 1:
                raise UnusableInput(f"{record} holds {len(sources)} records; an amendment takes the one game "
                                    f"of the table")
            src = sources[0]
            if src.error:
                message = src.error.message
                raise UnusableInput(message if message.startswith(src.label) else f"{src.label}: {message}")
            amend_one = res.amend_dgn if src.form == "dgn" else res.amend_record
            entry = amend_one(store, src.text, src.label, round_no, table, by, reason)
        typer.echo(entry.summary())


@app.command()
@guarded
def history(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV, one row a change."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """The audit trail: every result replaced or amended — when, by whom, old and new values, why."""
    from tournament.event import audit

    with _open(event) as store:
        changes = audit.history(store)
    if as_json:
        sys.stdout.write(json.dumps([c.to_dict() for c in changes], ensure_ascii=False, indent=1) + "\n")
    elif as_csv:
        from tournament.pages.report import write_csv
        rows = [c.csv_row() for c in changes]
        write_csv(sys.stdout, list(rows[0]) if rows else list(audit.CSV_COLUMNS), rows)
    elif not changes:
        typer.echo(f"{event}: no result has been amended or replaced")
    else:
        for c in changes:
            typer.echo(c.text())


def main() -> None:
    app()


if __name__ == "__main__":
    main()

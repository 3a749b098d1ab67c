"""The ``domrec`` command: a thin layer over the library.

Exit codes: 0 every record valid; 1 some record breaks the rules; 2 some
input could not be judged (not JSON, wrong shape, unknown game or version,
missing file) or the command was used wrongly.  ``validate`` whose reader has gone (``| head``),
and ``convert`` whose stderr's has, exit 141, as a program ended by SIGPIPE (docs/archives.md).
"""

from __future__ import annotations

import json
import sys
from importlib import resources
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from domrec import console, games, output as outputs, parallel, reader, simulate as sim
from domrec.errors import DomrecError, InputError, one_line
from domrec.games.base import ignored_options
from domrec.validate import Problem, Report, batch_mode, validate_text

console.plain_help_types()
app = typer.Typer(cls=console.OneLineErrors, add_completion=True, no_args_is_help=True,
                  context_settings=console.CONTEXT_SETTINGS,
                  help="Check, simulate and explain domino game records (format domrec 1).")

EXIT_OK, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2
#: ``validate``'s exit code when its reader has gone (``domrec validate big | head -1``): the
#: verdicts after it were not all given, so neither 0 nor 1 can be said; a program ended by
#: SIGPIPE exits so (128 + 13), as SIGTERM's 143 (docs/archives.md).
EXIT_READER_GONE = 141


@app.callback()
def _console(ctx: typer.Context, version: bool = console.version_option("domrec")) -> None:
    """Whatever a record holds (a lone surrogate from a "\\ud800" escape, a file name
    that is not UTF-8), writing it must not end in a traceback: such characters are
    written as backslash escapes, which in --json output are JSON's own escapes."""
    console.closed_streams()
    outputs.new_command()  # (the files a command reads are its own: forgotten when it ends)
    ctx.call_on_close(outputs.new_command)
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def _safe_validate(text: bytes, label: str) -> Report:
    """Validate, turning an unforeseen crash into a report instead of a traceback."""
    try:
        return validate_text(text, label)
    except Exception as e:  # an engine bug must not stop a whole archive
        problem = Problem("", f"domrec could not check this record because of an internal error "
                              f"({type(e).__name__}: {e}); please report it", "", "internal")
        return Report(label, None, "unusable", (problem,))


def _said(e: DomrecError) -> str:
    """An error as one line: its pointer only where it points into a record."""
    if isinstance(e, InputError) and not e.pointer:
        return one_line(e.message)
    return one_line(str(e))


def _style(status: str) -> str | None:
    """A verdict line's colour on a terminal: none when the record is valid."""
    return None if status == "valid" else status


#: A verdict's exit code (any other status: unusable).
_CODES = {"valid": EXIT_OK, "invalid": EXIT_INVALID}


def _exit_code(report: Report) -> int:
    return _CODES.get(report.status, EXIT_UNUSABLE)


def _with_progress(sources: Iterator[reader.Source], total_bytes: int | None) -> Iterator[reader.Source]:
    """A progress bar on a terminal (by bytes read when the inputs' size is known), none when piped.

    None either when the verdicts go to the same terminal: they are written while the bar runs,
    and the bar's line would be left glued in front of the first verdict (``checking ━━━ 0
    records -:--:--c.json: INVALID``).  ``domrec validate … > out.txt`` shows it, as simulate does."""
    return console.track(sources, "checking", total_bytes, "records",
                         size=(lambda src: len(src.text or b"")) if total_bytes else None,
                         enabled=not sys.stdout.isatty())


#: The verdicts on one source; one function for one process and for worker processes.
_reports = parallel.reports_of


def _total_bytes(paths: list[str]) -> int | None:
    if "-" in paths:
        return None
    return sum(reader.input_files(paths)) or None


@app.command()
@console.printable_command(lambda as_json=False, **_: as_json)  # --json is data
def validate(
    paths: list[str] = typer.Argument(..., help="Record files (*.json, *.dgn), folders, *.jsonl or *.dgn "
                                                "archives, or - for stdin."),
    as_json: bool = typer.Option(False, "--json", help="One JSON report per record, one per line."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Only print records with problems."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Also give each problem of a typed (DGN) "
                                                               "record the JSON Pointer into the record read."),
    from_: Optional[str] = typer.Option(None, "--from", help="What standard input, or a file not named "
                                                            "*.json, *.jsonl or *.dgn, holds: json, jsonl or dgn."),
    jobs: Optional[str] = typer.Option(None, "--jobs", "-j", help="Worker processes: a number, or 0 or auto for "
                                                                  "every core (default: every core for a large "
                                                                  "input, one otherwise)."),
    summary: Optional[str] = typer.Option(None, "--summary", help="Also write one row per record to this *.csv "
                                                                  "or *.jsonl file."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --summary file that is not an "
                                                      "earlier domrec summary."),
    dask: Optional[str] = typer.Option(None, "--dask", help="Check on Dask: local (a cluster of this machine's "
                                                            "processes) or a scheduler's address, tcp://host:8786 "
                                                            "(needs pip install 'domrec\\[dask]')."),
) -> None:
    """Replay every record through the rules and check every claimed score."""
    for given in paths:  # (the records read are never the --summary written, not even with --force)
        outputs.reads(given)
    if dask is not None:
        if jobs is not None:
            typer.echo("error: --jobs and --dask both say where to check: give one of them", err=True)
            raise typer.Exit(EXIT_UNUSABLE)
        raise typer.Exit(_validate_dask(paths, dask, summary, force, as_json, quiet))
    if paths.count("-") > 1:
        typer.echo("error: standard input (-) can be read only once", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    if from_ not in (None, "json", "jsonl", "dgn"):
        typer.echo(f"error: --from is json, jsonl or dgn, not {one_line(from_)!r}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    n_jobs = _jobs(jobs, paths)
    if summary is not None:
        try:
            summary_form = _summary_form(summary)
            outputs.check(summary, outputs.SUMMARY, force)
        except (ValueError, DomrecError) as e:
            typer.echo(f"error: {_said(e) if isinstance(e, DomrecError) else one_line(str(e))}", err=True)
            raise typer.Exit(EXIT_UNUSABLE)
    batch_mode()
    try:
        if summary is None:
            with outputs.to_stdout():
                worst = _validate(paths, from_, n_jobs, as_json, quiet, None, verbose)
        else:
            from domrec.summary import Writer

            with outputs.writing(summary, outputs.SUMMARY, force) as stream, outputs.to_stdout():
                worst = _validate(paths, from_, n_jobs, as_json, quiet, Writer(stream, summary_form), verbose)
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except KeyboardInterrupt:
        _interrupted(summary if summary is not None else "-")
    except outputs.ReaderGone:  # nothing more is wanted, and nothing to say (no summary: not every verdict is in)
        raise typer.Exit(EXIT_READER_GONE)
    raise typer.Exit(worst)


#: The most worker processes ``-j`` asks for (docs/archives.md); the most games ``simulate`` plays (README).
MAX_JOBS, MAX_GAMES = 1024, 1_000_000


def _jobs(jobs: str | None, paths: list[str]) -> int:
    """``-j``'s value as a number of worker processes (see :func:`domrec.parallel.jobs_for`)."""
    if jobs is None:
        return parallel.jobs_for(paths, None)
    text = jobs.strip().lower()
    if text == "auto":
        text = "0"
    if not (text.isascii() and text.isdigit()) or int(text) > MAX_JOBS:
        typer.echo(f"error: --jobs is a number of worker processes, 1 to {MAX_JOBS:,} (0 or auto: every core), "
                   f"not {one_line(jobs)!r}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    return parallel.jobs_for(paths, int(text))


def _summary_form(path: str) -> str:
    from domrec.summary import form_of

    if path == "-":
        raise ValueError("--summary - would mix the rows with the verdicts on standard output; name a file")
    return form_of(path)


def _validate(paths: list[str], from_: str | None, jobs: int, as_json: bool, quiet: bool, rows: Any,
              verbose: bool = False) -> int:
    """Print the verdicts (and write their summary rows); the exit code they make."""
    sources = reader.iter_sources(paths, stdin_form=from_)
    if jobs <= 1:
        return _print((r for src in _with_progress(sources, _total_bytes(paths)) for r in _reports(src)),
                      as_json, quiet, rows, verbose)
    checking = parallel.check(sources, jobs)
    try:  # the bar counts the records as their verdicts come back
        return _print(console.track(checking, "checking", None, "records", enabled=not sys.stdout.isatty()),
                      as_json, quiet, rows, verbose)
    finally:
        checking.close()  # Ctrl-C, a closed pipe: the workers are stopped at once, not at exit


def _print(verdicts: Iterator[Report], as_json: bool, quiet: bool, rows: Any, verbose: bool = False) -> int:
    worst = EXIT_OK
    counts = {"valid": 0, "invalid": 0, "unusable": 0}
    out = sys.stdout
    for report in verdicts:
        if rows is not None:
            rows.write(report)
        counts[report.status] += 1
        worst = max(worst, _exit_code(report))
        if quiet and report.valid:  # (--json too: only the reports of records with problems)
            continue
        if as_json:
            out.write(json.dumps(report.to_dict(), ensure_ascii=False) + "\n")
            continue
        console.write_line(out, report.summary(), _style(report.status))
        for problem in report.problems:
            console.write_line(out, f"  {problem.text(verbose)}", "problem")
        if report.note and not report.valid:
            out.write(f"  note: {one_line(report.note)}\n")
        elif report.note and report.valid and not report.finished:
            out.write(f"  note: {one_line(report.note)}\n")
        elif report.note:  # a finished valid record: the rule options that were ignored
            out.write(f"  note: {one_line(report.note)}\n")
    if not as_json:
        total = sum(counts.values())
        typer.echo(f"{total} record{'s' if total != 1 else ''}: {counts['valid']} valid, "
                   f"{counts['invalid']} invalid, {counts['unusable']} unusable", err=True)
    return worst


def _validate_dask(paths: list[str], address: str, summary: str | None, force: bool,
                   as_json: bool, quiet: bool) -> int:
    """``validate --dask``: the verdicts from :mod:`domrec.cluster`, printed as on one core."""
    from domrec import cluster

    client = closing = None
    try:
        if summary is not None:
            _summary_form(summary)
        client, closing = cluster.client_for(address)
        batch_mode()
        with outputs.to_stdout():
            return _print(cluster.validate_shards(paths, summary, client, force), as_json, quiet, None)
    except outputs.ReaderGone:
        return EXIT_READER_GONE
    except (DomrecError, ValueError) as e:
        typer.echo(f"error: {_said(e) if isinstance(e, DomrecError) else one_line(str(e))}", err=True)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        _interrupted(summary if summary is not None else "-")
        return EXIT_UNUSABLE
    finally:
        for held in (client, closing):
            if held is not None:
                held.close()


@app.command()
@console.printable_command(lambda **_: True)  # the schema is data
def schema() -> None:
    """Print the JSON Schema (2020-12) of record format version 1."""
    text = resources.files("domrec").joinpath("schema/domrec-1.schema.json").read_text(encoding="utf-8")
    try:
        outputs.write_text("-", text)
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except BrokenPipeError:  # `domrec schema | head`: the reader has had enough
        pass


@app.command()
@console.printable_command(lambda output="-", **_: output == "-")  # the records written are data
def simulate(
    game: str = typer.Argument(..., help="broadway, competitive, horse-race, castle-rock or domino-roads."),
    games_: int = typer.Option(1, "--games", "-n", min=1, max=MAX_GAMES, help=f"How many games (1 to {MAX_GAMES:,})."),
    seed: int = typer.Option(0, "--seed", help="Same seed, same games, byte for byte."),
    output: str = typer.Option("-", "--output", "-o", help="File to write: JSON Lines, or DGN for *.dgn "
                                                           "(- for stdout)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing file that is not an earlier "
                                                      "simulate output."),
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1, max=1000,
                                           help="Number of players."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant (celko for Horse Race)."),
    no_accidents: bool = typer.Option(False, "--no-accidents", help="No accidents: no tile shown out of turn, "
                                                                    "no closing passes written, default seats "
                                                                    "and draws only (for benchmarks)."),
) -> None:
    """Play seeded random legal games through the engines and write them as records.

    Now and then an accident happens, as at a real table (a Broadway tile shown
    out of turn, a blocked hand's closing passes written, other seat labels,
    draws written another way); --no-accidents turns them off."""
    try:
        options = games.parse_options(option) or None
        template = sim.make_record(game, players, options, variant)
        _check_template(template)
        for note in ignored_options(games.engine(game), template):
            typer.echo(f"note: {note}", err=True)
    except DomrecError as e:
        typer.echo(f"error: {sim.as_typed(e) or _said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    try:
        with outputs.writing(output, outputs.SIMULATED, force) as stream:
            as_dgn = output.endswith(".dgn")
            records = sim.simulate(game, games_, seed, players, options, variant, accidents=not no_accidents)
            shown = output != "-" or not sys.stdout.isatty()  # no bar between records on the same terminal
            for k, record in enumerate(console.track(records, "simulating", games_, enabled=shown)):
                record = sim.marked(record)
                if as_dgn:
                    from domrec import notation

                    stream.write(("\n" if k else "") + notation.dumps(record))
                else:
                    stream.write(sim.dumps(record) + "\n")
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except KeyboardInterrupt:
        _interrupted(output)
    except BrokenPipeError:  # `domrec simulate … | head`: the reader has had enough
        raise typer.Exit(EXIT_OK)


def _interrupted(output: Any) -> None:
    """Ctrl-C while writing: the temporary file is gone and the target is as it was."""
    if str(output) == "-":
        typer.echo("error: interrupted", err=True)
    else:
        typer.echo(f"error: interrupted: nothing written; {one_line(str(output))} is as it was", err=True)
    raise typer.Exit(EXIT_UNUSABLE)


@app.command()
@console.printable_command(lambda **_: True)  # the records written are data
def convert(
    source: str = typer.Argument(..., help="A *.json, *.jsonl or *.dgn file, or - for standard input."),
    output: str = typer.Option("-", "--output", "-o", help="The file to write (*.json, *.jsonl, *.dgn), "
                                                           "or - for standard output (then say --to)."),
    to: Optional[str] = typer.Option(None, "--to", help="json, jsonl or dgn (default: by the output's suffix)."),
    from_: Optional[str] = typer.Option(None, "--from", help="json, jsonl or dgn (default: by the input's "
                                                              "suffix; standard input is told apart by its start)."),
    fill_claims: bool = typer.Option(False, "--fill", help="Write every claim the engine computes: move "
                                                           "scores, hand results, the game's result."),
    force: bool = typer.Option(False, "--force", help="Replace the output file if it exists."),
) -> None:
    """Convert records between JSON, JSON Lines and DGN (the text notation)."""
    from domrec import convert as conv

    form = to or (conv.form_of(output) if output != "-" else None)
    if form not in conv.FORMS:
        said = f"--to {to}" if to else (f"the suffix of {output}" if output != "-" else "no --to")
        typer.echo(f"error: say the output's form with --to json, jsonl or dgn ({one_line(said)})", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    if from_ not in (None, *conv.FORMS):
        typer.echo(f"error: --from is json, jsonl or dgn, not {one_line(from_)!r}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    try:  # (Ctrl-C while the records are read, as while they are written: nothing written)
        run = conv.Conversion()
        outputs.reads(source)  # (never replaced by its own conversion, not even with --force)
        for outcome in conv.outcomes(source, from_, form, fill_claims):
            if outcome.report is not None:
                _tell(outcome.report, outcome.said)
            if outcome.refusal is not None:
                typer.echo(f"error: {outcome.refusal}", err=True)  # (the others are written; JSON keeps it)
            run.take(outcome)
        worst = _CODES.get(run.worst, EXIT_UNUSABLE)
        if not run.writes:
            if run.worst == "valid":
                typer.echo("error: no record to convert", err=True)
            typer.echo("nothing written", err=True)
            raise typer.Exit(EXIT_INVALID if run.worst == "invalid" else EXIT_UNUSABLE)
        try:
            outputs.write_text(output, conv.text_of(run.records, form), outputs.RECORDS, force)
        except BrokenPipeError:  # `convert … --to jsonl | head`: the records are data, read as far as wanted
            raise typer.Exit(worst)
        if (written := run.written(output)) is not None:  # (a file without some of its input's games says so)
            typer.echo(written, err=True)
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except KeyboardInterrupt:
        _interrupted(output)
    except BrokenPipeError:  # standard error's reader has gone: what was left out was not all told (as validate)
        raise typer.Exit(EXIT_READER_GONE)
    raise typer.Exit(worst)


def _tell(report: Report, said: str = "") -> None:
    """A verdict on standard error: its summary line (``said`` after it) and its problems."""
    console.echo_err(report.summary() + said, _style(report.status))
    for problem in report.problems:
        console.echo_err(f"  {problem.text()}", "problem")


@app.command()
@console.printable_command()
def record(
    target: str = typer.Argument(..., help="A game to record (broadway, competitive, horse-race, castle-rock, "
                                           "domino-roads), or an unfinished .dgn/.json file to continue."),
    output: Optional[str] = typer.Option(None, "--output", "-o", help="The file to save to (*.dgn or *.json); "
                                                                      "saved after every accepted move."),
    player: list[str] = typer.Option([], "--player", help="SEAT=Name (repeatable), e.g. --player N=Ana."),
    players: Optional[int] = typer.Option(None, "--players", "-p", min=1, max=1000,
                                           help="Number of players."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant (celko for Horse Race)."),
) -> None:
    """Record a game move by move, each move checked as it is entered.

    At a terminal it asks for the players and takes moves with completion; with
    standard input from a file or a pipe it reads DGN text token by token, with
    the same checks; the first refused line is reported on stderr and the recording
    stops there, the game saved up to the line before it (exit 1)."""
    from domrec import record_cli

    raise typer.Exit(record_cli.run(target, output, player, players, option, variant))


def _check_template(template: Any) -> None:
    """Options, variant and player count go through the same checks as any record."""
    from domrec import games, record as rec

    reader.load_dict(rec.unstructure(template))
    games.engine(template.game).start(template)


@app.command()
@console.printable_command(lambda html=None, svg=None, **_: html is not None or str(svg) == "-")
def explain(
    path: Path = typer.Argument(..., help="A record file (or a *.jsonl archive with --record)."),
    hand: int = typer.Option(1, "--hand", "-k", min=1, help="Which hand, counting from 1."),
    record_no: int = typer.Option(1, "--record", "-r", min=1, help="Which record of a *.jsonl archive."),
    svg: Optional[Path] = typer.Option(None, "--svg", help="Also draw the table as SVG (- for stdout; the "
                                                          "story then goes to stderr)."),
    move: Optional[int] = typer.Option(None, "--move", "-m", min=0, max=1_000_000,
                                       help="The position --svg draws: after this many moves of the hand "
                                            "(0: the deal; default: the end of the hand)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing --svg or --html file that is not "
                                                      "an earlier explain picture or replay page."),
    html: Optional[Path] = typer.Option(None, "--html", help="Instead, write the whole record as a replay page "
                                                            "to step through (- for stdout); a record of more "
                                                            "than 2,000 moves is refused."),
) -> None:
    """Tell one hand move by move: the table, everyone's tiles, the points, the final arithmetic."""
    from domrec.explain import explain as tell, past_reading

    if move is not None and svg is None:
        typer.echo("error: --move picks the position --svg draws; give --svg too", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    outputs.reads(path)  # (never replaced by its own picture or page, not even with --force)
    try:
        record, label, read = _load_one(path, record_no)  # (read: a DGN game's verdict, by line:column)
    except _NoGame as e:
        # A text whose reading broke a rule it needs (a tile played twice): told up to that move (see past_reading).
        record, label, read = e.record, e.report.source, e.report
        if html is None and (past := past_reading(record, hand, move, read)) is not None:
            typer.echo(f"error: {'no picture: ' if svg is not None else ''}{past}", err=True)
            raise typer.Exit(EXIT_INVALID)
    except InputError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    if html is not None:
        raise typer.Exit(_replay_page(record, label, html, force, with_svg=svg is not None, read=read))
    count = len(record.hands)
    if hand > count:
        typer.echo(f"error: {label} has {count} hand{'' if count == 1 else 's'}; there is no hand {hand}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    lines, report = tell(record, hand, label, read)
    if svg is not None:
        _draw(record, label, hand, move, svg, force, lines, report)
    try:
        outputs.write_text("-", "\n".join(lines) + "\n")
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except BrokenPipeError:  # `domrec explain … | head`: the verdict is known all the same
        pass
    raise typer.Exit(_exit_code(report))


def _draw(record: Any, label: str, hand: int, move: int | None, svg: Path, force: bool, lines: list[str],
          report: Report) -> None:
    """``explain --svg``: the picture of one position, or one line saying why there is none (nothing written)."""
    from domrec.pictures.positions import PictureError, picture

    try:
        drawing, _ = picture(record, hand, move, label, report)
    except PictureError as e:
        # No such move is a usage mistake; a hand or move the replay never reached is the record's fault.
        code = EXIT_UNUSABLE if "there is no" in str(e) else max(_exit_code(report), EXIT_INVALID)
        typer.echo(f"error: no picture: {_said(e)}", err=True)
        raise typer.Exit(code)
    try:
        outputs.write_text(svg, outputs.mark_svg(drawing), outputs.PICTURE, force)
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        raise typer.Exit(EXIT_UNUSABLE)
    except KeyboardInterrupt:
        _interrupted(svg)
    if str(svg) == "-":
        sys.stderr.write("\n".join(lines) + "\n")
        raise typer.Exit(_exit_code(report))


def _replay_page(record: Any, label: str, target: Path, force: bool, with_svg: bool,
                 read: Report | None = None) -> int:
    """``explain --html``: the replay page of the whole record, written by domrec/output.py's rules.

    The verdict goes to stderr (the page may be going to stdout); the exit code is the verdict's."""
    from domrec import replay_page

    if with_svg:
        typer.echo("error: --html is the whole record and --svg one position: give one of them", err=True)
        return EXIT_UNUSABLE
    try:
        text, report = replay_page.page_with_report(record, label, read=read)
        outputs.write_text(target, text, outputs.REPLAY, force)
    except DomrecError as e:
        typer.echo(f"error: {_said(e)}", err=True)
        return EXIT_UNUSABLE
    except KeyboardInterrupt:
        _interrupted(target)
    _tell(report)
    if str(target) != "-":
        first = report.problems[0] if report.problems else None
        opens = ""
        if first is not None and first.hand is not None:
            opens = f" (it opens at the first problem: hand {first.hand}" + (f", move {first.move}" if first.move
                                                                             else "") + ")"
        typer.echo(f"wrote {one_line(str(target))}{opens}", err=True)
    return _exit_code(report)


class _NoGame(DomrecError):
    """A DGN text whose reading through the rules stopped at a broken one: the record of the text
    up to it, and the reader's report."""

    def __init__(self, record: Any, report: Report) -> None:
        super().__init__(report.summary())
        self.record, self.report = record, report


def _load_one(path: Path, record_no: int) -> tuple[Any, str, Report | None]:
    """Record ``record_no`` (1-based) of the file, its label (``archive.jsonl:LINE``), and for a
    DGN game the reader's verdict (its problems placed by line:column in the text, as validate
    places them; ``None`` for JSON, whose problems are placed by JSON Pointer)."""
    label = reader.display_name(path)
    try:
        is_dir = path.is_dir()
    except OSError as e:  # inside a folder that may not be searched
        raise InputError(f"{label}: cannot read: {e.strerror}") from None
    if is_dir:
        raise InputError(f"{label} is a folder; explain tells one record of one file")
    if record_no > 1 and path.suffix not in (".jsonl", ".dgn"):
        raise InputError(f"--record picks a record of a *.jsonl or *.dgn archive; {label} holds one record")
    count = 0
    for src in reader.iter_sources([str(path)]):
        if isinstance(src.error, reader.GameTooLongError):  # (said at its file and line, as every
            count += 1  # other problem of a DGN text is; only when it is the game asked for)
            if count == record_no:
                raise InputError(f"{label}: {src.error.line}:{src.error.column}: {src.error.message}")
            continue
        if src.error:
            raise src.error
        if src.form == "dgn":
            from domrec import notation

            for game in notation.read_source(src):
                count += 1
                if count == record_no:
                    if game.record is not None and not game.complete and game.report.status == "invalid":
                        raise _NoGame(game.record, game.report)
                    if game.record is None or not game.complete:
                        problem = game.report.problems[0]
                        raise InputError(f"{game.report.source}: {problem.text()}")
                    return game.record, game.report.source, game.report
            continue
        count += 1
        if count == record_no:
            try:
                return reader.loads(src.text, src.archive_line), src.label, None
            except InputError as e:
                raise InputError(f"{src.label}: {_said(e)}") from None
    raise InputError(f"{label} holds {count} record{'' if count == 1 else 's'}; there is no record {record_no}")


def main() -> None:
    app()


if __name__ == "__main__":
    main()

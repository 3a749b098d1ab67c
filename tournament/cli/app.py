"""The ``tournament`` command's application and what every command shares.

The Typer application (its commands are registered in :mod:`tournament.cli`, in the order
``--help`` lists them), :func:`guarded` (a one-line error and the right exit code, never a
traceback), the bounds of the number options, the parsing of ``NAME=VALUE`` options and the
printing of tables as text, CSV or JSON.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import sqlite3
import sys
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

import typer
from typer.core import TyperCommand

from domrec import console
from domrec.errors import DomrecError, InputError, one_line
from domrec.games import parse_options

from tournament.errors import TournamentError, UnusableInput
from tournament.event.files import open_event
from tournament.store import sqlite as sqlite_store
from tournament.store.event_store import EventStore

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
def _options(ctx: typer.Context, version: bool = console.version_option("tournament")) -> None:
    """The options every tournament command shares (--version, -h)."""
    from domrec import output

    output.new_command()  # (the files a command reads are its own: forgotten when it ends)
    ctx.call_on_close(output.new_command)


class PairedBest(TyperCommand):
    """A command whose ``--best K`` belongs to the ``--by COLUMN`` next to it on the command line
    (``--by club --best 2 --by sex``: the clubs by their best two, the sexes as lists), which click's
    parsed values, one list an option, cannot say: the order is read from the arguments as typed."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            ctx.meta["best_by"] = best_by(args)
        except UnusableInput as e:  # a usage error, as click's own (one line, exit 2)
            raise _click().UsageError(e.message, ctx) from None
        return super().parse_args(ctx, args)


def _click() -> Any:
    """The Click that Typer runs on (its usage error, its current context): Typer 0.2x's own
    copy, else Click itself."""
    import types

    try:
        from typer._click import exceptions, globals as ctx_globals
    except ImportError:  # older Typers use Click itself
        import click

        return click
    return types.SimpleNamespace(UsageError=exceptions.UsageError,
                                 get_current_context=ctx_globals.get_current_context)


def best_by(args: Sequence[str]) -> list[tuple[str, int | None]]:
    """Each ``--by`` of ``args`` in order, with the ``--best`` written after it (before the next
    ``--by``; one written before any ``--by`` belongs to the first).  Refused (exit 2): two
    ``--best`` for one ``--by``; a value that is not a whole number is left to the option itself."""
    out: list[list[Any]] = []
    pending: str | None = None
    words = list(args)
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--":
            break
        name, eq, value = word.partition("=")
        if name in ("--by", "--best"):
            if not eq:
                i += 1
                value = words[i] if i < len(words) else ""
            if name == "--by":
                out.append([value, pending])
                pending = None
            elif out and out[-1][1] is None:
                out[-1][1] = value
            elif not out and pending is None:
                pending = value
            else:
                raise UnusableInput(f"--best {value}: the --by {out[-1][0] if out else ''} before it has its --best "
                                    f"already; give one --best after each --by it counts for")
        i += 1
    pairs = []
    for column, best in out:
        try:
            pairs.append((column, int(best) if best is not None else None))
        except ValueError:
            pairs.append((column, None))
    return pairs


def best_for(by: Sequence[str], best: Sequence[int] | None) -> dict[str, int]:
    """Column -> its ``--best``, as the command line paired them (:class:`PairedBest`); called in a
    command made with ``cls=PairedBest``."""
    if best and not by:
        raise UnusableInput("--best sums a club's best players: give the column with --by (--by club --best 3)")
    ctx = _click().get_current_context(silent=True)
    pairs = ctx.meta.get("best_by") if ctx is not None else None
    if pairs is None:  # called as a function: each --best with the --by at its place
        pairs = list(zip(by, list(best or []) + [None] * len(by)))
    return {column.strip().lower(): k for column, k in pairs if k is not None}


def say_error(message: str, details: Sequence[str] = ()) -> None:
    """An error and its problem lines on stderr, in colour on a terminal."""
    console.echo_err(f"error: {message}", "invalid")
    for line in details:
        console.echo_err(f"  {line}", "problem")


def fail(message: str, code: int, details: Sequence[str] = ()) -> None:
    say_error(message, details)
    raise typer.Exit(code)


#: What the running command has done once its writes are made, and the lines it has still to
#: print (:func:`once_written`): said if Ctrl-C stops it after them.
_once_written: list[tuple[str, tuple[str, ...]]] = []


def once_written(done: str, unsaid: Sequence[str] = ()) -> None:
    """Tell what the command has done, its writes made, in case Ctrl-C stops it before it ends:
    the interrupt then says so (``the 3000 players were added …``), with ``unsaid``, the lines it
    had still to print (warnings), instead of a bare "interrupted"."""
    _once_written[:] = [(done, tuple(unsaid))]


def _interrupted(before: dict[str, int], note: Sequence[tuple[str, tuple[str, ...]]]) -> tuple[str, tuple[str, ...]]:
    """What Ctrl-C stopped, in words that tell the truth about the event file: whether the
    command's writes were made (committed) or not (taken back, or never begun)."""
    made = sqlite_store.writes["committed"] - before["committed"]
    snapshot = sqlite_store.writes["snapshots_taken_back"] - before["snapshots_taken_back"]
    undone = sqlite_store.writes["taken_back"] - before["taken_back"] - snapshot
    if not made and note:  # no write to the event, but the files it wrote are in place (report, export)
        done, unsaid = note[-1]
        return f"interrupted after the files were written: {done}", unsaid
    if not made:
        return "interrupted; the last write was not made", ()
    if undone:
        return (f"interrupted; {made} of the command's writes were made (they are in the event file), but the one "
                f"under way was not", ())
    stale = ("; the snapshot people browse (its standings table) was left as it was: the next write brings it up "
             "to date") if snapshot else ""
    if note:
        done, unsaid = note[-1]
        return f"interrupted after the write was made: {done}{stale}", unsaid
    return ("interrupted after the write was made (it is in the event file)" + (stale or "; what the command had "
            "left to do after it was not done"), ())


def guarded(fn: Callable) -> Callable:
    """Every command: a one-line error and the right exit code, never a traceback."""
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        streams = sys.stdout, sys.stderr
        writes_before = dict(sqlite_store.writes)
        outer_note = list(_once_written)
        _once_written.clear()
        # A Ctrl-C that escapes the handling below (in its last lines, or as the command line
        # closes after it) says what this one would: OneLineErrors and the entry point ask.
        # (what it had done when it ended is kept for that: the note, once this command is over,
        # is the outer command's again)
        ended: list[tuple[str, tuple[str, ...]]] = []
        console.command_began(lambda: "error: " + _interrupted(writes_before, ended or _once_written)[0])
        # Whatever a command prints from the event file (a name, a reason, a comment), its control
        # characters are escaped and its direction controls dropped, on both streams, whichever
        # line prints it (domrec.console.Printable); --json, --csv and -o - are data, exact in a
        # file or a pipe.  A message wider than the terminal wraps between words there (never in a pipe).
        fitted = console.FittedLines(streams[0]), console.FittedLines(streams[1])
        sys.stdout = console.Printable(fitted[0], data=data_on_stdout(kwargs))
        sys.stderr = console.Printable(fitted[1])
        try:
            return fn(*args, **kwargs)
        except typer.Exit:
            raise
        except TournamentError as e:
            fail(str(e), e.exit_code, getattr(e, "problems", ()))
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                fail(f"the event file is busy (another program holds it): {e}", EXIT_UNUSABLE)
            if "readonly" in str(e):
                fail(f"the event file (or its folder) is read-only; nothing was written: {e}", EXIT_UNUSABLE)
            if "decode" not in str(e):
                fail(f"the event file cannot be used: {e}", EXIT_UNUSABLE)
            fail(_damaged(kwargs, e), EXIT_UNUSABLE)
        except sqlite3.DatabaseError as e:
            fail(_damaged(kwargs, e), EXIT_UNUSABLE)
        except BrokenPipeError:  # `tournament tables … | head`: the reader has gone, nothing to report
            import os
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(EXIT_OK)
        except KeyboardInterrupt:
            message, unsaid = _interrupted(writes_before, _once_written)
            fail(message, EXIT_UNUSABLE, unsaid)
        except DomrecError as e:  # domrec refusing what it was given (a simulated game that would not end)
            fail(one_line(str(e)), EXIT_UNUSABLE)
        except Exception as e:  # a value changed by hand, or a bug: say which in one line
            fail(_unexpected(kwargs, e), EXIT_UNUSABLE)
        finally:
            ended[:] = _once_written
            _once_written[:] = outer_note
            for stream in fitted:
                stream.close_line()
            sys.stdout, sys.stderr = streams
    wrapper.printable = True  # type: ignore[attr-defined]  (checked for every command by the tests)
    return wrapper


def data_on_stdout(options: dict[str, Any]) -> bool:
    """Whether a command given ``options`` writes data to standard output, not text for people:
    ``--json``, ``--csv``, or a file written to ``-o -``."""
    return bool(options.get("as_json") or options.get("as_csv")) or str(options.get("output")) == "-"


def _damaged(kwargs: dict[str, Any], e: Exception) -> str:
    """One line for a damaged page or value met while reading: what, and what to run."""
    from domrec.errors import clip
    event = kwargs.get("event")
    return (f"{event or 'the event file'} is damaged ({clip(str(e), 80)}): run `tournament check "
            f"{event or 'EVENT.db'}` to see which tables and rows are affected")


def _unexpected(kwargs: dict[str, Any], e: Exception) -> str:
    """One line for an error the command did not expect.  Met while reading an event file that
    holds something the tool never writes (a row changed by hand), it names that row and says to
    run ``tournament check``, as the file's damage is said; only otherwise is it an internal error."""
    event = kwargs.get("event")
    if isinstance(event, Path):
        from tournament.store.damage import unusable_value

        said = unusable_value(event, e)
        if said is not None:
            return said
    return f"internal error ({type(e).__name__}: {e}); please report it"


def open_for_command(path: Path) -> EventStore:
    """The event, its browsing snapshot refreshed once when the command closes it (not after every
    result it enters)."""
    store = open_event(path)
    store.defer_browsing = True
    store.on_wait = say_waiting(path)
    from domrec import output

    output.reads(path)  # (never written over by the command's own output, not even with --force)
    return store


def say_waiting(path: Path) -> Callable[[float], None]:
    """What a command says, once, when a write of its waits for another program holding the event
    file (the store tells it after a second: :func:`tournament.store.sqlite.begin`)."""
    said = False

    def say(limit: float) -> None:
        nonlocal said
        if not said:
            said = True
            console.echo_err(f"waiting for {path}: another program is writing it (up to {limit:g} s)")
            sys.stderr.flush()
    return say


def refuse_unreadable(src: Any, event: str | Path | None = None) -> None:
    """A record file domrec's reader could not read (``reader.iter_sources``'s error): one line
    that names the file, once.  ``event``: the command's event file; given again where a record
    was expected (``tournament result copa.db copa.db``), it is said to be that, not "an SQLite
    database in use (an event file?)", which read as if another program held it."""
    if src.error:
        if event is not None and _same_file(src.label, event):
            raise UnusableInput(f"{src.label}: it is the event file itself, given where a game record was "
                                f"expected; not read")
        message = src.error.message
        raise UnusableInput(message if message.startswith(src.label) else f"{src.label}: {message}")


def _same_file(label: str, event: str | Path) -> bool:
    """Whether a record's label names the event file (by any name: a link, ``./copa.db``)."""
    try:
        return os.path.samefile(label, event)
    except (OSError, ValueError):  # (no such file, a label that is no path: not the event)
        return False


def parse_rule_options(texts: list[str]) -> dict[str, Any]:
    try:
        return parse_options(texts)
    except InputError as e:
        raise UnusableInput(e.message) from None


def parse_pairs(text: str, what: str) -> dict[str, str]:
    out = {}
    for part in text.split(","):
        key, eq, value = part.partition("=")
        if not eq or not key.strip() or not value.strip():
            raise UnusableInput(f"write {what} as NAME=VALUE,NAME=VALUE, not {text!r}")
        if key.strip() in out:
            raise UnusableInput(f"{key.strip()} is given twice in {text!r}")
        out[key.strip()] = value.strip()
    return out


def whole_scores(text: str) -> dict[str, int]:
    scores = {}
    for side, value in parse_pairs(text, "scores").items():
        if not re.fullmatch(r"-?[0-9]+", value):
            raise UnusableInput(f"the score of {side} must be a whole number, not {value!r}")
        scores[side] = int(value)
    return scores


def number(text: str, what: str) -> float:
    if not text.isascii():  # float() reads any script's digits: "١" would be 1
        raise UnusableInput(f"{what} must be a number in digits 0-9, not {text!r}")
    try:
        value = float(text)
    except ValueError:
        raise UnusableInput(f"{what} must be a number, not {text!r}") from None
    if not math.isfinite(value):
        raise UnusableInput(f"{what} must be a finite number, not {text!r}")
    return value


def emit(rows: list[dict[str, Any]], as_csv: bool, as_json: bool, title: str,
         extra: dict[str, Any] | None = None, footer: Iterable[str] = (), wide: bool = False,
         keep: Iterable[str] = (), lines: int | None = None) -> None:
    if as_json:
        doc = {**(extra or {}), "rows": rows} if extra is not None else rows
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv:
        from tournament.pages.report import write_csv
        write_csv(sys.stdout, list(rows[0]) if rows else [], rows)
        return
    from tournament.pages import terminal

    with console.verbatim(sys.stdout):  # laid out for the width already (or, --wide, for none)
        terminal.print_table(rows, title, footer, wide, keep, lines or terminal.MAX_NAME_LINES)


def write_output(path: Path, text: str, kind: Any, force: bool = False) -> None:
    """By :mod:`domrec.output`'s rules: written beside the target and renamed into place (a reader
    never sees half a file), never over a link, a device, a FIFO, a folder or a database, and over
    a file tournament did not write only with --force; ``-`` is standard output."""
    from domrec import output as outputs

    try:
        outputs.write_text(path, text, kind, force)
    except outputs.OutputError as e:
        raise UnusableInput(e.message) from None


def main() -> None:
    app()

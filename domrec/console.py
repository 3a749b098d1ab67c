"""What the two commands (``domrec``, ``tournament``) share about the terminal.

Colour and progress bars are for a person at a terminal: a pipe, a file or a
log gets plain lines, byte for byte what scripts have always read, and
``NO_COLOR`` (any non-empty value, https://no-color.org) turns colour off
everywhere.  Everything here decides per stream, because ``domrec validate
> out.txt`` at a terminal still shows its progress bar on stderr.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import io
import os
import re
import sys
from typing import Any, Callable, Iterable, Iterator, TextIO, TypeVar

import typer

from domrec.errors import printable

T = TypeVar("T")

#: SGR codes of the few styles used; plain ANSI so that colour costs nothing when it is off.
STYLES = {
    "invalid": "1;31",   # bold red: a record that breaks the rules, an error
    "unusable": "1;35",  # bold magenta: input that could not be judged
    "problem": "33",     # yellow: one problem line under a verdict
    "warning": "33",
}


def colour_on(stream: TextIO) -> bool:
    """Colour only for a terminal, never with NO_COLOR set (non-empty) or TERM=dumb."""
    if os.environ.get("NO_COLOR", "") != "" or os.environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream)


def paint(text: str, style: str, stream: TextIO | None = None) -> str:
    """``text`` escaped (:func:`domrec.errors.printable`) and in ``style`` if ``stream`` (default
    stdout) shows colour.  The colour's codes are the command's own: write the line with
    :func:`write_line`, which passes them under the escaping of :class:`Printable`."""
    text = printable(text, tabs=True)
    if not colour_on(stream if stream is not None else sys.stdout):
        return text
    return f"\x1b[{STYLES[style]}m{text}\x1b[0m"


def write_line(stream: Any, text: str, style: str | None = None) -> None:
    """A line for people on ``stream``, in ``style`` where ``stream`` shows colour: what it holds
    from a record or an event file escaped (:func:`paint`), the colour's own codes written as they
    are (to the stream under :class:`Printable`)."""
    if style and colour_on(stream):
        stream = unescaped(stream)
    stream.write(paint(text, style, stream) + "\n" if style else printable(text, tabs=True) + "\n")
    stream.flush()


def echo_err(text: str, style: str | None = None) -> None:
    """A line on stderr, coloured there if stderr is a terminal, and fitted to its width there
    (:func:`fit_line`: the colour's codes would hide the line's length from :class:`FittedLines`)."""
    width = line_width(sys.stderr)
    text = printable(text, tabs=True)  # escaped before it is fitted: the width counted is the width shown
    for part in (fit_line(text, width) if width else [text]):
        write_line(sys.stderr, part, style)


# --- lines fitted to the terminal ----------------------------------------------------------------

def line_width(stream: Any) -> int | None:
    """The width to wrap a message to on ``stream``: the terminal's (``COLUMNS`` honoured), or
    None when ``stream`` is not a terminal: a pipe, a file, a log gets each message on one line,
    however long, so that a script can grep it."""
    isatty = getattr(stream, "isatty", None)
    try:
        if not (isatty and isatty()):
            return None
    except ValueError:  # a closed stream
        return None
    import shutil
    return max(shutil.get_terminal_size().columns, 20)


def fit_line(line: str, width: int) -> list[str]:
    """``line`` wrapped between words to ``width``, each continuation indented two spaces past
    the line's own indent so that a wrapped message reads as one; a word is never split (one
    wider than the terminal, a long path, runs over whole)."""
    import textwrap

    if len(line) <= width:
        return [line]
    indent = line[:len(line) - len(line.lstrip())]
    return textwrap.wrap(line, width, subsequent_indent=indent + "  ", break_long_words=False,
                         break_on_hyphens=False) or [line]


class FittedLines:
    """A text stream that, on a terminal, wraps each line wider than the terminal between words
    (:func:`fit_line`): a refusal or a confirmation of 120 characters reads at 80 columns without
    a word cut by the terminal's edge.  Not on a terminal, everything passes as written.  A line
    holding an escape sequence (colour, a progress bar's redraw) passes as it is, and so does
    everything inside :meth:`verbatim` (a table laid out for the width already)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self._pending = ""
        self._verbatim = 0

    def write(self, text: Any) -> Any:
        if not isinstance(text, str) or self._verbatim:
            return self._stream.write(text)
        width = line_width(self._stream)
        if width is None:
            return self._stream.write(text)
        self._pending += text
        whole, newline, self._pending = self._pending.rpartition("\n")
        if newline:
            out = [part for line in (whole + newline).split("\n")[:-1]
                   for part in ([line] if "\x1b" in line else fit_line(line, width))]
            self._stream.write("\n".join(out) + "\n")
        return len(text)

    def flush(self) -> None:
        if self._pending:  # a partial line (a prompt, a bar's redraw): shown as it is
            self._stream.write(self._pending)
            self._pending = ""
        self._stream.flush()

    def close_line(self) -> None:
        """What is left of a line without its newline, written (at the command's end); a stream
        gone meanwhile (a reader that closed the pipe) is no error here."""
        if self._pending:
            try:
                self._stream.write(self._pending)
            except (OSError, ValueError):
                pass
            self._pending = ""

    @contextlib.contextmanager
    def verbatim(self) -> Iterator[None]:
        """Writes in the block pass unwrapped (what was laid out for the width already)."""
        self.flush()
        self._verbatim += 1
        try:
            yield
        finally:
            self._verbatim -= 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


@contextlib.contextmanager
def verbatim(stream: Any) -> Iterator[None]:
    """:meth:`FittedLines.verbatim` of ``stream`` (through a :class:`Printable` too), or
    nothing to do for a stream that does not wrap."""
    block = getattr(stream, "verbatim", None)
    with (block() if block is not None else contextlib.nullcontext()):
        yield


# --- escaping: what the commands write for people --------------------------------------------

class Printable:
    """A text stream that writes everything escaped by :func:`domrec.errors.printable` (its tabs
    kept): no direction control, and no control character a terminal would obey (ESC, a C1 CSI,
    BEL...), whatever line of whichever command prints a name, a comment or a reason read from a
    record, a DGN text, an event file or a stream.  Both commands write through it: ``tournament``
    every command (:func:`tournament.cli.app.guarded`), ``domrec`` every command
    (:func:`printable_command`).

    ``data``: what is written is data (``--json``, ``--csv``, a record or a page on standard
    output): written exactly as it is to a file or a pipe, and escaped all the same at a terminal,
    which is read by a person (JSON escapes C0 itself; C1 and CSV's text would reach it raw).

    The commands' own terminal codes (colour: :func:`write_line`; rich's tables and progress
    bars) are written to :func:`unescaped` stream, their text escaped by their writer."""

    def __init__(self, stream: Any, data: bool = False) -> None:
        self._stream = stream
        #: Data to a file or a pipe, written exactly (asked once: a stream does not become a terminal).
        self._exact = data and not is_terminal(stream)

    def write(self, text: Any) -> Any:
        if self._exact or not isinstance(text, str):
            return self._stream.write(text)
        self._stream.write(printable(text, tabs=True))
        return len(text)

    def unescaped(self) -> Any:
        return self._stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (whatever NO_COLOR or TERM say: escaping is not colour)."""
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def unescaped(stream: Any) -> Any:
    """The stream under ``stream``'s :class:`Printable` (``stream`` itself when it has none): for
    the commands' own terminal codes only; whoever writes there escapes what it writes
    (:func:`domrec.errors.printable`)."""
    under = getattr(stream, "unescaped", None)
    return under() if callable(under) else stream


@contextlib.contextmanager
def printable_output(data_on_stdout: bool = False) -> Iterator[None]:
    """Standard output and standard error written through :class:`Printable` while the block runs;
    ``data_on_stdout``: what standard output carries is data (``--json``, a record or a page)."""
    streams = sys.stdout, sys.stderr
    sys.stdout = Printable(streams[0], data=data_on_stdout)
    sys.stderr = Printable(streams[1])
    try:
        yield
    finally:
        sys.stdout, sys.stderr = streams


def printable_command(data_on_stdout: Callable[..., bool] = lambda **_: False) -> Callable[[T], T]:
    """A command whose output is written escaped (:func:`printable_output`); ``data_on_stdout(**options)``
    says when what it writes to standard output is data instead (``--json``, a record, a page)."""
    def decorate(fn: Any) -> Any:
        @functools.wraps(fn)
        def command(*args: Any, **kwargs: Any) -> Any:
            command_began(lambda: "error: interrupted")  # (each command says its own where it can)
            with printable_output(data_on_stdout=data_on_stdout(**kwargs)):
                return fn(*args, **kwargs)
        command.printable = True  # type: ignore[attr-defined]  (checked for every command by the tests)
        return command
    return decorate


# --- progress -------------------------------------------------------------------------------------

class _Bar:
    """The handle a command moves its bar with; does nothing when there is no bar."""

    def __init__(self, progress: Any = None, task: Any = None) -> None:
        self._progress, self._task = progress, task

    def advance(self, steps: float = 1, **fields: Any) -> None:
        if self._progress is not None:
            self._progress.update(self._task, advance=steps, **fields)

    def say(self, line: str) -> None:
        """A line above the bar (on stderr), or plain on stderr when there is no bar."""
        if self._progress is not None:
            from rich.text import Text
            self._progress.console.print(Text(printable(line, tabs=True)))
        else:
            write_line(sys.stderr, line)


@contextlib.contextmanager
def progress_bar(label: str, total: float | None = None, counting: str = "",
                 enabled: bool = True) -> Iterator[_Bar]:
    """A transient progress bar on stderr, only if stderr is a terminal (and ``enabled``).

    ``total`` None draws a pulsing bar, for work that cannot be counted in
    advance.  ``counting`` names what the ``done`` field counts ("records"),
    shown instead of "done/total" when the bar's steps are something else
    (bytes read).  Nothing is redirected: a command that writes to stdout
    while its bar runs must write to a file or a pipe, not to the same
    terminal (the commands here only show a bar then)."""
    if not enabled or not sys.stderr.isatty():
        yield _Bar()
        return
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    from rich.markup import escape

    columns: list[Any] = [TextColumn(escape(printable(label))), BarColumn()]
    if counting:
        columns.append(TextColumn("{task.fields[done]} " + escape(printable(counting))))
    elif total is not None:
        columns.append(MofNCompleteColumn())
    columns.append(TimeRemainingColumn() if total is not None else TimeElapsedColumn())
    # The bar's redraws are the command's own codes: written under the escaping (its text escaped here).
    with Progress(*columns, console=Console(file=unescaped(sys.stderr)), transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        yield _Bar(progress, progress.add_task(label, total=total, done=0))


def track(items: Iterable[T], label: str, total: float | None = None, counting: str = "",
          size: Callable[[T], float] | None = None, enabled: bool = True) -> Iterator[T]:
    """``items`` unchanged, with a progress bar on a terminal (see :func:`progress_bar`);
    ``size`` is how far each item moves the bar (default one step)."""
    with progress_bar(label, total, counting, enabled) as bar:
        done = 0
        for item in items:
            yield item
            done += 1
            bar.advance(size(item) if size else 1, done=done)


# --- the commands' common options -----------------------------------------------------------------

def version_text(command: str) -> str:
    """``domrec 0.1.0``, ``tournament (domrec) 0.1.0``: both commands come from one distribution."""
    from importlib import metadata  # (at the option's use: importing it is a tenth of a command's start)

    try:
        number = metadata.version("domrec")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        number = "(version unknown: not installed)"
    return f"{command} {number}" if command == "domrec" else f"{command} (domrec) {number}"


def version_option(command: str) -> Any:
    """A ``--version`` option for an app's callback: prints :func:`version_text` and exits 0."""
    def show(value: bool) -> None:
        if value:
            typer.echo(version_text(command))
            raise typer.Exit(0)
    return typer.Option(False, "--version", callback=show, is_eager=True,
                        help="Print the version and exit.")


#: Given to both Typer apps: ``-h`` as well as ``--help`` (inherited by every command).
CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"]}


def _plain_type(self: Any, ctx: Any) -> str | None:
    """The kind of value a parameter takes, in the words CLIs use (TEXT, INTEGER, PATH), not as a
    Python annotation (``<list[str]>``, ``<bool>``) as Typer's help shows it; none for a flag."""
    import datetime
    import enum
    import pathlib
    from typing import get_args, get_origin

    desc = self.type_descriptor
    if getattr(desc, "is_choice", False) and getattr(desc, "choices", None):
        return "|".join(str(getattr(c, "value", c)) for c in desc.choices)
    kind = desc.annotation
    if get_origin(kind) in (list, tuple):
        args = [a for a in get_args(kind) if a is not Ellipsis]
        kind = args[0] if args else str
    if not isinstance(kind, type):
        return "VALUE"
    if issubclass(kind, bool):
        return None
    if issubclass(kind, enum.Enum):
        return "|".join(str(m.value) for m in kind)
    for python, word in ((int, "INTEGER"), (float, "NUMBER"), (pathlib.PurePath, "PATH"), (str, "TEXT"),
                         (datetime.datetime, "DATETIME")):
        if issubclass(kind, python):
            return word
    return "VALUE"


def plain_help_types() -> None:
    """Make Typer's help name value kinds as CLIs do.  Typer 0.2x prints each parameter's
    Python annotation (``--option <list[str]>``, ``--quiet <bool>``), which means nothing to
    a club player; older Typers print Click's words already, and lack this hook."""
    core = getattr(typer, "core", None)
    base = getattr(core, "_TyperParameter", None)
    if base is not None and hasattr(base, "display_type"):
        base.display_type = _plain_type


class _Closed(io.TextIOBase):
    """Standard output when the command was started with it closed (``domrec validate x >&-``):
    what is written to it fails as writing to a closed file does, so that the command says so
    in one line, as it does for ``> /dev/full``."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def closed_streams() -> None:
    """A command started with standard input, output or error closed (``<&-``, ``>&-``,
    ``2>&-``) finds ``sys.stdin``/``sys.stdout``/``sys.stderr`` to be None, and its first read
    or write ended in a traceback (or, on stderr, in exit code 1 for a valid record).  Each
    closed one is opened on the null device, so that no file the command opens takes its
    number (a worker would write into it): standard input then reads as empty, standard error
    takes what is said and drops it, and standard output refuses what is written to it
    (:class:`_Closed`), which the commands say as a write error."""
    for fd, name in ((0, "stdin"), (1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if name == "stdout":
            sys.stdout = _Closed()
        else:
            setattr(sys, name, open(fd, "r" if fd == 0 else "w", encoding="utf-8", closefd=False))


#: How like a command's option a mistyped one must be to be offered in its place (difflib's ratio,
#: as Click measures it, but of the names without their dashes): Click measures ``--bogus`` against
#: ``--jobs`` dashes and all, and the two dashes every long option shares made them look alike.
OPTION_LIKENESS = 0.65


def close_options(typed: str, offered: Iterable[str] | None) -> list[str]:
    """Those of the options Click offers for ``typed`` (``--jsn``) that are like it by their names
    alone: ``--json``, not ``--jobs``; none for ``--bogus``."""
    import difflib

    bare = {option.lstrip("-"): option for option in offered or ()}
    return [bare[name] for name in difflib.get_close_matches(typed.lstrip("-"), list(bare), len(bare) or 1,
                                                            OPTION_LIKENESS)]


#: What Typer (through pydantic) says of an option's value that is not a number, and what it is to be.
_NOT_A_NUMBER = {"Input should be a valid integer": "a whole number", "Input should be a valid number": "a number"}


def _number_typed(error: Any, args: list[str]) -> str | None:
    """Typer's line for a number option given something else, which does not say what was typed
    ("Input should be a valid integer, unable to parse string as an integer"), said with what
    was typed: ``Invalid value for '--round' / '-r': '٣' is not a whole number in digits 0-9``
    (a number in another script's digits is refused, not read as int() would read it).  The
    value is found in the arguments as Click reads them (``--round X``, ``--round=X``, ``-rX``);
    ``None`` where the error is another or the value is not found (Typer's line is kept)."""
    message = getattr(error, "message", "")
    param = getattr(error, "param", None)
    kind = next((v for k, v in _NOT_A_NUMBER.items() if message.startswith(k)), None)
    if kind is None or param is None or not getattr(param, "opts", None):
        return None
    typed = []
    for k, arg in enumerate(args):
        if arg == "--":
            break
        for opt in param.opts:
            if arg == opt and k + 1 < len(args):
                typed.append(args[k + 1])
            elif arg.startswith(opt + "=") and opt.startswith("--"):
                typed.append(arg[len(opt) + 1:])
            elif len(opt) == 2 and not opt.startswith("--") and arg.startswith(opt) and len(arg) > 2:
                typed.append(arg[2:])
    bad = [t for t in typed if not _A_NUMBER[kind].fullmatch(t)]
    if not bad:
        return None
    names = " / ".join(repr(o) for o in param.opts)
    return f"Invalid value for {names}: {bad[-1]!r} is not {kind} in digits 0-9"


_A_NUMBER = {"a whole number": re.compile(r"[+-]?[0-9_]+"),
             "a number": re.compile(r"[+-]?([0-9_]+\.?[0-9_]*|\.[0-9_]+)([eE][+-]?[0-9]+)?|[+-]?(inf|infinity|nan)",
                                    re.IGNORECASE)}


#: What a Ctrl-C says that stops a command before its own work began (while Typer builds the
#: command line from the functions' signatures, parses the arguments, or imports what parsing
#: needs): nothing of the command has run.  The entry points (:mod:`domrec.entry`) say the same.
BEFORE_THE_COMMAND = "error: interrupted before the command began; nothing was read or written"

#: Typer's exit code for a Ctrl-C it caught itself (``raise Exit(130)``, said in no words): never
#: a code of ours, so read by :class:`OneLineErrors` as the interrupt it is.
TYPER_INTERRUPTED = 130

#: The running command's own interrupted line, once its own work has begun (:func:`command_began`).
_began: list[Callable[[], str]] = []


def command_began(said: Callable[[], str]) -> None:
    """The running command's own work begins (``guarded`` and :func:`printable_command` say so):
    a Ctrl-C that escapes it from now on (landing in its last lines, or after it, while the
    command line closes) says ``said()``, the command's own interrupted line, no longer that the
    command had not begun.  The outermost command's line holds (a command may call another)."""
    if not _began:
        _began.append(said)


def interrupted_line() -> str:
    """What a Ctrl-C that escaped the command's own handling says: the command's own line once
    its work has begun, else :data:`BEFORE_THE_COMMAND`."""
    return _began[0]() if _began else BEFORE_THE_COMMAND


class OneLineErrors(typer.core.TyperGroup):
    """Both apps' command group: a usage error (an unknown option, a number out of its range, a
    missing argument) is one line on stderr and exit 2, as every other error is, instead of
    Typer's framed box of several lines.  Asking for nothing (``domrec`` alone) still shows
    the help, and ``--help``, ``--version`` and shell completion behave as Click makes them."""

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            from typer._click import exceptions as click  # Typer 0.2x carries its own Click
        except ImportError:  # older Typers use Click itself
            from click import exceptions as click  # type: ignore[no-redef]
        aborted = getattr(typer, "Abort", None) or click.Abort

        _began.clear()  # a new command (a test's process runs many): its own work has not begun
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except KeyboardInterrupt:  # before Typer's own catching (shell completion's setup)
            code = TYPER_INTERRUPTED
        except click.NoArgsIsHelpError as e:
            e.show()
            sys.exit(e.exit_code)
        except click.UsageError as e:
            if isinstance(e, click.NoSuchOption):  # (only the options like the one typed are offered)
                e.possibilities = close_options(e.option_name, e.possibilities)
            where = e.ctx.command_path if e.ctx is not None else (prog_name or "")
            hint = f" (see: {where} -h)" if where else ""
            said = _number_typed(e, sys.argv[1:] if args is None else list(args)) or e.format_message().rstrip('.')
            echo_err(f"error: {said}{hint}".replace("\n", " "), "invalid")
            sys.exit(e.exit_code)
        except click.ClickException as e:
            echo_err(f"error: {e.format_message()}".replace("\n", " "), "invalid")
            sys.exit(e.exit_code)
        except aborted:  # an older Typer's (Click's) word for a Ctrl-C it caught
            code = TYPER_INTERRUPTED
        if code == TYPER_INTERRUPTED:  # a Ctrl-C that no command's own handling said: one line, exit 2
            echo_err(interrupted_line(), "invalid")
            sys.exit(2)
        sys.exit(code if isinstance(code, int) else 0)

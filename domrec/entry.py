"""The ``domrec`` command's entry point (pyproject's ``[project.scripts]``).

The command line (:mod:`domrec.cli`, Typer, Rich and the engines) takes a few tenths of a second
to import; a Ctrl-C then, before the command's own guard is set, showed the traceback of whatever
module was being imported.  Here the import is made under a guard: it says in one line that the
command was interrupted before it began (exit 2, as the commands' own interrupts).

The guard holds the whole run, not the import alone: Typer then builds the command line from
the commands' signatures and parses the arguments (importing pydantic as it does, a tenth of a
second), and a Ctrl-C there showed a traceback (while building) or ended the command with exit
130 and no word (Typer's own catching, while parsing); :class:`domrec.console.OneLineErrors`
says that one, and this guard the rest, with the command's own line once its work has begun
(:func:`domrec.console.command_began`).

Once the command has ended, its exit status decided and its output flushed, the interpreter
spends a tenth of a second or more tearing itself down, with Ctrl-C back at its default (the
process killed by the signal: exit 130, no word, though all was done).  From the exit handlers
on (after any worker thread has been joined, which a Ctrl-C may still cut short), Ctrl-C is
ignored: the command ends as it said.  A Ctrl-C in the first hundredths of a second, before
Python has set its own handler, still ends the process silently with 130: nothing of ours has
run yet.  (The ``domrec`` package's own imports, a tenth of a second, come before this module:
the package says the same line itself when the program is the ``domrec`` script.  Its names are
not imported lazily, as ``tournament``'s are: ``domrec.validate`` would then be lost to the
submodule of that name.)"""

from __future__ import annotations

import sys

INTERRUPTED = "error: interrupted before the command began; nothing was read or written\n"


def main() -> None:
    import atexit

    atexit.register(_ended)
    try:
        from domrec.cli import main as command

        command()
    except KeyboardInterrupt:
        console = sys.modules.get("domrec.console")  # (once loaded, it knows whether the command began)
        sys.stderr.write(console.interrupted_line() + "\n" if console is not None else INTERRUPTED)
        raise SystemExit(2) from None


def _ended() -> None:
    """At exit, the command ended: standard output and error flushed, then Ctrl-C ignored for the
    interpreter's teardown, so that the exit status is the command's, not a signal's."""
    import signal

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # a flush blocked on a full pipe, broken by Ctrl-C: let that Ctrl-C end it
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)

"""The ``tournament`` command's entry point (pyproject's ``[project.scripts]``): the command line
imported and run under a guard, so that a Ctrl-C before the command's own work begins is one line,
not a traceback, and a Ctrl-C once it has ended does not change how it ends (:mod:`domrec.entry`
says why, and where)."""

from __future__ import annotations

import sys

#: The line said (:mod:`domrec.entry`'s own: not imported from it, which would import domrec first).
INTERRUPTED = "error: interrupted before the command began; nothing was read or written\n"


def main() -> None:
    import atexit

    atexit.register(_ended)
    try:
        from tournament.cli import main as command

        command()
    except KeyboardInterrupt:
        console = sys.modules.get("domrec.console")  # (once loaded, it knows whether the command began)
        sys.stderr.write(console.interrupted_line() + "\n" if console is not None else INTERRUPTED)
        raise SystemExit(2) from None


def _ended() -> None:
    """At exit (:func:`domrec.entry._ended` says why): a Ctrl-C no longer changes the exit status."""
    import signal

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:  # a flush blocked on a full pipe, broken by Ctrl-C: let that Ctrl-C end it
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)

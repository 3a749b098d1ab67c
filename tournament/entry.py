"""The ``tournament`` command's entry point (pyproject's ``[project.scripts]``): the command line
imported under a guard, so that a Ctrl-C while it loads is one line, not a traceback
(:mod:`domrec.entry` says why)."""

from __future__ import annotations

import sys

#: The line said (:mod:`domrec.entry`'s own: not imported from it, which would import domrec first).
INTERRUPTED = "error: interrupted before the command began; nothing was read or written\n"


def main() -> None:
    try:
        from tournament.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        raise SystemExit(2) from None
    command()

"""The ``domrec`` command's entry point (pyproject's ``[project.scripts]``).

The command line (:mod:`domrec.cli`, Typer, Rich and the engines) takes a few tenths of a second
to import; a Ctrl-C then, before the command's own guard is set, showed the traceback of whatever
module was being imported.  Here the import is made under a guard: it says in one line that the
command was interrupted before it began (exit 2, as the commands' own interrupts)."""

from __future__ import annotations

import sys

INTERRUPTED = "error: interrupted before the command began; nothing was read or written\n"


def main() -> None:
    try:
        from domrec.cli import main as command
    except KeyboardInterrupt:
        sys.stderr.write(INTERRUPTED)
        raise SystemExit(2) from None
    command()

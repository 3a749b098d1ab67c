"""The two commands' entry points: a Ctrl-C while the command line is still being imported (the
first few tenths of a second) is one line and exit 2, not the traceback of the module being
imported (the ``domrec`` package's own imports too: tests/test_ctrl_c_whole_run.py); ``import
tournament`` imports nothing else until a name is used.

The interrupt is made where it would land, deterministically: the command line's import raises
KeyboardInterrupt, as SIGINT's default handler does in whatever line is running then."""

from __future__ import annotations

import subprocess
import sys

import pytest

#: A process that runs an entry point with its command line's import interrupted.
_INTERRUPTED = """
import builtins, sys
real = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name == sys.argv[1]:
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = interrupted
from {entry} import main
main()
"""


@pytest.mark.parametrize("entry, cli", [("domrec.entry", "domrec.cli"), ("tournament.entry", "tournament.cli")])
def test_ctrl_c_while_the_command_line_loads_is_one_line(entry: str, cli: str) -> None:
    r = subprocess.run([sys.executable, "-c", _INTERRUPTED.format(entry=entry), cli], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 2, r
    assert r.stderr == "error: interrupted before the command began; nothing was read or written\n"
    assert r.stdout == ""


def test_import_tournament_imports_its_names_when_used() -> None:
    """``import tournament`` imports nothing else (its entry point starts under the guard at once);
    its public names come when used, and its submodules as attributes as before."""
    code = ("import sys, tournament; before = sorted(m for m in sys.modules if m.startswith(('domrec', 'tournament.'))); "
            "from tournament import create_event, run_check, current_standings; "
            "print(before, run_check.__module__, create_event.__module__, current_standings.__name__, "
            "tournament.event.__name__)")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["[]", "tournament.event.check", "tournament.event.files", "from_store",
                                "tournament.event"], r.stdout
    r = subprocess.run([sys.executable, "-c", "import tournament; tournament.nothing"], capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1 and "has no attribute 'nothing'" in r.stderr

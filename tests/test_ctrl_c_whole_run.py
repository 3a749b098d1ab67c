"""A Ctrl-C anywhere in a command's run, for both commands: before the command's own work begins
(while Typer builds the command line from the functions' signatures, or parses the arguments,
importing pydantic as it does) it is the one line ``error: interrupted before the command began;
nothing was read or written`` and exit 2, never a traceback (building) or a silent exit 130
(parsing: Typer's own catching); after the command's work began, the command's own line; once
the command has ended (its exit handlers on), it no longer changes the exit status (the
interpreter's teardown, a tenth of a second, had Ctrl-C at its default: killed, 130, no word).

Each interrupt is made where it would land, deterministically: the function running then raises
KeyboardInterrupt, as SIGINT's default handler does in whatever line is running; the last one
is a real SIGINT, sent by the process to itself from an exit handler that runs after the
command's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BEFORE = "error: interrupted before the command began; nothing was read or written\n"

#: A process that runs an entry point with one step of the command line interrupted.
_INTERRUPTED = """
import sys
entry, cli, where, *args = sys.argv[1:]
sys.argv = [cli.split(".")[0]] + args
import importlib
importlib.import_module(cli)  # (its import is guarded as ever: tests/test_entry.py)
import inspect, typer.core
from domrec import output

def interrupted(*a, **k):
    raise KeyboardInterrupt

if where == "build":  # Typer making the command line from the commands' signatures
    inspect.signature = interrupted
elif where == "parse":  # the group's arguments parsed
    typer.core.TyperGroup.make_context = interrupted
elif where == "parse-command":  # the command's arguments parsed (pydantic imported there)
    typer.core.TyperCommand.make_context = interrupted
elif where == "closing":  # the command has run; the command line closes (its second call)
    calls = []
    real = output.new_command
    def closing():
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        real()
    output.new_command = closing
elif where == "exit":  # a real Ctrl-C once the command has ended, its exit handlers running
    import atexit, os, signal
    atexit.register(lambda: os.kill(os.getpid(), signal.SIGINT))  # (runs after the entry's own)
importlib.import_module(entry).main()
"""


def _run(entry: str, cli: str, where: str, *args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", _INTERRUPTED, entry, cli, where, *args], capture_output=True,
                          text=True, timeout=120, cwd=cwd)


COMMANDS = [("domrec.entry", "domrec.cli", "schema"), ("tournament.entry", "tournament.cli", "info")]


@pytest.mark.parametrize("where", ["build", "parse", "parse-command"])
@pytest.mark.parametrize("entry, cli, command", COMMANDS)
def test_ctrl_c_before_the_command_began_is_one_line(entry: str, cli: str, command: str, where: str,
                                                      tmp_path: Path) -> None:
    r = _run(entry, cli, where, command, str(tmp_path / "x.db"))
    assert (r.returncode, r.stderr, r.stdout) == (2, BEFORE, ""), r


@pytest.mark.parametrize("entry, cli, command, said", [
    ("domrec.entry", "domrec.cli", "schema", "error: interrupted\n"),
    # (the command said what it had done before the Ctrl-C came: that is said, not "what it had left")
    ("tournament.entry", "tournament.cli", "add", "error: interrupted after the write was made: the pair was added "
                                                  "and listed\n")])
def test_ctrl_c_after_the_command_ran_says_its_own_line(entry: str, cli: str, command: str, said: str,
                                                        tmp_path: Path) -> None:
    """The command has run (``tournament add`` added the players); a Ctrl-C as the command line
    closes says so, never that the command had not begun."""
    args = [command]
    if command == "add":
        from tournament import create_event, make_settings, open_event

        create_event(tmp_path / "club.db", make_settings("Club", "competitive", "pairs")).close()
        args += [str(tmp_path / "club.db"), "Ana", "Bo"]
    r = _run(entry, cli, "closing", *args)
    assert (r.returncode, r.stderr) == (2, said), r
    if command == "add":
        with open_event(tmp_path / "club.db") as store:
            assert [p.name for p in store.players()] == ["Ana", "Bo"]


@pytest.mark.parametrize("entry, cli, command", COMMANDS)
def test_ctrl_c_once_the_command_has_ended_changes_nothing(entry: str, cli: str, command: str,
                                                           tmp_path: Path) -> None:
    args = [command] + ([str(tmp_path / "missing.db")] if command == "info" else [])
    r = _run(entry, cli, "exit", *args)
    expected = 0 if command == "schema" else 2  # (info of a missing file: its own one-line refusal)
    assert r.returncode == expected, r
    assert "Traceback" not in r.stderr and "KeyboardInterrupt" not in r.stderr, r.stderr
    if command == "info":
        assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1, r.stderr


#: The ``domrec`` script as pip writes it, with the ``domrec`` package's own import interrupted
#: (it comes before the entry point's guard: ``from domrec.entry import main`` imports it first).
_SCRIPT = """
import builtins, sys
real = builtins.__import__
def interrupted(name, *args, **kwargs):
    if name == "domrec.validate":
        raise KeyboardInterrupt
    return real(name, *args, **kwargs)
builtins.__import__ = interrupted
from domrec.entry import main
sys.exit(main())
"""


@pytest.mark.parametrize("name", ["domrec", "program.py"])
def test_ctrl_c_while_the_domrec_package_loads(name: str, tmp_path: Path) -> None:
    """The ``domrec`` command: one line, exit 2; any other program importing domrec gets its
    KeyboardInterrupt as ever."""
    script = tmp_path / name
    script.write_text(_SCRIPT)
    r = subprocess.run([sys.executable, str(script), "schema"], capture_output=True, text=True, timeout=120)
    if name == "domrec":
        assert (r.returncode, r.stderr, r.stdout) == (2, BEFORE, ""), r
    else:
        assert r.returncode != 2 and r.stderr.rstrip().endswith("KeyboardInterrupt"), r

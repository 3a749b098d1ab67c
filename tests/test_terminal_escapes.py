"""A control character of a name, a reason or a comment never reaches a terminal raw.

Names, reasons and comments are refused with control characters when typed, but an event file
or a record written elsewhere (by hand with sqlite3, by another program) may hold one: ESC would
clear the director's screen, retitle the window or hide text, and a C1 control (U+009B is a CSI of
its own) likewise.  Both commands write every line for people through one escaping
(``domrec.console.Printable``, ``domrec.errors.printable``): such a character shows as ``\\x1b``.

Run in a real terminal (a pty): click strips CSI sequences from what it writes to a pipe, so a test
that reads a pipe passes where a terminal would get the raw sequence.  The commands' own codes (the
colour of a refusal, the bold headers of a table, a progress bar's redraws) still reach it."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tournament.pages.terminal import printable

from tests.conftest import SAMPLES

#: Clears the screen, retitles the window (ended by BEL), then a C1 CSI that would colour red.
PAYLOAD = "\x1b[2J\x1b]0;pwned\x07\x9b31m"
#: What the commands write themselves at a terminal: colour and bold (SGR), a progress bar's
#: cursor hiding, line erasing and moving up, and the carriage returns of its redraws.
OWN_CODES = re.compile(r"\x1b\[[0-9;]*m|\x1b\[\?25[lh]|\x1b\[2K|\x1b\[[0-9]*[AG]|\r")
#: What must never reach the terminal from data: ESC, BEL, the other C0 controls but the line
#: feed and the tab, DEL and the C1 controls.
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


#: Run as ``python -c`` with standard output and standard error on a pty (or on pipes): each
#: command of ``sys.argv[1]`` (a JSON list of [module, args]) as ``python -m MODULE ARGS`` runs it
#: (:func:`runpy.run_module` as ``__main__``, ``sys.argv`` its own), one after the other in this one
#: program, each from the process's own standard streams (put back before each: nothing one
#: command leaves wrapped reaches the next), its exit status as the process's would be (a
#: traceback and 1 for an uncaught exception), then a line of :data:`MARK` with its number and
#: status, written to the terminal itself.  A program of its own for each command cost most of
#: the module's time (the interpreter and the commands' imports, twenty times).
MARK = "@@domrec-test-command-ended@@"
DRIVER = f"""
import json, os, runpy, sys, traceback
streams = sys.stdout, sys.stderr
for k, (module, args) in enumerate(json.loads(sys.argv[1])):
    sys.stdout, sys.stderr = streams
    sys.argv = [module, *args]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr, *streams):
        stream.flush()
    sys.stdout, sys.stderr = streams
    os.write(1, ("\\n{MARK} %d %d\\n" % (k, code)).encode())
"""
_ENDED = re.compile(r"\r?\n" + re.escape(MARK) + r" ([0-9]+) (-?[0-9]+)\r?\n")


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return env


def _each(commands: list[tuple[str, tuple[str, ...]]], written: str) -> list[tuple[int, str]]:
    """What :data:`DRIVER` wrote, cut at its marks: each command's exit status and output."""
    out, start = [], 0
    for k, ended in enumerate(_ENDED.finditer(written)):
        assert int(ended.group(1)) == k, written
        out.append((int(ended.group(2)), written[start:ended.start()]))
        start = ended.end()
    assert len(out) == len(commands) and not written[start:].strip(), (commands[len(out):], written[start:])
    return out


def in_terminal(commands: list[tuple[str, tuple[str, ...]]], cwd: Path) -> list[tuple[int, str]]:
    """Commands run by a program of their own (:data:`DRIVER`) with standard output and standard
    error on a pty: for each, its exit code and what the terminal got (decoded, before any
    terminal's interpretation)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, json.dumps(commands)], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, cwd=cwd, env=_env())
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 120)
        if not ready:
            proc.kill()
            raise AssertionError(f"{commands}: no output for 120 s")
        try:
            data = os.read(master, 65536)
        except OSError:  # EIO: the program has ended and closed the pty
            break
        if not data:
            break
        chunks.append(data)
    code = proc.wait(timeout=60)
    os.close(master)
    written = b"".join(chunks).decode("utf-8", "replace")
    assert code == 0, written
    return _each(commands, written)


def raw_controls(shown: str) -> list[str]:
    """The control characters the terminal got besides the commands' own codes."""
    return RAW.findall(OWN_CODES.sub("", shown))


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> Path:
    """An event of 12 players, round 1 paired, table 1's result entered and amended, whose names,
    event name and amendment reason hold :data:`PAYLOAD` (written with sqlite3, as another program
    would, after table 1's record was entered: a record holding a control character is refused,
    so the stored record names the players as they were, and `check` names both); table 2's
    record, with the players' names as the event holds them (refused, its file's name holding the
    payload too); two domrec records, a name and an invalid seat holding it (refused where they
    are read: tests/test_control_characters.py)."""
    from tournament import add_players, create_event, enter_record, make_settings, open_event, pair_next_round
    from tournament.event import venue as vn

    from tests.tournament.conftest import play_table

    here = tmp_path_factory.mktemp("escapes")
    path = here / "e.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=7))
    add_players(store, [f"P{i}" for i in range(1, 13)])
    pair_next_round(store)
    tables = store.tables(1)
    enter_record(store, play_table(store, tables[0], seed=1), "t1.json")
    store.close()
    conn = sqlite3.connect(path)
    with conn:
        for pid in range(1, 13):
            conn.execute("UPDATE players SET name = ? WHERE id = ?", (f"P{pid}{PAYLOAD}", pid))
        conn.execute("UPDATE meta SET value = json_set(value, '$.name', ?) WHERE key = 'settings'",
                     (f"Club{PAYLOAD}",))
    conn.close()
    store = open_event(path)
    # A file's name is data too (a folder of records written elsewhere).
    (here / f"t2{PAYLOAD}.json").write_text(play_table(store, tables[1], seed=2), encoding="utf-8")
    (here / "swap.txt").write_text(" ".join(f"#{p}" for p in tables[2].players[:2]))
    vn.links(store, "http://127.0.0.1:8000")
    store.close()
    from typer.testing import CliRunner

    from tournament.cli import app

    done = CliRunner().invoke(app, ["amend", str(path), "--round", "1", "--table", "1", "--score", "NS=100,EW=20",
                                    "--reason", "sheet misread"])
    assert done.exit_code == 0, done.output
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE result_audit SET reason = ?", (f"misread{PAYLOAD}",))
        conn.execute("UPDATE venue_tokens SET created_at = created_at || ?", (PAYLOAD,))
        conn.execute("UPDATE meta SET value = value || ? WHERE key = 'venue_printed_url'", (PAYLOAD,))
    conn.close()

    doc = json.loads((SAMPLES / "valid" / "competitive" / "domino.json").read_text(encoding="utf-8"))
    doc["players"][0]["name"] = f"Ana{PAYLOAD}"
    (here / "name.json").write_text(json.dumps(doc), encoding="utf-8")
    doc["hands"][0]["moves"][1]["seat"] = f"W{PAYLOAD}"
    (here / "seat.json").write_text(json.dumps(doc), encoding="utf-8")
    return here


TOURNAMENT = [
    ("history", "e.db"),
    ("check", "e.db"),
    ("report", "e.db", "-o", "report.html"),
    ("links", "e.db"),
    ("keys", "e.db"),
    ("sheets", "e.db", "-o", "sheets"),
    ("standings", "e.db", "--csv"),
    ("standings", "e.db", "--json"),
    ("tables", "e.db"),
    ("result", "e.db", f"t2{PAYLOAD}.json"),
    ("swap", "e.db", "SWAP"),
    ("history", "e.db", "--csv"),
]
DOMREC = [
    ("validate", "name.json"),
    ("validate", "-v", "seat.json"),
    ("explain", "name.json"),
    ("explain", "seat.json"),
    ("validate", "--json", "seat.json"),
]


#: The commands' own codes at a terminal: a verdict in colour, a table's bold headers.
OWN = [("domrec.cli", ("validate", "seat.json")), ("tournament.cli", ("players", "e.db"))]


@pytest.fixture(scope="module")
def shown(files: Path) -> dict[tuple[str, tuple[str, ...]], tuple[int, str]]:
    """Every command of :data:`TOURNAMENT`, :data:`DOMREC` and :data:`OWN` run at a terminal, in
    that order, by one program (:func:`in_terminal`): its exit code and what the terminal got."""
    commands = []
    for module, listed in (("tournament.cli", TOURNAMENT), ("domrec.cli", DOMREC), *((m, [a]) for m, a in OWN)):
        for args in listed:
            if "SWAP" in args:
                args = (*args[:-1], *(files / "swap.txt").read_text().split())
            commands.append((module, tuple(args)))
    assert len(set(commands)) == len(commands), commands  # (each its own entry)
    return dict(zip(commands, in_terminal(commands, cwd=files)))


def test_no_control_character_of_the_data_reaches_the_terminal(shown):
    shown_names = 0
    commands = [command for command in shown if command not in OWN]
    assert len(commands) == len(TOURNAMENT) + len(DOMREC)
    for (module, args) in commands:
        code, out = shown[module, args]
        assert code in (0, 1, 2), (args, out)
        assert raw_controls(out) == [], (args, out)
        if module == "tournament.cli":
            shown_names += printable(PAYLOAD) in out
        else:  # a record holding one is refused, naming it
            assert code == 2 and "control character, U+001B" in out, (args, out)
    assert shown_names >= 7  # the names, the reason, a file's name are shown, escaped


def test_the_commands_own_codes_still_reach_the_terminal(shown):
    """A verdict in colour (an unusable record's, magenta), a table's bold headers: not escaped."""
    code, out = shown[OWN[0]]
    assert code == 2 and "\x1b[1;35m" in out and raw_controls(out) == [], out
    code, out = shown[OWN[1]]
    assert code == 0 and re.search(r"\x1b\[[0-9;]*1[0-9;]*m", out) and raw_controls(out) == [], out


def test_data_written_to_a_pipe_is_exact(files: Path):
    """--json and --csv are data: exact in a pipe.  (A record holding a control character is
    refused, not converted: tests/test_control_characters.py.)  Both commands run by one program
    (:data:`DRIVER`), its standard output and standard error on pipes."""
    commands = [("tournament.cli", ("standings", "e.db", "--csv")), ("tournament.cli", ("players", "e.db", "--json"))]
    proc = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], capture_output=True, text=True,
                          cwd=files, env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)})
    assert proc.returncode == 0, proc.stderr
    for (module, args), (code, out) in zip(commands, _each(commands, proc.stdout)):
        assert code == 0, proc.stderr
        if "--json" in args:
            assert f"P1{PAYLOAD}" in [p["name"] for p in json.loads(out)]
        elif "--csv" in args:
            assert f"P1{PAYLOAD}" in out
        else:
            assert json.loads(out)["players"][0]["name"] == f"Ana{PAYLOAD}"


def test_every_command_of_both_apps_writes_through_the_escaping():
    """No command can print around it: each is made by ``guarded`` (tournament) or
    ``printable_command`` (domrec), which install :class:`domrec.console.Printable`."""
    from domrec.cli import app as domrec_app
    from tournament.cli import app as tournament_app

    for app in (domrec_app, tournament_app):
        callbacks = [c.callback for c in app.registered_commands]
        assert callbacks and all(getattr(c, "printable", False) for c in callbacks), \
            [c.__name__ for c in callbacks if not getattr(c, "printable", False)]

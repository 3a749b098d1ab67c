"""Command-line conventions of both commands (issue 13, point 8): --version, -h, shell
completion, help texts without Python types, colour only on a terminal (never with NO_COLOR),
progress bars only on a terminal."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from importlib import metadata
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from domrec.cli import app as domrec_app
from tournament.cli import app as tournament_app

from tests.conftest import SAMPLES

runner = CliRunner()
APPS = {"domrec": domrec_app, "tournament": tournament_app}
MODULES = {"domrec": "domrec.cli", "tournament": "tournament.cli"}
INVALID = SAMPLES / "invalid" / "competitive"
ESC = "\x1b["


def _invalid_sample() -> Path:
    """A competitive sample that breaks the rules (exit 1), not one that cannot be read."""
    return next(p for p in sorted(INVALID.glob("*.json"))
                if '"status": "invalid"' in p.with_suffix(".expect").read_text(encoding="utf-8"))


def _commands(name: str) -> list[str]:
    return sorted(typer.main.get_command(APPS[name]).commands)


# --- --version, -h, completion --------------------------------------------------------------------

@pytest.mark.parametrize("name", APPS)
def test_version_prints_the_package_version(name):
    r = runner.invoke(APPS[name], ["--version"])
    assert r.exit_code == 0
    assert r.stdout.split()[0] == name and r.stdout.split()[-1] == metadata.version("domrec")


@pytest.mark.parametrize("name", APPS)
def test_dash_h_is_help_everywhere(name):
    for args in ([], [_commands(name)[0]], [_commands(name)[-1]]):
        short = runner.invoke(APPS[name], [*args, "-h"])
        long = runner.invoke(APPS[name], [*args, "--help"])
        assert short.exit_code == long.exit_code == 0
        assert short.stdout == long.stdout and "Usage:" in short.stdout


@pytest.mark.parametrize("name", APPS)
def test_no_arguments_still_shows_help(name):
    r = runner.invoke(APPS[name], [])
    assert "Usage:" in r.stdout and "--version" in r.stdout and "--install-completion" in r.stdout


@pytest.mark.parametrize("name", APPS)
def test_completion_can_be_shown_and_answers(name, monkeypatch):
    # Typer asks shellingham which shell runs it, from the process's parents; a test worker's
    # parents need not include one (a detached run), so the shell is said here: bash.
    import typer.completion

    monkeypatch.setattr(typer.completion, "_get_shell_name", lambda: "bash")
    r = runner.invoke(APPS[name], ["--show-completion"], prog_name=name)
    assert r.exit_code == 0 and f"_{name.upper()}_COMPLETE" in r.stdout
    script = Path(sys.executable).with_name(name)
    if not script.exists():
        pytest.skip(f"no {name} console script beside {sys.executable}")
    env = {**os.environ, f"_{name.upper()}_COMPLETE": "complete_bash", "COMP_WORDS": f"{name} sim",
           "COMP_CWORD": "1"}
    proc = subprocess.run([str(script)], env=env, capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout.split() == ["simulate"]


# --- help texts -----------------------------------------------------------------------------------

PYTHON_TYPES = re.compile(r"<(bool|str|int|float|path|list|tuple|dict|int range)\b|list\[|\[str\]|\[int\]|"
                          r"Optional|NoneType|typing\.|pathlib|<class")


@pytest.mark.parametrize("name", APPS)
def test_help_texts_show_no_python_types(name):
    pages = {"": runner.invoke(APPS[name], ["--help"])}
    for command in _commands(name):
        pages[command] = runner.invoke(APPS[name], [command, "--help"])
    assert len(pages) > 5
    for command, r in pages.items():
        assert r.exit_code == 0, (command, r.output)
        found = PYTHON_TYPES.findall(r.stdout)
        assert not found, f"{name} {command} --help shows {found}:\n{r.stdout}"


@pytest.mark.parametrize("name", APPS)
def test_help_texts_keep_their_square_brackets(name):
    """Rich reads ``[word]`` as markup and drops it: an option's help must escape it (``\\[``), or
    ``pip install 'domrec[dask]'`` is shown as ``pip install 'domrec'``."""
    import typer.main

    group = typer.main.get_command(APPS[name])
    checked = 0
    for command_name, command in group.commands.items():
        page = re.sub(r"[\s│]", "", runner.invoke(APPS[name], [command_name, "--help"]).stdout)
        for param in command.params:
            for token in re.findall(r"\w\\?\[[a-z_-]+\]", getattr(param, "help", None) or ""):
                assert token.replace("\\", "") in page, f"{name} {command_name} --help lost {token}"
                checked += 1
    assert checked or name != "domrec"


def test_help_still_names_what_a_value_is():
    text = runner.invoke(domrec_app, ["simulate", "--help"]).stdout
    assert re.search(r"--games\s+-n\s+INTEGER", text) and re.search(r"--option\s+TEXT", text)
    text = runner.invoke(tournament_app, ["new", "--help"]).stdout
    assert re.search(r"event\s+PATH", text)


# --- colour and progress: a terminal, a pipe, NO_COLOR ----------------------------------------------

def _run(module: str, args: list, tty: tuple[str, ...] = (), env: dict | None = None,
         cwd: Path | None = None) -> tuple[int, str, str]:
    """Run ``python -m module args`` with the streams named in ``tty`` on a pseudo-terminal
    (80 columns) and the others piped; returns (exit code, stdout, stderr).  With no stream on a
    terminal, the command's app is run in this process instead (Typer's test runner: both streams
    piped, the same environment), as ``python -m`` runs it (each module's ``main`` is ``app()``):
    a process of its own is the point only where a terminal is."""
    import pty

    if not tty and cwd is None:
        done = CliRunner().invoke(APPS[module.split(".")[0]], [str(a) for a in args],
                                  env={"COLUMNS": "80", "NO_COLOR": None, **(env or {})})
        assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
        return done.exit_code, done.stdout, done.stderr
    environment = {**os.environ, "COLUMNS": "80", **(env or {})}
    environment.pop("NO_COLOR", None) if not (env and "NO_COLOR" in env) else None
    command = [sys.executable, "-m", module, *map(str, args)]
    if not tty:
        proc = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=cwd)
        return proc.returncode, proc.stdout, proc.stderr
    master, slave = pty.openpty()
    streams = {s: (slave if s in tty else subprocess.PIPE) for s in ("stdout", "stderr")}
    proc = subprocess.Popen(command, stdin=subprocess.DEVNULL, env=environment, cwd=cwd, **streams)
    os.close(slave)
    chunks: list[bytes] = []

    def drain() -> None:
        while True:
            try:
                data = os.read(master, 4096)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    out, err = proc.communicate()
    reader.join()
    os.close(master)
    said = b"".join(chunks).decode(errors="replace")
    return (proc.returncode, said if "stdout" in tty else out.decode(errors="replace"),
            said if "stderr" in tty else err.decode(errors="replace"))


def test_invalid_and_problem_lines_in_colour_on_a_terminal_only():
    sample = _invalid_sample()
    code, out, _ = _run("domrec.cli", ["validate", sample], tty=("stdout",))
    assert code == 1 and f"{ESC}1;31m" in out and "INVALID" in out
    problem = next(line for line in out.splitlines() if line.startswith(f"{ESC}33m  "))
    assert problem.endswith(f"{ESC}0m")
    code, piped, _ = _run("domrec.cli", ["validate", sample])
    assert code == 1 and ESC not in piped and "INVALID" in piped
    # Once the escapes are taken away, the terminal shows the very lines a pipe gets.
    assert re.sub(r"\x1b\[[0-9;]*m", "", out).replace("\r\n", "\n") == piped


@pytest.mark.parametrize("value, coloured", [("1", False), ("yes", False), ("", True)])
def test_no_color_turns_colour_off(value, coloured):
    """https://no-color.org: any non-empty value; an empty NO_COLOR is as if unset."""
    sample = _invalid_sample()
    _, out, _ = _run("domrec.cli", ["validate", sample], tty=("stdout",), env={"NO_COLOR": value})
    assert (ESC in out) is coloured and "INVALID" in out


def test_valid_lines_are_never_coloured():
    sample = sorted((SAMPLES / "valid" / "competitive").glob("*.json"))[0]
    code, out, _ = _run("domrec.cli", ["validate", sample], tty=("stdout",))
    assert code == 0 and ESC not in out


def test_tournament_errors_in_colour_on_a_terminal_only(tmp_path):
    missing = tmp_path / "none.db"
    code, _, err = _run("tournament.cli", ["info", missing], tty=("stderr",))
    assert code == 2 and f"{ESC}1;31merror:" in err
    code, _, err = _run("tournament.cli", ["info", missing], tty=("stderr",), env={"NO_COLOR": "1"})
    assert code == 2 and ESC not in err and "error:" in err
    code, _, err = _run("tournament.cli", ["info", missing])
    assert code == 2 and ESC not in err and err.startswith("error:")


def test_convert_problem_lines_in_colour_on_a_terminal(tmp_path):
    sample = _invalid_sample()
    code, _, err = _run("domrec.cli", ["convert", sample, "--to", "dgn", "--fill"], tty=("stderr",))
    assert code in (1, 2) and f"{ESC}33m  " in err
    code, _, err = _run("domrec.cli", ["convert", sample, "--to", "dgn", "--fill"])
    assert code in (1, 2) and ESC not in err


def test_domrec_simulate_progress_bar_on_a_terminal_only(tmp_path):
    out = tmp_path / "games.jsonl"
    code, _, err = _run("domrec.cli", ["simulate", "competitive", "-n", "30", "-o", out], tty=("stderr",))
    assert code == 0 and "simulating" in err
    first = out.read_bytes()
    out.unlink()
    code, _, err = _run("domrec.cli", ["simulate", "competitive", "-n", "30", "-o", out])
    assert code == 0 and err == "" and out.read_bytes() == first


def test_domrec_simulate_to_the_terminal_has_no_bar_between_records():
    code, out, _ = _run("domrec.cli", ["simulate", "competitive", "-n", "2"], tty=("stdout", "stderr"))
    assert code == 0 and "simulating" not in out


def test_tournament_simulate_progress_bar_on_a_terminal_only(tmp_path):
    code, _, err = _run("tournament.cli", ["simulate", tmp_path / "a.db", "-p", "8", "-n", "2"], tty=("stderr",))
    assert code == 0 and "simulating" in err and "round 2:" in err
    code, _, err = _run("tournament.cli", ["simulate", tmp_path / "b.db", "-p", "8", "-n", "2"])
    assert code == 0 and "simulating" not in err and ESC not in err
    assert err.splitlines() == ["round 1: 2 tables, 0 byes", "round 2: 2 tables, 0 byes"]
    code, _, err = _run("tournament.cli", ["simulate", tmp_path / "c.db", "-p", "8", "-n", "2", "-q"],
                        tty=("stderr",))
    assert code == 0 and err.strip() == ""


def test_ratings_and_check_progress_bar_on_a_terminal_only(tmp_path):
    event = tmp_path / "ev.db"  # (made in-process: only the commands read on a terminal need one)
    assert runner.invoke(tournament_app, ["simulate", str(event), "-p", "8", "-n", "1", "-q"]).exit_code == 0
    code, out, err = _run("tournament.cli", ["ratings", tmp_path / "r.db", "--add", event], tty=("stderr",))
    assert code == 0 and "rating" in err and "8 players" not in err
    code, out, err = _run("tournament.cli", ["ratings", tmp_path / "r2.db", "--add", event])
    assert code == 0 and err == "" and "ratings: 1 event(s)" in out
    code, _, err = _run("tournament.cli", ["check", event], tty=("stderr",))
    assert code == 0 and "checking the event" in err
    code, _, err = _run("tournament.cli", ["check", event])
    assert code == 0 and err == ""


# --- Horse Race: how a count pegs -----------------------------------------------------------------

def test_horse_race_messages_say_how_a_count_pegs():
    from domrec.games import horserace as H

    assert H.peg_words(15, False) == "the ends total 15, which pegs 3: one point per five"
    assert H.peg_words(15, True) == "the ends total 15, which pegs 15: the full count, in celko"
    assert H.peg_words(12, False) == "the ends total 12, which scores nothing (not a multiple of five)"
    assert H.peg_words(0, False) == "the ends total 0, which scores nothing (nothing is open to count)"
    for count in range(0, 40):  # the words and the engine's arithmetic never disagree
        for celko in (False, True):
            rule = H.peg_rule(count, celko)
            assert rule.startswith(f"pegs {H.pegs(count, celko)}:") if H.pegs(count, celko) else \
                rule.startswith("no score")


def test_horse_race_spinner_message_gives_both_counts():
    code_text = runner.invoke(domrec_app, ["validate", str(SAMPLES / "invalid" / "horse-race" /
                                           "spinner-end-before-sides.json")]).stdout
    assert "where the ends would total 15, which pegs 3; on the side the ends total 5, which pegs 1: " \
           "one point per five" in code_text


def test_horse_race_score_why_explains_a_wrong_claim():
    """The hook a replay driver uses to say why a move scores what it scores."""
    from domrec import games, reader

    record = reader.loads((SAMPLES / "valid" / "horse-race" / "chain-of-three.json").read_bytes())
    engine = games.engine(record.game)
    match = engine.start(record)
    hand = record.hands[0]
    state = match.start_hand(hand)
    said = []
    for move in hand.moves:
        points = state.apply(move)
        said.append((points, state.score_why(move, points)))
    assert any(p and why.startswith("the open ends are ") and why.endswith(
        f": {p} point{'s' if p != 1 else ''} (one point per five)") for p, why in said)
    assert all(why.startswith(("the open ends are", "nothing is open", "a draw scores nothing",
                               "a pass scores nothing")) for _, why in said)
    assert all(("0 points" in why or "scores nothing" in why) == (p == 0) for p, why in said)


USAGE_MISTAKES = [("domrec", ["validate", "--bogus"], "No such option: --bogus"),
                  ("domrec", ["simulate", "competitive", "-n", "0"], "--games"),
                  ("domrec", ["nosuchcommand"], "No such command"),
                  ("tournament", ["tables", "ev.db", "--round", "99999999999999999999"], "--round"),
                  ("tournament", ["tables"], "Missing argument"),
                  ("tournament", ["pair", "ev.db", "--what"], "No such option")]


@pytest.mark.parametrize("name,args,words", USAGE_MISTAKES, ids=lambda x: " ".join(x) if isinstance(x, list) else x)
def test_a_usage_mistake_is_one_line_and_exit_2(name, args, words):
    """A usage error reads like every other error: one line, where to look for help, exit 2; no
    framed box, no traceback.  Each program's first mistake is made to the program run as a
    process of its own; the others to its app in this process (a process's start is a second)."""
    if next(m for m in USAGE_MISTAKES if m[0] == name)[1] == args:
        proc = subprocess.run([sys.executable, "-m", MODULES[name], *args], capture_output=True, text=True,
                              timeout=120, env={**os.environ, "NO_COLOR": "1"})
        code, stdout, stderr = proc.returncode, proc.stdout, proc.stderr
    else:
        done = CliRunner().invoke(APPS[name], args, env={"NO_COLOR": "1"})
        assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
        code, stdout, stderr = done.exit_code, done.stdout, done.stderr
    assert code == 2, stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and words in lines[0], stderr
    assert "-h)" in lines[0] and stdout == ""

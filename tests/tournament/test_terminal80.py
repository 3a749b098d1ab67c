"""The director's terminal at 80 columns: a round's tables keep their numbers and fit, partners
sit side by side, names wrap between words (or after a hyphen), never inside one; ``check``,
``history`` and ``bracket`` wrap their lines; ``pair --quiet`` says one line; a bye counted as a
win is shown as a bye.  One test reads a real terminal (tmux)."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_players, create_event, make_settings, pair_next_round
from tournament.cli import app
from tournament.pages.terminal import column_widths, longest_word, wrap_lines

LONG_PAIRS = [("Maria del Carmen Fernández-Ortega", "José Luis Rodríguez Zapatero"),
              ("Alexandrina Konstantinopoulou", "Bartholomew Featherstonehaugh"),
              ("Ana Bo", "Cy Di"), ("Ed Fa", "Gus Ha")]


def run(*args, columns: int = 80):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns), "NO_COLOR": "1"})


def _pairs_event(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.db"
    create_event(path, make_settings("Club night", "competitive", "pairs", seed=1)).close()
    for a, b in LONG_PAIRS:
        assert run("add", path, a, b).exit_code == 0
    return path


def _words_whole(output: str, names, shortened: bool = False) -> None:
    """Every word of every name is on one line of the output (a hyphenated word may break after
    its hyphen, as print does); ``shortened``: or the name was shortened before it, a word cut
    then ending in "…", never cut without it."""
    flat = output.replace("│", " ").replace("┃", " ")
    lines = [line.split() for line in flat.splitlines()]
    present = {w for line in lines for w in line}
    words = {w for name in names for w in name.split()}
    for w in present:
        if w.endswith("…"):  # a shortened word is the start of a word of a name
            stem = w[:-1]
            assert any(x.startswith(stem) for x in words) or re.fullmatch(r"#\d+", stem), (w, output)
    for name in names:
        for word in name.split():
            parts = re.split(r"(?<=\w-)(?=\w)", word)
            if shortened and not (word in present or all(p in present for p in parts)):
                assert "…" in output, (word, output)  # gone after an ellipsis, not cut silently
                continue
            assert word in present or all(p in present for p in parts), (word, output)


def test_a_pairs_round_fits_80_columns_one_line_a_table(tmp_path):
    """Issue 39: one line a table, a pair by its number and name (shortened with "…"), the
    score; ``--wide`` a seat a column."""
    path = _pairs_event(tmp_path)
    r = run("pair", path)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= 80, r.output
    assert lines[1].split() == ["table", "NS", "EW", "score"]
    body = lines[3:]
    assert [line.split()[0] for line in body if line.strip()] == ["1", "2"]  # one line a table
    assert all(re.search(r"\s#\d\s", line) for line in body if line.strip())
    _words_whole(r.output, [n for pair in LONG_PAIRS for n in pair], shortened=True)
    wide = run("tables", path, "--wide")
    header = next(line for line in wide.output.splitlines() if line.startswith("┃"))
    assert [c.strip() for c in header.strip("┃").split("┃")] == ["table", "NS pair", "N", "S", "EW pair", "E", "W",
                                                                   "result"]


def test_an_individual_round_of_six_fits_80_columns(tmp_path):
    path = tmp_path / "cr.db"
    names = ["Maria del Carmen Fernández-Ortega", "Alexandrina Konstantinopoulou", "Bartholomew Featherstonehaugh",
             "Li Wei", "Jo", "Xiomara Altagracia Peña"]
    store = create_event(path, make_settings("Castle night", "castle-rock", "individual", table_size=6, seed=2))
    add_players(store, names)
    pair_next_round(store)
    store.close()
    r = run("tables", path)
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80, r.output
    assert "table" in r.output.splitlines()[1]
    _words_whole(r.output, names, shortened=True)


def test_pair_quiet_says_one_line(tmp_path):
    path = _pairs_event(tmp_path)
    r = run("pair", path, "--quiet")
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines() == ["Club night — round 1: 2 tables, 4 pairs seated, 0 byes "
                                             "(`tournament tables` prints them)"]


def test_long_lines_wrap_between_words_with_an_indent():
    line = "  round 3, table 12: " + " ".join(["Featherstonehaugh"] * 8)
    out = wrap_lines(line, 40)
    assert all(len(x) <= 40 for x in out) and len(out) > 1
    assert out[0].startswith("  round 3") and all(x.startswith("    ") for x in out[1:])
    assert " ".join(x.strip() for x in out) == line.strip()
    assert wrap_lines("x" * 90, 40) == ["x" * 90]  # a word wider than the terminal runs over, whole


def test_names_share_the_width_and_never_go_below_their_longest_word():
    rows = [{"n": 1, "name": "Supercalifragilistic-Wordsworth and more words here"}, {"n": 22, "name": "Bo"}]
    widths = column_widths(rows, ["n", "name"], 30)
    assert widths["n"] == 2 and widths["name"] >= longest_word(rows, "name") == len("Supercalifragilistic-")


def test_a_bye_counted_as_a_win_keeps_its_column_at_80(tmp_path):
    """Every column stays at 80 (issue 39): the byes under a short header explained below."""
    from tests.tournament.test_pages import long_names_event
    path = long_names_event(tmp_path / "copa.db")
    r = run("standings", path)
    assert r.exit_code == 0
    header = next(line for line in r.output.splitlines() if line.startswith("rank"))
    assert "bye" in header.split() and "bye byes" in r.output and "(1 bye)" not in r.output, r.output
    assert "not shown" not in r.output
    wide = run("standings", path, "--wide")
    assert "(1 bye)" not in wide.output and "byes" in wide.output


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_tables_in_a_real_80_column_terminal(tmp_path):
    """tmux, 80 columns: what the director reads on the screen."""
    path = _pairs_event(tmp_path)
    assert run("pair", path, "--quiet").exit_code == 0
    socket_name = f"domrec-80-{uuid.uuid4().hex[:8]}"
    done = tmp_path / "done"
    command = shlex.join([sys.executable, "-m", "tournament.cli", "tables", str(path)]) + f"; touch {done}; sleep 60"
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g history-limit 2000\n")

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", socket_name, "-f", str(conf), *args], capture_output=True, text=True,
                              timeout=120).stdout

    tmux("new-session", "-d", "-s", "main", "-x", "80", "-y", "50", command)
    try:
        deadline = time.monotonic() + 120
        while not done.exists():
            assert time.monotonic() < deadline, tmux("capture-pane", "-p", "-t", "main")
            time.sleep(0.05)
        screen = tmux("capture-pane", "-p", "-t", "main")
    finally:
        tmux("kill-server")
    assert "Club night — round 1" in screen
    assert max(len(line.rstrip()) for line in screen.splitlines()) <= 80
    _words_whole(screen, [n for pair in LONG_PAIRS for n in pair], shortened=True)
    assert re.search(r"^\s+1  #\d ", screen, re.M) and re.search(r"^\s+2  #\d ", screen, re.M)


def test_in_print_names_wrap_between_words_only():
    """On screen a long name may break anywhere rather than widen a phone's table; on paper the
    column widens instead, so a name is never cut inside a word."""
    from tournament.pages.report import CSS
    printed = CSS[CSS.index("@media print"):]
    assert re.search(r"td\.name,\.match\{overflow-wrap:normal;word-break:normal", printed)


@pytest.mark.parametrize("command", [("standings",), ("tables",), ("players",)])
def test_a_reader_gone_ends_a_table_as_done_not_refused(tmp_path, command):
    """``tournament standings EVENT | head -1``: rich answered the closed pipe with exit 1, which
    says the command was refused (``set -o pipefail`` scripts stopped there); every command ends
    as done now, exit 0 and no word, as one that prints no table did.  The pipe's reading end is
    closed before the command starts, so that its first write meets it, however it is scheduled."""
    import os

    path = _pairs_event(tmp_path)
    assert run("pair", path).exit_code == 0
    read, write = os.pipe()
    os.close(read)
    try:
        done = subprocess.run([sys.executable, "-m", "tournament.cli", *command, str(path)], stdout=write,
                              stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert done.returncode == 0 and done.stderr == "", (done.returncode, done.stderr)

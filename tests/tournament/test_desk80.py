"""The director's desk at 80 columns, round two (issue 39): a round's tables one line a table
(a side's number and name, the score, never the names again), the standings one or two lines an
entry with every column kept (forfeits included), every message wrapped between words at a
terminal (and left on one line in a pipe), and one number for a pair everywhere the desk prints.
One test reads a real terminal of 80 columns (tmux)."""

from __future__ import annotations

import os
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

from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round
from tournament.cli import app
from tournament.pages import terminal

PAIRS = [("Maria del Carmen Fernández-Ortega", "José Luis Rodríguez Zapatero"),
         ("Alexandrina Konstantinopoulou", "Bartholomew Featherstonehaugh"),
         ("Ana Bo", "Cy Di"), ("Ed", "Fa"), ("Gus", "Ha")]
WORDS = {w for pair in PAIRS for name in pair for w in name.split()}


def run(*args, columns: int = 80, code: int | None = 0):
    r = CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": str(columns), "NO_COLOR": "1"})
    if code is not None:
        assert r.exit_code == code, r.output
    return r


def _pairs_event(path: Path, played: bool = True) -> Path:
    """Five pairs of long names (ten players, numbered 1-10; pairs 1-5): round 1 paired, a bye;
    with ``played``, one table typed in and the other a forfeit."""
    run("new", path, "--name", "Club night", "--game", "competitive", "--format", "pairs", "--seed", 7)
    for a, b in PAIRS:
        run("add", path, a, b)
    run("pair", path, "--quiet")
    if played:
        run("result", path, "--round", 1, "--table", 1, "--score", "NS=150,EW=200")
        run("result", path, "--round", 1, "--table", 2, "--forfeit", "NS")
    return path


def _body(output: str) -> list[str]:
    """A table's lines under its header rule, up to the first line that is not a row."""
    lines = output.splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) <= {"─", "━", "┡", "╇", "┩"} and line.strip())
    out = []
    for line in lines[rule + 1:]:
        if not line.strip() or line.startswith("└") or not (line.startswith((" ", "│"))):
            break
        out.append(line)
    return out


def _no_word_cut(output: str, words=WORDS) -> None:
    """A name's word is whole, or shortened with "…" (the start of a word of a name, or a number)."""
    for token in output.replace("│", " ").split():
        if token.endswith("…"):
            stem = token[:-1]
            assert not stem or any(w.startswith(stem) for w in words) or re.fullmatch(r"#?\d+", stem), (token, output)


# --- the renderers, at 80 and 120 ------------------------------------------------------------------

def test_shorten_keeps_whole_words_or_says_it_cut():
    assert terminal.shorten("Ana Bo & Cy Di", 20) == "Ana Bo & Cy Di"
    assert terminal.shorten("Ana Bo & Cy Di", 10) == "Ana Bo &\nCy Di"  # two lines, between words
    two = terminal.shorten("Maria del Carmen Fernández-Ortega & José Luis", 20)
    assert two.splitlines()[0] == "Maria del Carmen" and two.endswith("…") and len(two.splitlines()) == 2
    assert all(len(line) <= 20 for line in two.splitlines())
    one = terminal.shorten("#12 Alexandrina Konstantinopoulou", 16, lines=1)
    assert one == "#12 Alexandrina…" and len(one) <= 16
    # partners with numbers: each keeps its number
    both = terminal.shorten("#7 José Miguel Santana & #16 Xiomara Altagracia Peña", 24, lines=1)
    assert len(both) <= 24 and "#7 " in both and "#16" in both


@pytest.mark.parametrize("width", [80, 120])
def test_standings_rows_keep_every_column_in_one_or_two_lines(monkeypatch, capsys, width):
    """The renderer itself: every column of a pairs event's standings (forfeits, byes, Buchholz,
    the number, the status) at 80 and at 120, a row in one or two lines, no line over."""
    monkeypatch.setenv("COLUMNS", str(width))
    names = [" & ".join(p) for p in PAIRS]
    rows = [{"rank": i + 1, "name": n, "wins": 1, "diff": -200 + i, "for": 200, "played": 1, "no.": i + 1,
             "W-D-L": "1-0-0", "byes": 0, "against": 150, "Buchholz": 3, "forfeits": i % 2,
             "status": "withdrawn" if i == 4 else "active"} for i, n in enumerate(names)]
    terminal.print_table(rows, "Club night — standings after round 1", ["ranked by wins"],
                         keep={"rank", "name", "wins", "diff", "for"})
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= width, out
    assert "not shown" not in out
    header = out.splitlines()[1].split()
    for column in ("rank", "name", "wins", "diff", "for", "no.", "W-D-L"):
        assert column in header, out
    for long, short in (("played", "pl"), ("byes", "bye"), ("against", "agst"), ("Buchholz", "Bch"),
                        ("forfeits", "ff")):
        assert long in header or (short in header and f"{short} {long}" in out.replace("points against", "against"))
    body = _body(out)
    starts = [i for i, line in enumerate(body) if line[:6].strip()]
    assert len(starts) == len(rows)
    assert all(b - a <= 2 for a, b in zip(starts, starts[1:] + [len(body)])), out  # one or two lines
    assert "(withdrawn)" in out  # the status column folded into the name, not dropped
    _no_word_cut(out)


# --- tables: one line a table --------------------------------------------------------------------

@pytest.mark.parametrize("width", [80, 120])
def test_a_pairs_round_is_one_line_a_table(tmp_path, width):
    path = _pairs_event(tmp_path / "p.db")
    r = run("tables", path, columns=width)
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= width, r.output
    body = _body(r.output)
    assert len(body) == 2, r.output  # two tables, a line each
    for line in body:
        cells = [c for c in re.split(r"\s{2,}|│", line) if c.strip()]
        assert re.fullmatch(r"\s*\d+\s*", cells[0])
        assert all(re.match(r"\s*#[1-5] ", c) for c in cells[1:3]), line  # each side: its pair's number
    assert "150–200 EW won (manual)" in r.output and "0–200 EW won (forfeit)" in r.output
    assert "won (" + "Gus" not in r.output  # the score, not the winners' names again
    _no_word_cut(r.output)


@pytest.mark.parametrize("game, fmt, size, players", [("horse-race", "individual", 4, 8),
                                                      ("competitive", "rotating", 4, 8),
                                                      ("domino-roads", "individual", 3, 6)])
def test_other_events_fit_one_line_a_table(tmp_path, game, fmt, size, players):
    path = tmp_path / "e.db"
    names = ["Maria del Carmen Fernández-Ortega", "Alexandrina Konstantinopoulou", "Bartholomew Featherstonehaugh",
             "Li Wei", "Jo", "Xiomara Altagracia Peña", "Ed", "Fa"][:players]
    store = create_event(path, make_settings("Night", game, fmt, size, seed=3))
    add_players(store, names)
    pair_next_round(store)
    t = store.tables(1)[0]
    enter_manual(store, t.number, {side: 10 * i for i, side in enumerate(dict.fromkeys(s.side for s in t.seats))})
    store.close()
    r = run("tables", path)
    assert max(len(line) for line in r.output.splitlines()) <= 80, r.output
    assert len(_body(r.output)) == players // size, r.output
    assert "won" in r.output and "(manual)" in r.output
    _no_word_cut(r.output, {w for n in names for w in n.split()})


def test_a_team_round_is_one_line_a_table(tmp_path):
    path = tmp_path / "t.db"
    run("simulate", path, "--format", "teams", "--teams", 4, "--rounds", 1, "--seed", 2, "-q")
    r = run("tables", path)
    assert max(len(line) for line in r.output.splitlines()) <= 80, r.output
    assert len(_body(r.output)) == 4 and "Tables 1-2:" in r.output


# --- standings at 80: every column, forfeits included ------------------------------------------------

def test_pairs_standings_keep_the_forfeits_at_80(tmp_path):
    path = _pairs_event(tmp_path / "p.db")
    r = run("standings", path)
    assert max(len(line) for line in r.output.splitlines()) <= 80, r.output
    header = r.output.splitlines()[1].split()
    assert {"ff", "bye", "no.", "Bch", "agst", "pl"} <= set(header), r.output
    assert "ff forfeits" in r.output and "not shown" not in r.output
    body = _body(r.output)
    starts = [i for i, line in enumerate(body) if line[:6].strip()]
    assert len(starts) == 5 and all(b - a <= 2 for a, b in zip(starts, starts[1:] + [len(body)]))
    ff = header.index("ff")
    forfeited = next(line for line in body if line.split()[1] == "Alexandrina")
    assert forfeited.split()[-1] == "1" and ff == len(header) - 1  # the forfeit counted, in its column
    _no_word_cut(r.output)


# --- one numbering ---------------------------------------------------------------------------------------

def test_a_pair_has_one_number_everywhere_the_desk_prints(tmp_path):
    """Players 1-10, pairs 1-5: the desk shows the pairs' numbers, never a player's."""
    path = _pairs_event(tmp_path / "p.db")
    players = re.compile(r"#(?:[6-9]|10)\b")
    outputs = {
        "tables": run("tables", path).output,
        "tables 120": run("tables", path, columns=120).output,
        "tables --wide": run("tables", path, "--wide").output,
        "balance": run("balance", path).output,
        "apart": run("apart", path, "Ed", "Gus").output,
        "pin": run("pin", path, "Ed", "--table", 1).output,
        "pins": run("pin", path, "--list").output,
        "sit-out": run("sit-out", path, "Gus").output,
        "history": run("history", path).output,
    }
    for what, out in outputs.items():
        assert not players.search(out), (what, out)
    assert re.search(r"bye: pair #\d Maria del Carmen", outputs["tables"])
    assert "Ed (pair #4) and Gus (pair #5)" in outputs["apart"] and "Ed (pair #4)" in outputs["history"]
    standings = run("standings", path, "--json").stdout
    import json
    by_name = {r["name"]: r["id"] for r in json.loads(standings)["standings"]}
    for name, number in by_name.items():  # the number beside a pair in the tables is its standings number
        shown = name[:12]
        assert re.search(rf"#{number} {re.escape(shown)}", outputs["tables --wide"] + outputs["tables"]), name


# --- messages: wrapped at a terminal, one line in a pipe ----------------------------------------------

SESSION = [  # (arguments, exit code): a director's evening, refusals included
    (["new", "club.db", "--name", "Club night at the Círculo Dominicano de Nueva York", "--game", "competitive",
      "--format", "pairs", "--seed", "7"], 0),
    *[(["add", "club.db", a, b], 0) for a, b in PAIRS],
    (["pair", "club.db"], 0),
    (["result", "club.db", "--round", "1", "--table", "9", "--score", "NS=1,EW=2"], 2),
    (["result", "club.db", "--round", "1", "--table", "1", "--score", "NS=150,EW=200"], 0),
    (["result", "club.db", "--round", "1", "--table", "2", "--forfeit", "NS", "--reason",
      "the North-South pair had not come back from the break"], 0),
    (["amend", "club.db", "--round", "1", "--table", "1", "--score", "NS=180,EW=200", "--reason",
      "the score sheet was misread by the director at the desk"], 0),
    (["pair", "club.db"], None),
    (["unpair", "club.db"], None),
    (["apart", "club.db", "Alexandrina Konstantinopoulou", "Maria del Carmen Fernández-Ortega"], 0),
    (["sit-out", "club.db", "Ed"], 0),
    (["add", "club.db", "Ana Bo", "Cy Di"], None),
    (["history", "club.db"], 0),
    (["tables", "club.db"], 0),
    (["standings", "club.db"], 0),
    (["check", "club.db"], None),
    (["standings", "club.db", "--best", "3"], 2),
]


def _session(tmp_path: Path, monkeypatch, terminal_width: int | None) -> list[str]:
    """The session's output, command by command, as a terminal of ``terminal_width`` shows it
    (None: a pipe)."""
    from domrec import console

    tmp_path.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(console, "line_width", lambda stream: terminal_width)
    out = []
    for args, code in SESSION:
        r = CliRunner().invoke(app, args, env={"COLUMNS": "80", "NO_COLOR": "1"})
        if code is not None:
            assert r.exit_code == code, (args, r.output)
        assert "Traceback" not in r.output
        out.append(r.output)
    return out


def test_every_message_of_a_directors_session_fits_80_columns(tmp_path, monkeypatch):
    at_terminal = _session(tmp_path / "tty", monkeypatch, 80)
    piped = _session(tmp_path / "pipe", monkeypatch, None)
    for args, shown, plain in zip(SESSION, at_terminal, piped):
        assert max((len(line) for line in shown.splitlines()), default=0) <= 80, (args, shown)
        # Only the spaces and line ends differ: no word cut, none lost, none added.
        when = re.compile(r"\d{4}-\d\d-\d\dT[\d:]+\+00:00")  # the two sessions' clocks differ
        # (sorted: the history orders changes of one second as its clock saw them)
        assert sorted(when.sub("T", shown).split()) == sorted(when.sub("T", plain).split()), (args, shown, plain)
    # In a pipe a message stays one line, however long, for a script to grep.
    assert any(len(line) > 80 for out in piped for line in out.splitlines())
    amended = next(p for (args, _), p in zip(SESSION, piped) if args[0] == "amend")
    assert len(amended.strip().splitlines()) == 1


def test_fit_line_wraps_between_words_with_an_indent():
    from domrec.console import fit_line

    line = "error: round 1 has no table 9 (it has 2 tables); nothing was stored, " + "Featherstonehaugh " * 5
    out = fit_line(line.strip(), 40)
    assert len(out) > 1 and all(len(x) <= 40 for x in out) and all(x.startswith("  ") for x in out[1:])
    assert " ".join(x.strip() for x in out) == line.strip()
    assert fit_line("short", 40) == ["short"]
    assert fit_line("/a/very/long/path/" * 4, 20) == ["/a/very/long/path/" * 4]  # a word runs over, whole


# --- a real terminal -------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_desk_in_a_real_80_column_terminal(tmp_path):
    """tmux, 80 columns: a refusal, a long confirmation, the tables and the standings of a pairs
    event; no line over 80, and the words those of the same commands piped (none cut)."""
    # Two events made alike (same seed): one for the terminal, one for the pipe.
    for folder in ("tty", "pipe"):
        (tmp_path / folder).mkdir()
    events = [_pairs_event(tmp_path / "tty" / "p.db"), _pairs_event(tmp_path / "pipe" / "p.db")]

    def commands(path: Path) -> list[list[str]]:
        tool = [sys.executable, "-m", "tournament.cli"]
        return [[*tool, "result", str(path), "--round", "1", "--table", "9", "--score", "NS=1,EW=2"],
                [*tool, "amend", str(path), "--round", "1", "--table", "1", "--score", "NS=181,EW=200",
                 "--reason", "the score sheet was misread by the director at the desk"],
                [*tool, "tables", str(path)],
                [*tool, "standings", str(path)]]

    done = tmp_path / "done"
    script = "; ".join(shlex.join(c) + " 2>&1" for c in commands(Path("p.db")))
    conf = tmp_path / "tmux.conf"
    conf.write_text("set -g history-limit 5000\n")
    socket_name = f"domrec-d80-{uuid.uuid4().hex[:8]}"

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", socket_name, "-f", str(conf), *args], capture_output=True, text=True,
                              timeout=120).stdout

    tmux("new-session", "-d", "-s", "main", "-x", "80", "-y", "40", "-c", str(events[0].parent),
         f"env -u COLUMNS NO_COLOR=1 sh -c {shlex.quote(script)}; touch {done}; sleep 120")
    try:
        deadline = time.monotonic() + 180
        while not done.exists():
            assert time.monotonic() < deadline, tmux("capture-pane", "-p", "-t", "main")
            time.sleep(0.05)
        screen = tmux("capture-pane", "-p", "-t", "main", "-S", "-")
    finally:
        tmux("kill-server")
    assert "Club night — round 1" in screen and "standings after round 1" in screen
    assert max(len(line.rstrip()) for line in screen.splitlines()) <= 80, screen
    assert any(line.startswith("  ") and "history" in line for line in screen.splitlines())  # wrapped, indented
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    piped = [subprocess.run(c, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            cwd=events[1].parent).stdout for c in commands(Path("p.db"))]
    assert any(len(line) > 80 for out in piped[:2] for line in out.splitlines())  # one line in a pipe
    assert screen.split() == "".join(piped).split(), (screen, piped)  # the same words: none cut
    _no_word_cut(screen)


def test_the_public_pages_number_a_pair_as_the_desk_does(tmp_path):
    """Find your table and a player's page show the pair's number (the standings' no.), never the
    player's; a search by that number finds both its players."""
    from tournament import open_event
    from tournament.event import public as pub

    path = _pairs_event(tmp_path / "p.db")
    run("report", path, "-o", tmp_path / "r.html")
    index = (tmp_path / "r-pages" / "index.html").read_text(encoding="utf-8")
    numbers = re.findall(r'<span class="no">#(\d+)</span>', index)
    assert numbers and set(numbers) <= {"1", "2", "3", "4", "5"}, numbers  # pairs 1-5, never players 6-10
    ha = (tmp_path / "r-pages" / "player-10.html").read_text(encoding="utf-8")  # Ha, of pair #5 Gus & Ha
    assert "<h2><bdi>Ha</bdi></h2>" in ha and "Pair: #5 <bdi>Gus &amp; Ha</bdi>" in ha  # (each name isolated)
    with open_event(path) as store:
        data = pub.public_data(store)
    rows = pub.find_your_table(pub.current_round(data["rounds"]), pub._pair_numbers(data))
    assert sorted(r["name"] for r in pub.search(rows, "#5")) == ["Gus", "Ha"]

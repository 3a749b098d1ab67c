"""The walk-through of docs/tournament.md ("A whole event, start to finish"), run for real.

The test runs the section's sequence through the CLI in a temporary folder, with the section's own
``play.py`` (taken from the document, not copied here), and then holds the document to it:

* every output line the section shows (not a command, not ``…``) must be a line of the real output
  (terminal table rows compared cell by cell, so that borders and padding may change; the history
  line without its timestamp);
* every ``tournament`` command the section shows must be one the test ran;
* and the facts the prose states are asserted one by one (exit codes, the time-stopped game, the
  forfeit, the warning of ``check``, the trail line, the champion, the report and the export).

When one of these fails after a change to the tool, the walk-through is out of date: run it again
(the commands are in the section) and paste the new output into docs/tournament.md.
"""

from __future__ import annotations

import glob
import json
import re
import runpy
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournament.md"
TITLE = "## A whole event, start to finish"

PLAYERS = """name,club
Ana Ortiz,Norte
Bo Lindqvist,Norte
Carmen Ruiz,Norte
Dmitri Volkov,Norte
Elena Soto,Sur
Femi Adeyemi,Sur
Gus Moreno,Sur
Hana Kato,Sur
Iris Vega,Este
Jon Aguirre,Este
Kiri Tane,Este
Luis Pena,Este
Maite Ibarra,Oeste
Nils Berg,Oeste
Olga Petrova,Oeste
Pablo Diaz,Oeste
Quique Rojas,Centro
Rosa Blanco,Centro
Sami Haddad,Centro
Tere Molina,Centro
Ugo Ferri,Puerto
Vera Cruz,Puerto
Wen Li,Puerto
Ximena Paz,Puerto
"""

TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00\s+")


def section() -> str:
    text = DOC.read_text(encoding="utf-8")
    assert TITLE in text, f"docs/tournament.md has no section {TITLE!r}"
    body = text.split(TITLE, 1)[1]
    return body.split("\n## ", 1)[0]


def blocks(kind: str = "") -> list[str]:
    """The section's fenced blocks of ``kind`` (``""``: plain blocks, ``"python"``)."""
    found: list[str] = []
    info: str | None = None  # the open fence's info string, None outside a block
    lines: list[str] = []
    for line in section().splitlines():
        if line.startswith("```"):
            if info is None:
                info, lines = line[3:].strip(), []
            else:
                if info == kind:
                    found.append("\n".join(lines) + "\n")
                info = None
        elif info is not None:
            lines.append(line)
    return found


class Walk:
    """Runs the commands, keeps every command line and every output."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.runner = CliRunner()
        self.commands: list[list[str]] = []
        self.outputs: list[str] = []
        self.play_script = folder / "play.py"
        scripts = blocks("python")
        assert len(scripts) == 1, "the walk-through should show exactly one Python script (play.py)"
        self.play_script.write_text(scripts[0], encoding="utf-8")

    def __call__(self, *args: str, expect: int = 0, shown: str | None = None) -> str:
        """``tournament ARGS``; ``shown`` is the command as the document writes it (globs unexpanded)."""
        result = self.runner.invoke(app, list(args), env={"COLUMNS": "200", "NO_COLOR": "1"})
        out = result.output
        assert "Traceback" not in out
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
        assert result.exit_code == expect, f"tournament {' '.join(args)} → {result.exit_code}:\n{out}"
        self.commands.append(shlex.split(shown) if shown else ["tournament", *args])
        self.outputs.append(out)
        return out

    def play(self, round_no: int, *on_time: int) -> None:
        saved = sys.argv
        sys.argv = ["play.py", "open.db", str(round_no), "games", *map(str, on_time)]
        try:
            runpy.run_path(str(self.play_script), run_name="__main__")
        finally:
            sys.argv = saved

    def result(self, pattern: str) -> str:
        files = sorted(glob.glob(pattern))
        assert files, pattern
        return self("result", "open.db", *files, shown=f"tournament result open.db {pattern}")


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    folder = tmp_path_factory.mktemp("walk")
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(folder)
        (folder / "players.csv").write_text(PLAYERS, encoding="utf-8")
        w = Walk(folder)
        w.csv_head = "\n".join(PLAYERS.splitlines()[:3])
        w.created = w("new", "open.db", "--name", "Spring Open", "--game", "competitive", "--format", "rotating",
                      "--tiebreak", "wins,head-to-head,efectividad", "--head-to-head", "mini-league",
                      "--time-limit", "45", "--forfeit-score", "200", "--seed", "14")
        w.added = w("add", "open.db", "--csv", "players.csv")
        w.info = w("info", "open.db")
        w.round1 = w("pair", "open.db")
        w.round1_csv = w("tables", "open.db", "--round", "1", "--csv")
        w.sheets = w("sheets", "open.db", "-o", "round1")
        w.play(1, 3)
        w.results1 = w.result("games/round1-*.json")

        w.round2 = w("pair", "open.db")
        w.play(2)
        w.result("games/round2-table[1-4].json")
        w.manual = w("result", "open.db", "--table", "5", "--score", "NS=200,EW=151")
        w.forfeit = w("result", "open.db", "--table", "6", "--forfeit", "EW")
        w.tables2 = w("tables", "open.db", "--round", "2")

        w.round3 = w("pair", "open.db")
        w.amend = w("amend", "open.db", "--round", "2", "--table", "5", "--score", "NS=151,EW=200",
                    "--reason", "sheet misread: the 200 was EW's", "--by", "Marta")
        w.check3 = w("check", "open.db")
        w.history = w("history", "open.db")
        w.play(3)
        w.result("games/round3-*.json")
        for r in (4, 5):
            w("pair", "open.db")
            w.play(r)
            w.result(f"games/round{r}-*.json")
        w.standings_csv = w("standings", "open.db", "--csv")
        w.final = w("final", "open.db", "--top", "4")
        for r in (6, 7, 8):
            w.play(r)
        w.final_results = w.result("games/round[678]-*.json")
        w.bracket = w("bracket", "open.db")
        w.final_csv = w("standings", "open.db", "--stage", "2", "--csv")
        w.standings = w("standings", "open.db")
        w.report = w("report", "open.db", "-o", "event.html")
        w.export = w("export", "open.db", "-o", "event.json")
        w.export_csv = w("export", "open.db", "-o", "event-csv", "--csv")
        w.check_end = w("check", "open.db")
        w.html = (folder / "event.html").read_text(encoding="utf-8")
        w.json = json.loads((folder / "event.json").read_text(encoding="utf-8"))
        yield w


# --- the document against the run ---------------------------------------------------------------

def cells(line: str) -> tuple[str, ...] | None:
    """A terminal table row as its cells (any border style), or None for a line that is not one."""
    if not any(bar in line for bar in "│┃"):
        return None
    parts = [c.strip() for c in re.split(r"[│┃]", line)]
    while parts and not parts[0]:
        parts.pop(0)
    while parts and not parts[-1]:
        parts.pop()
    return tuple(parts)


def shown_outputs() -> list[str]:
    """Every output line the section's plain blocks show (commands, their continuations and … left out)."""
    lines: list[str] = []
    for block in blocks():
        continued = False
        for line in block.splitlines():
            if line.startswith("$ "):
                continued = line.endswith("\\")
                continue
            if continued:
                continued = line.endswith("\\")
                continue
            if line.strip() in ("…", ""):
                continue
            lines.append(line)
    return lines


def shown_commands() -> list[str]:
    """Every ``tournament`` command of the section, continuations joined, pipes, redirections and comments dropped."""
    commands: list[str] = []
    for block in blocks():
        joined = re.sub(r"\\\n\s*", "", block)
        for line in joined.splitlines():
            if line.startswith("$ tournament "):
                command = re.split(r"\s[|>#]", line[2:])[0].strip()
                commands.append(command)
    return commands


def test_every_output_line_the_section_shows_is_real(walk):
    produced = "\n".join([*walk.outputs, walk.csv_head]).splitlines()
    plain = {line.strip() for line in produced}
    plain |= {TIMESTAMP.sub("", line.strip()) for line in produced}
    rows = {cells(line) for line in produced} - {None}
    # The jq lines: the same values, written as jq -c writes them.
    plain.add(json.dumps(walk.json["stages"][0]["champion"]))
    plain.add(json.dumps(walk.json["rounds"][1]["tables"][5]["result"], separators=(",", ":"), ensure_ascii=False))
    # The standings rows shown are cut from the CSV (columns 1, 3, 9, 14-16).
    for line in walk.standings_csv.splitlines():
        f = line.split(",")
        plain.add(",".join([f[0], f[2], f[8], *f[13:16]]))
    missing = []
    for line in shown_outputs():
        row = cells(line)
        if row is not None:
            if row not in rows:
                missing.append(line)
        elif line.strip() not in plain and TIMESTAMP.sub("", line.strip()) not in plain:
            missing.append(line)
    assert not missing, ("docs/tournament.md, 'A whole event, start to finish', shows output the tool no longer "
                         "gives; run the walk-through again and update it:\n" + "\n".join(missing))


def test_every_command_the_section_shows_was_run(walk):
    shown = shown_commands()
    assert len(shown) >= 20
    stale = [c for c in shown if shlex.split(c) not in walk.commands]
    assert not stale, f"commands in the walk-through that the test does not run: {stale}"


# --- the facts the walk-through states -----------------------------------------------------------

def test_the_event_settings(walk):
    assert "created open.db: Spring Open — competitive, rotating, tables of 4" in walk.created
    assert walk.added.count("added #") == 24 and "added #24 Ximena Paz (from round 1)" in walk.added
    for line in ("ranking: wins, then head-to-head, then efectividad", "time limit: 45 minutes a game",
                 "forfeit score: 200-0"):
        assert line in walk.info


def test_round_one_is_six_tables_and_sheets_carry_the_time_limit(walk):
    rows = [r for r in map(cells, walk.round1.splitlines()) if r and r[0].isdigit()]
    assert [r[0] for r in rows] == ["1", "2", "3", "4", "5", "6"]
    assert "bye" not in walk.round1
    assert len(walk.round1_csv.strip().splitlines()) == 1 + 24
    sheets = (walk.folder / "round1" / "round1-score-sheets.html").read_text(encoding="utf-8")
    assert "competitive, time limit 45 minutes" in sheets
    assert len(list((walk.folder / "round1").glob("*.dgn"))) == 6


def test_the_game_stopped_by_the_clock(walk):
    record = json.loads((walk.folder / "games" / "round1-table3.json").read_text(encoding="utf-8"))
    assert record["ended"] == "time"
    assert "round 1 table 3: NS 53, EW 184; winner EW (verified record, ended on time: the side ahead wins)" \
        in walk.results1
    assert walk.results1.count("ended on time") == 1


def test_the_manual_score_and_the_forfeit(walk):
    assert "(manual entry, unverified) — stored" in walk.manual
    row5 = [r for r in map(cells, walk.tables2.splitlines()) if r and r[0] == "5"]
    assert row5 and "(manual)" in row5[0][-1]
    assert "round 2 table 6: NS 200, EW 0; winner NS (forfeit: EW did not play) — stored" in walk.forfeit
    row6 = [r for r in map(cells, walk.tables2.splitlines()) if r and r[0] == "6"]
    assert row6 and "forfeit: EW did not play" in row6[0][-1]
    header, *rows = [line.split(",") for line in walk.standings_csv.splitlines()]
    forfeits = {r[2]: r[header.index("forfeits")] for r in rows}
    assert forfeits["Maite Ibarra"] == forfeits["Pablo Diaz"] == "1"
    assert sum(v == "1" for v in forfeits.values()) == 2


def test_the_correction_warning_and_trail(walk):
    assert "amended (the old result is kept: `tournament history`)" in walk.amend
    assert "warning: round 3: paired on standings that have changed since" in walk.check3
    assert "after round 2 table 5 was amended" in walk.check3
    assert "0 errors, 2 warnings" in walk.check3  # warnings only: check exits 0 (asserted by the runner)
    trail = [TIMESTAMP.sub("", line) for line in walk.history.splitlines() if line.strip()]
    assert trail == ["round 2 table 5  by Marta: NS 200, EW 151; winner NS (manual) → NS 151, EW 200; "
                     "winner EW (manual) — sheet misread: the 200 was EW's"]


def test_the_final_and_its_champion(walk):
    assert "final table 1 (places 1-4): #12 Luis Pena, #3 Carmen Ruiz, #15 Olga Petrova, #11 Kiri Tane" in walk.final
    assert walk.final.count(": to play") == 3
    assert walk.final_results.count("— stored") == 3
    assert "champion: Kiri Tane" in walk.bracket
    assert walk.final_csv.splitlines()[1].startswith("1,11,Kiri Tane,1,3,3,")
    assert walk.final_csv.splitlines()[1].endswith(",4")  # fourth after the rounds
    assert "Kiri Tane" in walk.standings and "Luis Pena" in walk.standings


def test_report_export_and_last_check(walk):
    assert "Kiri Tane" in walk.html and "forfeit: EW did not play" in walk.html
    assert walk.json["stages"][0]["champion"] == "Kiri Tane"
    forfeit = walk.json["rounds"][1]["tables"][5]["result"]
    assert forfeit["kind"] == "forfeit" and forfeit["forfeit"] == ["EW"]
    tables_csv = (walk.folder / "event-csv" / "tables.csv").read_text(encoding="utf-8")
    assert tables_csv.count(",forfeit") == 4
    assert "open.db: 8 rounds, 33 results (31 records re-validated): 0 errors, 2 warnings" in walk.check_end

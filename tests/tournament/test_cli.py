"""The command line: exit codes, one-line errors and never a traceback."""

from __future__ import annotations

import csv
import functools
import io
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app

from tests.tournament.conftest import play_table

runner = CliRunner()


def run(*args: str):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "") + (result.stderr if result.stderr_bytes else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def new_event(tmp_path: Path, fmt: str = "rotating") -> Path:
    path = tmp_path / "ev.db"
    r = run("new", path, "--name", "Club night", "--game", "competitive", "--format", fmt, "--seed", "4")
    assert r.exit_code == 0, r.output
    return path


def test_director_flow(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    names = tmp_path / "players.csv"
    names.write_text("name\nAna\n\"O'Brien, Pat\"\nZoë\nRobert'); DROP TABLE players;--\nEd\nFlo\nGus\nHal\nIvo\n",
                     encoding="utf-8")
    assert run("add", path, "--csv", names).exit_code == 0
    assert run("add", path, "Late Lou").exit_code == 0
    r = run("pair", path)
    assert r.exit_code == 0 and "bye" in r.output
    r = run("tables", path, "--round", "1", "--csv")
    rows = list(csv.DictReader(io.StringIO(r.stdout)))
    assert {row["name"] for row in rows} == {"Ana", "O'Brien, Pat", "Zoë", "Robert'); DROP TABLE players;--", "Ed",
                                              "Flo", "Gus", "Hal", "Ivo", "Late Lou"}
    assert sum(row["table"] == "bye" for row in rows) == 2
    # A record for table 1, from a file.
    from tournament import open_event
    store = open_event(path)
    t1 = store.tables(1)[0]
    record = tmp_path / "t1.json"
    record.write_text(play_table(store, t1, seed=1), encoding="utf-8")
    store.close()
    r = run("result", path, record)
    assert r.exit_code == 0 and "stored" in r.output
    r = run("result", path, record)
    assert r.exit_code == 0 and "already stored" in r.output
    r = run("result", path, "--table", "2", "--score", "NS=200,EW=143")
    assert r.exit_code == 0 and "unverified" in r.output
    r = run("result", path, "--table", "2", "--score", "NS=100,EW=203")
    assert r.exit_code == 1 and "--replace" in r.stderr
    r = run("result", path, "--table", "2", "--score", "NS=100,EW=203", "--replace")
    assert r.exit_code == 0 and "replaced" in r.output
    r = run("standings", path, "--json")
    doc = json.loads(r.stdout)
    assert doc["provisional"] is False and len(doc["standings"]) == 10
    assert "Robert'); DROP TABLE players;--" in {row["name"] for row in doc["standings"]}
    r = run("standings", path)
    assert r.exit_code == 0 and "Zoë" in r.stdout
    r = run("standings", path, "--csv")
    assert r.stdout.splitlines()[0].startswith("rank,id,name")
    r = run("check", path)
    assert r.exit_code == 0 and "0 errors" in r.output
    assert run("withdraw", path, "Zoë").exit_code == 0
    r = run("pair", path, "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["round"] == 2
    r = run("players", path, "--json")
    assert any(p["name"] == "Zoë" and p["withdrawn_from"] == 2 for p in json.loads(r.stdout))
    assert run("info", path).exit_code == 0


def test_refusals_exit_1(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    run("add", path, *[f"p{i}" for i in range(8)])
    run("pair", path)
    r = run("pair", path)
    assert r.exit_code == 1 and "not finished" in r.stderr
    bad = tmp_path / "bad.json"
    from tournament import open_event
    store = open_event(path)
    doc = json.loads(play_table(store, store.tables(1)[0], seed=2))
    store.close()
    doc["result"]["winner"] = "EW" if doc["result"]["winner"] == "NS" else "NS"
    bad.write_text(json.dumps(doc))
    r = run("result", path, bad)
    assert r.exit_code == 1 and "invalid" in r.stderr and "winner" in r.stderr
    r = run("result", path, "--table", "7", "--score", "NS=1,EW=2")
    assert r.exit_code == 2 and "has no table 7" in r.stderr  # a usage mistake, as in `amend`


@pytest.mark.parametrize("setup,args,msg", [
    ("none", ["standings"], "no such event file"),
    ("text", ["standings"], "not an SQLite database"),
    ("other", ["tables"], "another kind"),
    ("event", ["tables", "--round", "5"], "has not been paired"),
    ("none", ["new", "--name", "x", "--game", "chess", "--format", "pairs"], "unknown game"),
    ("event", ["new", "--name", "x", "--game", "competitive", "--format", "pairs"], "already exists"),
    ("event", ["result", "missing.json"], "no such file"),
    ("event", ["result", "--table", "1", "--score", "NS=abc"], "whole number|NAME=VALUE"),
    ("event", ["add", "--csv", "nothere.csv"], "no such file"),
])
def test_unusable_input_exit_2(tmp_path: Path, setup: str, args: list[str], msg: str) -> None:
    path = tmp_path / "ev.db"
    if setup == "text":
        path.write_text("hello")
    elif setup == "other":
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE x(a)")
        conn.commit()
        conn.close()
    elif setup == "event":
        new_event(tmp_path)
        run("add", path, *[f"p{i}" for i in range(4)])
        run("pair", path)
    cmd, *rest = args
    rest = [str(tmp_path / a) if a.endswith((".json", ".csv")) else a for a in rest]
    r = run(cmd, path, *rest)
    assert r.exit_code == 2, r.output
    assert msg.split("|")[0] in r.stderr or any(m in r.stderr for m in msg.split("|"))
    assert len([line for line in r.stderr.splitlines() if line.startswith("error:")]) == 1
    if setup == "none" and cmd != "new":
        assert not path.exists()


def test_corrupt_database_is_a_clean_exit_2(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    run("add", path, *[f"player number {i}" for i in range(200)])
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    for i in range(4096, len(data), 3):
        data[i] = 0x5A
    path.write_bytes(bytes(data))
    # (through the app in this process: ``run`` fails on any exception but an exit, and on a traceback
    # printed; the exit code and the streams are the console script's)
    r = run("players", path)
    assert r.exit_code == 2
    assert "Traceback" not in r.stderr and r.stderr.startswith("error:")


def test_console_script_simulate_and_check(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "tournament"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "tournament.cli"]
    path = tmp_path / "sim.db"
    proc = subprocess.run(cmd + ["simulate", str(path), "--players", "10", "--rounds", "3", "--seed", "2", "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    # The file the installed command wrote, checked, and kept from a second simulate, through the same
    # app in this process (its exit codes and streams are the console script's; a start-up less each).
    r = run("check", path)
    assert r.exit_code == 0 and "0 errors" in r.stdout
    r = run("simulate", path)
    assert r.exit_code == 2 and "already exists" in r.stderr


@pytest.mark.parametrize("score,msg", [
    ("NS=--5,EW=1", "whole number"),
    ("NS=²,EW=1", "whole number"),
    ("NS=٣,EW=1", "whole number"),
    ("NS=1,EW=2,NS=3", "twice"),
])
def test_manual_score_syntax_errors_are_usage_errors(tmp_path: Path, score: str, msg: str) -> None:
    path = new_event(tmp_path)
    run("add", path, *[f"p{i}" for i in range(8)])
    run("pair", path)
    r = run("result", path, "--table", "1", "--score", score)
    assert r.exit_code == 2, r.output
    assert msg in r.stderr and "internal error" not in r.stderr
    from tournament import open_event
    with open_event(path) as store:
        assert store.results() == {}


def test_ratings_file_not_created_when_an_event_cannot_be_opened(tmp_path: Path) -> None:
    book = tmp_path / "ratings.db"
    for bad in (tmp_path / "missing.db", tmp_path / "text.db"):
        if bad.name == "text.db":
            bad.write_text("hello")
        r = run("ratings", book, "--add", bad)
        assert r.exit_code == 2
        assert not book.exists()


def test_csv_with_a_repeated_header_column_is_refused(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    names = tmp_path / "players.csv"
    names.write_text("name,name\nAna,Bo\n")
    r = run("add", path, "--csv", names)
    assert r.exit_code == 2 and "twice" in r.stderr
    assert run("players", path, "--json").stdout.strip() == "[]"


@pytest.mark.parametrize("args", [["--bye", "wins=nan"], ["--bye", "for=inf"]])
def test_non_finite_bye_is_refused(tmp_path: Path, args: list[str]) -> None:
    path = tmp_path / "ev.db"
    r = run("new", path, "--name", "x", "--game", "competitive", "--format", "pairs", *args)
    assert r.exit_code == 2 and "number" in r.stderr
    assert not path.exists()


@pytest.mark.parametrize("game, fmt, args, typed", [
    ("competitive", "pairs", ["--bye", "wins=١"], "١"), ("horse-race", "individual", ["--placement", "3,٢,1,0"], "٢"),
    ("competitive", "pairs", ["--sit-out-score", "wins=½"], "½"),
    ("horse-race", "individual", ["--placement", "３,2,1,0"], "３")])
def test_a_number_in_other_digits_than_0_to_9_is_refused(tmp_path: Path, game: str, fmt: str, args: list[str],
                                                          typed: str) -> None:
    """float() reads any script's digits (١ as 1): a number typed in them is refused, naming it."""
    path = tmp_path / "ev.db"
    r = run("new", path, "--name", "x", "--game", game, "--format", fmt, *args)
    assert r.exit_code == 2 and repr(typed) in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert not path.exists()


@pytest.mark.parametrize(("args", "typed"), [
    (["tables", "--round", "١"], "١"), (["result", "--table", "٣", "--score", "NS=1,EW=0"], "٣"),
    (["standings", "--best", "３"], "３"), (["tables", "-r٣"], "٣"), (["tables", "--round=٣"], "٣"),
    (["tables", "--round", "abc"], "abc")])
def test_a_whole_number_option_in_other_digits_is_a_usage_error(tmp_path: Path, args: list[str], typed: str) -> None:
    """Typer reads a whole-number option through pydantic, which takes digits 0-9 only (Click's own INT,
    int(), would read ٣ as 3): held here, so a Typer that reads them otherwise is seen.  Its line
    ("Input should be a valid integer, unable to parse string as an integer") did not say what was
    typed, as docs/tournament.md ("Limits") promises: now it does."""
    path = new_event(tmp_path, "pairs")
    r = run(args[0], path, *args[1:])
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    option = args[1].split("=")[0] if args[1].startswith("--") else "-r"
    assert option in r.stderr and f"{typed!r} is not a whole number in digits 0-9" in r.stderr, r.stderr


@pytest.mark.parametrize("extra", [["--table", "2"], ["--score", "NS=1,EW=0"], ["--table", "2", "--score", "NS=1,EW=0"]])
def test_a_record_with_table_or_score_names_what_was_given(tmp_path: Path, extra: list[str]) -> None:
    """``result RECORD --table 2`` said "give record files or --table/--score, not both", naming
    --score, which was not given: the line now names what was given, and why (a record finds its
    table by its players)."""
    path = new_event(tmp_path, "pairs")
    record = tmp_path / "game.json"
    record.write_text("{}")
    r = run("result", path, record, *extra)
    given = " and ".join(x for x in extra if x.startswith("--"))
    assert r.exit_code == 2 and r.stderr.count("\n") == 1, r.stderr
    assert f"a record file finds its own table by its players: give the record alone, without {given} " in r.stderr


def test_pair_name_listed_twice_is_a_file_error(tmp_path: Path) -> None:
    path = new_event(tmp_path, "pairs")
    names = tmp_path / "pairs.csv"
    names.write_text("name,partner,pair\nA,B,Team\nC,D,Team\n")
    r = run("add", path, "--csv", names)
    assert r.exit_code == 2 and "'Team' is listed twice" in r.stderr


@pytest.mark.parametrize("fmt, text, said", [
    ("rotating", "name\nZed\n\nYan\nZed\n", "line 5: 'Zed' is listed twice (first on line 2)"),
    ("rotating", "name\nAna\n\u0410na\n", "line 3: '\u0410na' and 'Ana' (line 2) look the same: one name listed twice"),
    ("rotating", "name\nAna\nB\x00o\n", "line 3: a player name cannot hold line breaks, tabs or other control "
                                          "characters: 'B\\x00o'"),
    # A quote left open takes the rows after it into one cell: said at the line the row starts on.
    ("rotating", 'name\nAna\n"Bo\nCy\n', "line 3: a player name cannot hold line breaks, tabs or other control "
                                         "characters: 'Bo\\nCy'"),
    ("pairs", "name,partner\nA1,B1\nA2,A1\n", "line 3: 'A1' is listed twice (first on line 2)"),
    ("pairs", "name,partner,pair\nA,B,Team\nC,D,Team\n", "line 3: the pair name 'Team' is listed twice (first on "
                                                        "line 2)"),
    ("pairs", "name,partner,pair\nA,B,X\x01\n", "line 2: a pair name cannot hold line breaks, tabs or other control "
                                              "characters: 'X\\x01'"),
])
def test_a_players_csv_names_the_line_of_a_refused_or_repeated_name(tmp_path: Path, fmt: str, text: str,
                                                                    said: str) -> None:
    """A name refused in a players CSV is said with the file and its line (the line of its first
    listing too, for a name listed twice), as a row too long is; nothing is added."""
    path = new_event(tmp_path, fmt)
    names = tmp_path / "players.csv"
    names.write_text(text)
    r = run("add", path, "--csv", names)
    assert r.exit_code == 2 and r.stderr == f"error: {names}, {said}\n", r.stderr
    assert run("players", path, "--json").stdout.strip() == "[]"


@pytest.mark.parametrize("text, said", [
    ("name,team\nA,T1\nB,T1\nC,T1\nD,T1\n\nA,T2\n", "line 7: 'A' is listed twice (first on line 2)"),
    ("name,team\nA,T1\n\nB,\n", "line 4: B has no team"),  # (it said line 3: blank lines were not counted)
    ("name,team\nA,T1\nB\x01,T1\n", "line 3: a player name cannot hold line breaks, tabs or other control "
                                   "characters: 'B\\x01'"),
    ("name,team\nA,T1\nB,T\x1b\n", "line 3: a team name cannot hold line breaks, tabs or other control "
                                  "characters: 'T\\x1b'"),
])
def test_a_team_events_players_csv_names_the_line_of_a_refused_name(tmp_path: Path, text: str, said: str) -> None:
    path = tmp_path / "ev.db"
    r = run("new", path, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", "4")
    assert r.exit_code == 0, r.output
    names = tmp_path / "players.csv"
    names.write_text(text)
    r = run("add", path, "--csv", names)
    assert r.exit_code == 2 and r.stderr == f"error: {names}, {said}\n", r.stderr


@pytest.mark.parametrize("sql, what", [
    ("UPDATE meta SET value = 'abc' WHERE key = 'schema_version'", "schema version"),
    ("DELETE FROM meta", "schema version"),
    ("DROP TABLE meta", "schema version"),
    ("UPDATE games SET sides = 'null'", "sides"),
    ("UPDATE games SET sides = '" + "[" * 5000 + "'", "sides"),
    ("UPDATE games SET sides = '[]'", "sides"),
    ("UPDATE games SET ranks = '[\"x\"]'", "ranks"),
    ("UPDATE games SET ranks = '[0.0]'", "ranks"),
])
def test_a_damaged_ratings_file_is_one_line_saying_to_make_it_again(tmp_path: Path, sql: str, what: str) -> None:
    """A ratings file whose meta or games the tool did not write so: "internal error" (ValueError,
    TypeError, RecursionError, openskill's own) before; now one line, exit 2, that says what to do:
    the file is made again from the events."""
    event = tmp_path / "ev.db"
    assert run("simulate", event, "--game", "competitive", "--format", "pairs", "-p", "8", "-n", "1").exit_code == 0
    book = tmp_path / "ratings.db"
    assert run("ratings", book, "--add", event).exit_code == 0
    conn = sqlite3.connect(book)
    conn.execute(sql)
    conn.commit()
    conn.close()
    r = run("ratings", book)
    assert r.exit_code == 2 and "internal error" not in r.stderr, r.stderr
    assert r.stderr.startswith(f"error: {book} is ") and what in r.stderr and r.stderr.count("\n") == 1, r.stderr
    assert r.stderr.rstrip().endswith("make it again from the events: tournament ratings NEW.db --add EVENT.db …") \
        or r.stderr.rstrip().endswith("the ratings file again from the events: tournament ratings NEW.db --add "
                                      "EVENT.db …"), r.stderr


def _as_nobody() -> list[str] | None:
    """A command prefix that drops root's right to write anywhere (root ignores file modes)."""
    import os
    import shutil
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    return [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"] if setpriv else None


@functools.cache
def _nobody_refused(prefix: tuple[str, ...], cmd: tuple[str, ...]) -> bool:
    """The unprivileged user cannot run this install (it is under a folder only root may enter),
    asked once a worker for both cases below: a process of its own costs a second."""
    probe = subprocess.run([*prefix, *cmd, "--help"], capture_output=True, text=True)
    return probe.returncode != 0 and "Permission denied" in probe.stderr


#: Runs, as the unprivileged user, each command of ``argv[1]`` (JSON) through the command line's
#: own app in one process (one start-up, not one a command): what each exits with, says on its
#: stdout and stderr, and any exception other than an exit, for the test to check.
_COMMANDS = """
import json, sys
from typer.testing import CliRunner
from tournament.cli import app
out = []
for args in json.loads(sys.argv[1]):
    r = CliRunner().invoke(app, args)
    error = None if r.exception is None or isinstance(r.exception, SystemExit) else repr(r.exception)
    out.append([r.exit_code, r.stdout, r.stderr, error])
print(json.dumps(out))
"""


@pytest.mark.parametrize("what", ["folder", "file", "both"])
def test_read_only_event_file_or_folder(what: str) -> None:
    """Every command that writes says in one line that the event is read-only, without damage.
    In a read-only folder even the commands that read are refused so (SQLite makes the WAL
    file's -wal and -shm beside it to read it; docs/tournament.md, "Safety"): copy the file.
    The first is run through the installed console script, as a director types it; the others,
    and the reading ones, in one more process through the same app (its exit code and its two
    streams are what the console script gives)."""
    import os
    import shutil
    import tempfile
    prefix = _as_nobody()
    if prefix is None:
        pytest.skip("running as root without setpriv: file modes cannot be tested")
    exe = Path(sys.executable).parent / "tournament"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "tournament.cli"]
    # (root, acting as nobody: an install under a private folder, such as mktemp -d's, is out of reach)
    if prefix and _nobody_refused(tuple(prefix), tuple(cmd)):
        pytest.skip("the unprivileged user cannot run this install (it is under a folder only root may "
                    "enter): file modes cannot be tested")
    top = Path(tempfile.mkdtemp(prefix="tournament-ro-"))
    try:
        os.chmod(top, 0o755)
        folder = top / "event"
        folder.mkdir()
        path = folder / "ev.db"
        assert run("simulate", path, "--players", "8", "--rounds", "1", "-q").exit_code == 0
        before = path.read_bytes()
        if os.geteuid() == 0:
            shutil.chown(folder, 65534, 65534)
            shutil.chown(path, 65534, 65534)
        if what in ("folder", "both"):
            os.chmod(folder, 0o555)
        if what in ("file", "both"):
            os.chmod(path, 0o444)

        def refused_read_only(args: list[str], code: int, stdout: str, stderr: str, error: str | None) -> None:
            assert error is None and code == 2, (args, code, stdout, stderr, error)
            assert "Traceback" not in stderr and stderr.count("\n") == 1, stderr
            assert "read-only" in stderr and "damaged" not in stderr, stderr

        writes = [["pair", str(path)], ["add", str(path), "Zed"], ["withdraw", str(path), "#1"]]
        reads = [["standings", str(path)], ["check", str(path)], ["info", str(path)]]
        proc = subprocess.run(prefix + cmd + writes[0], capture_output=True, text=True, cwd=top)
        refused_read_only(writes[0], proc.returncode, proc.stdout, proc.stderr, None)
        proc = subprocess.run([*prefix, sys.executable, "-c", _COMMANDS, json.dumps(writes[1:] + reads)],
                              capture_output=True, text=True, cwd=top)
        assert proc.returncode == 0, proc.stderr
        answers = json.loads(proc.stdout)
        for args, answer in zip(writes[1:], answers):
            refused_read_only(args, *answer)
        for args, (code, stdout, stderr, error) in zip(reads, answers[len(writes) - 1:]):
            if what == "file":  # the folder is writable: reading works
                assert error is None and code == 0, (args, code, stdout, stderr, error)
            else:  # not even read: one line, naming the -wal and -shm files SQLite cannot make
                refused_read_only(args, code, stdout, stderr, error)
                assert f"needs to write {path.name}-wal and {path.name}-shm beside" in stderr, stderr
        assert len(answers) == len(writes) - 1 + len(reads)
        assert path.read_bytes() == before
    finally:
        for p in [top, *top.rglob("*")]:
            os.chmod(p, 0o755 if p.is_dir() else 0o644)
        shutil.rmtree(top)


def test_result_from_an_empty_archive_or_a_missing_file(tmp_path: Path) -> None:
    path = new_event(tmp_path)
    run("add", path, *[f"p{i}" for i in range(8)])
    run("pair", path)
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    r = run("result", path, empty)
    assert r.exit_code == 2 and "empty: no record in this JSON Lines archive" in r.stderr
    r = run("result", path, tmp_path / "nothere.json")
    assert r.exit_code == 2 and r.stderr.count("nothere.json") == 1, r.stderr


def _two_records(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A rotating event of 8, round 1 paired, and the records of its tables 1 and 2 (no event tag)."""
    path = new_event(tmp_path)
    run("add", path, *[f"p{i}" for i in range(8)])
    run("pair", path)
    from tournament import open_event
    with open_event(path) as store:
        files = []
        for table in store.tables(1)[:2]:
            doc = json.loads(play_table(store, table, seed=table.number))
            doc.pop("event", None)
            files.append(tmp_path / f"table{table.number}.json")
            files[-1].write_text(json.dumps(doc))
    return path, files[0], files[1]


def test_a_batchs_conflicting_result_is_refused_naming_its_file(tmp_path: Path) -> None:
    # Every line of a batch names its file; the refusal of a table that has another result did not.
    path, one, two = _two_records(tmp_path)
    assert run("result", path, "--table", "2", "--score", "NS=100,EW=200").exit_code == 0
    r = run("result", path, one, two)
    assert r.exit_code == 1, r.output
    assert r.stdout.startswith(f"{one}: round 1 table 1:"), r.stdout
    assert r.stderr == (f"error: {two}: round 1 table 2 already has a result (NS 100, EW 200, manual); give "
                        f"--replace to replace it (the old one is kept: `tournament history`)\n"), r.stderr


def test_a_round_not_paired_is_a_usage_error_however_the_result_comes(tmp_path: Path) -> None:
    # --round 5 of a record said "has not been paired", exit 1; of a typed score "does not exist", exit 2.
    path, one, _ = _two_records(tmp_path)
    r = run("result", path, "--round", "5", one)
    assert r.exit_code == 2, r.output
    assert r.stderr == f"error: {one}: round 5 does not exist (the last round is 1); nothing was stored\n"
    r = run("result", path, "--round", "5", "--table", "1", "--score", "NS=10,EW=200")
    assert r.exit_code == 2 and r.stderr == "error: round 5 does not exist (the last round is 1); nothing was stored\n"
    # A record that says it is of round 5 itself (no --round) is a refused record (exit 1), in those words.
    doc = json.loads(one.read_text())
    doc["event"] = {"round": 5}
    one.write_text(json.dumps(doc))
    r = run("result", path, one)
    assert r.exit_code == 1, r.output
    assert f"{one}: round 5 (its event.round) does not exist (the last round is 1)" in r.stderr
    from tournament import open_event
    with open_event(path) as store:
        assert not store.results()


def test_stage_options_out_of_range_are_usage_errors(tmp_path):
    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    for args in (["--groups", "0"], ["--first-to", "0"], ["--advance", "0"]):
        r = runner.invoke(app, ["simulate", str(tmp_path / "x.db"), "--rounds", "0", "--stage", "groups", *args])
        assert r.exit_code == 2, (args, r.output)
        assert not (tmp_path / "x.db").exists()


def test_standings_of_one_stage(tmp_path):
    """Stage standings count only that stage's games; the event's standings are the rounds' (a
    knockout's games never count in them: issue 25)."""
    import json as _json

    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    path = tmp_path / "k.db"
    r = runner.invoke(app, ["simulate", str(path), "--game", "competitive", "--format", "pairs", "--players", "12",
                            "--rounds", "2", "--stage", "single", "--seed", "4", "-q"])
    assert r.exit_code == 0, r.output

    def played(*args):
        out = runner.invoke(app, ["standings", str(path), "--json", *args])
        assert out.exit_code == 0, out.output
        return sum(row["played"] for row in _json.loads(out.stdout)["standings"])

    whole, swiss, knockout = played(), played("--stage", "1"), played("--stage", "2")
    assert swiss > 0 and knockout > 0 and whole == swiss
    assert runner.invoke(app, ["standings", str(path), "--stage", "9"]).exit_code == 2
    assert runner.invoke(app, ["standings", str(path), "--stage", "1", "--round", "1"]).exit_code == 2


def test_a_players_csv_separated_by_semicolons_is_read_and_a_row_too_long_refused(tmp_path: Path) -> None:
    """A spreadsheet saved where the comma is the decimal mark separates by semicolons: read so when
    the header holds no comma.  A row with a cell no column heads is refused, by its line, not cut."""
    path = new_event(tmp_path, "pairs")
    semi = tmp_path / "pairs.csv"
    semi.write_text("name;partner;pair\nAna;Bo;Los Primos\n")
    r = run("add", path, "--csv", semi)
    assert r.exit_code == 0 and r.stdout == "added pair #1 Los Primos (from round 1)\n", r.output
    (tmp_path / "b").mkdir()
    other = new_event(tmp_path / "b")
    long = tmp_path / "players.csv"
    long.write_text("name,club\nCy,Norte\n\nDi,Sur,extra\n")
    r = run("add", other, "--csv", long)
    assert r.exit_code == 2
    assert r.stderr.strip().endswith(f"{long}, line 4: 3 cells where the header names 2 columns; nothing was added")
    assert run("players", other, "--json").stdout.strip() == "[]"
    long.write_text("name,club\nCy,Norte,\n")  # an empty trailing cell loses nothing
    assert run("add", other, "--csv", long).exit_code == 0


def test_a_terminal_escape_in_a_name_of_an_event_file_never_reaches_the_terminal(tmp_path: Path):
    """Names are refused with control characters, but an event file written elsewhere (by hand, by
    another program) may hold one: ESC would recolour, retitle or clear the director's terminal.
    The tables printed show it as an escape, ``\\x1b``, as domrec prints a record's names."""
    path = new_event(tmp_path)
    assert run("add", path, "Ana", "Bo", "Cy", "Di").exit_code == 0
    assert run("pair", path).exit_code == 0
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("UPDATE players SET name = ? WHERE id = 1", ("Ana\x1b]0;pwned\x07\x1b[2J",))
        conn.execute("UPDATE meta SET value = json_set(value, '$.name', ?) WHERE key = 'settings'",
                     ("Club\x1b]0;pwned\x07",))
    conn.close()
    for command in ("players", "tables", "standings", "pins", "info"):
        r = run(command, path)
        assert r.exit_code == 0, r.output
        assert "\x1b" not in r.output and "\x07" not in r.output, command
        assert ("Club" if command == "info" else "Ana") + "\\x1b]0;pwned\\x07" in r.output, command


def test_text_that_looks_like_rich_markup_is_printed_as_entered(tmp_path: Path):
    """rich reads a plain string as markup: a club entered as ``[red]Norte[/]`` printed red, and one
    entered as ``[link=…]Sur[/link]`` became a hyperlink to that address, at the terminal; in a pipe
    both lost their brackets.  Every cell of a table is printed as the text it is."""
    path = new_event(tmp_path)
    players = tmp_path / "players.csv"
    players.write_text("name,club\n[bold red]Ana[/],[red]Norte[/]\nBo,[link=http://x]Sur[/link]\nCy,Este\nDi,Oeste\n")
    assert run("add", path, "--csv", players).exit_code == 0
    out = run("players", path).output
    assert "[bold red]Ana[/]" in out and "[red]Norte[/]" in out and "[link=http://x]Sur[/link]" in out, out

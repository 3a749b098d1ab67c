"""The command line: exit codes, one-line errors and never a traceback."""

from __future__ import annotations

import csv
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
    assert r.exit_code == 1


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
    proc = subprocess.run([sys.executable, "-m", "tournament.cli", "players", str(path)], capture_output=True,
                          text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and proc.stderr.startswith("error:")


def test_console_script_simulate_and_check(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "tournament"
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "tournament.cli"]
    path = tmp_path / "sim.db"
    proc = subprocess.run(cmd + ["simulate", str(path), "--players", "10", "--rounds", "3", "--seed", "2", "-q"],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    proc = subprocess.run(cmd + ["check", str(path)], capture_output=True, text=True)
    assert proc.returncode == 0 and "0 errors" in proc.stdout
    proc = subprocess.run(cmd + ["simulate", str(path)], capture_output=True, text=True)
    assert proc.returncode == 2 and "already exists" in proc.stderr

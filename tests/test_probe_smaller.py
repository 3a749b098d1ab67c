"""Issue 27, point 5: the probe's smaller findings, each a test that failed before its fix."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec.cli import app as domrec_app
from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round
from tournament.cli import app as tournament_app
from tournament.errors import UnusableInput
from tournament.event.simulate import simulate_event

from tests.conftest import SAMPLES

runner = CliRunner()
GOOD = SAMPLES / "valid" / "castle-rock" / "strategy-example.json"


def domrec(*args: object):
    return runner.invoke(domrec_app, [str(a) for a in args])


# --- a manual score below zero -------------------------------------------------------------------

@pytest.fixture
def paired(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("N", "competitive", "rotating", seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    yield store
    store.close()


@pytest.mark.parametrize("replace", [False, True])
def test_a_negative_manual_score_is_refused(paired, replace):
    if replace:
        enter_manual(paired, 1, {"NS": 100, "EW": 20})
    with pytest.raises(UnusableInput, match="below zero"):
        enter_manual(paired, 1, {"NS": -5, "EW": 100}, replace=replace)


def test_a_negative_score_stays_possible_where_the_game_has_them(tmp_path: Path):
    store = create_event(tmp_path / "b.db", make_settings("B", "broadway", "rotating", seed=1))
    try:
        add_players(store, ["Ana", "Bo", "Cy", "Di"])
        pair_next_round(store)
        assert enter_manual(store, 1, {"NS": -5, "EW": 30}).status == "stored"
    finally:
        store.close()


# --- tournament simulate stopped half-way --------------------------------------------------------

def test_a_simulation_stopped_half_way_leaves_no_event(tmp_path: Path):
    path = tmp_path / "demo.db"

    def stop(line: str) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate_event(path, "competitive", "rotating", 8, 3, seed=1, progress=stop)
    assert os.listdir(tmp_path) == []
    summary = simulate_event(path, "competitive", "rotating", 8, 1, seed=1)
    assert summary.path == str(path) and os.listdir(tmp_path) == ["demo.db"]


def test_a_simulation_killed_leaves_nothing_that_looks_whole(tmp_path: Path):
    path = tmp_path / "demo.db"
    proc = subprocess.Popen([sys.executable, "-m", "tournament.cli", "simulate", str(path), "--game", "competitive",
                             "--players", "400", "--rounds", "200", "--seed", "1", "-q"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not [n for n in os.listdir(tmp_path) if ".building-" in n]:  # the event has begun
            assert proc.poll() is None and time.monotonic() < deadline, "the simulation never started"
            time.sleep(0.05)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert not path.exists()


# --- validate --json and a key of a megabyte -----------------------------------------------------

def test_a_huge_key_is_not_repeated_in_the_json_report(tmp_path: Path):
    doc = json.loads(GOOD.read_text())
    doc["event"] = {"k" * 1_000_000: [[[[{"x": [1]}]]]], "name": "x"}
    target = tmp_path / "big.json"
    key = json.dumps("k" * 1_000_000)
    target.write_text(json.dumps(doc).replace('"name": "x"', f'{key}: 2'))  # the key given twice
    r = domrec("validate", "--json", target)
    assert r.exit_code == 2
    report = json.loads(r.output.splitlines()[0])
    problem = report["problems"][0]
    assert len(r.output) < 2_000 and problem["pointer_clipped"] is True
    assert problem["pointer"].startswith("/event/kkkk") and problem["pointer"].endswith("…")


# --- validate --summary over an empty file -------------------------------------------------------

def test_an_empty_file_is_not_replaced_by_a_summary_without_force(tmp_path: Path):
    target = tmp_path / "verdicts.csv"
    target.write_bytes(b"")
    r = domrec("validate", GOOD, "--summary", target, "-q")
    assert r.exit_code == 2 and target.read_bytes() == b""
    assert domrec("validate", GOOD, "--summary", target, "-q", "--force").exit_code == 0
    assert target.read_text().startswith("source,")
    assert domrec("validate", GOOD, "--summary", target, "-q").exit_code == 0  # its own summary: replaced


# --- an invalid record to DGN --------------------------------------------------------------------

def test_an_invalid_record_that_dgn_cannot_carry_is_refused(tmp_path: Path):
    doc = json.loads(GOOD.read_text())
    doc["hands"][0]["leader"] = "W"  # nobody at this table: JSON says invalid, its DGN would be unusable
    source = tmp_path / "bad.json"
    source.write_text(json.dumps(doc))
    assert domrec("validate", source).exit_code == 1
    r = domrec("convert", source, "-o", tmp_path / "bad.dgn")
    assert r.exit_code == 1 and not (tmp_path / "bad.dgn").exists()  # (invalid, left out: nothing else to write)
    assert "convert it to JSON" in r.output


def test_an_invalid_record_that_reads_back_the_same_is_still_converted(tmp_path: Path):
    source = next(p for p in sorted((SAMPLES / "invalid" / "competitive").glob("duplicate-tile.json")))
    r = domrec("convert", source, "-o", tmp_path / "bad.dgn")
    assert r.exit_code == 0, r.output
    assert domrec("validate", tmp_path / "bad.dgn").exit_code == 1


def test_the_event_name_limit_is_at_the_command_line_too(tmp_path: Path):
    r = runner.invoke(tournament_app, ["new", str(tmp_path / "e.db"), "--name", "x" * 10_000, "--game",
                                       "competitive", "--format", "rotating"])
    assert r.exit_code == 2 and len(r.output) < 300

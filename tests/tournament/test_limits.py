"""The tournament tool at and past the limits (docs/tournament.md, "Limits").

Each case once ended in "internal error" (RecursionError, UnicodeEncodeError, OverflowError) or a
MemoryError; each is now one line, exit 2, and nothing stored.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import reader, simulate
from domrec.record import unstructure
from tournament.cli import app
from tournament.event.results import record_hash
from tournament import open_event

from tests.tournament.conftest import play_table

runner = CliRunner()
HUGE = "99999999999999999999"


def run(*args: str, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def assert_one_line_refusal(result, *words: str) -> None:
    text = result.output + (result.stderr or "")
    assert result.exit_code == 2, text
    assert "Traceback" not in text and "internal error" not in text, text
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1 and errors[0].startswith("error: "), text
    for word in words:
        assert word in errors[0], errors[0]


@pytest.fixture(scope="module")
def _event_made(tmp_path_factory) -> Path:
    """The event of :func:`event`, made once a module through the commands themselves."""
    path = tmp_path_factory.mktemp("limits") / "ev.db"
    assert run("new", path, "--name", "T", "--game", "competitive", "--format", "rotating",
               "--seed", "7").exit_code == 0
    assert run("add", path, "Ana", "Bo", "Cy", "Di").exit_code == 0
    assert run("pair", path).exit_code == 0
    return path


@pytest.fixture
def event(_event_made: Path, tmp_path: Path) -> Path:
    """A competitive event, round 1 paired (one table): a copy of its own for each test, which may
    write into it (made by three commands, half a second a test; copied, a millisecond).  Every
    command has closed the file, so it is whole, without a journal beside it."""
    assert not any(_event_made.parent.glob("ev.db-*")), "a journal was left beside the event"
    path = tmp_path / "ev.db"
    shutil.copyfile(_event_made, path)
    return path


def table_record(path: Path) -> dict:
    store = open_event(path)
    try:
        return json.loads(play_table(store, store.tables(1)[0]))
    finally:
        store.close()


def no_result(path: Path) -> bool:
    store = open_event(path)
    try:
        return not store.results()
    finally:
        store.close()


def test_a_record_nested_400_deep_is_refused_as_domrec_refuses_it(event, tmp_path):
    doc = table_record(event)
    deep: object = 1
    for _ in range(400):
        deep = [deep]
    doc["event"]["extra"] = deep
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(doc))
    assert_one_line_refusal(run("result", event, path), "/event/extra", "64 levels")
    assert no_result(event)


def test_a_record_nested_to_the_limit_is_stored(event, tmp_path):
    doc = table_record(event)
    deep: object = 1
    for _ in range(reader.MAX_DEPTH - 2):  # event.extra is level 3: its innermost list is level 64
        deep = [deep]
    doc["event"]["extra"] = deep
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(doc))
    r = run("result", event, path)
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("how", ["escape", "bytes"])
def test_a_lone_surrogate_in_a_name_is_refused(event, tmp_path, how):
    doc = table_record(event)
    doc["players"][0]["name"] += "XX"
    del doc["players"][0]["id"]
    text = json.dumps(doc).encode()
    text = text.replace(b"XX", b"\\ud800" if how == "escape" else b"\xed\xa0\x80")
    path = tmp_path / "s.json"
    path.write_bytes(text)
    words = ("/players/0/name", "U+D800") if how == "escape" else ("cannot be read: 1:", "not UTF-8")
    assert_one_line_refusal(run("result", event, path), *words)
    assert no_result(event)


def test_a_lone_surrogate_in_a_dgn_result_is_refused(event, tmp_path):
    from domrec import notation, reader as rd

    dgn = notation.dumps(rd.load_dict(table_record(event)))
    path = tmp_path / "g.dgn"
    path.write_text(dgn.replace('[Event "T"]', '[Event "T\\ud800"]', 1))
    assert '\\ud800' in path.read_text()
    assert_one_line_refusal(run("result", event, path), "U+D800")
    assert no_result(event)


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero and /dev/urandom")
@pytest.mark.parametrize("args, words", [
    (["result", "{ev}", "/dev/zero"], ["larger than 64 MiB"]),
    (["add", "{ev}", "--csv", "/dev/zero"], ["larger than 1 MiB", "players CSV"]),
    (["knockout", "{ev}", "--seeding", "list", "--seeds-file", "/dev/urandom"], ["larger than 1 MiB", "seeds"]),
    (["roundrobin", "{ev}", "--seeding", "list", "--seeds-file", "/dev/zero"], ["larger than 1 MiB", "seeds"]),
])
def test_endless_input_is_refused_after_the_limit(event, args, words):
    """Through the real command on the real devices: a hang would fail by the timeout, not pass."""
    proc = subprocess.run([sys.executable, "-m", "tournament.cli", *(a.format(ev=event) for a in args)],
                          capture_output=True, timeout=120)
    err = proc.stderr.decode()
    assert proc.returncode == 2, err
    assert "Traceback" not in err and "MemoryError" not in err and "internal error" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    for word in words:
        assert word in lines[0], lines[0]


def test_a_players_csv_that_is_not_utf8_is_refused_where(event, tmp_path):
    path = tmp_path / "p.csv"
    path.write_bytes(b"name\nEd\nFl\xed\xa0\x80o\n")
    assert_one_line_refusal(run("add", event, "--csv", path), "line 3, column 3", "not UTF-8")


def test_a_seeds_file_is_read_through_the_same_check(tmp_path):
    from tournament.event import players as pl
    from tournament.errors import PlayerInputError

    path = tmp_path / "seeds.txt"
    path.write_bytes("\ufeffAna\nBo\n".encode())
    assert pl.read_list_file(path, "a seeds file") == "Ana\nBo\n"
    path.write_bytes(b"Ana\nB\xffo\n")
    with pytest.raises(PlayerInputError, match="line 2, column 2"):
        pl.read_list_file(path, "a seeds file")


# Every whole-number option of the tournament command, given a number SQLite cannot hold.
INT_OPTIONS = [
    ["tables", "{ev}", "--round", HUGE],
    ["tables", "{ev}", "--round", "-" + HUGE],
    ["result", "{ev}", "--table", "1", "--round", HUGE, "--score", "NS=1,EW=2"],
    ["result", "{ev}", "--table", HUGE, "--score", "NS=1,EW=2"],
    ["sheets", "{ev}", "--round", HUGE],
    ["sheets", "{ev}", "--table", HUGE],
    ["record", "{ev}", "--table", HUGE],
    ["record", "{ev}", "--table", "1", "--round", HUGE],
    ["standings", "{ev}", "--round", HUGE],
    ["standings", "{ev}", "--stage", HUGE],
    ["bracket", "{ev}", "--stage", HUGE],
    ["knockout", "{ev}", "--top", HUGE],
    ["knockout", "{ev}", "--per-group", HUGE],
    ["knockout", "{ev}", "--first-to", HUGE],
    ["knockout", "{ev}", "--advance", HUGE],
    ["roundrobin", "{ev}", "--top", HUGE],
    ["roundrobin", "{ev}", "--groups", HUGE],
    ["new", "{dir}/n.db", "--name", "x", "--game", "competitive", "--format", "rotating", "--seed", HUGE],
    ["new", "{dir}/n.db", "--name", "x", "--game", "castle-rock", "--format", "individual", "--table-size", HUGE],
    ["simulate", "{dir}/s.db", "--players", HUGE],
    ["simulate", "{dir}/s.db", "--rounds", HUGE],
    ["simulate", "{dir}/s.db", "--seed", HUGE],
    ["simulate", "{dir}/s.db", "--table-size", HUGE],
    ["simulate", "{dir}/s.db", "--first-to", HUGE],
    ["simulate", "{dir}/s.db", "--advance", HUGE],
    ["simulate", "{dir}/s.db", "--groups", HUGE],
    ["simulate", "{dir}/s.db", "--top", HUGE],
]


@pytest.mark.parametrize("args", INT_OPTIONS, ids=lambda a: " ".join(a[:1] + a[2:4]))
def test_numbers_past_the_bounds_are_usage_errors(event, tmp_path, args):
    r = run(*(a.format(ev=event, dir=tmp_path) for a in args))
    text = r.output + (r.stderr or "")
    assert r.exit_code == 2, text
    assert "Traceback" not in text and "internal error" not in text and "OverflowError" not in text
    assert "Invalid value" in text
    assert not (tmp_path / "n.db").exists() and not (tmp_path / "s.db").exists()


def test_the_bounds_cover_every_int_option():
    """A new whole-number option must be bounded too: this lists them all from the app itself."""
    import inspect
    import typing

    unbounded, seen = [], 0
    for command in app.registered_commands:
        hints = typing.get_type_hints(command.callback)
        for name, param in inspect.signature(command.callback).parameters.items():
            if hints.get(name) not in (int, typing.Optional[int]) or not hasattr(param.default, "max"):
                continue
            seen += 1
            if param.default.max is None or param.default.min is None:
                unbounded.append(f"{command.callback.__name__} {param.default.param_decls}")
    assert seen >= 20 and not unbounded, unbounded


def test_the_record_hash_is_the_hash_of_the_canonical_json():
    """record_hash hashes hand by hand; the hash must stay that of the whole canonical text, or
    results already stored would no longer be recognised as the same record."""
    for game in ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads"):
        for record in simulate.simulate(game, 3, 11):
            canonical = json.dumps(unstructure(record), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
            assert record_hash(record) == hashlib.sha256(canonical.encode()).hexdigest()


def test_a_simulated_game_that_would_not_end_is_one_line(tmp_path):
    """A target random play cannot reach within domrec's hand limit: refused, not an internal error."""
    r = run("simulate", tmp_path / "e.db", "--game", "horse-race", "--format", "individual", "--option",
            "target=20000", "--players", "4", "-n", "1", "-q")
    assert_one_line_refusal(r, "did not end in 500 hands")

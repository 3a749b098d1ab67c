"""What ``domrec`` says of the slips a tester met in ``validate``, ``convert`` and ``simulate`` on
archives: a convert that leaves games out of its output says so at the end; a convert whose
standard error's reader has gone exits as validate does (141); a dead worker's warning names the
records it lost as many as it counts; a game's name typed wrong is answered with the game it is
likely a slip for (no JSON Pointer for a command's argument); a mistyped option is offered only
options like it."""

from __future__ import annotations

import concurrent.futures as cf
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import parallel, phrases, reader
from domrec.cli import app
from domrec.simulate import dumps, simulate

from tests.conftest import SAMPLES

DOMREC = [sys.executable, "-m", "domrec.cli"]
GAMES = "broadway, competitive, horse-race, castle-rock, domino-roads"


def run(*args, input=None):
    done = CliRunner().invoke(app, [str(a) for a in args], input=input, env={"NO_COLOR": "1"})
    assert done.exception is None or isinstance(done.exception, SystemExit), repr(done.exception)
    return done


@pytest.fixture(scope="module")
def one_left_out(tmp_path_factory) -> Path:
    """A DGN archive of three games, the second broken at a rule (E passes holding a tile that
    fits): reading it through the rules stops there, so convert leaves it out."""
    lines = (SAMPLES / "invalid" / "competitive" / "archive-one-bad-game.dgn").read_text(encoding="utf-8")
    lines = lines.splitlines(keepends=True)
    path = tmp_path_factory.mktemp("slips") / "three.dgn"
    path.write_text("".join(lines[:31] + lines[41:]), encoding="utf-8")  # (its unusable game dropped)
    verdicts = [json.loads(x)["status"] for x in run("validate", "--json", path).stdout.splitlines()]
    assert verdicts == ["valid", "invalid", "valid"]
    return path


# --- 1. convert says what it left out ----------------------------------------------------------

def test_convert_says_at_the_end_how_many_records_it_left_out(one_left_out, tmp_path):
    out = tmp_path / "out.jsonl"
    r = run("convert", one_left_out, "-o", out)
    assert r.exit_code == 1
    assert len(out.read_text(encoding="utf-8").splitlines()) == 2
    lines = r.stderr.splitlines()
    assert "INVALID" in lines[0]
    assert lines[-1] == f"{out}: 2 records written, 1 left out (invalid, above)"
    said = phrases.translate(lines[-1], "es")
    assert phrases.listed(lines[-1]) and said == f"{out}: 2 registros escritos, 1 omitido (inválido, ver arriba)"


def test_convert_to_standard_output_says_it_too(one_left_out):
    r = run("convert", one_left_out, "--to", "dgn")
    assert r.exit_code == 1 and r.stdout.count('[Game "competitive"]') == 2
    assert r.stderr.splitlines()[-1] == "standard output: 2 records written, 1 left out (invalid, above)"


def test_a_convert_that_leaves_nothing_out_says_nothing(tmp_path):
    r = run("convert", SAMPLES / "valid" / "competitive" / "game-to-200.json", "-o", tmp_path / "g.dgn")
    assert r.exit_code == 0 and r.stderr == ""


def test_each_form_of_the_line_is_listed_in_spanish():
    for english, spanish in [("a.dgn: 1 record written, 1 left out (invalid, above)",
                              "a.dgn: 1 registro escrito, 1 omitido (inválido, ver arriba)"),
                             ("a.dgn: 1 record written, 3 left out (invalid, above)",
                              "a.dgn: 1 registro escrito, 3 omitidos (inválidos, ver arriba)"),
                             ("a.dgn: 1,200 records written, 3 left out (invalid, above)",
                              "a.dgn: 1.200 registros escritos, 3 omitidos (inválidos, ver arriba)")]:
        assert phrases.listed(english) and phrases.translate(english, "es") == spanish


# --- 2. convert whose standard error's reader has gone ------------------------------------------

def _with_a_gone_reader(stream: str, *args) -> subprocess.CompletedProcess:
    """``domrec ARGS`` with ``stream`` (stdout or stderr) a pipe whose reader has gone already, as
    ``2>&1 | head -0`` leaves it: each write to it fails with EPIPE."""
    read, write = os.pipe()
    os.close(read)
    try:
        other = "stdout" if stream == "stderr" else "stderr"
        return subprocess.run([*DOMREC, *map(str, args)], **{stream: write, other: subprocess.PIPE},
                              env={**os.environ, "NO_COLOR": "1"}, timeout=300)
    finally:
        os.close(write)


def test_convert_whose_stderr_reader_has_gone_exits_as_validate_does(one_left_out, tmp_path):
    out = tmp_path / "out.jsonl"
    validated = _with_a_gone_reader("stderr", "validate", one_left_out)
    assert validated.returncode == 141
    converted = _with_a_gone_reader("stderr", "convert", one_left_out, "-o", out)
    assert converted.returncode == 141, converted
    assert not out.exists()  # (stopped as validate stops: what it left out was not all told)


def test_convert_whose_stdout_reader_has_gone_ends_with_its_usual_code(one_left_out, tmp_path):
    """The records written to standard output are data (docs/archives.md): the reader has read as
    far as it wanted, and the exit code is the records' (it was 1 for valid records too)."""
    valid = tmp_path / "valid.jsonl"
    valid.write_text("".join(dumps(r) + "\n" for r in simulate("competitive", 3, seed=4)), encoding="utf-8")
    assert _with_a_gone_reader("stdout", "convert", valid, "--to", "jsonl").returncode == 0
    done = _with_a_gone_reader("stdout", "convert", one_left_out, "--to", "jsonl")
    assert done.returncode == 1 and b"Traceback" not in done.stderr


# --- 3. a dead worker's warning: the records it names are the records it counts -----------------

class _Pool:
    """A pool of workers for :func:`domrec.parallel.check`, in this process: the chunks numbered in
    ``lost`` (counting from 0, in the order they are sent) come back as lost with a dead worker,
    as a real pool's chunks in flight do; the others are checked here."""

    def __init__(self, lost: set[int], sent: list[int]) -> None:
        self.lost, self.sent = lost, sent

    def submit(self, items: list) -> cf.Future:
        future: cf.Future = cf.Future()
        k = len(self.sent)
        self.sent.append(k)
        if k in self.lost:
            future.set_exception(parallel.BrokenPool())
        else:
            future.set_result(parallel._check_chunk(items))
        return future

    def stop(self) -> None:
        pass


@pytest.fixture(scope="module")
def eight(tmp_path_factory) -> Path:
    """Eight records of one length, one a line: with chunks of two records, four chunks."""
    record = dumps(next(simulate("competitive", 1, seed=3)))
    path = tmp_path_factory.mktemp("eight") / "a.jsonl"
    path.write_text((record + "\n") * 8, encoding="utf-8")
    return path


def _checked(eight: Path, monkeypatch, lost: set[int]) -> tuple[list, list[str]]:
    size = len(eight.read_bytes().splitlines()[0])
    monkeypatch.setattr(parallel, "CHUNK_BYTES", 2 * (size + 64))  # (two records a chunk)
    sent: list[int] = []
    pools = iter([_Pool(lost, sent)])
    monkeypatch.setattr(parallel, "_pool", lambda jobs: next(pools, _Pool(set(), [])))
    said: list[str] = []
    reports = list(parallel.check(reader.iter_sources([str(eight)]), 2, on_death=said.append))
    return reports, said


def test_every_chunk_in_flight_lost_is_named_whole(eight, monkeypatch):
    """Two workers hold four chunks (eight records): all four are lost with the pool.  The warning
    named the first chunk's two records and counted eight ("a.jsonl:1 to a.jsonl:2 (and more); its
    8 records")."""
    reports, said = _checked(eight, monkeypatch, {0, 1, 2, 3})
    assert [r.source for r in reports] == [f"{eight}:{k}" for k in range(1, 9)]
    assert all(r.valid for r in reports)
    assert said == [f"warning: a worker process died while checking {eight}:1 to {eight}:8; those 8 records are "
                    f"checked again, one at a time"]
    assert phrases.listed(said[0])


def test_lost_chunks_around_a_finished_one_are_said_as_such(eight, monkeypatch):
    """The second chunk was finished by the other worker: the six records lost lie between the
    first and the last, not all of them."""
    reports, said = _checked(eight, monkeypatch, {0, 2, 3})
    assert len(reports) == 8 and all(r.valid for r in reports)
    assert said == [f"warning: a worker process died while checking records between {eight}:1 and {eight}:8; the 6 "
                    f"of them whose verdicts were lost are checked again, one at a time"]
    assert phrases.listed(said[0])


def test_one_record_lost_is_named_alone(eight, monkeypatch):
    monkeypatch.setattr(parallel, "CHUNK_BYTES", 1)  # (a record a chunk)
    pools = iter([_Pool({0}, [])])
    monkeypatch.setattr(parallel, "_pool", lambda jobs: next(pools, _Pool(set(), [])))
    said: list[str] = []
    sources = list(reader.iter_sources([str(eight)]))[:1]
    assert [r.valid for r in parallel.check(iter(sources), 2, on_death=said.append)] == [True]
    assert said == [f"warning: a worker process died while checking {eight}:1; it is checked again, in a process "
                    f"of its own"]
    assert phrases.listed(said[0])


def test_a_real_worker_killed_names_as_many_records_as_it_counts(tmp_path, monkeypatch):
    """Real workers, one killed (once) at a record of the third chunk: whichever chunks the pool
    held then, the warning's count is the number of records it names (all of them when they are
    one stretch, fewer when a finished chunk lay between), and no verdict is lost."""
    records = [dumps(r) for game in ("competitive", "castle-rock") for r in simulate(game, 4, seed=5)]
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(records * 3) + "\n", encoding="utf-8")
    sources = list(reader.iter_sources([str(path)]))
    monkeypatch.setattr(parallel, "CHUNK_BYTES", max(len(s.text) for s in sources) * 2)  # (two to four a chunk)
    monkeypatch.setenv(parallel.KILL_HOOK, f"{sources[9].label}@{tmp_path / 'died'}")
    said: list[str] = []
    reports = list(parallel.check(iter(sources), 2, on_death=said.append))
    assert (tmp_path / "died").exists()
    assert [r.source for r in reports] == [s.label for s in sources] and all(r.valid for r in reports)
    assert len(said) == 1 and phrases.listed(said[0]), said
    labels = [s.label for s in sources]
    whole = re.fullmatch(r"warning: a worker process died while checking (\S+) to (\S+); those (\d+) records are "
                         r"checked again, one at a time", said[0])
    some = re.fullmatch(r"warning: a worker process died while checking records between (\S+) and (\S+); the (\d+) "
                        r"of them whose verdicts were lost are checked again, one at a time", said[0])
    found = whole or some
    assert found, said
    first, last, count = labels.index(found.group(1)), labels.index(found.group(2)), int(found.group(3))
    assert first <= 9 <= last
    assert count == last - first + 1 if whole else count < last - first + 1


# --- 4. a game's name typed wrong ---------------------------------------------------------------

def test_simulate_a_misspelled_game_says_which_it_means_without_a_pointer():
    r = run("simulate", "competitve")
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == f'error: unknown game "competitve"; did you mean "competitive"? domrec knows {GAMES}\n'
    assert phrases.translate(r.stderr[len("error: "):-1], "es") == (
        f'juego desconocido "competitve"; ¿quería decir "competitive"? domrec conoce {GAMES}')


@pytest.mark.parametrize("typed, meant", [("Competitive", "competitive"), ("horse race", "horse-race"),
                                          ("roads", "domino-roads"), ("castle_rock", "castle-rock"),
                                          ("chess", None)])
def test_the_game_meant_is_the_close_one_or_none(typed, meant):
    r = run("simulate", typed)
    hint = f' did you mean "{meant}"?' if meant else ""
    assert r.exit_code == 2 and r.stderr == f'error: unknown game "{typed}";{hint} domrec knows {GAMES}\n'
    assert phrases.listed(r.stderr[len("error: "):-1])


def test_a_record_s_game_keeps_its_pointer(tmp_path):
    doc = json.loads(dumps(next(simulate("competitive", 1, seed=2))))
    doc["game"] = "competitve"
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = run("validate", "--json", path)
    problem, = json.loads(r.stdout)["problems"]
    assert r.exit_code == 2 and problem["pointer"] == "/game"
    assert problem["message"] == f'unknown game "competitve"; did you mean "competitive"? domrec knows {GAMES}'


def test_a_dgn_game_tag_keeps_its_line_and_column(tmp_path):
    text = (SAMPLES / "invalid" / "competitive" / "archive-one-bad-game.dgn").read_text(encoding="utf-8")
    game = text.split("\n\n[Game ")[0]
    path = tmp_path / "g.dgn"
    path.write_text("\n" + game.replace('[Game "competitive"]', '[Game "Competitve"]') + "\n", encoding="utf-8")
    r = run("validate", "--json", path)
    problem, = json.loads(r.stdout)["problems"]
    assert (problem["line"], problem["column"], problem["pointer"]) == (2, 1, "/game")
    assert problem["message"] == f'unknown game "Competitve"; did you mean "competitive"? domrec knows {GAMES}'
    assert f'2:1: unknown game "Competitve"; did you mean "competitive"?' in run("validate", path).stdout


def test_record_a_misspelled_game_says_which_it_means(tmp_path):
    r = run("record", "competitve", "-o", tmp_path / "g.dgn", input="")
    assert r.exit_code == 2
    assert r.stderr.splitlines()[-1] == (f"error: 'competitve' is neither a game ({GAMES}) nor a record file; "
                                         f'did you mean "competitive"?')
    assert phrases.listed(r.stderr.splitlines()[-1][len("error: "):])


# --- 5. an option typed wrong: only options like it are offered ---------------------------------

@pytest.mark.parametrize("typed, offered", [("--bogus", None), ("--jsn", "--json"), ("--job", "--jobs"),
                                            ("--sumary", "--summary"), ("--froms", "--from")])
def test_a_mistyped_option_is_offered_only_close_ones(typed, offered):
    r = run("validate", typed, "x.json")
    assert r.exit_code == 2 and r.stdout == ""
    hint = f" (Possible options: {offered})" if offered else ""
    assert r.stderr.endswith(" validate -h)\n") and len(r.stderr.splitlines()) == 1
    assert r.stderr.partition(" (see: ")[0] == f"error: No such option: {typed}{hint}"

"""domrec convert (JSON, JSON Lines, DGN; --fill; never replaces a file without --force) and
domrec validate on DGN files, folders, archives and standard input."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from domrec import convert as conv
from domrec import notation, reader
from domrec import simulate as sim
from domrec.cli import app
from domrec.errors import InputError
from domrec.record import unstructure
from domrec.validate import validate

from tests.conftest import SAMPLES
from tests.test_notation import BAD, COMP, COMP_DEAL, COMP_HEAD, COMP_LEFT, COMP_OPEN_MOVES, where

runner = CliRunner()

TYPED = COMP_HEAD + COMP_OPEN_MOVES + COMP_LEFT + "end\n"  # no deal: it is worked out
#: A typed hand (no seats) whose third move breaks a rule: reading through the rules stops there.
TYPED_ILLEGAL = COMP_HEAD + COMP_DEAL + "5-2 6-5@5-2 3-3@5-2\n"


def run(*args, input=None):
    return runner.invoke(app, [str(a) for a in args], input=input)


def records(path) -> list[dict]:
    """The records of a file, as plain JSON data, through the library's own readers."""
    return [plain(item.record) for item in conv.read_items(str(path))]


def plain(record) -> dict:
    return json.loads(json.dumps(unstructure(record)))


@pytest.fixture(scope="module")
def games3() -> list:
    return list(sim.simulate("horse-race", 3, 11, 3))


@pytest.fixture(scope="module")
def broadway():
    return next(sim.simulate("broadway", 1, 3))


# --- round trips through files -----------------------------------------------------------------


def test_json_to_dgn_to_json_is_the_identity(tmp_path, broadway):
    src = tmp_path / "game.json"
    src.write_text(sim.dumps(broadway), encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "game.dgn")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "game.dgn").read_text(encoding="utf-8") == notation.dumps(broadway)
    r = run("convert", tmp_path / "game.dgn", "-o", tmp_path / "back.json")
    assert r.exit_code == 0, r.output
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back == json.loads(sim.dumps(broadway))
    # and once more: JSON -> JSON is byte for byte what DGN -> JSON gave
    run("convert", tmp_path / "back.json", "-o", tmp_path / "again.json")
    assert (tmp_path / "again.json").read_bytes() == (tmp_path / "back.json").read_bytes()


def test_jsonl_archive_to_dgn_archive_and_back(tmp_path, games3):
    src = tmp_path / "club.jsonl"
    src.write_text("".join(sim.dumps(r) + "\n" for r in games3), encoding="utf-8")
    assert run("convert", src, "-o", tmp_path / "club.dgn").exit_code == 0
    text = (tmp_path / "club.dgn").read_text(encoding="utf-8")
    assert text == "\n".join(notation.dumps(r) for r in games3)
    assert text.count('[Game "horse-race"]') == 3
    found = list(notation.read_games(text, "club.dgn"))
    assert [g.report.source for g in found][0] == "club.dgn:1" and len(found) == 3
    r = run("convert", tmp_path / "club.dgn", "-o", tmp_path / "back.jsonl")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "back.jsonl").read_bytes() == src.read_bytes()


def test_dgn_archive_to_json_with_several_records_is_refused(tmp_path, games3):
    src = tmp_path / "club.dgn"
    src.write_text("\n".join(notation.dumps(r) for r in games3), encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "club.json")
    assert r.exit_code == 2
    assert "a .json file holds one record, and there are 3: write .jsonl or .dgn" in r.stderr
    assert not (tmp_path / "club.json").exists()


def test_standard_input_and_output_with_to(tmp_path, broadway):
    r = run("convert", "-", "--to", "dgn", input=sim.dumps(broadway))
    assert r.exit_code == 0 and r.stdout == notation.dumps(broadway)
    r = run("convert", "-", "--to", "json", input=notation.dumps(broadway))
    assert r.exit_code == 0
    assert json.loads(r.stdout) == json.loads(sim.dumps(broadway))
    r = run("convert", "-", "--to", "jsonl", "--from", "dgn", input=notation.dumps(broadway))
    assert r.exit_code == 0 and r.stdout == sim.dumps(broadway) + "\n"
    r = run("convert", "-", "-o", "-", input=sim.dumps(broadway))
    assert r.exit_code == 2 and "--to" in r.stderr and r.stdout == ""
    r = run("convert", "-", "--to", "xml", input=sim.dumps(broadway))
    assert r.exit_code == 2 and r.stdout == ""
    r = run("convert", "-", "--to", "json", "--from", "yaml", input=sim.dumps(broadway))
    assert r.exit_code == 2 and "--from is json, jsonl or dgn" in r.stderr


def test_output_form_from_the_suffix(tmp_path, broadway):
    src = tmp_path / "g.json"
    src.write_text(sim.dumps(broadway), encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "g.txt")
    assert r.exit_code == 2 and "say the output's form" in r.stderr
    assert not (tmp_path / "g.txt").exists()
    assert run("convert", src, "-o", tmp_path / "g.txt", "--to", "dgn").exit_code == 0
    assert (tmp_path / "g.txt").read_text(encoding="utf-8") == notation.dumps(broadway)


def test_input_form_given_with_from(tmp_path):
    src = tmp_path / "game.txt"
    src.write_text(COMP, encoding="utf-8")
    r = run("convert", src, "--from", "dgn", "--to", "json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["game"] == "competitive"


# --- --fill -----------------------------------------------------------------------------------


def test_fill_on_a_typed_game_gives_every_claim(tmp_path, broadway):
    """A game typed without claims, seats or forced passes, filled in: the simulated record
    with every claim the simulator wrote (move scores, hand results, the game's result)."""
    src = tmp_path / "typed.dgn"
    src.write_text(notation.dumps_typed(broadway), encoding="utf-8")
    assert "=" not in src.read_text(encoding="utf-8").split("\nhand 1")[1]
    r = run("convert", src, "--fill", "-o", tmp_path / "filled.json")
    assert r.exit_code == 0, r.output
    filled = json.loads((tmp_path / "filled.json").read_text(encoding="utf-8"))
    assert filled == json.loads(sim.dumps(broadway))
    assert all("score" in m for h in filled["hands"] for m in h["moves"])
    assert all(h["result"]["scores"] for h in filled["hands"])
    assert filled["result"] == {"scores": broadway.result.scores, "winner": broadway.result.winner}
    r = run("validate", tmp_path / "filled.json")
    assert r.exit_code == 0 and "valid broadway" in r.stdout


@pytest.mark.parametrize("name", ["horse-race", "domino-roads", "castle-rock"])
def test_fill_on_a_game_typed_without_its_deal(tmp_path, name):
    record = next(sim.simulate(name, 1, 5))
    src = tmp_path / "open.dgn"
    src.write_text(notation.dumps_typed(record, keep_deal=False), encoding="utf-8")
    r = run("convert", src, "--fill", "-o", tmp_path / "filled.dgn")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "filled.dgn").read_text(encoding="utf-8")
    assert "[Scores " in text and "[Winner " in text
    ends = [line for line in text.splitlines() if line.startswith("end")]
    assert len(ends) == len(record.hands) and all(len(line.split()) > 2 for line in ends)
    filled = records(tmp_path / "filled.dgn")[0]
    original = plain(record)
    for h in filled["hands"] + original["hands"]:
        h.pop("deal")  # the deal is worked out (its order and the unused boneyard cannot be)
    assert filled == original
    report = validate(reader.load_dict(records(tmp_path / "filled.dgn")[0]))
    assert report.status == "valid" and report.finished
    assert (report.scores, report.winner) == (record.result.scores, record.result.winner)


def test_fill_writes_the_claims_into_dgn(tmp_path):
    src = tmp_path / "typed.dgn"
    src.write_text(TYPED, encoding="utf-8")
    r = run("convert", src, "--fill", "-o", tmp_path / "filled.dgn")
    assert r.exit_code == 0, r.output
    text = (tmp_path / "filled.dgn").read_text(encoding="utf-8")
    assert text.rstrip().endswith("end out NS 23 EW 0")
    assert "deal N " in text and "N 5-2 W 6-5@5-2" in text and "W -" in text
    report = run("validate", tmp_path / "filled.dgn")
    assert report.exit_code == 0 and "NS 23, EW 0" in report.stdout


def test_fill_replaces_wrong_claims_and_says_so(tmp_path):
    src = tmp_path / "wrong.dgn"
    src.write_text(COMP.replace("end out NS 23 EW 0", "end out NS 30 EW 0"), encoding="utf-8")
    r = run("convert", src, "--fill", "-o", tmp_path / "fixed.dgn")
    assert r.exit_code == 1  # the record as given breaks a rule; the filled one is written
    assert "INVALID" in r.stderr and "NS is claimed 30" in r.stderr
    assert "end out NS 23 EW 0" in (tmp_path / "fixed.dgn").read_text(encoding="utf-8")


def test_fill_api_keeps_the_verdict_on_the_record_as_given():
    record = notation.loads(COMP.replace("end out NS 23 EW 0", "end"))
    filled, report = conv.fill(record)
    assert report.status == "valid"
    assert filled.hands[0].result.scores == {"NS": 23, "EW": 0} and filled.hands[0].result.end == "out"
    assert filled.result is None  # the game is not over


# --- never replacing a file --------------------------------------------------------------------


def test_an_existing_file_is_not_replaced_without_force(tmp_path, broadway):
    src = tmp_path / "g.json"
    src.write_text(sim.dumps(broadway), encoding="utf-8")
    target = tmp_path / "out.dgn"
    target.write_text("precious\n", encoding="utf-8")
    before = os.stat(target)
    r = run("convert", src, "-o", target)
    assert r.exit_code == 2
    assert "out.dgn already exists: not replaced (use --force to replace it)" in r.stderr
    assert target.read_text(encoding="utf-8") == "precious\n" and os.stat(target).st_mtime_ns == before.st_mtime_ns
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.json", "out.dgn"]  # no temporary file left
    r = run("convert", src, "-o", target, "--force")
    assert r.exit_code == 0
    assert target.read_text(encoding="utf-8") == notation.dumps(broadway)


def test_a_non_regular_target_is_refused_even_with_force(tmp_path, broadway):
    src = tmp_path / "g.json"
    src.write_text(sim.dumps(broadway), encoding="utf-8")
    folder = tmp_path / "out.dgn"
    folder.mkdir()
    (folder / "inside").write_text("x")
    for extra in ([], ["--force"]):
        r = run("convert", src, "-o", folder, *extra)
        assert r.exit_code == 2 and "is a folder, not a regular file: never replaced" in r.stderr
    assert folder.is_dir() and (folder / "inside").read_text() == "x"
    link = tmp_path / "link.dgn"
    real = tmp_path / "real.dgn"
    real.write_text("keep\n")
    link.symlink_to(real)
    r = run("convert", src, "-o", link, "--force")
    assert r.exit_code == 2 and "not a regular file" in r.stderr
    assert link.is_symlink() and real.read_text() == "keep\n"
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.dgn"
        os.mkfifo(fifo)
        r = run("convert", src, "-o", fifo, "--force")
        assert r.exit_code == 2 and "not a regular file" in r.stderr


def test_write_text_is_whole_or_nothing(tmp_path):
    target = tmp_path / "a.dgn"
    conv.write_text(str(target), "one\n")
    with pytest.raises(InputError, match="already exists"):
        conv.write_text(str(target), "two\n")
    conv.write_text(str(target), "two\n", force=True)
    assert target.read_text() == "two\n"
    with pytest.raises(InputError, match="cannot write"):
        conv.write_text(str(tmp_path / "no" / "such" / "dir.dgn"), "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.dgn"]


# --- exit codes -------------------------------------------------------------------------------


def test_a_dgn_whose_reading_hit_a_rule_problem_exits_1_and_writes_nothing(tmp_path):
    src = tmp_path / "bad.dgn"
    src.write_text(TYPED_ILLEGAL, encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "bad.json")
    assert r.exit_code == 1
    assert "bad.dgn: INVALID (1 problem)" in r.stderr and "S does not hold 3-3" in r.stderr
    line = TYPED_ILLEGAL[:TYPED_ILLEGAL.index("3-3@5-2")].count("\n") + 1
    assert f"  {line}:13: hand 1, move 3, S: S does not hold 3-3" in r.stderr and "/hands/0" not in r.stderr
    assert "nothing written" in r.stderr
    assert not (tmp_path / "bad.json").exists()
    src.write_text(BAD["missing left"][0], encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "bad.json")
    assert r.exit_code == 1 and "give the tiles S and W still held" in r.stderr
    assert not (tmp_path / "bad.json").exists()


def test_an_unusable_dgn_exits_2_and_writes_nothing(tmp_path):
    src = tmp_path / "bad.dgn"
    src.write_text(BAD["syntax error"][0], encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "bad.json")
    assert r.exit_code == 2
    assert "bad.dgn: UNUSABLE (1 problem)" in r.stderr and "'4-2@@5-2' is not a move" in r.stderr
    assert not (tmp_path / "bad.json").exists()


def test_an_archive_with_a_game_the_rules_stopped_converts_the_others_and_exits_1(tmp_path, games3):
    src = tmp_path / "club.dgn"
    src.write_text(notation.dumps(games3[0]) + "\n" + TYPED_ILLEGAL + "\n" + notation.dumps(games3[1]),
                   encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "club.jsonl")
    assert r.exit_code == 1
    second = notation.dumps(games3[0]).count("\n") + 2
    assert f"club.dgn:{second}: INVALID" in r.stderr
    lines = (tmp_path / "club.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(x) for x in lines] == [plain(games3[0]), plain(games3[1])]


def test_an_archive_with_an_unusable_game_writes_nothing(tmp_path, games3):
    src = tmp_path / "club.dgn"
    src.write_text(notation.dumps(games3[0]) + "\n" + BAD["unclosed comment"][0], encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "club.jsonl")
    assert r.exit_code == 2 and "nothing written" in r.stderr
    assert not (tmp_path / "club.jsonl").exists()


def test_an_empty_or_missing_input(tmp_path):
    r = run("convert", tmp_path / "nope.dgn", "-o", tmp_path / "x.json")
    assert r.exit_code == 2 and "no such file" in r.stderr
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    r = run("convert", empty, "-o", tmp_path / "x.json")
    assert r.exit_code == 2
    assert not (tmp_path / "x.json").exists()


def test_a_canonical_dgn_with_an_illegal_move_is_converted_as_written(tmp_path):
    """Converting is not judging: a text read as written (deals and seats everywhere) keeps its
    moves, and validation of the JSON then reports the same problem."""
    src = tmp_path / "g.dgn"
    src.write_text(BAD["illegal move"][0], encoding="utf-8")
    r = run("convert", src, "-o", tmp_path / "g.json")
    assert r.exit_code == 0
    r = run("validate", tmp_path / "g.json")
    assert r.exit_code == 1 and "/hands/0/moves/2/play (hand 1, move 3, S): S does not hold 3-3" in r.stdout


# --- domrec validate on DGN -----------------------------------------------------------------------


def test_validate_dgn_file(tmp_path):
    path = tmp_path / "typed.dgn"
    path.write_text(TYPED, encoding="utf-8")
    r = run("validate", path)
    assert r.exit_code == 0
    assert r.stdout == f"{path}: valid competitive, 1 hand, NS 23, EW 0; game not finished\n"
    assert "1 record: 1 valid, 0 invalid, 0 unusable" in r.stderr


def test_validate_folder_with_dgn_json_and_jsonl(tmp_path, games3):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.dgn").write_text(TYPED, encoding="utf-8")
    (tmp_path / "sub" / "b.dgn").write_text(BAD["missing left"][0], encoding="utf-8")
    (tmp_path / "sub" / "c.dgn").write_text("\n".join(notation.dumps(r) for r in games3), encoding="utf-8")
    (tmp_path / "d.json").write_text(sim.dumps(games3[0]), encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not a record")
    r = run("validate", tmp_path)
    assert r.exit_code == 1
    out = r.stdout
    assert f"{tmp_path / 'a.dgn'}: valid competitive" in out
    assert f"{tmp_path / 'sub' / 'b.dgn'}: INVALID (1 problem)" in out
    assert out.count(f"{tmp_path / 'sub' / 'c.dgn'}:") == 3
    assert f"{tmp_path / 'd.json'}: valid horse-race" in out and "notes.txt" not in out
    assert "6 records: 5 valid, 1 invalid, 0 unusable" in r.stderr


def test_validate_multi_game_archive_labels_and_worst_exit(tmp_path):
    path = tmp_path / "arch.dgn"
    text = COMP + "\n" + BAD["illegal move"][0] + "\n" + BAD["syntax error"][0] + "\n" + TYPED
    path.write_text(text, encoding="utf-8")
    r = run("validate", "--json", path)
    assert r.exit_code == 2
    reports = [json.loads(x) for x in r.stdout.splitlines()]
    starts = [1]
    for part in (COMP, BAD["illegal move"][0], BAD["syntax error"][0]):
        starts.append(starts[-1] + part.count("\n") + 1)
    assert [x["source"] for x in reports] == [f"{path}:{n}" for n in starts]
    assert [x["status"] for x in reports] == ["valid", "invalid", "unusable", "valid"]
    bad = reports[1]["problems"][0]
    l, c = where(BAD["illegal move"][0], "3-3@5-2")
    assert (bad["line"], bad["column"]) == (starts[1] + l - 1, c) == (starts[1] + 11, 19)
    assert bad["pointer"] == "/hands/0/moves/2/play" and bad["kind"] == "illegal" and bad["move"] == 3
    syntax = reports[2]["problems"][0]
    l, c = where(BAD["syntax error"][0], "4-2@@5-2")
    assert syntax["kind"] == "input" and (syntax["line"], syntax["column"]) == (starts[2] + l - 1, c)
    assert reports[0]["problems"] == [] and reports[0]["scores"] == {"NS": 23, "EW": 0}


def test_validate_json_output_of_a_valid_dgn_has_no_positions(tmp_path):
    path = tmp_path / "g.dgn"
    path.write_text(COMP, encoding="utf-8")
    r = run("validate", "--json", path)
    report = json.loads(r.stdout)
    assert report["status"] == "valid" and report["problems"] == [] and report["hands"] == 1
    assert report["moves"] == 25


def test_validate_stdin_with_from_dgn_and_detected():
    for args in (["-", "--from", "dgn"], ["-"]):
        r = run("validate", *args, input=TYPED)
        assert r.exit_code == 0, (args, r.output)
        assert r.stdout.startswith("<stdin>: valid competitive")
    r = run("validate", "-", input=COMP + "\n" + COMP)
    assert r.stdout.count("<stdin>:") == 2 and "<stdin>:1: valid" in r.stdout
    r = run("validate", "--json", "-", input=BAD["illegal move"][0])
    report = json.loads(r.stdout)
    assert r.exit_code == 1
    assert (report["problems"][0]["line"], report["problems"][0]["column"]) == where(BAD["illegal move"][0], "3-3@5-2")
    # JSON on standard input is still JSON
    r = run("validate", "-", input=json.dumps(plain(notation.loads(COMP))))
    assert r.exit_code == 0 and "<stdin>: valid competitive" in r.stdout
    # and JSON said to be DGN is read as DGN (and refused as such)
    r = run("validate", "-", "--from", "dgn", input=json.dumps(plain(notation.loads(COMP))))
    assert r.exit_code == 2 and r.stdout.startswith("<stdin>: UNUSABLE")


@pytest.mark.parametrize("prefix", [b"\xef\xbb\xbf", b"{club night}\n"], ids=["bom", "comment"])
def test_validate_stdin_detects_dgn_after_a_bom_or_a_comment(tmp_path, prefix):
    data = prefix + TYPED.encode()
    (tmp_path / "g.dgn").write_bytes(data)
    assert run("validate", tmp_path / "g.dgn").exit_code == 0
    r = run("validate", "-", input=data)
    assert r.exit_code == 0, r.output


def test_validate_stdin_bom_and_comment_with_from_dgn():
    for prefix in (b"\xef\xbb\xbf", b"{club night}\n"):
        r = run("validate", "-", "--from", "dgn", input=prefix + TYPED.encode())
        assert r.exit_code == 0, r.output


def test_validate_from_must_be_json_jsonl_or_dgn():
    r = run("validate", "-", "--from", "xml", input=TYPED)
    assert r.exit_code == 2 and "--from is json, jsonl or dgn, not 'xml'" in r.stderr


# --- subprocesses: the installed command, real pipes ------------------------------------------------


def _domrec(*args, input=None, cwd=None):
    return subprocess.run([sys.executable, "-m", "domrec.cli", *map(str, args)], input=input,
                          capture_output=True, cwd=cwd)


def test_subprocess_pipe_json_to_dgn_to_json(broadway):
    to_dgn = _domrec("convert", "-", "--to", "dgn", input=sim.dumps(broadway).encode())
    assert to_dgn.returncode == 0 and to_dgn.stdout.decode() == notation.dumps(broadway)
    back = _domrec("convert", "-", "--to", "jsonl", input=to_dgn.stdout)
    assert back.returncode == 0 and back.stdout.decode() == sim.dumps(broadway) + "\n"
    check = _domrec("validate", "-", input=to_dgn.stdout)
    assert check.returncode == 0 and b"<stdin>: valid broadway" in check.stdout


def test_subprocess_exit_codes_and_no_traceback(tmp_path):
    (tmp_path / "bad.dgn").write_text(TYPED_ILLEGAL, encoding="utf-8")
    (tmp_path / "enc.dgn").write_bytes(COMP.replace('[N "Ana"]', '[N "Jos\u00e9"]').encode("latin-1"))
    proc = _domrec("validate", "bad.dgn", cwd=tmp_path)
    assert proc.returncode == 1 and b"Traceback" not in proc.stdout + proc.stderr
    proc = _domrec("validate", "enc.dgn", "bad.dgn", cwd=tmp_path)
    assert proc.returncode == 2
    assert b"enc.dgn: UNUSABLE (1 problem)\n  2:8: the text is not UTF-8 (byte 0xE9); save the file as UTF-8\n" \
        in proc.stdout
    assert b"Traceback" not in proc.stdout + proc.stderr
    proc = _domrec("convert", "enc.dgn", "-o", "out.json", cwd=tmp_path)
    assert proc.returncode == 2 and not (tmp_path / "out.json").exists()


def test_an_invalid_record_dgn_cannot_keep_is_left_out_the_others_written(tmp_path):
    """E plays 0-0 where it played 1-0 on 5-0, and N then sets its 1-0 on 5-0: written as DGN, the
    reader (which reads through the rules) would not give back this record with this problem.  It
    is left out, saying so, the other records are written, and the exit code is 1 (the record is
    invalid, not unreadable: it was 2, nothing written).  (N playing 3-2 on 4-4, the record this
    test took before, is now given back alike: a move the rules refuse no longer counts its tile
    as laid, so the DGN reading no longer adds that tile's problems to it.)"""
    from tests.test_cli import run

    good = json.loads((SAMPLES / "valid" / "competitive" / "domino-35.json").read_text())
    bad = json.loads(json.dumps(good))
    bad["hands"][0]["moves"][7]["play"] = "0-0"
    archive = tmp_path / "two.jsonl"
    archive.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n")
    out = tmp_path / "two.dgn"
    r = run("convert", archive, "-o", out)
    assert r.exit_code == 1, r.output
    assert "would not read back as the same record with the same problems, so it is left out" in r.output
    assert out.read_text().count("\nhand 1") == 1
    assert run("validate", out).exit_code == 0

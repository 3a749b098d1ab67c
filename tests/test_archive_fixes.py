"""A tester's findings on checking archives (docs/archives.md) and converting: a linked folder
inside a checked folder is read (once, links that loop or repeat a folder add nothing), an
empty archive is unusable, a record too long for DGN is not written as DGN, and an unknown
game is no game in a report whatever the record's form."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from typer.testing import CliRunner

from domrec import reader
from domrec.cli import app

from tests.conftest import SAMPLES

VALID = SAMPLES / "valid" / "competitive"
DOMREC = [sys.executable, "-m", "domrec.cli"]


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def _club(tmp_path: Path) -> Path:
    """The tester's club2: one record of its own, and two links to a folder of three records
    elsewhere, one of them with a record's suffix."""
    sub = tmp_path / "club" / "sub"
    sub.mkdir(parents=True)
    for name in ("game-to-200.json", "domino.json", "blocked.json"):
        (sub / name).write_bytes((VALID / name).read_bytes())
    (sub / "loop").symlink_to(".")          # a link loop inside the linked folder
    club2 = tmp_path / "club2"
    club2.mkdir()
    (club2 / "own.json").write_bytes((VALID / "domino.json").read_bytes())
    (club2 / "subl").symlink_to("../club/sub")
    (club2 / "games.json").symlink_to("../club/sub")
    (club2 / "up").symlink_to("..")         # the folder above: a loop, not followed
    (tmp_path / "club" / "beside.json").write_bytes((VALID / "domino.json").read_bytes())  # not asked for
    return club2


# --- 1. a linked folder is read, once ----------------------------------------------------------


def test_a_linked_folder_in_a_checked_folder_is_read_once(tmp_path):
    club2 = _club(tmp_path)
    r = run("validate", "--json", club2)
    assert r.exit_code == 0, r.output
    sources = [json.loads(line)["source"] for line in r.stdout.splitlines()]
    # club/sub read once (under the first link by name, games.json); nothing through "up"
    assert sources == [f"{club2}/games.json/{n}" for n in ("blocked.json", "domino.json", "game-to-200.json")] \
        + [f"{club2}/own.json"]


def test_a_folder_reached_without_a_link_is_read_under_its_own_name(tmp_path):
    club2 = _club(tmp_path)
    found = [p for p, _ in reader.folder_files(tmp_path)]
    # club/sub itself, not club2/games.json, club2/subl or club/sub/loop; club2 itself, not club2/up/club2
    assert found == [tmp_path / "club" / "beside.json"] + [
        tmp_path / "club" / "sub" / n for n in ("blocked.json", "domino.json", "game-to-200.json")] \
        + [club2 / "own.json"]


def test_a_linked_folder_is_in_the_summary_with_j_2_as_with_one_process(tmp_path):
    club2 = _club(tmp_path)
    one = run("validate", "-q", "-j", "1", "--summary", tmp_path / "one.csv", club2)
    two = subprocess.run([*DOMREC, "validate", "-q", "-j", "2", "--summary", str(tmp_path / "two.csv"), str(club2)],
                         capture_output=True, timeout=600)
    assert one.exit_code == two.returncode == 0
    rows = (tmp_path / "one.csv").read_text().splitlines()
    assert len(rows) == 1 + 4 and (tmp_path / "two.csv").read_text().splitlines() == rows


def test_a_linked_folder_that_cannot_be_listed_is_said_in_its_place(tmp_path):
    club2 = _club(tmp_path)
    (club2 / "gone").symlink_to("../nowhere-folder")  # a link to nowhere without a record's suffix: no record
    locked = tmp_path / "locked"
    locked.mkdir()
    (club2 / "lockedl").symlink_to(locked)
    locked.chmod(0)
    try:
        if reader.folder_files(locked) == []:  # (root reads every folder: nothing to see)
            return
        r = run("validate", club2)
        assert r.exit_code == 2
        assert f"{club2}/lockedl: cannot read: Permission denied" in r.output
    finally:
        locked.chmod(0o755)


# --- 2. an empty archive is unusable ------------------------------------------------------------


def test_an_empty_json_lines_archive_is_unusable(tmp_path):
    for text in (b"", b"\n\n  \r\n"):
        (tmp_path / "e.jsonl").write_bytes(text)
        r = run("validate", tmp_path / "e.jsonl")
        assert r.exit_code == 2, r.output
        assert f"{tmp_path}/e.jsonl: empty: no record in this JSON Lines archive" in r.stdout
        assert "1 record: 0 valid, 0 invalid, 1 unusable" in r.stderr


def test_an_empty_json_lines_archive_in_a_folder_is_unusable_with_j_2_too(tmp_path):
    (tmp_path / "a.json").write_bytes((VALID / "domino.json").read_bytes())
    (tmp_path / "e.jsonl").write_bytes(b"")
    one = run("validate", "-j", "1", tmp_path)
    two = subprocess.run([*DOMREC, "validate", "-j", "2", str(tmp_path)], capture_output=True, timeout=600)
    assert one.exit_code == two.returncode == 2
    assert two.stdout.decode() == one.stdout and "e.jsonl: empty" in one.stdout


def test_an_empty_dgn_file_is_said_to_be_empty(tmp_path):
    for text in (b"", b"\n \n"):
        (tmp_path / "e.dgn").write_bytes(text)
        r = run("validate", tmp_path / "e.dgn")
        assert r.exit_code == 2, r.output
        assert f"{tmp_path}/e.dgn: empty: no game in this DGN text" in r.stdout
        assert "[Game" not in r.stdout


# --- 3. convert refuses a DGN game domrec could not read back -----------------------------------


def test_convert_refuses_to_write_dgn_longer_than_one_game_may_be(tmp_path):
    doc = json.loads((VALID / "domino.json").read_text())
    doc.setdefault("event", {})["note"] = "x" * (reader.MAX_DGN_GAME_BYTES + 10)
    (tmp_path / "big.json").write_text(json.dumps(doc))
    r = run("convert", tmp_path / "big.json", "-o", tmp_path / "big.dgn")
    assert r.exit_code == 2, r.output
    assert "more than 1 MiB, the most domrec reads as one game of DGN" in r.stderr
    assert "keep it as JSON" in r.stderr and "nothing written" in r.stderr
    assert not (tmp_path / "big.dgn").exists()
    r = run("convert", tmp_path / "big.json", "-o", tmp_path / "big.jsonl")  # JSON holds it
    assert r.exit_code == 0 and run("validate", tmp_path / "big.jsonl").exit_code == 0


def test_convert_still_writes_dgn_within_the_limit_the_same_as_before(tmp_path):
    from domrec import convert as conv

    records = [reader.load(VALID / n) for n in ("domino.json", "blocked.json")]
    lines = "".join(json.dumps(json.loads((VALID / n).read_text())) + "\n" for n in ("domino.json", "blocked.json"))
    (tmp_path / "two.jsonl").write_text(lines)
    r = run("convert", tmp_path / "two.jsonl", "-o", tmp_path / "two.dgn")
    assert r.exit_code == 0, r.output
    assert (tmp_path / "two.dgn").read_text() == conv.text_of(records, "dgn")


# --- 4. an unknown game is no game, in JSON and in DGN ------------------------------------------


def test_an_unknown_game_is_empty_in_the_summary_whether_json_or_dgn(tmp_path):
    dgn = (SAMPLES / "valid" / "competitive").glob("*.dgn")
    text = next(iter(sorted(dgn))).read_text()
    text = text.replace('[Game "competitive"]', '[Game "tiddlywinks"]')
    assert "tiddlywinks" in text
    (tmp_path / "t.dgn").write_text(text)
    doc = json.loads((VALID / "domino.json").read_text())
    doc["game"] = "tiddlywinks"
    (tmp_path / "t.jsonl").write_text(json.dumps(doc) + "\n")
    r = run("validate", "--json", tmp_path / "t.dgn", tmp_path / "t.jsonl", "--summary", tmp_path / "s.csv")
    assert r.exit_code == 2
    reports = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["game"], x["status"]) for x in reports] == [(None, "unusable")] * 2
    assert "unknown game" in reports[0]["problems"][0]["message"]
    rows = (tmp_path / "s.csv").read_text().splitlines()[1:]
    assert [row.split(",")[1] for row in rows] == ["", ""]


def test_a_known_game_read_up_to_a_notation_error_keeps_its_game():
    r = run("validate", "--json", SAMPLES / "invalid" / "castle-rock" / "unclosed-comment.dgn")
    assert json.loads(r.stdout)["game"] == "castle-rock"

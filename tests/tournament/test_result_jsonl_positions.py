"""`tournament result` and `amend` given a JSON Lines archive say a broken line's problem at the
archive's own line and column, as `domrec validate` does (`games.jsonl:3: … 3:10: not valid JSON`,
not `1:10`: the place within the line's record)."""

from __future__ import annotations

from typer.testing import CliRunner

from tournament.cli import app


def _event(tmp_path):
    path = tmp_path / "club.db"
    runner = CliRunner()
    for args in (["new", str(path), "--name", "Club", "--game", "competitive", "--format", "pairs"],
                 ["add", str(path), "Ana", "Bo"], ["add", str(path), "Cy", "Di"], ["pair", str(path)]):
        done = runner.invoke(app, args)
        assert done.exit_code == 0, done.output
    return path


def test_result_says_a_broken_line_at_its_line_in_the_file(tmp_path):
    path = _event(tmp_path)
    archive = tmp_path / "games.jsonl"
    archive.write_text('{"format": "domrec"}\n\n{"game": x}\n', encoding="utf-8")
    done = CliRunner().invoke(app, ["result", str(path), str(archive)])
    assert done.exit_code == 2
    assert "games.jsonl:3: the record cannot be read: 3:10: not valid JSON" in done.output, done.output
    assert "1:10" not in done.output


def test_amend_says_it_there_too(tmp_path):
    path = _event(tmp_path)
    runner = CliRunner()
    done = runner.invoke(app, ["result", str(path), "--table", "1", "--score", "NS=200,EW=100"])
    assert done.exit_code == 0, done.output
    archive = tmp_path / "one.jsonl"
    archive.write_text('\n\n{"game": x}\n', encoding="utf-8")
    done = runner.invoke(app, ["amend", str(path), "--round", "1", "--table", "1", "--reason", "typo", str(archive)])
    assert done.exit_code == 2, done.output
    assert "3:10: not valid JSON" in done.output and "1:10" not in done.output, done.output

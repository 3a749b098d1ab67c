"""One bad line in a typed game's header is one problem, and the tags after it are still tags.

A tag typed without its ``[`` (``E "Bo"]``) ended the header where it stood: its words were each
refused ("expected a tag or the first hand"), every tag after it was "a tag after the first hand",
and the seats those tags gave were then strangers to the hands and missing from the player count
(six problems for one keystroke; a line of prose in the header gave eleven).  Now the hands start
at a hand line (or a move), a header line that is no tag is one problem at its line and column, a
tag missing a bracket is read as the tag it plainly is, and the reading of the header goes on.
Every game is tried with the same slips, made on the header's second seat tag (line 3).
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from domrec import notation, phrases, reader
from domrec.cli import app
from tests.conftest import SAMPLES

#: A typed sample of each game: the header's line 3 is a seat tag, ``[SEAT "name"]``.
GAMES = {
    "broadway": "broadway/typed-blocked.dgn",
    "competitive": "competitive/typed-domino.dgn",
    "horse-race": "horse-race/typed-draws-and-chain.dgn",
    "castle-rock": "castle-rock/typed-captures.dgn",
    "domino-roads": "domino-roads/typed-four-players.dgn",
}

PROSE = "this line is not a tag, a hand line or a move"


def _text(game: str) -> str:
    return (SAMPLES / "valid" / GAMES[game]).read_text(encoding="utf-8")


def _report(text: str):
    (game,) = notation.read_source(reader.Source("game.dgn", text.encode(), form="dgn"))
    return game.report


def _said(report) -> list[str]:
    return [f"{p.line}:{p.column}: {p.message}" for p in report.problems]


def _with_line_3(text: str, new: str) -> str:
    lines = text.split("\n")
    assert lines[2].startswith("[") and lines[2].endswith('"]'), lines[2]
    lines[2] = new(lines[2]) if callable(new) else new
    return "\n".join(lines)


def _insert_after(text: str, line: int, new: str) -> str:
    lines = text.split("\n")
    return "\n".join(lines[:line] + [new] + lines[line:])


@pytest.mark.parametrize("game", GAMES)
def test_the_valid_sample_is_valid(game):
    assert _report(_text(game)).status == "valid"


@pytest.mark.parametrize("game", GAMES)
def test_a_tag_missing_its_open_bracket_is_one_problem(game):
    text = _text(game)
    tag = text.split("\n")[2]
    report = _report(_with_line_3(text, tag[1:]))
    assert _said(report) == [f"3:1: this line looks like a tag missing its [: write it as {tag}"]
    assert report.status == "unusable"


@pytest.mark.parametrize("game", GAMES)
def test_a_tag_missing_both_brackets_is_one_problem(game):
    text = _text(game)
    tag = text.split("\n")[2]
    report = _report(_with_line_3(text, "  " + tag[1:-1]))
    assert _said(report) == [f"3:3: this line looks like a tag missing its [ and ]: write it as {tag}"]


@pytest.mark.parametrize("game", GAMES)
def test_a_tag_missing_its_close_bracket_is_one_problem(game):
    report = _report(_with_line_3(_text(game), lambda tag: tag[:-1]))
    assert _said(report) == ['3:1: a tag is not closed: write it on one line as [Name "value"]']


@pytest.mark.parametrize("game", GAMES)
def test_a_tag_with_an_unclosed_quote_is_one_problem(game):
    text = _text(game)
    name = text.split("\n")[2][1:].split()[0]
    report = _report(_with_line_3(text, lambda tag: tag[:-2] + "]"))
    assert _said(report) == [f"3:1: the value of tag {name} is not a well-formed quoted text"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("where", [2, 3, "last"])
def test_a_line_of_prose_in_the_header_is_one_problem(game, where):
    text = _text(game)
    at = text.split("\n").index("") if where == "last" else where  # ("last": after the last tag)
    report = _report(_insert_after(text, at, "Played at the club on Tuesday, a good game."))
    said = _said(report)
    assert len(said) == 1, said
    assert said[0].startswith(f"{at + 1}:1: {PROSE}")


@pytest.mark.parametrize("game", GAMES)
def test_two_bad_header_lines_are_two_problems_in_text_order(game):
    """A seat tag that cannot be read stops the game, but only once the header is read: the
    prose line after it is said too, and first the one before it."""
    text = _with_line_3(_text(game), lambda tag: tag[:-2] + "]")
    text = _insert_after(_insert_after(text, 1, "typed by Bo"), 4, "a note")
    said = _said(_report(text))
    assert [s.split(":")[0] for s in said] == ["2", "4", "5"], said
    assert PROSE in said[0] and "not a well-formed quoted text" in said[1] and PROSE in said[2]


def test_a_rule_problem_in_the_hands_is_still_found():
    """The header's problem does not stop the hands being judged with the seats it names: a
    move made illegal is said after it, by its seat."""
    text = _text("competitive").replace('[E "Bo"]', 'E "Bo"]', 1).replace("6-5 4-2", "6-5 4-3", 1)
    report = _report(text)
    assert [(p.line, p.kind) for p in report.problems] == [(3, "input"), (8, "illegal")], _said(report)
    assert report.problems[1].seat == "S"


def test_a_seat_tag_missing_its_close_bracket_still_names_its_seat():
    """A seat tag not closed is read as closed (it was the end of the game's reading): the hands
    are judged with its seat, and a move made illegal is still found."""
    text = _text("competitive").replace('[E "Bo"]', '[E "Bo"', 1).replace("6-5 4-2", "6-5 4-3", 1)
    report = _report(text)
    assert [(p.line, p.kind) for p in report.problems] == [(3, "input"), (8, "illegal")], _said(report)


def test_the_json_report_gives_the_line_and_no_pointer(tmp_path):
    text = _text("competitive").replace('[E "Bo"]', 'E "Bo"]', 1)
    path = tmp_path / "tagtypo.dgn"
    path.write_text(text, encoding="utf-8")
    out = CliRunner().invoke(app, ["validate", "--json", str(path)])
    doc = json.loads(out.stdout.splitlines()[0])
    assert doc["game"] == "competitive" and doc["status"] == "unusable"
    assert doc["problems"] == [{"pointer": "", "message": 'this line looks like a tag missing its [: write it as '
                                                         '[E "Bo"]', "rule": "", "kind": "input", "line": 3,
                                "column": 1}]


@pytest.mark.parametrize("game", GAMES)
def test_a_line_that_starts_like_a_hand_part_among_the_tags_is_one_problem(game):
    """A line whose first word is a keyword (``End of…``) ends the header only where no tag
    follows it; one of moves among the tags is told to go under its hand line."""
    text = _text(game)
    said = _said(_report(_insert_after(text, 2, "End of the notes from the table.")))
    assert len(said) == 1 and said[0].startswith(f"3:1: {PROSE}"), said
    said = _said(_report(_insert_after(text, 2, "6-6 5-5")))
    assert said == ["3:1: this line belongs to a hand, but tags follow it: write it after the tags, under its hand "
                    "line (hand 1)"]


def test_a_text_with_no_tag_at_all_is_told_its_missing_game_tag_alone():
    said = _said(_report("my shopping list\napples and pears\n"))
    assert len(said) == 1 and "a game needs a [Game" in said[0], said


def test_a_text_missing_its_hand_line_is_read_as_before():
    """A move line ends the header as a hand line does (the text left out its ``hand 1``)."""
    text = _text("competitive").replace("hand 1 lead N\n", "", 1)
    said = _said(_report(text))
    assert said[0].startswith("7:1: expected a tag or the first hand (hand 1), not '5-2'"), said


def test_the_new_sentences_are_in_spanish():
    for text in ('this line looks like a tag missing its [: write it as [E "Bo"]',
                 'this line looks like a tag missing its [ and ]: write it as [E "Bo"]',
                 PROSE + ': write a tag as [Name "value"] and a note in braces, {like this}',
                 "this line belongs to a hand, but tags follow it: write it after the tags, under its hand line "
                 "(hand 1)"):
        assert phrases.listed(text), text
        out = phrases.translate(text, "es")
        assert out != text and out.startswith("esta línea"), out

"""A control character in a record's text (ESC, NUL, BEL, DEL, a C1 control such as U+009B) is
refused where it is read: in DGN at its line:column, in JSON at
the pointer of the text holding it, by the recorder at the line typed; exit 2 (the input cannot
be judged), one line, never a traceback.  A terminal shown such a text would obey it: ESC can
clear the screen and write "valid" in its place.  The tab, the line feed and the carriage return
are text (a comment of two lines), and neither direction controls (right-to-left text uses its
marks; every output drops them: tests/test_plain_direction.py) nor the line and paragraph
separators (no terminal obeys them; a report escapes them: tests/test_cli.py) are refused."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from hypothesis import example, given, strategies as st
from typer.testing import CliRunner

from domrec import notation, record_cli
from domrec.cli import app
from domrec.errors import RECORD_CONTROLS
from domrec.notation.loading import read_games
from domrec.validate import validate_text

from tests.conftest import SAMPLES

DGN = (SAMPLES / "valid" / "competitive" / "comments.dgn").read_text(encoding="utf-8")
JSON = (SAMPLES / "valid" / "competitive" / "domino.json").read_text(encoding="utf-8")

#: The characters refused, one of each kind; and some that are text.
REFUSED = ["\x00", "\x07", "\x08", "\x0b", "\x0c", "\x1b", "\x1f", "\x7f", "\x85", "\x9b", "\x9f"]
KEPT = ["\t", "\u202e", "\u200f", "\u00a0", "é", "\u2028"]
#: What a refusal says: the character's code, on one line.
SAID = re.compile(r"the text holds a control character, U\+[0-9A-F]{4}")


def where(text: str, at: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``at`` of ``text`` (lines ended by line feeds)."""
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


def test_the_set_refused():
    refused = {chr(c) for c in range(0x3000) if RECORD_CONTROLS.match(chr(c))}
    assert refused == ({chr(c) for c in range(0x20)} - {"\t", "\n", "\r"}) | {chr(c) for c in range(0x7F, 0xA0)}


# --- DGN ------------------------------------------------------------------------------------


@given(st.integers(0, len(DGN)), st.text(max_size=12), st.sampled_from(REFUSED), st.text(max_size=12))
@example(at=0, before="\r", bad="\x00", after="")  # a lone CR ends a line: the NUL is at 2:1
def test_any_dgn_text_with_a_control_character_is_refused_at_its_line_and_column(at, before, bad, after):
    text = DGN[:at] + before + bad + after + DGN[at:]
    games = list(read_games(text.encode("utf-8"), "t.dgn"))
    text = text.replace("\r\n", "\n").replace("\r", "\n")  # (as a file saved on Windows, or an old Mac, is read)
    first = RECORD_CONTROLS.search(text)
    problems = [p for g in games for p in g.report.problems]
    assert games and all(g.report.status == "unusable" for g in games if SAID.search(str(g.report.problems)))
    refusal = next(p for p in problems if SAID.search(p.message))
    assert (refusal.line, refusal.column) == where(text, first.start()), refusal
    assert f"U+{ord(first.group()):04X}" in refusal.message and "\n" not in refusal.message
    assert refusal.kind == "input"


@given(st.integers(0, len(DGN)), st.text(st.sampled_from(KEPT), min_size=1, max_size=5))
def test_tabs_and_direction_controls_are_not_refused(at, kept):
    games = list(read_games((DGN[:at] + kept + DGN[at:]).encode("utf-8"), "t.dgn"))
    assert not any(SAID.search(p.message) for g in games for p in g.report.problems)


@pytest.mark.parametrize("bad", REFUSED)
def test_validate_says_where_and_exits_2(tmp_path, bad):
    """In a comment, a tag's value, a player's name; a file saved on Windows (CRLF) reads the same."""
    for text in (DGN.replace("three fives.", f"three {bad}fives."), DGN.replace("Club night", f"Club{bad} night"),
                 DGN.replace('"Cy"', f'"C{bad}y"'), DGN.replace("\n", "\r\n").replace("three fives.", f"three {bad}fives.")):
        path = tmp_path / "g.dgn"
        path.write_bytes(text.encode("utf-8"))
        r = CliRunner().invoke(app, ["validate", str(path)])
        line, column = where(text.replace("\r\n", "\n"), text.replace("\r\n", "\n").index(bad))
        assert r.exit_code == 2, r.output
        assert f"\n  {line}:{column}: the text holds a " in r.output and f"U+{ord(bad):04X}" in r.output, r.output
        assert bad not in r.output and "Traceback" not in r.output
        report = json.loads(CliRunner().invoke(app, ["validate", "--json", str(path)]).output.splitlines()[0])
        assert report["status"] == "unusable" and (report["problems"][0]["line"], report["problems"][0]["column"]) == (
            line, column)


def test_in_an_archive_the_line_is_the_files():
    second = DGN.replace("three fives.", "three \x1bfives.")
    text = DGN + "\n" + second
    games = list(read_games(text.encode("utf-8"), "a.dgn"))
    assert [g.report.status for g in games] == ["valid", "unusable"]
    p = games[1].report.problems[0]
    assert (p.line, p.column) == where(text, text.index("\x1b"))


def test_a_control_character_written_as_an_escape_in_a_quoted_text_is_refused_too():
    """A tag's quoted value is JSON text: ``\\u001b`` makes an ESC.  Refused at the tag."""
    text = DGN.replace('[Event "Club night"]', '[Event "Club\\u001b[2J night"]')
    with pytest.raises(notation.NotationError) as e:
        notation.loads(text)
    assert (e.value.line, e.value.column) == (2, 1) and "U+001B" in e.value.message


# --- JSON -----------------------------------------------------------------------------------


@given(st.sampled_from(REFUSED), st.text(max_size=10), st.sampled_from(["ensure_ascii", "raw"]))
def test_any_json_text_with_a_control_character_is_refused_at_its_pointer(bad, rest, form):
    doc = json.loads(JSON)
    doc["hands"][0]["moves"][3]["comment"] = rest + bad
    text = json.dumps(doc, ensure_ascii=form == "ensure_ascii")
    for given_as in (text, text.encode("utf-8")):  # (bytes are read by orjson first, text by Python's reader)
        report = validate_text(given_as)
        assert report.status == "unusable", report.problems
        lone = any(0xD800 <= ord(ch) <= 0xDFFF for ch in rest)
        if not lone:
            assert report.problems[0].pointer == "/hands/0/moves/3/comment"
            assert SAID.search(report.problems[0].message)


def test_a_key_with_a_control_character_is_refused():
    doc = json.loads(JSON)
    doc["event"] = {"na\x1bme": "x"}
    report = validate_text(json.dumps(doc))
    assert report.status == "unusable" and report.problems[0].pointer == "/event/na\x1bme", report.problems


def test_tabs_and_line_breaks_in_a_json_text_are_text():
    doc = json.loads(JSON)
    doc["hands"][0]["moves"][3]["comment"] = "two\nlines\r\nand\ta tab, \\b not a backspace, \\u001b not an ESC"
    assert validate_text(json.dumps(doc)).status == "valid"
    assert validate_text(json.dumps(doc).encode()).status == "valid"


# --- the recorder ---------------------------------------------------------------------------


def piped(*args, text: str = ""):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = record_cli.run(*args, stdin=io.StringIO(text), interactive=False)
    return code, out.getvalue(), err.getvalue()


PLAYERS = ["N=Ana", "E=Bo", "S=Cy", "W=Di"]


@pytest.mark.parametrize("bad", ["\x1b", "\x0c", "\x9b", "\x85"])
def test_the_recorder_refuses_a_typed_line_at_the_character(tmp_path, bad):
    game = tmp_path / "g.dgn"
    code, out, err = piped("competitive", str(game), PLAYERS, None, [], None,
                           text=f"hand 1 lead N\n  {{a comment {bad}here}}\n")
    assert code == 1 and err.splitlines()[0].startswith("line 2, column 14: the text holds a "), err
    assert f"U+{ord(bad):04X}" in err and bad not in err + out
    assert bad not in game.read_text(encoding="utf-8")


def test_the_recorder_refuses_a_name_or_tag_with_a_control_character(tmp_path):
    code, out, err = piped("competitive", str(tmp_path / "a.dgn"), ["N=A\x1bna", "E=Bo", "S=Cy", "W=Di"], None, [],
                           None, text="hand 1\n")
    assert code == 2 and err.startswith("error: the name of the player at N: the text holds a control character, "
                                        "U+001B"), err
    assert not (tmp_path / "a.dgn").exists()
    for tag, column in (('[N "A\x1bna"]', 6), ('[N "A\\u001bna"]', 1)):
        code, out, err = piped("competitive", str(tmp_path / "b.dgn"), [], None, [], None,
                               text=f'[Game "competitive"]\n{tag}\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\n\nhand 1\n')
        assert code == 2 and err.startswith(f"error: line 2, column {column}: the text holds a control character, "
                                            "U+001B"), err
        assert not (tmp_path / "b.dgn").exists()

"""Issue 27, point 4: domrec's own text output (validate, explain, record, convert) prints names,
seats and comments without direction controls, as the tournament's does; ``--json`` and the
records written are data, kept as the record holds them.

``\\u202e1 reyalP`` holds a right-to-left override: a terminal would show it as "Player 1"."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

from hypothesis import given, strategies as st
from typer.testing import CliRunner

from domrec import record_cli
from domrec.cli import app
from domrec.errors import BIDI_CONTROLS, plain_direction

from tests.conftest import SAMPLES

runner = CliRunner()
RLO = "\u202e1 reyalP"
DOMINO = SAMPLES / "valid" / "competitive" / "domino.json"


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


def reversed_name(tmp_path: Path) -> Path:
    """The sample with Ana renamed ``\\u202e1 reyalP``, and the second move's seat written with an
    override too (not a seat: the record is invalid, and its problem names the seat)."""
    doc = json.loads(DOMINO.read_text())
    doc["players"][0]["name"] = RLO
    path = tmp_path / "rlo.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    doc["hands"][0]["moves"][1]["seat"] = "\u202eW"
    (tmp_path / "seat.json").write_text(json.dumps(doc), encoding="utf-8")
    return path


def no_controls(text: str) -> bool:
    return not any(ch in BIDI_CONTROLS for ch in text)


@given(st.text(st.sampled_from(["a", "1", " ", "\u05e9", *sorted(BIDI_CONTROLS)]), max_size=30))
def test_plain_direction_takes_out_the_controls_and_nothing_else(text):
    out = plain_direction(text)
    assert no_controls(out)
    assert out == "".join(ch for ch in text if ch not in BIDI_CONTROLS)


def test_one_set_of_controls_for_both_commands():
    from tournament import names

    assert names.plain_direction is plain_direction and names.BIDI_CONTROLS is BIDI_CONTROLS
    assert BIDI_CONTROLS == {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)),
                             "\u200e", "\u200f", "\u061c"}


def test_explain_prints_the_name_readable(tmp_path: Path):
    r = run("explain", reversed_name(tmp_path))
    assert r.exit_code == 0, r.output
    assert "N 1 reyalP, E Bo" in r.output and no_controls(r.output)


def test_validate_prints_without_controls_and_json_keeps_the_record_as_it_is(tmp_path: Path):
    reversed_name(tmp_path)
    r = run("validate", tmp_path / "seat.json")
    assert r.exit_code == 1 and "W is not a seat at this table" in r.output and no_controls(r.output)
    r = run("validate", "--json", tmp_path / "seat.json")
    assert "\u202eW is not a seat" in json.loads(r.output.splitlines()[0])["problems"][0]["message"]


def test_convert_writes_the_name_as_it_is_and_says_problems_without_controls(tmp_path: Path):
    path = reversed_name(tmp_path)
    assert run("convert", path, "-o", tmp_path / "g.dgn").exit_code == 0
    assert f'[N "{RLO}"]' in (tmp_path / "g.dgn").read_text(encoding="utf-8")  # data: as the record has it
    r = run("convert", tmp_path / "seat.json", "--fill", "-o", tmp_path / "bad.json")
    assert "W is not a seat" in r.output and no_controls(r.output)


def test_an_explained_picture_on_standard_output_is_data(tmp_path: Path):
    r = run("explain", reversed_name(tmp_path), "--svg", "-")
    assert r.exit_code == 0 and "<svg" in r.output and "N 1 reyalP" in r.output


def piped(*args: str, text: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = record_cli.run(*args, stdin=io.StringIO(text), interactive=False)  # type: ignore[call-arg]
    return code, out.getvalue(), err.getvalue()


def test_the_recorder_prints_the_name_readable_and_saves_it_as_typed(tmp_path: Path):
    game = tmp_path / "g.dgn"
    code, out, err = piped("competitive", str(game), [f"N={RLO}"], None, [], None)
    assert code == 0, err
    assert f'[N "{RLO}"]' in game.read_text(encoding="utf-8")
    # Continuing the game with a text that names other players: the refusal names both.
    code, out, err = piped(str(game), None, [], None, [], None,
                           text='[Game "competitive"]\n[N "Ana"]\n[E "E"]\n[S "S"]\n[W "W"]\n\nhand 1\n')
    assert code == 2 and "N=1 reyalP" in err and "N=Ana" in err, err
    assert no_controls(out + err)


def test_the_replay_page_isolates_names_and_drops_the_controls(tmp_path: Path):
    from domrec import replay_page
    from domrec.reader import loads

    record = loads(reversed_name(tmp_path).read_bytes())
    page = replay_page.page(record, "rlo.json")
    assert "\u202e" not in page
    assert '<span class="seat">N</span><bdi>1 reyalP</bdi>' in page  # the players, each isolated
    assert '"N","1 reyalP"' in page  # the script's names (its "Last:" line puts each in a <bdi>)
    assert ".moves small{color:#666;font-size:.85rem;unicode-bidi:isolate}" in page


def test_a_typed_game_with_controls_in_its_names_and_comments_prints_without_them(tmp_path: Path):
    """Issue 35, point 6: a DGN game whose event, player and comments hold overrides and
    embeddings, through every command that prints it as text (validate, with and without -v, on
    a valid and an invalid game; explain; the recorder continuing it): no direction control
    reaches the terminal, and the names still read."""
    text = (SAMPLES / "valid" / "competitive" / "comments.dgn").read_text(encoding="utf-8")
    text = (text.replace('[N "Ana"]', f'[N "{RLO}"]').replace('[E "Bo"]', '[E "\u202bBo\u202c"]')
                .replace("Club night", "\u2067Club night\u2069").replace("{Ana led", "{\u202eAna led"))
    good, bad = tmp_path / "c.dgn", tmp_path / "bad.dgn"
    good.write_text(text, encoding="utf-8")
    bad.write_text(text.replace("end out NS 23", "end out NS 24"), encoding="utf-8")
    for args in (("validate", good), ("validate", "-v", good), ("validate", bad), ("validate", "-v", bad),
                 ("explain", good)):
        r = run(*args)
        assert r.exit_code in (0, 1) and no_controls(r.output), (args, r.output)
    assert "N 1 reyalP, E Bo" in run("explain", good).output
    assert "claimed 24" in run("validate", bad).output
    code, out, err = piped(str(good), None, [], None, [], None)
    assert code in (0, 2) and "continuing" in out + err and no_controls(out + err), (out, err)
    assert RLO in good.read_text(encoding="utf-8")  # the file keeps the names as typed

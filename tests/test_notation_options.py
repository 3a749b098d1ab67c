"""A typed DGN game's [Variant] and [Option] tags are checked as a JSON record's rules are.

A game typed as people write it (seats or deals left out) is read through the Game API; its
rules used to reach the engine unchecked, so ``target=zero`` was an internal error (a Python
``ValueError``), ``target=0`` a game judged with a target of 0 (INVALID, exit 1), and
``set=7`` a Castle Rock rule broken.  docs/notation.md: ``domrec validate game.dgn`` says exactly
what ``domrec validate game.json`` would say, at the line:column of the tag.  These tests hold the
typed reading to the canonical one and to the JSON record, for every game and option, through
the library and each command (validate, validate --json, convert, explain, record).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from domrec import games, notation, record_cli, shape
from domrec.cli import app
from domrec.errors import ShapeError
from domrec.game import Game
from domrec.reader import load_dict
from domrec.record import unstructure

from tests.conftest import SAMPLES, examples

#: A typed game of each game (read through the Game API: seats, deals or both left out).
TYPED = {
    "broadway": SAMPLES / "valid" / "broadway" / "typed-blocked.dgn",
    "competitive": SAMPLES / "valid" / "competitive" / "typed-domino.dgn",
    "horse-race": SAMPLES / "valid" / "horse-race" / "typed-draws-and-chain.dgn",
    "castle-rock": SAMPLES / "valid" / "castle-rock" / "typed-captures.dgn",
    "domino-roads": SAMPLES / "valid" / "domino-roads" / "typed-three-players.dgn",
}

#: Per game, option texts the record format refuses (the record is unusable, exit 2): a value of
#: the wrong kind or out of range for every option of the game, an option it does not have.
BAD = {
    "broadway": ["target=100", "colour=red"],
    "competitive": ["first_lead=7", "first_lead=double-five", "first_lead=true", "first_lead=", "colour=red"],
    "horse-race": ["target=zero", "target=0", "target=-5", "target=1.5", "target=61.0", "target=", "target=true",
                   "partnerships=maybe", "partnerships=1", "partnerships=True", "chain_draw=0", "chain_draw=",
                   "count_partner=yes", "win_check=never", "win_check=false", "traget=100"],
    "castle-rock": ["start_tiles=abc", "start_tiles=0", "start_tiles=4.0", "start_tiles=-1", "start_tiles=",
                    "start_tiles=true", "set=7", "set=double-five", "set=auto", "colour=red"],
    "domino-roads": ["block_match=product", "block_match=1", "block_match=", "colour=red"],
}
CASES = [(game, opt) for game, opts in BAD.items() for opt in opts]
CASE_IDS = [f"{game}-{opt}" for game, opt in CASES]

runner = CliRunner()


def typed(game: str) -> str:
    return TYPED[game].read_text(encoding="utf-8")


def canonical(game: str) -> str:
    return notation.dumps(notation.loads(typed(game)))


def with_tag(text: str, tag: str) -> str:
    """``text`` with ``tag`` on the line after its [Game] tag (line 2)."""
    first, rest = text.split("\n", 1)
    assert first.startswith("[Game ")
    return f"{first}\n{tag}\n{rest}"


def option_tag(opt: str) -> str:
    return f'[Option "{opt}"]'


def verdict(text: str) -> tuple:
    (game,) = list(notation.read_games(text))
    r = game.report
    return r.status, tuple((p.pointer, p.message, p.line, p.column) for p in r.problems)


def json_verdict(game: str, opt: str, tmp_path: Path) -> tuple[int, dict]:
    """``domrec validate --json`` on the JSON record of the typed game with option ``opt``,
    its value as [Option] reads it (and as ``--option`` does: :func:`games.parse_options`)."""
    doc = unstructure(notation.loads(typed(game)))
    doc["rules"] = {"options": games.parse_options([opt])}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    r = runner.invoke(app, ["validate", "--json", str(path)])
    return r.exit_code, json.loads(r.output.splitlines()[0])


@pytest.mark.parametrize(("game", "opt"), CASES, ids=CASE_IDS)
def test_a_wrong_option_in_a_typed_game_is_said_as_in_canonical_dgn_and_json(game, opt, tmp_path):
    text = with_tag(typed(game), option_tag(opt))
    status, problems = verdict(text)
    assert (status, problems) == verdict(with_tag(canonical(game), option_tag(opt)))
    code, said = json_verdict(game, opt, tmp_path)
    assert code == 2 and status == said["status"] == "unusable"
    assert [(p[0], p[1]) for p in problems] == [(p["pointer"], p["message"]) for p in said["problems"]]
    assert [(p[2], p[3]) for p in problems] == [(2, 1)]  # at the [Option] tag
    assert "internal error" not in problems[0][1]


@pytest.mark.parametrize("game", list(TYPED))
def test_an_unknown_variant_in_a_typed_game_is_said_as_in_canonical_dgn(game):
    tag = '[Variant "bogus"]'
    status, problems = verdict(with_tag(typed(game), tag))
    assert (status, problems) == verdict(with_tag(canonical(game), tag))
    assert status == "unusable" and problems[0][:1] == ("/rules/variant",) and problems[0][2:] == (2, 1)


def test_a_start_tiles_the_players_cannot_have_is_a_setup_problem_in_every_form(tmp_path):
    """A value of the right kind the table's players cannot use (99 tiles each): a rule of the
    game, broken (INVALID, exit 1), said alike in the typed, canonical and JSON forms."""
    opt = "start_tiles=99"
    status, problems = verdict(with_tag(typed("castle-rock"), option_tag(opt)))
    assert (status, problems) == verdict(with_tag(canonical("castle-rock"), option_tag(opt)))
    code, said = json_verdict("castle-rock", opt, tmp_path)
    assert code == 1 and status == said["status"] == "invalid"
    assert [(p[0], p[1]) for p in problems] == [(p["pointer"], p["message"]) for p in said["problems"]]


#: Options whose value is a number, with that number written with a leading zero.
LEADING_ZERO = [("horse-race", "target=007", "target=7"), ("horse-race", "target=061", "target=61"),
                ("castle-rock", "start_tiles=05", "start_tiles=5"), ("castle-rock", "start_tiles=00", "start_tiles=0")]


@pytest.mark.parametrize(("game", "opt", "plain"), LEADING_ZERO, ids=[f"{g}-{o}" for g, o, _ in LEADING_ZERO])
def test_a_number_with_a_leading_zero_in_an_option_is_unusable_in_every_form(game, opt, plain, tmp_path, monkeypatch):
    """``[Option "target=007"]`` was read as target 7, while a JSON record cannot write 007 (JSON
    has no leading zeros): the DGN text, typed or canonical, and the recorder's ``--option``
    refuse it as unusable (exit 2), at the tag."""
    name, _, value = opt.partition("=")
    message = f"rule option {name}: a number has no leading zero: write {plain}, not {opt}"
    tag = option_tag(opt)
    typed_verdict = verdict(with_tag(typed(game), tag))
    assert typed_verdict == verdict(with_tag(canonical(game), tag))
    assert typed_verdict == ("unusable", ((f"/rules/options/{name}", message, 2, 1),))
    # the JSON record's own text refuses the number (not JSON), unusable too
    doc = unstructure(notation.loads(typed(game)))
    doc["rules"] = {"options": {name: 1}}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc).replace(f'"{name}": 1', f'"{name}": {value}'), encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 2 and "UNUSABLE" in r.output, r.output
    with pytest.raises(Exception) as refused:
        games.parse_options([opt])
    assert refused.value.pointer == f"/rules/options/{name}"
    monkeypatch.setattr(record_cli, "_ask", lambda prompt: pytest.fail(f"asked {prompt!r}"))
    for interactive in (False, True):
        code, said = _record(game, tmp_path / "g.dgn", "", [opt], interactive)
        assert (code, said) == (2, f"error: {message}\n")
        assert not (tmp_path / "g.dgn").exists()


def test_the_recorder_refuses_a_start_tiles_the_players_cannot_have_before_recording(tmp_path):
    """The recorder's side of the test above: given a start_tiles no table of its players can use
    (given by -p, or the most the game allows when -p is left out: six for Castle Rock), nothing
    can be recorded, so it refuses at the start (exit 2, docs/recording.md), in the rule's words
    the validator says of a record holding it (INVALID, exit 1: a record that exists breaks a rule)."""
    import contextlib

    for count, most in ((None, "16 for 6 players"), (2, "24 for 2 players")):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = record_cli.run("castle-rock", str(tmp_path / "g.dgn"), [], count, ["start_tiles=99"], None,
                                  stdin=io.StringIO(""), interactive=False)
        assert (code, out.getvalue(), err.getvalue()) == (2, "", (
            f"error: /rules/options/start_tiles: start_tiles must be a whole number from 1 to {most} with the "
            f"double-six set (or \"auto\"), not 99 [castle-rock: option start_tiles]\n"))
        assert not (tmp_path / "g.dgn").exists()


def test_a_start_tiles_tag_the_players_cannot_have_is_said_at_its_tag(tmp_path):
    """The same start_tiles piped in the text's tags: said at the tag's line and column, as every
    other refusal of a piped header is (it was said by its JSON Pointer); given on the command
    line too, the command line's value is the one used, and said as the command line's."""
    import contextlib

    rule = ("start_tiles must be a whole number from 1 to 20 for 4 players with the double-six set "
            "(or \"auto\"), not {n} [castle-rock: option start_tiles]")
    for given, said in (([], "line 2, column 1: " + rule.format(n=99)),
                        (["start_tiles=98"], "/rules/options/start_tiles: " + rule.format(n=98))):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = record_cli.run("castle-rock", str(tmp_path / "g.dgn"), [], 4, given, None,
                                  stdin=io.StringIO('[Game "castle-rock"]\n[Option "start_tiles=99"]\n'),
                                  interactive=False)
        assert (code, out.getvalue(), err.getvalue()) == (2, "", f"error: {said}\n")
        assert not (tmp_path / "g.dgn").exists()


# --- the property -------------------------------------------------------------------------

#: Text that may stand in a quoted tag value: no quote, backslash, bracket, line break or control.
_TAG_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs"), blacklist_characters='"\\[]'), max_size=14)


def _names(game: str) -> st.SearchStrategy[str]:
    return st.sampled_from(list(shape.GAME_RULES[game][1]) or ["target"]) | _TAG_TEXT


@settings(max_examples=examples(40, 300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(list(TYPED)))
@example(data=None, game="horse-race")
def test_any_option_text_in_a_typed_header_gets_the_verdict_of_canonical_dgn(data, game):
    """Whatever an [Option] tag holds, the typed game gets the canonical game's verdict class; and
    where the option makes the record unusable, the very same problems, at the same places."""
    if data is None:
        opt = "target=zero"
    else:
        value = data.draw(st.sampled_from(["0", "-1", "1", "7", "007", "-01", "00", "61", "4.0", "true", "false", "auto", "any",
                                           "double-nine", "double-six", "equal", "sum", "end_of_hand"]) | _TAG_TEXT)
        opt = f"{data.draw(_names(game))}={value}"
    tag = option_tag(opt)
    t, c = verdict(with_tag(typed(game), tag)), verdict(with_tag(canonical(game), tag))
    assert t[0] == c[0], (opt, t, c)
    if c[0] == "unusable":
        assert t == c, opt
    assert not any("internal error" in p[1] for p in t[1]), (opt, t)


# --- the Game API -------------------------------------------------------------------------


def json_refusal(game: str, opt: str) -> ShapeError:
    """What reading a JSON record with option ``opt`` refuses it with."""
    doc = {"format": "domrec", "version": "1.0", "game": game, "rules": {"options": games.parse_options([opt])},
           "players": [{"seat": "P1", "name": "Ana"}], "hands": []}
    with pytest.raises(ShapeError) as refused:
        load_dict(doc)
    return refused.value


@pytest.mark.parametrize(("game", "opt"), CASES, ids=CASE_IDS)
def test_the_game_api_refuses_a_wrong_option_as_the_record_format_does(game, opt):
    with pytest.raises(ShapeError) as raised:
        Game(game, ["P1", "P2", "P3"], options=games.parse_options([opt]))
    refused = json_refusal(game, opt)
    assert (raised.value.pointer, raised.value.message) == (refused.pointer, refused.message)


def test_the_game_api_refuses_an_unknown_variant():
    with pytest.raises(ShapeError, match="no variant"):
        Game("horse-race", ["P1", "P2", "P3"], variant="bogus")


# --- the commands -------------------------------------------------------------------------

#: The tester's files: the two examples of docs/notation.md with a wrong option.
HORSE = """[Game "horse-race"]
{tag}
[P1 "Ana"]
[P2 "Bo"]
[P3 "Cy"]

hand 1
P3 6-4 +3-0 +5-1 +6-6 6-6 4-4 4-3 4-0
4-2 2-0@4-2 5-0@4-0 0-0 6-0@0-0 3-1 5-3 6-5@6-0
5-1@3-1 3-0@0-0 5-5@5-1
left P2 3-2; P3 5-2 2-2 2-1 1-1
end
"""
COMMAND_CASES = [("target=zero", "target must be a whole number, not the text 'zero'"),
                 ("target=0", "target must be at least 1, not 0"),
                 ("target=1.5", "target must be a whole number, not the text '1.5'"),
                 ("partnerships=maybe", "rule option partnerships must be true or false, not the text 'maybe'"),
                 ("target=007", "rule option target: a number has no leading zero: write target=7, not target=007")]


@pytest.mark.parametrize(("opt", "message"), COMMAND_CASES, ids=[c[0] for c in COMMAND_CASES])
def test_every_command_says_a_typed_games_wrong_option_at_its_tag(opt, message, tmp_path):
    path = tmp_path / "game.dgn"
    path.write_text(HORSE.format(tag=option_tag(opt)), encoding="utf-8")
    said = f"2:1: {message}"
    outputs = []
    r = runner.invoke(app, ["validate", str(path)])
    outputs.append(r.output)
    assert r.exit_code == 2 and "UNUSABLE" in r.output and f"  {said}\n" in r.output, r.output
    r = runner.invoke(app, ["validate", "--json", str(path)])
    outputs.append(r.output)
    out = json.loads(r.output.splitlines()[0])
    assert r.exit_code == 2 and out["status"] == "unusable"
    assert [(p["message"], p["line"], p["column"]) for p in out["problems"]] == [(message, 2, 1)]
    r = runner.invoke(app, ["convert", str(path), "-o", str(tmp_path / "out.json")])
    outputs.append(r.output)
    assert r.exit_code == 2 and said in r.output and "nothing written" in r.output, r.output
    assert not (tmp_path / "out.json").exists()
    r = runner.invoke(app, ["explain", str(path)])
    outputs.append(r.output)
    assert r.exit_code == 2 and said in r.output, r.output
    for out in outputs:
        assert "Traceback" not in out and "internal error" not in out


def _record(target: str, output: Path, text: str, option=(), interactive: bool = False) -> tuple[int, str]:
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = record_cli.run(target, str(output), [], None, list(option), None, stdin=io.StringIO(text),
                              interactive=interactive)
    return code, out.getvalue() + err.getvalue()


@pytest.mark.parametrize(("opt", "message"), COMMAND_CASES, ids=[c[0] for c in COMMAND_CASES])
def test_the_recorder_refuses_a_wrong_option_in_the_piped_tags_at_its_tag(opt, message, tmp_path):
    code, said = _record("horse-race", tmp_path / "g.dgn", HORSE.format(tag=option_tag(opt)))
    assert (code, said) == (2, f"error: line 2, column 1: {message}\n")
    assert not (tmp_path / "g.dgn").exists()


@pytest.mark.parametrize(("game", "opt"), CASES, ids=CASE_IDS)
def test_the_recorder_refuses_a_wrong_option_on_its_command_line_before_asking_anything(game, opt, tmp_path,
                                                                                        monkeypatch):
    def ask(prompt: str) -> str:
        raise AssertionError(f"asked {prompt!r} before refusing the option")

    monkeypatch.setattr(record_cli, "_ask", ask)
    message = json_refusal(game, opt).message
    for interactive in (False, True):
        code, said = _record(game, tmp_path / "g.dgn", "", [opt], interactive)
        assert (code, said) == (2, f"error: {message}\n")
        assert not (tmp_path / "g.dgn").exists()

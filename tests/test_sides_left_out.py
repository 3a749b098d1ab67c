"""A side left out of a hand's claimed scores scored 0 (docs/format.md, docs/notation.md): the
claim is checked for it as for a side written, in every form a record comes in (JSON, canonical
DGN, typed DGN read through the readings) and in every game.  ``end out NS 0`` where EW went out
for 34 claims EW 0, and is a wrong hand score, as ``end out NS 34`` is."""

from __future__ import annotations

import json

import pytest

from domrec import notation, reader
from domrec.record import unstructure
from domrec.validate import validate
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

#: One configuration of each game, and those where several sides score a hand (Broadway,
#: Domino Roads) or each seat is a side of its own (Horse Race, Castle Rock, three-player Roads).
CONFIGS = [
    ("competitive", None, None, None),
    ("horse-race", 3, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("broadway", None, None, None),
    ("castle-rock", 2, None, None),
    ("castle-rock", 4, None, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
]
IDS = [f"{g}-{n or ''}{'-partnerships' if o else ''}" for g, n, o, _ in CONFIGS]


def simulated(config) -> dict:
    game, players, options, variant = config
    return json.loads(json.dumps(unstructure(next(made_once.simulate(game, 1, 1, players, options, variant)))))


def left_out(doc: dict) -> tuple[int, str, int]:
    """The first played hand with a side that scored, and a side written beside it: (hand index,
    the scoring side, its points)."""
    for i, hand in enumerate(doc["hands"]):
        scores = (hand.get("result") or {}).get("scores") or {}
        scoring = [side for side, n in scores.items() if n]
        if hand.get("moves") and scoring and len(scores) > 1:
            return i, scoring[0], scores[scoring[0]]
    raise AssertionError("no hand where a side scored")


def without(doc: dict, i: int, side: str) -> dict:
    out = json.loads(json.dumps(doc))
    del out["hands"][i]["result"]["scores"][side]
    return out


def expected(i: int, side: str, n: int) -> str:
    return (f"{side} is claimed 0 for hand {i + 1} (it is left out of the hand's scores: a side left out "
            f"scored 0), but scores {n}")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_json_hand_result_leaving_out_a_side_that_scored_is_a_wrong_hand_score(config):
    doc = simulated(config)
    assert validate(reader.load_dict(doc)).status == "valid"
    i, side, n = left_out(doc)
    report = validate(reader.load_dict(without(doc, i, side)))
    assert report.status == "invalid"
    assert [(p.pointer, p.message, p.kind, p.claimed, p.computed) for p in report.problems] == [
        (f"/hands/{i}/result/scores/{side}", expected(i, side, n), "score", 0, n)]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_json_hand_result_leaving_out_a_side_that_scored_0_is_valid(config):
    doc = simulated(config)
    for hand in doc["hands"]:
        scores = (hand.get("result") or {}).get("scores") or {}
        for side in [s for s, n in scores.items() if n == 0][:len(scores) - 1]:
            del scores[side]
    report = validate(reader.load_dict(doc))
    assert report.status == "valid", [p.text() for p in report.problems]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_canonical_end_line_leaving_out_a_side_that_scored_is_a_wrong_hand_score(config):
    doc = simulated(config)
    i, side, n = left_out(doc)
    text = notation.dumps(reader.load_dict(without(doc, i, side)))
    (game,) = notation.read_games(text, "t.dgn")
    ends = [k + 1 for k, line in enumerate(text.split("\n")) if line.startswith("end")]
    assert game.report.status == "invalid"
    # placed at the end line that leaves the side out, as a claim no word gives (docs/notation.md)
    assert [p.text() for p in game.report.problems] == [f"{ends[i]}:1: hand {i + 1}: {expected(i, side, n)} "
                                                        f"[hand scoring]"]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_typed_end_line_leaving_out_a_side_that_scored_is_a_wrong_hand_score(config):
    # A club's sheet, typed without seats or deal, each end line claiming the hand's scores: the
    # readings that count are those giving the claim, the side left out at 0 (none does here).
    doc = simulated(config)
    i, side, n = left_out(doc)
    record = reader.load_dict(doc)
    lines = notation.dumps_typed(record, keep_deal=False, seats=False, scores=True).split("\n")
    k = [j for j, line in enumerate(lines) if line.startswith("end")][i]
    words = lines[k].split(" ")
    at = words.index(side)
    assert words[at + 1] == str(n)
    lines[k] = " ".join(words[:at] + words[at + 2:])
    (game,) = notation.read_games("\n".join(lines), "t.dgn")
    assert game.report.status == "invalid"
    said = [p.text() for p in game.report.problems]
    assert f"{k + 1}:1: hand {i + 1}: {expected(i, side, n)} [hand scoring]" in said, said


def test_the_docs_case_end_out_ns_0_where_ew_went_out_for_34():
    # docs/notation.md's Competitive sheet: hand 1 scored EW 34. "end out NS 0" claims EW 0.
    from tests.test_one_pass import _CLUB

    text = _CLUB.replace("end out EW 34", "end out NS 0", 1)
    (game,) = notation.read_games(text, "c2.dgn")
    assert [p.text() for p in game.report.problems] == [
        "14:1: hand 1: EW is claimed 0 for hand 1 (it is left out of the hand's scores: a side left out scored 0), "
        "but scores 34 [hand scoring]"]
    (right,) = notation.read_games(text.replace("end out NS 0", "end out EW 34"), "c2.dgn")
    assert right.report.status == "valid"
    (bare,) = notation.read_games(text.replace("end out NS 0", "end out"), "c2.dgn")
    assert bare.report.status == "valid"  # (an end line with no points claims none)


# --- the game's final scores ------------------------------------------------------------------
# The game's result.scores ([Scores] in DGN) reads the same way: a side left out finished with 0,
# and that 0 is checked (docs/format.md, "Claims"); a result without scores claims no totals.


def final_left_out(doc: dict) -> tuple[str, int]:
    """A side that finished with points, and its total."""
    for side, n in doc["result"]["scores"].items():
        if n:
            return side, n
    raise AssertionError("no side finished with points")


def final_without(doc: dict, side: str) -> dict:
    out = json.loads(json.dumps(doc))
    del out["result"]["scores"][side]
    return out


def final_expected(side: str, n: int) -> str:
    return (f"{side} is claimed to finish with 0 (it is left out of the game's final scores: a side left out "
            f"finished with 0), but has {n}")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_json_game_result_leaving_out_a_side_that_scored_is_a_wrong_final_score(config):
    doc = simulated(config)
    assert validate(reader.load_dict(doc)).status == "valid"
    side, n = final_left_out(doc)
    report = validate(reader.load_dict(final_without(doc, side)))
    assert report.status == "invalid"
    assert [(p.pointer, p.message, p.rule, p.kind, p.claimed, p.computed) for p in report.problems] == [
        (f"/result/scores/{side}", final_expected(side, n), "game scoring", "score", 0, n)]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_json_game_result_leaving_out_sides_that_finished_with_0_or_giving_no_scores_is_valid(config):
    doc = simulated(config)
    zero = json.loads(json.dumps(doc))
    zero["result"]["scores"] = {s: n for s, n in doc["result"]["scores"].items() if n}
    report = validate(reader.load_dict(zero))
    assert report.status == "valid", [p.text() for p in report.problems]
    bare = json.loads(json.dumps(doc))
    del bare["result"]["scores"]  # (a winner alone claims no totals)
    report = validate(reader.load_dict(bare))
    assert report.status == "valid", [p.text() for p in report.problems]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_canonical_scores_tag_leaving_out_a_side_that_scored_is_a_wrong_final_score(config):
    doc = simulated(config)
    side, n = final_left_out(doc)
    text = notation.dumps(reader.load_dict(final_without(doc, side)))
    (game,) = notation.read_games(text, "t.dgn")
    tag = [k + 1 for k, line in enumerate(text.split("\n")) if line.startswith("[Scores ")]
    assert game.report.status == "invalid"
    # placed at the tag (its first column: no word gives the 0)
    assert [p.text() for p in game.report.problems] == [f"{tag[0]}:1: {final_expected(side, n)} [game scoring]"]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_typed_scores_tag_leaving_out_a_side_that_scored_is_a_wrong_final_score(config):
    # A game typed without seats or deal (read through the readings), its [Scores] tag typed in.
    doc = simulated(config)
    side, n = final_left_out(doc)
    record = reader.load_dict(doc)
    lines = notation.dumps_typed(record, keep_deal=False, seats=False, scores=True).split("\n")
    pairs = " ".join(f"{s} {k}" for s, k in doc["result"]["scores"].items() if s != side)
    lines.insert(1, f'[Scores "{pairs}"]')
    (game,) = notation.read_games("\n".join(lines), "t.dgn")
    assert game.report.status == "invalid"
    assert [p.text() for p in game.report.problems] == [f"2:1: {final_expected(side, n)} [game scoring]"]
    lines[1] = f'[Scores "{pairs} {side} {n}"]'
    (right,) = notation.read_games("\n".join(lines), "t.dgn")
    assert right.report.status == "valid", [p.text() for p in right.report.problems]


def test_the_recorder_refuses_a_scores_tag_leaving_out_a_side_that_scored(tmp_path):
    # docs/notation.md's Competitive score sheet piped into `domrec record`: NS 204, EW 103.
    import contextlib
    import io
    from pathlib import Path

    from domrec import record_cli

    sheet = (Path(__file__).parent.parent / "samples/valid/competitive/score-sheet-game.dgn").read_text()
    assert '[Scores "NS 204 EW 103"]' in sheet
    tag = sheet.split("\n").index('[Scores "NS 204 EW 103"]') + 1

    def piped(text: str, out: Path) -> tuple[int, list[str]]:
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            code = record_cli.run("competitive", str(out), [], None, [], None, stdin=io.StringIO(text),
                                  interactive=False)
        return code, stderr.getvalue().splitlines()

    code, err = piped(sheet.replace('"NS 204 EW 103"', '"NS 204"'), tmp_path / "left-out.dgn")
    assert code == 1
    assert err == [f"line {tag}, column 1: [Scores]/[Winner]: EW finished with 103, not 0 (it is left out of "
                   f"the game's final scores: a side left out finished with 0)"]
    assert "[Scores" not in (tmp_path / "left-out.dgn").read_text()  # (a wrong claim is not kept)
    code, err = piped(sheet.replace('"NS 204 EW 103"', '"NS 200 EW 103"'), tmp_path / "wrong.dgn")
    assert (code, err) == (1, [f"line {tag}, column 1: [Scores]/[Winner]: NS finished with 204, not 200"])
    code, err = piped(sheet, tmp_path / "right.dgn")
    assert (code, err) == (0, [])
    assert '[Scores "NS 204 EW 103"]' in (tmp_path / "right.dgn").read_text()

"""explain: the story of a hand, from the validator's own replay."""

from __future__ import annotations

import json

import pytest

from domrec.explain import describe_move, explain
from domrec.reader import load_dict
from domrec.record import structure_move

from tests.conftest import SAMPLES


@pytest.mark.parametrize("move,text", [
    ({"seat": "W", "play": "3-1", "on": "6-3"}, "W plays 3-1 on 6-3"),
    ({"seat": "N", "pass": True}, "N passes"),
    ({"seat": "S", "draw": "2-0"}, "S draws 2-0"),
    ({"seat": "P1", "capture": ["1-5"]}, "P1 captures 1-5"),
    ({"seat": "S", "roll": [4, 3]}, "S rolls 4 and 3 (total 7)"),
    ({"seat": "N", "play": "5-3", "at": [[2, 1], [3, 1]]}, "N plays 5-3 at (2,1)-(3,1)"),
])
def test_describe_move(move, text):
    assert describe_move(structure_move(move)) == text


def test_every_game_can_be_explained():
    for path in sorted((SAMPLES / "valid").rglob("*.json")):
        record = load_dict(json.loads(path.read_text()))
        lines, report = explain(record, 1, str(path))
        assert report.valid, path
        assert any(line.startswith("End of hand") for line in lines) or not report.finished, path
        assert sum(1 for line in lines if line[:4].strip().rstrip(".").isdigit()) == len(record.hands[0].moves)


def test_the_competitive_story_adds_up():
    record = load_dict(json.loads((SAMPLES / "valid" / "competitive" / "domino-35.json").read_text()))
    lines, _ = explain(record, 1)
    text = "\n".join(lines)
    assert "N dominoed" in text and "NS scores the other three hands: 16 + 4 + 15 = 35" in text


def test_a_typed_hand_without_its_deal_that_breaks_a_rule_is_told_up_to_it(tmp_path):
    """A hand typed without its deal, 4-2 played twice: no deal holds it twice, so the reader
    stops there, and validate says so (exit 1).  explain tells the hand up to that move under
    the same verdict (it said the text was unreadable, exit 2, and wrote no page); no seat's
    tiles are given as "(none)" where the deal is not known."""
    from tests.test_cli import run

    text = (SAMPLES / "valid" / "competitive" / "typed-domino.dgn").read_text()
    bad = tmp_path / "twice.dgn"
    bad.write_text(text.replace("5-2 6-5 4-2 ", "5-2 6-5 4-2 4-2 ", 1))
    verdict = run("validate", str(bad))
    assert verdict.exit_code == 1
    told = run("explain", str(bad))
    assert told.exit_code == 1, told.output
    assert "Dealt: not known (the hand is recorded without its deal)" in told.output
    assert "(none)" not in told.output and "3. S plays 4-2" in told.output and "4. " not in told.output
    assert "PROBLEM 8:13: hand 1, move 4, E: E does not hold 4-2: it has already been played" in told.output
    page = tmp_path / "twice.html"
    drawn = run("explain", str(bad), "--html", str(page))
    assert drawn.exit_code == 1 and page.exists(), drawn.output
    assert "it has already been played" in page.read_text()


def test_a_position_past_where_a_typed_text_could_be_read_is_said_so(tmp_path):
    """4-2 played twice in hand 1 of a three-hand text without its deal: the reader stops there.
    A later hand, or a later move of that hand, was not read: explain said "has 1 hand; there is
    no hand 2" and "hand 1 has 3 moves; there is no move 6" (exit 2, a usage mistake), though
    the text has them.  Now it says they were not read and why (exit 1, the text's fault), with
    the picture and with the story; a position that was read is still drawn."""
    from tests.test_cli import run

    text = (SAMPLES / "valid" / "competitive" / "mixed-played-and-score-sheet.dgn").read_text()
    bad = tmp_path / "twice.dgn"
    bad.write_text(text.replace("5-2 6-5 4-2 ", "5-2 6-5 4-2 4-2 ", 1))
    first = "the first problem: 8:13: hand 1, move 4, E: E does not hold 4-2: it has already been played"
    svg = tmp_path / "x.svg"
    for args, said in [
        (("--hand", "3", "--svg", str(svg)),
         f"error: no picture: hand 3 was not read: the text could be read only as far as hand 1, move 3; {first}"),
        (("--hand", "1", "--move", "6", "--svg", str(svg)),
         f"error: no picture: move 6 of hand 1 was not read: the text could be read only as far as move 3; {first}"),
        (("--hand", "2"), f"error: hand 2 was not read: the text could be read only as far as hand 1, move 3; {first}"),
    ]:
        told = run("explain", str(bad), *args)
        assert told.exit_code == 1 and said in told.output, (args, told.output)
        assert not svg.exists()
    drawn = run("explain", str(bad), "--hand", "1", "--move", "3", "--svg", str(svg))
    assert drawn.exit_code == 1 and svg.exists(), drawn.output


def test_no_picture_of_a_dgn_text_names_its_first_problem_by_line_and_column(tmp_path):
    """explain --svg of a hand the replay never reached, in a canonical DGN text with a tile played
    twice in hand 1: the line named the first problem by the JSON Pointer of the record read from
    the text (``/hands/0/moves/3/play``), where validate and the story place it by line:column."""
    from domrec import notation
    from tests.test_cli import run

    record = load_dict(json.loads((SAMPLES / "valid" / "competitive" / "game-to-200.json").read_text()))
    data = json.loads((SAMPLES / "valid" / "competitive" / "game-to-200.json").read_text())
    data["hands"][0]["moves"][3]["play"] = data["hands"][0]["moves"][2]["play"]
    data["hands"][0]["moves"][3].pop("on", None)
    bad = tmp_path / "twice.dgn"
    bad.write_text(notation.dumps(load_dict(data)))
    where = next(line.split(": hand 1, move 4")[0].strip() for line in run("validate", str(bad)).output.splitlines()
                 if ": hand 1, move 4" in line)
    assert ":" in where and not where.startswith("/"), where
    drawn = run("explain", str(bad), "--hand", "2", "--svg", str(tmp_path / "x.svg"))
    assert drawn.exit_code == 1, drawn.output
    assert f"error: no picture: hand 2 was not replayed; the first problem: {where}: hand 1, move 4" in drawn.output
    assert "/hands/" not in drawn.output and len(record.hands) > 1


def test_a_dgn_games_problems_are_placed_by_line_and_column(tmp_path):
    """explain of a DGN text places its problems where validate does (line:column in the text),
    not by the JSON Pointer of the record read from it; the replay page shows both."""
    from tests.test_cli import run

    text = (SAMPLES / "valid" / "competitive" / "typed-domino.dgn").read_text()
    bad = tmp_path / "claim.dgn"
    bad.write_text(text.rstrip("\n") + "\nend out NS 22\n")
    said = "13:12: hand 1: NS is claimed 22 for hand 1, but scores 23 [hand scoring]"
    assert said in run("validate", str(bad)).output
    told = run("explain", str(bad))
    assert told.exit_code == 1 and f"PROBLEM {said}" in told.output, told.output
    page = tmp_path / "claim.html"
    assert run("explain", str(bad), "--html", str(page)).exit_code == 1
    assert "13:12" in page.read_text()


def test_validate_counts_a_typed_text_stopped_at_a_broken_rule_as_json_counts(tmp_path):
    """The reader stopped at 4-2 played twice (move 4 of hand 1, the deal not written): --json
    said 0 hands and 0 moves while its note said where the replay stopped; a JSON record's
    replay counts the hands and moves up to the broken one, and the totals before it."""
    from tests.test_cli import run

    text = (SAMPLES / "valid" / "competitive" / "typed-domino.dgn").read_text()
    bad = tmp_path / "twice.dgn"
    bad.write_text(text.replace("5-2 6-5 4-2 ", "5-2 6-5 4-2 4-2 ", 1))
    report = json.loads(run("validate", "--json", str(bad)).output.splitlines()[0])
    assert (report["hands"], report["moves"], report["scores"]) == (1, 4, {"NS": 0, "EW": 0})
    assert [(p["hand"], p["move"]) for p in report["problems"]] == [(1, 4)]

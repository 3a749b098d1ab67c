"""``domrec explain`` says a move's problem under that move, where an arbiter reading the hand move by
move meets it (a tester's finding: a wrong claim at move 6 of a Horse Race hand was said only after
the hand's 140 lines, and move 6 read "(+3)" with nothing beside it); the problems are still listed
at the end.  A hand the replay stopped at the start of says the problem below is that stop."""

from __future__ import annotations

from typer.testing import CliRunner

from domrec.cli import app

from tests.conftest import SAMPLES

runner = CliRunner()


def test_a_wrong_claim_is_said_under_its_move():
    result = runner.invoke(app, ["explain", str(SAMPLES / "invalid" / "horse-race" / "wrong-move-claim.dgn")])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    move = next(k for k, line in enumerate(lines) if line.startswith("  6. P1 plays 5-0"))
    here = next(k for k, line in enumerate(lines) if line.startswith("     ! PROBLEM at this move: "))
    later = next(k for k, line in enumerate(lines) if line.strip().startswith("7. "))
    assert move < here < later
    assert "P1 is credited 2" in lines[here] and "hand 1, move 6, P1" in lines[here]
    assert any(line.startswith("PROBLEM 7:36: hand 1, move 6") for line in lines[later:])


def test_a_hand_stopped_at_its_start_says_the_problem_below_is_why():
    result = runner.invoke(app, ["explain", str(SAMPLES / "invalid" / "competitive" / "wrong-leader.json"),
                                 "--hand", "2"])
    assert result.exit_code == 1
    assert "Hand 2 was not replayed (the record has 3 hands; the replay stopped at its start: the problem below)." \
        in result.output
    assert "PROBLEM /hands/1/leader (hand 2): N cannot lead this hand" in result.output


def test_a_valid_hand_says_no_problem():
    result = runner.invoke(app, ["explain", str(SAMPLES / "valid" / "competitive" / "comments.dgn")])
    assert result.exit_code == 0 and "PROBLEM" not in result.output

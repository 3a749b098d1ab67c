"""``domrec record`` from a pipe says where the typed text is wrong, in the user's own lines.

A tester's reports (a typed Competitive game piped in, its deal not written): a ``left`` line
that could not be right was refused only at the end, as "1 token refused" with no line; a line
that left a choice (a tile fitting both ends) hid a fault further on that ``domrec validate``
names; the note of a text read whole named the lines of the text the recorder built, not the
user's; and a ``left`` line after a pass left out was answered "give the tiles N and W still
held", pointing away from the missing pass (docs/recording.md, "From a file or a pipe";
docs/notation.md, "Forced passes").
"""

from __future__ import annotations

import contextlib
import io

from domrec import notation, record_cli
from domrec.recorder import Recorder, new_game

HEAD = '[Game "competitive"]\n[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\n\n'
#: docs' worked example: valid, its 6-4 on line 8 fits both ends until the rest of the hand says.
C1 = HEAD + ("hand 1 lead N\n"
             "5-2 6-5 4-2 6-4 6-6 - 6-0 6-2 4-0\n"
             "2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
             "5-3 3-2 4-3 4-1 3-1 3-0 5-5\n"
             "left E 3-3; S 2-2\n")
#: W's first pass left out (every move after it goes to the next seat), the ends written.
NP2 = HEAD + ("hand 1\n"
              "N 5-2 6-5 4-2 6-4@4-2 6-6@6-4 6-0@6-6 6-2 4-0\n"
              "2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
              "5-3 3-2 4-3 4-1 3-1 3-0 5-5\n"
              "left E 3-3; S 2-2\n")


def piped(text: str, out) -> tuple[int, str, list[str]]:
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        code = record_cli.run("competitive", str(out), [], None, [], None, stdin=io.StringIO(text),
                              interactive=False)
    return code, stdout.getvalue(), stderr.getvalue().splitlines()


def validated(text: str):
    """``domrec validate``'s first problem of ``text``."""
    game = next(notation.read_games(text, "<typed>"))
    return game.report.problems[0]


def test_a_left_line_after_a_pass_left_out_is_refused_at_that_line(tmp_path):
    code, out, err = piped(NP2, tmp_path / "np2.json")
    assert code == 1
    assert len(err) == 2, err
    assert err[0].startswith("line 11, column 1: hand 1: left leaves out N and W, but by the moves each still "
                             "holds tiles (N 2, W 1) and the hand is not over (is a move missing"), err
    assert err[0].endswith("[the deal]")
    assert err[1] == (f"the recording stops at line 11: nothing from it on was recorded; {tmp_path / 'np2.json'} "
                      f"holds the game up to line 10")
    assert "token" not in "\n".join(err)


def test_an_end_line_after_that_left_line_does_not_move_the_fault_to_it(tmp_path):
    code, out, err = piped(NP2 + "end\n", tmp_path / "np2.json")
    assert code == 1 and err[0].startswith("line 11, column 1: hand 1: left leaves out N and W"), err
    assert err[1].startswith("the recording stops at line 11:"), err


def test_validate_and_the_terminal_point_at_the_pass_left_out_not_at_more_tiles():
    problem = validated(NP2)
    assert (problem.line, problem.column) == (11, 1)
    assert "is a move missing, or given to the wrong seat?" in problem.message
    assert "the deal is not written" not in problem.message
    game = new_game("competitive", [("N", "Ana"), ("E", "Bo"), ("S", "Cy"), ("W", "Di")])
    said, refused = [], []
    r = Recorder(game, None, interactive=True, say=said.append, refuse_out=refused.append)
    for line in NP2[len(HEAD):].splitlines():
        r.feed_line(line)
    assert len(refused) == 1 and "left leaves out N and W" in refused[0] and "is a move missing" in refused[0]


def test_a_left_line_missing_seats_at_a_hand_that_is_over_still_asks_for_their_tiles():
    """A hand somebody went out of, its left line short of a seat: the tiles are what is missing."""
    text = C1.replace("left E 3-3; S 2-2", "left E 3-3")
    problem = validated(text)
    assert "the deal is not written, so give the tiles S and W still held: left S …; W …" in problem.message


def _placed_as_validate(text: str, err: list[str]) -> None:
    problem = validated(text)
    said = problem.text()
    place = f"{problem.line}:{problem.column}: "
    assert said.startswith(place)
    assert err[0] == f"line {problem.line}, column {problem.column}: {said[len(place):]}", (err, said)


def test_a_fault_after_a_line_that_leaves_a_choice_is_told_where_validate_finds_it(tmp_path):
    for text, place in [(C1.replace("left E 3-3; S 2-2", "left E 3-3; X 2-2"), (11, 13)),
                        (C1.replace("5-3 3-2", "5-3 5-2"), (10, 5))]:
        out = tmp_path / "p.json"
        out.unlink(missing_ok=True)
        code, stdout, err = piped(text, out)
        assert code == 1
        assert err[0].startswith(f"line {place[0]}, column {place[1]}: "), err
        assert "fits both ends" not in "\n".join(err)
        _placed_as_validate(text, err)
        assert err[1] == (f"the recording stops at line 8, which leaves a choice that only the lines after it "
                          f"settle, and they are refused at line {place[0]}: nothing from line 8 on was recorded "
                          f"(a refused line is never skipped, nor a choice guessed); {out} holds the game's "
                          f"header alone; line 7 announced a hand that had not started: type it again; "
                          f"put line {place[0]} right and continue the file with lines 7 on"), err


def test_the_note_of_a_text_read_whole_names_the_users_own_lines(tmp_path):
    code, out, err = piped(C1, tmp_path / "p1.json")
    assert code == 0 and not err
    assert "read as 6-6@6-5 at 8:17, 6-0@6-4 at 8:23" in out, out
    game = next(notation.read_games(C1, "<typed>"))
    assert "at 8:17, 6-0@6-4 at 8:23" in game.report.note
    bare = '[Game "competitive"]\n' + C1[len(HEAD):]  # the moves on lines 3 to 5
    code, out, err = piped(bare, tmp_path / "bare.json")
    assert code == 0 and "line 3 leaves a choice" in out and "read as 6-6@6-5 at 3:17, 6-0@6-4 at 3:23" in out, out


def test_a_text_ending_with_a_hand_over_and_no_left_line_is_refused_at_its_end(tmp_path):
    """Read whole (its 6-4 leaves a choice), the text ends with the hand over and its deal unknown:
    said at the last move, as validate says it, never a traceback."""
    text = C1[:C1.index("left")]
    code, out, err = piped(text, tmp_path / "p.json")
    assert code == 1
    assert err == [f"line 10, column 25: hand 1: the deal is not written, so give the tiles E, S and W still held: "
                   f"left E …; S …; W … [the deal]"], err
    _placed_as_validate(text, err)


def test_a_seat_at_the_end_of_the_text_is_refused_where_it_is(tmp_path):
    code, out, err = piped(HEAD + "hand 1 lead N\n5-2  W\n", tmp_path / "p.json")
    assert code == 1 and err == ["line 8, column 6: seat W is not followed by a move"], err


def test_a_stray_line_after_a_choice_stops_the_recording_at_the_choice_and_says_why_and_what_to_do(tmp_path):
    """Line 8 leaves a choice (its 6-4 fits both ends) that the lines after it settle; a stray
    line 9 is refused, so the whole text does not read, and the recording stops at line 8, not
    at line 9 as a stray line after no choice does.  Deliberately (docs/recording.md, "A line
    that leaves a choice"): a refused line is never skipped, nor the choice guessed.  The stop
    line said where, but not why nothing after the stray line was taken, nor what to do."""
    lines = C1.split("\n")
    text = "\n".join(lines[:8] + ["%%%"] + lines[8:])
    out = tmp_path / "stray.json"
    code, stdout, err = piped(text, out)
    assert code == 1 and len(err) == 2, err
    assert err[0] == "line 9, column 1: hand 1, move 10: '%%%' is not a move of competitive (see docs/notation.md)"
    assert err[1].startswith("the recording stops at line 8, which leaves a choice that only the lines after it "
                             "settle, and they are refused at line 9: nothing from line 8 on was recorded (a "
                             "refused line is never skipped, nor a choice guessed); "), err[1]
    assert err[1].endswith("put line 9 right and continue the file with lines 7 on"), err[1]
    # done so, the game is the whole text's
    code, stdout, err = piped("\n".join(lines[6:]), out.with_name("rest.json"))
    assert code == 0, err


def test_a_first_line_refused_says_the_file_holds_the_header_alone(tmp_path):
    """Line 1 refused said the file "holds the game up to line 0"."""
    code, out, err = piped("6-6 6-5\n", tmp_path / "first.dgn")
    assert code == 1 and len(err) == 2, err
    assert err[1] == (f"the recording stops at line 1: nothing from it on was recorded; {tmp_path / 'first.dgn'} "
                      f"holds the game's header alone")

"""The DGN reader's answers to a tester's findings: a hand whose leader nobody knows is asked
about at its hand line (never guessed, then blamed on a later line), a refused way of ending
is placed at its word, a draw of a tile already laid names that tile, and the reader's own
refusals name their rule (docs/notation.md)."""

from __future__ import annotations

from domrec import notation

HEADER = '[Game "competitive"]\n[Event "Club night"]\n[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\n\n'

#: A blocked hand that E or W could each have led, with the same scores (the tester's comp.dgn).
HAND_1 = """\
hand 1{lead}
5-3 5-1 3-3 4-1 4-0 3-1 6-1 6-5
1-0 2-1 5-2 5-4 6-4 6-2 5-0 2-0
0-0 6-0 3-0 4-3 - 4-2 6-3 2-2
3-2 - - - -
left N 4-4; E 5-5; S 6-6
end blocked EW 32
"""

HAND_2 = """
hand 2
5-1 1-1 6-1 5-4 6-6 6-3 3-3 5-3
4-2 5-5 2-1 5-2 2-2 4-1 6-2 4-3
6-5 3-2 5-0 0-0 6-0 2-0 6-4 3-0
- 4-0
left N 4-4; S 1-0; W 3-1
end out EW 13
"""


def read1(text: str) -> notation.DgnGame:
    games = list(notation.read_games(text, "t.dgn"))
    assert len(games) == 1
    return games[0]


def test_a_first_hand_two_seats_could_have_led_is_asked_about_at_its_hand_line() -> None:
    # It was read with E leading (the first seat whose lead is legal), which made hand 2's turns
    # wrong: the problem landed on hand 2's left line (21:1), far from the slip.
    report = read1(HEADER + HAND_1.format(lead="") + HAND_2).report
    texts = [p.text() for p in report.problems]
    assert texts == ["8:1: hand 1: whose lead is it? the hand names no leader, and E and W could each have led it "
                     "by its moves (who played each tile, and who leads the hands after it, depend on it): write it "
                     "on the hand line, hand 1 lead E (or W) [DGN: what may be left out]"], texts
    assert report.to_dict()["problems"][0]["rule"] == "DGN: what may be left out"
    assert "read with E leading" not in (report.note or "")


def test_a_sheet_of_that_one_hand_is_asked_too_and_either_lead_written_is_valid() -> None:
    report = read1(HEADER + HAND_1.format(lead="")).report
    assert not report.valid and [(p.line, p.column) for p in report.problems] == [(8, 1)]
    assert report.problems[0].message.startswith("whose lead is it?")
    for seat in ("E", "W"):
        assert read1(HEADER + HAND_1.format(lead=f" lead {seat}")).report.valid
    assert read1(HEADER + HAND_1.format(lead=" lead W") + HAND_2).report.valid


def test_a_first_hand_only_one_seat_could_have_led_is_read_so_with_a_note() -> None:
    text = ('[Game "horse-race"]\n[Option "target=15"]\n[Option "chain_draw=false"]\n[P1 "Ana"]\n[P2 "Bo"]\n'
            '[P3 "Cy"]\n\nhand 1\n5-5 6-5 6-0 0-0 2-0 5-2 5-4\n4-2 +4-4 +1-1 +5-3 5-3 3-2\n1-0 3-3 1-1 4-3 3-0\n'
            '2-1 4-4 6-4\n6-1\nleft P2 6-6; P3 6-2\nend out P1 6 P2 9 P3 3\n')
    report = read1(text).report
    assert report.valid, [p.text() for p in report.problems]
    assert "hand 1 names no leader: read with P1 leading, the only seat whose lead makes it legal" in report.note


def test_end_abandoned_refused_is_placed_at_its_word() -> None:
    # It was placed at the left line (17:1).
    text = ('[Game "domino-roads"]\n[Option "block_match=sum"]\n[P1 "Ana"]\n[P2 "Bo"]\n[P3 "Cy"]\n\nhand 1\n'
            'pile P1 3-0 6-3 0-0 3-3\npile P2 5-4 2-2 3-2 5-2\npile P3 6-2 6-6 3-1 6-2\n'
            'P2 r6+6 s6-6@P2-1/6 P3 r1+1 s1-1@P3-1/1 6-1@P3-1 P1 r6+6\n'
            'P2 reuse P3 reuse 6-0@P3-1 s6-6@P3-2/6 6-2@P3-2 P1 r5+2 #5-5@P3-2 s4-3@P1-1/4 3-3@P1-1 6-4@P1-1 '
            '5-1@P1-1 4-2@P1-1\n'
            '5-3@P1-1 2-2@P1-1 P2 r4+3 s4-3@P2-2/4 2-1@P2-1 5-5@P2-1 2-0@P2-1 - P3 r5+6 s6-5@P3-3/6 5-0@P3-3\n'
            'P1 r3+3 4-4@P1-1 s3-3@P1-2/3 3-0@P1-2 b0-0@P1-1/1/3+P1-2/1/3 P2 r1+1 5-2@P2-1 #2-2@P3-3 s1-1@P2-3/1 '
            '4-1@P2-3 b0-0@P2-1/1/1+P2-3/1/1 P3 r1+3\n'
            '4-4@P3-1 P1 r3+2 P2 reuse 4-0@P2-1 s3-2@P2-4/2\n'
            'P3 r6+6 P1 r5+4 s6-3@P1-3/6\n'
            'left P2 5-4; P3 6-2 6-1 5-3 5-2 3-1\n'
            'end abandoned\n')
    problems = read1(text).report.problems
    assert [(p.line, p.column, p.pointer) for p in problems] == [(18, 5, "/hands/0/result/end")], \
        [p.text() for p in problems]
    assert "cannot be abandoned" in problems[0].message


def test_a_draw_of_a_tile_already_laid_names_that_tile() -> None:
    # With chain_draw=false it said "P3 drew 4-4, which fits: …", the reading that gave the draw
    # to P3; 6-5 was laid at 9:5, so no reading can draw it.
    text = ('[Game "horse-race"]\n[Option "target=15"]\n[Option "chain_draw=false"]\n[P1 "Ana"]\n[P2 "Bo"]\n'
            '[P3 "Cy"]\n\nhand 1 lead P1\n5-5 6-5 6-0 0-0 2-0 5-2 5-4\n4-2 +4-4 +6-5 +5-3 5-3 3-2\n'
            '1-0 3-3 1-1 4-3 3-0\n2-1 4-4 6-4\n6-1\nleft P2 6-6; P3 6-2\nend out P1 6 P2 9 P3 3\n')
    problems = read1(text).report.problems
    assert problems[0].text() == "10:11: hand 1, move 10, P3: 6-5 cannot be drawn: it was laid at 9:5 in hand 1 " \
                                 "[the set]", [p.text() for p in problems]


def test_a_later_hand_nobody_knows_the_leader_of_is_asked_about_at_its_hand_line() -> None:
    # After a score-sheet hand whose leader is not known: it was "whose move is this? …", with no
    # rule, at the first move.
    text = HEADER + "hand 1\nend out EW 43\n\nhand 2\n2-2 4-2 4-3\n"
    problems = read1(text).report.problems
    assert [p.text() for p in problems] == [
        "11:1: hand 2: whose lead is it? the hand names no leader, and N, E, S and W could each have led it by its "
        "moves (who played each tile, and who leads the hands after it, depend on it): write it on the hand line, "
        "hand 2 lead N (or E, S or W) [DGN: what may be left out]"]


def test_whose_move_is_this_names_its_rule() -> None:
    # Read for now, as the recorder reads a table's hand in play: the question stays at the move,
    # and it had no rule.
    from domrec.notation.readings import provisional

    mark = provisional.set(True)
    try:
        problems = read1(HEADER + "hand 1\nend out EW 43\n\nhand 2\n2-2 4-2 4-3\n").report.problems
    finally:
        provisional.reset(mark)
    assert [(p.line, p.column, p.rule) for p in problems] == [(12, 1, "DGN: what may be left out")], \
        [p.text() for p in problems]
    assert problems[0].message.startswith("whose move is this?")


def test_a_score_sheet_hand_after_the_game_is_over_names_its_rule() -> None:
    # Read through the Game (hand 1 is typed without its deal): it had no rule, where the same
    # sheet typed as score-sheet hands only says [end of game].
    text = (HEADER + "hand 1\nN 5-2 6-5 4-2 6-4@4-2 6-6@6-4 - 6-0@6-6 6-2 4-0\n2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
            "5-3 3-2 4-3 4-1 3-1 3-0 5-5\nleft E 3-3; S 2-2\nend out NS 23\n\nhand 2\nend out NS 130\n\n"
            "hand 3\nend out NS 130\n\nhand 4\nend out EW 20\n")
    problems = read1(text).report.problems
    assert [p.text() for p in problems] == ["21:1: hand 4: the game is over (NS 283, EW 0): no further hand is "
                                            "played [end of game]"]

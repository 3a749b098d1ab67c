"""``domrec record`` at the table: what a tester driving the terminal from docs/recording.md alone
found wrong (a claim typed again made a score-sheet hand, a ``left`` line mid-hand closed the hand,
a capture the rules refuse confirmed the hand, a first move's seat not taken as the lead, a penalty
list that did not say who plays, refusals without their rule), each pinned down here through the
Recorder as the terminal drives it (``interactive=True``), and the command's own start.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from domrec import record_cli
from domrec import simulate as sim
from domrec.record import Exposed
from domrec.recorder import Recorder, new_game, read_record
from domrec.validate import validate
from tests.in_memory import tmp_path  # noqa: F401  (files written move by move: in memory)
from tests.test_recorder_terminal import term  # noqa: F401  (tmux, for the one test that needs the terminal)


def table(game: str, seats, options=None, path=None):
    """A recorder at the terminal, what it said and what it refused."""
    said: list[str] = []
    refused: list[str] = []
    g = new_game(game, [(s, s) for s in seats], None, options)
    r = Recorder(g, path, "dgn", True, said.append, refused.append)
    if path is not None:
        assert r._save()
    return r, said, refused


def feed(r: Recorder, *lines: str) -> None:
    for line in lines:
        r.feed_line(line)


# Competitive: hand 1 with its deal, hand 2 without it (E goes out; N holds 4-4, S 1-0).
COMPETITIVE = """hand 1 lead W
leaddraw N 4-4; E 6-4; S 4-1; W 6-5
deal N 6-5 4-3 4-1 4-4 5-4 2-0 2-2
deal E 5-0 6-3 5-2 3-0 6-1 5-5 3-3
deal S 6-0 6-2 5-1 4-2 3-1 6-6 2-1
deal W 0-0 3-2 1-0 1-1 4-0 5-3 6-4
W 5-3 S 5-1@5-3 E 3-3@5-3 N 4-1@5-1
W 4-0@4-1 S 3-1@3-3 E 6-1@3-1 N 6-5@6-1
W 1-0@4-0 S 2-1@1-0 E 5-2@2-1 N 5-4@5-2
W 6-4@5-4 S 6-2@6-4 E 5-0@6-5 N 2-0@6-2
W 0-0@2-0 S 6-0@5-0 E 3-0@0-0 N 4-3@3-0
W - S 4-2@4-3 E 6-3@6-0 N 2-2@4-2
W 3-2@6-3
y
S 5-1 E 1-1@5-1 N 6-1@1-1 W 5-4@5-1
S 6-6@6-1 E 6-3@6-6 N 3-3@6-3 W 5-3@3-3
S 4-2@5-4 E 5-5@5-3 N 2-1@4-2 W 5-2@5-5
S 2-2@5-2 E 4-1@2-1 N 6-2@2-2 W 4-3@4-1
S 6-5@6-2 E 3-2@4-3 N 5-0@6-5 W 0-0@5-0
S 6-0@0-0 E 2-0@3-2 N 6-4@6-0 W 3-0@2-0
S - E 4-0@6-4""".splitlines()


def test_a_claim_refused_after_the_closing_left_line_is_typed_again_as_that_hands(tmp_path):
    """Finding 1: hand 2 closed by its left line, its end line refused (a wrong score), then typed
    right: it was saved as a made-up score-sheet hand 3 of 13 to EW.  It is hand 2's claim, and the
    refusal names hand 2 and the rule."""
    path = tmp_path / "g.dgn"
    r, said, refused = table("competitive", "NESW", path=path)
    feed(r, *COMPETITIVE, "left N 4-4; S 1-0")
    assert not refused, refused
    assert said[-2:] == ["hand 2 ends out: NS 0, EW 13", "totals: NS 0, EW 45"]
    feed(r, "end out NS 0 EW 15")
    assert refused == ["end: EW scores 13 for hand 2, not 15 [hand scoring]"]
    feed(r, "scores", "end out NS 0 EW 13")
    assert len(refused) == 1, refused
    assert said[-1] == "hand 2: its end line agrees with the hand"
    record = read_record(path)
    assert len(record.hands) == 2 and record.hands[1].result.scores == {"NS": 0, "EW": 13}
    assert validate(record).scores == {"NS": 0, "EW": 45}
    feed(r, "end out EW 5")  # the next end line is hand 3's score sheet, as the prompt says
    assert said[-1] == "hand 3: NS 0, EW 5 (score sheet); totals NS 0, EW 50"


LEFT_MID_HAND = ("left N 0-0 1-1 2-2 3-3 4-4 1-0; E 6-3 6-2 6-1 6-0 2-0 3-0 5-0; S 5-1 5-2 5-3 5-4 4-0 2-1; "
                 "W 3-2 3-1 4-1 4-2 4-3 6-4")


def test_a_left_line_typed_mid_hand_waits_for_the_end_line_and_undo_takes_it_back():
    """Finding 3: a left line whose deal does not end the hand closed it at once at the terminal
    (the prompt offering a hand 2 that cannot start), and undo took back S's move, the worked-out
    deal staying.  It waits for the end line, as docs/recording.md says; a move is refused meanwhile,
    and undo takes back the left line first."""
    r, said, refused = table("competitive", "NESW")
    feed(r, "N 6-6 6-5 5-5", LEFT_MID_HAND)
    assert not refused, refused
    assert r.game.in_hand and r.left_typed is not None
    assert said[-1].startswith("hand 1 is not over with the tiles this left line gives: type end")
    assert r.prompt == "hand 1 (end, or undo)> "
    feed(r, "6-3")
    assert len(refused) == 1 and refused[0].startswith("hand 1 waits for its end line"), refused
    assert len(r.game.moves) == 3
    feed(r, "undo")
    assert said[-1] == "took back the left line of hand 1"
    assert len(r.game.moves) == 3 and r.game.in_hand and not r.game.deal_known and r.left_typed is None
    feed(r, "6-3")  # the hand goes on
    assert len(refused) == 1 and len(r.game.moves) == 4
    feed(r, "undo", LEFT_MID_HAND, "end")
    assert said[-1] == "hand 1 kept as it is (not over)"
    assert r.prompt == "hand 1 kept as it stands (undo reopens it)> "


CASTLE = """hand 1 lead P1
deal P1 6-3 6-6
deal P2 5-3 1-0
deal P3 0-0 4-4
row 2-0 3-1 5-5 4-1 5-1
boneyard 6-1 4-3 6-5 3-0 2-2 5-4 6-0 2-1 6-4 4-2 3-2 5-0 5-2 6-2 4-0 3-3 1-1
P1 6-6 P1 x5-5 P1 x3-1,4-1,5-1 P1 + P2 1-0 P2 x6-6 P2 + P3 0-0 P3 x2-0,1-0,0-0 P3 +
P1 6-3 P1 + P2 5-3 P2 + P3 6-5 P3 x5-3 P3 +
P1 6-1 P1 x6-3,6-5,6-1 P1 + P2 4-3 P2 + P3 4-4 P3 +
P1 3-0 P1 x4-4 P1 + P2 2-1 P2 + P3 5-4 P3 +
P1 4-2 P1 x5-4 P1 + P2 3-2 P2 x4-2 P2 x2-1 P2 + P3 5-0 P3 x4-3,3-0,3-2 P3 +
P1 6-0 P1 + P2 6-2 P2 + P3 4-0
P1 3-3 P1 x6-2 P1 x5-0,6-0,4-0 P2 2-2 P3 6-4
P1 5-2 P1 x6-4 P2 1-1""".splitlines()


@pytest.mark.parametrize("capture, rule", [("P2 x5-2", "capture"), ("x5-2", "capture"), ("P1 x2-2", "hand end"),
                                           ("P2 +", "drawing")])
def test_a_move_the_rules_refuse_at_the_confirmation_is_refused_and_the_hand_waits(capture, rule):
    """Finding 4: the last tile placed, row [3-3][2-2][5-2][1-1], ``P2 x5-2`` typed at the
    confirmation confirmed the hand without it and was tried as hand 2's first move.  It is
    refused in the rule's words, and the hand still waits for its confirmation."""
    r, said, refused = table("castle-rock", ["P1", "P2", "P3"], {"start_tiles": 5})
    feed(r, *CASTLE)
    assert not refused, refused
    assert r._confirming and r.game.hand_over
    feed(r, capture)
    assert len(refused) == 1, refused
    assert refused[0].endswith(f"[castle-rock: {rule}]"), refused
    assert r._confirming and r.game.in_hand and r.game.hand_number == 1
    feed(r, "y")
    assert said[-2:] == ["hand 1 ends out: P1 10, P2 -1, P3 3", "totals: P1 10, P2 -1, P3 3"]


def test_the_first_moves_seat_leads_a_castle_rock_hand_whose_deal_is_whole(tmp_path):
    """Finding 5: the row completing the deal started the hand with P1 assumed, and ``P2 5-3`` was
    refused as out of turn; the same text validates, the first move's seat leading."""
    path = tmp_path / "c.dgn"
    r, said, refused = table("castle-rock", ["P1", "P2", "P3"], {"start_tiles": 5}, path)
    feed(r, "deal P1 6-3 6-6", "deal P2 5-3 1-0", "deal P3 0-0 4-4", "row 2-0 3-1 5-5 4-1 5-1", "P2 5-3")
    assert not refused, refused
    assert "P2 plays 5-3" in said and r.game.to_move == "P2"
    assert validate(read_record(path)).status == "valid"


def test_a_castle_rock_lead_the_rotation_rules_out_is_still_refused():
    """Where the rules fix the lead (hand 2: left of hand 1's first player), a first move by
    another seat is refused as before, and the hand is as it was."""
    r, said, refused = table("castle-rock", ["P1", "P2", "P3"], {"start_tiles": 5})
    feed(r, *CASTLE, "y", "deal P1 3-3 3-1", "deal P2 4-1 0-0", "deal P3 6-6 3-0", "row 5-5 5-1 2-1 1-0 4-2")
    assert not refused, refused
    assert r.game.to_move == "P2"
    feed(r, "P3 3-0")
    assert len(refused) == 1 and "P3" in refused[0], refused
    assert r.game.to_move == "P2" and not r.game.moves


ROADS = """deal P1 5-3 5-1 5-5 2-2 4-2 4-4 6-4 3-3 4-3
deal P2 6-6 4-0 5-5 0-0 2-0 2-1 4-3 1-1 4-1
deal P3 6-5 5-0 4-4 6-0 5-2 1-1 5-3 6-1 6-1
pile P1 3-0 6-3 0-0 3-3
pile P2 5-4 2-2 3-2 5-2
pile P3 6-2 6-6 3-1 6-2""".splitlines()


def test_three_player_domino_roads_deal_entry_then_the_first_moves_seat_leads(tmp_path):
    """Finding 5 and 7: with the piles typed, ``P2 r6+6`` was refused asking for "leader" (a JSON
    field); each pile line was answered "cannot start yet" ("the piles has nothing for seat P2").
    The pile lines say nothing until the deal is whole, the hand then waits for its first move in a
    club player's words, and that move's seat leads."""
    path = tmp_path / "r.dgn"
    r, said, refused = table("domino-roads", ["P1", "P2", "P3"], {"block_match": "sum"}, path)
    feed(r, *ROADS[:3])
    assert said[-1].startswith("hand 1 cannot start yet: the three-player game deals each player a pile")
    heard = len(said)
    feed(r, *ROADS[3:5])
    assert said[heard:] == []
    feed(r, ROADS[5])
    assert said[heard:] == ["hand 1 waits for its first move, typed with its seat (P1 …): that seat leads (or type "
                            "hand 1 lead SEAT first) [domino-roads: first player]"]
    assert "leader" not in said[-1]
    feed(r, "r6+6")
    assert refused == ["whose move is this? write its seat first (P1 r6+6): who leads is not known yet [seats]"]
    feed(r, "P2 r6+6 P2 s6-6@P2-1/6")
    assert len(refused) == 1, refused
    told = [line for line in said if not line.startswith("  ")]  # (the table shown after each move aside)
    assert told[-2:] == ["P2 rolls 6 and 6 (total 12)", "P2 starts road P2-1 with 6-6, facing 6"]
    assert validate(read_record(path)).status == "valid"


def test_a_whose_move_refusal_gives_an_example_of_the_game():
    """Finding 7: ``whose move is this? write its seat first (N 6-6)`` in Castle Rock (seats
    P1…): the example is this game's first seat and the move typed, and the rule is named."""
    r, said, refused = table("castle-rock", ["P1", "P2", "P3"], {"start_tiles": 5})
    feed(r, "row 2-0 3-1 5-5 4-1 5-1", "5-3")
    assert refused == ["whose move is this? write its seat first (P1 5-3): who leads is not known yet [seats]"]


def test_the_penalty_play_list_says_who_plays_each_placement():
    """Finding 6: after an exposure, the tile typed alone listed E's and W's placements alike,
    without a seat, and picking one played it for whoever came first.  Each item says who plays."""
    for seed in range(200):
        record = next(sim.simulate("broadway", 1, seed))
        moves = record.hands[0].moves
        k = next((i for i, m in enumerate(moves[:-1]) if isinstance(m, Exposed) and moves[i + 1].penalty), None)
        if k is not None:
            break
    else:
        raise AssertionError("no exposure")
    hand = record.hands[0]
    r, said, refused = table("broadway", "NESW")
    feed(r, f"hand 1 lead {hand.leader}" if hand.leader else "hand 1",
         *(f"deal {seat} {' '.join(tiles)}" for seat, tiles in hand.deal.hands.items()))
    from domrec.notation.writer import _move_text
    from domrec.record import move_to_dict
    for move in moves[:k + 1]:
        feed(r, f"{move.seat} {_move_text(move_to_dict(move), 'broadway')}")
    assert not refused, refused
    heard = len(said)
    feed(r, moves[k + 1].play)
    listed = [line for line in said[heard:] if line.startswith("  ")]
    assert len(listed) > 1 and all(" plays " in line and "penalty play" in line for line in listed), listed
    seats = {line.split(". ", 1)[1].split(" ")[0] for line in listed}
    assert len(seats) == 2, seats
    pick = next(n for n, line in enumerate(listed, 1) if line.split(". ", 1)[1].startswith(f"{moves[k + 1].seat} "))
    feed(r, str(pick))
    assert r.game.moves[-1].seat == moves[k + 1].seat and r.game.moves[-1].penalty


def test_n_outside_a_confirmation_says_so_as_y_does():
    """Finding 7: ``n`` with no result to confirm took back a move, where ``y`` said there was
    nothing to confirm."""
    r, said, refused = table("competitive", "NESW")
    feed(r, "N 6-6 6-5", "n")
    assert refused == ["there is no hand result to confirm"]
    assert len(r.game.moves) == 2
    feed(r, "y")
    assert refused[-1] == "there is no hand result to confirm" and len(r.game.moves) == 2


def test_a_deal_line_without_tiles_is_refused():
    """Finding 7: ``deal N`` alone was taken without a word, and the hand could then not start."""
    r, said, refused = table("competitive", "NESW")
    feed(r, "deal N")
    assert refused == ["hand 1: deal N lists no tile: a deal line lists the seat's tiles (deal N 6-4 0-0 …) "
                       "[the deal]"]
    assert not r.hand_announced


def test_a_left_line_naming_a_tile_played_says_so_before_counting():
    """Finding 7: ``left N 4-4; S 1-0 2-2``, 2-2 played in the hand, was told a tile count."""
    r, said, refused = table("competitive", "NESW")
    feed(r, *COMPETITIVE, "left N 4-4; S 1-0 2-2")
    assert refused == ["hand 2: left S lists 2-2, but it was played in this hand [the deal]"]
    assert r.game.in_hand


def _start(game: str, output, option: list[str], players: int | None = None) -> str:
    """``domrec record GAME -o OUTPUT --option … [-p N] < /dev/null``: what it says, exit 2."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = record_cli.run(game, str(output), [], players, option, None, stdin=io.StringIO(""), interactive=False)
    assert code == 2, (out.getvalue(), err.getvalue())
    return err.getvalue() + out.getvalue()


def test_a_player_count_the_options_rule_out_names_the_option(tmp_path):
    """Finding 7: ``--option partnerships=true -p 3`` said Horse Race is played by 4 players,
    while it is played by 2 to 4: in partnerships, by 4."""
    said = _start("horse-race", tmp_path / "h.dgn", ["partnerships=true"], 3)
    assert "horse-race with partnerships=true is played by 4 players, not 3" in said


def test_an_option_the_game_has_not_is_said_before_its_value(tmp_path):
    """Finding 7: ``competitive --option target=007`` was told of the leading zero, not that
    Competitive has no option target."""
    said = _start("competitive", tmp_path / "c.dgn", ["target=007"])
    assert 'competitive has no rule option "target"' in said


@pytest.mark.slow
def test_at_the_terminal_a_left_line_mid_hand_waits_with_its_own_prompt(term, tmp_path):
    """Finding 3 in tmux: the prompt after a left line that does not end the hand asks for its end
    line (it offered hand 2, which could not start), and undo takes back the left line."""
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), "--player", "N=Ana", "--player", "E=Bo", "--player", "S=Cy",
               "--player", "W=Di")
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    term.line("N 6-6 6-5 5-5")
    term.wait_prompt("hand 1, E to play>")
    term.line(LEFT_MID_HAND)
    term.wait_prompt("hand 1 (end, or undo)>")
    term.line("undo")
    term.wait_prompt("hand 1, E to play>")
    assert "took back the left line of hand 1" in term.screen()
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    assert len(read_record(out).hands[0].moves) == 3

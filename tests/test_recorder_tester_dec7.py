"""A tester's findings of 7 December on ``domrec record`` and ``domrec explain``.

1. A game continued from its file, the piped text's first line refused: the file was said to hold
   "the game's header alone" while it held the hand in play; and "up to line 1 (but not line 1,
   …)" read badly.
2. Castle Rock: a closing capture typed without its seat after the last placement was refused as
   "who leads is not known yet".
3. Broadway: another tile typed while an exposed tile waits for its penalty play was refused with
   no reason ("6-2 has no legal placement now").
4. Three-player Domino Roads: a tile typed without its road was asked for "5-0@NS1", a road of the
   partners' game.
5. ``explain --html`` of a DGN game over the limit named neither the file nor the line.
6. At the terminal, a Tab right after the keys before it only showed the one completion offered;
   Enter then sent the bare prefix.
"""

from __future__ import annotations

import attrs
import pytest

from domrec import notation, phrases
from tests.in_memory import tmp_path  # noqa: F401  (files written move by move: in memory)
from tests.test_recorder import GAMES, fast_dir, pipe, simulated  # noqa: F401  (fast_dir: a fixture)
from tests.test_recorder_fixes import feed, table
from tests.test_recorder_terminal import term  # noqa: F401  (tmux, for the Tab test)

FIRST = {"competitive": ("competitive", None, {"first_lead": "any"}, None), "horse-race": ("horse-race", 2, None, None),
         "broadway": ("broadway", None, None, None), "castle-rock": ("castle-rock", 2, None, None),
         "domino-roads": ("domino-roads", None, None, None)}


# --- 1. what the file holds when the recording stops -----------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_a_continued_game_whose_first_piped_line_is_refused_is_said_to_hold_what_it_held(game, fast_dir):
    record = simulated(FIRST[game])
    hand = record.hands[0]
    in_play = attrs.evolve(hand, moves=hand.moves[:5], result=None)
    out = fast_dir / "k9b.dgn"
    out.write_text(notation.dumps(attrs.evolve(record, hands=(in_play,), result=None)), encoding="utf-8")
    kept = out.read_bytes()
    run = pipe(str(out), None, "zz\n")
    assert run.code == 1, run
    assert run.err_lines[-1] == (f"the recording stops at line 1: nothing from it on was recorded; {out} holds the "
                                 f"game as it was: hand 1, 5 moves"), run
    assert out.read_bytes() == kept


def test_a_new_games_first_line_refused_says_the_header_alone_after_tags_too(fast_dir):
    """The piped text's tags are the header: its first line of play refused, the file holds that
    alone (it was said to hold "the game up to line 5", the last tag)."""
    out = fast_dir / "new.dgn"
    run = pipe("competitive", out, "[N \"A\"]\n[E \"B\"]\n[S \"C\"]\n[W \"D\"]\n\nzz\n")
    assert run.code == 1, run
    assert run.err_lines[-1].endswith(f"{out} holds the game's header alone"), run


def test_a_hand_line_not_in_the_file_is_named_after_the_lines_it_holds(fast_dir):
    """The lines announcing a hand that had not started come after the lines the file holds: "up
    to line 1 (but not line 1, …)" now reads as what it means."""
    record = simulated(("castle-rock", 3, None, None), 2)
    out = fast_dir / "cr.dgn"
    out.write_text(notation.dumps(attrs.evolve(record, hands=record.hands[:1], result=None)), encoding="utf-8")
    run = pipe(str(out), None, "hand 2\n5-5\n")
    assert run.code == 1, run
    assert run.err_lines[-1] == (f"the recording stops at line 2: nothing from it on was recorded; {out} holds the "
                                 f"game as it was: 1 hand; line 1 announced a hand that had not started: type it "
                                 f"again"), run
    assert "but not line" not in run.err


# --- 2. Castle Rock: a closing capture without its seat --------------------------------------

CASTLE_ROCK = """hand 1 lead P2
deal P1 6-3 0-0
deal P2 6-2 2-2
row 4-1 3-2 1-1 4-2
P2 6-2 P2 +6-1 P1 6-3 P1 x1-1 P1 x3-2,4-2,6-2 P1 +6-4
P2 6-1 P2 x6-3 P2 +4-0 P1 6-4 P1 x6-1 P1 +3-1
P2 4-0 P2 +3-3 P1 0-0 P1 x4-1,6-4,4-0 P1 +2-0
P2 2-2 P2 +5-1 P1 2-0 P1 x2-2 P1 +5-5
P2 5-1 P2 +5-0 P1 3-1 P1 +3-0
P2 5-0 P2 x3-1 P2 x5-1 P2 x0-0,2-0,5-0 P2 +5-2 P1 3-0 P1 +5-4
P2 5-2 P2 +5-3 P1 5-5 P1 +1-0
P2 5-3 P2 x5-2,5-5,5-3 P2 +6-0 P1 1-0 P1 +6-6
P2 6-0 P2 x3-0,1-0,6-0 P2 +4-3 P1 6-6 P1 +6-5
P2 3-3 P2 +2-1 P1 6-5 P1 x3-3 P1 +4-4
P2 2-1 P1 5-4 P1 x2-1
P2 4-3""".splitlines()
REFUSED = ("whose move is this? write its seat first (P1 x5-4,4-3,4-4): the hand is over: a move after its last tile "
           "carries its seat [seats]")


def test_a_closing_capture_without_its_seat_is_refused_for_what_it_is():
    """The notation asks for the seat of the last placer's captures after the hand's last tile
    (docs/notation.md, "Seats"), and validate refuses the text without it ("whose move is this?
    the hand is over"): the recorder refuses it too, for that reason, not "who leads is not
    known yet" (the hand line names the lead)."""
    r, said, refused = table("castle-rock", ["P1", "P2"])
    feed(r, *CASTLE_ROCK)
    feed(r, "P1 4-4 x5-4,4-3,4-4")
    assert refused == [REFUSED]
    assert r.game.in_hand and r.game.hand_over and r.game.moves[-1].play == "4-4"  # (the placement taken)
    feed(r, "P1 x5-4,4-3,4-4")
    assert refused == [REFUSED]
    assert said[-1].startswith("hand 1 over: out, P1 12, P2 10")
    assert phrases.translate(REFUSED, "es") != REFUSED


def test_validate_and_the_pipe_refuse_the_same_line(tmp_path):
    """The same text, validated and piped: both refuse the capture without its seat, at its place."""
    from tests.test_cli import run

    text = "[Game \"castle-rock\"]\n[P1 \"A\"]\n[P2 \"B\"]\n\n" + "\n".join(CASTLE_ROCK) + "\nP1 4-4 x5-4,4-3,4-4\n"
    typed = tmp_path / "typed.dgn"
    typed.write_text(text, encoding="utf-8")
    verdict = run("validate", typed)
    assert verdict.exit_code == 1
    assert "21:8: hand 1, move 58: whose move is this? the hand is over" in verdict.output, verdict.output
    out = tmp_path / "cr.dgn"
    piped = pipe("castle-rock", out, text)
    assert piped.code == 1
    assert piped.err_lines[0] == f"line 21, column 8: {REFUSED}", piped


# --- 3. Broadway: a tile typed while an exposed tile waits -----------------------------------

BROADWAY = """hand 1 lead S
deal N 6-2 3-0 6-1 4-3 0-0 3-3 2-2
deal E 5-1 5-0 4-2 4-1 6-0 6-3 5-5
deal S 3-1 4-4 6-6 5-3 5-2 4-0 1-1
deal W 3-2 2-0 5-4 1-0 2-1 6-5 6-4
S 6-6@0,0=0 W 4-6@1,-2=0""".splitlines()


@pytest.mark.parametrize("deal", [True, False], ids=["deal", "no-deal"])
def test_another_tile_while_an_exposed_tile_waits_is_refused_with_the_rule(deal):
    r, said, refused = table("broadway", ["N", "E", "S", "W"])
    feed(r, *(BROADWAY if deal else [BROADWAY[0], BROADWAY[-1]]))
    feed(r, "E !6-3", "2-2")
    assert refused == ["2-2 has no legal placement now: E's exposed 6-3 must be played now by N or S, marked "
                       "\"penalty\": true [broadway: exposed tile]"]
    assert phrases.translate(refused[0], "es") == (
        "2-2 no tiene ahora ninguna colocación legal: la ficha 6-3 mostrada por E debe jugarla ahora N o S, marcada "
        "\"penalty\": true [Broadway: ficha mostrada]")


def test_a_tile_not_held_says_so_and_a_tile_fitting_nowhere_names_no_cell():
    r, said, refused = table("broadway", ["N", "E", "S", "W"])
    feed(r, *BROADWAY, "5-5")
    assert refused == ["5-5 has no legal placement now: N does not hold 5-5 (it is in E's hand) [broadway: playing "
                       "from hand]"]
    r, said, refused = table("broadway", ["N", "E", "S", "W"])
    feed(r, BROADWAY[0], BROADWAY[-1], "5-5")
    assert refused == ["5-5 has no legal placement now"]  # (no spot fits: a reason naming one spot would mislead)


# --- 4. Domino Roads: the example road is the table's ----------------------------------------

ROADS_THREE = ["hand 1", "P1 r2+3"]


def test_a_tile_without_its_road_is_asked_for_with_the_tables_road_names():
    r, said, refused = table("domino-roads", ["P1", "P2", "P3"], {"block_match": "sum"})
    feed(r, *ROADS_THREE, "5-0")
    assert refused == ["a Domino Roads tile goes on a road: say which, 5-0@P1-1"]
    feed(r, "P1 s2-3@P1-1/2 5-0")
    assert refused[-1] == "a Domino Roads tile goes on a road: say which, 5-0@P1-1"
    assert phrases.translate(refused[-1], "es") == "una ficha de Domino Roads va en un camino: diga cuál, 5-0@P1-1"
    r, said, refused = table("domino-roads", ["N", "E", "S", "W"])
    feed(r, "hand 1", "S r2+3", "5-0")
    assert refused == ["a Domino Roads tile goes on a road: say which, 5-0@NS1"]


# --- 5. explain: a game over the limit names its file ----------------------------------------


@pytest.mark.parametrize("html", [True, False], ids=["html", "story"])
def test_explain_names_the_file_of_a_game_over_the_limit(tmp_path, html):
    from tests.test_cli import run

    huge = tmp_path / "huge.dgn"
    huge.write_text("[Game \"competitive\"]\n[N \"A\"]\n[E \"B\"]\n[S \"C\"]\n[W \"D\"]\n\n{" + "x" * 1_200_000
                    + "}\nhand 1\nN 5-2\n", encoding="utf-8")
    told = run("explain", huge, *(["--html", tmp_path / "x.html"] if html else []))
    assert told.exit_code == 2, told.output
    assert f"error: {huge}: 1:1: this game's DGN text is " in told.output, told.output
    assert not (tmp_path / "x.html").exists()


# --- 6. Tab at the terminal -------------------------------------------------------------------

TYPED = """[Game "competitive"]
[N "A"]
[E "B"]
[S "C"]
[W "D"]

hand 1 lead W
deal N 6-5 4-3 4-1 4-4 5-4 2-0 2-2
deal E 5-0 6-3 5-2 3-0 6-1 5-5 3-3
deal S 6-0 6-2 5-1 4-2 3-1 6-6 2-1
deal W 0-0 3-2 1-0 1-1 4-0 5-3 6-4
W 5-3
"""


@pytest.mark.slow
def test_one_tab_inserts_the_one_completion_however_fast_it_follows(term, tmp_path):
    """``5`` and Tab reach the line editor together (one tmux command: a quick typist): the one
    move offered (S holds 5-1 alone of the fives) is written out, and Enter takes it.  It used to
    show the menu only; Enter sent ``5``."""
    out = tmp_path / "tab.dgn"
    out.write_text(TYPED, encoding="utf-8")
    term.start(str(out))
    term.wait_prompt("hand 1, S to play>")
    term.tmux("send-keys", "-t", "main", "-l", "5", ";", "send-keys", "-t", "main", "Tab")
    term.wait(lambda s: any(line.rstrip() == "hand 1, S to play> 5-1@5-3" for line in s.splitlines()))
    term.keys("Enter")
    term.wait_prompt("hand 1, E to play>")
    assert "S plays 5-1 on 5-3" in term.screen()
    assert "not a move" not in term.screen()

"""The sentences a player may read from the engines and the recorder, listed as patterns, so
that a page can show them in the player's language.

The engines and the recorder build their sentences at run time, in English, with the values of
the moment: "W plays 6-4: W does not hold 6-4: it has already been played [competitive:
playing from hand]".  Those sentences are what ``domrec validate`` and ``domrec record`` print,
and they stay as they are.  A page in Spanish translates one by matching it against the
patterns listed here (:data:`PHRASES`: each an English msgid with named placeholders, such as
``"%(seat)s does not hold %(tile)s"``), compiled to regular expressions once, and formatting the
pattern's Spanish from the catalog with the values it captured.

A placeholder's name says what it may hold (:data:`KINDS`: a tile, a seat, a number…); one of the
others holds any text and is itself translated when a pattern matches it, so that a sentence
built from others (a move in words, the engine's reason, the rule's name) is translated part by
part.  A sentence that no pattern matches is shown as it is, in English; the list is kept whole
by a test that sends a fixed corpus of wrong moves to tables of every game
(``tests/test_i18n.py``), and ``docs/venue.md`` says which sentences may still be met in English.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Callable, Iterable, Mapping

import attrs

from domrec.i18n import DEFAULT, LOCALE, N_, moment_in, translations

#: What each kind of placeholder may hold (the name without its trailing digits: ``tile2`` is a
#: tile).  A name not listed holds any text, and what it holds is translated in turn.
KINDS: Mapping[str, str] = {
    "tile": r"\d+-\d+",
    "on": r"\d+-\d+",
    "tiles": r"\d+-\d+(?:[ ,]+\d+-\d+)*",
    "seat": r"[^\s:;,()']+",
    "side": r"[^\s:;,()']+",
    "road": r"[^\s:;()']+",
    "n": r"-?\d+",
    "cell": r"\(-?\d+,-?\d+\)",
    "game": r"[a-z-]+",
    "word": r"\S+",
    "end": r"[a-z-]+",
    "scores": r"[^\s,:;()]+ -?\d+(?:, [^\s,:;()]+ -?\d+)*",
    "move": r"[^:\[\]]+?",
    "rule": r"[^\[\]]+",
    # A number the English writes grouped ("1,000,000"), or not.
    "limit": r"-?\d{1,3}(?:,\d{3})+|-?\d+",
}
#: Placeholders that hold a number: one written with English grouping ("1,000,000") is written as
#: the language writes it (Babel's grouping: "1.000.000" in Spanish); one written without grouping
#: stays so, as the English shows it.
NUMBERS = frozenset({"n", "limit", "count"})
_GROUPED = re.compile(r"-?\d{1,3}(?:,\d{3})+")
#: Placeholders that hold words of their own (a move in words, the engine's reason, the rule's
#: name, how a hand ended, a set's name, a tournament stage's name): what they hold is translated in
#: turn, and the whole is listed only if they are (a stage the director named is shown as named).
NESTED = frozenset({"move", "problem", "rule", "why", "end", "set", "axis", "halves", "stage"})

PHRASES: tuple[str, ...] = (
    # --- Moves in words (a table page's buttons, and the start of many refusals).
    N_("%(seat)s passes"),
    N_("%(seat)s plays %(tile)s"),
    N_("%(seat)s plays %(tile)s on %(tile2)s"),
    N_("%(seat)s plays %(tile)s at %(cell)s-%(cell2)s"),
    N_("%(seat)s plays %(tile)s (penalty play of the exposed tile)"),
    N_("%(seat)s plays %(tile)s at %(cell)s-%(cell2)s (penalty play of the exposed tile)"),
    N_("%(seat)s draws"),
    N_("%(seat)s draws %(tile)s"),
    N_("%(seat)s exposes %(tile)s"),
    N_("%(seat)s exposes %(tile)s (it fits nowhere)"),
    N_("%(seat)s captures %(tiles)s"),
    N_("%(seat)s rolls %(n)s and %(n2)s (total %(n3)s)"),
    N_("%(seat)s uses the unused toss"),
    N_("%(seat)s starts road %(road)s with %(tile)s, facing %(n)s"),
    N_("%(seat)s spans %(tile)s onto road %(road)s"),
    N_("%(seat)s bridges %(road)s span %(n)s (%(n2)s) and %(road2)s span %(n3)s (%(n4)s) with %(tile)s"),
    N_("%(seat)s blocks road %(road)s with %(tile)s"),
    # --- What the recorder says of what it took.
    N_("%(move)s (forced)"),
    N_("%(move)s (forced: made already)"),
    N_("%(move)s (+%(n)s)"),
    N_("%(move)s (forced) (+%(n)s)"),
    N_("took back %(move)s"),
    N_("took back the score sheet of hand %(n)s"),
    N_("took back what was typed of hand %(n)s (no move of it was made)"),
    N_("took back the left line of hand %(n)s"),
    N_("took back the placements offered for %(tile)s (no move was made)"),
    N_("reopened hand %(n)s (no move was taken back)"),
    N_("hand %(n)s"),
    N_("hand %(n)s, %(seat)s to play"),
    N_("hand %(n)s (deal not entered: it will be worked out at the end)"),
    N_("hand %(n)s, %(seat)s to play (deal not entered: it will be worked out at the end)"),
    N_("hand %(n)s ends %(end)s: %(scores)s"),
    N_("totals: %(scores)s"),
    N_("game over: a draw"),
    N_("game over: %(side)s wins"),
    N_("hand %(n)s: %(scores)s (score sheet); totals %(scores2)s"),
    N_("hand %(n)s kept as it is (not over)"),
    N_("%(tile)s can go:"),
    N_("  %(n)s. %(tile)s at %(cell)s-%(cell2)s, scores %(n2)s"),
    N_("  %(n)s. %(move)s, scores %(n2)s"),
    N_("pick a number"),
    N_("hand %(n)s is over: give the tiles still held, e.g. left %(list)s"),
    N_("out"),
    N_("blocked"),
    N_("sudden-death"),
    N_("target"),
    N_("abandoned"),
    N_("time"),
    N_("score-sheet"),
    # --- The recorder's sentences around the engines' reasons.
    N_("%(move)s: %(problem)s [%(rule)s]"),
    N_("%(move)s: %(seat)s is credited %(n)s, but %(why)s [%(rule)s]; type it again (the claim is optional: the "
       "recorder works the points out)"),
    # --- What a move scores, for a wrong claim: the engines' score_why (validate.wrong_score).
    N_("it scores %(n)s"),
    N_("a competitive move scores nothing when it is made: the hand's points are counted at its end (the pips "
       "left after a domino or a block)"),
    N_("a domino-roads move scores nothing when it is made: points are counted only at the hand's end"),
    N_("an exposed tile scores nothing: only a tile laid earns points"),
    N_("a pass scores nothing: only a tile laid earns points"),
    N_("%(tile)s is the lead: it matches nothing and scores 0"),
    N_("%(tile)s matches %(halves)s: %(n)s segments, %(n2)s points (2 segments earn 1, 3 earn 5, 4 or more 10)"),
    N_("%(tile)s matches %(halves)s: %(n)s segments, 1 point (2 segments earn 1, 3 earn 5, 4 or more 10)"),
    N_("%(tile)s matches %(halves)s: 1 segment, 0 points (2 segments earn 1, 3 earn 5, 4 or more 10)"),
    # Broadway's matched halves (what the tile matched), one to six of them.
    N_("the %(n)s of %(tile)s"),
    N_("the %(n)s of %(tile)s and the %(n2)s of %(tile2)s"),
    N_("the %(n)s of %(tile)s, the %(n2)s of %(tile2)s and the %(n3)s of %(tile3)s"),
    N_("the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s and the %(n4)s of %(tile4)s"),
    N_("the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s, the %(n4)s of %(tile4)s and the %(n5)s of %(tile5)s"),
    N_("the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s, the %(n4)s of %(tile4)s, the %(n5)s of %(tile5)s and the %(n6)s of %(tile6)s"),
    N_("only the %(n)s of %(tile)s"),
    N_("only the %(n)s of %(tile)s and the %(n2)s of %(tile2)s"),
    N_("only the %(n)s of %(tile)s, the %(n2)s of %(tile2)s and the %(n3)s of %(tile3)s"),
    N_("only the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s and the %(n4)s of %(tile4)s"),
    N_("only the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s, the %(n4)s of %(tile4)s and the %(n5)s of %(tile5)s"),
    N_("only the %(n)s of %(tile)s, the %(n2)s of %(tile2)s, the %(n3)s of %(tile3)s, the %(n4)s of %(tile4)s, the %(n5)s of %(tile5)s and the %(n6)s of %(tile6)s"),
    N_("a draw scores nothing: only setting a tile pegs"),
    N_("a pass scores nothing: only setting a tile pegs"),
    N_("nothing is open to count: 0 points"),
    N_("the open ends are %(count)s, not a multiple of five: 0 points"),
    N_("the open ends are %(count)s: %(n)s points (one point per five)"),
    N_("the open ends are %(count)s: 1 point (one point per five)"),
    N_("the open ends are %(count)s: %(n)s points (the full count, in celko)"),
    N_("the capture takes %(n)s tiles: %(n2)s points (1 per tile taken)"),
    N_("the capture takes 1 tile: 1 point (1 per tile taken)"),
    N_("only a capture scores (1 per tile taken): a placement, a draw or a pass scores 0"),
    N_("hand %(n)s cannot start: %(problem)s [%(rule)s]"),
    N_("hand %(n)s: %(problem)s [%(rule)s]"),
    N_("%(problem)s [%(rule)s]"),
    N_("%(problem)s [%(rule)s]; type the hand's end line again"),
    N_("end: %(problem)s"),
    N_("end: %(problem)s [%(rule)s]"),
    N_("end: %(problem)s; the hand is kept open: confirm with y (or end with the right scores), or undo"),
    N_("end: %(problem)s; the hand is recorded with its computed result"),
    N_("hand %(n)s ended %(end)s, not %(end2)s"),
    N_("%(side)s scores %(n)s for hand %(n2)s, not %(n3)s"),
    N_("the game is over (%(scores)s): no more moves"),
    # --- The recorder's and the Game's own refusals.
    N_("; separates the seats of a deal or left line, not moves"),
    N_("seat %(seat)s is not followed by a move (%(seat2)s is a seat too)"),
    N_("seat %(seat)s is not followed by a move"),
    N_("whose move is this? write its seat first (%(seat)s %(word)s): who leads is not known yet [%(rule)s]"),
    N_("whose move is this? write its seat first (%(seat)s %(word)s): the hand is over: a move after its last tile "
       "carries its seat [%(rule)s]"),
    # (a rule problem of a DGN text where the turn gave the seats the text left out: notation.seat_hints)
    N_("%(problem)s (its seat is not written, so the turn gave it: write first the seat of the player who made it, "
       "as in %(seat)s %(word)s)"),
    N_("%(problem)s (its seat is not written: write it first, as in %(seat)s %(word)s)"),
    N_("%(problem)s (was a seat or a pass left out? the seats of this hand's moves from %(n)s:%(n2)s on are not "
       "written, so the turn gave them)"),
    N_("hand %(n)s waits for its first move, typed with its seat (%(seat)s …): that seat leads (or type hand %(n2)s "
       "lead SEAT first) [%(rule)s]"),
    N_("hand %(n)s is not over with the tiles this left line gives: type end to keep the hand as it stands (not "
       "over: the game's last hand), or undo to take the left line back and go on with the moves"),
    N_("hand %(n)s waits for its end line: its left line says who still holds what; type end to keep the hand as it "
       "stands, or undo to take the left line back first"),
    N_("hand %(n)s is over: confirm its result (y), or n to take back its last move"),
    N_("%(word)s %(seat)s lists no tile: a %(word2)s line lists the seat's tiles (%(word3)s %(seat2)s 6-4 0-0 …)"),
    N_("%(tile)s has no legal placement now"),
    N_("%(tile)s has no legal placement now: %(problem)s [%(rule)s]"),
    N_("pick a number from 1 to %(n)s"),
    N_("hand %(n)s is not over yet"),
    N_("the next hand is hand %(n)s, not hand %(n2)s"),
    N_("%(word)s comes before the hand's first move"),  # (as refusals kept in a table's log said it)
    N_("%(word)s comes before the hand's first move: the next hand's %(word2)s is typed once hand %(n)s is played"),
    N_("hand %(n)s cannot start yet: %(problem)s [%(rule)s]"),
    N_("left %(seat)s does not match the deal and the moves: %(seat)s still holds %(tiles)s"),
    N_("left %(seat)s does not match the deal and the moves: %(seat)s still holds nothing"),
    N_("line %(n)s leaves a choice (%(problem)s); the game so far is read whole, as domrec validate reads it"),
    N_("line %(n)s leaves a choice (%(problem)s); the text is read whole, as domrec validate reads it"),
    N_("hand %(n)s waits for its end line: its moves, typed without their ends or seats, can be read in ways that "
       "give it different scores; type its end line with the scores (or where each tile went and whose it was)"),
    N_("no reading of hand %(n)s gives the scores this end line claims: %(problem)s"),
    N_("line %(n)s: hand %(n2)s's left line is taken; its moves, typed without their ends or seats, can be read in "
       "ways that give the hand different scores, so the hand waits for its end line, whose scores settle it (or "
       "type where each tile went and whose it was)"),
    N_("%(word)s %(seat)s is given already for hand %(n)s: one hand's deal at a time (hand %(n2)s's once hand "
       "%(n3)s is played); to correct it, type the line again on its own"),
    N_("%(word)s is given already for hand %(n)s: one hand's deal at a time (hand %(n2)s's once hand %(n3)s is "
       "played); to correct it, type the line again on its own"),
    N_("left comes at the end of a hand being played"),
    N_("end closes a hand being played (or, right after hand N, records its scores alone)"),
    N_("there is no hand result to confirm"),
    N_("quit is for the terminal: on a page, just close it"),
    N_("nothing to record: the request is empty"),
    N_("a request holds at most %(n)s lines"),
    N_("a request holds at most %(n)s characters: send the rest in another"),
    N_("this table's game has been sent the most text a game may be sent (%(n)s characters in %(n2)s requests at "
       "most): call the director, who can correct the game as a whole"),
    N_("there is no move to take back"),
    N_("no hand is being played: start one first"),
    N_("no hand is being played"),
    N_("no hand has been closed"),
    N_("hand %(n)s is not closed yet"),
    N_("hand %(n)s has moves: take them back first"),
    N_("hand %(n)s is not over, so the next hand cannot start"),
    N_("hand %(n)s is not over, so the game cannot end on time yet"),
    N_("the game is over (%(scores)s): no further hand is played"),
    N_("the game ended on time (%(scores)s): no further hand is played"),
    N_("the game is over anyway (%(scores)s): it did not end on time"),
    N_("hand %(n)s is still being played: a hand under way when time is called is played to its end, then "
       "the game ends on time"),
    # --- The notation's refusals (a word that is not DGN).
    N_("'%(text)s' is not a move of %(game)s (see docs/notation.md)"),
    N_("'%(text)s' is not a move of %(game)s"),  # (at a table's page, where no docs are at hand)
    N_("'%(text)s' is not a move of %(game)s: it has two commas in a row; did you mean %(word)s?"),
    N_("'%(text)s' is not a move of %(game)s: it has the letter O where a zero is meant; did you mean %(word)s?"),
    N_("'%(text)s' is not a move of %(game)s: it has the letter %(word)s where a one is meant; did you mean "
       "%(word2)s?"),
    N_("'%(text)s' is not a move of %(game)s: it has a bar (|) where a one is meant; did you mean %(word)s?"),
    N_("'%(text)s' is not a move of %(game)s: it has a full stop where a comma is meant; did you mean %(word)s?"),
    N_("'%(text)s' is not a move of %(game)s: it has two commas in a row"),
    N_("'%(text)s' is not a move of %(game)s: ; separates the seats of a deal or left line, not moves; did you mean "
       "%(word)s?"),
    N_("'%(text)s' is not a move of %(game)s: ; separates the seats of a deal or left line, not moves"),
    N_("'%(text)s' is not a seat of this game (seats: %(seats)s)"),
    N_("'%(text)s' is not a tile (write tiles as 6-3) in %(what)s"),
    N_("a comment is not closed: it starts here with { and has no }"),
    N_("} closes no comment"),
    N_("a quoted name is not closed on its line"),
    N_('a tag is not closed: write it on one line as [Name "value"]'),
    N_("this line looks like a tag missing its [: write it as %(text)s"),
    N_("this line looks like a tag missing its [ and ]: write it as %(text)s"),
    N_('this line is not a tag, a hand line or a move: write a tag as [Name "value"] and a note in braces, '
       '{like this}'),
    N_("this line belongs to a hand, but tags follow it: write it after the tags, under its hand line (hand 1)"),
    N_("unexpected character %(text)s"),
    N_("a hand line is hand N (hands count from 1): expected hand %(n)s"),
    N_("hands are numbered in order: expected hand %(n)s, not hand %(n2)s"),
    N_("after hand N, only lead SEAT may follow on the line"),
    N_("%(word)s comes before the hand's moves"),
    N_("%(word)s SEAT tiles…: say whose tiles these are"),
    N_("%(word)s gives %(seat)s's tiles twice"),
    N_("the hand has two %(word)s lines"),
    N_("the hand has two end lines"),
    N_("leaddraw gives one tile per seat: leaddraw N 6-3; E 5-2 …"),
    N_("redeal SEAT N tiles…; E tiles…; …: who asked, then the abandoned deal"),
    N_("end KIND SIDE points…: '%(text)s' is not a way a hand ends (out, blocked, sudden-death, target, abandoned)"),
    N_("a Broadway tile goes on the grid: say where, %(tile)s@x,y"),
    N_("a Domino Roads tile goes on a road: say which, %(tile)s@NS1"),
    N_("a Domino Roads tile goes on a road: say which, %(tile)s@%(road)s"),
    N_("a road's starter says the half it is built from: %(word)s"),
    N_("a road's starter says the half it is built from: %(word)s or %(word2)s"),
    N_("a bridge says, for each road, the span and the half it joins: %(word)s"),
    # --- The rules' names, in brackets after a reason.
    N_("deal"),
    N_("sides"),
    N_("seats"),
    N_("the deal"),
    N_("scoring"),
    N_("hand scoring"),
    N_("end of hand"),
    N_("the set"),
    N_("broadway: end of hand"),
    N_("broadway: exposed tile"),
    N_("broadway: four players, two partnerships"),
    N_("broadway: game (the deal)"),
    N_("broadway: game (the hand's double leads)"),
    N_("broadway: geometry"),
    N_("broadway: matching and scoring"),
    N_("broadway: passing"),
    N_("broadway: playing from hand"),
    N_("broadway: turn order (clockwise)"),
    N_("broadway: winning (sudden death)"),
    N_("castle-rock: capture of three"),
    N_("castle-rock: capture"),
    N_("castle-rock: drawing"),
    N_("castle-rock: first player (left of the dealer)"),
    N_("castle-rock: hand end"),
    N_("castle-rock: option set"),
    N_("castle-rock: option start_tiles"),
    N_("castle-rock: placing at the open end"),
    N_("castle-rock: playing from hand"),
    N_("castle-rock: the deal"),
    N_("castle-rock: the starting row"),
    N_("castle-rock: turn order (clockwise)"),
    N_("castle-rock: turn"),
    N_("castle-rock: two to six players"),
    N_("competitive: end of hand"),
    N_("competitive: first leader (lead draw)"),
    N_("competitive: four players"),
    N_("competitive: matching an end"),
    N_("competitive: must play if able"),
    N_("competitive: next leader"),
    N_("competitive: option first_lead"),
    N_("competitive: playing from hand"),
    N_("competitive: redeal"),
    N_("competitive: the deal"),
    N_("competitive: turn order (to the right)"),
    N_("domino-roads: a 0-0 is only ever a bridge"),
    N_("domino-roads: a road holds at most 10 tiles"),
    N_("domino-roads: a side plays on its own roads only"),
    N_("domino-roads: bridge"),
    N_("domino-roads: first player"),
    N_("domino-roads: four or three players"),
    N_("domino-roads: four players"),
    N_("domino-roads: hand end (abandoned)"),
    N_("domino-roads: hand end"),
    N_("domino-roads: playing from the stock"),
    N_("domino-roads: road names are unique within a hand"),
    N_("domino-roads: road-block (option block_match)"),
    N_("domino-roads: road-block"),
    N_("domino-roads: scoring"),
    N_("domino-roads: sets"),
    N_("domino-roads: span"),
    N_("domino-roads: starter"),
    N_("domino-roads: three players"),
    N_("domino-roads: turns (the partner plays from the second turn on)"),
    N_("domino-roads: turns (unused toss)"),
    N_("domino-roads: turns"),
    N_("horse-race: game (the target, option win_check)"),
    N_("horse-race: hand end"),
    N_("horse-race: layout (a spinner's sides before its ends)"),
    N_("horse-race: layout (matching an open end)"),
    N_("horse-race: lead"),
    N_("horse-race: option count_partner"),
    N_("horse-race: partnerships (option partnerships)"),
    N_("horse-race: the boneyard (draw order)"),
    N_("horse-race: the deal"),
    N_("horse-race: turn (a drawn playable tile is set at once and ends the turn)"),
    N_("horse-race: turn (drawing from the boneyard)"),
    N_("horse-race: turn (must set a tile if able)"),
    N_("horse-race: turn (passing with the boneyard empty)"),
    N_("horse-race: turn (play passes clockwise)"),
    N_("horse-race: turn (setting a tile from hand)"),
    N_("horse-race: turn (the chain after a double or a scoring tile)"),
    N_("horse-race: two, three or four players"),
    # --- Reasons every engine gives (base.py): holding tiles, deals, leaders, draws.
    N_("%(tile)s is not a tile of the %(set)s set"),
    N_("%(seat)s does not hold %(tile)s (it is in %(seat2)s's hand)"),
    N_("%(seat)s does not hold %(tile)s"),  # (at a table: where it is, hidden, is not said)
    N_("%(seat)s does not hold %(tile)s: it has already been played"),
    N_("%(seat)s does not hold %(tile)s: it is already on the table"),
    N_("%(seat)s does not hold %(tile)s: it is still in the boneyard"),
    N_("%(seat)s does not hold %(tile)s: it is already in the row"),
    N_("%(seat)s does not hold %(tile)s: %(seat2)s has captured it"),
    N_("the deal has nothing for seat %(seat)s"),
    N_("the list of piles has nothing for seat %(seat)s"),
    N_("the lead draw has nothing for seat %(seat)s"),
    N_("%(what)s names seat %(seat)s, who is not among the players (%(seats)s)"),
    N_("%(seat)s was dealt %(n)s tiles; each player gets %(n2)s"),
    N_("%(tile)s is dealt twice (%(seat)s has it too); the set has one of each tile"),
    N_("%(tile)s is dealt twice (%(seat)s's pile has it too); the set has one of each tile"),
    N_("%(tile)s is dealt twice (the boneyard has it too); the set has one of each tile"),
    N_("%(tile)s is dealt twice (the row has it too); the set has one of each tile"),
    N_("%(tile)s is dealt twice (also at %(where)s); the set has one of each tile"),
    N_("%(tile)s is dealt twice (%(seat)s has it twice); the set has one of each tile"),
    N_("%(tile)s is dealt twice (%(seat)s's pile has it twice); the set has one of each tile"),
    N_("%(tile)s is dealt twice (the boneyard has it twice); the set has one of each tile"),
    N_("%(tile)s is dealt twice (the row has it twice); the set has one of each tile"),
    N_("%(tile)s is dealt twice (twice at %(where)s); the set has one of each tile"),
    N_("%(seat)s is not a seat at this table (seats: %(seats)s)"),
    N_("%(seat)s is not a seat at this table"),
    N_("%(seat)s is not a seat of this game (seats: %(seats)s)"),
    N_("%(side)s is not a side of this game (sides: %(sides)s)"),
    N_("left %(seat)s lists %(n)s tile, but by the moves %(seat2)s still holds %(n2)s (is a move missing, "
       "or given to the wrong seat? without the deal, every pass must be written)"),
    N_("left %(seat)s lists %(n)s tiles, but by the moves %(seat2)s still holds %(n2)s (is a move missing, "
       "or given to the wrong seat? without the deal, every pass must be written)"),
    N_("left %(seat)s lists %(tile)s, but it was played in this hand"),
    N_("the deal is not written, so give the tiles %(seats)s still held: left %(list)s"),
    N_("left leaves out %(seats)s, but by the moves it still holds tiles (%(held)s) and the hand is not over "
       "(is a move missing, or given to the wrong seat? without the deal, every pass must be written); a hand "
       "stopped before its end gives the tiles of %(seats2)s too: left %(list)s"),
    N_("left leaves out %(seats)s, but by the moves each still holds tiles (%(held)s) and the hand is not over "
       "(is a move missing, or given to the wrong seat? without the deal, every pass must be written); a hand "
       "stopped before its end gives the tiles of %(seats2)s too: left %(list)s"),
    N_("the hand is already over: nobody may make this move"),
    # A word typed with a look-alike character (domrec.lookalikes.said): the script's name as Unicode
    # gives it ("Cyrillic", "full-width").
    N_("'%(char)s' (%(script)s) looks like %(plain)s but is another letter: type %(text)s"),
    N_("'%(char)s' (%(script)s) looks like %(plain)s but is another digit: type %(text)s"),
    N_("'%(char)s' (%(script)s) looks like %(plain)s but is another character: type %(text)s"),
    N_("'%(text)s': its '%(char)s' (%(script)s) looks like %(plain)s but is another letter: type %(text2)s"),
    N_("'%(text)s': its '%(char)s' (%(script)s) looks like %(plain)s but is another digit: type %(text2)s"),
    N_("'%(text)s': its '%(char)s' (%(script)s) looks like %(plain)s but is another character: type %(text2)s"),
    N_("a redeal is recorded with the abandoned deal's hands, which cannot be given while this hand's deal "
       "is not known"),
    N_("a hand whose deal is not known gives no player's tiles: give the whole deal, or none"),
    N_("%(seat)s cannot lead this hand: %(why)s"),
    N_("%(seat)s dominoed the last hand and leads this one"),
    N_("the record names %(seat)s as this hand's leader (chosen by lot)"),
    N_("the record names %(seat)s as this hand's leader (the holder of 6-6 leads the first hand: option "
       "first_lead: double-six)"),
    N_("the record names %(seat)s as this hand's leader"),
    N_("%(seat)s drew %(tile)s, the highest tile of the lead draw"),
    N_("%(seat)s holds 6-6, which leads the first hand (option first_lead: double-six)"),
    N_("the lead passes to the right of %(seat)s, to %(seat2)s"),
    N_("the last hand was a tied block, so %(seat)s leads again"),
    N_("%(seat)s leads this hand and cannot pass"),
    N_("the hand is already over: %(why)s"),
    N_("every tile has been played"),
    N_("%(seat)s played the last tile of their stock, so no move may follow"),
    N_("%(seat)s dominoed"),
    N_("nobody can set a tile and the boneyard is empty (blocked)"),
    N_("the hand is already over: every player holding tiles has passed in succession"),
    N_("the game is already over: a partnership leads by two in sudden death"),
    N_("the game ended when %(side)s reached %(n)s (option win_check: immediate)"),
    N_("%(seat)s passes out of turn: the hand is blocked, and its closing passes, which may be left out, "
       "go in turn (%(seat2)s next)"),
    N_("%(seat)s went out"),
    N_("nobody can play (blocked)"),
    N_('this hand\'s deal gives no boneyard order, so each draw must name its tile ("draw": "%(tile)s")'),
    N_("this hand's deal gives no boneyard order, so each draw must name its tile (%(seat)s +%(tile)s)"),  # (at a table)
    N_("the boneyard's order, given with the deal, has %(tile)s as draw number %(n)s, not %(tile2)s"),
    N_("%(tile)s cannot be drawn: it is not a tile of the %(set)s set"),
    N_("%(tile)s cannot be drawn: it was already drawn by %(seat)s"),
    N_("%(tile)s cannot be drawn: it was dealt to %(seat)s, so it is not in the boneyard"),
    N_("%(tile)s cannot be drawn: it is not in the boneyard"),  # (at a table)
    N_("the boneyard's order, given with the deal, does not have %(tile)s as draw number %(n)s"),  # (at a table)
    N_("%(seat)s draws without naming the tile, but the deal gives no boneyard order: write the tile drawn"),
    N_("%(seat)s cannot pass while the boneyard holds %(n)s tiles: %(seat2)s must draw"),
    N_("%(seat)s cannot pass while the boneyard holds %(n)s tile: %(seat2)s must draw"),
    N_("%(seat)s is drawing and must go on drawing until a tile fits or the boneyard is empty"),
    N_("the hand's scores name %(side)s, which is not a side of this game (each player is a side: %(seats)s)"),
    N_("the hand's scores name %(side)s, which is not a side of this game (the sides are %(side2)s and %(side3)s)"),
    # --- Competitive.
    N_("a competitive move is a play or a pass"),
    N_('%(tile)s fits both ends: say which it is played on, %(tile2)s or %(tile3)s ("on" in JSON, '
       "%(tile4)s@%(tile5)s in DGN)"),
    N_("%(tile)s fits both ends: say which it is played on, %(tile2)s or %(tile3)s (%(tile4)s@%(tile5)s)"),
    N_("%(tile)s fits neither end of the line (%(n)s on %(tile2)s, %(n2)s on %(tile3)s)"),
    N_("%(tile)s leads the hand: there is nothing to play it on"),
    N_("the first hand is led with %(tile)s (option first_lead: double-six), not %(tile2)s"),
    N_("%(tile)s is not at an end of the line (the ends are %(tile2)s showing %(n)s and %(tile3)s showing %(n2)s)"),
    N_("%(tile)s does not match %(tile2)s: that end shows %(n)s"),
    N_("%(seat)s cannot pass: %(seat2)s must play, %(tile)s fits on %(tile2)s"),
    N_("it is %(seat)s's turn, not %(seat2)s's (play passes to the right: %(order)s)"),
    N_("%(tile)s is not a tile of the double-six set"),
    N_("%(side)s is claimed %(n)s, but a Competitive hand never scores below 0"),
    N_('a Competitive hand ends "out" (a player dominoes) or "blocked", not \'%(text)s\''),
    N_("both sides are claimed points (NS %(n)s, EW %(n2)s), but only one side scores a hand: the side "
       "that dominoes, or the lighter side in a block"),
    N_("a domino always scores: the other three players still hold a tile each, so a hand where nobody "
       "scores is a tied block"),
    N_("%(side)s is claimed %(n)s for a block, but a block scores between %(n2)s and %(n3)s: the pips in "
       "all four hands"),
    N_("%(side)s is claimed %(n)s for a block, but a block always scores an even number: both ends show "
       "the same number, so the line's pips are even"),
    N_("%(side)s is claimed %(n)s for a domino, but a domino scores between %(n2)s and %(n3)s: the pips in "
       "the other three hands"),
    N_("%(side)s is claimed %(n)s, but a hand scores 0 or between %(n2)s and %(n3)s"),
    N_("%(seat)s asked for a redeal holding %(n)s doubles; a redeal needs five or more"),
    N_("only the first hand has a lead draw; later leaders follow from the last hand"),
    N_("%(tile)s is drawn twice in the lead draw"),
    # --- Broadway.
    N_("a Broadway move is a placement, a pass, or an exposed tile"),
    N_("it is %(seat)s's turn, not %(seat2)s's (play goes clockwise %(order)s)"),
    N_("%(seat)s has no tiles left and is skipped; it is %(seat2)s's turn"),
    N_("%(seat)s holds %(tile)s and leads this hand, not %(seat2)s"),
    N_("this hand is built on %(tile)s: %(seat)s must lead it, not %(tile2)s"),
    N_("%(seat)s leads this hand with %(tile)s and cannot pass"),
    N_("%(seat)s cannot pass: %(tile)s fits at %(cell)s-%(cell2)s"),
    N_("%(seat)s cannot pass: %(seat2)s holds %(n)s tile nobody has shown, and of the %(n2)s tiles not yet "
       "seen only %(n3)s fit nowhere along %(axis)s, so one of %(seat3)s's tiles fits"),
    N_("%(seat)s cannot pass: %(seat2)s holds %(n)s tiles nobody has shown, and of the %(n2)s tiles not "
       "yet seen only %(n3)s fit nowhere along %(axis)s, so one of %(seat3)s's tiles fits"),
    N_("%(seat)s cannot pass: nobody passes before the lead, and the holder of %(tile)s leads it"),
    N_("%(tile)s at %(cell)s-%(cell2)s touches no equal half: a placement needs at least one matched segment"),
    N_("cell %(cell)s is already covered by %(tile)s: %(tile2)s must go on empty cells"),
    N_("%(tile)s is given the same cell %(cell)s twice: a tile covers two cells side by side"),
    N_("cells %(cell)s and %(cell2)s are not side by side: a tile covers two cells that share an edge"),
    N_("%(tile)s is marked as a penalty play, but no tile has been exposed"),
    N_("it is %(seat)s's own turn: a tile shown by the player to move is simply played, an exposure is out of turn"),
    N_("%(seat)s's exposed %(tile)s must be played first by %(seats)s"),
    N_("%(seat)s's exposed %(tile)s must be played now by %(seat2)s or %(seat3)s, marked \"penalty\": true"),
    N_("the penalty play must be the exposed %(tile)s, not %(tile2)s"),
    N_("%(side)s cannot make %(n)s points in a hand: %(n2)s tiles besides the lead are laid, each earning "
       "at most %(n3)s"),
    N_("%(side)s is not a side in Broadway: the partnerships are NS and EW"),
    # --- Horse Race.
    N_("a horse-race move is a play, a draw or a pass"),
    N_("it is %(seat)s's turn, not %(seat2)s's (play passes clockwise: %(order)s)"),
    N_("%(tile)s fits nowhere on the layout (open numbers: %(list)s)"),
    N_('%(tile)s fits on %(on)s and on %(on2)s: say which it is played on ("on" in JSON, %(tile2)s@%(tile3)s in DGN)'),
    N_('%(tile)s fits on %(on)s and on %(on2)s and on %(on3)s: say which it is played on ("on" in JSON, '
       "%(tile2)s@%(tile3)s in DGN)"),
    N_("%(tile)s fits on %(on)s and on %(on2)s and on %(on3)s and on %(on4)s: say which it is played on "
       '("on" in JSON, %(tile2)s@%(tile3)s in DGN)'),
    # (the same at a table, where only DGN is typed: tournament.event.table_log.at_the_table)
    N_("%(tile)s fits on %(on)s and on %(on2)s: say which it is played on (%(tile2)s@%(tile3)s)"),
    N_("%(tile)s fits on %(on)s and on %(on2)s and on %(on3)s: say which it is played on (%(tile2)s@%(tile3)s)"),
    N_("%(tile)s fits on %(on)s and on %(on2)s and on %(on3)s and on %(on4)s: say which it is played on "
       "(%(tile2)s@%(tile3)s)"),
    N_("%(tile)s leads the hand: there is nothing to set it on"),
    N_("%(tile)s is not on the table, so %(tile2)s cannot be set on it"),
    N_("%(tile)s does not match %(tile2)s: a tile set on it must have a %(n)s"),
    N_("%(tile)s does not match %(tile2)s: its open end shows %(n)s"),
    N_("nothing more can be set on %(tile)s: its open end is already covered"),
    N_("%(tile)s has no free side or end left: both sides and both ends are taken"),
    N_("%(seat)s drew %(tile)s, which fits, and must set it at once, not %(tile2)s"),
    N_("%(seat)s drew %(tile)s, which fits: %(seat2)s must set it at once, before %(seat3)s moves"),
    N_("%(seat)s drew %(tile)s, which fits: %(seat2)s must set it at once, not pass"),
    N_("%(seat)s drew %(tile)s, which fits: it must be set at once, not another tile drawn"),
    N_("%(seat)s cannot draw while able to set a tile: %(tile)s fits on %(tile2)s"),
    N_("%(seat)s cannot draw after %(tile)s: with option chain_draw false a chain that cannot go on simply "
       "ends the turn, so %(seat2)s sets another tile or %(seat3)s moves"),
    N_("%(seat)s cannot pass after %(tile)s: with option chain_draw false a chain that cannot go on simply "
       "ends the turn, so %(seat2)s sets another tile or %(seat3)s moves"),
    N_("%(seat)s cannot pass: %(seat2)s must set a tile, %(tile)s fits on %(tile2)s"),
    N_("%(seat)s cannot stop the chain after %(tile)s while able to go on: %(tile2)s fits on %(tile3)s"),
    N_("%(seat)s cannot set %(tile)s: %(seat2)s was dealt it (it was never drawn), and it would have "
       "fitted when %(seat3)s drew %(tile2)s (open numbers then: %(list)s); a player may not draw while "
       "able to set a tile"),
    N_("%(seat)s cannot set %(tile)s: %(seat2)s was dealt it (it was never drawn), and it would have "
       "fitted when %(seat3)s drew %(tile2)s instead of going on after %(tile3)s (open numbers then: "
       "%(list)s); a player may not draw while able to go on with a chain"),
    N_("%(seat)s cannot set %(tile)s: %(seat2)s was dealt it (it was never drawn), and it would have "
       "fitted when %(seat3)s let the chain after %(tile2)s end (open numbers then: %(list)s); a player "
       "may not end a chain while able to go on"),
    N_("%(seat)s set a double (%(tile)s) and goes on if able; if not, the turn passes to %(seat2)s, not to %(seat3)s"),
    N_("%(seat)s set a double (%(tile)s) and goes on: another tile if able, else a draw (option "
       "chain_draw); it is not %(seat2)s's turn"),
    N_("%(seat)s set a double (%(tile)s) and must go on while able: %(tile2)s fits on %(tile3)s; it is not "
       "%(seat2)s's turn"),
    N_("%(seat)s set a double (%(tile)s) and must go on while able; it is not %(seat2)s's turn"),  # (at a table)
    N_("%(seat)s set a double (%(tile)s) and, unable to go on, must draw (option chain_draw)"),
    N_("%(seat)s set a scoring tile (%(tile)s) and goes on if able; if not, the turn passes to %(seat2)s, "
       "not to %(seat3)s"),
    N_("%(seat)s set a scoring tile (%(tile)s) and goes on: another tile if able, else a draw (option "
       "chain_draw); it is not %(seat2)s's turn"),
    N_("%(seat)s set a scoring tile (%(tile)s) and must go on while able: %(tile2)s fits on %(tile3)s; it "
       "is not %(seat2)s's turn"),
    N_("%(seat)s set a scoring tile (%(tile)s) and must go on while able; it is not %(seat2)s's turn"),  # (at a table)
    N_("%(seat)s set a scoring tile (%(tile)s) and, unable to go on, must draw (option chain_draw)"),
    N_("%(seat)s leads this hand and sets any tile; there is nothing to draw for"),
    N_("%(side)s cannot score %(n)s for a hand: pegs and end-of-hand points are never negative"),
    # --- Castle Rock.
    N_("a Castle Rock move is a play, a capture or a draw"),
    N_("it is %(seat)s's turn to place, not %(seat2)s's (play passes clockwise)"),
    N_("it is %(seat)s's turn to place, not %(seat2)s's (play passes clockwise; %(seats)s with empty hands "
       "is skipped)"),
    N_("it is %(seat)s's turn to place, not %(seat2)s's (play passes clockwise; %(seats)s with empty hands "
       "are skipped)"),
    N_("%(seat)s must place %(tile)s at the open end of the row; a Castle Rock placement names no other position"),
    N_("%(seat)s has already placed a tile this turn: a turn is one tile, then captures"),
    N_("%(seat)s has already placed a tile this turn: a turn is one tile, then captures, then a draw"),
    N_("%(seat)s must first place a tile at the open end; captures come after placing"),
    N_("%(seat)s cannot place %(tile)s: it is not a tile of the %(set)s set"),
    N_("%(seat)s does not hold %(tile)s: %(seat2)s has already placed both tiles dealt to them and holds "
       "only %(held)s, drawn in this hand"),
    N_("%(seat)s cannot capture %(tile)s: it is at the blocked end of the row, and a tile is captured only "
       "between two neighbours"),
    N_("%(seat)s cannot capture %(tile)s: it is at the open end of the row, and a tile is captured only "
       "between two neighbours"),
    N_("%(seat)s cannot capture %(tile)s: it is not in the row (%(seat2)s has already captured it)"),
    N_("%(seat)s cannot capture %(tile)s: it is not in the row (it has not been played)"),
    N_("%(seat)s cannot capture %(tile)s: it is not in the row (it is in %(seat2)s's hand)"),
    N_("%(seat)s cannot capture %(tile)s: it is not in the row"),  # (at a table)
    N_("%(seat)s cannot capture %(tile)s: its neighbours %(tile2)s and %(tile3)s share no number"),
    N_("%(seat)s cannot capture: it is %(seat2)s's turn, and a player captures only in their own turn, after placing"),
    N_("%(seat)s cannot capture %(tiles)s: they are not three consecutive tiles of the row, in row order"),
    N_("%(seat)s cannot capture %(tiles)s: the three tiles do not all share one number"),
    N_("%(seat)s cannot capture: the hand is over, and only %(seat2)s, who placed the last tile, may still capture"),
    N_("%(seat)s cannot place %(tile)s: the hand is over, every hand is empty"),
    N_("%(seat)s cannot draw: the hand is over, every hand is empty"),
    N_("%(seat)s names %(n)s tiles: a capture takes one tile (the middle one) or three consecutive tiles"),
    N_("%(seat)s cannot draw %(tile)s: it is not a tile of the %(set)s set"),
    N_("%(seat)s cannot draw %(tile)s: that tile is already out of the boneyard (dealt, drawn or played)"),
    N_("%(seat)s cannot draw %(tile)s: the next tile of the boneyard, in the order given with the deal, is "
       "%(tile2)s"),
    N_("%(seat)s cannot draw %(tile)s: it is not the next tile of the boneyard, in the order given with the "
       "deal"),  # (at a table)
    N_("%(seat)s cannot draw: it is %(seat2)s's turn"),
    N_("%(seat)s cannot pass: Castle Rock has no passing (a player with tiles places one at the open end, "
       "a player without is skipped)"),
    N_("%(seat)s is owed no tile yet: a player draws after placing a tile (and any captures)"),
    N_("%(seat)s is owed no tile: the boneyard is empty"),
    N_("%(seat)s must draw a tile (the boneyard holds %(n)s) before the turn passes to %(seat2)s"),
    N_("a Castle Rock deal needs its starting row, blocked end first"),
    N_("a Castle Rock hand needs its starting row even when the players' tiles are not known: give it, "
       "blocked end first (it lies face up)"),
    N_('a Castle Rock hand ends when every hand is empty (end "out"), not \'%(text)s\''),
    N_("%(side)s is not a seat at this table (seats: %(seats)s); Castle Rock scores are kept by seat"),
    N_("the scores claimed add up to %(n)s, which no hand gives: each of the %(n2)s tiles of the %(set)s "
       "set ends the hand captured (+1 to its taker) or left in the row (-1 to each of the %(n3)s "
       "players), so the scores add up to %(n4)s less %(n5)s for every tile left (%(list)s)"),
    # --- Domino Roads.
    N_("a Domino Roads move is a roll, a reuse, a starter, a span, a bridge, a road-block or a pass"),
    N_("%(seat)s cannot reuse a toss: nobody has rolled yet in this hand"),
    N_("%(seat)s cannot reuse the toss of %(n)s: it was used (a tile was played with it), so %(seat2)s "
       "must roll again"),
    N_("%(seat)s cannot roll %(n)s: each die shows 1 to 6"),
    N_("it is %(seat)s's turn to roll the dice, not %(seat2)s's (the dice pass clockwise)"),
    N_("it is %(seat)s's turn to take the dice, not %(seat2)s's (the dice pass clockwise)"),
    N_("%(seat)s cannot roll the dice now: after %(seat2)s's turn the dice pass clockwise to %(seat3)s"),
    N_("%(seat)s cannot take the dice now: after %(seat2)s's turn the dice pass clockwise to %(seat3)s"),
    N_("%(seat)s must roll the dice (or reuse an unused toss) to start the turn; a pass only closes a part of a turn"),
    N_("%(seat)s must roll the dice (or reuse an unused toss) before playing"),
    N_("%(seat)s cannot pass: no turn is under way, and it is %(seat2)s's turn to roll"),
    N_("%(seat)s cannot play on the hand's first turn: the roller's partner plays with the same total from "
       "the second turn on"),
    N_("it is %(seat)s's turn (total %(n)s): only %(seat2)s may play now, not %(seat3)s"),
    N_("it is %(seat)s's turn (total %(n)s): only %(seat2)s and %(seat3)s may play now, not %(seat4)s"),
    N_("%(seat)s's part of this turn is over: %(seat2)s has taken over the total of %(n)s"),
    N_("%(tile)s is not a tile of the %(n)s-tile Domino Roads set"),
    N_("%(seat)s does not hold %(tile)s in stock yet: it is still in %(seat2)s's pile"),
    N_("%(seat)s does not hold %(tile)s: it is in %(seats)s's pile"),
    N_("%(seat)s does not hold %(tile)s: it is in %(seats)s's stock"),
    N_("%(seat)s does not hold %(tile)s: the other copy is in %(seats)s's stock"),
    N_("%(seat)s does not hold %(tile)s: the set has %(n)s copies and all have been played"),
    N_("%(seat)s does not hold %(tile)s: the set has %(n)s copy and it has been played"),
    N_("%(seat)s does not hold %(tile)s: every tile of %(seat2)s's stock came from the pile (%(tiles)s)"),
    N_("there is no road %(road)s in this hand (roads: %(roads)s)"),
    N_("there is no road %(road)s in this hand (roads: none yet)"),
    N_("0-0 can never start a road: it is only ever a bridge"),
    N_("0-0 can never be a span: it is only ever a bridge"),
    N_("only a 0-0 can be a bridge, not %(tile)s"),
    N_("road %(road)s already exists in this hand (started with %(tile)s by %(side)s); a new road needs a new name"),
    N_("road %(road)s already has length %(n)s: a road holds at most 10 tiles"),
    N_("road %(road)s belongs to %(side)s: %(side2)s may lay only a road-block on an opponent's road"),
    N_("road %(road)s belongs to %(side)s: a bridge joins two of %(side2)s's own roads"),
    N_("road %(road)s has %(n)s span, so it has no span %(n2)s (a bridge joins span halves, never a starter)"),
    N_("road %(road)s has %(n)s spans, so it has no span %(n2)s (a bridge joins span halves, never a starter)"),
    N_("road %(road)s has length %(n)s: a full road cannot be blocked"),
    N_("road %(road)s is %(side)s's own: a road-block goes on an opponent's road"),
    N_("road %(road)s is blocked: no more spans may be added to it"),
    N_("road %(road)s is blocked: a blocked road cannot be joined"),
    N_("span %(n)s of road %(road)s is %(tile)s: it has no %(n2)s"),
    N_("%(tile)s would go on the %(n)s of starter %(tile2)s, but road %(road)s faces %(n2)s: a starter is "
       "played off one side only"),
    N_("starter %(tile)s cannot face the road with %(n)s: it has no %(n2)s"),
    N_("road %(road)s already faces %(n)s from its starter %(tile)s: a road is played off one side of its "
       "starter only"),
    N_("road %(road)s is already joined to road %(road2)s: a road is joined to one other road only"),
    N_("a bridge joins two different roads, not road %(road)s to itself"),
    N_("the bridged halves %(n)s + %(n2)s = %(n3)s, not the play total %(n4)s"),
    N_("roads %(road)s (length %(n)s) and %(road2)s (length %(n2)s) would make a road of length %(n3)s: a "
       "joined road holds at most 10 tiles"),
    N_("0-0 can never be a road-block: it is only ever a bridge"),
    N_("only a double can be a road-block, not %(tile)s"),
    N_("road %(road)s is already blocked (by %(tile)s): a road takes one road-block"),
    N_("road %(road)s is only its starter %(tile)s: a road-block goes against a span"),
    N_("the right-most span of road %(road)s is the double %(tile)s: a double span cannot be blocked"),
    N_("%(tile)s does not match road %(road)s: its right-most span %(tile2)s shows %(n)s (option block_match: equal)"),
    N_("%(tile)s does not span road %(road)s: the road shows %(n)s, and no half makes the total %(n2)s with it"),
    N_("starter %(tile)s sums to %(n)s, not the play total %(n2)s"),
    N_("%(tile)s does not span road %(road)s: the road shows %(n)s, so with total %(n2)s the touching half "
       "must be %(n3)s"),
    N_("%(tile)s does not block road %(road)s: %(n)s + the exposed %(n2)s = %(n3)s, not the play total "
       "%(n4)s (option block_match: sum)"),
    N_('a Domino Roads hand ends only when a player goes out (plays the last tile of their stock), never "blocked"'),
    N_("the three-player game deals each player a pile of %(n)s beside the stock of %(n2)s: give each player's "
       "pile too"),
    N_("%(side)s cannot score %(n)s in a hand: going out, roads and stock credits are never negative"),
    N_("%(side)s scores 0, but in the four-player game each side is credited with the pips left in its "
       "opponents' stocks, and whoever of %(side2)s did not go out still holds a tile"),
    N_("no player scores %(n)s or more, but the player who goes out scores 50 and the pips of both "
       "opponents' stocks (at least %(n2)s + %(n3)s)"),
    N_("%(side)s is not a side of this game: hands are scored by the partnerships NS and EW"),
    N_("%(side)s is not a side of this game: hands are scored by the players %(seats)s"),
    # --- A hand's score refused, as a score sheet types it ("hand 2", "end P1 5 P2 0"): the reader's
    # end line, and each game's check of a hand's scores (a score-sheet table is told these without
    # the rule's tag: tournament.event.table_log.in_words).
    N_("%(what)s: '%(text)s' is not a number of points (for %(side)s)"),
    N_('%(what)s: "%(text)s" is not a number of points (for %(side)s)'),
    N_("%(what)s gives %(side)s twice"),
    N_("%(what)s lists sides with their points, like NS 23 EW 0"),
    N_("hand %(n)s: %(problem)s"),
    N_("a Broadway hand ends 'out', 'blocked' or 'sudden-death', not '%(word)s'"),
    N_("%(side)s cannot lose %(n)s points in a hand: a partnership holds %(n2)s tiles, and each tile still held "
       "at the end costs one point"),
    N_("%(side)s cannot make %(n)s points in a hand: 27 tiles besides the lead are laid, each earning at most 10"),
    N_("%(side)s cannot score %(n)s in a hand that ends 'out': every tile was played, so nothing is taken off"),
    N_("%(side)s cannot score %(n)s in a hand that ends 'sudden-death': a hand stopped by sudden death counts no "
       "tiles against anyone, so nothing is taken off"),
    N_("%(side)s cannot lose %(n)s points in a hand %(seat)s led: the lead is laid, so %(side2)s holds at most "
       "%(n2)s tiles at the end"),
    N_("NS %(n)s and EW %(n2)s make %(n3)s points in one hand; 27 tiles besides the lead, each earning at most "
       "10, make at most %(n4)s"),
    N_("NS %(n)s and EW %(n2)s would need 28 tiles still held at the end, but the hand's double is always laid"),
    N_("hand %(n)s is one of the seven regular hands, which are played to the end: only a sudden-death hand "
       "stops mid-hand"),
    N_("the hand is claimed to stop in sudden death, but after it the totals are NS %(n)s, EW %(n2)s: nobody "
       "leads by two"),
    N_("a horse-race hand ends out (a domino), blocked, or at the target, not %(word)s"),
    N_("under option win_check: end_of_hand every hand is played out, so none ends at the target"),
    N_("%(side)s cannot score %(n)s for a hand: in the celko variant every peg is a count that is a multiple of "
       "five, and every subtraction is a hand's pips rounded to five"),
    N_("%(side)s cannot score %(n)s for a hand that ends at the target: the game ends at once, with no "
       "end-of-hand count, so nobody subtracts (variant celko)"),
    N_("in a celko hand that ends in a domino, the player who dominoed has no pips to subtract, so at least one "
       "player scores 0 or more"),
    N_("after this hand %(side)s has %(n)s, past the target %(n2)s: in the celko variant only pegs add to a "
       "total, so %(side)s reached the target during the hand, which then ended at once (option win_check: "
       "immediate), not %(word)s"),
    N_("this hand cannot have ended at the target: after it the best total is %(n)s (%(sides)s), short of %(n2)s"),
    N_("this hand cannot have ended at the target: after it %(side)s and %(side2)s are level on %(n)s, and the "
       "game ends only with one side ahead"),
    N_("this hand cannot have ended at the target: after it %(side)s and %(side2)s and %(side3)s are level on "
       "%(n)s, and the game ends only with one side ahead"),
    N_("this hand cannot have ended at the target: after it %(side)s and %(side2)s and %(side3)s and %(side4)s "
       "are level on %(n)s, and the game ends only with one side ahead"),
    N_("%(seat)s is claimed %(n)s, but scores adding up to %(n2)s leave %(n3)s tile in the row, so every player "
       "scores at least %(n4)s (tiles captured, less the row)"),
    N_("%(seat)s is claimed %(n)s, but scores adding up to %(n2)s leave %(n3)s tiles in the row, so every player "
       "scores at least %(n4)s (tiles captured, less the row)"),
    N_("the scores claimed leave no tile in the row, but the hand's last tile, placed by %(seat)s at the open "
       "end, can only have gone in a capture of three by %(seat)s, so %(seat)s scores at least 3, not %(n)s"),
    N_("the scores claimed leave no tile in the row, but the hand's last tile, at the open end, can only have "
       "gone in a capture of three by its placer, so someone scores at least 3"),
    N_("this hand ends the game with %(sides)s tied on %(n)s, and the tie goes to the youngest hand of the "
       "hand's turn order: write who played first (leader)"),
    N_("%(side)s (%(n)s) and %(side2)s (%(n2)s) cannot both have scored stock credits: only the player who went "
       "out is credited, the others score road values only (multiples of 5, at least 10)"),
    N_("%(side)s's %(n)s is no sum of road values (multiples of 5, at least 10), so %(side)s would have gone "
       "out, but going out scores %(n2)s and the pips of both opponents' stocks (at least %(n3)s + %(n4)s)"),
    N_("neither side scores %(n)s or more, but the side that goes out scores %(n2)s and the pips of both "
       "opponents' stocks (at least %(n3)s + %(n4)s)"),
    N_('a Domino Roads hand ends only when a player goes out (plays the last tile of their stock), never '
       '"%(word)s"'),
    N_("a Domino Roads hand is never abandoned: every tile but 0-0 and 1-0 can start a road with the right roll, "
       "and the set has too few of those two for every player, so someone can always go out"),
    N_("%(seat)s cannot be the first player: South is the first player of hand 1 and it rotates clockwise, so "
       "hand %(n)s starts with %(seat2)s"),
    N_("%(seat)s cannot be the first player: the first player rotates clockwise: %(seat2)s started the last "
       "hand, so %(seat3)s starts this one"),
    # --- The most a side can score (games.base.ScoreRange): a typed hand's score or game's total above it.
    N_("%(side)s %(n)s: one hand cannot score above %(n2)s (%(why)s)"),
    N_("%(side)s %(n)s: a game to %(n2)s cannot end above %(n3)s (%(n4)s + %(n5)s, %(why)s)"),
    N_("%(side)s %(n)s: a game to %(n2)s cannot end above %(n3)s (%(side2)s's %(n4)s + %(n5)s, %(why)s: a tie at "
       "the top sends play on)"),
    N_("%(side)s %(n)s: a game to %(n2)s cannot end above %(n3)s (%(side2)s's %(n4)s + %(n5)s, the most a total "
       "falls between two checks, + %(n6)s, %(why)s: a tie at the top sends play on)"),
    N_("the most one hand can score"),
    N_("the most one peg can score"),
    N_("the most a side scores at once: a peg, or a hand's end count"),
    N_("the most a side gains on another in one hand (its pegs and the other's pips left, %(n)s at most a tile)"),
    N_("a domino scores at most the pips of the other three hands"),
    N_("27 tiles besides the lead, each earning at most 10"),
    N_("%(n)s tiles set, each pegging at most %(n2)s, and %(n3)s for the hand's end"),
    N_("%(n)s tiles set, each pegging at most %(n2)s"),
    N_("every tile of the set captured"),
    # How a game ends (ScoreRange.end_refusal): totals no finished game, nor one stopped by the clock, ends with.
    N_("%(scores)s: a game to %(n)s never ends with two sides at %(n2)s or more (%(why)s)"),
    N_("only one side scores in a hand, and the game stops after the hand in which a side reaches the target"),
    N_("a peg scores one side, and the game stops at the peg that takes a side to the target"),
    N_("a tie at the top goes to the youngest hand, never a draw"),
    N_("going out, full roads of the side's own tiles and every stock credit of the set"),
    # Why a final total is never below zero (ScoreRange.why: a typed score below it is refused).
    N_("a hand only adds points to a side"),
    N_("going out, roads and stock credits are never negative"),
    N_("pegs and end-of-hand points are never negative"),
    # --- A game's name that is none of the five (a record's "game", a DGN text's [Game] tag, a command's argument).
    N_('unknown game "%(text)s"; did you mean "%(name)s"? domrec knows %(games)s'),
    N_('unknown game "%(text)s"; domrec knows %(games)s'),
    N_("'%(text)s' is neither a game (%(games)s) nor a record file; did you mean \"%(name)s\"?"),
    # --- What domrec convert wrote, where records of its input were left out (each told above it).
    N_("%(file)s: %(count)s records written, %(count2)s left out (invalid, above)"),
    N_("%(file)s: %(count)s records written, 1 left out (invalid, above)"),
    N_("%(file)s: 1 record written, %(count)s left out (invalid, above)"),
    N_("%(file)s: 1 record written, 1 left out (invalid, above)"),
    # --- A worker process of domrec validate -j that died (domrec.parallel.lost_said).
    N_("warning: a worker process died while checking %(file)s; it is checked again, in a process of its own"),
    N_("warning: a worker process died while checking %(file)s to %(file2)s; those %(count)s records are checked "
       "again, one at a time"),
    N_("warning: a worker process died while checking records between %(file)s and %(file2)s; the %(count)s of "
       "them whose verdicts were lost are checked again, one at a time"),
    # --- Names inside sentences: the sets, Broadway's axes.
    N_("double-six"),
    N_("double-nine"),
    N_("double-twelve"),
    N_("x (east-west)"),
    N_("y (north-south)"),
)


@attrs.frozen
class _Pattern:
    msgid: str
    regex: re.Pattern[str]
    names: tuple[str, ...]
    weight: int
    #: The pattern's longest fixed words: a sentence without them is not tried against the regex.
    anchor: str


def _compile(msgid: str, kinds: Mapping[str, str] = KINDS, whole: bool = True) -> _Pattern:
    """``msgid`` as a regular expression, each placeholder holding what ``kinds`` says its name may
    hold (any text where it says nothing).  ``whole``: the pattern is a whole sentence; else a
    phrase found anywhere in a line, as a whole word (a picture's: :func:`translate_picture`)."""
    parts = re.split(r"%\((\w+)\)s", msgid)
    out, names, seen = [], [], set()
    for k, part in enumerate(parts):
        if k % 2 == 0:
            out.append(re.escape(part.replace("%%", "%")))
            continue
        if part in seen:
            out.append(f"(?P={part})")
            continue
        seen.add(part)
        names.append(part)
        kind = kinds.get(part.rstrip("0123456789"), r".+?")
        out.append(f"(?P<{part}>{kind})")
    fixed = [p.replace("%%", "%") for p in parts[::2]]
    body = "".join(out)
    regex = re.compile(body + r"\Z", re.DOTALL) if whole else re.compile(rf"(?<!\w){body}(?!\w)")
    return _Pattern(msgid, regex, tuple(names), sum(map(len, fixed)), max(fixed, key=len))


@functools.lru_cache(maxsize=4)
def _patterns(phrases: tuple[str, ...]) -> tuple[_Pattern, ...]:
    """The patterns, the most literal first (a pattern of many fixed words is tried before one
    that is mostly placeholders, which could also match it)."""
    return tuple(sorted((_compile(p) for p in phrases), key=lambda p: -p.weight))


def _match(text: str, phrases: tuple[str, ...]) -> tuple[_Pattern, dict[str, str]] | None:
    for pattern in _patterns(phrases):
        if pattern.anchor not in text:
            continue
        found = pattern.regex.match(text)
        if found is not None:
            return pattern, found.groupdict()
    return None


#: The games' names as a sentence in another language gives them (a ``%(game)s`` holds the
#: game's id: ``valid competitive, 8 hands`` reads *competitivo válida, 8 manos* in Spanish).
GAME_NAMES = {"competitive": N_("competitive"), "horse-race": N_("Horse Race"), "broadway": N_("Broadway"),
              "castle-rock": N_("Castle Rock"), "domino-roads": N_("Domino Roads")}


def number_words(value: str, lang: str) -> str:
    """A number written with English grouping (``1,000,000``) as ``lang`` writes it (Babel's
    grouping for the language: ``1.000.000`` in Spanish); anything else as it is.  Where Babel is
    not installed (the phone's engine, Pyodide), as it is: no sentence the phone says holds one."""
    if lang == DEFAULT or not _GROUPED.fullmatch(value):
        return value
    try:
        from babel.numbers import format_decimal
    except ImportError:
        return value
    return format_decimal(int(value.replace(",", "")), locale=lang)


def _render(text: str, gettext: Callable[[str], str], phrases: tuple[str, ...], depth: int,
            number: Callable[[str], str] = lambda value: value,
            moment: Callable[[str], str] = lambda value: value) -> tuple[str, bool]:
    """``text`` in the catalog's words (a grouped number in ``number``'s, a time, ``%(when)s``, in
    ``moment``'s: :func:`domrec.i18n.moment_in`), and whether every nested part of it was listed."""
    found = _match(text, phrases) if depth < 8 else None
    if found is None:
        return text, False
    pattern, values = found
    whole = True
    for name, value in values.items():
        if name.rstrip("0123456789") == "game" and value in GAME_NAMES:
            values[name] = gettext(GAME_NAMES[value])
            continue
        if name.rstrip("0123456789") in NUMBERS:
            values[name] = number(value)
            continue
        if name.rstrip("0123456789") == "when":
            values[name] = moment(value)
            continue
        if name.rstrip("0123456789") not in NESTED:
            continue
        rendered, listed = _render(value, gettext, phrases, depth + 1, number, moment)
        values[name] = rendered
        whole = whole and listed
    try:
        return gettext(pattern.msgid) % values, whole
    except (KeyError, ValueError, TypeError):  # a catalog entry with a wrong placeholder: English
        return pattern.msgid % values, whole


def translate(text: str, lang: str, phrases: tuple[str, ...] = PHRASES, folders: Iterable[Path] = (LOCALE,)) -> str:
    """``text`` (a sentence of the engines or the recorder) in ``lang``, from the catalogs of
    ``folders``; as it is when no listed pattern matches it.  A ``line:column:`` prefix (where a
    refused request went wrong) is kept as it is."""
    if lang == DEFAULT or not text:
        return text
    return _translated(text, lang, phrases, tuple(folders))


@functools.lru_cache(maxsize=1 << 16)
def _translated(text: str, lang: str, phrases: tuple[str, ...], folders: tuple[Path, ...]) -> str:
    """:func:`translate`, kept: a table's state repeats the same moves' labels at every request."""
    prefix = re.match(r"\d+:\d+: ", text)
    head, body = (prefix.group(), text[prefix.end():]) if prefix else ("", text)
    return head + _render(body, translations(lang, folders).gettext, phrases, 0,
                          lambda value: number_words(value, lang), lambda value: moment_in(value, lang))[0]


def listed(text: str, phrases: tuple[str, ...] = PHRASES) -> bool:
    """``text`` matches a listed pattern, and so does each sentence nested in it."""
    return _render(text, lambda m: m, phrases, 0)[1]


def pattern_of(text: str, phrases: tuple[str, ...] = PHRASES) -> str | None:
    """The listed pattern ``text`` matches (its msgid), or ``None``."""
    found = _match(text, phrases)
    return found[0].msgid if found else None


# --- the pictures of a table -----------------------------------------------------------------
#
# A table's page draws the hand as its engine renders it (``HandState.render``: Competitive's line
# of play, a Horse Race layout and count, Broadway's tableau, a Castle Rock row, Domino Roads'
# roads).  Those lines are drawings with words in them, not sentences: a road of any length, the
# stocks of any seats, a count of any number of open ends.  Their forms are too many to list
# whole, so their words are: each phrase below is replaced where it stands in a line, and the
# notation around it (tiles, seats, roads, numbers, the picture's brackets) is kept as it is.

#: The fixed phrases of the engines' pictures, each with the values it holds.  Tried longest
#: first; a phrase replaced is not looked at again, so a shorter one never rewrites part of it.
PICTURE: tuple[str, ...] = (
    # Competitive, and an empty line, row, layout, tableau or pile.
    N_("line:"),
    N_("(empty)"),
    # Horse Race: the layout anchor by anchor, arm by arm, and the count.
    N_("layout:"),
    N_("lead %(tile)s"),
    N_("a side free, counts %(n)s"),
    N_("both sides taken, counts nothing"),
    N_("(a spinner: its arms follow)"),
    N_("open end %(n)s"),
    N_("half %(n)s:"),
    N_("side: free"),
    N_("end: free (counts nothing until a tile is set on it)"),
    N_("side:"),
    N_("end:"),
    N_("count:"),
    N_("pegs %(n)s: one point per five"),
    N_("pegs %(n)s: the full count, in celko"),
    N_("no score: not a multiple of five"),
    N_("no score: nothing is open to count"),
    N_("no score"),
    N_("boneyard:"),
    N_("%(n)s tiles"),
    N_("%(n)s tile"),
    N_("tiles held:"),
    N_("(%(tiles)s drawn)"),
    # Broadway: the tableau's legend, and what a hand without its deal shows.
    N_("tableau:"),
    N_("[n] just laid, (n) matched by it"),
    N_("tiles held (deal not known):"),
    N_("face up (exposed, unplayable so far):"),
    N_("exposed: %(seat)s's %(tile)s, to be played by %(seat2)s or %(seat3)s"),
    # Castle Rock.
    N_("row (blocked end first, open end last):"),
    N_("captured:"),
    N_("(the deal is not known)"),
    # Domino Roads.
    N_("dice:"),
    N_("(unused)"),
    N_("%(seat)s to roll"),
    N_("any player may roll first"),
    N_("%(seat)s went out"),
    N_("turn %(n)s:"),
    N_("%(seat)s has the dice"),
    N_("%(seat)s playing"),
    N_("hand over:"),
    N_("%(seat)s roads: none"),
    N_("%(seat)s roads:"),
    N_("length %(n)s"),
    N_("shows %(n)s, blocked"),
    N_("shows %(n)s"),
    N_("joined to %(road)s by %(tile)s"),
    N_("at span %(n)s (%(n2)s), blocked"),
    N_("at span %(n)s (%(n2)s)"),
    N_("piles:"),
    N_("stocks (tiles not known):"),
    N_("(known: %(tiles)s)"),
)

#: What each placeholder of a picture's phrase may hold: notation only (never a phrase replaced
#: already, which stands in the line as a mark of its own until the line is done).
PICTURE_KINDS: Mapping[str, str] = {
    "tile": r"\d+-\d+",
    "tiles": r"\d+-\d+(?: \d+-\d+)*",
    "n": r"-?\d+",
    "seat": r"[A-Z][A-Za-z0-9]*",
    "road": r"[A-Z][A-Za-z0-9]*(?:-\d+)?",
}


@functools.lru_cache(maxsize=4)
def _picture_words(words: tuple[str, ...]) -> tuple[_Pattern, ...]:
    """The picture's phrases as patterns, the most literal first (as :func:`_patterns`), each found
    anywhere in a line as a whole word: "end:" is not the end of "legend:"."""
    return tuple(sorted((_compile(w, PICTURE_KINDS, whole=False) for w in words), key=lambda p: -p.weight))


def translate_picture(lines: Iterable[str], lang: str, folders: Iterable[Path] = (LOCALE,)) -> list[str]:
    """The lines of a table's picture (:data:`PICTURE`) with their words in ``lang``; as they are in
    English, or where the catalog has no word for a phrase."""
    if lang == DEFAULT:
        return list(lines)
    where = tuple(folders)
    return [_picture_line(line, lang, where) for line in lines]


@functools.lru_cache(maxsize=1 << 14)
def _picture_line(line: str, lang: str, folders: tuple[Path, ...]) -> str:
    """One line of a picture in ``lang`` (kept: a table's picture is sent again at every move,
    most of its lines as they were)."""
    return replace_words(line, [w for w in _picture_words(PICTURE) if w.anchor in line],
                         translations(lang, folders).gettext)


def replace_words(line: str, words: Iterable[_Pattern], gettext: Callable[[str], str]) -> str:
    """``line`` with each of ``words`` (patterns of words inside notation) in the catalog's words,
    in their order; a word replaced is not looked at again ("length 3 blocked" is not then read
    as "length 3").  A catalog entry with a wrong placeholder leaves its words in English."""
    done: list[str] = []

    def put(msgid: str) -> Callable[[re.Match[str]], str]:
        def replaced(found: re.Match[str]) -> str:
            try:
                text = gettext(msgid) % found.groupdict()
            except (KeyError, ValueError, TypeError):
                text = found.group(0)
            done.append(text)
            return f"\x00{len(done) - 1}\x00"
        return replaced

    for word in words:
        line = word.regex.sub(put(word.msgid), line)
    return re.sub("\x00(\\d+)\x00", lambda found: done[int(found.group(1))], line)

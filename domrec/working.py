"""A hand's working (the end-of-hand arithmetic the engines word for ``explain`` and the replay
page: :attr:`domrec.games.base.HandOutcome.working`) in the page's language.

The engines word their working in English, with the values of the moment, and ``domrec explain``
prints it so.  A replay page in another language translates each line as :mod:`domrec.phrases`
translates the engines' other sentences: the line is matched against the patterns listed here
(:data:`WORKING`: one a form of line, for the five games), and the pattern's words come from the
catalog.  What such a line holds besides numbers (a hand's tiles, a row, a side's roads) is
notation with a few words in it ("(none)", "length 3", "blocked"): those are put in the page's
language word by word (:data:`WORDS`), as a table's picture is (:func:`domrec.phrases.translate_picture`),
the notation around them kept as it is.  A line no pattern matches is shown as it is, in English;
``tests/test_replay_working_es.py`` replays simulated games of every game, played and scores
only, and finds none.
"""

from __future__ import annotations

import functools
from typing import Callable

from domrec import phrases
from domrec.i18n import DEFAULT, N_, translations

#: The forms of a working line, game by game.  ``%(left)s``, ``%(sums)s``, ``%(held)s``,
#: ``%(row)s``, ``%(roads)s`` hold notation (their words are :data:`WORDS`); ``%(scores)s`` a
#: list of sides and points ("NS 8, EW 5").
WORKING: tuple[str, ...] = (
    # Competitive (and a Horse Race hand's end, worded the same).
    N_("%(seat)s dominoed; the other three hands hold every tile not on the line: %(n)s pips"),
    N_("%(seat)s dominoed; pips left: %(left)s"),
    N_("blocked; pips left: %(left)s"),
    N_("%(side)s scores the other three hands: %(sums)s = %(n)s"),
    N_("NS %(n)s + %(n2)s = %(n3)s, EW %(n4)s + %(n5)s = %(n6)s"),
    N_("equal totals: nobody scores, and the same player leads the next hand"),
    N_("%(side)s has fewer pips and scores all four hands: %(n)s + %(n2)s = %(n3)s"),
    N_("a score-sheet hand: the scores as claimed"),
    # Horse Race.
    N_("pegged during the hand: %(scores)s"),
    N_("%(side)s reached %(n)s during the hand (option win_check: immediate): the game ends at once, "
       "with no end-of-hand count"),
    N_("%(seat)s subtracts its own %(n)s pips rounded to %(n2)s (variant celko)"),
    N_("hand: %(scores)s"),
    N_("%(side)s scores the other hands: %(sums)s = %(n)s, rounded to %(n2)s, ÷ 5 = %(n3)s"),
    N_("%(side)s scores the three other hands (option count_partner: true): %(sums)s = %(n)s, "
       "rounded to %(n2)s, ÷ 5 = %(n3)s"),
    N_("%(side)s scores the opponents' hands: %(sums)s = %(n)s, rounded to %(n2)s, ÷ 5 = %(n3)s"),
    N_("%(side)s has fewer pips and scores the opponents' hands: %(sums)s = %(n)s, rounded to %(n2)s, "
       "÷ 5 = %(n3)s"),
    N_("%(seat)s and %(seat2)s tie for the lowest total (%(n)s): each scores the pips of all hands but their own"),
    N_("%(seat)s and %(seat2)s and %(seat3)s tie for the lowest total (%(n)s): each scores the pips of all "
       "hands but their own"),
    N_("%(seat)s and %(seat2)s and %(seat3)s and %(seat4)s tie for the lowest total (%(n)s): each scores the "
       "pips of all hands but their own"),
    N_("equal sides: nobody scores for the block"),
    N_("recorded by its scores alone (a score sheet): %(scores)s"),
    # Broadway.
    N_("points made in play: NS %(n)s, EW %(n2)s"),
    N_("a partnership leads by two in sudden death: the game stops at once, no tiles are counted against anyone"),
    N_("blocked; still held: %(held)s"),
    N_("blocked (every player holding tiles passed); still held: %(held)s"),
    N_("one point off per tile held: NS −%(n)s, EW −%(n2)s"),
    N_("the hand is not over"),
    N_("every tile was played: no penalties"),
    N_("hand score: NS %(n)s, EW %(n2)s"),
    N_("score-sheet hand (its play is not recorded): NS %(n)s, EW %(n2)s"),
    # Castle Rock.
    N_("row left: %(n)s tile (%(row)s), -1 each for every player"),
    N_("row left: %(n)s tiles (%(row)s), -1 each for every player"),
    N_("%(seat)s: captured %(n)s - %(n2)s = %(n3)s"),
    N_("score sheet: %(scores)s (%(n)s tile left in the row)"),
    N_("score sheet: %(scores)s (%(n)s tiles left in the row)"),
    # Domino Roads.
    N_("%(seat)s went out: %(side)s scores the bonus of %(n)s"),
    N_("%(side)s: roads %(roads)s; credit %(credit)s: %(n)s + %(n2)s x %(n3)s = %(n4)s"),
    N_("%(side)s: roads %(roads)s"),
    N_("%(side)s scores %(sums)s = %(n)s"),
)

#: The words found inside a working line's notation (a hand without tiles, an empty row, a road's
#: length, a blocked road, a side without roads, the double blanks of a stock credit), each put
#: in the page's language where it stands.  Tried longest first.
WORDS: tuple[str, ...] = (
    N_("(none)"),
    N_("(empty)"),
    N_("length %(n)s blocked"),
    N_("length %(n)s"),
    N_("and 0-0 x%(n)s"),
    N_("none"),
)


def translate(line: str, lang: str) -> str:
    """``line`` (a working line of an engine) in ``lang``; as it is in English, or where no
    pattern matches it."""
    if lang == DEFAULT or not line:
        return line
    return _translated(line, lang)


@functools.lru_cache(maxsize=1 << 14)
def _translated(line: str, lang: str) -> str:
    said = phrases.translate(line, lang, phrases.PHRASES + WORKING)
    if said == line and not phrases.listed(line, phrases.PHRASES + WORKING):
        return line
    return _words(said, translations(lang).gettext)


@functools.lru_cache(maxsize=1)
def _word_patterns() -> tuple[phrases._Pattern, ...]:
    """:data:`WORDS` as patterns found anywhere in a line as whole words (as a picture's
    phrases are), the most literal first."""
    return tuple(sorted((phrases._compile(w, phrases.PICTURE_KINDS, whole=False) for w in WORDS),
                        key=lambda p: -p.weight))


def _words(line: str, gettext: Callable[[str], str]) -> str:
    """``line`` with each of :data:`WORDS` in the catalog's words (a word replaced is not looked
    at again: "length 3 blocked" is not then read as "length 3")."""
    return phrases.replace_words(line, _word_patterns(), gettext)

"""A replay page in Spanish says each hand's working (its end-of-hand arithmetic) in Spanish.

A tester found the venue's replay page of a Broadway game (``/games/2/2?lang=es``) saying "points
made in play: NS 8, EW 5", "hand score: …" and "every tile was played: no penalties" in English,
and a scores-only game's page "score-sheet hand (its play is not recorded): …" on every hand:
the engines' working lines had no pattern in the catalog (docs/venue.md lists the replay page
among the pages in Spanish).  These tests replay simulated games of the five games (several
seeds and options, played move by move, scores only, and cut in the middle of a hand) and read
every working line of the Spanish page against the English one.
"""

from __future__ import annotations

import re

import attrs
import pytest

from domrec import phrases, replay_page, working
from domrec.i18n import translations
from tests.simulated import simulate
from tests.test_replay_page import parse

#: (game, players, options, variant): the configurations whose working differs.
CONFIGURATIONS = [
    ("competitive", None, None, None),
    ("horse-race", 2, None, None),
    ("horse-race", 3, None, None),
    ("horse-race", 4, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 4, {"partnerships": True, "count_partner": True}, None),
    ("horse-race", 3, None, "celko"),
    ("horse-race", 3, {"win_check": "end_of_hand"}, None),
    ("broadway", None, None, None),
    ("castle-rock", None, None, None),
    ("castle-rock", 4, None, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
]
SEEDS = range(2)
#: English words a working line may hold that are no sentence's: a Spanish line holding one of
#: them was left (partly) in English.
ENGLISH = re.compile(r"\b(none|empty|length|blocked|credit|roads|scores?|hands?|pips|left|played|"
                     r"points|tiles?|row|captured|sheet|and|the|of|by|during|rounded|each|went)\b")


def scores_only(record):
    """``record`` as a score sheet: every hand by its result alone."""
    return attrs.evolve(record, hands=tuple(attrs.evolve(h, deal=None, moves=(), leader=None)
                                            for h in record.hands))


def cut(record):
    """``record`` stopped in the middle of its last hand (an open hand: "the hand is not over")."""
    last = record.hands[-1]
    return attrs.evolve(record, result=None,
                        hands=(*record.hands[:-1], attrs.evolve(last, moves=last.moves[:len(last.moves) // 2],
                                                                 result=None)))


def workings(html: str) -> list[str]:
    tree = parse(html)
    return [li.all_text() for ul in tree.find_all("ul", "working") for li in ul.find_all("li")]


def _check(game, record):
    english, spanish = workings(replay_page.page(record)), workings(replay_page.page(record, lang="es"))
    assert len(english) == len(spanish)
    for en, es in zip(english, spanish):
        assert phrases.listed(en, phrases.PHRASES + working.WORKING), f"{game}: no pattern for {en!r}"
        if re.search(r"[a-z]{2,}", en):
            assert es != en, f"{game}: {en!r} is shown in English"
        assert not ENGLISH.search(es), f"{game}: {es!r} (from {en!r}) is partly English"
    return english


@pytest.mark.parametrize("configuration", CONFIGURATIONS, ids=lambda c: "-".join(str(x) for x in c if x))
def test_every_working_line_of_a_spanish_replay_page_is_spanish(configuration):
    game, players, options, variant = configuration
    seen = 0
    for seed in SEEDS:
        for record in simulate(game, 1, seed, players, options, variant, accidents=False):
            for shown in (record, scores_only(record), cut(record)):
                seen += len(_check(game, shown))
    assert seen


def test_the_testers_broadway_lines_are_spanish():
    lines = ["points made in play: NS 8, EW 5", "hand score: NS 8, EW 7", "every tile was played: no penalties",
             "score-sheet hand (its play is not recorded): NS 5, EW 6"]
    said = [working.translate(line, "es") for line in lines]
    assert said == ["puntos hechos en el juego: NS 8, EW 5", "puntos de la mano: NS 8, EW 7",
                    "se jugaron todas las fichas: sin penalizaciones",
                    "mano de planilla (su juego no está registrado): NS 5, EW 6"]


def test_every_working_form_is_spanish_on_the_page():
    """Each pattern of :data:`working.WORKING`, by a line of its form (some are ends a simulation
    rarely reaches: a tie, sudden death, a block in Broadway, an open hand)."""
    lines = ["N dominoed; the other three hands hold every tile not on the line: 43 pips",
             "E dominoed; pips left: N 6-3 = 9  E (none) = 0  S 5-3 = 8  W 5-5 5-4 4-3 = 26",
             "blocked; pips left: N 6-3 = 9  E 1-0 = 1  S 5-3 = 8  W 5-5 = 10",
             "EW scores the other three hands: 9 + 8 + 26 = 43",
             "NS 9 + 8 = 17, EW 1 + 10 = 11",
             "equal totals: nobody scores, and the same player leads the next hand",
             "EW has fewer pips and scores all four hands: 17 + 11 = 28",
             "a score-sheet hand: the scores as claimed",
             "pegged during the hand: P1 5, P2 0",
             "P1 reached 61 during the hand (option win_check: immediate): the game ends at once, with no "
             "end-of-hand count",
             "P2 subtracts its own 12 pips rounded to 10 (variant celko)",
             "hand: P1 5, P2 16",
             "P2 scores the other hands: 16 (P1) + 7 (P3) = 23, rounded to 25, ÷ 5 = 5",
             "NS scores the three other hands (option count_partner: true): 3 (E) + 4 (S) + 5 (W) = 12, "
             "rounded to 10, ÷ 5 = 2",
             "NS scores the opponents' hands: 3 (E) + 5 (W) = 8, rounded to 10, ÷ 5 = 2",
             "NS has fewer pips and scores the opponents' hands: 3 (E) + 5 (W) = 8, rounded to 10, ÷ 5 = 2",
             "P1 and P2 tie for the lowest total (5): each scores the pips of all hands but their own",
             "P1 and P2 and P3 tie for the lowest total (5): each scores the pips of all hands but their own",
             "P1 and P2 and P3 and P4 tie for the lowest total (0): each scores the pips of all hands but their own",
             "equal sides: nobody scores for the block",
             "recorded by its scores alone (a score sheet): P1 3, P2 18",
             "points made in play: NS 8, EW 5",
             "a partnership leads by two in sudden death: the game stops at once, no tiles are counted against anyone",
             "blocked; still held: N 6-6 5-5  E 4-4",
             "blocked (every player holding tiles passed); still held: N 6-6",
             "one point off per tile held: NS −2, EW −0",
             "the hand is not over",
             "every tile was played: no penalties",
             "hand score: NS 8, EW 7",
             "score-sheet hand (its play is not recorded): NS 5, EW 6",
             "row left: 1 tile ([6-6]), -1 each for every player",
             "row left: 0 tiles ((empty)), -1 each for every player",
             "P1: captured 13 - 0 = 13",
             "score sheet: P1 5, P2 -1 (1 tile left in the row)",
             "score sheet: P1 5, P2 -2 (2 tiles left in the row)",
             "E went out: EW scores the bonus of 50",
             "NS: roads NS1 length 3 blocked = 25; NS2+NS3 length 10 = 250; credit E (none) = 0; "
             "W 0-0 = 0 and 0-0 x1: 0 + 100 x 1 = 100",
             "EW: roads none",
             "NS scores 250 + 70 + 131 = 451"]
    met = {phrases.pattern_of(line, phrases.PHRASES + working.WORKING) for line in lines}
    assert set(working.WORKING) <= met
    for line in lines:
        es = working.translate(line, "es")
        if re.search(r"[a-z]{2,}", line):
            assert es != line and not ENGLISH.search(es), (line, es)


def test_every_word_in_a_working_line_has_its_translation():
    gettext = translations("es").gettext
    for msgid in working.WORKING + working.WORDS:
        if re.search(r"[a-z]{2,}", re.sub(r"%\(\w+\)s", "", msgid)):
            assert gettext(msgid) != msgid, msgid

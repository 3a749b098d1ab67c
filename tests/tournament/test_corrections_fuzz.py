"""Corrections of random lines of simulated games of all five games, finished and in play: each is
either made (and the corrected game is a valid record, as the validator reads it) or refused in one
line with :class:`CorrectionRefused`; nothing else ever comes out (a server would answer 500)."""

from __future__ import annotations

import random

import attrs
import pytest

from domrec.session import Session, requests_for
from domrec.simulate import simulate
from domrec.validate import validate

from tournament.event.corrections import CorrectionRefused, correct, game_lines

GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]


@pytest.mark.parametrize("game", GAMES)
def test_random_corrections_are_made_or_refused_in_one_line(game):
    rng = random.Random(f"corrections:{game}")
    made = refused = 0
    for k, record in enumerate(simulate(game, 3, 21)):
        template = attrs.evolve(record, hands=(), result=None)
        texts = requests_for(record, keep_deal=bool(k % 2))
        for cut in (len(texts), len(texts) // 2):
            session = Session(template, texts[:cut])
            hands = game_lines(session)
            # The lines record the same game again.
            again = Session(template, ["\n".join(h) for h in hands])
            assert again.game.totals == session.game.totals and again.over == session.over
            everything = [x for h in hands for x in h]
            for _ in range(6):
                h = rng.randrange(len(hands)) + 1
                line = rng.choice([None, *range(1, len(hands[h - 1]) + 1)])
                text = rng.choice(["", rng.choice(everything), "E 6-4", "left N 0-0", "end NS 3 EW 0", "hand 1\nzz"])
                try:
                    fixed = correct(session, h, line, text)
                except CorrectionRefused as e:
                    assert e.message and "\n" not in e.message
                    refused += 1
                    continue
                made += 1
                if fixed.session.over:
                    assert validate(fixed.session.record()).status == "valid"
    assert refused

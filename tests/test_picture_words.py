"""The words of a table's picture in Spanish (:func:`domrec.phrases.translate_picture`): every
line every engine draws of a simulated game, with and without the deal, at every player count,
comes with no English word of the pictures' left, and its notation (tiles, seats, roads,
numbers, brackets) as it was."""

from __future__ import annotations

import re

import attrs
import pytest

from domrec import simulate
from domrec.phrases import PICTURE, translate_picture
from domrec.session import Session, requests_for

#: Each game and the player counts it is played by.
COUNTS = {"competitive": (4,), "horse-race": (2, 3, 4), "broadway": (4,), "castle-rock": (2, 3, 4),
          "domino-roads": (3, 4)}
#: Words of the pictures' phrases that Spanish says as English does (or that are notation).
SAME = {"no", "spinner", "celko", "total", "n"}
#: Every English word of the pictures' phrases.
ENGLISH = {w for msgid in PICTURE for w in re.findall(r"[a-z]{2,}", re.sub(r"%\(\w+\)s", " ", msgid))} - SAME
NOTATION = re.compile(r"\d+-\d+|\d+|[\[\]()|#*?→↑·,;:=+\-]")


def _pictures(game: str, players: int) -> set[str]:
    lines: set[str] = set()
    for record in simulate.simulate(game, 2, 5, players, accidents=False):
        for keep_deal in (True, False):
            session = Session(attrs.evolve(record, hands=(), result=None))
            for text in requests_for(record, keep_deal=keep_deal):
                session.take(text)
                lines.update(session.state()["table"])
    return lines


@pytest.mark.parametrize("game, players", [(g, n) for g, counts in COUNTS.items() for n in counts])
def test_every_line_of_every_picture_comes_in_spanish(game, players):
    lines = _pictures(game, players)
    assert any(re.search(r"[a-z]{2,}", line) for line in lines), "the games drew no words to translate"
    for line, spanish in zip(sorted(lines), translate_picture(sorted(lines), "es")):
        left = {w for w in re.findall(r"[a-z]{2,}", spanish)} & ENGLISH
        assert not left, f"{line!r} -> {spanish!r}: {sorted(left)} left in English"
        # The notation is kept: the same tiles and numbers in the same order.
        assert re.findall(r"\d+-\d+|\d+", spanish) == re.findall(r"\d+-\d+|\d+", line), (line, spanish)
        if re.search(r"[a-z]{2,}", line) and set(re.findall(r"[a-z]{2,}", line)) - SAME:
            assert spanish != line


def test_a_phrase_is_replaced_whole_and_once():
    """The longest phrase wins and is not looked at again; English is left as it is."""
    line = "  NS1: (6|4) [4|2]*  (length 2, shows 2, joined to NS2 by 0-0 at span 2 (0), blocked)"
    assert translate_picture([line], "es") == [
        "  NS1: (6|4) [4|2]*  (largo 2, muestra 2, unido a NS2 por 0-0 en el tramo 2 (0), bloqueado)"]
    assert translate_picture(["count: 5 (5-0) = 5 (pegs 1: one point per five); boneyard: 1 tile"], "es") == [
        "cuenta: 5 (5-0) = 5 (anota 1: un punto por cada cinco); pozo: 1 ficha"]
    assert translate_picture(["hand over: N went out", "legend: x"], "en") == ["hand over: N went out", "legend: x"]
    assert translate_picture(["legend: x"], "es") == ["legend: x"]  # "end:" only as a word of its own


def test_roads_before_the_first_roll_of_a_hand_without_its_leader_names_no_none():
    """Three players' hand 1 of Domino Roads, no leader named, before its first roll: whoever rolls
    first leads, and the dice line says so (it read "dice: None to roll", "dados: tira None")."""
    record = next(iter(simulate.simulate("domino-roads", 2, 5, 3, accidents=False)))
    session = Session(attrs.evolve(record, hands=(), result=None))
    session.take("hand 1")
    lines = session.state()["table"]
    assert lines[0] == "dice: any player may roll first", lines
    assert translate_picture(lines, "es")[0] == "dados: cualquier jugador puede tirar primero"
    assert not any("None" in line for line in lines + translate_picture(lines, "es"))

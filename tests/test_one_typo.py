"""One typo in a move is one problem, at the word as typed, in the notation's words.

A ``;`` typed inside a move (``6-4@1;1`` for Broadway's ``6-4@1,1``) splits the word into
tokens: each was refused on its own ("'6-4@1' is not a move", "; separates…", "'1' is not a
move"), or read as a move and judged by the rules ("there is no road 1"), three problems or four
for one slip of the finger.  A comma typed twice was said as "'' is not a move".  Every game is
tried with the same slips; typos in two words stay two problems.
"""

from __future__ import annotations

import pytest

from domrec import notation, reader
from tests.conftest import SAMPLES

#: A typed sample of each game and a move word in it (with a space either side).
GAMES = {
    "broadway": ("broadway/typed-blocked.dgn", "4-6@-1,0"),
    "competitive": ("competitive/typed-domino.dgn", "6-4@4-2"),
    "horse-race": ("horse-race/typed-draws-and-chain.dgn", "5-0@6-0"),
    "castle-rock": ("castle-rock/typed-captures.dgn", "x2-4,4-4,1-4"),
    "domino-roads": ("domino-roads/typed-four-players.dgn", "3-1@NS1"),
}

SEMI = "; separates the seats of a deal or left line, not moves"


def _typos(word: str) -> list[str]:
    tile, _, at = word.partition("@")
    if not at:  # a capture: its tiles joined by commas
        return [word.replace(",", ";", 1), word.replace(",", ";;", 1), word.replace(",", ",,", 1),
                ";" + word, word + ";1"]
    return [f"{tile}@1;1", f"{tile}@;", f"{tile}@;{at}", f"{tile};@{at}", f"{tile}@{at};;1", f"{tile}@{at};1",
            f"{tile}@{at.replace(',', ';')}", f"{tile}@{at.replace(',', ',,')}"]


def _problems(text: str):
    (game,) = notation.read_source(reader.Source("game.dgn", text.encode(), form="dgn"))
    return game.report.problems


def _line_column(text: str, at: int) -> tuple[int, int]:
    return text.count("\n", 0, at) + 1, at - text.rfind("\n", 0, at)


CASES = [(game, typo) for game, (_, word) in GAMES.items() for typo in dict.fromkeys(_typos(word)) if typo != word]


@pytest.mark.parametrize("game,typo", CASES, ids=[f"{g}:{t}" for g, t in CASES])
def test_one_typo_in_a_move_is_one_problem_at_the_word(game, typo):
    path, word = GAMES[game]
    text = (SAMPLES / "valid" / path).read_text(encoding="utf-8")
    typed = text.replace(f" {word} ", f" {typo} ", 1)
    assert typed != text
    problems = _problems(typed)
    said = [f"{p.line}:{p.column}: {p.message}" for p in problems]
    assert len(problems) == 1, said
    (problem,) = problems
    at = typed.index(f" {typo} ") + 1
    assert (problem.line, problem.column) == _line_column(typed, at), said
    assert problem.message.startswith(f"'{typo}' is not a move of {game}: "), said
    assert SEMI in problem.message if ";" in typo else "two commas in a row" in problem.message, said


def test_a_broadway_cell_typed_with_a_semicolon_is_offered_with_its_comma():
    text = (SAMPLES / "valid" / "broadway" / "typed-blocked.dgn").read_text(encoding="utf-8")
    (problem,) = _problems(text.replace(" 4-6@-1,0 ", " 6-4@1;1 ", 1))
    assert problem.message == f"'6-4@1;1' is not a move of broadway: {SEMI}; did you mean 6-4@1,1?"
    assert (problem.line, problem.column, problem.hand, problem.move) == (8, 11, 1, 3)
    (problem,) = _problems(text.replace(" 4-6@-1,0 ", " 4-6@-1,,0 ", 1))
    assert problem.message == ("'4-6@-1,,0' is not a move of broadway: it has two commas in a row; "
                               "did you mean 4-6@-1,0?")
    # a road's name may hold a comma: no move is offered that a comma would make
    roads = (SAMPLES / "valid" / "domino-roads" / "typed-four-players.dgn").read_text(encoding="utf-8")
    (problem,) = _problems(roads.replace(" 3-1@NS1 ", " 3-1@1;1 ", 1))
    assert "did you mean" not in problem.message


def test_a_semicolon_after_a_whole_move_is_said_where_it_is_and_the_move_read():
    text = (SAMPLES / "valid" / "competitive" / "typed-domino.dgn").read_text(encoding="utf-8")
    for tail in (";", ";;"):
        typed = text.replace(" 6-4@4-2 ", f" 6-4@4-2{tail} ", 1)
        (problem,) = _problems(typed)
        assert problem.message == SEMI
        assert (problem.line, problem.column) == _line_column(typed, typed.index(f"{tail} "))


def test_typos_in_two_words_stay_two_problems():
    text = (SAMPLES / "valid" / "broadway" / "typed-blocked.dgn").read_text(encoding="utf-8")
    typed = text.replace(" 4-6@-1,0 5-6@-1,-1 ", " 4-6@-1;0 5-6@-1,,-1 ", 1)
    said = [(p.line, p.column, p.move) for p in _problems(typed)]
    assert said == [(8, 11, 3), (8, 20, 4)]
    spaced = text.replace(" 4-6@-1,0 ", " 4-6@-1,0 ; ", 1)  # a ';' typed as a word of its own: said alone
    assert [(p.line, p.column, p.message) for p in _problems(spaced)] == [(8, 20, SEMI)]

"""Castle Rock's row is shown as it lies (a club night's finding, 2026-12-07).

The phone's table took ``row 1-6 0-6 0-0 2-4`` and showed "row (blocked end first, open end
last): [6-1][6-0][0-0][4-2]" while the director's list said ``row 1-6 0-6 0-0 2-4``: the engine
keeps each tile as its interned value, high half first, and its table lines (which the phone, the
recorder and ``explain`` show) wrote every tile that way.  The rules never turn a
tile in the row, so the hand now keeps how each lies, as the deal's row or a placement wrote it
(:attr:`domrec.games.castlerock.CastleRockHand.faces`), and shows it so.
"""

from __future__ import annotations

from domrec.record import Deal
from domrec.recorder import new_game
from domrec.session import Session

SEATS = [("P1", "Ana"), ("P2", "Bo"), ("P3", "Cy"), ("P4", "Di")]


def _session(*lines: str) -> Session:
    session = Session(new_game("castle-rock", SEATS).record())
    for line in lines:
        session.take(line)
    return session


def test_the_tables_row_is_as_typed_for_a_hand_whose_deal_is_not_known() -> None:
    session = _session("hand 1 lead P1", "row 1-6 0-6 0-0 2-4")
    table = session.state()["table"]
    assert table[0] == "row (blocked end first, open end last): [1-6][0-6][0-0][2-4]", table
    session.take("P1 3-5")  # a placement lies as it was written too
    assert session.state()["table"][0] == "row (blocked end first, open end last): [1-6][0-6][0-0][2-4][3-5]"


def test_a_known_deal_shows_its_row_as_laid_in_its_lines_and_its_working() -> None:
    game = new_game("castle-rock", SEATS)
    game.start_hand(Deal(hands={"P1": ("5-3", "6-6"), "P2": ("5-5", "1-0"), "P3": ("4-4", "3-3"),
                                "P4": ("2-2", "1-1")}, row=("1-6", "0-6", "0-0", "2-4")), "P1")
    state = game.state
    assert state.render()[0] == "row (blocked end first, open end last): [1-6][0-6][0-0][2-4]"
    assert state.outcome().working()[0].startswith("row left: 4 tiles ([1-6][0-6][0-0][2-4])")

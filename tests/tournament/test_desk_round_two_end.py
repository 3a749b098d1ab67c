"""The director's desk, round two, its last points (issue 39): a ratings file matched by federation
id, the director's page seeding round 1 as the command line does, one pair numbering on every
screen and slip of a pairs event, and the two forms of a result sharing what they start from."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.cli import rounds as cli_rounds


# --- the long and the short form of a result start from one place -------------------------------

def test_both_forms_of_a_result_share_who_was_absent_and_the_sides_order() -> None:
    """``tables`` (the long form) and a round's one-line form (the short one) take who did not come
    and the sides' seating order from one helper, so they cannot drift apart."""
    played = SimpleNamespace(scores={"EW": 40, "NS": 214}, winner="NS", kind="play", verified=True,
                             absent_players=(), note=None)
    assert cli_rounds._absent_and_order(played, ["NS", "EW", "NS"], None) == (None, ["NS", "EW"])
    gone = SimpleNamespace(scores={"EW": 0, "NS": 200}, winner="NS", kind="forfeit", verified=False,
                           absent_players=(7, 9), note=None)
    assert cli_rounds._absent_and_order(gone, ["NS", "EW"], {7: "Ana"}) == ("Ana, #9", [])
    assert cli_rounds._result_text(gone, ["NS", "EW"], people={7: "Ana"}).startswith("forfeit: Ana, #9 did not")
    assert cli_rounds._score_text(gone, ["NS", "EW"], {7: "Ana"}) == "forfeit: Ana, #9 absent"
    assert cli_rounds._score_text(played, ["NS", "EW"]) == "214–40 NS won"

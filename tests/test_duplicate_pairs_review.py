"""A review of duplicate pairs sessions run as a club director runs them, from the docs alone.

* ``return`` of a pair withdrawn before round 1 was accepted once round 1 was seated (``back from
  round 2``), though the movement, drawn for the pairs there were, could never seat it: ``check``
  then failed (``A4 is entered but has neither a table nor a bye``).  Refused now, as ``add`` and
  ``withdraw`` are.
* ``sit-out`` of a pair was accepted (``sits out round 2 (scored as the event's sit-out …)``) and
  ignored: the movement seated the pair that round all the same.  Refused now, saying what to do.
"""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_rounds import ok, run


def _seven_pairs(tmp_path: Path, withdrawn: str | None = None) -> Path:
    e = tmp_path / "w.db"
    ok("new", e, "--name", "W", "--game", "competitive", "--format", "duplicate", "--movement", "howell")
    for i in range(1, 8):
        ok("add", e, f"A{i}", f"B{i}", "--pair", f"P{i}")
    if withdrawn:
        ok("withdraw", e, withdrawn, "--reason", "ill")
    ok("boards", e, "--boards", 28, "--seed", 1)
    return e


def test_a_pair_withdrawn_before_round_1_cannot_come_back_into_a_seated_movement(tmp_path: Path) -> None:
    e = _seven_pairs(tmp_path, withdrawn="P4")
    ok("pair", e)
    r = run("return", e, "P4")
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert "P4 cannot come back: the pair would never be seated" in r.output
    assert "a duplicate movement is fixed for the whole session" in r.output
    assert "returned" not in ok("history", e)
    ok("check", e)


def test_before_round_1_a_withdrawn_pair_comes_back(tmp_path: Path) -> None:
    e = _seven_pairs(tmp_path, withdrawn="P4")
    assert "back from round 1" in ok("return", e, "P4")
    ok("pair", e)
    assert "P4" in ok("tables", e)
    ok("check", e)


def test_a_pair_cannot_ask_to_sit_out_a_round_of_a_movement(tmp_path: Path) -> None:
    e = _seven_pairs(tmp_path)
    r = run("sit-out", e, "P3")  # before round 1: the movement would seat the pair all the same
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    assert "P3 cannot sit out round 1: a duplicate movement seats every pair in every round" in r.output
    assert "tournament withdraw" in r.output
    ok("pair", e)
    r = run("sit-out", e, "P3")
    assert r.exit_code == 1 and "P3 cannot sit out round 2" in r.output, r.output
    assert "--not-played" in r.output
    r = run("sit-out", e, "P3", "--round", "1")  # not "unpair it or swap them": both refused here too
    assert r.exit_code == 1 and "P3 cannot sit out round 1" in r.output and "unpair" not in r.output, r.output
    assert "sitting out" not in ok("history", e) and "sits out" not in ok("history", e)
    ok("check", e)


def test_move_in_a_duplicate_event_is_refused_in_the_movements_words(tmp_path: Path) -> None:
    """``move`` said "swap two pairs with `tournament swap`", which is refused too in a duplicate event."""
    e = _seven_pairs(tmp_path)
    ok("pair", e)
    r = run("move", e, "A1", "--table", "2", "--seat", "N")
    assert r.exit_code == 1, r.output
    assert "seated by its movement, pairs and boards together" in r.output
    assert "tournament swap" not in r.output


def test_a_pair_sitting_out_round_1_cannot_be_removed_and_the_file_is_not_called_damaged(tmp_path: Path) -> None:
    """``remove`` of the pair sitting out round 1 (it has no seat: "not played") said the file was
    damaged (``FOREIGN KEY constraint failed``, exit 2): the pair has its number in the movement.
    A pair seated in round 1 was told to ``withdraw instead``, which is refused too."""
    e = _seven_pairs(tmp_path)
    assert "pair 1: sits out this round" in ok("pair", e)
    for who in ("P1", "P2"):
        r = run("remove", e, who)
        assert r.exit_code == 1 and "Traceback" not in r.output, r.output
        assert "damaged" not in r.output and "withdraw instead" not in r.output
        assert f"{who} cannot be removed: a duplicate movement is fixed for the whole session" in r.output
        assert "tournament withdraw" in r.output and "withdraw instead" not in r.output
    assert "P1" in ok("players", e)
    ok("check", e)


def test_a_duplicate_tables_game_is_not_called_still_in_play(tmp_path: Path) -> None:
    """``/games/R/T`` and the feed's ``/api/v1/games/R/T`` of a duplicate table whose every board was
    in said "has no result yet" and "is still in play": a duplicate table has no game of its own."""
    import pytest

    from domrec import phrases
    from tournament import i18n, open_event
    from tournament.event import feed, public

    e = _seven_pairs(tmp_path)
    ok("pair", e)
    from tournament.event import duplicate as dup

    with open_event(e) as store:
        seated = [(t.table, t.boards) for t in dup.table_boards(store, 1)]
    for t, boards in seated:
        for b in boards:
            ok("result", e, "--round", 1, "--table", t, "--board", b, "--score", "NS=20,EW=0")
    said = "round 1 table 2 is a duplicate table: it has no game of its own, its results are its boards'"
    with open_event(e) as store:
        with pytest.raises(feed.FeedNotFound, match=said):
            feed.game(store, 1, 2)
        with pytest.raises(public.NotPublic, match=said):
            public.confirmed_record(store, 1, 2)
    from tournament.web.app import PHRASES

    text = feed.duplicate_table(1, 2)
    assert phrases.translate(text, "es", PHRASES, i18n.FOLDERS).startswith(
        "ronda 1, mesa 2: es una mesa de duplicado, sin partida propia")


def test_a_board_marked_twice_from_the_directors_page_says_who_in_spanish() -> None:
    """The director's page marks a board as "the director's page": a second mark's refusal, read in
    Spanish, named it in English ("por the director's page"); a person's name stays as typed."""
    from domrec import phrases
    from tournament import i18n
    from tournament.web import app

    def said(who: str) -> str:
        return phrases.translate(f"round 1 table 2 board 3 was already marked not played, 2026-12-07 03:00 by {who} — "
                                 f"ran out of time; nothing was changed", "es", app.PHRASES, i18n.FOLDERS)

    assert "desde la página del árbitro — ran out of time" in said("the director's page")
    assert "the director's page" not in said("the director's page")
    assert "por Ana — " in said("Ana")

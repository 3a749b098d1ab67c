"""``tournament clear --board`` and ``tournament result --board --not-played`` in a Swiss event of
duplicate teams give the note that the next round "was paired on team standings this correction
has changed" only when this change changed them, as a board's correction does
(test_director_board_correction_stale_note_once.py): the standings the round was paired on are
taken before the change.  Before, both gave the note whenever the standings differed from those
the round used, repeating an earlier correction's note for a change that moved nothing."""

from __future__ import annotations

from tests.tournament.test_director_board_correction_stale_note_once import NOTE, _correct, _ranked, swiss  # noqa: F401
from tests.tournament.test_duplicate_teams import run


def test_marking_a_board_or_taking_the_mark_back_that_moves_nothing_gives_no_note(swiss) -> None:  # noqa: F811
    event, client, director = swiss
    # A 0-0 board taken back: its match is scored on one board fewer (its victory points move): noted.
    standings = _ranked(event)
    out = run("clear", event, "--round", 1, "--table", 2, "--board", 2, "--reason", "entered twice")
    assert _ranked(event) != standings
    assert NOTE in out, out
    # Then marked not played, and the mark taken back: the board counts neither way, the standings
    # stay as that change left them: no note (the round's own standings still differ).
    standings = _ranked(event)
    out = run("result", event, "--round", 1, "--table", 2, "--board", 2, "--not-played", "--reason", "no time")
    assert _ranked(event) == standings
    assert NOTE not in out, out
    out = run("clear", event, "--round", 1, "--table", 2, "--board", 2, "--reason", "it was played after all")
    assert _ranked(event) == standings
    assert NOTE not in out, out


def test_taking_back_a_board_that_moves_the_standings_still_gives_it(swiss) -> None:  # noqa: F811
    event, client, director = swiss
    standings = _ranked(event)
    out = run("clear", event, "--round", 1, "--table", 1, "--board", 1, "--reason", "wrong table")
    assert _ranked(event) != standings
    assert NOTE in out, out


def test_the_directors_page_marks_and_takes_back_alike(swiss) -> None:  # noqa: F811
    """The director's page's *Mark the board not played* and *Take the board's result back*: the
    same notes as the command line's, judged against the standings before each change."""
    from tests.tournament.test_venue_duplicate import _auth

    event, client, director = swiss
    url = "/api/v1/tables/1/2/result"
    r = client.post(f"{url}/clear", headers=_auth(director), json={"board": 2, "reason": "entered twice"})
    assert r.status_code == 200, r.text
    assert any(line.startswith(NOTE) for line in r.json()["said"]), r.json()["said"]
    standings = _ranked(event)
    r = client.post(f"{url}/not-played", headers=_auth(director), json={"board": 2, "reason": "no time"})
    assert r.status_code == 200, r.text
    assert _ranked(event) == standings
    assert not any(line.startswith(NOTE) for line in r.json()["said"]), r.json()["said"]

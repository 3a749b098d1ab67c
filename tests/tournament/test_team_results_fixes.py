"""Fixes to results, pairing and corrections found testing team events from the docs: a typed
score no game could end with (both Competitive sides at 200 or more), the trail's reason of a
result replaced without one, the advice of ``amend`` at a duplicate-teams table."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_score_bounds import event, run

from domrec import games, phrases
from tournament import open_event
from tournament.event import audit
from tournament.event.results import enter_manual

BOTH_AT_200 = ("a game to 200 never ends with two sides at 200 or more (only one side scores in a hand, and the "
               "game stops after the hand in which a side reaches the target); nothing was stored")


def _stored(path: Path, table: int = 1):
    with open_event(path) as store:
        return store.result_for(next(t for t in store.tables(1) if t.number == table).id)


# --- a typed score no game ends with ---------------------------------------------------------------


@pytest.mark.parametrize("score", ["NS=200,EW=200", "NS=250,EW=230", "NS=336,EW=200"])
def test_both_competitive_sides_at_200_are_refused_entered_replaced_or_amended(tmp_path: Path, score: str) -> None:
    path = event(tmp_path, "competitive", "rotating", 4, 4)
    r = run("result", path, "--round", 1, "--table", 1, "--score", score, code=1)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and BOTH_AT_200 in lines[0], r.output
    assert _stored(path) is None
    run("result", path, "--round", 1, "--table", 1, "--score", "NS=210,EW=120")
    run("result", path, "--round", 1, "--table", 1, "--score", score, "--replace", code=1)
    r = run("amend", path, "--round", 1, "--table", 1, "--score", score, "--reason", "slip", code=1)
    assert BOTH_AT_200 in r.output
    assert _stored(path).scores == {"NS": 210, "EW": 120}


@pytest.mark.parametrize("score, winner", [("NS=200,EW=199", "NS"), ("NS=336,EW=0", "NS"), ("NS=150,EW=150", None),
                                           ("NS=0,EW=0", None), ("NS=120,EW=199", "EW")])
def test_a_competitive_game_finished_or_stopped_by_the_clock_is_taken(tmp_path: Path, score, winner) -> None:
    """One side at 200 or more (a finished game), or both below (stopped by the clock: a draw
    below the target stays possible)."""
    path = event(tmp_path, "competitive", "rotating", 4, 4)
    run("result", path, "--round", 1, "--table", 1, "--score", score)
    assert _stored(path).winner == winner


def test_celko_checked_after_every_peg_never_ends_with_two_sides_at_the_target(tmp_path: Path) -> None:
    path = event(tmp_path, "horse-race", "individual", 2, 4, variant="celko")
    r = run("result", path, "--round", 1, "--table", 1, "--score", "P1=210,P2=200", code=1)
    assert ("P1 210, P2 200: a game to 200 never ends with two sides at 200 or more (a peg scores one side, and "
            "the game stops at the peg that takes a side to the target); nothing was stored") in r.output
    run("result", path, "--round", 1, "--table", 1, "--score", "P1=210,P2=199")


@pytest.mark.parametrize("game, fmt, size, players, options, score", [
    ("horse-race", "individual", 2, 4, {}, "P1=70,P2=61"),  # standard: two players may pass 61 in one hand
    ("horse-race", "individual", 2, 4, {"variant": "celko", "win_check": "end_of_hand"}, "P1=250,P2=240"),
    ("domino-roads", "rotating", 4, 8, {}, "NS=2100,EW=2050"),
    ("castle-rock", "individual", 3, 6, {}, "P1=60,P2=55,P3=-3"),
    ("broadway", "rotating", 4, 8, {}, "NS=300,EW=300"),  # no target
])
def test_games_where_several_sides_score_a_hand_keep_two_sides_past_the_target(
        tmp_path: Path, game, fmt, size, players, options, score) -> None:
    path = event(tmp_path, game, fmt, size, players, **options)
    run("result", path, "--round", 1, "--table", 1, "--score", score)


def test_castle_rock_players_level_past_50_are_not_a_draw(tmp_path: Path) -> None:
    """Two players level at the top past 50: the youngest hand won, which a typed score cannot
    show; below 50 (a game stopped by the clock) they are a draw."""
    path = event(tmp_path, "castle-rock", "individual", 2, 4)
    r = run("result", path, "--round", 1, "--table", 1, "--score", "P1=60,P2=60", code=1)
    assert ("P1 and P2 are level on 60 at the top of table 1: say who won by the game's rules with --winner P1 "
            "(or another of them); nothing was stored") in r.output
    run("result", path, "--round", 1, "--table", 1, "--score", "P1=60,P2=60", "--winner", "P2")
    assert _stored(path).winner == "P2"
    run("result", path, "--round", 1, "--table", 2, "--score", "P1=40,P2=40")
    assert _stored(path, 2).winner is None


def test_the_rule_is_the_engines_and_reads_in_spanish() -> None:
    span = games.engine("competitive").final_scores("standard", {})
    assert span.end_refusal({"NS": 200, "EW": 199}) is None and span.end_refusal({"NS": 199, "EW": 199}) is None
    said = span.end_refusal({"NS": 200, "EW": 200})
    assert said is not None
    es = phrases.translate(said, "es")
    assert es == ("NS 200, EW 200: una partida a 200 nunca acaba con dos lados en 200 o más (en cada mano anota un "
                  "solo lado, y la partida se acaba tras la mano en que un lado llega a la meta)")
    roads = games.engine("domino-roads").final_scores("standard", {}, 4)
    assert roads.end_refusal({"NS": 2100, "EW": 2050}) is None


def test_the_directors_page_refuses_it_in_spanish(tmp_path: Path) -> None:
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from tests.tournament.test_venue import _auth, _event, _key, _server

    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        r = client.post("/api/v1/tables/1/1/result", json={"scores": {"NS": 210, "EW": 210}},
                        headers={**_auth(director), "Accept-Language": "es"})
        assert r.status_code == 422, r.text
        assert r.json()["error"].startswith("NS 210, EW 210: una partida a 200 nunca acaba con dos lados en 200 o "
                                            "más"), r.text
    finally:
        server.close()


# --- the trail's reason of a result replaced without one ------------------------------------------


def test_result_replace_without_a_reason_says_what_replaced_it(tmp_path: Path) -> None:
    path = event(tmp_path, "competitive", "rotating", 4, 4)
    run("result", path, "--round", 1, "--table", 1, "--score", "NS=210,EW=120")
    run("result", path, "--round", 1, "--table", 1, "--score", "NS=120,EW=210", "--replace")
    run("result", path, "--round", 1, "--table", 1, "--forfeit", "EW", "--replace")
    with open_event(path) as store:
        first, second = audit.history(store)
    assert first.reason == "replaced by a typed score" and second.reason == "replaced by a forfeit"
    r = run("history", path)
    assert "replaced by table" not in r.output and "— replaced by a typed score" in r.output


def test_result_replace_with_a_reason_keeps_it(tmp_path: Path) -> None:
    path = event(tmp_path, "competitive", "rotating", 4, 4)
    with open_event(path) as store:
        enter_manual(store, 1, {"NS": 210, "EW": 120}, round_no=1)
    run("result", path, "--round", 1, "--table", 1, "--forfeit", "EW", "--replace", "--reason", "EW left")
    with open_event(path) as store:
        [change] = audit.history(store)
    assert change.reason == "EW left"


# --- amend at a duplicate-teams table --------------------------------------------------------------


def test_amend_at_a_duplicate_teams_table_points_to_its_boards(tmp_path: Path) -> None:
    from tests.tournament.test_duplicate_teams import new_event

    path = tmp_path / "dt.db"
    new_event(path, 2)
    run("boards", path, "--boards", 2, "--seed", 38)
    run("pair", path)
    run("result", path, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    r = run("amend", path, "--round", 1, "--table", 1, "--score", "NS=210,EW=0", "--reason", "slip", code=1)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1, r.output
    assert ("round 1 table 1 is a duplicate table, whose results are its boards': correct a board by entering it "
            "again, tournament result EVENT --round 1 --table 1 --board B --score NS=..,EW=.. --replace; nothing "
            "was changed") in lines[0]
    assert "enter it with `tournament result`" not in r.output

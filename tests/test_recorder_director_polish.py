"""A recorder's prompt, the venue director's page and a team's stored forfeit, each told as it is:
the prompt after a ``left`` line that closed a hand names that hand's end line (an ``end`` typed
there is its claim), a table whose result the director entered over a game in play says so on the
director's page, and the forfeit the pairing stores for a team a pair short is the pairing's in
``tournament history`` and is named when ``tournament swap`` moves it.
"""

from __future__ import annotations

import pytest

from tests.test_recorder_fixes import COMPETITIVE, feed, table


# --- the recorder's prompt after a closing left line -----------------------------------------

def test_after_a_closing_left_line_the_prompt_names_that_hands_end_line():
    """Hand 2 closed by its left line: an end line typed next is hand 2's claim (a wrong one is
    refused naming hand 2), yet the prompt read ``hand 3 (deal lines, or the first move)>``.  It
    names hand 2's end line first, keeps it through a refused claim and a look at the scores, and
    is hand 3's alone once the claim is taken (or anything else is typed)."""
    r, said, refused = table("competitive", "NESW")
    feed(r, *COMPETITIVE, "left N 4-4; S 1-0")
    assert not refused, refused
    both = "hand 2's end line, or hand 3 (deal lines, or the first move)> "
    assert r.prompt == both
    feed(r, "end out NS 0 EW 15")
    assert refused == ["end: EW scores 13 for hand 2, not 15 [hand scoring]"]
    assert r.prompt == both
    feed(r, "scores", "")
    assert r.prompt == both
    feed(r, "end out NS 0 EW 13")
    assert said[-1] == "hand 2: its end line agrees with the hand"
    assert r.prompt == "hand 3 (deal lines, or the first move)> "


def test_a_hand_line_after_the_closing_left_line_gives_the_next_hands_prompt():
    """``hand 3`` typed after the left line: the end line that follows is hand 3's score sheet,
    and the prompt says hand 3 alone."""
    r, said, refused = table("competitive", "NESW")
    feed(r, *COMPETITIVE, "left N 4-4; S 1-0", "hand 3")
    assert not refused, refused
    assert r.prompt == "hand 3 (deal lines, or the first move)> "
    feed(r, "end out EW 5")
    assert said[-1] == "hand 3: NS 0, EW 5 (score sheet); totals NS 0, EW 50"


def test_a_hand_confirmed_with_y_gives_the_next_hands_prompt_alone():
    """A hand over with its deal, confirmed with y: an end line next is the next hand's score
    sheet (docs/recording.md, "Score-sheet hands"), and the prompt names the next hand alone."""
    r, said, refused = table("competitive", "NESW")
    feed(r, *COMPETITIVE[:13])
    assert r.prompt == "confirm (y/n)> "
    feed(r, "y")
    assert not refused, refused
    assert r.prompt == "hand 2 (deal lines, or the first move)> "


# --- the director's page: a result the director entered over a game in play ---------------------

def _served_horse_race(tmp_path):
    """A horse-race event (one table of three) served in process, table 1 in play-by-play mode with
    two hands posted from its phone: (path, server, client, the table's key, the director's key)."""
    pytest.importorskip("starlette.testclient")
    from tests.tournament.test_venue_live_result import _two_hands
    from tests.tournament.test_venue import _event, _key, _server
    from starlette.testclient import TestClient

    path = _event(tmp_path, "horse-race")
    server = _server(path)
    client = TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    token, director = links["tables"][0]["token"], _key(links["director"])
    _two_hands(path, client, token)
    return path, server, client, token, director


def test_the_directors_overview_says_a_result_entered_over_a_game_in_play_is_the_directors(tmp_path):
    """The director entered table 1's result over the game its phone was recording: the director's
    page showed "confirmed · 2 hands" (or "hand 3, move 4"), the phone's progress.  The row's progress is now the
    words the table's page says it in ("result entered by the director"), marked ``entered``."""
    from tests.tournament.test_venue import _auth

    path, server, client, token, director = _served_horse_race(tmp_path)
    try:
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["status"] == "playing" and row["reached"] == {"hands": 2} and not row["entered"]
        r = client.post("/api/v1/tables/1/1/result", headers=_auth(director),
                        json={"scores": {"P1": 61, "P2": 3, "P3": 2}, "reason": "the game stopped at the break"})
        assert r.status_code == 200, r.json()
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["status"] == "confirmed" and row["entered"] is True
        assert row["progress"] == "result entered by the director" and row["reached"] is None
    finally:
        server.close()


def test_the_directors_overview_keeps_the_progress_of_a_game_confirmed_at_the_table(tmp_path):
    """A Competitive table's game finished and confirmed by both sides at its phone: its row still
    says how far it went (its hands), not the director's words."""
    pytest.importorskip("starlette.testclient")
    from starlette.testclient import TestClient
    from tests.tournament.helpers import hand_by_hand
    from tests.tournament.test_venue import _auth, _event, _game_of, _key, _requests, _server
    from tests.tournament.test_venue_live_result import _hands

    path = _event(tmp_path, "competitive")
    server = _server(path)
    try:
        client = TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        token, director = links["tables"][0]["token"], _key(links["director"])
        state = _hands(client, token, hand_by_hand(_requests(_game_of(path, 1, 1, seed=5))), 0)
        for side in ("NS", "EW"):
            r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                            json={"rev": state["rev"], "side": side})
            assert r.status_code == 200, r.json()
            state = r.json()
        assert state["status"] == "confirmed" and state["result"]["via"] == "table"
        row = client.get("/api/v1/director", headers=_auth(director)).json()["tables"][0]
        assert row["status"] == "confirmed" and row["entered"] is False
        assert row["reached"] == {"hands": len(state["game"]["hands"])} and row["progress"].endswith("hands")
    finally:
        server.close()


# --- the forfeit the pairing stores for a team a pair short -------------------------------------

def _team_short_event(tmp_path):
    from tests.tournament.test_desk_team_short import _event, _forfeits

    path = _event(tmp_path)
    [(number, (short, seated))] = _forfeits(path).items()
    return path, number, short, seated


def test_history_says_the_pairings_forfeit_was_entered_by_the_pairing(tmp_path):
    """``history --entered`` said the forfeit the pairing stores for a team a pair short was
    "entered by root" (the login name of whoever paired the round), as if typed at the desk."""
    from tests.tournament.test_team_stages import cli

    path, number, _, _ = _team_short_event(tmp_path)
    entered = cli("history", path, "--entered").splitlines()
    line = next(x for x in entered if f"round 2 table {number} " in x)
    assert line.endswith(f"round 2 table {number}  entered by the pairing (forfeit)"), line
    assert all("entered by the pairing" not in x for x in entered if "round 1 " in x)  # (the desk's own results)


def test_swap_says_the_forfeit_moved_with_the_withdrawn_pair_and_the_trail_names_the_swaps_author(tmp_path):
    """``swap`` of the short team's two pairs moves the pairing's forfeit to the other table and
    printed only the new seats; it now says the forfeit moved, and from where.  The forfeit stored
    again is still the pairing's; the trail's line for the one taken back names the swap's author
    (``--by``: the login name was written whatever ``--by`` said)."""
    from tests.tournament.test_desk_team_short import _forfeits
    from tests.tournament.test_team_stages import cli

    path, number, _, _ = _team_short_event(tmp_path)
    out = cli("swap", path, "A1 & A2", "A3 & A4", "--by", "Lee")
    [(moved, (short, _))] = _forfeits(path).items()
    assert moved != number
    [side] = short
    other = "EW" if side == "NS" else "NS"
    said = [x for x in out.splitlines() if "forfeit" in x]
    assert len(said) == 1 and said[0].startswith(f"round 2 table {moved}: "), out
    assert said[0].endswith(f"; winner {other} (forfeit: {side} did not play) — the forfeit the pairing stored for a "
                            f"team a pair short, moved here from table {number} with its withdrawn pair A1 & A2"), out
    entered = cli("history", path, "--entered")
    assert f"round 2 table {moved}  entered by the pairing (forfeit)" in entered
    assert f"round 2 table {number}  entered by the pairing (forfeit)" in entered  # (the first, in the trail)
    trail = " ".join(cli("history", path).split())
    assert f"round 2 table {number} by Lee: " in trail and "follows its withdrawn pair" in trail, trail


def test_swap_says_the_forfeit_left_at_its_table_is_won_now_by_another_pair(tmp_path):
    """The winning team's two pairs change places: the forfeit stays at its table, won now by the
    pair seated there, and ``swap`` says so."""
    from tests.tournament.test_team_stages import cli

    path, number, short, seated = _team_short_event(tmp_path)
    winners = sorted({"B1", "B2", "B3", "B4"} & seated)
    pair, other = " & ".join(winners), ("B3 & B4" if winners[0] == "B1" else "B1 & B2")
    out = cli("swap", path, pair, other)
    said = [x for x in out.splitlines() if "forfeit" in x]
    assert len(said) == 1 and said[0].startswith(f"round 2 table {number}: "), out
    assert said[0].endswith(f"the forfeit the pairing stored for a team a pair short, left here with its withdrawn "
                            f"pair A1 & A2: won now by {other}"), out

"""The director's page says how a team match ended once its tables are all in ("Team 01 wins the
match", "match drawn"), in the words ``tournament tables`` prints them (one function:
:func:`tournament.event.teams.match_outcome`), in English and Spanish; nothing while a table is
still out."""

from __future__ import annotations

import pytest

from tournament import open_event
from tournament.event import teams

from tests.tournament.test_teams import run, write_csv
from tests.tournament.test_venue import _auth, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def test_the_directors_page_says_who_won_the_match(tmp_path) -> None:
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--seed", "5")
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", 2))
    run("pair", event)
    server = _server(event)
    try:
        match = _director_match(server)

        run("result", event, "--round", 1, "--table", 1, "--score", "NS=200,EW=100")
        assert match()["outcome"] is None and not match()["finished"]  # a table still out: nothing said
        seen = set()
        for k, score in enumerate(("NS=200,EW=90", "NS=90,EW=200")):  # one of the two draws the match
            if k:
                run("amend", event, "--round", 1, "--table", 2, "--score", score, "--reason", "the other way")
            else:
                run("result", event, "--round", 1, "--table", 2, "--score", score)
            m = match()
            assert m["finished"]
            drawn = m["home_games"] == m["away_games"]
            winner = m["home"] if m["home_games"] > m["away_games"] else m["away"]
            words = "match drawn" if drawn else f"{winner} wins the match"
            assert m["outcome"] == words
            assert match("es")["outcome"] == ("encuentro empatado" if drawn else f"{winner} gana el encuentro")
            with open_event(event) as store:
                (line,) = teams.match_lines(store, 1)
            assert line.endswith(f"({words})")  # what `tournament tables` prints
            assert f"({words})" in run("tables", event)
            seen.add(drawn)
        assert seen == {True, False}
    finally:
        server.close()


def test_the_directors_script_shows_the_outcome() -> None:
    from pathlib import Path

    import tournament.web

    script = (Path(tournament.web.__file__).parent / "static" / "director.js").read_text(encoding="utf-8")
    assert "m.outcome" in script and "match-outcome" in script



def test_a_duplicate_teams_match_names_its_winner_on_the_command_line_and_the_directors_page(tmp_path) -> None:
    """Duplicate teams: once both tables have played every board, the match is won by the team
    with more IMPs, and says so as the other team formats do, ``tables`` and ``standings`` and the
    director's page alike, in English and Spanish; level IMPs, ``match drawn``; ``(finished)``
    alone, naming nobody, no more."""
    from tournament.event import duplicate_teams

    from tests.tournament.test_duplicate_teams import new_event
    from tests.tournament.test_duplicate_teams import run as run_dup

    event = tmp_path / "dup.db"
    new_event(event, 2)
    run_dup("boards", event, "--boards", 2, "--seed", 1)
    run_dup("pair", event)
    server = _server(event)
    try:
        match = _director_match(server)

        def board(table: int, number: int, ns: int, ew: int, *extra: str) -> None:
            run_dup("result", event, "--round", 1, "--table", table, "--board", number, "--score",
                    f"NS={ns},EW={ew}", *extra)

        board(1, 1, 40, 0)
        board(2, 1, 0, 0)
        board(1, 2, 0, 0)
        assert match()["outcome"] is None and not match()["finished"]  # a board still out: nothing said
        board(2, 2, 0, 0)
        m = match()
        home = m["home"]  # N-S at the first table: 40 there, nothing back at the second
        assert m["finished"] and m["home_games"] > m["away_games"]
        assert m["outcome"] == f"{home} wins the match"
        assert match("es")["outcome"] == f"{home} gana el encuentro"
        with open_event(event) as store:
            (line,) = duplicate_teams.match_lines(store, 1)
            (spanish,) = duplicate_teams.match_lines(store, 1, "es")
        assert line.endswith(f"({home} wins the match)") and "(finished)" not in line
        assert spanish.endswith(f"({home} gana el encuentro)")
        for command in ("tables", "standings"):
            shown = run_dup(command, event)
            assert f"({home} wins the match)" in shown and "(finished)" not in shown
        board(2, 1, 40, 0, "--replace")  # the other team N-S at the second table makes the same 40: level
        assert match()["outcome"] == "match drawn" and match("es")["outcome"] == "encuentro empatado"
        assert "(match drawn)" in run_dup("tables", event)
    finally:
        server.close()


def test_the_directors_script_shows_a_duplicate_matchs_outcome() -> None:
    """The director's script shows ``outcome`` for a match scored on the boards too."""
    from pathlib import Path

    import tournament.web

    script = (Path(tournament.web.__file__).parent / "static" / "director.js").read_text(encoding="utf-8")
    boards_in = script[script.index("m.boards_in ?"):script.index('t("%(done)s of %(count)s boards in"')]
    assert "m.outcome" in boards_in and "match-outcome" in boards_in


def _director_match(server):
    """The director's page's one team match, as its API gives it in a language (``match("es")``)."""
    client = starlette_testclient.TestClient(server.asgi)
    director = _auth(_key(server.call(server.venue.links, "http://testserver")["director"]))

    def match(lang: str = "en"):
        doc = client.get("/api/v1/director", headers={**director, "Accept-Language": lang}).json()
        (m,) = doc["matches"]
        return m

    return match

"""A typed result on the director's page (``POST /api/v1/tables/R/T/result``) that leaves players
level at the top of a multi-player table: who won is the game's own rule (who went out first, the
youngest…), which typed scores cannot show, so the refusal asks the director, in words that name no
command-line flag (``tournament result --winner`` is the command line's), and carries the level
seats (``level``), which the page offers as its choice; the result sent again with ``winner`` is
stored with that winner, entered or amended (a winner who scored less is refused, in words without
the flag too).  Every game played by individuals at tables of three
or more; two sides level (partnerships, or two players) are a draw and are stored as one.  The
command line still says ``--winner``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tournament.test_director_words import _english_words
from tests.tournament.test_score_bounds import event, run
from tests.tournament.test_venue import _auth, _key, _server

from tournament import open_event

starlette_testclient = pytest.importorskip("starlette.testclient")

#: (game, format, table size, players, typed scores, the seats level at the top, their score)
LEVEL = [
    ("horse-race", "individual", 3, 6, {"P1": 61, "P2": 61, "P3": 0}, ["P1", "P2"], 61),
    ("horse-race", "individual", 4, 8, {"P1": 61, "P2": 61, "P3": 10, "P4": 0}, ["P1", "P2"], 61),
    ("castle-rock", "individual", 3, 6, {"P1": 60, "P2": 60, "P3": -3}, ["P1", "P2"], 60),
    ("castle-rock", "individual", 4, 8, {"P1": 60, "P2": 20, "P3": 60, "P4": 0}, ["P1", "P3"], 60),
    ("domino-roads", "individual", 3, 6, {"P1": 900, "P2": 900, "P3": 900}, ["P1", "P2", "P3"], 900),
]


def _desk(path: Path):
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    return server, client, _key(server.call(server.venue.links, "http://testserver")["director"])


def _stored(path: Path, table: int):
    with open_event(path) as store:
        return store.result_for(next(t for t in store.tables(1) if t.number == table).id)


@pytest.mark.parametrize("game, fmt, size, players, scores, level, best", LEVEL)
def test_a_level_top_is_asked_without_a_flag_and_the_winner_named_is_stored(
        tmp_path: Path, game, fmt, size, players, scores, level, best) -> None:
    path = event(tmp_path, game, fmt, size, players)
    server, client, director = _desk(path)
    try:
        def post(lang="en", **body):
            return client.post("/api/v1/tables/1/2/result", json=body,
                               headers={**_auth(director), "Accept-Language": lang})

        r = post(scores=scores)
        assert r.status_code == 422, r.text
        said = r.json()
        listed = f"{', '.join(level[:-1])} and {level[-1]}"
        assert said["error"] == (f"{listed} are level on {best} at the top of table 2: say who won by the "
                                 f"game's rules; nothing was stored")
        assert "--" not in said["error"] and "winner" not in said["error"]
        assert said["level"] == level  # what the page offers to choose from
        r = post("es", scores=scores)
        assert r.status_code == 422 and r.json()["level"] == level
        es = r.json()["error"]
        assert es == (f"{listed.replace(' and ', ' y ')} empatan a {best} en cabeza de la mesa 2: diga quién ganó "
                      f"según las reglas del juego; no se guardó nada"), es
        assert not _english_words(es)
        assert _stored(path, 2) is None

        # The same refused write sent again (its id): the same refusal, the level seats with it.
        for _ in range(2):
            r = post(scores=scores, cid="level-top-once-1")
            assert r.status_code == 422 and r.json()["level"] == level, r.text

        # Named: stored with that winner (the last of the level seats, not the first).
        r = post(scores=scores, winner=level[-1])
        assert r.status_code == 200, r.text
        assert r.json()["said"][0].endswith(f"winner {level[-1]} (manual entry, unverified) — stored")
        result = _stored(path, 2)
        assert (result.scores, result.winner) == (scores, level[-1])

        # Amended to scores level again: asked again (no reason asked first: the level is the
        # refusal), then amended with the winner named and the reason.
        r = post(scores=scores, reason="the sheet again")
        assert r.status_code == 422 and r.json()["level"] == level, r.text
        assert "--" not in r.json()["error"]
        r = post(scores=scores, winner=level[0], reason="they went out first")
        assert r.status_code == 200, r.text
        result = _stored(path, 2)
        assert (result.scores, result.winner) == (scores, level[0])
        # A winner who is not among the level seats is still refused; nothing changes.
        # (said without the command line's flag too, in English and Spanish)
        for loser in (s for s in scores if s not in level):
            r = post(scores=scores, winner=loser, reason="slip")
            assert r.status_code == 422 and "level" not in r.json(), r.text
            assert r.json()["error"] == (f"the winner named, {loser}, contradicts the scores: {listed} scored more "
                                         f"({best} to {scores[loser]}); name a winner only when the highest scores "
                                         f"are level")
            es = post("es", scores=scores, winner=loser, reason="slip").json()["error"]
            assert es.startswith(f"el ganador indicado, {loser}, contradice los tanteos: "
                                 f"{listed.replace(' and ', ' y ')} anotaron más") and not _english_words(es), es
            assert _stored(path, 2).winner == level[0]
    finally:
        server.close()


@pytest.mark.parametrize("game, fmt, size, players, scores", [
    ("competitive", "rotating", 4, 8, {"NS": 150, "EW": 150}),  # (a game stopped by the clock: never both at 200)
    ("domino-roads", "rotating", 4, 8, {"NS": 1000, "EW": 1000}),
    ("broadway", "rotating", 4, 8, {"NS": 200, "EW": 200}),
    ("horse-race", "individual", 2, 4, {"P1": 61, "P2": 61}),
])
def test_two_sides_level_are_a_draw_and_nothing_is_asked(tmp_path: Path, game, fmt, size, players, scores) -> None:
    path = event(tmp_path, game, fmt, size, players)
    server, client, director = _desk(path)
    try:
        r = client.post("/api/v1/tables/1/2/result", json={"scores": scores}, headers=_auth(director))
        assert r.status_code == 200, r.text
        assert "a draw (manual entry, unverified) — stored" in r.json()["said"][0]
        result = _stored(path, 2)
        assert (result.scores, result.winner) == (scores, None)
    finally:
        server.close()


def test_the_command_line_still_names_its_flag(tmp_path: Path) -> None:
    path = event(tmp_path, "horse-race", "individual", 3, 6)
    r = run("result", path, "--round", 1, "--table", 2, "--score", "P1=61,P2=61,P3=0", code=1)
    assert ("P1 and P2 are level on 61 at the top of table 2: say who won by the game's rules with --winner P1 "
            "(or another of them); nothing was stored") in r.output
    r = run("result", path, "--round", 1, "--table", 2, "--score", "P1=61,P2=61,P3=0", "--winner", "P3", code=1)
    assert "--winner P3 contradicts the scores: P1 and P2 scored more (61 to 0); give --winner only when" in r.output
    run("result", path, "--round", 1, "--table", 2, "--score", "P1=61,P2=61,P3=0", "--winner", "P2")
    assert _stored(path, 2).winner == "P2"

"""A typed score above what the game can give is refused everywhere scores are typed, in one line
that names the side and the bound, from the bound the game's engine states (``final_scores``,
tests/test_score_bounds.py): ``tournament result --score`` and ``amend --score`` (exit 2, as the
refusal of a score below zero), a duplicate board's score (one hand), the venue's director page
and API in English and Spanish, and a table typing its hands' scores (score-sheet mode)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.cli import app
from tournament.errors import ResultRefused, UnusableInput

runner = CliRunner()

COMPETITIVE_SLIP = "NS 2000: a game to 200 cannot end above 336 (199 + 137, the most one hand can score)"


def run(*args, code: int | None = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    if code is not None:
        assert result.exit_code == code, result.output
    return result


def event(tmp_path: Path, game: str, fmt: str, size: int, players: int, **options) -> Path:
    path = tmp_path / f"{game}.db"
    store = create_event(path, make_settings("E", game, fmt, size, seed=1, variant=options.pop("variant", None),
                                             options=options or None))
    add_players(store, [f"P{i}" for i in range(1, players + 1)])
    pair_next_round(store)
    store.close()
    return path


def test_a_slip_of_2000_for_200_is_refused_at_the_desk_in_one_line(tmp_path: Path) -> None:
    path = event(tmp_path, "competitive", "rotating", 4, 4)
    r = run("result", path, "--round", 1, "--table", 1, "--score", "NS=2000,EW=150", code=2)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and COMPETITIVE_SLIP in lines[0] and "nothing was stored" in lines[0], r.output
    run("result", path, "--round", 1, "--table", 1, "--score", "NS=336,EW=150")  # the most a game can end with
    r = run("amend", path, "--round", 1, "--table", 1, "--score", "NS=200,EW=3520", "--reason", "slip", code=2)
    assert "EW 3520: a game to 200 cannot end above 336" in r.output
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id).scores == {"NS": 336, "EW": 150}


@pytest.mark.parametrize("game, fmt, size, players, options, scores, words", [
    ("horse-race", "individual", 2, 2, {}, {"P1": 610, "P2": 40},
     "P1 610: a game to 61 cannot end above 94 (60 + 34, the most a side scores at once: a peg, or a hand's "
     "end count)"),
    ("horse-race", "individual", 2, 2, {"variant": "celko"}, {"P1": 2000, "P2": -40},
     "P1 2000: a game to 200 cannot end above 334 (199 + 135, the most one peg can score)"),
    ("castle-rock", "individual", 3, 3, {"set": "double-nine"}, {"P1": 530, "P2": 12, "P3": -3},
     "P1 530: a game to 50 cannot end above 104 (49 + 55, the most one hand can score)"),
    ("domino-roads", "individual", 3, 3, {}, {"P1": 10000, "P2": 400, "P3": 300},
     "P1 10000: a game to 1000 cannot end above 1820 (999 + 821, the most one hand can score)"),
])
def test_each_game_refuses_a_total_past_its_bound(tmp_path, game, fmt, size, players, options, scores, words):
    path = event(tmp_path, game, fmt, size, players, **options)
    with open_event(path) as store:
        with pytest.raises(UnusableInput) as caught:
            enter_manual(store, 1, scores)
        assert str(caught.value) == f"{words}; nothing was stored"
        assert store.result_for(store.tables(1)[0].id) is None


def test_a_tie_sent_on_past_the_target_is_taken(tmp_path: Path) -> None:
    """Domino Roads, three players: P2 on 1500 means a tie at the top may have sent play on, so
    P1's 2300 (past 999 + 821) is taken: 1500 + 821 bounds it."""
    path = event(tmp_path, "domino-roads", "individual", 3, 3)
    with open_event(path) as store:
        assert enter_manual(store, 1, {"P1": 2300, "P2": 1500, "P3": 200}).status == "stored"


def test_broadway_has_no_game_bound_but_a_board_has_its_hands(tmp_path: Path) -> None:
    """Broadway's sudden death may go on, so a game's total has no bound above."""
    path = event(tmp_path, "broadway", "rotating", 4, 4)
    with open_event(path) as store:
        assert enter_manual(store, 1, {"NS": 2900, "EW": 2895}).status == "stored"


def test_a_duplicate_board_is_one_hand(tmp_path: Path) -> None:
    from tests.tournament.test_duplicate_event import new_event

    path = tmp_path / "dup.db"
    new_event(path, 6, "mitchell")
    run("boards", path, "--boards", 6, "--seed", 3)
    doc = json.loads(run("pair", path, "--json").output)
    row = doc["rows"][0]
    board = row["boards"][0]
    r = run("result", path, "--round", 1, "--table", row["table"], "--board", board, "--score", "NS=1680,EW=0",
            code=2)
    assert ("NS 1680: one hand cannot score above 137 (a domino scores at most the pips of the other three "
            "hands); nothing was stored") in r.output
    run("result", path, "--round", 1, "--table", row["table"], "--board", board, "--score", "NS=137,EW=0")


# --- the venue: the director's page and API, and a table typing its hands' scores -----------------

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.mark.parametrize("lang, words", [
    ("en", COMPETITIVE_SLIP + "; nothing was stored"),
    ("es", "NS 2000: una partida a 200 no puede acabar por encima de 336 (199 + 137, lo más que puede anotar "
           "una mano); no se guardó nada")])
def test_the_directors_page_refuses_a_slip_in_the_pages_language(tmp_path: Path, lang, words) -> None:
    from tests.tournament.test_venue import _auth, _event, _key, _server

    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        r = client.post("/api/v1/tables/1/1/result", json={"scores": {"NS": 2000, "EW": 150}},
                        headers={**_auth(director), "Accept-Language": lang})
        assert r.status_code == 422 and r.json()["error"] == words, r.json()
        ok = client.post("/api/v1/tables/1/1/result", json={"scores": {"NS": 210, "EW": 150}}, headers=_auth(director))
        assert ok.status_code == 200
    finally:
        server.close()


@pytest.mark.parametrize("lang, words", [
    ("en", "P1 1680: one hand cannot score above 790 (28 tiles set, each pegging at most 27, and 34 for the "
           "hand's end)"),
    ("es", "P1 1680: una mano no puede anotar más de 790 (28 fichas colocadas, cada una anotando como mucho 27, "
           "y 34 por el final de la mano)")])
def test_a_score_sheet_table_is_refused_a_hand_past_its_bound(tmp_path: Path, lang, words) -> None:
    from tests.tournament.test_venue import _auth, _event, _server

    path = _event(tmp_path, "horse-race")
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
        state = client.post("/api/v1/tables/1/1/mode", headers=_auth(token),
                            json={"rev": state["rev"], "mode": "sheet"}).json()
        seats = state["sides"]
        text = f"hand 1\nend out {seats[0]} 1680 " + " ".join(f"{s} 0" for s in seats[1:])
        r = client.post("/api/v1/tables/1/1/dgn", headers={**_auth(token), "Accept-Language": lang},
                        json={"rev": state["rev"], "text": text})
        assert r.status_code == 422 and r.json()["error"] == words.replace("P1", seats[0]), r.json()
        text = f"hand 1\nend out {seats[0]} 16 " + " ".join(f"{s} 0" for s in seats[1:])
        assert client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                           json={"rev": state["rev"], "text": text}).status_code == 200
    finally:
        server.close()


# --- the event's forfeit score: a game won against nothing, within the game's bound ---------------


@pytest.mark.parametrize("game, fmt, size, options, most, words", [
    ("competitive", "pairs", 4, {}, 336, "a game to 200 cannot end above 336 (199 + 137, the most one hand can score)"),
    ("horse-race", "individual", 2, {}, 94, "a game to 61 cannot end above 94 (60 + 34, the most a side scores at "
                                           "once: a peg, or a hand's end count)"),
    ("horse-race", "individual", 2, {"variant": "celko"}, 334,
     "a game to 200 cannot end above 334 (199 + 135, the most one peg can score)"),
    ("castle-rock", "individual", 3, {"set": "double-nine"}, 104,
     "a game to 50 cannot end above 104 (49 + 55, the most one hand can score)"),
    ("domino-roads", "individual", 3, {}, 1820,
     "a game to 1000 cannot end above 1820 (999 + 821, the most one hand can score)"),
    ("domino-roads", "pairs", 4, {}, 2996,
     "a game to 2000 cannot end above 2996 (1999 + 997, the most one hand can score)"),
])
def test_a_forfeit_score_no_game_can_end_with_is_refused_at_new(tmp_path, game, fmt, size, options, most, words):
    """``tournament new --forfeit-score``: one past the most a side can end a game with while the
    others end on 0 is refused in one line with the bound in words (exit 2, no file); the most
    itself is taken."""
    options = dict(options)
    variant = options.pop("variant", None)
    rule = [a for k, v in options.items() for a in ("--option", f"{k}={v}")] + (
        ["--variant", variant] if variant else [])
    base = ["new", tmp_path / "e.db", "--name", "E", "--game", game, "--format", fmt, "--table-size", size, *rule]
    r = run(*base, "--forfeit-score", most + 1, code=2)
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert len(lines) == 1 and (f"a forfeit score of {most + 1} is more than a game of {game} can end with against "
                                f"nothing: {words}; give --forfeit-score {most} or less") in lines[0], r.output
    assert not (tmp_path / "e.db").exists()
    run(*base, "--forfeit-score", most)
    with open_event(tmp_path / "e.db") as store:
        assert store.settings.forfeit_score == most


def test_a_forfeit_score_checks_the_bound_of_the_events_own_rules() -> None:
    """The bound moves with the rules: Horse Race to 61 checked after every hand ends on 850 at
    the most (60 + 790), so 95 is taken there; Broadway's engine bounds no game's total (no
    target: seven hands, then sudden death), so only the limit of 1,000,000 holds."""
    from tournament.errors import SettingsError

    with pytest.raises(SettingsError, match="cannot end above 94"):
        make_settings("x", "horse-race", "individual", 2, forfeit_score=95)
    assert make_settings("x", "horse-race", "individual", 2, forfeit_score=95,
                         options={"win_check": "end_of_hand"}).forfeit_score == 95
    with pytest.raises(SettingsError, match="cannot end above 850"):
        make_settings("x", "horse-race", "individual", 2, forfeit_score=851, options={"win_check": "end_of_hand"})
    assert make_settings("x", "broadway", "pairs", forfeit_score=100_000).forfeit_score == 100_000


def test_a_presets_forfeit_score_past_the_games_bound_is_refused_by_name() -> None:
    """A preset's target is its forfeit score; a game whose own target is lower (Castle Rock's 50)
    cannot end on 300, so the line names the preset and asks for a forfeit score."""
    from tournament.errors import SettingsError

    with pytest.raises(SettingsError) as caught:
        make_settings("x", "castle-rock", "individual", 4, preset="fid-teams", tiebreaks=("placement",))
    assert str(caught.value) == (
        "the preset fid-teams scores a forfeit 300 (its games' target), more than a game of castle-rock can end "
        "with against nothing: a game to 50 cannot end above 77 (49 + 28, the most one hand can score); give "
        "--forfeit-score 77 or less")
    assert make_settings("x", "castle-rock", "individual", 4, preset="fid-teams", tiebreaks=("placement",),
                         forfeit_score=50).forfeit_score == 50


# --- every refusal of a typed score in Spanish on the director's page ------------------------------


@pytest.mark.parametrize("body, words", [
    ({"scores": {"NS": -5, "EW": 150}},
     "el tanteo de NS, -5, es menor que cero, y ninguna partida de competitivo puede acabar así (una mano solo "
     "suma puntos a un lado); no se guardó nada"),
    ({"scores": {"NS": 2_000_000, "EW": 1}},
     "el tanteo de NS, 2000000, pasa del límite de 1.000.000 puntos por lado; no se guardó nada"),
    ({"scores": {"NS": 100}},
     "la mesa 1 tiene los lados NS, EW; hace falta un tanteo para cada uno de ellos, y nada más (dados: NS)"),
    ({"scores": {"NS": 100, "EW": 150}, "winner": "XX"}, "XX no es un lado de la mesa 1 (NS, EW)"),
    ({"scores": {"NS": 100, "EW": 150}, "winner": "NS"},
     "el ganador indicado, NS, contradice los tanteos: EW anotó más (150 a 100); indique un ganador solo cuando "
     "los tanteos más altos están empatados"),  # (the page's words: no command-line flag)
    ({"scores": {"NS": "a"}}, '"scores" debe ser un objeto de números enteros, uno por lado: {"NS": 120, "EW": 80}'),
])
def test_the_directors_page_refuses_every_typed_score_in_spanish(tmp_path: Path, body, words) -> None:
    """The refusals of a typed score other than its bound above (below zero, past the limit of a
    side, a side missing or too many, a winner that is no side or contradicts the scores) in the
    page's language, as the bound above is: none of them left in English."""
    from tests.tournament.test_venue import _auth, _event, _key, _server

    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        r = client.post("/api/v1/tables/1/1/result", json=body, headers={**_auth(director), "Accept-Language": "es"})
        assert r.status_code == 422 and r.json()["error"] == words, r.json()
    finally:
        server.close()


def test_the_directors_page_says_a_typed_score_stored_and_amended_in_spanish(tmp_path: Path) -> None:
    from tests.tournament.test_venue import _auth, _event, _key, _server

    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])

        def post(**body):
            return client.post("/api/v1/tables/1/1/result", json=body,
                               headers={**_auth(director), "Accept-Language": "es"})

        assert post(scores={"NS": 210, "EW": 150}).json()["said"] == [
            "ronda 1, mesa 1: NS 210, EW 150; gana NS (entrada manual, sin comprobar) — guardado"]
        r = post(scores={"NS": 150, "EW": 150})
        assert r.status_code == 422 and r.json()["error"] == (
            "indique el motivo para cambiar un resultado (queda en el registro de auditoría)")
        assert post(scores={"NS": 150, "EW": 150}, reason="slip").json()["said"] == [
            "ronda 1, mesa 1: NS 150, EW 150; empate (entrada manual, sin comprobar) — corregido (se guarda el "
            "resultado anterior: `tournament history`)"]
    finally:
        server.close()


def test_a_level_top_at_a_multi_player_table_is_refused_in_spanish(tmp_path: Path) -> None:
    """Three players level at the top of a table of three: who won is the game's own rule, asked
    for in a line whose list of sides reads in Spanish too (``P1, P2 y P3``)."""
    from domrec import phrases
    from tournament import i18n
    from tournament.web.app import PHRASES

    path = event(tmp_path, "domino-roads", "individual", 3, 3)
    with open_event(path) as store:
        with pytest.raises(ResultRefused) as caught:
            enter_manual(store, 1, {"P1": 900, "P2": 900, "P3": 900})
        said = str(caught.value)
        with pytest.raises(ResultRefused) as caught:
            enter_manual(store, 1, {"P1": 900, "P2": 900, "P3": 200}, winner="P3")
        contradicted = str(caught.value)
    seats = said.split(" are level")[0]  # the table's seats, in the order it seats them
    assert said == (f"{seats} are level on 900 at the top of table 1: say who won by the game's rules with "
                    f"--winner {seats.split(',')[0]} (or another of them); nothing was stored")
    spanish = seats.replace(" and ", " y ")
    assert phrases.translate(said, "es", PHRASES, i18n.FOLDERS) == (
        f"{spanish} empatan a 900 en cabeza de la mesa 1: diga quién ganó según las reglas del juego con "
        f"--winner {seats.split(',')[0]} (u otro de ellos); no se guardó nada")
    assert " y " in phrases.translate(contradicted, "es", PHRASES, i18n.FOLDERS)
    assert " anotaron más " in phrases.translate(contradicted, "es", PHRASES, i18n.FOLDERS)

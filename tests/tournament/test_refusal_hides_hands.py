"""A wrong move refused at the table never says where another player's hidden tile is.

The engines say it ("W does not hold 6-6 (it is in E's hand)"): right for ``domrec validate`` and
``domrec explain``, read by an arbiter over a whole record, wrong on the phone the whole table
reads, where it would tell everyone that E holds the 6-6 (at a duplicate table the server holds a
deal nobody at the table has seen).  The server and the phone's offline engine say the same
sentence less that place (:func:`tournament.event.table_log.hands_hidden`), in English and in
Spanish: the seat, the tile and the rule stay."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from domrec import tiles as T
from domrec.games import base
from tests.tournament.test_venue import _auth, _event, _game_of, _requests, _server
from tournament.event import phone, table_log

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import PHRASES  # noqa: E402

#: Each game: the wrong moves typed once the deal is in (seed 5: see ``_game_of``), and for each
#: the seat holding the tile, or the face-down pile it lies in, that the table must not learn, with
#: the refusal in English and in Spanish.
CASES = {
    "competitive": [
        ("6-6", "E", "W plays 6-6: W does not hold 6-6 [competitive: playing from hand]",
         "W juega 6-6: W no tiene 6-6 [competitivo: jugar de la mano]"),
    ],
    "horse-race": [
        ("0-0", "P2", "P1 plays 0-0: P1 does not hold 0-0 [horse-race: turn (setting a tile from hand)]",
         "P1 juega 0-0: P1 no tiene 0-0 [Horse Race: turno (colocar una ficha de la mano)]"),
        # In the boneyard: said as a tile in a hand is, or the two would tell one from the other.
        ("5-5", "boneyard", "P1 plays 5-5: P1 does not hold 5-5 [horse-race: turn (setting a tile from hand)]",
         "P1 juega 5-5: P1 no tiene 5-5 [Horse Race: turno (colocar una ficha de la mano)]"),
    ],
    "broadway": [
        ("6-2@0,0", "N", "S plays 6-2 at (0,0)-(1,0): S does not hold 6-2 [broadway: playing from hand]",
         "S juega 6-2 en (0,0)-(1,0): S no tiene 6-2 [Broadway: jugar de la mano]"),
    ],
    "castle-rock": [
        ("6-2", "P1", "P2 plays 6-2: P2 does not hold 6-2 [castle-rock: playing from hand]",
         "P2 juega 6-2: P2 no tiene 6-2 [Castle Rock: jugar de la mano]"),
        ("4-4 x6-2", "P1", "P2 captures 6-2: P2 cannot capture 6-2: it is not in the row [castle-rock: capture]",
         "P2 captura 6-2: P2 no puede capturar 6-2: no está en la fila [Castle Rock: captura]"),
        # The boneyard's order is the deal's: the next tile is not said either.
        ("4-4\n+5-5", "3-3", "P2 draws 5-5: P2 cannot draw 5-5: it is not the next tile of the boneyard, in the "
         "order given with the deal [castle-rock: drawing]",
         "P2 roba 5-5: P2 no puede robar 5-5: no es la siguiente ficha del pozo, en el orden dado con el reparto "
         "[Castle Rock: robar]"),
    ],
    "domino-roads": [
        ("r3+3\ns6-4@P1-1/1", "P2", "P1 starts road P1-1 with 6-4, facing 1: P1 does not hold 6-4 "
         "[domino-roads: playing from the stock]",
         "P1 abre el camino P1-1 con 6-4, mirando al 1: P1 no tiene 6-4 [Domino Roads: jugar de la reserva]"),
        # A face-down pile, another's or the player's own: nobody at the table knows it.
        ("r3+3\ns3-2@P1-1/1", "P2", "P1 starts road P1-1 with 3-2, facing 1: P1 does not hold 3-2 "
         "[domino-roads: playing from the stock]",
         "P1 abre el camino P1-1 con 3-2, mirando al 1: P1 no tiene 3-2 [Domino Roads: jugar de la reserva]"),
        ("r3+3\ns6-5@P1-1/1", "pile", "P1 starts road P1-1 with 6-5, facing 1: P1 does not hold 6-5 "
         "[domino-roads: playing from the stock]",
         "P1 abre el camino P1-1 con 6-5, mirando al 1: P1 no tiene 6-5 [Domino Roads: jugar de la reserva]"),
    ],
}

#: How the engines say where a tile is ("(it is in E's hand)", "it is still in the boneyard", "it is
#: in P2's stock"), in English and in Spanish.
_PLACE = re.compile(r"it is in|is still in|is in \S+'s|la tiene|aún está|está en la (?:pila|reserva)|en la pila de")


def _hidden(error: str, where: str) -> None:
    """``error`` names neither ``where`` (a seat, a tile, a place) nor where a hidden tile is."""
    said = error.split(": ", 1)[1]  # past "line:column"
    said = said[:said.index(" [")]  # the rule's name, kept whole
    assert not re.search(rf"(?<![\w-]){re.escape(where)}(?![\w-])", said), error
    assert not _PLACE.search(said), error


@pytest.mark.parametrize("game", list(CASES))
def test_a_wrong_move_at_the_table_does_not_say_whose_tile_it_is(game, tmp_path: Path) -> None:
    path = _event(tmp_path, game)
    record = _game_of(path, 1, 1, 5)
    texts = _requests(record)
    deal = next(i for i, t in enumerate(texts) if t.split()[0] not in ("hand", "leaddraw", "deal", "boneyard", "row",
                                                                        "pile"))
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "\n".join(texts[:deal])})
        assert r.status_code == 200 and r.json()["game"]["deal_known"], r.text
        rev = r.json()["rev"]
        table = client.get(url, params={"log": "1"}, headers=_auth(token)).json()["log"]
        for k, (wrong, where, english, spanish) in enumerate(CASES[game]):
            line = wrong.count("\n") + 1
            for lang, sentence in (("en", english), ("es", spanish)):
                write = {"rev": rev, "text": wrong, "cid": f"wrong-{game}-{k}-{lang}"}
                r = client.post(f"{url}/dgn", headers={**_auth(token), "Accept-Language": lang}, json=write)
                assert r.status_code == 422, r.text
                error = r.json()["error"]
                assert error.split(": ", 1)[1] == sentence and error.startswith(f"{line}:"), error
                _hidden(error, where)
                # Sent again (its answer lost): the refusal kept with its id is the same sentence.
                again = client.post(f"{url}/dgn", headers={**_auth(token), "Accept-Language": lang}, json=write)
                assert (again.status_code, again.json()["error"]) == (422, error)
                # The phone's engine, offline, from the table's log: the very same answer.
                mine = phone.answer(table, {"path": "dgn", "body": {"rev": rev, "text": wrong}}, lang,
                                    sentences=PHRASES)
                assert (mine["status"], mine["body"]["error"]) == (422, error)
        assert client.get(url, headers=_auth(token)).json()["rev"] == rev  # nothing was taken
    finally:
        server.close()


def test_the_engines_still_say_where_the_tile_is() -> None:
    """The validator's and ``domrec explain``'s sentence is the engine's, whole: only the table's is cut."""
    t = T.tile("6-6")
    said = base.not_held("W", t, "6-6", {"E": {t}}, frozenset({t}), "double-six", "it has already been played")
    assert said == "W does not hold 6-6 (it is in E's hand)"
    assert table_log.hands_hidden(said) == "W does not hold 6-6"


@pytest.mark.parametrize("engine_said, at_the_table", [
    ("E plays 6-6: E does not hold 6-6 (it is in N's hand) [competitive: playing from hand]",
     "E plays 6-6: E does not hold 6-6 [competitive: playing from hand]"),
    ("P2 captures 3-3: P2 cannot capture 3-3: it is not in the row (it has not been played) [castle-rock: capture]",
     "P2 captures 3-3: P2 cannot capture 3-3: it is not in the row [castle-rock: capture]"),
    ("P1 draws 0-0: 0-0 cannot be drawn: it was dealt to P2, so it is not in the boneyard [horse-race: boneyard]",
     "P1 draws 0-0: 0-0 cannot be drawn: it is not in the boneyard [horse-race: boneyard]"),
    ("P1 draws 0-0: 0-0 cannot be drawn: it was already drawn by P3 [horse-race: boneyard]",
     "P1 draws 0-0: 0-0 cannot be drawn: it is not in the boneyard [horse-race: boneyard]"),
    ("P1 draws 4-4: the boneyard's order, given with the deal, has 5-5 as draw number 2, not 4-4 [horse-race: x]",
     "P1 draws 4-4: the boneyard's order, given with the deal, does not have 4-4 as draw number 2 [horse-race: x]"),
    ("P1 plays 6-6: P1 does not hold 6-6: the other copy is in P2 and P3's stock [domino-roads: stock]",
     "P1 plays 6-6: P1 does not hold 6-6 [domino-roads: stock]"),
    ("P1 plays 6-5: P1 does not hold 6-5 in stock yet: it is still in P1's pile [domino-roads: stock]",
     "P1 plays 6-5: P1 does not hold 6-5 [domino-roads: stock]"),
    # What the rules make public stays: a tile played, in the row, captured (the row is face up).
    ("W plays 6-6: W does not hold 6-6: it has already been played [competitive: playing from hand]", None),
    ("P2 plays 6-2: P2 does not hold 6-2: P1 has captured it [castle-rock: playing from hand]", None),
    ("P2 plays 6-2: P2 does not hold 6-2: it is already in the row [castle-rock: playing from hand]", None),
])
def test_only_the_hidden_place_is_cut_and_spanish_reads_it(engine_said: str, at_the_table: str | None) -> None:
    from domrec.phrases import translate
    from tournament import i18n

    said = table_log.hands_hidden(engine_said)
    assert said == (at_the_table or engine_said)
    spanish = translate(said, "es", PHRASES, i18n.FOLDERS)
    problem = said.split(": ", 1)[1].rsplit(" [", 1)[0]
    assert translate(problem, "es", PHRASES, i18n.FOLDERS) != problem, problem  # a msgid with its Spanish
    assert spanish != said


def test_a_duplicate_tables_phone_does_not_learn_the_boards_deal(tmp_path: Path) -> None:
    """The tester's case: at a duplicate table the server holds the board's deal, which nobody at
    the table has seen; a tile typed by the wrong player is refused without naming its holder."""
    from tests.tournament.test_duplicate_event import new_event, run
    from tests.tournament.test_venue_duplicate import served
    from tournament.pairing import boards as B

    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    for _, server, client in served(event, 6, 38):
        boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        state = client.get(url, headers=_auth(token)).json()
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
        assert r.status_code == 200, r.text
        state = r.json()
        board = boards[state["board"]]
        seat = state["game"]["to_move"]
        holder = next(s for s in board.seats if s != seat)
        tile = board.deal.hands[holder][0]
        table = client.get(url, params={"log": "1"}, headers=_auth(token)).json()["log"]
        for lang, words in (("en", f"{seat} plays {tile}: {seat} does not hold {tile} [competitive: playing from "
                                   f"hand]"),
                            ("es", f"{seat} juega {tile}: {seat} no tiene {tile} [competitivo: jugar de la mano]")):
            write = {"rev": state["rev"], "text": f"{seat} {tile}"}
            r = client.post(f"{url}/dgn", headers={**_auth(token), "Accept-Language": lang}, json=write)
            assert (r.status_code, r.json()["error"]) == (422, f"1:{len(seat) + 2}: {words}")
            _hidden(r.json()["error"], holder)
            mine = phone.answer(table, {"path": "dgn", "body": write}, lang, sentences=PHRASES)
            assert (mine["status"], mine["body"]["error"]) == (422, r.json()["error"])

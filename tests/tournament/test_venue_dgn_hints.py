"""At the table only DGN is typed: a refusal's hint of how to write a move says the DGN alone, not
the JSON record's field that ``domrec validate`` names beside it for a JSON file (docs/venue.md,
"Anything can be typed"), on the server and in the phone's engine alike, and in Spanish too."""

from __future__ import annotations

from domrec import phrases
from tournament.event import phone, table_log
from tournament.web.app import PHRASES

from tests.tournament.test_venue import _auth, _event, _table_one

URL = "/api/v1/tables/1/1"


def test_a_horse_race_draw_not_naming_its_tile_is_told_the_dgn_way(tmp_path):
    server, client, token = _table_one(_event(tmp_path, "horse-race"))
    try:
        state = client.get(URL, headers=_auth(token)).json()
        for text in ("hand 1", "P1 5-5"):
            r = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
            assert r.status_code == 200, r.json()
            state = r.json()
        table = client.get(URL, params={"log": "1"}, headers=_auth(token)).json()["log"]
        body = {"rev": state["rev"], "text": "P1 +"}
        for lang, said in (("en", "1:4: P1 draws: this hand's deal gives no boneyard order, so each draw must "
                                  "name its tile (P1 +2-0) [horse-race: the boneyard (draw order)]"),
                           ("es", "1:4: P1 roba: el reparto de esta mano no da el orden del pozo, así que cada "
                                  "robo debe nombrar su ficha (P1 +2-0) [Horse Race: el pozo (orden de robo)]")):
            r = client.post(f"{URL}/dgn?lang={lang}", headers=_auth(token), json=body)
            assert r.status_code == 422 and r.json()["error"] == said, r.json()
            mine = phone.answer(table, {"path": "dgn", "body": body}, lang, sentences=PHRASES)
            assert mine["status"] == 422 and mine["body"]["error"] == said, mine
    finally:
        server.close()


def test_a_tile_fitting_two_places_is_told_the_dgn_way_in_both_languages():
    """The engines' sentences as they are (Competitive's two ends, Horse Race's two to four tiles):
    at the table the JSON part goes, the DGN stays, and each still reads in Spanish."""
    for engine, table, spanish in (
            ('6-4 fits both ends: say which it is played on, 6-6 or 4-2 ("on" in JSON, 6-4@6-6 in DGN)',
             "6-4 fits both ends: say which it is played on, 6-6 or 4-2 (6-4@6-6)",
             "6-4 casa por los dos extremos: diga en cuál se juega, 6-6 o 4-2 (6-4@6-6)"),
            ('5-3 fits on 5-5 and on 3-3: say which it is played on ("on" in JSON, 5-3@5-5 in DGN)',
             "5-3 fits on 5-5 and on 3-3: say which it is played on (5-3@5-5)",
             "5-3 cabe sobre 5-5 y sobre 3-3: diga sobre cuál se juega (5-3@5-5)"),
            ('5-3 fits on 5-5 and on 3-3 and on 3-1: say which it is played on ("on" in JSON, 5-3@5-5 in DGN)',
             "5-3 fits on 5-5 and on 3-3 and on 3-1: say which it is played on (5-3@5-5)",
             "5-3 cabe sobre 5-5, sobre 3-3 y sobre 3-1: diga sobre cuál se juega (5-3@5-5)"),
            ('5-3 fits on 5-5 and on 3-3 and on 3-1 and on 5-0: say which it is played on ("on" in JSON, '
             "5-3@5-5 in DGN)",
             "5-3 fits on 5-5 and on 3-3 and on 3-1 and on 5-0: say which it is played on (5-3@5-5)",
             "5-3 cabe sobre 5-5, sobre 3-3, sobre 3-1 y sobre 5-0: diga sobre cuál se juega (5-3@5-5)")):
        said = table_log.at_the_table(f"W plays 6-4: {engine}")
        assert said == f"W plays 6-4: {table}"
        assert "JSON" not in said
        assert phrases.translate(table, "es") == spanish
    assert table_log.at_the_table("'xyz' is not a move of competitive (see docs/notation.md)") == \
        "'xyz' is not a move of competitive"

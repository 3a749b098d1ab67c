"""The hall's refusals, the crosstable's letters and the bye line in the client's language.

A Spanish page of the hall (``?lang=es`` or ``Accept-Language: es``), and the hub's mirror of it,
said some refusals in English: a replay asked for a table still in play, a player or team number
the event has not, a board's or pair's page of an event that is not duplicate, a match's page of
one that is not duplicate teams; and the hall's feed answered every refusal in English (a round
not paired, a table still in play).  Each is now listed as a pattern (the pages' in
:data:`tournament.web.app.WEB_REFUSALS`, the feed's in :data:`tournament.event.feed.REFUSALS`),
said in English without a language and in Spanish with one, on the hall and the hub.  The Spanish
crosstable showed the English letters W, D, L and T (table) where the standings say G-E-P and
*mesa*; a bye of two players (a pair) said "Descansa" for both.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Iterator

import markupsafe
import pytest

from tournament import open_event, pair_next_round
from tournament.event.simulate import simulate_event

starlette_testclient = pytest.importorskip("starlette.testclient")

ES = {"accept-language": "es-MX,es;q=0.9"}


@pytest.fixture(scope="module")
def hall(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A rotating event of 24 players: three rounds played, the fourth paired and in play."""
    from tournament.web.hall import HallServer

    path = tmp_path_factory.mktemp("hallwords") / "club.db"
    simulate_event(path, "competitive", "rotating", 24, 3, seed=5)
    with open_event(path) as store:
        pair_next_round(store)
    server = HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9)
    try:
        yield starlette_testclient.TestClient(server.asgi)
    finally:
        server.close()


def _page_said(r: Any, status: int, lang: str, sentence: str) -> None:
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert f'<html lang="{lang}">' in r.text
    assert str(markupsafe.escape(sentence)) in r.text, (sentence, r.text)


#: (the page, the English, the Spanish).
PAGES = [
    ("/games/4/6", "round 4 table 6 has no result yet: its game is shown once it is in",
     "ronda 4, mesa 6: aún no tiene resultado; su partida se muestra en cuanto esté registrado"),
    ("/players/999", "no player number 999 in this event", "no hay ningún jugador con el número 999 en este evento"),
    ("/players/0", "no player number 0 in this event", "no hay ningún jugador con el número 0 en este evento"),
    ("/teams/1", "no team number 1 in this event", "no hay ningún equipo con el número 1 en este evento"),
    ("/boards/1", "this is not a duplicate event: it has no boards", "este evento no es duplicado: no tiene tableros"),
    ("/pairs/1", "this is not a duplicate event: it has no boards", "este evento no es duplicado: no tiene tableros"),
    ("/matches/1/1", "this is not a duplicate-teams event: its matches are its tables' games",
     "este evento no es de equipos duplicados: sus encuentros son las partidas de sus mesas"),
]


@pytest.mark.parametrize("path, english, spanish", PAGES, ids=[p[0] for p in PAGES])
def test_each_refused_hall_page_is_in_the_clients_language(hall: Any, path: str, english: str, spanish: str) -> None:
    _page_said(hall.get(path), 404, "en", english)
    _page_said(hall.get(path, headers=ES), 404, "es", spanish)
    assert english not in hall.get(path, headers=ES).text
    _page_said(hall.get(path + "?lang=es"), 404, "es", spanish)
    hall.cookies.clear()  # (?lang= keeps its language in a cookie)


#: (the feed's address, the English, the Spanish).
FEED = [
    ("/api/v1/games/9/9", "round 9 has not been paired", "la ronda 9 no se ha emparejado"),
    ("/api/v1/games/4/6", "round 4 table 6 is still in play: its game is shown once its result is in",
     "ronda 4, mesa 6: la partida aún se está jugando; se muestra en cuanto su resultado esté registrado"),
    ("/api/v1/rounds/99", "round 99 has not been paired (the last round is 4)",
     "la ronda 99 no se ha emparejado (la última ronda es la 4)"),
]


@pytest.mark.parametrize("path, english, spanish", FEED, ids=[p[0] for p in FEED])
def test_each_refusal_of_the_halls_feed_is_one_json_line_in_the_clients_language(
        hall: Any, path: str, english: str, spanish: str) -> None:
    for headers, query, said in (({}, "", english), (ES, "", spanish), ({}, "?lang=es", spanish),
                                 ({"accept-language": "en"}, "", english)):
        r = hall.get(path + query, headers=headers)
        hall.cookies.clear()
        assert r.status_code == 404 and r.headers["content-type"] == "application/json", r.text
        assert "\n" not in r.text.strip() and r.json()["error"] == said
        assert "Accept-Language" in r.headers["vary"]
    # the feed's data stays in English
    assert hall.get("/api/v1/rounds/1", headers=ES).status_code == 200


LIVE_FULL = ("too many pages are following the event live: this one refreshes itself every few seconds instead",
             "demasiadas páginas siguen el evento en directo: esta se actualiza sola cada pocos segundos")


def test_a_live_stream_with_no_room_left_is_refused_in_the_clients_language(tmp_path: Path) -> None:
    """``/live`` with every place taken (500 pages following the event) was refused in English
    alone, on a Spanish page too; now in the asker's language, the route's way (GET and HEAD) and
    the hall's connection's own (a stream that finds no room after all), as every refusal."""
    from tournament.web.hall import HallServer

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=5)
    server = HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9)
    try:
        server.live.max_streams = 0
        client = starlette_testclient.TestClient(server.asgi)
        english, spanish = LIVE_FULL
        for headers, said in (({}, english), (ES, spanish), ({"cookie": "lang=es"}, spanish)):
            r = client.get("/live", headers=headers)
            assert r.status_code == 503 and r.json()["error"] == said and r.headers["retry-after"]
            assert client.head("/live", headers=headers).status_code == 503
            status, _, body = server._light_stream(False, [(k.encode(), v.encode()) for k, v in headers.items()])
            assert status == 503 and json.loads(body)["error"] == said
    finally:
        server.close()


def test_an_engine_file_the_server_has_not_is_refused_in_the_clients_language(tmp_path: Path) -> None:
    """The phone's engine files (Pyodide's, domrec's bundle) an older page asks for: "no such file"
    was said in English alone."""
    from tournament.web.app import VenueServer

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=5)
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        for url, name in (("/static/engine/0123abcd/domrec.zip", "domrec.zip"),
                          (f"/static/pyodide/{server.engine.version}/nothing.js", "nothing.js")):
            assert client.get(url).json()["error"] == f"no such file: {name}"
            r = client.get(url, headers=ES)
            assert r.status_code == 404 and r.json()["error"] == f"no existe el archivo: {name}"
    finally:
        server.close()


# --- the hub's mirror of the same pages -----------------------------------------------------------

HUB_PAGES = [p for p in PAGES if p[0] != "/games/4/6"]  # (a table in play: the hub's own sentence)


@pytest.fixture(scope="module")
def hub_client(tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, str]:
    from tournament.web import relay
    from tournament.web.hub import EventCache, Hub
    from tournament.web.upstream import outgoing

    path = tmp_path_factory.mktemp("hubhallwords") / "club.db"
    simulate_event(path, "competitive", "rotating", 16, 1, seed=5)
    with open_event(path) as store:
        pair_next_round(store)
        uuid = relay.event_id(store.uuid)
        messages = list(outgoing(store, uuid, 0, None, {}))
    hub = Hub("nats://127.0.0.1:9")
    cache = hub.reader.events[uuid] = EventCache(uuid)
    for m in messages:
        cache.take(m.subject, m.body, m.headers)
    return starlette_testclient.TestClient(hub, raise_server_exceptions=False), uuid


@pytest.mark.parametrize("path, english, spanish", HUB_PAGES, ids=[p[0] for p in HUB_PAGES])
def test_each_refused_page_on_the_hub_is_in_the_clients_language(
        hub_client: tuple[Any, str], path: str, english: str, spanish: str) -> None:
    client, event = hub_client
    for headers, lang, said in (({}, "en", english), (ES, "es", spanish)):
        r = client.get(f"/e/{event}{path}", headers={**headers, "accept": "text/html"})
        _page_said(r, 404, lang, said)
        line = client.get(f"/e/{event}{path}", headers={**headers, "accept": "application/json"})
        assert line.status_code == 404 and line.json() == {"error": said}


# --- the crosstable's letters and the bye line ------------------------------------------------------


def _cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r'<td class="c">(.*?)</td>', html, re.DOTALL)]


def test_the_spanish_crosstable_says_g_e_p_and_m_for_a_table(hall: Any) -> None:
    es = hall.get("/crosstable?lang=es").text
    en = hall.get("/crosstable?lang=en").text
    hall.cookies.clear()
    es_cells, en_cells = _cells(es), _cells(en)
    assert len(es_cells) == len(en_cells) > 24
    played = [c for c in es_cells if re.match(r"[A-Z] \d", c)]
    assert played and all(c[0] in "GEP" for c in played), played[:5]
    assert [c for c in es_cells if re.match(r"M\d+$", c)] and not [c for c in es_cells if re.match(r"T\d+$", c)]
    assert all(c[0] in "WDL" for c in en_cells if re.match(r"[A-Z] \d", c))
    assert [c for c in en_cells if re.match(r"T\d+$", c)]
    assert "ganada (G), empatada (E) o perdida (P)" in es and "muestra su mesa: M3" in es
    assert "won (W), drawn (D) or lost (L)" in en and "shows its table: T3" in en
    # the cells' classes (the colours) are the same in both
    assert re.findall(r'<span class="([WDL])">', es) == re.findall(r'<span class="([WDL])">', en)


def test_a_bye_of_more_than_one_says_so_in_spanish(tmp_path: Path) -> None:
    """Pairs of a rotating event of 18: a round's bye is two players: "Descansan", not "Descansa"."""
    from tournament.event.public import public_data
    from tournament.pages import public as pages
    from tournament.pages.public import Site

    path = tmp_path / "pairs.db"
    simulate_event(path, "competitive", "pairs", 18, 1, seed=3)
    with open_event(path) as store:
        data = public_data(store)
    byes = [r["byes"] for r in data["rounds"] if r["byes"]]
    assert byes and len(byes[0]) == 2, byes
    es = pages.page_html(data, Site(served=True), "games", lang="es")
    en = pages.page_html(data, Site(served=True), "games", lang="en")
    assert "Descansan: " in es and "Descansa: " not in es
    assert "Byes: " in en


# --- a stored record damaged since, a page not there ------------------------------------------------


def test_a_stored_record_that_cannot_be_read_is_refused_in_the_clients_language(tmp_path: Path) -> None:
    """A confirmed game whose stored record was damaged since (``tournament check`` reports it): its
    DGN on the feed and its replay page said it in English on a Spanish page."""
    from tournament.web.hall import HallServer

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=5)
    with open_event(path) as store:
        result = store.result_for(store.tables(1)[0].id)
        assert result is not None and result.kind == "record"
        with store.conn:
            store.conn.execute("UPDATE results SET record = ? WHERE id = ?", ['{"game": "nonsense"}', result.id])
    server = HallServer(path, "http://testserver", rate=1e9, burst=10 ** 9)
    try:
        hall = starlette_testclient.TestClient(server.asgi)
        english = hall.get("/api/v1/games/1/1?format=dgn").json()["error"]
        spanish = hall.get("/api/v1/games/1/1?format=dgn", headers=ES).json()["error"]
        assert english.startswith("round 1 table 1: the stored record cannot be read (")
        assert english.endswith("); the director's `tournament check` says more")
        assert spanish.startswith("ronda 1, mesa 1: no se puede leer el registro guardado (")
        assert spanish.endswith("); el `tournament check` del director dice más"), spanish
        r = hall.get("/games/1/1", headers=ES)
        assert r.status_code == 422 and '<html lang="es">' in r.text
        assert "no se puede leer el registro de esta partida: " in r.text and "cannot be read" not in r.text
    finally:
        server.close()


def test_a_page_the_hall_has_not_is_refused_in_the_clients_language() -> None:
    """The public pages' "no page 'x'" (tournament.pages.public) is listed with its Spanish, on the
    hall and on the hub."""
    from domrec import phrases

    from tournament import i18n
    from tournament.web.app import Site
    from tournament.web.hub import phrases_of_the_hub

    assert Site._said("no page 'scores'", "es") == "no hay ninguna página 'scores'"
    assert Site._said("no page 'scores'", "en") == "no page 'scores'"
    assert phrases.translate("no page 'scores'", "es", phrases_of_the_hub(), i18n.FOLDERS) == "no hay ninguna página 'scores'"

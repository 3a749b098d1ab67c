"""The hub's own sentences in the client's language (docs/hub.md, "Refusals").

The hub refused as the venue does, and the venue's sentences (an address with nothing at it, a
wrong method) came out in the client's language, but the hub's own were English only: ``no event
… on this hub``, ``no such league on this hub``, ``round R table T has no confirmed game on this
hub``, a number in the address that is not one, the feed's and the league's refusals it passes on,
and the league page's words.  A Spanish-speaking hall following on the hub got a Spanish page with
English refusals.  Now each is built in English where it is refused and listed as a pattern
(:data:`tournament.web.hub.REFUSALS`, and the feed's and the league's), and the hub says it as the
venue does: asked with ``Accept-Language: es`` (or ``?lang=es``), the JSON line and the refused
page are Spanish; without, English.

The hub serves what it holds without NATS (its lifespan is not run): here an event a venue's
messages gave it, a league, an event whose pages' data is unreadable.  Nothing here waits or times.
"""

from __future__ import annotations

import ast
import inspect
from pathlib import Path
from typing import Any, Iterator

import markupsafe
import pytest

from domrec import phrases
from tournament import enter_manual, open_event, pair_next_round
from tournament.event.simulate import simulate_event
from tournament.web import relay
from tournament.web.hub import EventCache, Hub
from tournament.web.upstream import outgoing

from tests.tournament.test_hub_refusals import _one_json_line

starlette_testclient = pytest.importorskip("starlette.testclient")

BROWSER = {"accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
LEAGUE = "Liga Norte"


@pytest.fixture(scope="module")
def events(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two venues' events of one league (the second's venue named no club), and each one's messages."""
    folder = tmp_path_factory.mktemp("hubwords")
    made: dict[str, Any] = {}
    for name, seed, where in (("club", 5, {"league": LEAGUE, "club": "Casino"}), ("other", 9, {"league": LEAGUE})):
        path = folder / f"{name}.db"
        simulate_event(path, "competitive", "rotating", 16, 1, seed=seed)
        with open_event(path) as store:
            pair_next_round(store)
            enter_manual(store, 2, {"NS": 150, "EW": 90})
            uuid = relay.event_id(store.uuid)
            made[name] = (uuid, list(outgoing(store, uuid, 0, None, where)))
    return made


def _hub(events: dict[str, Any], **options: Any) -> tuple[Hub, dict[str, str]]:
    hub = Hub("nats://127.0.0.1:9", **options)
    ids = {}
    for name, (uuid, messages) in events.items():
        cache = hub.reader.events[uuid] = EventCache(uuid)
        for m in messages:
            cache.take(m.subject, m.body, m.headers)
        ids[name] = uuid
    # An event whose pages' data could not be read (its change log is still served).
    uuid, messages = events["club"]
    broken = "0123456789abcdef"
    cache = hub.reader.events[broken] = EventCache(broken)
    for seq, m in enumerate(messages, 1):
        subject = m.subject.replace(uuid, broken)
        cache.read(seq, subject, b"garbage{" if subject.endswith(".public") else m.body, m.headers)
    ids["broken"] = broken
    return hub, ids


@pytest.fixture
def hub(events: dict[str, Any]) -> Iterator[tuple[Any, dict[str, str]]]:
    served, ids = _hub(events)
    yield starlette_testclient.TestClient(served, raise_server_exceptions=False), ids


def _line(r: Any, status: int) -> str:
    """The one JSON line of a refusal, its sentence."""
    assert r.status_code == status, (r.status_code, r.text)
    return _one_json_line(r)


def _both(client: Any, path: str, status: int, page: bool) -> tuple[str, str]:
    """The refusal of ``path`` in English (no language asked) and in Spanish (``Accept-Language:
    es``), as the JSON line; and, where a browser asks for a page (``page``), the same sentences on
    the refused page, escaped, in its language."""
    english = _line(client.get(path), status)
    spanish = _line(client.get(path, headers={"accept-language": "es-MX,es;q=0.9"}), status)
    assert _line(client.get(path + ("&" if "?" in path else "?") + "lang=es"), status) == spanish
    assert _line(client.get(path, headers={"accept-language": "en"}), status) == english
    if page:
        for lang, said in (("en", english), ("es", spanish)):
            r = client.get(path, headers={**BROWSER, "accept-language": lang})
            assert r.status_code == status and r.headers["content-type"].startswith("text/html"), r.text
            assert f'<html lang="{lang}">' in r.text
            assert str(markupsafe.escape(said)) in r.text, (said, r.text)
    return english, spanish


#: (the address, made with the event's id, the held event's, the unreadable one's; the status; the
#: English; the Spanish; whether a browser gets the refused page there).
CASES = [
    ("/e/abc/standings", 404, "no event abc on this hub", "no hay ningún evento abc en este portal", True),
    ("/api/v1/e/abc/standings", 404, "no event abc on this hub", "no hay ningún evento abc en este portal", False),
    ("/api/v1/e/abc/changes", 404, "no event abc on this hub", "no hay ningún evento abc en este portal", False),
    ("/l/Nadie", 404, "no such league on this hub", "no existe esa liga en este portal", True),
    ("/api/v1/leagues/Nadie", 404, "no such league on this hub", "no existe esa liga en este portal", False),
    ("/e/{club}/players/x", 404, "player must be a whole number (not 'x')",
     "el número de jugador debe ser un número entero (no 'x')", True),
    ("/e/{club}/teams/x", 404, "team must be a whole number (not 'x')",
     "el número de equipo debe ser un número entero (no 'x')", True),
    ("/e/{club}/boards/x", 404, "board must be a whole number (not 'x')",
     "el número de tablero debe ser un número entero (no 'x')", True),
    ("/e/{club}/pairs/x", 404, "pair must be a whole number (not 'x')",
     "el número de pareja debe ser un número entero (no 'x')", True),
    ("/e/{club}/matches/x/1", 404, "round must be a whole number (not 'x')",
     "el número de ronda debe ser un número entero (no 'x')", True),
    ("/e/{club}/matches/1/x", 404, "table must be a whole number (not 'x')",
     "el número de mesa debe ser un número entero (no 'x')", True),
    ("/e/{club}/games/9/9", 404, "round 9 table 9 has no confirmed game to replay",
     "ronda 9, mesa 9: no hay ninguna partida confirmada que reproducir", True),
    ("/api/v1/e/{club}/games/9/9", 404, "round 9 table 9 has no confirmed game on this hub",
     "ronda 9, mesa 9: no hay ninguna partida confirmada en este portal", False),
    ("/api/v1/e/{club}/games/1/1?format=xml", 422, "format is json or dgn (not 'xml')",
     "el parámetro format es json o dgn (no 'xml')", False),
    ("/api/v1/e/{club}/games/x/1", 422, "round must be a whole number, 0 or more (not 'x')",
     "el número de ronda debe ser un número entero, 0 o más (no 'x')", False),
    ("/api/v1/e/{club}/games/1/x", 422, "table must be a whole number, 0 or more (not 'x')",
     "el número de mesa debe ser un número entero, 0 o más (no 'x')", False),
    ("/api/v1/e/{club}/rounds/x", 422, "round must be a whole number, 0 or more (not 'x')",
     "el número de ronda debe ser un número entero, 0 o más (no 'x')", False),
    ("/api/v1/e/{club}/rounds/9", 404, "round 9 has not been paired", "la ronda 9 no se ha emparejado", False),
    ("/api/v1/e/{club}/changes?since=x", 422, "since must be a whole number, 0 or more (not 'x')",
     "el parámetro since debe ser un número entero, 0 o más (no 'x')", False),
    ("/api/v1/e/{club}/changes?limit=x", 422, "limit must be a whole number, 1 or more (not 'x')",
     "el parámetro limit debe ser un número entero, 1 o más (no 'x')", False),
    # (-1 and 0: the same sentence; -1 was told "0 or more", and 0 then refused in other words)
    ("/api/v1/e/{club}/changes?limit=0", 422, "limit must be a whole number, 1 or more (not 0)",
     "el parámetro limit debe ser un número entero, 1 o más (no 0)", False),
    ("/api/v1/e/{club}/changes?limit=-1", 422, "limit must be a whole number, 1 or more (not '-1')",
     "el parámetro limit debe ser un número entero, 1 o más (no '-1')", False),
    ("/api/v1/leagues/Liga Norte?by=luck", 422, "a league's tie-breaks are among won, diff, for, played, events "
     "(not luck)", "los desempates de una liga se eligen entre won, diff, for, played, events (no luck)", False),
    ("/l/Liga Norte?by=luck,won", 422, "a league's tie-breaks are among won, diff, for, played, events (not luck)",
     "los desempates de una liga se eligen entre won, diff, for, played, events (no luck)", True),
    ("/l/Liga Norte?by=,", 422, "a league's tie-breaks are among won, diff, for, played, events (not ,)",
     "los desempates de una liga se eligen entre won, diff, for, played, events (no ,)", True),
    ("/api/v1/leagues/Liga Norte?group=town", 422, "a league's rows are one of player, pair, team, club (not town)",
     "las filas de una liga son una de player, pair, team, club (no town)", False),
    ("/l/Liga Norte?group=town", 422, "a league's rows are one of player, pair, team, club (not town)",
     "las filas de una liga son una de player, pair, team, club (no town)", True),
]


@pytest.mark.parametrize("path, status, english, spanish, page", CASES, ids=[c[0] for c in CASES])
def test_each_of_the_hubs_own_refusals_is_in_the_clients_language(
        hub: tuple[Any, dict[str, str]], path: str, status: int, english: str, spanish: str, page: bool) -> None:
    client, ids = hub
    said = _both(client, path.format(**ids), status, page)
    assert said == (english, spanish)


def test_the_refusals_that_name_values_of_the_moment_are_in_the_clients_language(
        hub: tuple[Any, dict[str, str]]) -> None:
    """A ``since`` past the hub's last change names both; an unreadable event names what could not be
    read (said as the hub's log says it, in English) inside the client's sentence."""
    client, ids = hub
    club = ids["club"]
    latest = client.get(f"/api/v1/e/{club}/changes").json()["latest"]
    english, spanish = _both(client, f"/api/v1/e/{club}/changes?since=99999", 422, False)
    assert english == f"since 99999 is past the last change the hub holds ({latest})"
    assert spanish == f"el parámetro since, 99999, pasa del último cambio que tiene este portal ({latest})"
    broken = ids["broken"]
    for path, page in ((f"/e/{broken}/standings", True), (f"/api/v1/e/{broken}/standings", False)):
        english, spanish = _both(client, path, 503, page)
        assert english.startswith(f"event {broken}: the hub cannot show its pages: message ")
        assert english.endswith(f"; its change log: /api/v1/e/{broken}/changes")
        detail = english.split(": the hub cannot show its pages: ", 1)[1].rsplit("; its change log: ", 1)[0]
        assert "cannot be read" in detail and "not gzipped JSON" in detail
        assert spanish == (f"evento {broken}: el portal no puede mostrar sus páginas: {detail}; su historial de "
                           f"cambios: /api/v1/e/{broken}/changes")


def test_a_record_the_hub_cannot_read_is_refused_in_the_clients_language(events: dict[str, Any]) -> None:
    """A confirmed game whose record the hub holds but cannot read: its replay page and its DGN."""
    served, ids = _hub(events)
    cache = served.reader.events[ids["club"]]
    assert (1, 1) in cache.site().recorded
    cache.games[(1, 1)] = ("{}", "0" * 64)
    client = starlette_testclient.TestClient(served, raise_server_exceptions=False)
    english, spanish = _both(client, f"/e/{ids['club']}/games/1/1", 422, True)
    assert english.startswith("this game's record cannot be read: ")
    assert spanish.startswith("no se puede leer el registro de esta partida: ")
    english, spanish = _both(client, f"/api/v1/e/{ids['club']}/games/1/1?format=dgn", 422, False)
    assert english.startswith("this record cannot be written as DGN (") and english.endswith("); ask for it as JSON")
    assert spanish.startswith("este registro no se puede escribir en DGN (") and spanish.endswith("); pídalo en JSON")


def test_too_many_live_followers_and_a_fault_of_the_hubs_own_are_in_the_clients_language(
        events: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    served, ids = _hub(events, max_streams=0)  # (every live stream is one too many: none is opened)
    client = starlette_testclient.TestClient(served, raise_server_exceptions=False)
    english, spanish = _both(client, f"/e/{ids['club']}/live", 503, False)
    assert english == "too many pages are following live: this one refreshes itself every few seconds instead"
    assert spanish == "demasiadas páginas siguen el evento en directo: esta se actualiza sola cada pocos segundos"

    def broken(*args: Any) -> Any:
        raise RuntimeError("secret detail")

    monkeypatch.setattr(served, "_events", broken)
    english, spanish = _both(client, "/api/v1/events", 500, False)
    assert english == "the hub could not do this; the detail is in the hub's log"
    assert spanish == "el portal no pudo hacerlo; el detalle está en el registro del portal"
    english, spanish = _both(client, "/", 500, True)
    assert "secret" not in english + spanish


def test_the_league_page_says_its_tiebreaks_and_the_clubless_row_in_the_readers_language(
        hub: tuple[Any, dict[str, str]]) -> None:
    """The league's page said its tie-breaks by their keys (``won, diff, for``) and the row of the
    events whose venue named no club ``(no club)``, in English on a Spanish page; the feed's JSON
    keeps its keys and its ``(no club)``."""
    client, _ = hub
    es = client.get("/l/Liga Norte?group=club", headers={"accept-language": "es"}).text
    en = client.get("/l/Liga Norte?group=club").text
    assert "clasificada por partidas ganadas, tantos a favor menos tantos en contra, tantos a favor." in es
    assert "ranked by games won, points for less points against, points for." in en
    assert "(sin club)" in es and "(no club)" not in es and "(no club)" in en
    assert "Casino" in es and "Casino" in en
    doc = client.get("/api/v1/leagues/Liga Norte?group=club", headers={"accept-language": "es"}).json()
    assert {r["player"] for r in doc["players"]} == {"Casino", "(no club)"} and doc["tiebreaks"] == ["won", "diff", "for"]


# --- the sweep: every sentence the hub's code refuses with is listed, with its Spanish --------------

#: The sample value each placeholder of a sentence is read with (a number matches any kind of value).
SAMPLE = "7"
#: Refusals whose sentence names a value the code passes in (``what`` of ``Hub._number``: each of
#: its six sentences is asked for above, by its address).
NOT_SWEPT = {"Hub._number"}


def _variants(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        return ["".join(_variants(v)[0] for v in node.values)]
    if isinstance(node, ast.FormattedValue):
        return [SAMPLE]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return [_variants(node.left)[0] + _variants(node.right)[0]]
    return [SAMPLE]


def _sentences(module: Any, functions: set[str] | None = None) -> list[tuple[str, str]]:
    """(where, a sentence) for each refusal raised (a tournament error) or refused (``_refused``)
    with words of its own in ``module``'s functions."""
    from tournament.errors import TournamentError

    tree = ast.parse(inspect.getsource(module))
    found: list[tuple[str, ast.AST]] = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{f.name}", f) for f in node.body if isinstance(f, (ast.FunctionDef,
                                                                                        ast.AsyncFunctionDef))]
    out = []
    for name, fn in found:
        if name in NOT_SWEPT or (functions is not None and name not in functions):
            continue
        for node in ast.walk(fn):
            said = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                func = node.exc.func
                cls = (getattr(module, func.id, None) if isinstance(func, ast.Name) else
                       getattr(getattr(module, getattr(func.value, "id", ""), None), func.attr, None)
                       if isinstance(func, ast.Attribute) else None)
                if isinstance(cls, type) and issubclass(cls, TournamentError):
                    said = node.exc.args[0]
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "_refused"
                  and len(node.args) >= 2):
                said = node.args[1]
            if isinstance(said, (ast.Constant, ast.JoinedStr, ast.BinOp)):
                out += [(f"{module.__name__}.{name}:{node.lineno}", text) for text in _variants(said)]
    return out


def test_every_sentence_the_hub_refuses_with_is_listed_with_its_spanish() -> None:
    """Each refusal the hub's module (and the league's, which only the hub serves) makes with words
    of its own, read from the code with sample values, matches a pattern the hub lists whose Spanish
    the catalog gives: a sentence left out would reach a Spanish client in English, and this names
    it, and where it is made."""
    from tournament import i18n
    from tournament.event import league
    from tournament.web import hub
    from tournament.web.hub import phrases_of_the_hub

    spanish = i18n.translations("es").gettext
    found = _sentences(hub) + _sentences(league, {"tiebreaks", "group"})
    assert len(found) >= 15, found
    missing = []
    for where, text in found:
        pattern = phrases.pattern_of(text, phrases_of_the_hub())
        if pattern is None or spanish(pattern) == pattern:
            missing.append(f"{where}: {text}")
    assert not missing, "\n".join(missing)
    for pattern in (*hub.REFUSALS, *league.REFUSALS, *league.TIEBREAKS.values(), league.NO_CLUB):
        assert spanish(pattern) != pattern, pattern


def test_the_event_list_names_the_game_in_the_pages_language(hub) -> None:
    """The hub's list of events says each event's game in the page's language, as the event's own
    pages do (a tester saw "competitive · en directo" on the Spanish list)."""
    client, _ = hub
    spanish = client.get("/", headers={"accept-language": "es"}).text
    assert "competitivo · en directo" in spanish and "competitive ·" not in spanish
    assert "competitive · live" in client.get("/").text

"""The venue in Spanish wherever a director or a table meets it.

* A request that comes while the server is shutting down is refused in the client's language
  (503), not answered as a fault of the server's own.
* "Next round" on the director's page (``POST /api/v1/director/pair``): every refusal of the
  pairing and of the stages on its way (a balanced schedule, a Swiss field too small, a knockout
  or a final drawn, a team event, a duplicate movement, the seeding) in Spanish, each as the
  director's page gets it.
* The sweep: every refusal the pairing path can raise (each ``raise`` of a tournament error in
  its modules, read from the code) is a listed sentence with its Spanish; and each JSON route of
  the tables and the director, sent the wrong requests a phone or a page can send, answers
  Spanish to a Spanish client.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from domrec import phrases

from tests.tournament.test_director_words import _english_words
from tests.tournament.test_venue import _auth, _event, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def _pair_refused(server, body=None) -> tuple[str, str]:
    """The director's "next round" refused, in English and in Spanish (the English first, so a
    refusal that could only be made once is made the same way twice)."""
    client = starlette_testclient.TestClient(server.asgi)
    director = _key(server.call(server.venue.links, "http://testserver")["director"])
    said = {}
    for lang in ("en", "es"):
        r = client.post("/api/v1/director/pair", json=body or {}, headers={**_auth(director), "Accept-Language": lang})
        assert 400 <= r.status_code < 500, r.text
        said[lang] = r.json()["error"]
    return said["en"], said["es"]


def _spanish(en: str, es: str) -> None:
    from tournament.web.app import PHRASES

    assert phrases.listed(en, PHRASES), en
    assert "\n" not in es and es != en and not _english_words(es), (en, es)


# --- the server shutting down ------------------------------------------------------------------


def test_a_request_while_the_server_shuts_down_is_refused_in_spanish(tmp_path: Path) -> None:
    server = _server(_event(tmp_path))
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    table, director = links["tables"][0]["token"], _key(links["director"])
    server.close()
    for method, url, token in (("GET", "/api/v1/tables/1/1", table), ("POST", "/api/v1/director/pair", director),
                               ("GET", "/api/v1/director", director)):
        said = {}
        for lang in ("en", "es"):
            r = client.request(method, url, headers={**_auth(token), "Accept-Language": lang},
                               **({"json": {}} if method == "POST" else {}))
            assert r.status_code == 503, (url, r.status_code, r.text)
            said[lang] = r.json()["error"]
        assert said["en"].startswith("the server is shutting down: nothing more is done"), said
        assert said["es"].startswith("el servidor se está cerrando"), said
        _spanish(said["en"], said["es"])


# --- "next round" on the director's page ------------------------------------------------------


def _finished_round(store) -> None:
    """Every open table of the last round given a typed score (NS wins)."""
    from tournament import enter_manual

    results = store.results()
    for t in store.tables(store.last_round()):
        if t.id not in results:
            enter_manual(store, t.number, {"NS": 150, "EW": 90}, round_no=t.round)


def _rotating(tmp_path: Path, players: int = 8, paired: int = 1, **settings) -> Path:
    from tournament import add_players, create_event, make_settings, pair_next_round

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Noche del club", "competitive", "rotating", seed=4, **settings))
    add_players(store, ["Ana", "Beto", "Carla", "Dani", "Eva", "Fito", "Gabi", "Hugo", "Inés", "Juan",
                        "Kike", "Lola"][:players])
    for _ in range(paired):
        pair_next_round(store)
        _finished_round(store)
    store.close()
    return path


def _knockout(tmp_path: Path) -> Path:
    from tournament import add_pairs, create_event, make_settings
    from tournament.event import stages
    from tournament.event.simulate import play_stage

    path = tmp_path / "cup.db"
    store = create_event(path, make_settings("Copa", "competitive", "pairs", seed=5))
    add_pairs(store, [(f"A{i}", f"B{i}", f"Pareja {i}") for i in range(1, 5)])
    stages.create_stage(store, "single", "list", [f"Pareja {i}" for i in range(1, 5)])
    play_stage(store, seed=3)
    store.close()
    return path


def _withdrawn(tmp_path: Path) -> Path:
    from tournament import open_event, withdraw

    path = _rotating(tmp_path, players=4)
    store = open_event(path)
    withdraw(store, "Ana")
    store.close()
    return path


def _too_few_duplicate_pairs(tmp_path: Path) -> Path:
    from tests.tournament.test_duplicate_event import new_event

    path = tmp_path / "dup.db"
    new_event(path, 4, "mitchell")
    return path


@pytest.mark.parametrize("make, body, english, spanish", [
    (_knockout, {}, "this event is in its single elimination stage (from round 1); Swiss rounds cannot be paired",
     "este torneo está en su fase de eliminación directa (desde la ronda 1)"),
    (lambda p: _rotating(p, paired=2, schedule="balanced", rounds=2), {},
     "the balanced schedule of this event has 2 rounds, all paired",
     "el calendario equilibrado de este torneo tiene 2 rondas, todas emparejadas"),
    (_withdrawn, {}, "round 2 needs at least 4 active players; there are 3",
     "la ronda 2 necesita al menos 4 jugadores en activo; hay 3"),
    (lambda p: _rotating(p), {"seed": "rating"}, "--seed orders round 1 only: round 2 is paired on the standings",
     "--seed ordena solo la ronda 1: la ronda 2 se empareja por la clasificación"),
    (lambda p: _rotating(p, paired=0), {"seed": "elo"}, "--seed is draw, rating, column:NAME",
     "--seed es draw, rating, column:NOMBRE (una columna del CSV de jugadores) o ratings:ARCHIVO (un archivo de "
     "ratings), no 'elo'"),
    (lambda p: _rotating(p, paired=0), {"seed": "column:elo"}, "no player has a 'elo' column to seed round 1 by",
     "ningún jugador tiene una columna 'elo' por la que sembrar la ronda 1: añada los jugadores desde un CSV que la "
     "tenga (tournament add EVENTO --csv jugadores.csv)"),
    (_too_few_duplicate_pairs, {}, "a duplicate movement needs at least 5 pairs (3 tables); 4 are entered",
     "un movimiento duplicado necesita al menos 5 parejas (3 mesas); hay 4 inscritas"),
], ids=["knockout", "balanced", "too-few", "seed-later", "seed-unknown", "seed-column", "duplicate-too-few"])
def test_next_round_refused_in_spanish(tmp_path: Path, make, body, english, spanish) -> None:
    server = _server(make(tmp_path))
    try:
        en, es = _pair_refused(server, body)
        assert english in en, en
        assert spanish in es, es
        _spanish(en, es)
    finally:
        server.close()


# --- the sweep: every refusal on the way of "next round", read from the code -------------------

#: Where "next round" goes (``Venue.pair_next`` -> ``rounds.pair_next_round`` and what it calls): a
#: module's every function (``None``), or the functions named.  ``possible``: the sentence a
#: balanced schedule is refused with is returned, then raised.
PAIR_PATH = {
    "tournament.event.venue": ("Venue.pair_next", "Venue._pair_next"),
    "tournament.event.rounds": ("pair_next_round", "_pair_teams"),
    "tournament.event.stages": ("refuse_swiss",),
    "tournament.event.seeding": None,
    "tournament.event.duplicate": ("movement", "pair_round"),
    "tournament.event.duplicate_teams": ("check_boards_for",),
    "tournament.pairing.seeding": ("seed_column",),
    "tournament.pairing.movements": ("_check",),
    "tournament.pairing.swiss": None,
    "tournament.pairing.schedule": None,
    "tournament.pairing.constraints": None,
    "tournament.pairing.teams": None,
}
#: Left out, and why: the venue refuses an unfinished round first, in its own words (listed), so a
#: duplicate round's own refusal (naming each table and board) is the command line's alone; a
#: ratings file seeds from the command line only (the page's seed is refused before).
NOT_ON_THE_WAY = {("tournament.event.seeding", "file_ratings")}
#: The sample value each placeholder of a refusal is read with (a number matches any kind of value).
SAMPLE = "7"


def _variants(node: ast.AST) -> list[str]:
    """The sentences an expression of a ``raise`` can make, two at most: every condition taken its
    first way, and every condition its second way (a plural's ``s``, a list left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value, node.value]
    if isinstance(node, ast.JoinedStr):
        ways = [_variants(v) for v in node.values]
        return ["".join(w[0] for w in ways), "".join(w[1] for w in ways)]
    if isinstance(node, ast.FormattedValue):
        inner = node.value
        words = (ast.Constant, ast.JoinedStr)
        if isinstance(inner, ast.IfExp) and isinstance(inner.body, words) and isinstance(inner.orelse, words):
            return [_variants(inner.body)[0], _variants(inner.orelse)[1]]
        if isinstance(inner, ast.BoolOp) and isinstance(inner.values[-1], ast.Constant):
            return [SAMPLE, str(inner.values[-1].value)]
        return [SAMPLE, SAMPLE]
    if isinstance(node, ast.IfExp):
        return [_variants(node.body)[0], _variants(node.orelse)[1]]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _variants(node.left), _variants(node.right)
        return [left[0] + right[0], left[1] + right[1]]
    return [SAMPLE, SAMPLE]


def _functions(tree: ast.Module, names) -> list[tuple[str, ast.AST]]:
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found.append((node.name, node))
        elif isinstance(node, ast.ClassDef):
            found += [(f"{node.name}.{f.name}", f) for f in node.body if isinstance(f, ast.FunctionDef)]
    return [(n, f) for n, f in found if names is None or n in names]


def _refusals_on_the_way():
    """(where, a sentence) for every refusal raised on the way of "next round"."""
    import importlib

    from tournament.errors import TournamentError

    out = []
    for name, functions in PAIR_PATH.items():
        module = importlib.import_module(name)
        tree = ast.parse(inspect.getsource(module))
        picked = _functions(tree, functions)
        assert functions is None or len(picked) == len(functions), (name, functions)
        for fname, fn in picked:
            if (name, fname) in NOT_ON_THE_WAY:
                continue
            for node in ast.walk(fn):
                said = None
                if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args:
                    cls = getattr(module, getattr(node.exc.func, "id", ""), None)
                    refusal = isinstance(cls, type) and (issubclass(cls, TournamentError) or fname == "seed_column")
                    if refusal and isinstance(node.exc.args[0], (ast.JoinedStr, ast.Constant, ast.BinOp)):
                        said = node.exc.args[0]
                elif isinstance(node, ast.Return) and fname == "possible" and isinstance(node.value, ast.JoinedStr):
                    said = node.value
                if said is not None:
                    out += [(f"{name}.{fname}:{node.lineno}", text) for text in dict.fromkeys(_variants(said))]
    return out


def test_every_refusal_of_next_round_has_its_spanish() -> None:
    """Each refusal the pairing path raises, read from the code with sample values, matches a listed
    pattern whose Spanish the catalog gives (a sentence not listed would reach a Spanish page in
    English: this names it, and where it is raised)."""
    from tournament import i18n
    from tournament.web.app import PHRASES

    spanish = i18n.translations("es").gettext
    found = _refusals_on_the_way()
    assert len(found) > 40, len(found)
    missing = []
    for where, text in found:
        pattern = phrases.pattern_of(text, PHRASES)
        if pattern is None or spanish(pattern) == pattern:
            missing.append(f"{where}: {text}")
    assert not missing, "\n".join(missing)


# --- the sweep: the tables' and the director's JSON routes, sent what should be refused ---------

#: Bodies a page (or a hand-made client) can send wrong: none, not JSON, not an object, empty, and
#: each field the routes read given the wrong kind of value.
_BODIES = (None, b"not json", b"[1]", {}, {"rev": "x"}, {"rev": 0}, {"rev": 0, "text": 5}, {"rev": 0, "mode": "x"},
           {"rev": 0, "side": "X", "pin": "0"}, {"rev": 0, "cid": "!"}, {"rev": 0, "at": "yesterday"},
           {"scores": "x"}, {"scores": {"NS": "a"}}, {"reason": 5}, {"hand": 0, "line": 0, "rev": 0, "text": "x",
                                                                         "reason": "r"}, {"seed": ["x"]})


def test_every_refusal_of_the_tables_and_directors_routes_is_spanish(tmp_path: Path) -> None:
    """Every JSON route of a table and of the director (the OpenAPI description's), sent with no
    key, a wrong key, a table's key where the director's is asked, a table that is not there, and
    each wrong body: every refusal matches listed patterns and reads Spanish to a Spanish client."""
    from tournament.web.app import PHRASES
    from tournament.web.openapi import OPENAPI

    server = _server(_event(tmp_path))
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        keys = {"none": None, "wrong": "x" * 22, "table": links["tables"][0]["token"],
                "director": _key(links["director"])}
        routes = [(path, method) for path, item in OPENAPI["paths"].items() for method in item
                  if path.startswith(("/api/v1/tables/", "/api/v1/director"))]
        assert len(routes) > 12, routes
        heard, unlisted = 0, []
        for path, method in routes:
            for where in ("1/1", "9/9", "x/1"):
                url = path.replace("{round}/{table}", where)
                for key, token in keys.items():
                    keyed = key in ("table", "director") and where == "1/1"  # else refused before the body is read
                    for body in ((_BODIES if keyed else ({},)) if method == "post" else (None,)):
                        said = {}
                        for lang in ("en", "es"):
                            headers = {"Accept-Language": lang, **(_auth(token) if token else {})}
                            kw = ({"content": body, "headers": {**headers, "Content-Type": "application/json"}}
                                  if isinstance(body, bytes) else {"json": body, "headers": headers}
                                  if body is not None else {"headers": headers})
                            r = client.request(method.upper(), url, **kw)
                            json_answer = r.headers.get("content-type", "").startswith("application/json")
                            said[lang] = r.json().get("error") if json_answer and 400 <= r.status_code < 500 else None
                        if said["en"] is None:
                            continue
                        heard += 1
                        sentence = re.sub(r"^\d+:\d+: ", "", said["en"])  # a refused line's place, kept as it is
                        if not phrases.listed(sentence, PHRASES) or said["es"] == said["en"]:
                            unlisted.append(f"{method.upper()} {url} ({key} key, {body!r}): {said['en']}")
        assert heard > 150, heard
        assert not unlisted, "\n".join(sorted(set(unlisted)))
    finally:
        server.close()

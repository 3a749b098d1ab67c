"""The pages players see in Spanish or English: the venue's pages and API (the language asked
for, then the cookie, then the browser's, then the event's), the refusals a table's phone gets,
the score sheets and the report with ``--lang``, and an event's language kept in its settings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import (
    add_players,
    create_event,
    make_settings,
    open_event,
    pair_next_round,
)
from tournament.cli import app
from tournament.errors import SettingsError
from tournament.settings import Settings

starlette_testclient = pytest.importorskip("starlette.testclient")
from tournament.web.app import VenueServer  # noqa: E402

runner = CliRunner()


def _event(tmp_path: Path, lang: str | None = None) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club <night>", "competitive", "rotating", seed=3, lang=lang))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    store.close()
    return path


@pytest.fixture
def served(tmp_path):
    def make(lang: str | None = None):
        path = _event(tmp_path, lang)
        server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
        made.append(server)
        links = server.call(server.venue.links, "http://testserver")
        return server, starlette_testclient.TestClient(server.asgi), links

    made: list[VenueServer] = []
    yield make
    for server in made:
        server.close()


def _table_path(links: dict) -> str:
    return "/" + links["tables"][0]["url"].split("/", 3)[3]


def _strings(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="strings">(.*?)</script>', html, re.DOTALL)
    assert found, "the page embeds no strings"
    return json.loads(found.group(1))


def test_the_table_page_follows_the_browser_then_the_switch(served):
    _, client, links = served()
    page = _table_path(links)
    es = client.get(page, headers={"Accept-Language": "es-ES,es;q=0.9,en;q=0.8"})
    assert es.status_code == 200 and '<html lang="es">' in es.text
    assert "Deshacer" in es.text and "Llamar al árbitro" in es.text and "Undo" not in es.text
    assert es.headers["vary"] == "Accept-Language, Cookie" and "set-cookie" not in es.headers
    strings = _strings(es.text)
    assert strings["Play by play"] == "Jugada a jugada" and strings["Confirm for %(side)s"] == "Confirmar por %(side)s"
    assert all(v for v in strings.values()) and len(strings) > 30
    # the switch: ?lang=en, kept in a cookie that then wins over the browser's language
    switched = client.get(page + "?lang=en", headers={"Accept-Language": "es"})
    assert '<html lang="en">' in switched.text and "Undo" in switched.text
    cookie = switched.headers["set-cookie"]
    assert cookie.startswith("lang=en;") and "samesite=lax" in cookie.lower()
    again = client.get(page, headers={"Accept-Language": "es"})
    assert '<html lang="en">' in again.text
    assert _strings(again.text)["Play by play"] == "Play by play"


def test_every_page_has_the_switch_and_names_its_language(served):
    _, client, links = served()
    token = links["director"].rsplit("/", 1)[1]
    for path in ("/", _table_path(links), f"/d/{token}", "/t/not-a-key"):
        html = client.get(path, headers={"Accept-Language": "es"}).text
        assert '<html lang="es">' in html, path
        assert re.search(r'<nav class="langs"[^>]*>.*Español.*English.*</nav>', html), path
        assert 'href="?lang=en"' in html and 'href="?lang=es"' not in html, path
    refused = client.get("/t/not-a-key", headers={"Accept-Language": "es"}).text
    assert "la clave de este enlace no es de ninguna mesa de este torneo" in refused


def test_the_event_language_is_the_default(served):
    _, client, _ = served("es")
    assert '<html lang="es">' in client.get("/").text  # no Accept-Language: the event's
    assert "Ronda 1: busque su mesa" in client.get("/").text
    assert '<html lang="en">' in client.get("/", headers={"Accept-Language": "en-GB"}).text
    assert '<html lang="es">' in client.get("/", headers={"Accept-Language": "fr"}).text
    assert '<html lang="es">' in client.get("/?lang=xx").text  # a language without pages: asked in vain
    assert '<html lang="en">' in client.get("/?lang=en").text


def test_a_refusal_comes_in_the_clients_language_with_its_line_and_column(served):
    _, client, links = served()
    token = links["tables"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    state = client.get("/api/v1/tables/1/1", headers=auth).json()
    r = client.post("/api/v1/tables/1/1/dgn", headers={**auth, "Accept-Language": "es"},
                    json={"rev": state["rev"], "text": "hand 1\n   9-9"})
    assert r.status_code == 422 and r.headers["vary"] == "Accept-Language, Cookie"
    body = r.json()
    assert (body["line"], body["column"]) == (2, 4)
    assert body["error"] == ("2:4: ¿de quién es esta jugada? escriba antes el asiento (N 9-9): aún no se sabe "
                             "quién sale [asientos]"), body
    english = client.post("/api/v1/tables/1/1/dgn", headers=auth, json={"rev": state["rev"], "text": "hand 1\n   9-9"})
    assert english.json()["error"].startswith("2:4: ") and " no " not in english.json()["error"]
    stale = client.post("/api/v1/tables/1/1/dgn", headers={**auth, "Accept-Language": "es"},
                        json={"rev": state["rev"] + 5, "text": "hand 1"})
    assert stale.status_code == 409 and stale.json()["error"].startswith("la mesa ya ha avanzado")


def test_what_is_said_of_a_move_and_the_moves_labels_come_translated(served):
    _, client, links = served()
    token = links["tables"][0]["token"]
    auth = {"Authorization": f"Bearer {token}", "Cookie": "lang=es"}
    rev = client.get("/api/v1/tables/1/1", headers=auth).json()["rev"]
    state = client.post("/api/v1/tables/1/1/mode", headers=auth, json={"rev": rev, "mode": "play"}).json()
    assert state["said"] == ["esta mesa anota jugada a jugada"]
    deal = ("hand 1 lead N\ndeal N 6-6 6-5 6-4 6-3 6-2 6-1 6-0; E 5-5 5-4 5-3 5-2 5-1 5-0 4-4; "
            "S 4-3 4-2 4-1 4-0 3-3 3-2 3-1; W 3-0 2-2 2-1 2-0 1-1 1-0 0-0")
    state = client.post("/api/v1/tables/1/1/dgn", headers=auth, json={"rev": state["rev"], "text": deal}).json()
    assert state["game"]["legal"] and all(m["label"].startswith("N juega ") for m in state["game"]["legal"])
    state = client.post("/api/v1/tables/1/1/dgn", headers=auth, json={"rev": state["rev"], "text": "6-6"}).json()
    assert state["said"][0] == "N juega 6-6" and all("(obligado)" in x for x in state["said"][1:])
    assert state["game"]["hands"][0]["moves"][0]["label"] == "N juega 6-6"
    plain = client.get("/api/v1/tables/1/1", headers={"Authorization": f"Bearer {token}"}).json()
    assert plain["game"]["hands"][0]["moves"][0]["label"] == "N plays 6-6"  # the data stays English for others
    # The table's picture, under "This hand": its words in Spanish, its notation as it is.
    assert state["game"]["table"][0].startswith("línea: [6-6]"), state["game"]["table"]
    assert plain["game"]["table"][0].startswith("line: [6-6]"), plain["game"]["table"]


def test_the_director_sheets_and_replay_follow_the_language(served):
    _, client, links = served()
    token = links["director"].rsplit("/", 1)[1]
    sheets = client.get(f"/d/{token}/sheets", headers={"Accept-Language": "es"}).text
    assert '<html lang="es">' in sheets and "Firma" in sheets and "Ronda 1 · Mesa 1" in sheets
    desk = client.get(f"/d/{token}", headers={"Accept-Language": "es"}).text
    assert "Emparejar la siguiente ronda" in desk


def test_the_score_sheets_and_the_report_in_spanish(tmp_path):
    path = _event(tmp_path)
    r = runner.invoke(app, ["sheets", str(path), "-o", str(tmp_path / "sheets"), "--lang", "es"])
    assert r.exit_code == 0, r.output
    page = (tmp_path / "sheets" / "round1-score-sheets.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in page and "Asiento" in page and "Ganador:" in page and "Firma NS" in page
    assert "Signature" not in page
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "report.html"), "--lang", "es"])
    assert r.exit_code == 0, r.output
    report = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert '<html lang="es">' in report and "Clasificación tras la ronda" in report and "por jugar" in report
    assert "compañeros rotativos" in report
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "screen.html"), "--screen", "--lang", "es"])
    assert r.exit_code == 0, r.output
    assert "busque su mesa" in (tmp_path / "screen.html").read_text(encoding="utf-8")
    r = runner.invoke(app, ["report", str(path), "-o", str(tmp_path / "x.html"), "--lang", "fr"])
    assert r.exit_code == 2 and "no pages in 'fr': the languages are en, es" in r.output
    assert "Traceback" not in r.output


def test_an_events_language_is_kept_and_old_events_are_english(tmp_path):
    r = runner.invoke(app, ["new", str(tmp_path / "es.db"), "--name", "Club", "--game", "competitive",
                            "--format", "rotating", "--lang", "es"])
    assert r.exit_code == 0, r.output
    store = open_event(tmp_path / "es.db")
    assert store.settings.lang == "es"
    store.close()
    r = runner.invoke(app, ["info", str(tmp_path / "es.db")])
    assert "language of the pages: es" in r.output
    r = runner.invoke(app, ["new", str(tmp_path / "fr.db"), "--name", "Club", "--game", "competitive",
                            "--format", "rotating", "--lang", "fr"])
    assert r.exit_code != 0 and "no pages in 'fr'" in r.output and not (tmp_path / "fr.db").exists()
    english = make_settings("Club", "competitive", "rotating")
    assert english.lang == "en" and "lang" not in json.loads(english.to_json())  # as every event before
    old = json.loads(english.to_json())
    assert Settings.from_json(json.dumps(old)).lang == "en"
    spanish = make_settings("Club", "competitive", "rotating", lang="es-MX")
    assert spanish.lang == "es" and Settings.from_json(spanish.to_json()) == spanish
    with pytest.raises(SettingsError):
        make_settings("Club", "competitive", "rotating", lang="klingon")
    # the sheets and the report of a Spanish event are in Spanish without --lang
    store = create_event(tmp_path / "club-es.db", spanish)
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    store.close()
    r = runner.invoke(app, ["sheets", str(tmp_path / "club-es.db"), "-o", str(tmp_path / "s")])
    assert r.exit_code == 0 and "Asiento" in (tmp_path / "s" / "round1-score-sheets.html").read_text(encoding="utf-8")


def _texts(html: str) -> str:
    """A page's text and its attributes' values, tags aside (what a reader meets)."""
    import html as htmllib

    return htmllib.unescape(re.sub(r"<[^>]+>", "\n", html))


def test_the_hall_pages_in_spanish_show_no_english_sentence(tmp_path):
    """Every page of the hall and the report, written in Spanish, holds none of the English
    sentences of the catalogs (a sentence of two words or more whose Spanish differs): a
    template's text without its translation, or a page's own English, fails here."""
    from babel.messages.pofile import read_po

    from tournament.event.public import public_data
    from tournament.event.simulate import simulate_event
    from tournament.i18n import LOCALE
    from tournament.pages import public as pages
    from tournament.pages.public import Site

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 12, 3, seed=5)
    with (LOCALE / "es" / "LC_MESSAGES" / "tournament.po").open("rb") as f:
        catalog = read_po(f)
    english = [m.id for m in catalog if isinstance(m.id, str) and m.id and m.string != m.id
               and " " in m.id.strip() and "%(" not in m.id and "<" not in m.id]
    assert len(english) > 50
    from tournament import open_event

    store = open_event(path)
    data = public_data(store)
    store.close()
    players = [p["id"] for p in data["players"]]
    for served in (True, False):
        site = Site(served=served)
        made = [pages.page_html(data, site, page, lang="es") for page in ("index", "tables", "standings",
                                                                          "games", "crosstable")]
        made.append(pages.page_html(data, site, "player", players[0], lang="es"))
        made.append(pages.projector_html(data, site, "http://127.0.0.1:8000/", lang="es"))
        made.append(pages.report_html(data, site, "es"))
        for html in made:
            assert '<html lang="es">' in html
            text = _texts(html)
            left = [s for s in english if re.search(r"(?<![\w])" + re.escape(s) + r"(?![\w])", text)]
            assert not left, left

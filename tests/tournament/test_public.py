"""The hall's pages (issue 24): what ``tournament serve`` shows with no key, and the same pages as
``tournament report`` writes them as files.

Through the server's application in-process (an ASGI test client): every public page of an event
of each of the five games, a game in play never shown (its moves change nothing a public page
says; its replay is refused), names escaped, find your table by name and by number, the main
region and its change number for the live script, the replay of a confirmed game, the
projector's clock and champion, the public page's QR code; and the live stream against a real
server on 127.0.0.1 (uvicorn in a thread): a confirmed result reaches an open stream."""

from __future__ import annotations

import datetime
import re
import time
from html.parser import HTMLParser

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round, withdraw
from tournament.event import public as pub
from tournament.event.changes import latest_public_seq, latest_seq
from tournament.event.results import enter_manual
from tournament.event.simulate import simulate_event
from tournament.pages import public as pages, report as rp

from .test_pages import run
from .test_venue import EVENTS, _auth, _event, _game_of, _play, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

EVIL = "<script>alert(1)</script>"
PUBLIC = ("/", "/tables", "/standings", "/games", "/crosstable")


def _client(server):
    return starlette_testclient.TestClient(server.asgi)


def _confirm(client, token: str, state: dict) -> dict:
    for side in state["sides"]:
        body = {"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side}
        r = client.post(f"/api/v1/tables/{state['round']}/{state['table']}/confirm", headers=_auth(token), json=body)
        assert r.status_code == 200, r.json()
        state = r.json()
    assert state["status"] == "confirmed"
    return state


def _now(server, client, url: str):
    """The page as of what it shows: the public pages' revision (the round's tables and the results,
    which show the tables' statuses: the event's latest change), as its ``X-Seq`` says."""
    follows = latest_seq if url.split("?")[0] in ("/tables", "/games") else latest_public_seq
    want = str(server.call(lambda: follows(server.venue.store)))
    deadline = time.monotonic() + 60
    while True:
        r = client.get(url)
        assert r.status_code in (200, 204), (url, r.text[:300])  # 204: still the change ``since`` names
        if r.status_code == 200 and r.headers["x-seq"] == want:
            return r
        assert time.monotonic() < deadline, f"{url} still shows change {r.headers.get('x-seq')}, not {want}"
        time.sleep(0.05)


def _main(server, client, url: str) -> str:
    return _now(server, client, url + ("&" if "?" in url else "?") + "part=main").text


# --- every game: a game in play is never shown; once confirmed, it is --------------------------


@pytest.mark.parametrize("key", list(EVENTS))
def test_a_game_in_play_shows_nothing_and_once_confirmed_its_result_and_replay(tmp_path, key):
    path = _event(tmp_path, key)
    server = _server(path)
    try:
        client = _client(server)
        links = server.call(server.venue.links, "http://testserver")
        token = links["tables"][0]["token"]
        record = _game_of(path, 1, 1, seed=5)
        player = open_event(path)
        first = player.tables(1)[0].seats[0].player
        player.close()
        urls = [*PUBLIC, f"/players/{first}", "/projector"]
        before = {u: _main(server, client, u) for u in urls}
        # The whole game recorded, its deal and every move, but not confirmed: nothing public changes
        # but the table's status (the round's tables and the results say "game over, waiting for
        # confirmation" where they said "to play").
        state = _play(client, token, 1, 1, record, whole_hands=True)
        assert state["game"]["over"] and state["status"] == "waiting"
        waiting = "game over, waiting for confirmation"
        for u in urls:
            now = _main(server, client, u)
            assert now.replace(waiting, "to play", 1) == before[u], f"{u} changed while the game was in play"
        assert waiting in _main(server, client, "/tables")
        r = client.get("/games/1/1")
        assert r.status_code == 404 and "no result yet" in r.text
        assert "/games/1/1" not in _now(server, client, "/games").text
        # Confirmed: the result and its replay are public.
        state = _confirm(client, token, state)
        games = _now(server, client, "/games").text
        assert 'href="/games/1/1"' in games
        scores = state["result"]["scores"]
        assert all(f'<span class="sc">{v}</span>' in games for v in scores.values())
        replay = client.get("/games/1/1")
        assert replay.status_code == 200 and 'name="generator" content="domrec replay page"' in replay.text
        assert "script-src 'unsafe-inline'" in replay.headers["content-security-policy"]
        # Among the venue's pages, the replay has their language line too (it had none)
        spanish = client.get("/games/1/1?lang=es").text
        assert '<nav class="langs"' in spanish and '<a href="?lang=en" lang="en"' in spanish
        assert '<span lang="es" aria-current="true">Español</span>' in spanish
        page = _now(server, client, f"/players/{first}").text
        assert 'href="/games/1/1"' in page
        for u in urls:
            assert client.get(u).status_code == 200
    finally:
        server.close()


def test_every_public_page_escapes_names_and_carries_the_guards(tmp_path):
    path = tmp_path / "evil.db"
    store = create_event(path, make_settings(f"Club {EVIL}", "competitive", "rotating", seed=2))
    add_players(store, [EVIL, "Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus"])
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 150, "EW": 90})
    store.close()
    server = _server(path)
    try:
        client = _client(server)
        for url in (*PUBLIC, "/players/1", "/projector", "/?q=script", "/?q=%231"):
            r = client.get(url)
            assert r.status_code == 200, url
            assert EVIL not in r.text and "&lt;script&gt;alert(1)&lt;/script&gt;" in r.text, url
            assert r.headers["x-content-type-options"] == "nosniff" and "set-cookie" not in r.headers
            assert "default-src 'self'" in r.headers["content-security-policy"]
            assert not re.search(r"""(src|href)=["']?(https?:)?//""", r.text), url  # nothing from elsewhere
    finally:
        server.close()


def test_find_your_table_by_name_and_by_number(tmp_path):
    path = tmp_path / "find.db"
    store = create_event(path, make_settings("Find", "competitive", "rotating", seed=2))
    add_players(store, ["Ángel Ortiz", "Ana", "bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])  # nine: a bye
    pair_next_round(store)
    store.close()
    server = _server(path)
    try:
        client = _client(server)
        page = client.get("/").text
        names = re.findall(r'class="who" href="/players/\d+">(.*?)</a>', page)
        assert len(names) == 9 and names.index("Ana") < names.index("Ángel Ortiz") < names.index("bo")
        assert "bye" in page
        for query, expected in (("angel", ["Ángel Ortiz"]), ("ÁNGEL ort", ["Ángel Ortiz"]), ("3", ["bo"]),
                                ("#3", ["bo"]), ("nobody", [])):
            found = client.get("/", params={"q": query}).text
            shown = re.findall(r'class="who" href="/players/\d+">(.*?)</a>', found)
            assert shown == expected, query
        assert "Nobody by that name or number" in client.get("/", params={"q": "zz"}).text
    finally:
        server.close()


def test_the_main_region_and_its_change_number(tmp_path):
    """What the live script asks: ?part=main is the page's main region alone, with the change number
    (X-Seq) it shows; asked with that number while nothing changed, the answer is empty (204)."""
    path = _event(tmp_path)
    server = _server(path)
    try:
        client = _client(server)
        full = client.get("/standings")
        part = client.get("/standings?part=main")
        seq = part.headers["x-seq"]
        assert full.headers["x-seq"] == seq and f'data-seq="{seq}"' in full.text
        assert "<html" not in part.text and part.text.strip() in full.text
        assert client.get(f"/standings?part=main&since={seq}").status_code == 204
        store = open_event(path)
        enter_manual(store, 1, {"NS": 120, "EW": 80})  # at the command line, while the server runs
        store.close()
        after = _now(server, client, f"/standings?part=main&since={seq}")
        assert int(after.headers["x-seq"]) > int(seq)
        zipped = client.get("/standings", headers={"accept-encoding": "gzip"})
        assert zipped.status_code == 200 and zipped.headers["content-encoding"] == "gzip"
    finally:
        server.close()


# --- the projector ------------------------------------------------------------------------------------


def test_the_projector_shows_the_rounds_clock_when_the_event_has_a_time_limit(tmp_path):
    path = tmp_path / "clock.db"
    store = create_event(path, make_settings("Clock", "competitive", "rotating", seed=2, time_limit=40))
    add_players(store, ["A", "B", "C", "D"])
    pair_next_round(store)
    paired = datetime.datetime.fromisoformat(store.rounds()[0].paired_at)
    store.close()
    server = _server(path)
    try:
        page = _client(server).get("/projector").text
        ends = re.search(r'data-ends="([^"]+)"', page).group(1)
        assert datetime.datetime.fromisoformat(ends) - paired == datetime.timedelta(minutes=40)
        assert "Round 1 ends at" in page
        assert 'src="/static/projector.js"' in page and 'src="/static/live.js"' in page
        # The public page's QR code, drawn here (inline SVG, nothing fetched).
        assert "<svg" in page and "QR code of the event" in page and "http://<wbr>testserver/" in page  # (a break offered after the scheme)
    finally:
        server.close()
    store = open_event(path)
    enter_manual(store, 1, {"NS": 150, "EW": 90})
    assert pub.clock(pub.public_data(store)) is None  # the round is over: no clock
    store.close()


def test_the_projector_after_a_final_shows_the_champion_and_the_final_placings(tmp_path):
    path = tmp_path / "final.db"
    simulate_event(path, "competitive", "rotating", 8, 2, seed=4)
    assert run("final", path, "--top", 4).exit_code == 0
    for _ in range(3):
        assert run("result", path, "--match", "F1", "--score", "NS=200,EW=100").exit_code == 0
    store = open_event(path)
    data = pub.public_data(store)
    store.close()
    screens = pages.projector_screens(data)
    assert [s["kind"] for s in screens] == ["champion", "placings"]
    page = pages.projector_html(data, pages.Site(served=False, has_pages=False))
    assert "Standings after" not in page and "find your table" not in page
    assert screens[1]["rows"][0]["name"] == screens[0]["champion"]


def test_the_projector_pages_through_a_thousand_names():
    """A big event's "find your table" and standings as screens: every name once, each screen within
    what 1080 pixels hold."""
    rows = [{"name": f"Player {k:04d}", "id": k} for k in range(1, 1001)]
    data = {"stages": [], "rounds": [{"round": 1, "stage": 1, "label": "round 1", "byes": [], "paired_at": None,
                                      "tables": [{"table": k // 4 + 1, "match": None, "result": None,
                                                  "seats": [{"seat": "NESW"[i], "side": "NS" if i % 2 == 0 else "EW",
                                                             "id": r["id"], "name": r["name"]}
                                                            for i, r in enumerate(rows[k:k + 4])]}
                                                 for k in range(0, 1000, 4)]}],
            "standings": {"standings": [{"rank": k, "id": k, "name": f"Player {k:04d}", "wins": 1, "diff": 0,
                                         "for": 0} for k in range(1, 1001)],
                          "tiebreaks": ["wins", "diff", "for"], "through_round": 0, "provisional": True}}
    screens = pages.projector_screens(data)
    finds = [s for s in screens if s["kind"] == "find"]
    names = [row["name"] for s in finds for col in s["columns"] for row in col]
    assert sorted(names) == [r["name"] for r in rows] and len(finds) > 1
    # (each column within its screen's rows: the narrow columns' rows are lower, pages.FIND_LINE)
    assert all(len(col) <= min(s["fit"].rows, pages.FIND_ROWS_DENSE) for s in finds for col in s["columns"])
    std = [s for s in screens if s["kind"] == "standings"]
    assert sum(len(col) for s in std for col in s["columns"]) == 1000


# --- the live stream ------------------------------------------------------------------------------------


def _events(lines) -> dict:
    """The next event of a stream: its fields (keep-alive comments are skipped)."""
    event: dict = {}
    for line in lines:
        if not line:
            if event:
                return event
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        event[name] = value.strip()
    raise AssertionError("the stream ended")


def test_a_confirmed_result_reaches_an_open_stream(tmp_path):
    httpx = pytest.importorskip("httpx")
    from tournament.web.background import BackgroundVenue

    path = _event(tmp_path)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        token = served.links["tables"][0]["token"]
        record = _game_of(path, 1, 1, seed=5)
        with httpx.Client(base_url=served.base_url, timeout=60) as client:
            with client.stream("GET", "/live") as stream:
                assert stream.status_code == 200 and stream.headers["content-type"].startswith("text/event-stream")
                lines = stream.iter_lines()
                assert _events(lines) == {"retry": "2000"}
                first = _events(lines)
                assert first["event"] == "seq" and first["id"] == first["data"]
                state = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()
                from domrec.session import requests_for

                from tests.tournament.helpers import hand_by_hand

                for text in hand_by_hand(requests_for(record, keep_deal=True)):
                    state = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                                        json={"rev": state["rev"], "text": text}).json()
                for side in state["sides"]:
                    state = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                                        json={"rev": state["rev"], "side": side}).json()
                assert state["status"] == "confirmed"
                # The event's change number now (the result is in): the stream says so, at the latest
                # after the changes before it (a table's status: playing, waiting); each read waits as
                # long as the client's timeout allows.
                now = int(client.get("/standings?part=main").headers["x-seq"])
                assert now > int(first["data"])
                heard = [int(first["data"])]
                while heard[-1] < now:
                    event = _events(lines)
                    if event["event"] == "spread":  # over how long the phones spread their fetches
                        assert 400 <= int(event["data"]) <= 1500
                        continue
                    assert event["event"] == "seq" and event["id"] == event["data"]
                    heard.append(int(event["data"]))
                assert heard == sorted(set(heard)) and heard[-1] == now


def test_streams_are_bounded_and_end_by_themselves(tmp_path):
    path = _event(tmp_path)
    server = _server(path, stream_lifetime=0.2)
    try:
        client = _client(server)
        r = client.get("/live")  # ends after its lifetime: the test client reads it whole
        assert r.status_code == 200 and "event: seq" in r.text and r.text.startswith("retry: ")
        server.live.max_streams = 0
        r = client.get("/live")
        assert r.status_code == 503 and "refreshes itself" in r.json()["error"] and r.headers["retry-after"]
    finally:
        server.close()


def test_a_head_of_the_live_stream_takes_no_place_among_the_streams(tmp_path):
    """``HEAD /live`` was a stream without its body: it took one of the 500 places for its ten
    minutes, sending nothing, so a script could fill them for every phone of the hall.  Now it is
    answered the stream's head at once and takes no place; with none left it is told 503 as a GET."""
    path = _event(tmp_path)
    server = _server(path, stream_lifetime=0.2)
    try:
        client = _client(server)
        taken = []
        reserve = server.live.reserve
        server.live.reserve = lambda: taken.append(1) or reserve()
        r = client.head("/live")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream") and r.content == b""
        assert taken == [] and server.live.streams == 0
        server.live.max_streams = 0
        assert client.head("/live").status_code == 503
    finally:
        server.close()


# --- the same pages as files ------------------------------------------------------------------------------


class _Links(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[str] = []
        self.scripts = 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("href") and not a["href"].startswith("#"):
            self.links.append(a["href"])
        if tag == "script":
            self.scripts += 1


def _text(html: str) -> str:
    """A page's main region as a reader sees it: its words, without markup or links."""
    main = re.search(r'<main id="main"[^>]*>(.*)</main>', html, re.DOTALL).group(1)
    return " ".join(re.sub(r"<[^>]+>", " ", main).split())


def test_report_writes_the_same_pages_as_files(tmp_path):
    from urllib.parse import unquote

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 12, 2, seed=4)
    assert run("pair", path).exit_code == 0
    out = tmp_path / "club.html"
    r = run("report", path, "-o", out)
    assert r.exit_code == 0, r.output
    folder = tmp_path / "club-pages"
    store = open_event(path)
    players = store.players()
    store.close()
    names = {p.name for p in folder.iterdir()}
    assert {"index.html", "tables.html", "standings.html", "games.html", "crosstable.html"} <= names
    assert {f"player-{p.id}.html" for p in players} <= names
    server = _server(path)
    try:
        client = _client(server)
        for name, url in (("index", "/"), ("standings", "/standings"), ("games", "/games"),
                          ("crosstable", "/crosstable"), ("tables", "/tables"), (f"player-{players[0].id}",
                                                                                 f"/players/{players[0].id}")):
            written = (folder / f"{name}.html").read_text(encoding="utf-8")
            served = client.get(url).text
            assert rp.REPORT_MARK in written[:1000]
            assert _text(written) == _text(served), name
    finally:
        server.close()
    # Files: no script, every link relative and to a file that is there.
    for page in [out, *folder.iterdir()]:
        found = _Links(page.read_text(encoding="utf-8"))
        assert found.scripts == 0, page
        for link in found.links:
            assert not link.startswith(("/", "http")), (page, link)
            assert (page.parent / unquote(link)).is_file(), (page, link)
    assert 'href="club-pages/standings.html"' in out.read_text(encoding="utf-8")
    # A second report replaces its own pages without --force; a page of somebody else's is kept.
    (folder / "standings.html").write_text("<p>mine</p>", encoding="utf-8")
    r = run("report", path, "-o", out)
    assert r.exit_code == 2 and "nothing was written" in r.output
    assert (folder / "standings.html").read_text(encoding="utf-8") == "<p>mine</p>"


def test_the_report_projector_pages_itself_with_no_script(tmp_path):
    path = tmp_path / "ev.db"
    simulate_event(path, "competitive", "rotating", 40, 1, seed=4)
    assert run("pair", path).exit_code == 0
    out = tmp_path / "screen.html"
    assert run("report", path, "--screen", "-o", out, "--url", "http://192.0.2.7:8000").exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "<script" not in page and "@keyframes screens" in page
    assert page.count('class="screen') >= 2 and "animation-delay:" in page
    assert "http://<wbr>192.0.2.7:8000/" in page and "<svg" in page
    assert run("report", path, "-o", tmp_path / "r.html", "--url", "http://x").exit_code == 2  # --url is --screen's


@pytest.mark.parametrize("game, players, size", [("castle-rock", 10, 4), ("horse-race", 7, 4), ("castle-rock", 11, 5)])
def test_a_players_running_placement_points_are_the_standings(tmp_path, game, players, size):
    """Individual play with tables of different sizes: a player's page counted a smaller table's
    places with the full table's points (3, 2, 1, 0 at a table of three, where the standings give
    3, 1.5, 0: docs/tournament.md, "Tables of different sizes"); its running total after the last
    game is now the standings' own."""
    from tournament.event.public import player_view, public_data
    from tournament.event.simulate import simulate_event

    path = tmp_path / "ind.db"
    simulate_event(path, game, "individual", players, 3, seed=3, table_size=size)
    store = open_event(path)
    try:
        data = public_data(store)
    finally:
        store.close()
    sizes = {len(t["seats"]) for r in data["rounds"] for t in r["tables"]}
    assert len(sizes) > 1, sizes  # (tables of two sizes: what is looked at)
    for row in data["standings"]["standings"]:
        assert player_view(data, row["id"])["totals"]["placement"] == row["placement"], row


def test_a_players_page_says_one_win_in_the_singular(tmp_path):
    """"So far: 1 wins" (and "1 victorias"): one win is a win."""
    from tournament.event.public import player_view, public_data
    from tournament.event.simulate import simulate_event
    from tournament.pages import public as pages

    path = tmp_path / "rot.db"
    simulate_event(path, "competitive", "rotating", 8, 3, seed=2)
    store = open_event(path)
    try:
        data = public_data(store)
    finally:
        store.close()
    site = pages.Site(served=True, recorded=frozenset())
    seen = set()
    for p in data["players"]:
        wins = [g["totals"]["wins"] for g in player_view(data, p["id"])["games"] if g.get("totals")]
        for lang, one, many in (("en", "So far: 1 win, ", " 1 wins"), ("es", "Hasta ahora: 1 victoria, ", " 1 victorias")):
            html = pages.page_html(data, site, "player", p["id"], lang=lang)
            assert many not in html
            if 1 in wins:
                assert one in html
                seen.add(lang)
    assert seen == {"en", "es"}


def test_a_search_finds_a_name_whatever_letters_its_keyboard_has(tmp_path):
    """Case and accents aside, and the letters Unicode does not take apart (Ł, Ø, Æ): "lukasz"
    found nobody for Łukasz, whose letter sorted after Z."""
    from tournament.event import public as pub

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=1))
    add_players(store, ["Łukasz Żółw", "Søren Ørsted", "José Núñez", "Ægir Dóttir", "Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    try:
        data = pub.public_data(store)
    finally:
        store.close()
    rows = pub.find_your_table(pub.current_round(data["rounds"]), pub._pair_numbers(data))
    for typed, name in (("lukasz", "Łukasz Żółw"), ("zolw", "Łukasz Żółw"), ("soren orsted", "Søren Ørsted"),
                        ("JOSE nunez", "José Núñez"), ("aegir", "Ægir Dóttir")):
        assert [r["name"] for r in pub.search(rows, typed)] == [name], typed
    assert next(r for r in rows if r["name"].startswith("Ł"))["key"].startswith("l")  # (listed under L)


def test_the_crosstable_marks_a_sides_forfeit_as_a_players(tmp_path):
    """A side that did not play (``result --forfeit EW``): both sides' cells are marked, as a
    player's forfeit is (they showed a plain "W 200–0"); the mark says "by forfeit" (the
    Spanish page said "no presentado", did not show up, on the winners' cells too)."""
    from tournament import enter_forfeit
    from tournament.event import public as pub
    from tournament.pages import public as pages

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    enter_forfeit(store, 1, ("EW",))
    try:
        data = pub.public_data(store)
    finally:
        store.close()
    table = data["rounds"][0]["tables"][0]
    seated = {s["id"] for s in table["seats"]}
    cells = [row["cells"][0] for row in pub.crosstable(data)["rows"] if row["id"] in seated]
    assert len(cells) == 4 and all(c["forfeit"] for c in cells), cells
    assert sorted(c["outcome"] for c in cells) == ["L", "L", "W", "W"]
    site = pages.Site(served=True, recorded=frozenset())
    es = pages.page_html(data, site, "crosstable", lang="es")
    assert es.count("por incomparecencia") == 4 and "no presentado" not in es and "ganada (G)" in es


def test_the_crosstable_says_what_a_table_number_in_a_cell_means(tmp_path):
    """A game still being played shows "T3", whose only explanation was a hover title, which a
    phone cannot show: the legend says it while such a game is on the page."""
    from tournament import enter_manual
    from tournament.event import public as pub
    from tournament.pages import public as pages

    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    site = pages.Site(served=True, recorded=frozenset())
    try:
        playing = pages.page_html(pub.public_data(store), site, "crosstable", lang="es")
        assert "Una partida aún en juego muestra su mesa: M3." in playing
        enter_manual(store, 1, {"NS": 150, "EW": 90})
        enter_manual(store, 2, {"NS": 50, "EW": 151})
        done = pages.page_html(pub.public_data(store), site, "crosstable", lang="en")
        assert "still being played" not in done
    finally:
        store.close()


def test_a_search_finds_a_withdrawn_player_and_says_they_withdrew_in_english_and_spanish(tmp_path):
    """A player who withdrew is not seated in the round shown, but has their page: a search by
    their number or their name finds them, with the round they withdrew from (the catalog's words
    for it, as their page says), not "Nobody by that name or number"."""
    path = tmp_path / "gone.db"
    simulate_event(path, "competitive", "rotating", 8, 2, seed=3)
    store = open_event(path)
    gone = withdraw(store, "#8")
    pair_next_round(store)
    store.close()
    server = _server(path)
    try:
        client = _client(server)
        assert client.get("/players/8").status_code == 200
        for query in ("#8", "8", gone.name):
            page = client.get("/", params={"q": query}).text
            assert "Nobody by that name or number" not in page, query
            assert re.findall(r'class="who" href="/players/(\d+)">', page) == ["8"], query
            assert "Withdrawn from round 3." in page, query
        page = client.get("/", params={"q": "#8", "lang": "es"}).text
        assert "Nadie con ese nombre o número" not in page and "Retirado desde la ronda 3." in page
        assert re.findall(r'class="who" href="/players/(\d+)">', page) == ["8"]
        everybody = client.get("/").text  # the round's seating itself lists who plays it
        assert 'href="/players/8"' not in everybody
    finally:
        server.close()


def test_a_sit_out_on_a_players_page_scores_as_the_standings_score_it(tmp_path):
    """A round the player asked to sit out scores the event's sit-out (nothing by default), not a
    bye's game won: the player's page counted it as a bye, one win more than the standings."""
    import json

    from tournament.event.public import player_view, public_data

    path = tmp_path / "sat.db"
    assert run("new", path, "--name", "S", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, *"ABCDEFGH").exit_code == 0
    assert run("pair", path).exit_code == 0
    for table in (1, 2):
        assert run("result", path, "--table", table, "--score", "NS=200,EW=100").exit_code == 0
    assert run("sit-out", path, "A").exit_code == 0
    assert run("pair", path).exit_code == 0  # A sits out; three others have the pairing's byes
    rows = json.loads(run("standings", path, "--json").output)["standings"]
    store = open_event(path)
    try:
        data = public_data(store)
    finally:
        store.close()
    assert sum(r["byes"] for r in rows) == 4
    for row in rows:
        totals = player_view(data, row["id"])["totals"]
        assert (totals["wins"], totals["for"], totals["against"]) == (row["wins"], row["for"], row["against"]), row

"""The director's desk, round two, its last points (issue 39): a ratings file matched by federation
id, the director's page seeding round 1 as the command line does, one pair numbering on every
screen and slip of a pairs event, and the two forms of a result sharing what they start from."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.cli import rounds as cli_rounds


# --- the long and the short form of a result start from one place -------------------------------

def test_both_forms_of_a_result_share_who_was_absent_and_the_sides_order() -> None:
    """``tables`` (the long form) and a round's one-line form (the short one) take who did not come
    and the sides' seating order from one helper, so they cannot drift apart."""
    played = SimpleNamespace(scores={"EW": 40, "NS": 214}, winner="NS", kind="play", verified=True,
                             absent_players=(), note=None)
    assert cli_rounds._absent_and_order(played, ["NS", "EW", "NS"], None) == (None, ["NS", "EW"])
    gone = SimpleNamespace(scores={"EW": 0, "NS": 200}, winner="NS", kind="forfeit", verified=False,
                           absent_players=(7, 9), note=None)
    assert cli_rounds._absent_and_order(gone, ["NS", "EW"], {7: "Ana"}) == ("Ana, #9", [])
    assert cli_rounds._result_text(gone, ["NS", "EW"], people={7: "Ana"}).startswith("forfeit: Ana, #9 did not")
    assert cli_rounds._score_text(gone, ["NS", "EW"], {7: "Ana"}) == "forfeit: Ana, #9 absent"
    assert cli_rounds._score_text(played, ["NS", "EW"]) == "214–40 NS won"


# --- pair --seed ratings:FILE finds a player by federation id -----------------------------------

def test_a_ratings_file_seeds_by_federation_id_and_by_name_only_without_one(tmp_path) -> None:
    """Each player of last month's event had a federation id; this month the names are spelt
    otherwise (each id now goes with another player's old name): the seeding follows the ids.  A
    player without an id is found by name; one whose id the file does not know is unrated, even
    with a name the file knows."""
    from tournament import add_players, create_event, make_settings, open_event
    from tournament.event.ratings import import_and_rate
    from tournament.event.roster import set_id
    from tournament.event.simulate import simulate_event

    from .test_pages import run

    played = tmp_path / "last-month.db"
    simulate_event(played, "competitive", "rotating", 8, 3, seed=11)
    store = open_event(played)
    ids = {p.name: f"F{p.id}" for p in store.players()}
    for name, fid in ids.items():
        set_id(store, name, fid)
    store.close()
    rated, _ = import_and_rate(tmp_path / "ratings.db", [played], [])
    assert {r.fed_id for r in rated} == set(ids.values())
    best = sorted(rated, key=lambda r: -r.ordinal)
    names = [r.name for r in best]
    # This month: the best seven by id, under the next one's name; the eighth without an id, under
    # their own name; and a newcomer whose id is unknown, under the best player's name.
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Next", "competitive", "rotating", seed=1))
    entrants = [(names[i + 1], best[i].fed_id) for i in range(6)] + [(names[7], None), (names[0], "NEW1")]
    add_players(store, [n for n, _ in entrants], ids=[i for _, i in entrants])
    store.close()
    r = run("pair", path, "--seed", f"ratings:{tmp_path / 'ratings.db'}", "-q")
    assert r.exit_code == 0, r.output
    store = open_event(path)
    kept = store.standings_used(1)
    entrant = {p.id: (p.name, dict(entrants)[p.name]) for p in store.players()}
    order = [entrant[u] for u, _ in sorted(kept.items(), key=lambda item: item[1][0])]
    store.close()
    assert order == entrants[:7] + [(names[0], "NEW1")]


# --- the director's page seeds round 1 as the command line does ---------------------------------

def _rated_event(path) -> None:
    from tournament import add_players, create_event, make_settings

    store = create_event(path, make_settings("Seeded", "competitive", "rotating", seed=5))
    names = [f"Player {i}" for i in range(1, 13)]
    add_players(store, names, fields=[{"rating": str(1000 + 37 * (i % 5)), "elo": str(2000 - 11 * i)}
                                      for i in range(12)])
    store.close()


def _seating(path) -> list[list[tuple[str, int]]]:
    from tournament import open_event

    store = open_event(path)
    try:
        return [[(s.seat, s.player) for s in t.seats] for t in store.tables(1)]
    finally:
        store.close()


def test_the_directors_page_seeds_round_one_as_pair_seed_does(tmp_path) -> None:
    """The overview lists the players' columns while round 1 is to be paired; ``POST
    /api/v1/director/pair`` with ``{"seed": "column:elo"}`` pairs the round ``tournament pair --seed
    column:elo`` pairs (the same tables, the same seeding kept with it); a ratings file, or a seed
    that is no text, is refused in one line and nothing is paired."""
    import shutil

    import pytest

    testclient = pytest.importorskip("starlette.testclient")
    from tournament import open_event, pair_next_round
    from tournament.web.app import VenueServer

    path, twin = tmp_path / "ev.db", tmp_path / "twin.db"
    _rated_event(path)
    shutil.copyfile(path, twin)  # both closed: the same event twice
    store = open_event(twin)
    pair_next_round(store, "column:elo")  # what `tournament pair --seed column:elo` does
    kept = store.standings_used(1)
    store.close()

    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        director = {"Authorization": "Bearer " + server.call(server.venue.links, "http://testserver")
                    ["director"].rsplit("/", 1)[1]}
        view = client.get("/api/v1/director", headers=director).json()
        assert view["can_pair"] and view["seed_columns"] == ["rating", "elo"]
        for bad in ({"seed": f"ratings:{tmp_path / 'r.db'}"}, {"seed": 7}):
            r = client.post("/api/v1/director/pair", headers=director, json=bad)
            assert r.status_code == 422 and "ratings:FILE" in r.json()["error"], r.json()
        r = client.post("/api/v1/director/pair", headers={**director, "Accept-Language": "es"},
                        json={"seed": "column:nope"})
        assert r.status_code == 422 and "nope" in r.json()["error"]
        assert client.get("/api/v1/director", headers=director).json()["round"] in (0, None)
        r = client.post("/api/v1/director/pair", headers=director, json={"seed": "column:elo"})
        assert r.status_code == 200 and r.json()["round"] == 1, r.json()
        assert client.get("/api/v1/director", headers=director).json()["seed_columns"] is None
    finally:
        server.close()
    assert _seating(path) == _seating(twin)
    store = open_event(path)
    assert store.standings_used(1) == kept and kept
    store.close()


def test_the_seed_refusal_reads_in_spanish(tmp_path) -> None:
    import pytest

    testclient = pytest.importorskip("starlette.testclient")
    from tournament.web.app import VenueServer

    path = tmp_path / "ev.db"
    _rated_event(path)
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        director = {"Authorization": "Bearer " + server.call(server.venue.links, "http://testserver")
                    ["director"].rsplit("/", 1)[1], "Accept-Language": "es"}
        r = client.post("/api/v1/director/pair", headers=director, json={"seed": "ratings:x.db"})
        assert r.status_code == 422 and r.json()["error"].startswith('"seed" es draw, rating o column:NOMBRE')
        page = client.get("/d/" + director["Authorization"].split()[1], headers={"Accept-Language": "es"}).text
        assert "Ronda 1 por" in page and "sorteo" in page
    finally:
        server.close()


# --- one numbering: a pairs event's sheets, slips and venue pages -------------------------------

def test_a_pairs_events_sheet_numbers_each_player_by_their_pair(tmp_path) -> None:
    """Pair 2 is players 3 and 4: its score sheet says #2 beside both names, as the standings and
    the public pages do, never #3 or #4; the PIN slips and the venue's phone and director's pages
    name the players and number nobody, so no other number can be read there."""
    import re

    import pytest

    testclient = pytest.importorskip("starlette.testclient")
    from tournament import create_event, make_settings, open_event, pair_next_round
    from tournament.event.players import add_pairs
    from tournament.pages.sheets import sheet_html, sheet_shape
    from tournament.pages.slips import slips_page
    from tournament.web.app import VenueServer

    path = tmp_path / "pairs.db"
    store = create_event(path, make_settings("Parejas", "competitive", "pairs", seed=2))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None), ("Ed", "Flo", None), ("Gus", "Hal", None)])
    pair_next_round(store)
    players = {p.id: p for p in store.players()}
    pair_of = {p.id: p.team for p in players.values()}
    for table in store.tables(1):
        sheet = sheet_html(store.settings, table, players, sheet_shape(store.settings))
        shown = re.findall(r'<td class="no">#(\d+)</td><td class="name">([^<]+)</td>', sheet)
        assert sorted(shown) == sorted((str(pair_of[s.player]), players[s.player].name) for s in table.seats)
    slips = slips_page(store.settings, players.values(), {p: "1234" for p in players})
    assert not re.search(r"#\d", re.sub(r"<style>.*?</style>", "", slips, flags=re.S))
    store.close()
    server = VenueServer(path, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        director = {"Authorization": "Bearer " + links["director"].rsplit("/", 1)[1]}
        view = client.get("/api/v1/director", headers=director).json()
        table = client.get("/api/v1/tables/1/1", headers={"Authorization": "Bearer " + links["tables"][0]["token"]})
        assert all(set(t["players"].values()) <= {p.name for p in players.values()} for t in view["tables"])
        assert set(table.json()["game"]["players"].values()) <= {p.name for p in players.values()}
    finally:
        server.close()

"""Every path that takes a board's result offers exactly the ways its hand can end under the event's
rules, from one list (:func:`tournament.event.duplicate.board_ends`, the engine's answer): the score
sheets' "Ended" column, the director's page (its state's ``ends``), the server's check of ``ended``
and the table's phone's score form (the table's state's ``ends``).  Horse Race at its default
target 61 lets a first hand end at the target (61 and up), yet the sheets' fixed trial scores never
reached it and the sheet left "target" out; at a target of 30 the sheet asked for it while the
phone and the director's page refused it."""

from __future__ import annotations

from pathlib import Path

import pytest

from domrec.errors import DomrecError
from domrec.game import Game
from domrec.shape import HAND_ENDS
from tests.tournament.test_duplicate_event import run
from tests.tournament.test_venue import _auth, _key
from tests.tournament.test_venue_duplicate_sheet import _confirm
from tournament.pages import sheets
from tournament import open_event

starlette_testclient = pytest.importorskip("starlette.testclient")

#: (id, game, format, options): the five games at their default options, and Horse Race at the
#: default target and at one a hand reaches easily (partnerships: a duplicate pairs event).
EVENTS = [
    ("competitive", "competitive", "duplicate", ()),
    ("broadway", "broadway", "duplicate", ()),
    ("horse-race", "horse-race", "individual", ()),
    ("castle-rock", "castle-rock", "individual", ()),
    ("domino-roads", "domino-roads", "individual", ()),
    ("horse-race-61", "horse-race", "duplicate", ("partnerships=true", "target=61")),
    ("horse-race-30", "horse-race", "duplicate", ("partnerships=true", "target=30")),
]


def _new(tmp_path: Path, game: str, fmt: str, options: tuple[str, ...]) -> Path:
    event = tmp_path / "ev.db"
    extra = [a for o in options for a in ("--option", o)]
    if fmt == "duplicate":
        run("new", event, "--name", "Club night", "--game", game, "--format", "duplicate", "--movement", "mitchell",
            *extra)
        for i in range(1, 7):
            run("add", event, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
        run("boards", event, "--boards", 6, "--seed", 8)
    else:
        run("new", event, "--name", "Club night", "--game", game, "--format", fmt, *extra)
        for i in range(1, 5):
            run("add", event, f"Player {i}")
    run("pair", event)
    return event


def _settings(event: Path):
    store = open_event(event)
    try:
        return store.settings
    finally:
        store.close()


def _engine_allows(settings, end: str, points: int) -> bool:
    """The engine itself asked: a first hand of the event's game, one side scoring ``points``."""
    try:
        game = Game(settings.game, [(s, s) for s in settings.seats()], variant=settings.variant,
                    options=settings.resolved_options())
        game.add_score_sheet_hand({next(iter(game.totals)): points}, end)
    except DomrecError:
        return False
    return True


@pytest.fixture
def venue():
    made = []

    def start(event: Path):
        from tournament.web.app import VenueServer

        server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
        made.append(server)
        links = server.call(server.venue.links, "http://testserver")
        return starlette_testclient.TestClient(server.asgi), links, _key(links["director"])

    yield start
    for server in made:
        server.close()


@pytest.mark.parametrize("game, fmt, options", [e[1:] for e in EVENTS], ids=[e[0] for e in EVENTS])
def test_the_sheet_the_directors_page_and_the_server_agree_on_how_a_board_ends(tmp_path, venue, game, fmt,
                                                                                 options) -> None:
    event = _new(tmp_path, game, fmt, options)
    settings = _settings(event)
    ways = sheets.first_hand_ends(settings)
    assert ways == sheets.sheet_shape(settings).board_ends
    # The engine's own word: a first hand reaching a Horse Race target ends there.
    assert ("target" in ways) == (game == "horse-race")
    client, links, director = venue(event)
    table = links["tables"][0]
    url = f"/api/v1/tables/1/{table['table']}"
    if fmt == "duplicate":
        assert client.get(url, headers=_auth(director)).json()["ends"] == list(ways)  # the director's page
        assert client.get(url, headers=_auth(table["token"])).json()["ends"] == list(ways)  # the phone's form
    for end in HAND_ENDS:  # the server's check of "ended": each way the sheet asks, and no other
        r = client.post(f"{url}/result", headers=_auth(director), json={"scores": {"NS": 1, "EW": 2}, "ended": end})
        refused = r.status_code == 422 and r.json()["error"].startswith('"ended" must be')
        assert refused == (end not in ways), (end, r.status_code, r.text)


@pytest.mark.parametrize("game, options, points", [
    ("horse-race", ("partnerships=true", "target=61"), 61),
    ("horse-race", ("partnerships=true", "target=30"), 30),
    ("competitive", (), 61),
    ("broadway", (), 61),
], ids=["horse-race-61", "horse-race-30", "competitive", "broadway"])
def test_a_board_ended_at_the_target_is_entered_where_the_engine_allows_it(tmp_path, venue, game, options,
                                                                           points) -> None:
    """A board that reaches the target in its one hand: entered on the director's page and typed on
    the table's phone where the engine lets a first hand end so, refused by both where not."""
    event = _new(tmp_path, game, "duplicate", options)
    allowed = _engine_allows(_settings(event), "target", points)
    assert allowed == (game == "horse-race")
    client, links, director = venue(event)
    phone, desk = links["tables"][0], links["tables"][1]
    # The director's page, at a table whose phone has started nothing.
    url = f"/api/v1/tables/1/{desk['table']}"
    board = client.get(url, headers=_auth(director)).json()["boards"][0]
    r = client.post(f"{url}/result", headers=_auth(director),
                    json={"scores": {"NS": points, "EW": 0}, "board": board, "ended": "target"})
    assert (r.status_code == 200) == allowed, r.text
    rows = client.get(url, headers=_auth(director)).json()["board_results"]
    if allowed:
        assert {"board": board, "NS": points, "EW": 0, "ended": "target"} in rows
    else:
        assert r.status_code == 422 and "\n" not in r.json()["error"] and not rows
    # The table's phone, typing the board's score in its score form.
    url, token = f"/api/v1/tables/1/{phone['table']}", phone["token"]
    state = client.get(url, headers=_auth(token)).json()
    state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"}).json()
    assert ("target" in state["ends"]) == allowed
    r = client.post(f"{url}/dgn", headers=_auth(token),
                    json={"rev": state["rev"], "text": f"hand 1\nend target NS {points} EW 0"})
    assert (r.status_code == 200) == allowed, r.text
    if allowed:
        _confirm(client, url, token, r.json())
        rows = client.get(url, headers=_auth(director)).json()["board_results"]
        assert {"board": state["board"], "NS": points, "EW": 0, "ended": "target"} in rows
        # The command line (no --ended: the score checked against any hand) takes it too.
        third = links["tables"][2]
        board = client.get(f"/api/v1/tables/1/{third['table']}", headers=_auth(director)).json()["boards"][0]
        assert "stored" in run("result", event, "--round", 1, "--table", third["table"], "--board", board,
                               "--score", f"NS={points},EW=0")

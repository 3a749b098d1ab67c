"""A table's last confirmation that finds the table's result already stored (the director's,
entered over the phone's game with a reason, landing after the confirmation read the table) is
refused in one line that names the table once and says what to do, in the player's language.

Before, the phone was shown the command line's refusal behind the phone's own source:
"round 1 table 1 (table page): round 1 table 1 already has a result (NS 200, EW 10, manual);
give --replace to replace it (the old one is kept: `tournament history`)": the table named twice,
a command-line flag no player can give, and English in a Spanish hall (no pattern matched it).

The table's lock check (a confirmed table takes no write: "only the director can change its
result now") refuses such a confirmation first whenever the result is there when the table is
read; the refusal here is what the confirmation meets when it is not (the check is left out for
the last confirmation, as if the director's result landed just after it).  The command line's
own refusal of a second result is unchanged (tests/tournament/test_cli.py)."""

from __future__ import annotations

import pytest

from domrec import phrases
from tournament import i18n
from tournament.event import results, table_log
from tests.tournament.helpers import hand_by_hand
from tests.tournament.test_venue import _auth, _event, _game_of, _key, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

URL = "/api/v1/tables/1/1"

WORDS = {
    "en": "round 1 table 1 already has a result (NS 200, EW 10): this game was not stored; call the director",
    "es": "la mesa 1 de la ronda 1 ya tiene un resultado (NS 200, EW 10): esta partida no se guardó; llame al "
          "árbitro",
}


@pytest.fixture
def served(tmp_path):
    """A competitive event (two tables) served in process: (path, server, client, table 1's key,
    the director's key)."""
    path = _event(tmp_path, "competitive")
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    yield path, server, client, links["tables"][0]["token"], _key(links["director"])
    server.close()


def _waiting_for_ew(path, client, token) -> dict:
    """Table 1's game played to its end through the API and confirmed by NS: EW's confirmation,
    the last, is what enters it."""
    state = client.get(URL, headers=_auth(token)).json()
    for text in hand_by_hand(_requests(_game_of(path, 1, 1, seed=5))):
        r = client.post(f"{URL}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
    assert state["status"] == "waiting", state["status"]
    r = client.post(f"{URL}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": "NS"})
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.json()
    return r.json()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_last_confirmation_over_a_stored_result_is_refused_in_one_line(served, monkeypatch, lang):
    path, server, client, token, director = served
    state = _waiting_for_ew(path, client, token)
    r = client.post(f"{URL}/result", headers=_auth(director),
                    json={"scores": {"NS": 200, "EW": 10}, "reason": "the table stopped at the break"})
    assert r.status_code == 200, r.json()
    # The director's result landed after the confirmation read the table (see the module's words).
    checked = table_log.check_current
    monkeypatch.setattr(table_log, "check_current",
                        lambda facts, live, rev, locked_ok=False, any_view=False, over_calls=False:
                        checked(facts, live, rev, True, any_view, over_calls))
    r = client.post(f"{URL}/confirm", headers={**_auth(token), "Accept-Language": lang},
                    json={"rev": state["rev"], "side": "EW"})
    body = r.json()
    assert body["error"] == WORDS[lang], body
    assert body["error"].count("table 1") + body["error"].count("mesa 1") == 1
    # The table as it is now: its result, the director's, confirmed; the phone's game not stored.
    assert r.status_code == 409 and body["state"]["status"] == "confirmed", body
    assert body["state"]["result"]["scores"] == {"NS": 200, "EW": 10}
    store = server.venue.store
    assert store.result_for(server.venue.table(1, 1).id).kind == "manual"


def test_the_refusal_is_listed_for_the_pages_and_the_command_line_keeps_its_words(tmp_path):
    """The table page's words are a listed pattern with its Spanish; the library's refusal (what
    `tournament result` prints) still names --replace, and names the table once."""
    from tournament.event.venue import HAS_RESULT, REFUSALS

    assert HAS_RESULT in REFUSALS and phrases.listed(WORDS["en"], REFUSALS)
    assert i18n.translations("es").gettext(HAS_RESULT) != HAS_RESULT
    from tournament import open_event

    path = _event(tmp_path, "competitive")
    store = open_event(path)
    try:
        results.enter_manual(store, 1, {"NS": 200, "EW": 10})
        with pytest.raises(results.HasResult) as refused:
            results.enter_manual(store, 1, {"NS": 100, "EW": 10})
    finally:
        store.close()
    said = str(refused.value)
    assert said == ("round 1 table 1 already has a result (NS 200, EW 10, manual); give --replace to replace it "
                    "(the old one is kept: `tournament history`)"), said
    assert (refused.value.round, refused.value.table, refused.value.scores) == (1, 1, "NS 200, EW 10")

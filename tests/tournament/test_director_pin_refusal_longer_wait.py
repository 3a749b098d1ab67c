"""A wrong director's PIN that starts the event-wide wait says that wait, the longer one
(a tester's finding).

Five wrong director's PINs at table 2 and five at table 3: the tenth starts both table 3's own wait
(30 s: its confirmations and the director's PIN there) and the event's (the director's PIN at every
table).  The answer said only the table's ("after 5 wrong PINs, this table's confirmations and the
director's PIN wait 30 seconds"), and an eleventh at table 2 said "60 seconds" while the director's
PIN waited 118 at every table: the phone's box put it right only at its next refresh.  Now the
answer says the longer wait, the event's, "at every table", with the table's own where it has one;
in English and Spanish.  API-level, the venue's clock the test's."""

from __future__ import annotations

import pytest

from tests.tournament.test_director_pin_wait_event import _sixteen
from tests.tournament.test_venue import _auth, _key, _server
from tests.tournament.test_venue_pins import Clock

starlette_testclient = pytest.importorskip("starlette.testclient")


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_refusal_says_the_event_wide_wait_when_it_is_the_longer(tmp_path, lang):
    clock = Clock()
    server = _server(_sixteen(tmp_path), clock=clock)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        pin, tables = links["director_pin"], links["tables"]
        wrong = iter(f"{k:06d}" for k in range(1000) if f"{k:06d}" != pin)
        headers = {"Accept-Language": lang}

        def typed(n):
            r = client.get(f"/api/v1/tables/1/{n}/lines",
                           headers={**_auth(tables[n - 1]["token"]), "X-Director-PIN": next(wrong), **headers})
            assert r.status_code == 403, r.text
            return r.json()["error"]

        said = [typed(n) for n in (2, 2, 2, 2, 2, 3, 3, 3, 3)]
        assert said[4] == ("ese no es el PIN del árbitro: tras 5 PIN incorrectos, las confirmaciones de esta mesa y "
                           "el PIN del árbitro esperan 30 segundos (el árbitro puede borrar los PIN incorrectos)"
                           if lang == "es" else
                           "that is not the director's PIN: after 5 wrong PINs, this table's confirmations and the "
                           "director's PIN wait 30 seconds (the director can clear them)")  # (the event's not yet)
        tenth = typed(3)  # table 3's fifth: its own 30 s, and the event's 30 s
        assert tenth == ("ese no es el PIN del árbitro: tras 10 PIN del árbitro incorrectos en las mesas, el PIN del "
                         "árbitro espera 30 segundos en todas las mesas, y las confirmaciones de esta mesa 30 segundos "
                         "(la página del árbitro los borra)" if lang == "es" else
                         "that is not the director's PIN: after 10 wrong director's PINs at the tables, the director's "
                         "PIN waits 30 seconds at every table, and this table's confirmations 30 seconds (the "
                         "director's page clears them)")
        clock.advance(31)  # every wait over
        eleventh = typed(2)  # table 2's sixth (60 s of its own), the event's eleventh (60 s too)
        assert "60 seconds at every table" in eleventh or "60 segundos en todas las mesas" in eleventh, eleventh
        clock.advance(61)
        twelfth = typed(4)  # table 4's first: no wait of its own; the event's twelfth
        state = client.get("/api/v1/tables/1/4", headers=_auth(tables[3]["token"])).json()
        seconds = state["director_pin_wait"]["seconds"]
        assert state["director_pin_wait"]["every_table"] is True and seconds > 60
        assert twelfth == (f"ese no es el PIN del árbitro: tras 12 PIN del árbitro incorrectos en las mesas, el PIN "
                           f"del árbitro espera {seconds} segundos en todas las mesas (la página del árbitro lo borra)"
                           if lang == "es" else
                           f"that is not the director's PIN: after 12 wrong director's PINs at the tables, the "
                           f"director's PIN waits {seconds} seconds at every table (the director's page clears it)")
    finally:
        server.close()

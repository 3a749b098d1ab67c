"""A line two phones of one table recorded alike (two players tapping the same move at once, or
both phones recording it while the Wi-Fi was down): the second is answered as taken, by the server
and by the phone's engine alike, and the game holds it once.  Before, the second phone was refused
("the table has moved on") and asked to retype a move the table already had.

Only the very line, on the very revision: a different line (another tile, the same tile on the
other end) is still refused, and so is the same line named on an older revision; the lines the
phone made after its twin are judged on the revision the twin leads to."""

from __future__ import annotations

import pytest

from tournament.event import phone, table_log

starlette_testclient = pytest.importorskip("starlette.testclient")
from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _requests, _table_one  # noqa: E402
from tests.in_memory import tmp_path  # noqa: E402,F401
from tournament.web.app import PHRASES  # noqa: E402

TWIN_ES = "otro teléfono de esta mesa registró antes esta misma línea: está en la partida una sola vez"


def _opening(key: str, tmp_path):
    """A server of a one-round event of ``key``, a client, the table's URL and key, and the
    requests that record its first game (its deal typed, a move a request)."""
    path = _event(tmp_path, key)
    server, client, token = _table_one(path)
    url = "/api/v1/tables/1/1"
    return server, client, url, token, _requests(_game_of(path, 1, 1, seed=5))


def _post(client, url, token, rev, text, cid=None, lang=None):
    body = {"rev": rev, "text": text}
    if cid is not None:
        body["cid"] = cid
    return client.post(f"{url}/dgn" + (f"?lang={lang}" if lang else ""), headers=_auth(token), json=body)


@pytest.mark.parametrize("key", list(EVENTS))
def test_the_same_line_sent_by_a_second_phone_is_taken_once(key, tmp_path):
    server, client, url, token, texts = _opening(key, tmp_path)
    try:
        rev = client.get(url, headers=_auth(token)).json()["rev"]
        for text in texts[:3]:  # the deal and a few moves, as one phone recorded them
            rev = _post(client, url, token, rev, text).json()["rev"]
        first = _post(client, url, token, rev, texts[3], cid="phone-a-1")
        assert first.status_code == 200, first.json()
        # The second phone, on the same view, sends the same line: taken, nothing stored twice.
        second = _post(client, url, token, rev, texts[3], cid="phone-b-1")
        assert second.status_code == 200, second.json()
        assert second.json()["rev"] == rev + 1
        assert table_log.TWIN in second.json()["said"]
        log = client.get(url + "?log=only", headers=_auth(token)).json()["log"]["rows"]
        assert [r[2] for r in log].count(texts[3]) == 1 and len(log) == rev + 1
        # sent again (its answer lost), the same answer
        again = _post(client, url, token, rev, texts[3], cid="phone-b-1")
        assert again.status_code == 200 and again.json()["rev"] == rev + 1
        # The second phone's next line, made on the revision its twin leads to, is taken as usual.
        nxt = _post(client, url, token, rev + 1, texts[4], cid="phone-b-2")
        assert nxt.status_code == 200, nxt.json()
        assert nxt.json()["rev"] == rev + 2
        # Another line on an old revision is still refused: the table has moved on.
        other = _post(client, url, token, rev + 1, texts[5])
        assert other.status_code == 409 and "has moved on" in other.json()["error"]
        # and the same line as the log's named on an older revision too (not the next row after it)
        older = _post(client, url, token, rev, texts[4])
        assert older.status_code == 409
    finally:
        server.close()


def test_a_different_line_on_the_same_revision_is_still_refused(tmp_path):
    server, client, url, token, texts = _opening("competitive", tmp_path)
    try:
        rev = client.get(url, headers=_auth(token)).json()["rev"]
        for text in texts[:4]:
            rev = _post(client, url, token, rev, text).json()["rev"]
        assert _post(client, url, token, rev, texts[4]).status_code == 200
        changed = texts[4] + " {a comment}"  # not the same line: refused as before
        refused = _post(client, url, token, rev, changed)
        assert refused.status_code == 409 and "has moved on" in refused.json()["error"]
    finally:
        server.close()


def test_the_twin_is_said_in_spanish(tmp_path):
    server, client, url, token, texts = _opening("competitive", tmp_path)
    try:
        rev = client.get(url, headers=_auth(token)).json()["rev"]
        assert _post(client, url, token, rev, texts[0]).status_code == 200
        second = _post(client, url, token, rev, texts[0], lang="es")
        assert second.status_code == 200 and TWIN_ES in second.json()["said"]
    finally:
        server.close()


def test_the_phones_engine_answers_the_twin_as_the_server(tmp_path):
    server, client, url, token, texts = _opening("horse-race", tmp_path)
    try:
        rev = client.get(url, headers=_auth(token)).json()["rev"]
        for text in texts[:3]:
            rev = _post(client, url, token, rev, text).json()["rev"]
        table = client.get(url + "?log=only", headers=_auth(token)).json()["log"]
        # the first phone's line, on the server; the engine then holds the log with it
        assert _post(client, url, token, rev, texts[3]).status_code == 200
        table = {**table, "rows": client.get(url + "?log=only", headers=_auth(token)).json()["log"]["rows"]}
        server_answer = _post(client, url, token, rev, texts[3], cid="phone-b-11")
        engine = phone.answer(table, {"path": "dgn", "body": {"rev": rev, "text": texts[3], "cid": "phone-b-22"}},
                              sentences=PHRASES)
        assert engine["status"] == server_answer.status_code == 200
        assert engine["row"] is None  # nothing added to the log
        assert engine["body"]["said"] == server_answer.json()["said"]
        assert engine["body"]["rev"] == server_answer.json()["rev"]
        other = phone.answer(table, {"path": "dgn", "body": {"rev": rev, "text": texts[4]}}, sentences=PHRASES)
        assert other["status"] == 409
    finally:
        server.close()

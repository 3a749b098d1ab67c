"""A table's log at the venue and ``undo`` after the ``left`` line that closed a hand.

The venue keeps a table as the lines typed at it, ``undo`` among them, and replays them (after a
restart, on another phone, in the phone's own engine under Pyodide: :mod:`tournament.event.table_log`).
An ``undo`` right after a ``left`` line closed its hand took back the hand's last move and kept
the deal worked out from the line; at the terminal it now takes back the ``left`` line and its
deal (tests/test_recorder_undo_left.py).  So that a log written before replays the game it was
written for, a table's ``undo`` keeps the old meaning, and the new one is a line of its own,
``undo left``, which no log written before holds (a request with it was refused then, and a
refused request is never kept): the table's page sends it from its Undo button where the state
says the last hand was closed so (``game.left_closed``).
"""

from __future__ import annotations

import datetime

import attrs
import pytest

from domrec import notation
from domrec.session import UNDO_LEFT, Session, requests_for
from tournament.event import table_log
from tests.in_memory import tmp_path  # noqa: F401  (files and databases written move by move: in memory)
from tests.test_recorder_undo_left import CONFIGS, _hand_with_left


def _rows(texts: list[str]) -> list[tuple[int, str, str, str]]:
    at = datetime.datetime(2026, 1, 1, 20, 0).isoformat()
    return [(k, "dgn", text, at) for k, text in enumerate(texts, 1)]


def _old_log(name: str) -> tuple:
    """A table's log as a table wrote it before the change: hand N typed without its deal up to
    its left line, the left line (which closed it), ``undo`` (which took back the last move, the
    worked-out deal kept), the last move again (which ended the hand on a confirmation) and ``y``."""
    record, before, left, after, number = _hand_with_left(name)
    template = attrs.evolve(record, hands=(), result=None)
    session = Session(template, ["\n".join(before)])
    last = notation.dumps(attrs.evolve(template, hands=(attrs.evolve(record.hands[number - 1],
                                                                     moves=(session.game.moves[-1],)),)))
    again = next(line for line in last.splitlines()
                 if line and not line.startswith("[") and line.split()[0] not in ("hand", "deal", "boneyard",
                                                                                   "pile", "row", "leaddraw",
                                                                                   "redeal", "left", "end"))
    return template, ["\n".join(before), left, "undo", again, "y"], number


@pytest.mark.parametrize("name", CONFIGS)
def test_a_log_written_before_replays_the_game_it_was_written_for(name):
    template, texts, number = _old_log(name)
    live = table_log.replay(template, _rows(texts))
    assert live.set_aside == []  # every line replays
    game = live.session.game
    assert not game.in_hand and game.hand_number == number
    # the game of that log: the undo took back the last move and kept the left line's deal, so the
    # move typed again ended the hand with that deal known and y closed it
    one = Session(template, texts[:2])  # the hand closed on its left line: the same hand
    assert game.hands() == one.game.hands()
    assert game.totals == one.game.totals
    # step by step, as the table saw it then
    session = Session(template, texts[:2])
    said = session.take("undo")
    assert said[0].startswith("took back ") and "left line" not in said[0], said
    assert session.game.in_hand and session.game.deal_known


@pytest.mark.parametrize("name", CONFIGS)
def test_undo_left_takes_back_the_left_line_and_replays_so(name):
    record, before, left, after, number = _hand_with_left(name)
    template = attrs.evolve(record, hands=(), result=None)
    live = table_log.replay(template, [])
    at = datetime.datetime(2026, 1, 1, 20, 0).isoformat()
    rows = []
    for text in ["\n".join(before), left]:
        kind, body, said = table_log.judge_dgn(live, text)
        rows.append((len(rows) + 1, kind, body, at))
        assert live.session.state()["left_closed"] == (number if text == left else None)
    kind, body, said = table_log.judge_dgn(live, UNDO_LEFT)  # what the page's Undo sends now
    rows.append((len(rows) + 1, kind, body, at))
    assert said[0] == f"took back the left line of hand {number}", said
    assert body == UNDO_LEFT
    game = live.session.game
    assert game.in_hand and not game.deal_known and live.session.left_typed is None
    assert live.session.state()["left_closed"] is None
    # replayed (after a restart, by the phone's engine), the log gives the same table
    again = table_log.replay(template, rows)
    assert again.set_aside == []
    assert again.session.record() == live.session.record() and not again.session.game.deal_known
    assert again.session.state() == live.session.state()
    # the next undo takes back the last move, the deal still unknown
    kind, body, said = table_log.judge_dgn(live, "undo")
    assert said[0].startswith("took back ") and "left line" not in said[0]
    assert not live.session.game.deal_known
    # and where no left line closed the hand, undo left is an undo
    kind, body, said = table_log.judge_dgn(live, UNDO_LEFT)
    assert said[0].startswith("took back ") and "left line" not in said[0]


def test_the_phone_and_the_server_take_the_undo_alike(tmp_path):
    """Through the venue's API, the phone's engine answering each write on the server's log as the
    server answers it: the state says the left line may be taken back, and ``undo left`` (what the
    page's Undo sends then) takes it back on both, each keeping the line as sent."""
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from tests.tournament.test_phone_engine import _without_times
    from tests.tournament.test_venue import _auth, _event, _game_of, _server
    from tournament.event import phone
    from tournament.web.app import PHRASES

    path = _event(tmp_path, "competitive")
    texts = None
    for seed in range(40):
        record = _game_of(path, 1, 1, seed)
        typed = requests_for(record, keep_deal=False)
        second = next((k for k, t in enumerate(typed) if k and t.startswith("hand ")), len(typed))
        at = next((k for k, t in enumerate(typed[:second]) if t.startswith("left ")), None)
        if at is not None:
            texts = typed[:at + 1]
            break
    assert texts is not None, "no game of the table whose first hand ends with a left line"
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        headers = _auth(token)

        def post(text: str) -> tuple[dict, dict]:
            state = client.get(url, headers=headers).json()
            log = client.get(url, params={"log": "1"}, headers=headers).json()["log"]
            body = {"rev": state["rev"], "text": text}
            offline = phone.answer(log, {"path": "dgn", "body": body}, "en", sentences=PHRASES)
            r = client.post(f"{url}/dgn", headers=headers, json=body)
            assert r.status_code == 200 == offline["status"], (text, r.json(), offline)
            got = r.json()
            assert _without_times(offline["body"]) == _without_times(got), text  # the phone answers as the server
            return got, offline

        for text in texts:
            state, _ = post(text)
        assert not state["game"]["in_hand"] and state["game"]["left_closed"] == 1
        state, offline = post(UNDO_LEFT)
        assert state["said"][0] == "took back the left line of hand 1", state["said"]
        assert state["game"]["in_hand"] and not state["game"]["deal_known"]
        assert offline["row"][2] == UNDO_LEFT
        rows = client.get(url, params={"log": "1"}, headers=headers).json()["log"]["rows"]
        assert rows[-1][1:3] == ["dgn", UNDO_LEFT]
        state, _ = post(texts[-1])  # the left line again closes the hand
        assert not state["game"]["in_hand"]
    finally:
        server.close()

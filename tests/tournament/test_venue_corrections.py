"""The director corrects one hand of a table's game (issue 34, "Correct one hand at the table"):
a move, the tiles left, a hand's score, or a hand taken back, with a reason into the trail; the
rest of the game is recorded again by the engine, so the game stays a verified record.  Through
the API in-process, every game; and a server made again from the file finds the correction."""

from __future__ import annotations

import json

import pytest

from domrec.validate import validate

from tournament import open_event
from tournament.event import audit
from tests.tournament.test_venue import EVENTS, _auth, _event, _game_of, _key, _requests, _server

starlette_testclient = pytest.importorskip("starlette.testclient")


def _open(path):
    server = _server(path)
    client = starlette_testclient.TestClient(server.asgi)
    links = server.call(server.venue.links, "http://testserver")
    return server, client, links["tables"][0]["token"], _key(links["director"])


def _confirm(client, token, state):
    for side in state["sides"]:
        body = {"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side}
        r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json=body)
        assert r.status_code == 200, r.json()
        state = r.json()
    return state


def _changes(client):
    return client.get("/api/v1/changes").json()["changes"]


@pytest.mark.parametrize("key", list(EVENTS))
def test_a_wrong_move_corrected_mid_game_the_game_stays_verified(tmp_path, key, request):
    """The table taps another tile than the one played; the director puts the right move in its
    place; the table plays on and confirms: the result is the true game's, a verified record.
    The hands after the corrected one are sent a hand a request (a move a request with --long:
    they are not what is tested)."""
    from tests.tournament.helpers import hand_by_hand

    whole_hands = not request.config.getoption("--long")
    path = _event(tmp_path, key)
    record = _game_of(path, 1, 1, seed=5)
    texts = _requests(record)
    server, client, token, director = _open(path)
    url = "/api/v1/tables/1/1"
    try:
        state = client.get(url, headers=_auth(token)).json()
        slipped = None
        for k, text in enumerate(texts):
            post = lambda t, s: client.post(f"{url}/dgn", headers=_auth(token), json={"rev": s["rev"], "text": t})
            if slipped is not None and whole_hands and text.startswith("hand "):
                for whole in hand_by_hand(texts[k:]):
                    r = post(whole, state)
                    assert r.status_code == 200, (whole, r.json())
                    state = r.json()
                break
            game = state["game"]
            moves = len(game["hands"][-1]["moves"]) if game["hands"] and game["in_hand"] else None
            if slipped is None and moves and k > 3 and text.split()[0] not in ("hand", "deal", "y"):
                others = [m["text"] for m in game["legal"]]
                right = post(text, state).json()
                hand = right["game"]["hands"][-1]
                done = hand["moves"][moves:]
                if len(done) == 1:  # the move alone, no pass made after it: the slip is tried here
                    true = f"{done[0]['seat']} {done[0]['text']}"
                    wrong = [m for m in others if m != true]
                    state = post("undo", right).json()
                    if wrong:
                        r = post(wrong[0], state)
                        if r.status_code == 200 and len(r.json()["game"]["hands"][-1]["moves"]) == moves + 1:
                            state = r.json()
                            slipped = (len(state["game"]["hands"]), true, wrong[0])
                            lines = client.get(f"{url}/lines", headers=_auth(director)).json()
                            assert lines["rev"] == state["rev"]
                            hand_lines = lines["hands"][-1]
                            assert hand_lines[-1] == wrong[0]
                            # Refused without a reason, and by a table's key: nothing changes.
                            body = {"rev": state["rev"], "hand": slipped[0], "line": len(hand_lines), "text": true}
                            r = client.post(f"{url}/correct", headers=_auth(director), json=body)
                            assert r.status_code == 422 and "reason" in r.json()["error"]
                            r = client.post(f"{url}/correct", headers=_auth(token), json={**body, "reason": "x"})
                            assert r.status_code == 403
                            r = client.post(f"{url}/correct", headers=_auth(director),
                                            json={**body, "reason": "the tile played was " + true})
                            assert r.status_code == 200, r.json()
                            state = r.json()
                            assert state["game"]["hands"][-1]["moves"][-1]["text"] == true.split(" ", 1)[1]
                            continue
                        state = post("undo", r.json()).json() if r.status_code == 200 else state
                    r = post(text, state)
                    assert r.status_code == 200, r.json()
                    state = r.json()
                    continue
                state = right
                continue
            r = post(text, state)
            assert r.status_code == 200, (text, r.json())
            state = r.json()
        assert slipped is not None, "no move of this game had another legal move"
        assert state["game"]["over"] and state["game"]["totals"] == validate(record).scores
        state = _confirm(client, token, state)
        assert state["result"]["verified"] and state["result"]["scores"] == validate(record).scores
        kinds = [c["kind"] for c in _changes(client)]
        assert "game_corrected" in kinds
    finally:
        server.close()
    # The trail says who corrected what, and why; the game is the log replayed, correction and all.
    store = open_event(path)
    trail = [d for d in audit.desk_history(store) if d.action == "hand_corrected"]
    assert len(trail) == 1 and trail[0].reason == "the tile played was " + slipped[1]
    assert trail[0].detail["was"] == slipped[2] and trail[0].detail["now"] == slipped[1]
    store.close()
    again, client, token, _ = _open(path)
    try:
        resumed = client.get(url, headers=_auth(token)).json()
        assert resumed["rev"] == state["rev"] and resumed["game"] == state["game"]
    finally:
        again.close()


def test_the_tiles_left_corrected_after_confirmation_amend_the_verified_result(tmp_path):
    """A confirmed game whose last hand's tiles were counted wrong: the director corrects the
    ``left`` line; the result is amended, still a verified record, the old one in the trail."""
    path = _event(tmp_path, "competitive")
    record = _game_of(path, 1, 1, seed=5)
    from domrec.session import requests_for

    server, client, token, director = _open(path)
    url = "/api/v1/tables/1/1"
    try:
        state = client.get(url, headers=_auth(token)).json()
        for text in requests_for(record, keep_deal=False):
            state = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text}).json()
        state = _confirm(client, token, state)
        old = state["result"]["scores"]
        lines = client.get(f"{url}/lines", headers=_auth(director)).json()
        hand = len(lines["hands"])
        at = next(k for k, x in enumerate(lines["hands"][-1], 1) if x.startswith("left "))
        left = dict(part.strip().split(" ", 1) for part in lines["hands"][-1][at - 1][5:].split(";"))
        seats = list(left)
        accepted = None
        for a in range(len(seats)):  # a tile of one seat's swapped with one of another's, until one replays
            for b in range(a + 1, len(seats)):
                ta, tb = left[seats[a]].split(), left[seats[b]].split()
                for i in range(len(ta)):
                    for j in range(len(tb)):
                        new = dict(left)
                        na, nb = ta.copy(), tb.copy()
                        na[i], nb[j] = tb[j], ta[i]
                        new[seats[a]], new[seats[b]] = " ".join(na), " ".join(nb)
                        line = "left " + "; ".join(f"{s} {t}" for s, t in new.items())
                        r = client.post(f"{url}/correct", headers=_auth(director),
                                        json={"rev": state["rev"], "hand": hand, "line": at, "text": line,
                                              "reason": "the tiles were counted wrong"})
                        if r.status_code == 200:
                            accepted = r.json()
                            break
                        assert r.status_code == 422 and "nothing was changed" in r.json()["error"]
                    if accepted:
                        break
                if accepted:
                    break
            if accepted:
                break
        assert accepted is not None
        assert accepted["status"] == "confirmed" and accepted["result"]["verified"]
        assert accepted["result"]["kind"] == "record"
        assert accepted["result"]["scores"] == accepted["game"]["totals"]
        assert any("amended" in x for x in accepted["said"])
        kinds = [c["kind"] for c in _changes(client)]
        assert kinds[-2:] == ["result_amended", "game_corrected"]
    finally:
        server.close()
    store = open_event(path)
    assert [row["reason"] for row in store.audit()] == ["the tiles were counted wrong"]
    assert json.loads(json.loads(store.audit()[0]["old_result"])["scores"]) == old
    store.close()


def test_a_hand_taken_back_and_a_score_corrected_in_a_score_sheet_game(tmp_path):
    """Scores only: hand 2 typed twice is taken back, and a hand's score corrected; the later hands
    move up and the totals follow.  A correction that leaves nothing changed, or a line that is not
    there, is refused in one line, and the table's log is as it was."""
    path = _event(tmp_path, "competitive")
    server, client, token, director = _open(path)
    url = "/api/v1/tables/1/1"
    try:
        state = client.get(url, headers=_auth(token)).json()
        state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": state["rev"], "mode": "sheet"}).json()
        for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44", "NS 0 EW 44", "NS 12 EW 0"], 1):
            r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": f"hand {n}\nend {end}"})
            assert r.status_code == 200, r.json()
            state = r.json()
        lines = client.get(f"{url}/lines", headers=_auth(director)).json()["hands"]
        assert lines[2] == ["hand 3", "end NS 0 EW 44"]
        rev = state["rev"]
        for body, words in (({"hand": 9, "line": None, "text": ""}, "no hand 9"),
                            ({"hand": 2, "line": 5, "text": "end NS 1 EW 0"}, "no line 5"),
                            ({"hand": 2, "line": 2, "text": "end NS 0 EW 44"}, "changes nothing"),
                            ({"hand": 2, "line": 2, "text": "end NS 5 EW 7"}, "hand 2")):
            r = client.post(f"{url}/correct", headers=_auth(director), json={"rev": rev, **body, "reason": "r"})
            assert r.status_code == 422 and words in r.json()["error"], r.json()
        r = client.post(f"{url}/correct", headers=_auth(director),
                        json={"rev": rev, "hand": 3, "line": None, "text": "", "reason": "hand 2 typed twice"})
        assert r.status_code == 200, r.json()
        state = r.json()
        assert [h["result"]["scores"] for h in state["game"]["hands"]] == [
            {"NS": 30, "EW": 0}, {"NS": 0, "EW": 44}, {"NS": 12, "EW": 0}]
        r = client.post(f"{url}/correct", headers=_auth(director),
                        json={"rev": state["rev"] - 1, "hand": 1, "line": 2, "text": "end NS 31 EW 0", "reason": "r"})
        assert r.status_code == 409
        r = client.post(f"{url}/correct", headers=_auth(director),
                        json={"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 31 EW 0", "reason": "misread"})
        assert r.status_code == 200
        assert r.json()["game"]["totals"] == {"NS": 43, "EW": 44}
        assert [x["kind"] for x in _changes(client)].count("game_corrected") == 2
    finally:
        server.close()


def test_the_command_line_corrects_a_hand_beside_the_server(tmp_path):
    """``tournament correct`` prints the game's lines, and corrects one as the director's page
    does, on the file the server is writing: the server's next answer is the corrected game."""
    from typer.testing import CliRunner

    from tournament.cli import app

    path = _event(tmp_path, "competitive")
    server, client, token, director = _open(path)
    url = "/api/v1/tables/1/1"
    try:
        state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": 0, "mode": "sheet"}).json()
        for n, end in enumerate(["NS 30 EW 0", "NS 0 EW 44"], 1):
            state = client.post(f"{url}/dgn", headers=_auth(token),
                                json={"rev": state["rev"], "text": f"hand {n}\nend {end}"}).json()
        run = CliRunner()
        shown = run.invoke(app, ["correct", str(path), "--round", "1", "--table", "1"])
        assert shown.exit_code == 0 and shown.output.splitlines() == [
            "hand 1:", "    1  hand 1", "    2  end NS 30 EW 0", "hand 2:", "    1  hand 2", "    2  end NS 0 EW 44"]
        refused = run.invoke(app, ["correct", str(path), "-r", "1", "-t", "1", "--hand", "2", "--line", "2",
                                   "--text", "end NS 0 EW 40"])
        assert refused.exit_code != 0 and "reason" in refused.output
        done = run.invoke(app, ["correct", str(path), "-r", "1", "-t", "1", "--hand", "2", "--line", "2",
                                "--text", "end NS 0 EW 40", "--reason", "misread", "--by", "Rosa"])
        assert done.exit_code == 0, done.output
        assert "hand 2 corrected" in done.output
        now = client.get(url, headers=_auth(token)).json()
        assert now["rev"] == state["rev"] + 1 and now["game"]["totals"] == {"NS": 30, "EW": 40}
        # Who corrected it and why are the director's trail's, not the table's: its phones read its log.
        rows = client.get(f"{url}?log=only", headers=_auth(token)).json()["log"]["rows"]
        (fixed,) = [json.loads(body) for _, kind, body, _ in rows if kind == "correct"]
        assert fixed["hand"] == 2 and "reason" not in fixed and "by" not in fixed
        assert "misread" not in json.dumps(rows) and "Rosa" not in json.dumps(rows)
    finally:
        server.close()
    store = open_event(path)
    trail = [d for d in audit.desk_history(store) if d.action == "hand_corrected"]
    assert [(d.by, d.reason) for d in trail] == [("Rosa (command line)", "misread")]
    store.close()


def test_a_correction_that_fails_half_way_leaves_nothing(tmp_path, monkeypatch):
    """The correction, its trail line, its change and a confirmed game's amended result are one
    transaction: a failure at its very end (as a server killed there) leaves none of them, and the
    table is as it was; the same correction sent again is then made once."""
    from tournament.event import changes

    path = _event(tmp_path, "competitive")
    server, client, token, director = _open(path)
    url = "/api/v1/tables/1/1"
    try:
        state = client.post(f"{url}/mode", headers=_auth(token), json={"rev": 0, "mode": "sheet"}).json()
        n = 0
        while not state["game"]["over"]:
            n += 1
            state = client.post(f"{url}/dgn", headers=_auth(token),
                                json={"rev": state["rev"], "text": f"hand {n}\nend NS 60 EW 0"}).json()
        state = _confirm(client, token, state)
        before = (state["rev"], state["result"], [c["seq"] for c in _changes(client)])
        real = changes.record

        def failing(store, kind, *args, **kw):
            if kind == changes.GAME_CORRECTED:
                raise RuntimeError("the power went off")
            return real(store, kind, *args, **kw)

        monkeypatch.setattr(changes, "record", failing)
        body = {"rev": state["rev"], "hand": 1, "line": 2, "text": "end NS 61 EW 0", "reason": "misread"}
        r = client.post(f"{url}/correct", headers=_auth(director), json=body)
        assert r.status_code == 422 and "nothing was stored" in r.json()["error"], r.json()
        monkeypatch.setattr(changes, "record", real)
        now = client.get(url, headers=_auth(token)).json()
        assert (now["rev"], now["result"], [c["seq"] for c in _changes(client)]) == before
        r = client.post(f"{url}/correct", headers=_auth(director), json=body)
        assert r.status_code == 200 and r.json()["result"]["scores"]["NS"] == state["result"]["scores"]["NS"] + 1
        assert client.post(f"{url}/correct", headers=_auth(director), json=body).status_code == 409  # not twice
    finally:
        server.close()
    store = open_event(path)
    assert [row["reason"] for row in store.audit()] == ["misread"]
    assert len([d for d in audit.desk_history(store) if d.action == "hand_corrected"]) == 1
    store.close()


def test_a_correction_row_written_before_keeps_its_reason_from_the_table():
    """Event files written before kept who and why in the correction's log row: they are left out
    of what the table's phones are sent, the rest of the row as it was."""
    from tournament.event.venue import _for_the_table

    body = json.dumps({"hand": 2, "line": 2, "was": "a", "now": "b", "by": "Rosa", "reason": "misread",
                       "requests": ["hand 1\nend NS 1 EW 0"]})
    rev, kind, sent, at = _for_the_table((7, "correct", body, "2026-12-04T21:00:00"))
    assert (rev, kind, at) == (7, "correct", "2026-12-04T21:00:00")
    assert json.loads(sent) == {"hand": 2, "line": 2, "was": "a", "now": "b", "requests": ["hand 1\nend NS 1 EW 0"]}
    assert _for_the_table((8, "dgn", '{"text": "6-6", "reason": "x"}', "t"))[2] == '{"text": "6-6", "reason": "x"}'

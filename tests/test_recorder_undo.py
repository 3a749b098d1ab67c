"""``undo`` takes back the last thing the table did, and that alone (a tester's findings).

1. ``end`` typed mid-hand keeps the hand as it stands ("hand 1 kept as it is (not over)"; the
   prompt: ``hand 1 kept as it stands (undo reopens it)>``).  The next ``undo`` reopened the hand
   *and* took back its last move (:meth:`Game.pop` reopens a hand and takes back a move of it).
   It only reopens the hand now, as the prompt says; the next ``undo`` takes back the last move.
   Every game, at the terminal, from a pipe, through a table's session (the venue's server), and
   through the venue's API with the phone's engine answering each write as the server does.
2. Broadway: a tile named alone with several placements is answered "… can go: 1. … pick a
   number"; an ``undo`` there dropped the list *and* took back the move before.  It drops the
   list alone now (Broadway is the one game that asks to pick a number).
"""

from __future__ import annotations

import attrs
import pytest

from domrec import notation
from domrec.game import Game
from domrec.recorder import placements, read_record
from domrec.session import PARTS as SESSION_PARTS, Session
from tests import simulated as made_once
from tests.conftest import CONFIGS
from tests.in_memory import tmp_path  # noqa: F401  (files written move by move: in memory)
from tests.test_recorder import PARTS, new_recorder, steps

GAMES = ("competitive", "horse-race", "broadway", "castle-rock", "domino-roads")


def _record(game: str, seed: int = 0):
    config = next(c for c in CONFIGS if c[0] == game)
    name, players, options, variant = config
    return next(made_once.simulate(name, 1, seed, players, options, variant, accidents=False))


def _first_hand_lines(record) -> tuple[list[str], list[str]]:
    """Hand 1 as a scorer types it (its part lines whole, a move a line with its seat): the lines
    before its first move, and its moves (up to its left or end line)."""
    lines = steps(notation.dumps(record))
    head: list[str] = []
    moves: list[str] = []
    for line in lines:
        word = line.split(" ")[0]
        if word in ("left", "end") or (word == "hand" and moves):
            break
        (moves if moves or word not in PARTS else head).append(line)
    return head, moves


def _mid_hand(game: str, interactive: bool, path=None):
    """A recorder in the middle of hand 1 of a game of ``game`` (its deal typed)."""
    record = _record(game)
    head, moves = _first_hand_lines(record)
    r, said, refused = new_recorder(record, path, interactive)
    for line in head + moves[:len(moves) // 2]:
        r.feed_line(line)
    assert not refused, refused
    assert r.game.in_hand and not r.game.hand_over and r.game.moves
    return record, r, said, refused


# --- 1. undo after a hand kept as it stands -------------------------------------------------


@pytest.mark.parametrize("interactive", [True, False], ids=["terminal", "pipe"])
@pytest.mark.parametrize("game", GAMES)
def test_undo_after_end_reopens_the_hand_and_keeps_its_moves(game, interactive, tmp_path):
    path = tmp_path / "g.dgn"
    _, r, said, refused = _mid_hand(game, interactive, path)
    g = r.game
    moves = list(g.moves)
    totals = dict(g.totals)
    r.feed_line("end")
    assert not refused, refused
    assert said[-1] == "hand 1 kept as it is (not over)"
    assert not g.in_hand and r.kept_last
    assert r.prompt == "hand 1 kept as it stands (undo reopens it)> "
    r.feed_line("undo")
    assert not refused, refused
    assert said[-1] == "reopened hand 1 (no move was taken back)"
    assert g.in_hand and g.hand_number == 1 and list(g.moves) == moves and dict(g.totals) == totals
    assert r.prompt == f"hand 1, {g.to_move} to play> "
    assert list(read_record(path).hands[0].moves) == moves  # saved: the hand in play, every move kept
    r.feed_line("undo")  # the next undo takes back the last move
    assert not refused, refused
    assert said[-1].startswith("took back ") and list(g.moves) == moves[:-1]
    r.feed_line("end")  # and end keeps the hand again
    assert said[-1] == "hand 1 kept as it is (not over)" and not g.in_hand


@pytest.mark.parametrize("game", GAMES)
def test_undo_after_end_before_a_hands_first_move_reopens_that_hand(game):
    """Hand 2's deal typed, then ``end`` before its first move: hand 2 is kept, empty.  ``undo``
    reopens it, empty as it was: hand 1 stays closed with all its moves (the undo had reopened hand
    2, found it empty, and gone on to take back hand 1's last move)."""
    record = next(r for seed in range(40) for r in [_record(game, seed)] if len(r.hands) >= 2)
    r, said, refused = new_recorder(record, None, True)
    lines = steps(notation.dumps(record))
    second = [k for k, line in enumerate(lines) if line.startswith("hand ")][1]
    for line in lines[:second]:
        r.feed_line(line)
    g = r.game
    if g.in_hand:
        r.feed_line("y")
    assert not refused, refused
    assert not g.in_hand and g.hand_number == 1
    first = g.record().hands[0]
    deal = [line for line in lines[second:]
            if line.split(" ")[0] in PARTS and line.split(" ")[0] not in ("left", "end")][:20]
    deal = deal[:next((k for k, line in enumerate(deal[1:], 1) if line.startswith("hand ")), len(deal))]
    for line in deal:
        r.feed_line(line)
    if not g.in_hand:  # (a deal that the rules start a hand with only at its first move)
        pytest.skip("no deal starts hand 2 before its first move")
    r.feed_line("end")
    assert not refused, refused
    assert not g.in_hand and g.hand_number == 2 and r.kept_last
    r.feed_line("undo")
    assert not refused, refused
    assert said[-1] == "reopened hand 2 (no move was taken back)"
    assert g.in_hand and g.hand_number == 2 and not g.moves
    assert g.record().hands[0] == first


@pytest.mark.parametrize("game", GAMES)
def test_the_game_reopens_a_kept_hand_without_taking_a_move_back(game):
    """The Game API: :meth:`Game.reopen` brings the last closed hand back in play as it was;
    :meth:`Game.pop` still takes back a move (at a hand's start, the hand before's last)."""
    record = _record(game)
    hand = record.hands[0]
    g = Game(record.game, [(p.seat, p.name) for p in record.players],
             variant=record.rules.variant if record.rules else None, options=dict(record.options) or None)
    g.start_hand(hand.deal, hand.leader)
    for move in hand.moves[:len(hand.moves) // 2]:
        g.push(move)
    moves = list(g.moves)
    assert g.end_hand() is None  # kept as it is: not over
    assert not g.in_hand and g.outcome_of(1) is None
    g.reopen()
    assert g.in_hand and g.hand_number == 1 and list(g.moves) == moves and not g.hand_over
    assert g.end_hand() is None
    assert g.pop() == moves[-1] and g.in_hand and list(g.moves) == moves[:-1]


def test_reopen_refuses_where_no_hand_is_closed():
    from domrec.game import GameError

    record = _record("competitive")
    g = Game(record.game, [(p.seat, p.name) for p in record.players])
    with pytest.raises(GameError):
        g.reopen()
    g.start_hand(record.hands[0].deal, record.hands[0].leader)
    with pytest.raises(GameError):
        g.reopen()


def _session_mid_hand(game: str) -> tuple[Session, list]:
    record = _record(game)
    session = Session(attrs.evolve(record, hands=(), result=None))
    text = notation.dumps_typed(record, keep_deal=True)
    requests: list[str] = []
    for line in text.splitlines():
        if not line or line.startswith("["):
            continue
        word = line.split()[0]
        if word in ("left", "end") or (word == "hand" and requests):
            break
        requests.extend([line] if word in SESSION_PARTS else line.split())
    moves = [x for x in requests if x.split()[0] not in SESSION_PARTS and not x.startswith("{")]
    head = requests[:requests.index(moves[0])]
    for text in head + moves[:len(moves) // 2]:
        session.take(text)
    assert session.game.in_hand and not session.game.hand_over
    return session, list(session.game.moves)


@pytest.mark.parametrize("game", GAMES)
def test_a_tables_undo_after_end_reopens_the_hand_and_keeps_its_moves(game):
    """The venue's table session (the server's, and the phone's engine's): the same."""
    session, moves = _session_mid_hand(game)
    said = session.take("end")
    assert said[-1] == "hand 1 kept as it is (not over)" and not session.game.in_hand
    said = session.take("undo")
    assert said == ["reopened hand 1 (no move was taken back)"], said
    assert session.game.in_hand and list(session.game.moves) == moves
    state = session.state()
    assert state["in_hand"] and len(state["hands"][0]["moves"]) == len(moves)
    session.take("undo")
    assert list(session.game.moves)[:len(moves) - 1] == moves[:-1] and len(session.game.moves) < len(moves)


# --- 2. Broadway: undo while a placement is to be picked --------------------------------------


def _broadway_choice(interactive: bool, path=None):
    """A Broadway recorder in hand 1 with a tile named alone that several placements fit, the
    list offered ("pick a number")."""
    record = _record("broadway")
    head, moves = _first_hand_lines(record)
    r, said, refused = new_recorder(record, path, interactive)
    for line in head:
        r.feed_line(line)
    for line in moves:
        r.feed_line(line)
        if len(r.game.moves) < 2:
            continue
        seat = r.game.to_move
        held = r.game.state.holdings()[seat]
        tile = next((t for t in held if len(placements(r.game, str(t), seat)) >= 2), None)
        if tile is not None:
            break
    else:
        raise AssertionError("no tile with several placements")
    assert not refused, refused
    before = list(r.game.moves)
    r.feed_line(f"{seat} {tile}")
    assert said[-1] == "pick a number", said[-4:]
    return r, said, refused, before, str(tile)


@pytest.mark.parametrize("interactive", [True, False], ids=["terminal", "pipe"])
def test_broadway_undo_while_picking_drops_the_list_alone(interactive, tmp_path):
    path = tmp_path / "g.dgn"
    r, said, refused, before, tile = _broadway_choice(interactive, path)
    r.feed_line("undo")
    assert not refused, refused
    assert said[-1] == f"took back the placements offered for {tile} (no move was made)"
    assert list(r.game.moves) == before  # the move before stays
    assert list(read_record(path).hands[0].moves) == before
    r.feed_line("1")  # no list is offered now: a number is a word again (refused), nothing is played
    assert len(refused) == 1 and list(r.game.moves) == before
    r.feed_line("undo")  # the next undo takes back the last move
    assert said[-1].startswith("took back ") and list(r.game.moves) == before[:-1]


def test_broadway_undo_while_picking_from_a_pipe_line():
    """From a pipe the tile and the undo may be on one line: the same."""
    r, said, refused, before, tile = _broadway_choice(False)
    seat = r.game.to_move
    r.feed_line("undo")
    r.feed_line(f"{seat} {tile} undo")
    assert not refused, refused
    assert said[-1] == f"took back the placements offered for {tile} (no move was made)"
    assert list(r.game.moves) == before


def test_a_broadway_tables_undo_while_picking_drops_the_list_alone():
    """Through a table's session: a tile named alone leaves the list offered between requests;
    the table's undo drops it and keeps the move before."""
    record = _record("broadway")
    session = Session(attrs.evolve(record, hands=(), result=None))
    head, moves = _first_hand_lines(record)
    for line in head:
        session.take(line)
    for line in moves:
        session.take(line)
        g = session.game
        if len(g.moves) < 2:
            continue
        seat = g.to_move
        tile = next((t for t in g.state.holdings()[seat] if len(placements(g, str(t), seat)) >= 2), None)
        if tile is not None:
            break
    before = list(session.game.moves)
    said = session.take(f"{seat} {tile}")
    assert said[-1] == "pick a number", said
    said = session.take("undo")
    assert said == [f"took back the placements offered for {tile} (no move was made)"], said
    assert list(session.game.moves) == before


# --- the venue's API, the phone's engine answering each write as the server -------------------


@pytest.mark.parametrize("game", GAMES)
def test_the_venues_undo_after_end_reopens_the_hand(game, tmp_path):
    starlette_testclient = pytest.importorskip("starlette.testclient")
    from tests.tournament.test_venue import _auth, _event, _game_of, _requests, _server
    from tests.tournament.test_phone_engine import _without_times
    from tournament.event import phone
    from tournament.web.app import PHRASES

    path = _event(tmp_path, game)
    record = _game_of(path, 1, 1, 0)
    server = _server(path)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        token = server.call(server.venue.links, "http://testserver")["tables"][0]["token"]
        url = "/api/v1/tables/1/1"
        headers = _auth(token)

        def post(text: str) -> dict:
            state = client.get(url, headers=headers).json()
            log = client.get(url, params={"log": "1"}, headers=headers).json()["log"]
            body = {"rev": state["rev"], "text": text}
            offline = phone.answer(log, {"path": "dgn", "body": body}, "en", sentences=PHRASES)
            r = client.post(f"{url}/dgn", headers=headers, json=body)
            assert r.status_code == 200 == offline["status"], (text, r.json(), offline)
            got = r.json()
            assert _without_times(offline["body"]) == _without_times(got), text  # the phone answers as the server
            return got

        texts = _requests(record)
        second = next((k for k, t in enumerate(texts) if k and t.startswith("hand ")), len(texts))
        first = texts[:second]
        moves = [k for k, t in enumerate(first) if t.split()[0] not in SESSION_PARTS and not t.startswith("{")]
        for text in first[:moves[len(moves) // 2]]:
            state = post(text)
        played = [m for h in state["game"]["hands"] for m in h["moves"]]
        assert state["game"]["in_hand"] and played
        state = post("end")
        assert not state["game"]["in_hand"]
        state = post("undo")
        assert state["said"] == ["reopened hand 1 (no move was taken back)"], state["said"]
        assert state["game"]["in_hand"]
        assert [m for h in state["game"]["hands"] for m in h["moves"]] == played
        state = post("undo")  # the next undo takes back a move (a forced pass made again at once)
        assert state["said"][0].startswith("took back "), state["said"]
    finally:
        server.close()

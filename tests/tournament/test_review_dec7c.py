"""Review of the morning's duplicate fixes (Dec 7): what a club relies on.

A board taken back (its mark or its result) while the table's phone, past it, plays a later board
is refused (below).  A Horse Race chain refused to another seat named a tile the chaining player
still holds ("P3 set a scoring tile (2-1) and must go on while able: 3-0 fits on 3-1; it is not
P1's turn"): at the table every player reads it, so it is said without the tile
(:func:`tournament.event.table_log.hands_hidden`)."""

from __future__ import annotations

import random

from domrec.game import Game, Refused
from domrec.record import Deal, Draw
from tests.tournament.test_duplicate_event import run
from tests.tournament.test_notplayed_after_undo import _send, dup  # noqa: F401 - the served Mitchell
from tests.tournament.test_venue import _auth
from tournament.event import table_log

_SET = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def _chain_refused_to_another_seat() -> tuple[str, str, str]:
    """A real Horse Race hand, played at random from a shuffled deal until a player is in a chain
    and could go on: another seat's draw refused, with the engine's sentence, the chaining seat and
    the tile the engine names."""
    seats = ("P1", "P2", "P3")
    for seed in range(200):
        rng = random.Random(seed)
        tiles = _SET[:]
        rng.shuffle(tiles)
        game = Game("horse-race", [(s, s) for s in seats])
        game.start_hand(Deal(hands={s: tuple(tiles[i * 6:(i + 1) * 6]) for i, s in enumerate(seats)},
                             boneyard=tuple(tiles[18:])))
        for _ in range(60):
            if not game.in_hand:
                break
            state = game.state
            mover = state.to_move
            fit = state._fit(mover) if getattr(state, "chain", None) is not None else None
            if fit is not None:
                other = next(s for s in seats if s != mover)
                try:
                    game.push(Draw(other, True))
                except Refused as e:
                    return e.problem.message, mover, str(fit[0])
                raise AssertionError("a draw out of turn was taken")
            game.push(rng.choice(game.legal_moves()))
    raise AssertionError("no chain met")


def test_a_chain_refused_to_another_seat_does_not_name_a_tile_the_chaining_player_holds() -> None:
    from domrec.phrases import translate
    from tournament import i18n
    from tournament.web.app import PHRASES

    engine_said, mover, tile = _chain_refused_to_another_seat()
    assert f": {tile} fits on " in engine_said  # the engine's own sentence, for the validator, names it
    said = table_log.hands_hidden(engine_said)
    assert tile not in said.split("and must go on while able", 1)[1], said
    assert "fits on" not in said and said.startswith(f"{mover} set a ") and "it is not P" in said, said
    spanish = translate(said, "es", PHRASES, i18n.FOLDERS)
    assert spanish != said and "no es el turno de" in spanish and tile not in spanish.split("mientras pueda")[1], \
        spanish


# --- A board taken back while the table's phone has gone past it ---------------------------------
#
# A board marked not played (or entered by the director) before the table reached it is skipped by
# the phone, which goes on with its next board.  Taking the mark (or the result) back while the
# phone is playing that next board made the phone's board the earlier one again: its page named the
# earlier board while its hand was the later board's deal, and the hand confirmed would be entered
# as the earlier board's result (a typed score, unchecked against a deal).  Refused now, in one line,
# until the table has finished that hand; nothing changed.

_PAST = ("table 1's phone is playing board {later}, after board {first}: let the table finish that hand first "
         "(taken back now, the hand would count as the earlier board's); nothing was changed")


def test_a_mark_is_not_taken_back_under_a_later_boards_hand(dup) -> None:
    event, client, url, token, boards, director = dup
    first, later = boards[0], boards[1]
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played", "--reason", "late")
    assert _send(client, url, token, "hand 1")["board"] == later  # the phone skipped the marked board
    out = run("clear", event, "--round", 1, "--table", 1, "--board", first, "--reason", "mistake", code=1)
    assert _PAST.format(later=later, first=first) in out
    assert client.get(url, headers=_auth(token)).json()["board"] == later  # its hand is still the later board's
    assert f"board {first}: not played" in run("history", event)
    # The director's page: the same line, in Spanish too.
    cleared = f"{url}/result/clear"
    for lang, start in (("en", "table 1's phone is playing board"),
                        ("es", "el teléfono de la mesa 1 está jugando el tablero")):
        r = client.post(cleared, headers={**_auth(director), "Accept-Language": lang},
                        json={"board": first, "reason": "mistake"})
        assert r.status_code == 422 and r.json()["error"].startswith(start), r.text
    assert client.get(url, headers=_auth(token)).json()["board"] == later


def test_a_result_entered_beside_the_phone_is_not_taken_back_under_a_later_boards_hand(dup) -> None:
    event, client, url, token, boards, _ = dup
    first, later = boards[0], boards[1]
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--score", "NS=10,EW=0")
    assert _send(client, url, token, "hand 1")["board"] == later
    out = run("clear", event, "--round", 1, "--table", 1, "--board", first, "--reason", "wrong table", code=1)
    assert _PAST.format(later=later, first=first) in out
    assert client.get(url, headers=_auth(token)).json()["board"] == later


def test_a_mark_is_taken_back_before_the_phone_starts_a_later_board(dup) -> None:
    event, client, url, token, boards, _ = dup
    first, later = boards[0], boards[1]
    run("result", event, "--round", 1, "--table", 1, "--board", first, "--not-played", "--reason", "late")
    _send(client, url, token, "hand 1")
    _send(client, url, token, "undo")  # nothing of the later board's hand stands: not in play
    out = run("clear", event, "--round", 1, "--table", 1, "--board", first, "--reason", "mistake")
    assert f"board {first}: no longer marked not played" in out
    assert client.get(url, headers=_auth(token)).json()["board"] == first

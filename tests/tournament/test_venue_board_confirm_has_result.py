"""A duplicate table's last confirmation of a board that finds the board's result already stored
(the director's, landing after the confirmation read the table) is refused in a player's words,
in the player's language: the director entered the board's result; this hand was not stored.

Before, the phone was shown the command line's refusal behind the phone's own source: "round 1
table 1 board 1 (table page): round 1 table 1 board 1 already has a result (NS 30, EW 0, a typed
score); give --replace to replace it": a flag no player can give, and English in a Spanish hall.
As for a whole game's (tests/tournament/test_venue_confirm_has_result.py): the director's entry
over the phone's hand closes the board there, so a confirmation sent after it is refused as made
on an older view of the table; this is what a confirmation meets when the result lands after it
read the table's boards, which the test makes happen by storing it at that point, in the
confirmation's own write.  The command line's own refusal of a board's second result keeps its
words (``--replace``)."""

from __future__ import annotations

import random

import pytest

from domrec import phrases
from tournament import i18n
from tournament.event import duplicate
from tournament.event.files import open_event

from tests.tournament.test_venue import _auth
# The served 3-table Mitchell (6 boards, 2 a table) and its helpers.
from tests.tournament.test_venue_duplicate_not_played import dup  # noqa: F401

WORDS = {
    "en": "the director entered board %s's result meanwhile (NS 30, EW 0): this hand was not stored; call the "
          "director",
    "es": "el árbitro introdujo el resultado del tablero %s entretanto (NS 30, EW 0): esta mano no se guardó; "
          "llame al árbitro",
}


def _waiting_for_ew(client, url: str, token: str) -> dict:
    """Table 1's first board played out on its phone and confirmed by NS: EW's confirmation, the
    last, is what enters it."""
    state = client.get(url, headers=_auth(token)).json()
    rng = random.Random(3)
    r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": "hand 1"})
    while not r.json()["game"]["over"]:
        legal = r.json()["game"]["legal"]
        text = rng.choice(legal)["text"] if legal else "y"
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": r.json()["rev"], "text": text})
        assert r.status_code == 200, r.text
    r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": r.json()["rev"], "side": "NS"})
    assert r.status_code == 200 and r.json()["status"] == "waiting", r.text
    return r.json()


def _director_lands_first(monkeypatch, table_id: int, board: int) -> None:
    """The director's result of ``board`` (NS 30, EW 0) stored as the phone's hand is about to be
    entered, after the confirmation read the table's boards."""
    for name in ("enter_record", "enter_score"):
        real = getattr(duplicate, name)

        def landing_first(store, *args, _real=real, **kw):
            if duplicate.entered(store, table_id, board) is None and kw.get("by", "").startswith("the phone"):
                duplicate.enter_score(store, 1, 1, board, {"NS": 30, "EW": 0}, by="the director's page",
                                      within=True, from_phone=True)
            return _real(store, *args, **kw)

        monkeypatch.setattr(duplicate, name, landing_first)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_last_confirmation_over_the_directors_board_result_is_refused_in_a_players_words(dup, monkeypatch,
                                                                                              lang) -> None:
    event, client, url, token, boards, director, server = dup
    first, _ = boards
    state = _waiting_for_ew(client, url, token)
    _director_lands_first(monkeypatch, server.call(server.venue.table, 1, 1).id, first)
    r = client.post(f"{url}/confirm", headers={**_auth(token), "Accept-Language": lang},
                    json={"rev": state["rev"], "side": "EW"})
    assert r.status_code == 422, r.text
    said = r.json()["error"]
    assert said == WORDS[lang] % first, said
    assert "--replace" not in said and "\n" not in said
    # Nothing of the confirmation was kept: the phone still waits for EW.
    monkeypatch.undo()
    again = client.get(url, headers=_auth(token)).json()
    assert again["status"] == "waiting" and again["rev"] == state["rev"]


def test_the_refusal_is_listed_for_the_pages_and_the_command_line_keeps_its_words(dup) -> None:
    """The phone's words are a listed pattern with its Spanish; the library's refusal (what
    `tournament result --board` prints) still names --replace."""
    from tournament.event.venue import BOARD_HAS_RESULT, REFUSALS

    event, client, url, token, boards, director, server = dup
    first, _ = boards
    assert BOARD_HAS_RESULT in REFUSALS and phrases.listed(WORDS["en"] % first, REFUSALS)
    assert i18n.translations("es").gettext(BOARD_HAS_RESULT) != BOARD_HAS_RESULT
    store = open_event(event)
    try:
        duplicate.enter_score(store, 1, 1, first, {"NS": 30, "EW": 0})
        with pytest.raises(duplicate.BoardAlreadyEntered) as refused:
            duplicate.enter_score(store, 1, 1, first, {"NS": 20, "EW": 0})
    finally:
        store.close()
    assert str(refused.value) == (f"round 1 table 1 board {first} already has a result (NS 30, EW 0, a typed "
                                  f"score); give --replace to replace it"), str(refused.value)

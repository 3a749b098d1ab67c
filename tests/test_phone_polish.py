"""The table's phone page, polished (the checks a browser is not needed for; the page itself in
tests/test_phone_polish_browser.py): each side's pair and team in the table's state, for that
table's sides only, kept by the phone's engine offline, made again when a pair or team is
renamed; the banner's words for hand scores and for a confirmation kept on the phone, in
Spanish too."""

from __future__ import annotations

import json
from pathlib import Path

from domrec.i18n import script_msgids, script_strings
from tournament import add_pairs, add_players, create_event, make_settings, pair_next_round
from tournament import i18n
from tournament.event import table_log
from tournament.event.venue import Venue

TABLE_JS = Path(__file__).resolve().parent.parent / "tournament" / "web" / "static" / "table.js"
HOSTILE = "<img src=x onerror=alert(1)>"


def _pairs(tmp_path: Path) -> Venue:
    store = create_event(tmp_path / "pairs.db", make_settings("Pairs cup", "competitive", "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None), ("Ed", "Flo", HOSTILE), ("Gus", "Hal", None)])
    pair_next_round(store)
    return Venue(store)


def _expected(venue: Venue, number: int) -> dict[str, dict]:
    table = next(t for t in venue.store.tables(1) if t.number == number)
    names = {x.id: x.name for x in venue.store.teams()}
    players = venue.store.players_by_id([s.player for s in table.seats])
    return {s.side: {"pair": names[players[s.player].team], "team": None} for s in table.seats}


def test_a_pairs_tables_state_names_its_own_sides_pairs_only(tmp_path):
    venue = _pairs(tmp_path)
    try:
        states = {t.number: venue.state(1, t.number, table_key=True) for t in venue.store.tables(1)}
        assert len(states) == 2
        for number, state in states.items():
            assert state["units"] == _expected(venue, number)
            # (nothing of the other table's pairs: the key reads its own table only)
            other = _expected(venue, 3 - number)
            text = json.dumps(state)
            for unit in other.values():
                assert json.dumps(unit["pair"])[1:-1] not in text
        assert HOSTILE in [u["pair"] for s in states.values() for u in s["units"].values()]
    finally:
        venue.store.close()


def test_the_phones_engine_keeps_the_pairs_names_offline(tmp_path):
    """What the engine in the phone is given (the log's facts) names the pairs, and the state it makes
    from them names them as the server's does."""
    venue = _pairs(tmp_path)
    try:
        answer = venue.state_with_log(1, 1)
        facts = table_log.Facts.from_json(json.loads(json.dumps(answer["log"]["facts"])))
        assert facts.to_json() == answer["log"]["facts"]
        live = venue._current(venue.table(1, 1))
        assert table_log.state(facts, live, [])["units"] == answer["units"] == _expected(venue, 1)
    finally:
        venue.store.close()


def test_a_pair_renamed_is_named_so_at_once(tmp_path):
    from tournament.event.roster import rename

    venue = _pairs(tmp_path)
    try:
        before = venue.state(1, 1)["units"]
        old = before["NS"]["pair"]
        rename(venue.store, old, "Los Nuevos")
        assert venue.state(1, 1)["units"]["NS"]["pair"] == "Los Nuevos"
    finally:
        venue.store.close()


def test_a_table_of_players_alone_names_no_pairs(tmp_path):
    """Rotating partners, or each for himself: the seats name the players; no side is a pair."""
    for game, fmt, size, count in (("competitive", "rotating", None, 4), ("horse-race", "individual", 3, 3)):
        store = create_event(tmp_path / f"{game}.db", make_settings("Club night", game, fmt, table_size=size, seed=4))
        add_players(store, [f"P{i}" for i in range(1, count + 1)])
        pair_next_round(store)
        venue = Venue(store)
        try:
            state = venue.state(1, 1)
            assert "units" not in state
            assert "units" not in venue.state_with_log(1, 1)["log"]["facts"]
        finally:
            store.close()


def test_a_team_events_sides_are_named_by_pair_and_team(tmp_path):
    from tests.tournament.test_duplicate_teams import new_event, run
    from tournament import open_event
    from tournament.event.teams import rename_team

    event = tmp_path / "teams.db"
    new_event(event, 4)
    run("boards", event, "--boards", 6, "--seed", 38)
    run("pair", event)
    venue = Venue(open_event(event))
    try:
        units = venue.state(1, 1)["units"]
        assert set(units) == {"NS", "EW"}
        assert all(u["pair"] and u["team"] and u["team"].startswith("Team ") for u in units.values())
        rename_team(venue.store, units["NS"]["team"], "Los Invencibles")
        assert venue.state(1, 1)["units"]["NS"]["team"] == "Los Invencibles"
    finally:
        venue.store.close()


SCORE_WORDS = {
    "offline: 1 score waiting to be sent": "sin conexión: 1 tanteo esperando a enviarse",
    "offline: %(n)s scores waiting to be sent": "sin conexión: %(n)s tanteos esperando a enviarse",
    "sending 1 score made offline…": "enviando 1 tanteo anotado sin conexión…",
    "offline: the confirmation kept on this phone is sent when the connection is back":
        "sin conexión: la confirmación guardada en este teléfono se envía cuando vuelva la conexión",
}


def test_the_banners_words_for_scores_and_a_kept_confirmation_are_the_pages_in_spanish():
    """The table page looks them up (its script's strings) and the Spanish page has them in Spanish,
    singular and plural as the moves' words are."""
    looked_up = set(script_msgids(TABLE_JS))
    spanish = script_strings([TABLE_JS], "es", i18n.FOLDERS)
    for msgid, words in SCORE_WORDS.items():
        assert msgid in looked_up
        assert spanish[msgid] == words
    for n in ("1 score", "%(n)s scores"):
        for start in ("the server is busy: ", "waiting for the server: "):
            assert any(m.startswith(start + n) for m in looked_up), (start, n)

"""Entering results: records checked by domrec, table matching, idempotence, replace and audit."""

from __future__ import annotations

import json

import pytest

from domrec import validate_text

from tournament import ResultRefused, UnusableInput, enter_manual, enter_record, pair_next_round
from tournament.errors import PairingError
from tournament.event.results import REPLACED, STORED, UNCHANGED

from tests.tournament.conftest import play_table


def test_record_stored_with_computed_scores(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    text = play_table(store, table, seed=1)
    doc = json.loads(text)
    # Strip every claim: the stored scores must come from domrec's replay, not from the record.
    del doc["result"]
    for hand in doc["hands"]:
        hand.pop("result", None)
    stripped = json.dumps(doc)
    report = validate_text(stripped)
    assert report.valid and report.finished
    entry = enter_record(store, stripped, "g.json")
    assert entry.status == STORED and entry.verified
    result = store.result_for(table.id)
    assert result.scores == report.scores and result.winner == report.winner
    assert result.kind == "record" and result.verified
    assert store.record_text(result.id) == stripped


def test_same_record_twice_is_accepted_once(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[1]
    text = play_table(store, table, seed=2)
    assert enter_record(store, text).status == STORED
    # The same game laid out differently is the same record.
    pretty = json.dumps(json.loads(text), indent=2)
    assert enter_record(store, pretty).status == UNCHANGED
    assert len(store.results()) == 1


def test_different_result_needs_replace_and_is_audited(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    first, second = play_table(store, table, seed=3), play_table(store, table, seed=4)
    enter_record(store, first)
    old = store.result_for(table.id)
    with pytest.raises(ResultRefused, match="already has a result"):
        enter_record(store, second)
    assert store.result_for(table.id) == old
    entry = enter_record(store, second, replace=True)
    assert entry.status == REPLACED
    new = store.result_for(table.id)
    assert new.id != old.id
    [audit] = store.audit()
    kept = json.loads(audit["old_result"])
    assert kept["record"] == first and kept["record_hash"] == old.record_hash
    assert audit["new_result_id"] == new.id


def test_invalid_record_refused_with_domrecs_report(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    doc = json.loads(play_table(store, table, seed=5))
    doc["result"]["scores"]["NS"] += 1  # a wrong claim
    with pytest.raises(ResultRefused, match="invalid") as info:
        enter_record(store, json.dumps(doc))
    assert any("claimed" in line for line in info.value.problems)
    assert store.results() == {}


def test_unreadable_record_is_unusable(rotating_event) -> None:
    with pytest.raises(UnusableInput, match="cannot be read"):
        enter_record(rotating_event, b"{not json", "broken.json")


def test_unfinished_game_refused(rotating_event) -> None:
    store = rotating_event
    doc = json.loads(play_table(store, store.tables(1)[0], seed=6))
    doc["hands"] = doc["hands"][:1]
    doc.pop("result")
    doc["hands"][0].pop("result", None)
    with pytest.raises(ResultRefused, match="not finished|invalid"):
        enter_record(store, json.dumps(doc))


def test_wrong_table_refused(rotating_event) -> None:
    store = rotating_event
    t1, t2 = store.tables(1)[:2]
    doc = json.loads(play_table(store, t1, seed=7))
    doc["players"][1] = {"seat": "E", "name": "x", "id": str(t2.seats[0].player)}  # someone from table 2
    with pytest.raises(ResultRefused, match="does not match table"):
        enter_record(store, json.dumps(doc))
    # Seats swapped within the table: refused too.
    doc = json.loads(play_table(store, t1, seed=7))
    doc["players"][0]["id"], doc["players"][1]["id"] = doc["players"][1]["id"], doc["players"][0]["id"]
    with pytest.raises(ResultRefused, match="does not match table"):
        enter_record(store, json.dumps(doc))
    # A bye player has no table.
    bye = store.byes(1)[1][0]
    doc = json.loads(play_table(store, t1, seed=7))
    doc["players"][0]["id"] = str(bye)
    with pytest.raises(ResultRefused):
        enter_record(store, json.dumps(doc))
    assert store.results() == {}


def test_unknown_player_and_event_table_mismatch(rotating_event) -> None:
    store = rotating_event
    t1 = store.tables(1)[0]
    doc = json.loads(play_table(store, t1, seed=8))
    doc["players"][2]["id"] = "999"
    with pytest.raises(ResultRefused, match="999"):
        enter_record(store, json.dumps(doc))
    doc = json.loads(play_table(store, t1, seed=8))
    doc["event"]["table"] = "2"
    with pytest.raises(ResultRefused, match="says it is table 2"):
        enter_record(store, json.dumps(doc))


def test_matched_by_exact_name_without_ids(rotating_event) -> None:
    store = rotating_event
    t1 = store.tables(1)[0]
    text = play_table(store, t1, seed=9, ids=False)
    assert enter_record(store, text).status == STORED
    doc = json.loads(play_table(store, store.tables(1)[1], seed=9, ids=False))
    doc["players"][0]["name"] = doc["players"][0]["name"].upper() + "x"
    with pytest.raises(ResultRefused, match="not a player of this event"):
        enter_record(store, json.dumps(doc))


def test_other_game_options_refused(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    names = {p.id: p.name for p in store.players()}
    from domrec.record import Rules
    from domrec.simulate import dumps, play_game
    import random
    import attrs
    from tournament.event.simulate import game_record
    template = attrs.evolve(game_record(store.settings, table, names), rules=Rules(options={"first_lead": "double-six"}))
    text = dumps(play_game(template, random.Random(1)))
    assert validate_text(text).valid
    with pytest.raises(ResultRefused, match="other rule options"):
        enter_record(store, text)


def test_manual_result_is_unverified_and_idempotent(rotating_event) -> None:
    store = rotating_event
    entry = enter_manual(store, 2, {"NS": 200, "EW": 143})
    assert entry.status == STORED and not entry.verified and entry.winner == "NS"
    assert enter_manual(store, 2, {"NS": 200, "EW": 143}).status == UNCHANGED
    with pytest.raises(ResultRefused, match="already has a result"):
        enter_manual(store, 2, {"NS": 100, "EW": 201})
    with pytest.raises(UnusableInput, match="sides"):
        enter_manual(store, 1, {"NS": 100})
    with pytest.raises(UnusableInput, match="no table 9"):
        enter_manual(store, 9, {"NS": 100, "EW": 0})
    r = store.result_for(store.tables(1)[1].id)
    assert r.kind == "manual" and not r.verified and r.scores == {"NS": 200, "EW": 143}


def test_next_round_needs_every_result(rotating_event) -> None:
    store = rotating_event
    enter_manual(store, 1, {"NS": 200, "EW": 0})
    with pytest.raises(PairingError, match="table 2 has no result"):
        pair_next_round(store)
    enter_manual(store, 2, {"NS": 10, "EW": 205})
    plan = pair_next_round(store)
    assert plan.round == 2
    # Round 1 results can still be corrected (explicit round), round 2 is now current.
    t = store.tables(1)[0]
    text = play_table(store, t, seed=11)
    assert enter_record(store, text, replace=True).round == 1  # the record says round 1


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-32"])
def test_record_files_with_a_bom_or_in_utf16_are_stored_as_text_and_pass_check(rotating_event, encoding) -> None:
    """domrec reads a record file in any encoding JSON allows (Notepad writes a BOM); the stored text is
    the decoded record, without the BOM, so that ``check`` can re-validate it later."""
    from tournament import run_check
    store = rotating_event
    table = store.tables(1)[0]
    text = play_table(store, table, seed=11)
    entry = enter_record(store, text.encode(encoding), "windows.json")
    assert entry.status == STORED
    stored = store.record_text(store.result_for(table.id).id)
    assert stored == text
    assert enter_record(store, text).status == UNCHANGED
    assert run_check(store).ok, run_check(store).findings


def test_check_accepts_a_stored_record_that_kept_its_bom(rotating_event) -> None:
    """Files written before the BOM was stripped on entry still pass check."""
    from tournament import run_check
    store = rotating_event
    table = store.tables(1)[0]
    enter_record(store, play_table(store, table, seed=12))
    rid = store.result_for(table.id).id
    store.conn.execute("UPDATE results SET record = char(65279) || record WHERE id = ?", [rid])
    store.conn.commit()
    assert run_check(store).ok, run_check(store).findings


def test_a_celko_record_without_target_fits_a_celko_event_with_target_200(tmp_path):
    """Both play to 200: the variant's default and the explicit option are the same rules."""
    import random

    from domrec.record import Player, Record, Rules
    from domrec.simulate import play_game, dumps
    from tournament.settings import make_settings
    from tournament.event.results import record_seats
    from domrec.reader import loads

    settings = make_settings("c", "horse-race", "individual", 2, 1, "celko", {"target": 200}, None, None, None)
    record = loads(dumps(play_game(Record(game="horse-race", rules=Rules(variant="celko"),
                                          players=(Player(seat="P1", name="A"), Player(seat="P2", name="B"))),
                                   random.Random(1))))
    from types import SimpleNamespace

    players = {1: SimpleNamespace(id=1, name="A"), 2: SimpleNamespace(id=2, name="B")}
    assert record_seats(settings, record, players, "r.json") == {"P1": 1, "P2": 2}


def test_a_round_written_with_non_ascii_digits_is_not_a_round_number():
    from tournament.event.results import _round_number

    assert _round_number("3") == 3 and _round_number(" 12 ") == 12 and _round_number(4) == 4
    assert _round_number("²") is None and _round_number("٣") is None and _round_number("3a") is None


def test_a_record_naming_a_players_former_name_is_stored_with_a_note(rotating_event) -> None:
    """A sheet printed before ``tournament rename`` names the player as they were: by id or by name,
    the record is the table's game (the trail knows the old name), stored with a note; a name that
    was never the player's is still refused."""
    from tournament.event import roster

    store = rotating_event
    t1, t2 = store.tables(1)[:2]
    with_ids = play_table(store, t1, seed=3)
    by_name = play_table(store, t2, seed=4, ids=False)
    renamed = [store.players_by_id([t.seats[1].player])[t.seats[1].player] for t in (t1, t2)]
    for p in renamed:
        roster.rename(store, p.name, p.name + " Luz")
    entry = enter_record(store, with_ids, "t1.json")
    assert entry.status == STORED
    assert entry.summary().endswith(f"; note: {renamed[0].name!r} is #{renamed[0].id} {renamed[0].name} Luz's "
                                    f"former name")
    assert enter_record(store, by_name, "t2.json").status == STORED
    assert all(t.id in store.results() for t in (t1, t2))
    t3 = store.tables(1)[0]
    doc = json.loads(play_table(store, t3, seed=3))
    doc["players"][0]["name"] = "Somebody Else"
    with pytest.raises(ResultRefused, match="but the record names 'Somebody Else'"):
        enter_record(store, json.dumps(doc), replace=True)


def test_a_record_of_another_round_than_the_one_given_is_refused_saying_so(rotating_event) -> None:
    """``--round 3`` with a record whose event.round is 1: one line saying which round the record is
    of, not a seat mismatch with round 3's table."""
    store = rotating_event
    finish = [t for t in store.tables(1)]
    text = play_table(store, finish[0], seed=5)
    assert json.loads(text)["event"]["round"] in (1, "1")
    for t in finish:
        enter_manual(store, t.number, {"NS": 100, "EW": 50}, 1)
    pair_next_round(store)
    with pytest.raises(ResultRefused, match=r"^r1\.json is a record of round 1 \(its event\.round\), not round 2; "
                                            r"nothing was stored$"):
        enter_record(store, text, "r1.json", round_no=2)

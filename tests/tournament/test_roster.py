"""Fixing the player list: rename, remove, sit out, return, player ids (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import (Refused, add_pairs, add_players, create_event, enter_manual, enter_record, make_settings,
                        pair_next_round, withdraw)
from tournament.cli import app
from tournament.errors import PlayerInputError, UnknownPlayer
from tournament.event import audit, changes, roster
from tournament.event import check as checking
from tournament.event.desk import Who
from tournament.event.ratings import open_ratings
from tournament.event.standings import from_store

from tests.tournament.conftest import play_table

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def last_change(store) -> dict:
    return changes.changes_since(store, changes.latest_seq(store) - 1)[0]


def finish_round(store) -> None:
    for t in store.tables(store.last_round()):
        sides = t.sides()
        enter_manual(store, t.number, {sides[0]: 100, sides[1]: 50}, t.round)


def play_round(store) -> None:
    """Every table's game played and recorded (only recorded games are rated)."""
    for t in store.tables(store.last_round()):
        enter_record(store, play_table(store, t, seed=t.number), f"t{t.number}.json")


# --- rename --------------------------------------------------------------------------------------


def test_rename_keeps_number_games_and_a_clean_check(rotating_event) -> None:
    store = rotating_event
    t = store.tables(1)[0]
    enter_record(store, play_table(store, t, ids=False), "t1.json")  # matched by name, as recorded
    who = next(p for p in store.players() if p.id == t.seats[0].player)
    assert roster.rename(store, who.name, "Renée Dupont", Who("Marta", "misspelt")) == (who.name, "Renée Dupont")
    assert store.find_player("Renée Dupont").id == who.id
    assert last_change(store)["kind"] == "player_renamed"
    assert last_change(store)["data"] == {"id": who.id, "old": who.name, "name": "Renée Dupont"}
    assert [(d.action, d.by, d.reason) for d in audit.desk_history(store)] == [("player_renamed", "Marta", "misspelt")]
    assert "Renée Dupont" in {r.name for r in from_store(store).rows}
    report = checking.run(store)
    assert report.ok, [f.text() for f in report.findings]


def test_rename_refusals(rotating_event) -> None:
    store = rotating_event
    with pytest.raises(Refused, match="a player named 'Bo' is already entered"):
        roster.rename(store, "Ana", "Bo")
    with pytest.raises(Refused, match="looks the same as the player #2 'Bo'"):
        roster.rename(store, "Ana", "Bo\u200b")
    with pytest.raises(UnknownPlayer, match="did you mean 'Ana'"):
        roster.rename(store, "Anaa", "X")
    with pytest.raises(PlayerInputError, match="cannot be empty"):
        roster.rename(store, "Ana", "  ")
    assert audit.desk_history(store) == []


def test_rename_a_pair(pairs_event) -> None:
    store = pairs_event
    roster.rename(store, "Los Primos", "Los Hermanos")
    assert "Los Hermanos" in {t.name for t in store.teams()}
    assert last_change(store)["kind"] == "pair_renamed"
    with pytest.raises(Refused, match="a partnership named 'Ana & Bo' is already entered"):
        roster.rename(store, "Los Hermanos", "Ana & Bo")


def test_rename_of_an_unknown_name_in_a_pairs_event_says_pair_and_did_you_mean(pairs_event) -> None:
    """As withdraw says it: a pair's name is taken too, so the line says "pair or player" and offers
    the closest pair (it said "no player named or numbered 'Prmos'", with nothing offered)."""
    with pytest.raises(UnknownPlayer) as e:
        roster.rename(pairs_event, "Los Prmos", "X")
    assert str(e.value).startswith("no pair or player named or numbered 'Los Prmos' in this event; "
                                   "did you mean 'Los Primos'"), str(e.value)
    assert {t.name for t in pairs_event.teams()} >= {"Los Primos"}


# --- remove --------------------------------------------------------------------------------------


def test_remove_an_entry_made_by_mistake_and_its_number_is_never_given_again(rotating_event) -> None:
    store = rotating_event
    late = add_players(store, ["Typo"])[0]
    gone = roster.remove(store, "Typo")
    assert gone.id == late.id and "Typo" not in {p.name for p in store.players()}
    assert last_change(store)["kind"] == "player_removed"
    again = add_players(store, ["Tina"])[0]
    assert again.id == late.id + 1
    with pytest.raises(Refused, match="Ana has played .*withdraw instead"):
        roster.remove(store, "Ana")
    assert checking.run(store).ok


def test_remove_a_pair_before_it_plays(tmp_path: Path) -> None:
    store = create_event(tmp_path / "p.db", make_settings("P", "competitive", "pairs"))
    add_pairs(store, [("A", "B", None), ("C", "D", "Oops")])
    roster.remove(store, "Oops")
    assert [t.name for t in store.teams()] == ["A & B"] and {p.name for p in store.players()} == {"A", "B"}
    store.close()


# --- sit out, return ------------------------------------------------------------------------------


def test_a_player_sits_out_one_round_with_a_bye_and_comes_back(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("C", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, 10)])
    assert roster.sit_out(store, "P3") == ("P3", 1)
    assert last_change(store)["data"] == {"id": 3, "name": "P3", "round": 1}
    pair_next_round(store)
    assert store.byes(1)[1] == [3] and len(store.tables(1)) == 2
    finish_round(store)
    p3 = next(r for r in from_store(store).rows if r.name == "P3")
    assert p3.values(from_store(store).tiebreaks)  # ranked, with the bye's score
    pair_next_round(store)
    assert 3 in {s.player for t in store.tables(2) for s in t.seats}
    assert checking.run(store).ok
    with pytest.raises(Refused, match="round 2 is already paired"):
        roster.sit_out(store, "P3", 2)
    roster.sit_out(store, "P4", 3)
    roster.sit_out(store, "P4", 3, lift=True)
    with pytest.raises(Refused, match="has not asked to sit out round 3"):
        roster.sit_out(store, "P4", 3, lift=True)
    store.close()


def test_a_withdrawn_player_returns_with_their_history(rotating_event) -> None:
    store = rotating_event
    finish_round(store)
    withdraw(store, "Ana")
    pair_next_round(store)
    assert 1 not in {s.player for t in store.tables(2) for s in t.seats}
    finish_round(store)
    assert roster.return_player(store, "Ana") == ("Ana", 3)
    assert last_change(store)["kind"] == "player_returned"
    pair_next_round(store)
    assert 1 in {s.player for t in store.tables(3) for s in t.seats} | set(store.byes(3).get(3, []))
    with pytest.raises(Refused, match="Ana has not withdrawn"):
        roster.return_player(store, "Ana")
    assert checking.run(store).ok


# --- player ids, ratings ------------------------------------------------------------------------------


def test_player_ids_and_ratings_match_on_them_before_names(tmp_path: Path) -> None:
    one = create_event(tmp_path / "one.db", make_settings("Night 1", "competitive", "pairs", seed=1))
    add_pairs(one, [("Ana", "Bo", None), ("Cy", "Di", None)], [("FED-1", None), (None, None)])
    with pytest.raises(Refused, match="the player id 'FED-1' is already #1's"):
        roster.set_id(one, "Cy", "FED-1")
    pair_next_round(one)
    play_round(one)
    two = create_event(tmp_path / "two.db", make_settings("Night 2", "competitive", "pairs", seed=2))
    add_pairs(two, [("Ana María", "Bo", None), ("Cy", "Di", None)], [("FED-1", None), (None, None)])
    pair_next_round(two)
    play_round(two)
    book = open_ratings(tmp_path / "r.db")
    book.import_event(one, "one.db")
    book.import_event(two, "two.db")
    rows = {r.name: r for r in book.ratings()}
    assert rows["Ana María"].events == 2 and "Ana" not in rows  # one player, shown by the latest name
    assert rows["Bo"].events == 2
    book.close()
    one.close()
    two.close()


def test_cli_player_list(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "C", "--game", "competitive", "--format", "rotating").exit_code == 0
    csv = tmp_path / "p.csv"
    csv.write_text("name,id\nAna,ES-1\nBo,\nCy,ES-3\nDi,ES-4\n", encoding="utf-8")
    more = tmp_path / "more.csv"
    more.write_text("name\nGus\nHal\nIvo\nJo\n", encoding="utf-8")
    assert run("add", path, "--csv", csv).exit_code == 0
    r = run("add", path, "Ed", "Flo", "--id", "ES-5")
    assert r.exit_code == 2 and "one --id a name" in r.stderr
    assert run("add", path, "Ed", "--id", "ES-5").exit_code == 0
    rows = json.loads(run("players", path, "--json").stdout)
    assert [r["player_id"] for r in rows] == ["ES-1", "", "ES-3", "ES-4", "ES-5"]
    assert run("add", path, "--csv", more).exit_code == 0
    r = run("rename", path, "Bo", "Cy")
    assert r.exit_code == 1 and r.stderr.count("\n") == 1 and "already entered" in r.stderr
    assert run("rename", path, "Bo", "Bob", "--by", "Marta").stdout == "renamed 'Bo' to 'Bob'\n"
    r = run("remove", path, "Edd")
    assert r.exit_code == 2 and "did you mean 'Ed'?" in r.stderr
    assert run("remove", path, "Ed").stdout == "removed #5 Ed\n"
    assert run("check", path).exit_code == 0
    assert "sits out round 1" in run("sit-out", path, "Di").stdout
    assert run("pair", path).exit_code == 0
    assert run("withdraw", path, "Cy").exit_code == 0
    assert run("return", path, "Cy").stdout == "Cy is back from round 2\n"
    assert run("player-id", path, "Bob", "ES-2").exit_code == 0
    r = run("player-id", path, "Bob", "x" * 50)
    assert r.exit_code == 2
    assert run("check", path).exit_code == 0
    history = run("history", path).stdout
    assert "renamed #2 Bo to Bob" in history and "removed Ed (#5)" in history and "back from round" in history


def test_a_returned_player_is_not_paired_in_the_rounds_they_were_told_they_would_miss(tmp_path: Path) -> None:
    """The reviewer's run: withdrawn from round 2, back from round 5 while round 4 was paired; round 4
    unpaired and paired again must still leave Ana out (no free bye), the player list shows the rounds
    away, and ``check`` names a player seated (or given a bye) in a round they were out of."""
    from tournament.event import desk
    from tournament.event.players import player_rows
    from tournament.store import desk as desk_sql

    store = create_event(tmp_path / "r.db", make_settings("R", "competitive", "rotating", seed=3))
    add_players(store, "Ana Bo Cy Di Ed Fa Gus Ha Ivo Jo Kim Lu Mo".split())
    pair_next_round(store)
    finish_round(store)
    withdraw(store, "Ana")
    for _ in (2, 3):
        pair_next_round(store)
        finish_round(store)
    pair_next_round(store)
    assert roster.return_player(store, "Ana") == ("Ana", 5)
    desk.unpair(store)
    pair_next_round(store)
    assert 1 not in {s.player for t in store.tables(4) for s in t.seats} | set(store.byes(4).get(4, []))
    assert store.byes(4).get(4, []) == []  # 12 players: four full tables
    ana = next(r for r in player_rows(store) if r["name"] == "Ana")
    assert (ana["withdrawn_from"], ana["rounds_away"]) == (None, "2-4")
    assert checking.run(store).ok
    with store.write():  # as the old return left round 4 paired again: Ana given its bye
        desk_sql.add_bye(store, 4, 1)
    errors = [i.message for i in checking.run(store).errors]
    assert any("Ana is paired in round 4, a round they were out of (withdrawn from round 2, back from round 5)"
               in e for e in errors), errors
    store.close()


def test_a_sit_out_asked_for_a_later_round_is_void_once_the_player_withdraws(rotating_event) -> None:
    store = rotating_event
    roster.sit_out(store, "Bo", 3)
    assert desk_lines(store) == ["sit out: Bo (#2) in round 3"]
    withdraw(store, "Bo")
    assert desk_lines(store) == []


def desk_lines(store) -> list[str]:
    from tournament.event import desk

    return desk.requests_text(store)


def test_cli_forfeit_by_player_named_twice_is_a_usage_error(rotating_event) -> None:
    """As ``--forfeit NS --forfeit EW``: exit 2, one line, nothing stored."""
    store = rotating_event
    table = store.tables(1)[0]
    name = next(p.name for p in store.players() if p.id == table.players[0])
    path = store.path
    store.close()
    r = run("result", path, "--table", table.number, "--absent", name, "--absent", name)
    assert r.exit_code == 2 and "is named twice" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_a_sit_out_does_not_count_as_a_bye_in_the_queue_for_byes(tmp_path: Path) -> None:
    """P3 sat round 1 out (scoring nothing) and everyone else drew: P3 is last, has had no bye, and so
    has round 2's bye (scored by --bye) before the players who played."""
    store = create_event(tmp_path / "ev.db", make_settings("C", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, 10)])
    roster.sit_out(store, "P3")
    pair_next_round(store)
    assert store.byes(1) == {1: [3]}
    for t in store.tables(1):
        enter_manual(store, t.number, {"NS": 100, "EW": 100}, 1)  # a draw each
    pair_next_round(store)
    assert store.byes(2) == {2: [3]}
    assert checking.run(store).ok
    store.close()


def test_a_sit_out_comes_back_with_a_withdrawal_taken_back(tmp_path):
    """A withdrawal made by mistake and taken back at once (return) leaves the player's sit-out
    as it was: the withdrawal only hides it (the player misses that round anyway); it used to
    delete it, and the returned player was paired in the round they had asked to miss."""
    from tournament import withdraw
    from tournament.event import desk, roster

    store = create_event(tmp_path / "e.db", make_settings("R", "competitive", "rotating", seed=3))
    add_players(store, [f"P{i}" for i in range(1, 10)])
    pair_next_round(store)
    finish_round(store)
    roster.sit_out(store, "P2", 3)
    assert desk.requests_text(store) == ["sit out: P2 (#2) in round 3"]
    withdraw(store, "P2")
    assert desk.requests_text(store) == []
    roster.return_player(store, "P2")
    assert desk.requests_text(store) == ["sit out: P2 (#2) in round 3"]
    pair_next_round(store)
    finish_round(store)
    pair_next_round(store)
    seated = {s.player for t in store.tables(3) for s in t.seats}
    assert 2 not in seated
    store.close()

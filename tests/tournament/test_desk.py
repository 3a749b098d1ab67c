"""Changing a paired round before it is played: unpair, swap, move, pin, keep apart (issue 25)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from typer.testing import CliRunner

from tournament import (PairingError, Refused, add_pairs, add_players, create_event, enter_manual, make_settings,
                        pair_next_round)
from tournament.cli import app
from tournament.errors import UnusableInput
from tournament.event import audit, changes, desk
from tournament.event import check as checking
from tournament.event.results import amend_manual
from tournament.pairing.constraints import Constraints, apart_met
from tournament.pairing.swiss import pair_round
from tournament.store import venue as venue_sql
from tournament.values import Player, Team

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def seat_of(store, name: str, round_no: int | None = None):
    number = round_no or store.last_round()
    pid = store.find_player(name).id
    for t in store.tables(number):
        for s in t.seats:
            if s.player == pid:
                return t.number, s.seat
    return None


def kinds_since(store, seq: int) -> list[str]:
    return [c["kind"] for c in changes.changes_since(store, seq)]


def finish_round(store) -> None:
    for t in store.tables(store.last_round()):
        sides = t.sides()
        enter_manual(store, t.number, {sides[0]: 100, sides[1]: 50}, t.round)


# --- unpair ----------------------------------------------------------------------------------------


def test_unpair_takes_back_an_unplayed_round_audited_and_logged(rotating_event) -> None:
    store = rotating_event
    seq = changes.latest_seq(store)
    assert desk.unpair(store, desk.Who("Marta", "a late entry arrived")) == 1
    assert store.last_round() == 0 and store.tables() == [] and store.byes() == {}
    assert kinds_since(store, seq) == ["round_unpaired"]
    trail = audit.desk_history(store)
    assert [(d.action, d.by, d.reason, d.round) for d in trail] == [("round_unpaired", "Marta",
                                                                      "a late entry arrived", 1)]
    add_players(store, ["Jo"])
    plan = pair_next_round(store)
    assert plan.round == 1 and store.find_player("Jo").id in {s.player for t in plan.tables for s in t}
    assert checking.run(store).ok


def test_unpair_is_refused_with_a_result_or_nothing_paired(tmp_path: Path, rotating_event) -> None:
    store = rotating_event
    t = store.tables(1)[0]
    enter_manual(store, t.number, {"NS": 100, "EW": 20}, 1)
    with pytest.raises(Refused, match=r"^round 1 table 1 has a result: round 1 cannot be unpaired"):
        desk.unpair(store)
    assert store.last_round() == 1 and audit.desk_history(store) == []
    empty = create_event(tmp_path / "e.db", make_settings("E", "competitive", "rotating"))
    with pytest.raises(Refused, match="no round has been paired yet"):
        desk.unpair(empty)
    empty.close()


def test_a_game_in_progress_on_a_table_phone_blocks_unpair_and_swaps(rotating_event) -> None:
    store = rotating_event
    t = store.tables(1)[1]
    with store.write():
        venue_sql.upgrade_for_venue(store)
        store.conn.execute("INSERT INTO venue_log(table_id, rev, kind, body, at) VALUES (?, 1, 'dgn', '1. x', 'now')",
                           [t.id])
    with pytest.raises(Refused, match="table 2 has a game in progress on its table phone"):
        desk.unpair(store)
    other = next(s.player for s in store.tables(1)[0].seats)
    with pytest.raises(Refused, match="game in progress"):
        desk.swap(store, f"#{t.seats[0].player}", f"#{other}")
    assert store.tables(1)[1].players == t.players  # the round is as it was


# --- swap and move ------------------------------------------------------------------------------


def test_swap_two_players_logs_each_table_and_the_trail(rotating_event) -> None:
    store = rotating_event
    a, b = store.tables(1)[0].seats[0], store.tables(1)[1].seats[2]
    na, nb = (next(p.name for p in store.players() if p.id == x.player) for x in (a, b))
    seq = changes.latest_seq(store)
    tables = desk.swap(store, na, nb, who=desk.Who("desk"))
    assert [t.number for t in tables] == [1, 2]
    assert seat_of(store, na) == (2, b.seat) and seat_of(store, nb) == (1, a.seat)
    log = changes.changes_since(store, seq)
    assert [(c["kind"], c["round"], c["table"]) for c in log] == [("seat_changed", 1, 1), ("seat_changed", 1, 2)]
    assert {s["name"] for s in log[0]["data"]["seats"]} >= {nb}
    assert audit.desk_history(store)[-1].action == "seats_swapped"
    assert checking.run(store).ok


def test_swap_with_a_bye_and_across_a_played_table(rotating_event) -> None:
    store = rotating_event
    bye = store.byes(1)[1][0]
    t1, t2 = store.tables(1)
    desk.swap(store, f"#{bye}", f"#{t1.seats[1].player}")
    assert store.byes(1)[1] == [t1.seats[1].player] and seat_of(store, f"#{bye}") == (1, t1.seats[1].seat)
    enter_manual(store, 2, {"NS": 100, "EW": 20}, 1)
    with pytest.raises(Refused, match=r"^round 1 table 2 has a result: its players cannot change"):
        desk.swap(store, f"#{t1.seats[0].player}", f"#{t2.seats[0].player}")
    with pytest.raises(UnusableInput, match="the same player"):
        desk.swap(store, "Ana", "#1")


def test_swap_in_a_pairs_event_keeps_partnerships_whole(pairs_event) -> None:
    store = pairs_event
    t1, t2 = store.tables(1)
    a = next(tm for tm in store.teams() if t1.seats[0].player in tm.players)
    b = next(tm for tm in store.teams() if t2.seats[1].player in tm.players)
    side_a = {s.side for s in t1.seats if s.player in a.players}
    side_b = {s.side for s in t2.seats if s.player in b.players}
    desk.swap(store, a.name, b.name)
    n1, n2 = store.tables(1)
    assert {s.player for s in n1.seats if s.side in side_a} == set(b.players)
    assert {s.player for s in n2.seats if s.side in side_b} == set(a.players)
    with pytest.raises(Refused, match="swap two pairs"):
        desk.move(store, "Ana", 1, "N")


def test_move_trades_places_with_the_occupant(rotating_event) -> None:
    store = rotating_event
    t2 = store.tables(1)[1]
    mover = store.tables(1)[0].seats[0].player
    old = seat_of(store, f"#{mover}")
    occupant = t2.seats[3].player
    desk.move(store, f"#{mover}", 2, t2.seats[3].seat.lower())
    assert seat_of(store, f"#{mover}") == (2, t2.seats[3].seat) and seat_of(store, f"#{occupant}") == old
    assert audit.desk_history(store)[-1].action == "player_moved"
    with pytest.raises(UnusableInput, match="has no table 9"):
        desk.move(store, "Ana", 9, "N")
    with pytest.raises(UnusableInput, match="has no seat 'Q'; its seats: N, E, S, W"):
        desk.move(store, "Ana", 1, "Q")


# --- pins and keep-apart ------------------------------------------------------------------------


def test_pin_and_apart_are_honoured_by_later_rounds(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=2))
    add_players(store, [f"P{i}" for i in range(1, 17)])
    desk.pin(store, "P7", 3, desk.Who("desk", "wheelchair"))
    desk.apart(store, "P1", "P2", rounds=2)
    desk.apart(store, "P3", "P4")
    for _ in range(3):
        pair_next_round(store)
        assert seat_of(store, "P7")[0] == 3
        assert seat_of(store, "P3")[0] != seat_of(store, "P4")[0]
        if store.last_round() <= 2:
            assert seat_of(store, "P1")[0] != seat_of(store, "P2")[0]
        finish_round(store)
    assert desk.requests_text(store) == ["pin: P7 (#7) at table 3", "apart: P3 (#3) and P4 (#4)"] or \
        len(desk.requests_text(store)) == 3
    assert "unpinned" not in [d.action for d in audit.desk_history(store)]
    desk.pin(store, "P7", None)
    with pytest.raises(Refused, match="not pinned"):
        desk.pin(store, "P7", None)
    store.close()


def test_a_keep_apart_that_cannot_be_met_is_refused_in_one_line(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=2))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    desk.apart(store, "Ana", "Bo")
    with pytest.raises(PairingError) as e:
        pair_next_round(store)
    assert "\n" not in str(e.value) and "cannot keep Ana (#1) and Bo (#2) apart" in str(e.value)
    assert store.last_round() == 0
    desk.apart(store, "Ana", "Bo", lift=True)
    pair_next_round(store)
    store.close()


def test_pins_that_conflict_are_refused(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", make_settings("Club", "competitive", "rotating", seed=2))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    desk.pin(store, "P1", 1)
    with pytest.raises(Refused, match=r"P1 \(#1\) is already pinned to table 1"):
        desk.pin(store, "P2", 1)
    desk.pin(store, "P2", 5)
    with pytest.raises(PairingError, match="cannot sit at table 5"):
        pair_next_round(store)
    store.close()


# --- amend says when the next round was paired on other standings ---------------------------------


def test_amend_names_the_command_that_re_pairs_a_stale_round(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Pairs", "competitive", "pairs", seed=3))
    add_pairs(store, [(f"A{i}", f"B{i}", None) for i in range(6)])
    pair_next_round(store)
    finish_round(store)
    pair_next_round(store)
    assert desk.stale_pairing(store, str(path)) is None
    store.close()
    r = run("amend", path, "--round", "1", "--table", "1", "--score", "NS=10,EW=200", "--by", "desk")
    assert r.exit_code == 0, r.output
    assert "note: round 2 was paired on standings this correction has changed" in r.stdout
    assert f"`tournament unpair {path}` then `tournament pair {path}`" in r.stdout
    assert run("unpair", path).exit_code == 0 and run("pair", path).exit_code == 0
    r = run("result", path, "--round", "1", "--table", "1", "--score", "NS=200,EW=10", "--replace")
    assert r.exit_code == 0 and "note: round 2 was paired on standings this correction has changed" in r.stdout


def test_amend_of_a_round_already_played_on_says_nothing(rotating_event) -> None:
    store = rotating_event
    finish_round(store)
    assert desk.stale_pairing(store, "ev.db") is None
    t = store.tables(1)[0]
    amend_manual(store, 1, t.number, {"NS": 0, "EW": 300}, None, "x", "typo")
    assert desk.stale_pairing(store, "ev.db") is None  # no later round was paired


# --- the command line ----------------------------------------------------------------------------


def test_cli_round_changes(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "C", "--game", "competitive", "--format", "rotating", "--seed", "4").exit_code == 0
    assert run("add", path, "Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal").exit_code == 0
    assert run("pair", path).exit_code == 0
    r = run("swap", path, "Ana", "Hal", "--by", "Marta", "--reason", "family")
    assert r.exit_code == 0 and r.stdout.startswith("round 1 table ")
    r = run("swap", path, "Anna", "Hal")
    assert r.exit_code == 2 and "did you mean 'Ana'?" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    r = run("move", path, "Ana", "--table", "1", "--seat", "X")
    assert r.exit_code == 2 and "has no seat 'X'" in r.stderr
    r = run("pin", path, "Ana", "--table", "1", "--unpin")
    assert r.exit_code == 2 and "not both" in r.stderr
    assert run("pin", path, "Ana", "--table", "2").exit_code == 0
    assert run("apart", path, "Bo", "Cy", "--rounds", "2").exit_code == 0
    r = run("pin", path, "--list")
    assert r.stdout.splitlines() == ["pin: Ana (#1) at table 2", "apart: Bo (#2) and Cy (#3) through round 2"]
    r = run("unpair", path)
    assert r.exit_code == 0 and "round 1 unpaired" in r.stdout
    assert run("pair", path).exit_code == 0
    r = run("history", path)
    assert "by Marta: changed seats: " in r.stdout and "— family" in r.stdout and "un-paired round 1" in r.stdout
    doc = json.loads(run("history", path, "--json").stdout)
    assert [d["action"] for d in doc] == ["seats_swapped", "pinned", "kept_apart", "round_unpaired"]
    rows = run("history", path, "--csv", "--desk").stdout.splitlines()
    assert rows[0] == "id,when,by,action,round,detail,reason" and len(rows) == 5
    r = run("unpair", path)
    assert r.exit_code == 0


# --- pairing with constraints (a property) ----------------------------------------------------------


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(12, 26), fmt=st.sampled_from(["rotating", "pairs"]), seed=st.integers(0, 10_000),
       data=st.data())
def test_pairing_meets_pins_and_keep_apart_whenever_it_can(n, fmt, seed, data) -> None:
    settings = make_settings("P", "competitive", fmt, seed=seed)
    if fmt == "pairs":
        n -= n % 2
        players = [Player(i, f"P{i}", (i + 1) // 2, 1, None) for i in range(1, n + 1)]
        teams = [Team(t, f"T{t}", (2 * t - 1, 2 * t), 1, None) for t in range(1, n // 2 + 1)]
        size = 4
    else:
        players = [Player(i, f"P{i}", None, 1, None) for i in range(1, n + 1)]
        teams = []
        size = 4
    ids = [p.id for p in players]
    count = (n - size) // size  # tables there surely are, whoever sits out or has a bye
    team_of = {p.id: p.team for p in players}
    pinned = data.draw(st.lists(st.sampled_from(ids), max_size=min(2, count), unique_by=lambda p: team_of[p] or p))
    numbers = data.draw(st.permutations(range(1, count + 1)))[:len(pinned)]
    pins = tuple(zip(pinned, numbers))
    apart = tuple(data.draw(st.lists(st.tuples(st.sampled_from(ids), st.sampled_from(ids))
                                     .filter(lambda ab: ab[0] != ab[1] and (fmt != "pairs" or
                                                                           team_of[ab[0]] != team_of[ab[1]])),
                                     max_size=2)))
    out = frozenset(data.draw(st.lists(st.sampled_from(ids), max_size=1)))
    wish = Constraints(pins, apart, out, {p.id: p.name for p in players})
    plan = pair_round(settings, 1, players, teams, [], {}, None, wish)
    seated = [s.player for t in plan.tables for s in t]
    assert len(seated) == len(set(seated)) and set(seated) | set(plan.byes) == set(ids)
    assert not set(seated) & set(plan.byes)
    assert out <= set(plan.byes) or fmt == "pairs" and all(
        team_of[o] in {team_of[b] for b in plan.byes} for o in out)
    assert apart_met(plan.tables, apart)
    for player, number in pins:
        if player in seated:
            assert any(player in {s.player for s in t} for t in [plan.tables[number - 1]])


def test_a_table_phone_shows_the_players_a_swap_seated(tmp_path: Path) -> None:
    from tournament.event.venue import Venue

    store = create_event(tmp_path / "ev.db", make_settings("C", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    venue = Venue(store)
    t1, t2 = store.tables(1)
    before = venue._current(t1).session.template.players
    desk.swap(store, f"#{t1.seats[0].player}", f"#{t2.seats[0].player}")
    after = venue._current(store.table(1, 1)).session.template.players
    assert before[0].name != after[0].name
    assert after[0].name == next(p.name for p in store.players() if p.id == t2.seats[0].player)
    with store.write():
        venue_sql.upgrade_for_venue(store)
        store.conn.execute("INSERT INTO venue_log(table_id, rev, kind, body, at) VALUES (?, 1, 'call', '', 'now')",
                           [t1.id])
    with pytest.raises(Refused, match="table 1's phone has used its link"):
        desk.unpair(store)
    store.close()


# --- what a swap or a move goes against ------------------------------------------------------------


def _partners(store, round_no: int) -> dict[int, int]:
    out = {}
    for t in store.tables(round_no):
        seat = {s.seat: s.player for s in t.seats}
        for a, b in (("N", "S"), ("E", "W")):
            out[seat[a]], out[seat[b]] = seat[b], seat[a]
    return out


def test_swap_and_move_warn_of_keep_apart_pins_and_repeat_partners_and_check_reports_them(tmp_path: Path) -> None:
    """A swap or a move that seats two players kept apart together, partners two players a second
    time or takes a pinned player off their table is done (the director decides) with one line
    saying so a finding; ``check`` reports keep-apart and pins broken as it reports repeat partners."""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("C", "competitive", "rotating", seed=5))
    add_players(store, [f"P{i}" for i in range(1, 13)])
    pair_next_round(store)
    finish_round(store)
    desk.apart(store, "P1", "P2")
    desk.pin(store, "P3", 3)
    pair_next_round(store)
    assert checking.run(store).ok
    # P1 swapped with a player at P2's table (not P2's partner's seat: any seat there will do).
    t2 = next(t for t in store.tables(2) if store.find_player("P2").id in t.players)
    other = next(s.player for s in t2.seats if s.player != store.find_player("P2").id
                 and s.player != store.find_player("P3").id)
    tables = desk.swap(store, "P1", f"#{other}")
    lines = desk.seating_warnings(store, 2, tables)
    assert f"this seats P1 (#1) and P2 (#2) together at table {t2.number}, whom you keep apart" in lines
    found = [f.message for f in checking.run(store).errors]
    assert "P1 (#1) and P2 (#2) sit together, though kept apart (tournament apart)" in found
    desk.swap(store, "P1", f"#{other}")  # back as paired
    assert checking.run(store).ok
    # P3 moved off table 3, where they are pinned.
    here = next(s for s in store.tables(2)[0].seats if s.player != store.find_player("P3").id)
    tables = desk.move(store, "P3", 1, here.seat)
    assert "this seats P3 (#3) at table 1, though you pinned them to table 3" in desk.seating_warnings(store, 2, tables)
    assert "P3 (#3) sits here, though pinned to table 3 (tournament pin)" in [f.message for f in checking.run(store).errors]
    desk.unpair(store)
    pair_next_round(store)
    # Partners of round 1 seated as partners again in round 2, through the command line.
    was = _partners(store, 1)
    now = _partners(store, 2)
    x = store.find_player("P5").id
    y = was[x]
    slot = now[x]  # x's partner's seat in round 2 goes to y
    assert y != slot  # the pairing never repeats a partner
    t, s = next((t, s) for t in store.tables(2) for s in t.seats if s.player == slot)
    store.close()
    r = run("move", path, f"#{y}", "--table", t.number, "--seat", s.seat)
    assert r.exit_code == 0
    pair = sorted([(5, "P5"), (y, f"P{y}")])
    said = f"warning: {pair[0][1]} (#{pair[0][0]}) and {pair[1][1]} (#{pair[1][0]}) partner again"
    assert any(line.startswith(said) and line.endswith("(they were partners in round 1)")
               for line in r.stderr.splitlines()), r.stderr


def test_history_tells_a_move_in_a_sentence_naming_the_players(rotating_event) -> None:
    store = rotating_event
    t1, t2 = store.tables(1)[:2]
    mover, occupant = t1.seats[0].player, t2.seats[3].player
    desk.move(store, f"#{mover}", 2, t2.seats[3].seat)
    names = {p.id: p.name for p in store.players()}
    assert audit.desk_history(store)[-1].sentence() == (
        f"moved {names[mover]} (#{mover}) to the seat of {names[occupant]} (#{occupant}), who took their place "
        f"(tables 1, 2)")


@pytest.mark.parametrize("older", [False, True], ids=["kept-round", "older-version"])
def test_a_swap_is_warned_of_the_keep_apart_requests_that_bind_its_round_only(tmp_path: Path, older: bool) -> None:
    """A keep-apart asked for once round 2 is paired binds from round 3 on: a swap in round 2 that
    seats the two together is not warned of it (check does not report it either), one in round 3 is.

    ``older``: the keep-apart as an older version kept it, without its first round (NULL): check
    goes by its line in the trail (the rounds paired after it), but a swap's warning took it to bind
    every round, and so warned of a round paired before it was asked for, where check found nothing.
    Both now read it alike."""
    store = create_event(tmp_path / "ev.db", make_settings("C", "competitive", "rotating", seed=5))
    add_players(store, [f"P{i}" for i in range(1, 13)])
    pair_next_round(store)
    finish_round(store)
    pair_next_round(store)
    desk.apart(store, "P1", "P2")  # (round 2 is paired already: from round 3)
    if older:
        store.conn.execute("UPDATE desk_requests SET round_no = NULL WHERE kind = 'apart'")
        store.conn.commit()
    p1, p2 = store.find_player("P1").id, store.find_player("P2").id
    t2 = next(t for t in store.tables(2) if p2 in t.players)
    if p1 not in t2.players:
        other = next(s.player for s in t2.seats if s.player != p2)
        tables = desk.swap(store, "P1", f"#{other}")
    else:
        tables = [t2]
    assert not [w for w in desk.seating_warnings(store, 2, tables) if "keep apart" in w]
    assert not [f for f in checking.run(store).errors if "kept apart" in f.message]
    assert [w for w in desk.seating_warnings(store, 3, tables) if "keep apart" in w]  # (a round it binds)
    store.close()

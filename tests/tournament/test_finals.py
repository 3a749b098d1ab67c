"""The final of a rotating-partner event in the same event file (issue 14, point 2): final tables of
four, and a knockout of pairs formed from the standings; drawn from the standings of the rounds,
played through the ordinary result path, shown beside them; bad input refused with nothing written.

The expected finalists and rankings are computed here again from the raw tables and results (not
with the standings code under test)."""

from __future__ import annotations

import itertools
import json
import random
from collections import defaultdict
from pathlib import Path

import pytest
from hypothesis import given, strategies as hs
from typer.testing import CliRunner

from tournament import (Refused, ResultRefused, add_pairs, add_players, create_event, create_final, enter_manual,
                        enter_record, make_settings, open_event, pair_next_round, run_check)
from tournament.event import finals, stages
from tournament.cli import app
from tournament.errors import SettingsError, UnusableInput
from tournament.event.simulate import play_stage, simulate_event

from tests.tournament.conftest import play_table

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "") + (result.stderr if result.stderr_bytes else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


# --- independent oracles --------------------------------------------------------------------------


def figures(store, rounds: set[int]) -> dict[int, tuple[float, int, int]]:
    """(wins, diff, for) of every player over the given rounds, from the raw tables, results and byes
    (a bye: a game won, 0 for, 0 against — the rotating default)."""
    wins: dict[int, float] = defaultdict(float)
    pf: dict[int, int] = defaultdict(int)
    pa: dict[int, int] = defaultdict(int)
    results = store.results()
    for t in store.tables():
        if t.round not in rounds:
            continue
        res = results[t.id]
        for s in t.seats:
            other = "EW" if s.side == "NS" else "NS"
            pf[s.player] += res.scores[s.side]
            pa[s.player] += res.scores[other]
            wins[s.player] += 1.0 if res.winner == s.side else 0.5 if res.winner is None else 0.0
    for r, given_ in store.byes().items():
        if r in rounds:
            for p in given_:
                wins[p] += 1.0
    return {p.id: (wins[p.id], pf[p.id] - pa[p.id], pf[p.id]) for p in store.players()}


def ranked(store, rounds: set[int]) -> list[int]:
    """Players by wins, diff, for (best first), level players by number (the standings' order)."""
    f = figures(store, rounds)
    return sorted(f, key=lambda p: (-f[p][0], -f[p][1], -f[p][2], p))


def dump(store) -> list[str]:
    return list(store.conn.iterdump())


def rotating(tmp_path: Path, n: int = 12, rounds: int = 3, seed: int = 2, name: str = "ev.db"):
    """A simulated rotating event, its rounds played through the ordinary result path."""
    simulate_event(tmp_path / name, "competitive", "rotating", n, rounds, seed)
    return open_event(tmp_path / name)


def manual_rotating(tmp_path: Path, n: int = 8, rounds: int = 2, name: str = "m.db"):
    """A rotating event whose rounds have manual scores (N-S wins by the table number)."""
    store = create_event(tmp_path / name, make_settings("Club night", "competitive", "rotating", seed=9))
    add_players(store, [f"P{i}" for i in range(1, n + 1)])
    for _ in range(rounds):
        plan = pair_next_round(store)
        for k in range(1, len(plan.tables) + 1):
            enter_manual(store, k, {"NS": 100 + 10 * k, "EW": 50})
    return store


# --- the draw, as pure functions -----------------------------------------------------------------


@given(hs.lists(hs.integers(1, 10_000), min_size=4, max_size=4, unique=True))
def test_a_final_table_partners_each_player_with_each_other_once(players) -> None:
    partners = []
    for game in (1, 2, 3):
        seats = finals.final_table_seats(players, game)
        assert sorted(s.player for s in seats) == sorted(players)
        assert [s.seat for s in seats] == ["N", "E", "S", "W"]
        for side in ("NS", "EW"):
            partners.append(frozenset(s.player for s in seats if s.side == side))
    assert sorted(map(sorted, partners)) == sorted(map(sorted, map(frozenset, itertools.combinations(players, 2))))


def test_pairs_are_formed_block_by_block() -> None:
    pattern = finals.parse_pairs("1-4, 2-3")
    assert pattern == ((1, 4), (2, 3))
    assert finals.form_pairs([11, 12, 13, 14, 15, 16, 17, 18], pattern) == [(11, 14), (12, 13), (15, 18), (16, 17)]
    assert finals.form_pairs([1, 2, 3, 4], finals.parse_pairs("1-2,3-4")) == [(1, 2), (3, 4)]
    for bad in ("1-4,2-4", "1-3", "1-4,2-3,", "1+4,2+3", "", "1-2,3-5"):
        with pytest.raises(UnusableInput):
            finals.parse_pairs(bad)


# --- final tables ---------------------------------------------------------------------------------


def test_final_tables_after_a_simulated_rotating_event(tmp_path: Path) -> None:
    store = rotating(tmp_path, n=12, rounds=3)
    rounds = {1, 2, 3}
    expected = [p for p in ranked(store, rounds)][:8]
    stage = create_final(store, top=8)
    assert stage.format == stages.FINAL_TABLE and stage.offset == 3
    assert list(stage.seeds) == expected
    # Every game is seated at once: game g of table k is round 3 + g, table k; players keep their numbers.
    for g, game in enumerate(finals.GAMES, 1):
        tables = store.tables(3 + g)
        assert [t.number for t in tables] == [1, 2]
        for k, t in enumerate(tables, 1):
            block = expected[4 * (k - 1):4 * k]
            ns = {s.player for s in t.seats if s.side == "NS"}
            assert ns == {block[game[0][0]], block[game[0][1]]}
            assert set(t.players) == set(block)
    names = {p.id: p.name for p in store.players()}
    # Through the ordinary record path: every table's game played by domrec's simulator.
    assert play_stage(store, seed=5) == 6
    assert finals.finished(store, stage)
    tables = finals.final_tables(store, stage)
    for ft in tables:
        mine = figures(store, {4, 5, 6})
        block = list(ft.players)
        want = sorted(block, key=lambda p: (-mine[p][0], -mine[p][1], -mine[p][2], block.index(p)))
        assert [p.player for p in ft.ranking] == want
        assert [p.place for p in ft.ranking] == list(range(4 * ft.number - 3, 4 * ft.number + 1))
    assert finals.champion(store, stage) == names[tables[0].ranking[0].player]
    # The standings of the rounds are not changed by the final's games.
    assert [s.unit for s in stages.stage_standings(store, None).rows][:8] == expected
    report = run_check(store)
    assert report.ok, [f.text() for f in report.findings]
    assert not report.findings
    with pytest.raises(Refused, match="no more rounds can be paired"):
        pair_next_round(store)
    store.close()


def test_a_final_table_is_ranked_by_its_own_games_then_by_the_place_in_the_rounds(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path)
    stage = create_final(store, top=4)
    seeds = list(stage.seeds)
    # Three drawn games, all equal: everybody level on every key; the place in the rounds decides.
    for _ in range(3):
        table = stages.open_table_for_match(store, "F1")
        enter_manual(store, table.number, {"NS": 100, "EW": 100}, round_no=table.round)
    assert [p.player for p in finals.placings(store, stage)] == seeds
    assert finals.champion(store, stage) == next(p.name for p in store.players() if p.id == seeds[0])
    # The 4th of the rounds wins all three games (replaced results, audited): first.
    fourth = seeds[3]
    for t in store.tables():
        if t.round > stage.offset:
            side = next(s.side for s in t.seats if s.player == fourth)
            enter_manual(store, t.number, {side: 150, ("EW" if side == "NS" else "NS"): 20}, round_no=t.round,
                         replace=True)
    order = [p.player for p in finals.placings(store, stage)]
    assert order[0] == fourth
    assert run_check(store).ok
    store.close()


def test_manual_scores_by_match_enter_the_games_in_order(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path)
    stage = create_final(store, top=4)
    for game in (1, 2, 3):
        r = run("result", tmp_path / "m.db", "--match", "F1", "--score", "NS=200,EW=10")
        assert r.exit_code == 0, r.output
        assert f"round {stage.offset + game} table 1" in r.output
    r = run("result", tmp_path / "m.db", "--match", "F1", "--score", "NS=200,EW=10")
    assert r.exit_code == 1 and "no game waiting" in r.stderr
    store.close()


def test_a_record_of_a_final_game_is_matched_by_its_seats(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path)
    stage = create_final(store, top=4)
    game2 = store.tables(stage.offset + 2)[0]
    entry = enter_record(store, play_table(store, game2, seed=3, ids=False))  # no round, no ids: by seats
    assert (entry.round, entry.table) == (game2.round, 1)
    # A player who is not in the final has no table of it.
    outsider = next(t for t in store.tables(1) if not set(t.players) <= set(stage.seeds))
    with pytest.raises(ResultRefused):
        enter_record(store, play_table(store, outsider, seed=4, ids=False), round_no=stage.offset + 1)
    store.close()


# --- a knockout of pairs ----------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["single", "double"])
def test_a_knockout_of_pairs_formed_from_the_standings(tmp_path: Path, fmt: str) -> None:
    store = rotating(tmp_path, n=10, rounds=3, seed=4)
    expected = ranked(store, {1, 2, 3})[:8]
    stage = create_final(store, top=8, pairs="1-4,2-3", knockout=fmt, third_place=fmt == "single")
    p = expected
    assert stage.sides == ((p[0], p[3]), (p[1], p[2]), (p[4], p[7]), (p[5], p[6]))
    assert stage.knockout and stage.seeds == (1, 2, 3, 4)
    # The first round: seed 1 (1st & 4th) v seed 4 (6th & 7th), seed 2 (2nd & 3rd) v seed 3 (5th & 8th).
    first = store.tables(4)
    assert [{frozenset(s.player for s in t.seats if s.side == side) for side in ("NS", "EW")} for t in first] == [
        {frozenset(stage.sides[0]), frozenset(stage.sides[3])}, {frozenset(stage.sides[1]), frozenset(stage.sides[2])}]
    # A game of round 1's table 1 offered as a game of the final: nobody sits like that in it.
    with pytest.raises(ResultRefused, match="nothing was stored"):
        enter_record(store, play_table(store, store.tables(1)[0], seed=2, ids=False), round_no=4)
    state = stages.state_of(store, stage)
    assert state.state(state.bracket.matches[0].key).status == "due"
    play_stage(store, seed=6)
    state = stages.state_of(store, stage)
    assert state.finished
    champion = state.champion
    names = {q.id: q.name for q in store.players()}
    assert finals.champion(store, stage) == " & ".join(names[x] for x in stage.sides[champion - 1])
    places = finals.placings(store, stage)
    assert sorted(x.player for x in places) == sorted(expected)
    assert {x.player for x in places if x.place == 1} == set(stage.sides[champion - 1])
    report = run_check(store)
    assert report.ok and not report.findings, [f.text() for f in report.findings]
    # The report: the pairs by their players' names, one placing a player (with their own numbers).
    from tournament.pages import report as rp
    data = rp.event_data(store)
    doc = data["stages"][0]
    assert doc["champion"] == finals.champion(store, stage)
    assert [s["players"] for s in doc["seeds"]] == [list(x) for x in stage.sides]
    assert sorted(p["id"] for p in doc["placings"]) == sorted(expected)
    assert data["standings"]["through_round"] == 3
    page = rp.html_page(data)
    assert doc["champion"].replace("&", "&amp;") in page
    store.close()


def test_a_pair_not_due_is_told_why(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path, n=8, rounds=2)
    stage = create_final(store, top=8, pairs="1-4,2-3")
    t = store.tables(stage.offset + 1)[0]
    enter_manual(store, 1, {"NS": 200, "EW": 10}, round_no=t.round)
    winners = {s.player for s in t.seats if s.side == "NS"}
    final = stages.state_of(store, stage).state("R2-1")
    assert final.status == "waiting"
    # A record of the final's winners at a table that does not exist yet.
    reason = stages.not_due_reason(store, winners)
    assert reason is not None and "not due yet" in reason
    store.close()


# --- bad input: one line, nothing written ------------------------------------------------------------


def test_a_final_before_every_table_has_its_result_is_refused(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path, n=8, rounds=1)
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 10, "EW": 20})
    before = dump(store)
    store.close()
    r = run("final", tmp_path / "m.db", "--top", "4")
    assert r.exit_code == 1
    assert r.stderr.count("\n") == 1 and "round 2 table 2 has no result yet" in r.stderr
    store = open_event(tmp_path / "m.db")
    assert dump(store) == before
    store.close()


@pytest.mark.parametrize("args, message", [
    (["--top", "6"], "--top is 4, 8, 12"),
    (["--top", "12"], "but the event has 8 active players"),
    (["--top", "6", "--pairs", "1-4,2-3"], "multiple of 4"),
    (["--top", "2", "--pairs", "1-2"], "at least 2 pairs"),
    (["--pairs", "1-4,2-4"], "exactly one pair"),
    (["--format", "double"], "for a knockout of pairs"),
    (["--pairs", "1-4,2-3", "--format", "multi"], "single or double elimination"),
])
def test_bad_final_options_are_usage_errors(tmp_path: Path, args: list[str], message: str) -> None:
    store = manual_rotating(tmp_path)
    before = dump(store)
    store.close()
    r = run("final", tmp_path / "m.db", *args)
    assert r.exit_code == 2, r.output
    assert r.stderr.startswith("error: ") and r.stderr.count("\n") == 1 and message in r.stderr
    store = open_event(tmp_path / "m.db")
    assert dump(store) == before
    store.close()


def test_withdrawn_players_are_passed_over_and_counted(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path)
    top = ranked(store, {1, 2})
    from tournament import withdraw
    withdraw(store, f"#{top[0]}")
    with pytest.raises(UnusableInput, match=r"7 active players \(1 withdrawn\)"):
        create_final(store, top=8)
    stage = create_final(store, top=4)
    assert list(stage.seeds) == top[1:5]
    store.close()


def test_a_final_is_for_rotating_events_only(tmp_path: Path) -> None:
    store = create_event(tmp_path / "p.db", make_settings("Cup", "competitive", "pairs"))
    add_pairs(store, [(f"A{i}", f"B{i}", None) for i in range(4)])
    with pytest.raises(SettingsError, match="tournament knockout"):
        create_final(store, top=4, pairs="1-4,2-3")
    store.close()
    r = run("final", tmp_path / "p.db")
    assert r.exit_code == 2 and r.stderr.count("\n") == 1
    # A rotating event's knockout or round robin points at the final.
    store = manual_rotating(tmp_path)
    with pytest.raises(SettingsError, match="tournament final"):
        stages.create_stage(store, "single")
    store.close()


def test_no_rounds_and_a_second_final_are_refused(tmp_path: Path) -> None:
    store = create_event(tmp_path / "n.db", make_settings("N", "competitive", "rotating"))
    add_players(store, ["A", "B", "C", "D"])
    with pytest.raises(Refused, match="no round has been played"):
        create_final(store)
    store.close()
    store = manual_rotating(tmp_path)
    create_final(store)
    before = dump(store)
    with pytest.raises(Refused, match="already has its final"):
        create_final(store, top=8, pairs="1-2")
    assert dump(store) == before
    store.close()


# --- check, and what people read --------------------------------------------------------------------


def test_check_warns_when_the_standings_the_final_was_drawn_from_change(tmp_path: Path) -> None:
    store = manual_rotating(tmp_path)
    stage = create_final(store, top=4)
    report = run_check(store)
    assert report.ok and not [f for f in report.findings if f.where.startswith("stage")]
    # Round 2's results turned round (EW wins every table by far): the top four of the rounds change.
    for t in store.tables(2):
        enter_manual(store, t.number, {"NS": 0, "EW": 330}, round_no=2, replace=True)
    assert ranked(store, {1, 2})[:4] != list(stage.seeds)
    report = run_check(store)
    assert report.ok
    assert [f.level for f in report.findings if "final was drawn" in f.message] == ["warning"]
    # A final table seated otherwise than its draw is an error.
    t = store.tables(stage.offset + 1)[0]
    with store.write():
        by_seat = {s.seat: s.player for s in t.seats}
        for seat, other in (("N", "E"), ("E", "N")):  # N and E change places: other partners
            store.conn.execute("UPDATE seats SET player_id = ? WHERE table_id = ? AND seat = ?",
                               [by_seat[other], t.id, seat])
    assert any("does not seat its draw" in f.message for f in run_check(store).errors)
    store.close()


def test_the_commands_show_both_stages(tmp_path: Path) -> None:
    store = rotating(tmp_path, n=8, rounds=2, seed=3)
    path = tmp_path / "ev.db"
    store.close()
    r = run("final", path, "--top", "4")
    assert r.exit_code == 0, r.output
    assert "final table 1 (places 1-4)" in r.stdout and "game 3 (round 5 table 1)" in r.stdout
    store = open_event(path)
    play_stage(store, seed=1)
    stage = finals.final_stage(store)
    order = [p.player for p in finals.placings(store, stage)]
    store.close()
    r = run("standings", path)
    assert r.exit_code == 0
    assert "final table (from round 3)" in r.stdout and "standings of the rounds (1-2), before the final" in r.stdout
    r = run("standings", path, "--stage", "2", "--csv")
    lines = r.stdout.splitlines()
    assert lines[0].startswith("place,id,name,table")
    assert [int(line.split(",")[1]) for line in lines[1:]] == order
    doc = json.loads(run("standings", path, "--json").stdout)
    assert doc["through_round"] == 2 and [row["id"] for row in doc["final"]["rows"]] == order
    assert doc["final"]["finished"] and doc["final"]["champion"]
    assert "champion:" in run("bracket", path).stdout
    r = run("report", path, "-o", tmp_path / "ev.html")
    assert r.exit_code == 0
    page = (tmp_path / "ev.html").read_text(encoding="utf-8")
    assert "Final table 1 (places 1-4)" in page and "Standings after round 2" in page
    assert "Champion (final table)" in page
    r = run("export", path, "-o", tmp_path / "ev.json")
    data = json.loads((tmp_path / "ev.json").read_text(encoding="utf-8"))
    final = data["stages"][0]
    assert final["final"] and [p["id"] for p in final["placings"]] == order
    assert [g["round"] for g in final["final_tables"][0]["games"]] == [3, 4, 5]
    assert run("check", path).exit_code == 0


def test_a_cut_through_a_tie_is_noted(tmp_path: Path) -> None:
    store = create_event(tmp_path / "t.db", make_settings("T", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    plan = pair_next_round(store)
    for k in range(1, len(plan.tables) + 1):
        enter_manual(store, k, {"NS": 100, "EW": 50})  # two tables alike: the four winners level
    store.close()
    r = run("final", tmp_path / "t.db", "--top", "4")
    assert r.exit_code == 0
    assert "note:" not in r.stderr  # four winners exactly: nobody level is left out
    store = open_event(tmp_path / "t.db")
    stage = finals.final_stage(store)
    assert finals.cut_note(store, stage) is None
    store.close()
    store = manual_rotating(tmp_path, n=8, rounds=1, name="u.db")
    # Round 1 (N-S wins 110-50 and 120-50): the winners of table 2 first, then table 1's, then the losers.
    stage = create_final(store, top=4)
    assert finals.cut_note(store, stage) is None
    store.close()
    store = create_event(tmp_path / "v.db", make_settings("V", "competitive", "rotating", seed=1))
    add_players(store, [f"P{i}" for i in range(1, 9)])
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 100, "EW": 100})
    enter_manual(store, 2, {"NS": 100, "EW": 100})  # all level: the cut splits the tie
    stage = create_final(store, top=4)
    note = finals.cut_note(store, stage)
    assert note is not None and "level on every ranking key" in note and note.count("#") == 5
    store.close()

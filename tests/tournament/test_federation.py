"""The Latin federations' conventions: a time limit, forfeits at a fixed score, head-to-head and
efectividad among the tie-breaks (docs/tournament.md)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from domrec.reader import loads
from domrec.record import unstructure
from domrec.validate import validate

from tournament import (ResultRefused, add_pairs, create_event, enter_forfeit, enter_manual, enter_record,
                        make_settings, pair_next_round)
from tournament.event import check as checking
from tournament.event.standings import from_store
from tournament.pages import report as rp
from tournament.pairing import standings as st
from tournament.errors import SettingsError, UnusableInput
from tournament.settings import PAIRS, INDIVIDUAL, Settings, default_placement
from tournament.values import Player, Result, SeatAssignment, Table, Team
from tournament.event.results import STORED, UNCHANGED

from tests.tournament.conftest import play_table
from tests.tournament.helpers import settings_for
from tests.tournament.test_cli import run


# --- settings ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, fmt, size, options, variant, want", [
    ("competitive", "pairs", None, None, None, 200),
    ("horse-race", "individual", 4, None, None, 61),
    ("horse-race", "individual", 2, None, "celko", 200),
    ("horse-race", "individual", 3, {"target": 100}, None, 100),
    ("castle-rock", "individual", 4, None, None, 50),
    ("domino-roads", "pairs", None, None, None, 2000),
    ("domino-roads", "individual", 3, None, None, 1000),
    ("broadway", "pairs", None, None, None, 0),
])
def test_default_forfeit_score_is_the_games_target(game, fmt, size, options, variant, want):
    s = make_settings("x", game, fmt, size, variant=variant, options=options)
    assert s.forfeit_score == want
    assert make_settings("x", game, fmt, size, variant=variant, options=options, forfeit_score=7).forfeit_score == 7


def test_settings_of_an_older_event_get_no_time_limit_and_the_default_forfeit():
    s = make_settings("x", "competitive", "pairs", time_limit=45, forfeit_score=150)
    assert Settings.from_json(s.to_json()) == s
    old = json.loads(s.to_json())
    del old["time_limit"], old["forfeit_score"]
    back = Settings.from_json(json.dumps(old))
    assert back.time_limit is None and back.forfeit_score == 200


@pytest.mark.parametrize("kw, words", [
    ({"time_limit": 0}, "minutes"), ({"forfeit_score": -1}, "forfeit score"),
    ({"tiebreaks": ("wins", "diff", "efectividad")}, "the same tie-break"),
    ({"tiebreaks": ("wins", "head-to-head", "head-to-head")}, "named twice"),
    ({"tiebreaks": ("wins", "efectividd")}, "cannot rank"),
])
def test_bad_settings_are_one_line(kw, words):
    with pytest.raises(SettingsError, match=words) as e:
        make_settings("x", "competitive", "pairs", **kw)
    assert "\n" not in str(e.value)


def test_the_time_limit_is_on_sheets_info_and_report(tmp_path: Path):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "Liga", "--game", "competitive", "--format", "pairs",
               "--time-limit", "45", "--forfeit-score", "150").exit_code == 0
    for a, b in (("Ana", "Bo"), ("Cy", "Di")):
        assert run("add", path, a, b).exit_code == 0
    assert run("pair", path).exit_code == 0
    info = run("info", path).output
    assert "time limit: 45 minutes a game" in info and "forfeit score: 150-0" in info
    assert run("sheets", path, "-o", tmp_path / "sheets").exit_code == 0
    html = "".join(p.read_text() for p in (tmp_path / "sheets").glob("*.html"))
    assert "time limit 45 minutes" in html
    assert run("report", path, "-o", tmp_path / "r.html").exit_code == 0
    assert "time limit 45 minutes a game" in (tmp_path / "r.html").read_text()


# --- a game the clock stopped counts like any result ------------------------------------------------


def test_a_record_that_ended_on_time_counts_with_the_side_ahead(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3, time_limit=40))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None)])
    pair_next_round(store)
    table = store.tables(1)[0]
    full = loads(play_table(store, table, seed=2))
    timed = attrs.evolve(full, hands=full.hands[:3], result=None, ended="time", version="1.1")
    report = validate(timed)
    assert report.valid and report.finished
    entry = enter_record(store, json.dumps(unstructure(timed)), "timed.json")
    assert entry.status == STORED and entry.winner == report.winner and entry.scores == report.scores
    # A time claim on a game over anyway is refused, nothing stored.
    store2 = create_event(tmp_path / "ev2.db", make_settings("Liga", "competitive", "pairs", seed=3))
    add_pairs(store2, [("Ana", "Bo", None), ("Cy", "Di", None)])
    pair_next_round(store2)
    over = attrs.evolve(loads(play_table(store2, store2.tables(1)[0], seed=2)), ended="time")
    with pytest.raises(ResultRefused) as e:
        enter_record(store2, json.dumps(unstructure(over)), "over.json")
    assert any("over anyway" in line for line in e.value.problems)
    assert store2.results() == {}
    store.close()
    store2.close()


# --- forfeits ----------------------------------------------------------------------------------------


def test_a_forfeit_is_stored_as_such_and_counts_in_the_standings(pairs_event):
    store = pairs_event
    t1, t2 = store.tables(1)
    entry = enter_forfeit(store, t1.number, ("NS",))
    assert entry.status == STORED and entry.scores == {"NS": 0, "EW": 200} and entry.winner == "EW"
    assert "forfeit: NS did not play" in entry.summary()
    assert enter_forfeit(store, t1.number, ("NS",)).status == UNCHANGED
    result = store.result_for(t1.id)
    assert result.kind == "forfeit" and not result.verified and result.absent == ("NS",)
    enter_manual(store, t2.number, {"NS": 200, "EW": 120})
    table = from_store(store)
    team = {s.side: next(p.team for p in store.players() if p.id == s.player) for s in t1.seats}
    rows = {s.unit: s for s in table.rows}
    assert rows[team["NS"]].forfeits == 1 and rows[team["NS"]].lost == 1 and rows[team["NS"]].points_against == 200
    assert rows[team["EW"]].forfeits == 0 and rows[team["EW"]].won == 1
    assert "forfeits" in table.columns()
    assert not [f for f in checking.run(store).findings if f.level == "error"]
    data = rp.event_data(store)
    shown = [t["result"] for r in data["rounds"] for t in r["tables"] if t["table"] == t1.number][0]
    assert shown["kind"] == "forfeit" and shown["forfeit"] == ["NS"]
    assert "forfeit: NS did not play" in rp.html_page(data)
    seats = rp.csv_tables(data)["tables"][1]
    assert {r["result"] for r in seats if r["table"] == t1.number} == {"forfeit"}


def test_a_forfeit_on_a_recorded_table_is_refused_and_nothing_written(pairs_event):
    store = pairs_event
    table = store.tables(1)[0]
    enter_record(store, play_table(store, table, seed=1), "g.json")
    before = store.result_for(table.id)
    for replace in (False, True):
        with pytest.raises(ResultRefused, match="recorded game") as e:
            enter_forfeit(store, table.number, ("EW",), replace=replace)
        assert "\n" not in str(e.value)
    assert store.result_for(table.id) == before


# (a side mistyped is unusable input, exit 2, as a typed score's: a tester's finding 9 of Dec 7)
@pytest.mark.parametrize("absent, words, error", [(("XY",), "not a side", UnusableInput),
                                                  (("NS", "EW"), "was there to play", ResultRefused),
                                                  (("NS", "NS"), "twice", UnusableInput)])  # usage: exit 2
def test_a_forfeit_names_one_real_side(pairs_event, absent, words, error):
    with pytest.raises(error, match=words):
        enter_forfeit(pairs_event, 1, absent)
    assert pairs_event.results() == {}


def test_a_forfeit_over_a_manual_score_needs_replace(pairs_event):
    store = pairs_event
    enter_manual(store, 1, {"NS": 0, "EW": 200})  # the same numbers, but typed as a game: not a forfeit
    with pytest.raises(ResultRefused, match="--replace"):
        enter_forfeit(store, 1, ("NS",))
    assert enter_forfeit(store, 1, ("NS",), replace=True).status == "replaced"
    assert store.result_for(store.tables(1)[0].id).kind == "forfeit"


def test_forfeit_at_a_multi_player_table(tmp_path: Path):
    from tournament import add_players

    store = create_event(tmp_path / "ev.db", make_settings("x", "castle-rock", "individual", 3, seed=1))
    add_players(store, ["Ana", "Bo", "Cy"])
    pair_next_round(store)
    table = store.tables(1)[0]
    gone = table.seats[1].seat
    entry = enter_forfeit(store, 1, (gone,))
    assert entry.scores[gone] == 0 and all(n == 50 for s, n in entry.scores.items() if s != gone)
    assert entry.winner is None  # the two who were there share first place
    rows = {s.unit: s for s in from_store(store).rows}
    assert rows[table.seats[1].player].forfeits == 1 and rows[table.seats[1].player].rank == 3
    store.close()


def test_forfeit_from_the_command_line(tmp_path: Path):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "Liga", "--game", "competitive", "--format", "pairs").exit_code == 0
    for a, b in (("Ana", "Bo"), ("Cy", "Di")):
        run("add", path, a, b)
    run("pair", path)
    r = run("result", path, "--table", "1", "--forfeit", "EW")
    assert r.exit_code == 0 and "NS 200, EW 0" in r.output and "forfeit: EW did not play" in r.output
    assert "forfeit" in run("tables", path).output
    bad = run("result", path, "--table", "1", "--forfeit", "EW", "--score", "NS=1,EW=2")
    assert bad.exit_code == 2 and len(bad.output.strip().splitlines()) == 1
    wrong = run("result", path, "--table", "1", "--forfeit", "N")
    assert wrong.exit_code == 2 and "not a side" in wrong.output and len(wrong.output.strip().splitlines()) == 1


# --- tie-breaks --------------------------------------------------------------------------------------


def _pairs_event(results: list[tuple[int, int, int, int]], tiebreaks: tuple[str, ...],
                 head_to_head: str = "two") -> st.Standings:
    """Standings of a pairs event of teams 1..n from (ns team, ew team, ns score, ew score) games,
    head-to-head under the convention named (``two`` or ``mini-league``)."""
    settings = attrs.evolve(settings_for(PAIRS, tiebreaks=tiebreaks), head_to_head=head_to_head)
    n = max(max(a, b) for a, b, _, _ in results)
    teams = [Team(t, f"pair {t}", (2 * t - 1, 2 * t), 1, None) for t in range(1, n + 1)]
    players = [Player(p, f"p{p}", (p + 1) // 2, 1, None) for p in range(1, 2 * n + 1)]
    tables, res = [], {}
    for i, (ns, ew, a, b) in enumerate(results, 1):
        seats = (SeatAssignment("N", "NS", 2 * ns - 1), SeatAssignment("E", "EW", 2 * ew - 1),
                 SeatAssignment("S", "NS", 2 * ns), SeatAssignment("W", "EW", 2 * ew))
        tables.append(Table(i, i, 1, seats))
        res[i] = Result(i, i, "manual", False, {"NS": a, "EW": b}, "NS" if a > b else "EW" if b > a else None,
                        None, "now")
    return st.compute(settings, players, teams, tables, res, {})


def test_head_to_head_ranks_the_two_tied_by_their_own_game():
    games = [(1, 2, 190, 200), (3, 4, 200, 0), (1, 4, 200, 0), (2, 3, 190, 200)]
    by_diff = _pairs_event(games, ("wins", "diff"))
    assert [s.unit for s in by_diff.rows][:3] == [3, 1, 2]
    h2h = _pairs_event(games, ("wins", "head-to-head", "diff"))
    assert [s.unit for s in h2h.rows][:3] == [3, 2, 1]
    rows = {s.unit: s for s in h2h.rows}
    assert rows[2].head_to_head == 1 and rows[1].head_to_head == 0
    assert rows[3].head_to_head == 0  # nobody tied with it: no mini-table
    assert "head-to-head" in h2h.columns() and "head-to-head" in h2h.ranked_by()


def test_a_head_to_head_cycle_falls_to_the_next_key():
    # 1 beat 2, 2 beat 3, 3 beat 1: level in their mini-table, so efectividad decides.
    games = [(1, 2, 200, 150), (2, 3, 200, 100), (3, 1, 200, 190)]
    table = _pairs_event(games, ("wins", "head-to-head", "efectividad"), "mini-league")
    assert [s.unit for s in table.rows] == [2, 1, 3]
    assert {s.head_to_head for s in table.rows} == {1.0}
    assert [s.rank for s in table.rows] == [1, 2, 3]
    # Between exactly two (the default) three level are not ranked head to head at all.
    assert {s.head_to_head for s in _pairs_event(games, ("wins", "head-to-head", "efectividad")).rows} == {0.0}
    level = _pairs_event(games, ("wins", "head-to-head"), "mini-league")
    assert [s.rank for s in level.rows] == [1, 1, 1]


def test_efectividad_is_the_point_difference_under_its_name():
    games = [(1, 2, 200, 150), (3, 4, 200, 10)]
    a = _pairs_event(games, ("wins", "diff"))
    b = _pairs_event(games, ("wins", "efectividad"))
    c = _pairs_event(games, ("wins", "effectiveness"))
    assert [s.unit for s in a.rows] == [s.unit for s in b.rows] == [s.unit for s in c.rows] == [3, 1, 2, 4]
    row = b.row_dict(b.rows[0])
    assert row["efectividad"] == 190 and "efectividad (points for minus against)" in b.ranked_by()
    assert b.to_dict()["ranked_by"] == b.ranked_by()


def test_head_to_head_at_multi_player_tables():
    players = [Player(p, f"p{p}", None, 1, None) for p in range(1, 5)]
    seats = lambda *ps: tuple(SeatAssignment(f"P{i + 1}", f"P{i + 1}", p) for i, p in enumerate(ps))  # noqa: E731
    tables = [Table(1, 1, 1, seats(1, 2, 3)), Table(2, 2, 1, seats(2, 4, 3)), Table(3, 3, 1, seats(1, 3, 4))]
    results = {1: Result(1, 1, "manual", False, {"P1": 30, "P2": 10, "P3": 0}, "P1", None, "now"),
               2: Result(2, 2, "manual", False, {"P1": 40, "P2": 5, "P3": 0}, "P1", None, "now"),
               3: Result(3, 3, "manual", False, {"P1": 10, "P2": 20, "P3": 0}, "P2", None, "now")}
    # Players 1 and 2 both have 3 placement points; 1 finished ahead of 2 at their one shared table,
    # 2 has the higher score.
    by_score = st.compute(attrs.evolve(settings_for(INDIVIDUAL, 3), tiebreaks=("placement", "score")),
                          players, [], tables, results, {})
    assert [s.unit for s in by_score.rows][:2] == [2, 1]
    table = st.compute(attrs.evolve(settings_for(INDIVIDUAL, 3), tiebreaks=("placement", "head-to-head", "score")),
                       players, [], tables, results, {})
    rows = {s.unit: s for s in table.rows}
    assert rows[2].placement == rows[1].placement == 3
    assert rows[1].head_to_head == 1 and rows[2].head_to_head == 0
    assert [s.unit for s in table.rows][:2] == [1, 2]


def test_the_order_of_keys_is_printed_under_the_standings(tmp_path: Path):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "Liga", "--game", "competitive", "--format", "pairs",
               "--tiebreak", "wins,head-to-head,efectividad").exit_code == 0
    for a, b in (("Ana", "Bo"), ("Cy", "Di")):
        run("add", path, a, b)
    run("pair", path)
    run("result", path, "--table", "1", "--score", "NS=200,EW=100")
    text = run("standings", path).output
    assert "ranked by wins, then head-to-head (results among the tied only), then efectividad" in text
    csv_text = run("standings", path, "--csv").output
    assert csv_text.splitlines()[0].endswith("ranked_by") and "wins, head-to-head, efectividad" in csv_text
    doc = json.loads(run("standings", path, "--json").output)
    assert doc["tiebreaks"] == ["wins", "head-to-head", "efectividad"] and doc["ranked_by"].startswith("ranked by")
    run("report", path, "-o", tmp_path / "r.html")
    assert "Ranked by wins, then head-to-head" in (tmp_path / "r.html").read_text()

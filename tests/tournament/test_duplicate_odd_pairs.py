"""An odd number of pairs in a duplicate pairs event (docs/duplicate.md, "Movements" and "Running a
session"): the movement of (n + 1) / 2 tables with a phantom, the pair meeting it sitting out each
round; the sit-out table keeps its number and is no table of the round; `tournament tables` says who
sits out; the sit-out pair is ranked on the boards it played, its percentage computed here by hand."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from tournament import open_event
from tournament.event import check, duplicate as dup

from tests.tournament.test_duplicate_event import new_event, run

#: Typed scores a Competitive hand can make (NS, EW), dealt out to the tables in turn.
SCORES = [(50, 0), (0, 19), (60, 0), (0, 27), (30, 0), (45, 0), (0, 19), (50, 0)]


def by_hand(results: list[tuple[int, int, int, int, int]]) -> dict[int, tuple[int, int]]:
    """(board, ns pair, ew pair, ns points, ew points) -> pair: (matchpoints, top), the slow way: on a
    board each pair scores 2 for each pair of its direction whose net it beat and 1 for each tie; the
    top is 2 (tables - 1)."""
    out: dict[int, list[int]] = {}
    boards = {b for b, *_ in results}
    for board in boards:
        rows = [r for r in results if r[0] == board]
        for side in ("NS", "EW"):
            nets = [((r[1] if side == "NS" else r[2]), (r[3] - r[4]) if side == "NS" else (r[4] - r[3])) for r in rows]
            top = 2 * (len(nets) - 1)
            for pair, net in nets:
                mp = sum(2 if net > other else 1 if net == other else 0 for p, other in nets if p != pair)
                got = out.setdefault(pair, [0, 0])
                got[0] += mp
                got[1] += top
    return {p: (m, t) for p, (m, t) in out.items()}


def test_five_pairs_minimum_and_four_refused(tmp_path: Path) -> None:
    path = tmp_path / "four.db"
    new_event(path, 4, "howell")
    run("boards", path, "--boards", 10, "--seed", 1)
    out = run("pair", path, code=1)
    assert "a duplicate movement needs at least 5 pairs (3 tables); 4 are entered" in out
    assert len(out.strip().splitlines()) == 1, out


@pytest.mark.parametrize("movement, pairs, boards", [("mitchell", 13, 14), ("howell", 5, 10)])
def test_an_odd_event_through_all_its_rounds(tmp_path: Path, movement: str, pairs: int, boards: int) -> None:
    path = tmp_path / "odd.db"
    new_event(path, pairs, movement)
    run("boards", path, "--boards", boards, "--seed", 3)
    tables = (pairs + 1) // 2
    entered: list[tuple[int, int, int, int, int]] = []
    sat_out: dict[int, int] = {}
    round_no = 0
    i = 0
    while True:
        out = runner_pair(path)
        if out is None:
            break
        round_no += 1
        doc = json.loads(run("tables", path, "--json"))
        gone = doc["sits_out"]
        sat_out[gone["pair"]] = sat_out.get(gone["pair"], 0) + 1
        numbers = [row["table"] for row in doc["rows"]]
        assert len(numbers) == tables - 1 and gone["table"] not in numbers
        assert sorted(numbers + [gone["table"]]) == list(range(1, tables + 1)), "the movement's numbers, one gap"
        if movement == "howell":
            assert gone["table"] == 1
        else:
            assert gone["pair"] == gone["table"], "a Mitchell's NS pair at the phantom's table sits out"
        seated = {p for row in doc["rows"] for p in (row["ns"], row["ew"])}
        assert gone["pair"] not in seated and seated | {gone["pair"]} == set(range(1, pairs + 1))
        text = run("tables", path)
        assert f"pair {gone['pair']}: sits out this round (table {gone['table']} is not played)" in text
        # a table the round does not have is refused as any other
        assert "has no table" in run("result", path, "--table", gone["table"], "--board", 1, "--score",
                                     "NS=50,EW=0", code=2)
        for row in doc["rows"]:
            for board in row["boards"]:
                ns, ew = SCORES[i % len(SCORES)]
                i += 1
                if i % 3:  # by the library, and a third by the command line
                    with open_event(path) as store:
                        dup.enter_score(store, round_no, row["table"], board, {"NS": ns, "EW": ew})
                else:
                    run("result", path, "--round", round_no, "--table", row["table"], "--board", board,
                        "--score", f"NS={ns},EW={ew}")
                entered.append((board, row["ns"], row["ew"], ns, ew))
    with open_event(path) as store:
        moving = dup.movement(store)
        assert moving.tables == tables and moving.phantom == 2 * tables
        assert round_no == moving.rounds
        report = check.run(store)
        assert not report.errors, report.errors
    assert max(sat_out.values()) == 1 and len(sat_out) == round_no
    standings = json.loads(run("standings", path, "--json"))
    assert not standings["provisional"]
    want = by_hand(entered)
    rows = {r["pair"]: r for r in standings["pairs"]}
    assert set(rows) == set(range(1, pairs + 1))
    for pair, (mp, top) in want.items():
        assert (rows[pair]["matchpoints"], rows[pair]["top"]) == (mp, top), pair
        assert rows[pair]["percent"] == round(float(Fraction(100 * mp, top)), 2)
    # a pair that sat out played a round's boards fewer than the pairs that never did
    played = {p: sum(1 for r in entered if p in (r[1], r[2])) for p in rows}
    assert all(rows[p]["boards"] == played[p] for p in rows)
    per_round = 2
    for pair in sat_out:
        assert played[pair] == (round_no - 1) * per_round
    if movement == "mitchell":  # the EW pairs never meet the phantom: they play every round
        assert all(played[p] == round_no * per_round for p in range(tables + 1, pairs + 1))


def runner_pair(path: Path) -> str | None:
    """``tournament pair``: its output, or None once every round is seated."""
    from tests.tournament.test_duplicate_event import runner
    from tournament.cli import app

    out = runner.invoke(app, ["pair", str(path)])
    if out.exit_code == 1 and "all are seated" in out.output:
        return None
    assert out.exit_code == 0, out.output
    return out.output


@pytest.mark.parametrize("movement", ["mitchell", "howell"])
def test_simulate_plays_an_odd_number_of_pairs(tmp_path: Path, movement: str) -> None:
    """``simulate --format duplicate --pairs 7``: seven pairs on four tables, one sitting out each
    round, every board of every played table entered; the summary counts sit-outs, not byes (it
    could only build even fields, --tables N)."""
    event = tmp_path / "sim.db"
    out = run("simulate", event, "--format", "duplicate", "--pairs", 7, "--movement", movement, "--quiet")
    store = open_event(event)
    try:
        moving = dup.movement(store)
        out_by_round = dup.sit_outs(store)
        assert moving.tables == 4 and len(store.teams()) == 7
        assert sorted(out_by_round) == list(range(1, moving.rounds + 1))
        assert not dup.missing(store, moving.rounds)
        played = sum(len(t.boards) for t in dup.table_boards(store))
    finally:
        store.close()
    assert out.strip() == (f"simulated {event}: 14 players, {moving.rounds} rounds, {played} board results, "
                           f"{moving.rounds} sit-outs")
    run("check", event)


def test_simulate_refuses_tables_and_pairs_together(tmp_path: Path) -> None:
    out = run("simulate", tmp_path / "x.db", "--format", "duplicate", "--pairs", 7, "--tables", 4, code=2)
    assert "give --tables or --pairs, not both" in out
    out = run("simulate", tmp_path / "x.db", "--pairs", 7, code=2)
    assert "--pairs" in out and "are for a duplicate event" in out
    assert not (tmp_path / "x.db").exists()


def test_the_csv_export_lists_the_pair_that_sits_out(tmp_path: Path) -> None:
    """``export --csv``'s tables.csv has a row a seated player a round: the pair sitting a round
    out was missing from it (the JSON named it); its two players are now rows at table "sits out"."""
    import csv

    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "duplicate", "--pairs", 5, "--rounds", 2, "--quiet")
    run("export", event, "--csv", "-o", tmp_path / "out")
    with open(tmp_path / "out" / "tables.csv", newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    store = open_event(event)
    try:
        out = dup.sit_outs(store)
        members = {t.id: t.players for t in store.teams()}
    finally:
        store.close()
    for round_no in (1, 2):
        sitting = [r for r in rows if r["round"] == str(round_no) and r["table"] == "sits out"]
        assert sorted(int(r["id"]) for r in sitting) == sorted(members[out[round_no].pair_id])
        assert len({r["id"] for r in rows if r["round"] == str(round_no)}) == 10  # every player of the round


def test_links_name_the_sit_out_table_in_its_place(tmp_path: Path) -> None:
    """``tournament links`` printed a line a table: the sit-out table, with no link, was a silent gap
    in the numbers (a director counting the lines took a link for lost).  It is named in its place."""
    event = tmp_path / "sim.db"
    run("simulate", event, "--format", "duplicate", "--pairs", 5, "--rounds", 1, "--quiet")
    store = open_event(event)
    try:
        gone = dup.sits_out(store, 1)
    finally:
        store.close()
    out = run("links", event, "--url", "http://127.0.0.1:8000")
    assert f"round 1 table {gone.table}: not played (pair {gone.pair} {gone.name} sits out this round)" in out
    found = json.loads(run("links", event, "--url", "http://127.0.0.1:8000", "--json").split("\nnote:")[0])
    assert found["sits_out"] == {"round": 1, "table": gone.table, "pair": gone.pair, "name": gone.name}
    assert gone.table not in [t["table"] for t in found["tables"]] and len(found["tables"]) == 2

"""Prize lists (standings by a players' column, clubs by their best K) and the director's reports:
every column of the players CSV kept and exported, the whole audit trail in the export and in the
file's ``audit_view``, who entered each result, ``report --no-replays`` (issue 25, points 6-7)."""

from __future__ import annotations

import csv
import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import given, settings as hsettings, strategies as hst
from typer.testing import CliRunner

from tournament import create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.cli import app
from tournament.event import audit
from tournament.event.players import add_players
from tournament.event.simulate import simulate_event
from tournament.event.standings import from_store, of_stage
from tournament.pairing import prizes
from tournament.pairing.standings import Standing, Standings

runner = CliRunner()

PLAYERS = """name,club,sex,id
Ana,Norte,F,ES-1
Bo,Sur,M,
Cy,Norte,M,
Di,Sur,F,
Ed,Este,M,
Flo,Norte,F,
Gus,Sur,M,
Hal,Este,
"""


def run(*args, code: int = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == code, result.output
    return result


@pytest.fixture
def club(tmp_path: Path) -> Path:
    """A rotating event of 8 players from a CSV with club, sex and id; three rounds typed in."""
    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    path = tmp_path / "ev.db"
    run("new", path, "--name", "Club", "--game", "competitive", "--format", "rotating", "--seed", "3")
    run("add", path, "--csv", tmp_path / "p.csv")
    store = open_event(path)
    for r in range(3):
        pair_next_round(store)
        for t in store.tables(store.last_round()):
            sides = t.sides()
            enter_manual(store, t.number, {sides[0]: 100 + 10 * t.number + r, sides[1]: 80}, t.round)
    store.close()
    return path


def test_the_players_csv_keeps_every_column_and_the_export_gives_them_back(club, tmp_path) -> None:
    out = run("players", club, "--csv").output
    rows = list(csv.DictReader(out.splitlines()))
    assert rows[0]["club"] == "Norte" and rows[0]["sex"] == "F" and rows[0]["player_id"] == "ES-1"
    assert rows[7]["sex"] == ""  # an empty cell is no value
    run("export", club, "-o", tmp_path / "x", "--csv")
    exported = list(csv.DictReader((tmp_path / "x" / "players.csv").read_text(encoding="utf-8").splitlines()))
    assert [r["club"] for r in exported] == ["Norte", "Sur", "Norte", "Sur", "Este", "Norte", "Sur", "Este"]
    assert exported[0]["player_id"] == "ES-1"
    run("export", club, "-o", tmp_path / "x.json")
    doc = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))
    assert doc["players"][1]["club"] == "Sur" and doc["player_columns"] == ["player_id", "club", "sex"]


def test_standings_by_a_column_keep_the_events_order(club) -> None:
    doc = json.loads(run("standings", club, "--by", "Sex", "--json").output)
    assert [c["value"] for c in doc["categories"]] == ["F", "M"]
    event = json.loads(run("standings", club, "--json").output)["standings"]
    rank = {r["name"]: r["rank"] for r in event}
    women = doc["categories"][0]["rows"]
    assert {r["name"] for r in women} == {"Ana", "Di", "Flo"}
    assert [r["event_rank"] for r in women] == sorted(rank[r["name"]] for r in women)
    assert women[0]["place"] == 1
    text = run("standings", club, "--by", "sex").output
    assert "sex: F" in text and "sex: M" in text and "Hal" not in text  # Hal has no value: on no list


def test_club_standings_sum_the_best_k(club) -> None:
    doc = json.loads(run("standings", club, "--by", "club", "--best", "2", "--json").output)
    event = {r["name"]: r for r in json.loads(run("standings", club, "--json").output)["standings"]}
    clubs = {"Norte": ["Ana", "Cy", "Flo"], "Sur": ["Bo", "Di", "Gus"], "Este": ["Ed", "Hal"]}
    for row in doc["rows"]:
        best = sorted(clubs[row["club"]], key=lambda n: event[n]["rank"])[:2]
        assert row["wins"] == sum(event[n]["wins"] for n in best)
        assert row["for"] == sum(event[n]["for"] for n in best)
        assert row["counted"] == 2
    keys = [(-r["wins"], -r["diff"], -r["for"]) for r in doc["rows"]]
    assert keys == sorted(keys)
    text = run("standings", club, "--by", "club", "--best", "2").output
    assert "the best 2" in text


def test_prize_list_refusals_are_one_line_exit_2(club) -> None:
    out = run("standings", club, "--by", "clb", code=2).output
    assert "did you mean 'club'" in out and out.count("\n") == 1
    assert "--by" in run("standings", club, "--best", "2", code=2).output
    assert "--by" in run("report", club, "-o", "x.html", "--best", "2", code=2).output


def test_report_and_export_carry_the_prize_lists(club, tmp_path) -> None:
    run("report", club, "-o", tmp_path / "r.html", "--by", "sex", "--by", "club", "--best", "2")
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert 'id="prizes"' in page and "sex: F" in page and "club: the sum of the best 2" in page
    run("export", club, "-o", tmp_path / "x", "--csv", "--by", "club", "--best", "2")
    prize_rows = list(csv.DictReader((tmp_path / "x" / "prizes.csv").read_text(encoding="utf-8").splitlines()))
    assert {r["value"] for r in prize_rows} == {"Norte", "Sur", "Este"}
    groups = list(csv.DictReader((tmp_path / "x" / "groups.csv").read_text(encoding="utf-8").splitlines()))
    assert [g["rank"] for g in groups][0] == "1" and len(groups) == 3


def test_pairs_are_in_a_category_when_both_players_are(tmp_path) -> None:
    (tmp_path / "p.csv").write_text("name,partner,sex,partner_sex,club\nAna,Bea,F,F,Norte\nCy,Di,M,F,Sur\n"
                                    "Ed,Flo,M,M,Sur\nGus,Hal,M,M,Norte\n", encoding="utf-8")
    path = tmp_path / "p.db"
    run("new", path, "--name", "P", "--game", "competitive", "--format", "pairs")
    run("add", path, "--csv", tmp_path / "p.csv")
    store = open_event(path)
    pair_next_round(store)
    for t in store.tables(1):
        enter_manual(store, t.number, {"NS": 100, "EW": 50})
    store.close()
    doc = json.loads(run("standings", path, "--by", "sex", "--json").output)
    names = {c["value"]: [r["name"] for r in c["rows"]] for c in doc["categories"]}
    assert names == {"F": ["Ana & Bea"], "M": sorted(names["M"], key=names["M"].index)}
    assert set(names["M"]) == {"Ed & Flo", "Gus & Hal"}  # Cy & Di (mixed) on neither list
    clubs = json.loads(run("standings", path, "--by", "club", "--json").output)
    assert {c["value"] for c in clubs["categories"]} == {"Norte", "Sur"}


def _standing(unit: int, rank: int, wins: float) -> Standing:
    return Standing(rank, unit, f"p{unit}", True, 3, int(wins), 0, 3 - int(wins), 0, 0, 0, wins, 0, 0, 0, 0)


@hsettings(max_examples=60, deadline=None)
@given(hst.lists(hst.tuples(hst.integers(0, 3), hst.sampled_from("ABC")), min_size=1, max_size=12),
       hst.integers(1, 4))
def test_category_and_group_lists_follow_the_event(rows, best) -> None:
    """A category list is the event's order, places ascending; a group's sums are its best
    ``best`` rows; groups are in order of their sums."""
    ordered = sorted(enumerate(rows, 1), key=lambda x: -x[1][0])
    standings, rank = [], 0
    for i, (unit, (wins, _)) in enumerate(ordered):
        if not standings or standings[-1].wins != wins:
            rank = i + 1
        standings.append(_standing(unit, rank, wins))
    table = Standings("rotating", ("wins", "buchholz"), tuple(standings), 3, {})
    group_of = {unit: g for unit, (_, g) in enumerate(rows, 1)}
    for c in prizes.categories(table, group_of):
        places = [p for p, _ in c.rows]
        assert places == sorted(places) and places[0] == 1
        assert [r.rank for _, r in c.rows] == sorted(r.rank for _, r in c.rows)
    listing = prizes.groups(table, group_of, best, "club")
    assert listing.keys == ("wins",)  # Buchholz does not add up over a club
    for g in listing.rows:
        members = [s for s in standings if group_of[s.unit] == g.group]
        assert g.sums["wins"] == sum(s.wins for s in members[:best])
    sums = [g.sums["wins"] for g in listing.rows]
    assert sums == sorted(sums, reverse=True)


# --- the audit trail -----------------------------------------------------------------------------


def test_who_entered_each_result_and_the_whole_trail(club, tmp_path) -> None:
    run("pair", club)
    run("result", club, "--table", "1", "--score", "NS=100,EW=20", "--by", "Marta")
    run("result", club, "--table", "1", "--score", "NS=100,EW=30", "--replace", "--by", "Luis")
    run("rename", club, "Hal", "Hale", "--by", "Marta")
    entered = json.loads(run("history", club, "--entered", "--json").output)
    first = next(e for e in entered if e["round"] == 4 and e["table"] == 1)
    assert first["by"] == "Marta"  # the first entry's author, though Luis replaced it since
    assert "entered by Marta" in run("history", club, "--entered").output
    run("export", club, "-o", tmp_path / "x.json")
    trail = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))["audit"]
    actions = [(a["action"], a["by"]) for a in trail]
    assert ("result_replaced", "Luis") in actions and ("player_renamed", "Marta") in actions
    assert ("result_entered", "Marta") in actions
    run("export", club, "-o", tmp_path / "x", "--csv")
    assert "result_replaced" in (tmp_path / "x" / "audit.csv").read_text(encoding="utf-8")
    with sqlite3.connect(club) as conn:
        view = conn.execute("SELECT action, by, round, \"table\" FROM audit_view").fetchall()
    assert ("result_replaced", "Luis", 4, 1) in view
    assert any(row[0] == "player_renamed" and row[1] == "Marta" for row in view)


def test_first_entries_of_an_old_result_say_unknown(tmp_path) -> None:
    store = create_event(tmp_path / "e.db", make_settings("E", "competitive", "rotating"))
    add_players(store, ["a", "b", "c", "d"])
    pair_next_round(store)
    store.author = "the desk"
    enter_manual(store, 1, {"NS": 10, "EW": 5})
    store.conn.execute("UPDATE results SET entered_by = NULL")  # as a result entered before it was kept
    assert [e.by for e in audit.first_entries(store)] == [audit.UNKNOWN]
    store.close()


def test_report_no_replays_writes_the_page_alone(tmp_path) -> None:
    simulate_event(tmp_path / "s.db", "competitive", "rotating", 8, 1, seed=2)
    run("report", tmp_path / "s.db", "-o", tmp_path / "r.html", "--no-replays")
    assert (tmp_path / "r.html").exists() and not (tmp_path / "r-replays").exists()
    assert 'class="replay"' not in (tmp_path / "r.html").read_text(encoding="utf-8")
    run("report", tmp_path / "s.db", "-o", tmp_path / "r.html")
    assert any((tmp_path / "r-replays").iterdir())


# --- a later stage's games never count in the rounds' standings ----------------------------------


def test_a_multi_player_knockout_is_not_counted_in_the_rounds_standings(tmp_path) -> None:
    simulate_event(tmp_path / "m.db", "castle-rock", "individual", 12, 2, seed=6, table_size=4,
                   stage={"format": "multi", "advance": 2})
    store = open_event(tmp_path / "m.db")
    rounds = from_store(store)
    played = {s.unit: s.played + s.byes for s in rounds.rows}
    assert set(played.values()) == {2}, played  # the two rounds only, not the knockout's tables
    assert rounds.through_round == 2
    knockout, _ = of_stage(store, 2)
    assert sum(s.played for s in knockout.rows) > 0
    store.close()
    out = run("standings", tmp_path / "m.db").output
    assert "--stage 2" in out

"""Duplicate teams (issue 38, point 6) through the command line: a team event of two pairs whose
matches play the same boards at both tables, the team's pairs in opposite directions; each board's
hand played by the engine from the board's deal, its result entered as a record or a typed score,
and the team standings checked against IMPs and victory points recomputed here by hand."""

from __future__ import annotations

import json
import math
import sqlite3
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from domrec.convert import text_of

from tournament.cli import app
from tournament.errors import SettingsError
from tournament.pairing import boards as B
from tournament.settings import Settings, make_settings

from tests.tournament.test_matchpoints import imps_by_hand

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def vp_by_hand(margin: int, boards: int) -> float:
    """The WBF continuous scale, written out again: 10 + 10·(1 - τ^(3m/X))/(1 - τ³), X = 15·√boards."""
    tau = (5 ** 0.5 - 1) / 2
    x = 15 * math.sqrt(boards)
    m = min(abs(margin), x)
    gain = 10 * (1 - tau ** (3 * m / x)) / (1 - tau ** 3)
    return round(10 + gain if margin >= 0 else 10 - gain, 2)


def new_event(path: Path, teams: int, *extra: str) -> None:
    run("new", path, "--name", "Cuartetas duplicadas", "--game", "competitive", "--format", "teams",
        "--team-size", "4", "--team-pairing", "round-robin", "--duplicate", *extra)
    for t in range(1, teams + 1):
        run("team", path, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")


def play_rounds(tmp_path: Path, event: Path, rounds: int) -> dict[tuple[int, str, str], list[int]]:
    """Pair and play ``rounds`` rounds: every table plays the round's boards from their deals; results
    entered alternately from JSON records and as typed scores.  Returns, for each match (round, home
    team, away team), the home team's net on each of its boards, computed here."""
    boards = {b["board"]: B.board_from_json(b) for b in json.loads(run("boards", event, "--json"))}
    nets: dict[tuple[int, str, str], list[int]] = {}
    for r in range(1, rounds + 1):
        run("pair", event)
        doc = json.loads(run("tables", event, "--json"))
        assert doc["round"] == r and doc["boards"] == [2 * r - 1, 2 * r]
        team_at: dict[int, dict[str, str]] = defaultdict(dict)
        for row in doc["rows"]:
            team_at[row["table"]][row["side"]] = row["team"]
        files = []
        points: dict[tuple[int, int], tuple[int, int]] = {}
        for table in sorted(team_at):
            for number in doc["boards"]:
                record = B.play(boards[number], f"{r}/{table}")
                scores = record.hands[0].result.scores
                points[(table, number)] = (scores["NS"], scores["EW"])
                if (table + number) % 2:
                    run("result", event, "--round", r, "--table", table, "--board", number,
                        "--score", f"NS={scores['NS']},EW={scores['EW']}")
                    continue
                record = attrs.evolve(record, event={"round": r, "table": table, "board": number})
                path = tmp_path / f"r{r}t{table}b{number}.json"
                path.write_text(text_of([record], "json"))
                files.append(path)
        assert run("result", event, *files).count("verified record") == len(files)
        for first in sorted(team_at)[::2]:  # a match: two tables, the home team N-S at the first
            second = first + 1
            home, away = team_at[first]["NS"], team_at[first]["EW"]
            assert team_at[second] == {"NS": away, "EW": home}, "the team's pairs sit in opposite directions"
            nets[(r, home, away)] = [points[(first, b)][0] - points[(first, b)][1]
                                     + points[(second, b)][1] - points[(second, b)][0] for b in doc["boards"]]
    return nets


def expected_standings(nets: dict[tuple[int, str, str], list[int]]) -> dict[str, dict]:
    got: dict[str, dict] = defaultdict(lambda: {"imps_for": 0, "imps_against": 0, "match_points": 0,
                                                "victory_points": 0.0, "played": 0})
    for (_, home, away), board_nets in nets.items():
        imps = [imps_by_hand(Fraction(n)) for n in board_nets]
        h, a = sum(i for i in imps if i > 0), -sum(i for i in imps if i < 0)
        vp = vp_by_hand(h - a, len(imps))
        for team, mine, theirs, v in ((home, h, a, vp), (away, a, h, round(20 - vp, 2))):
            row = got[team]
            row["played"] += 1
            row["imps_for"] += mine
            row["imps_against"] += theirs
            row["match_points"] += 2 if mine > theirs else 1 if mine == theirs else 0
            row["victory_points"] += v
    return dict(got)


def test_four_teams_three_rounds_played_from_the_boards(tmp_path: Path) -> None:
    event = tmp_path / "teams.db"
    new_event(event, 4, "--victory-points")
    assert "needs" not in run("boards", event, "--boards", 6, "--seed", 38)
    nets = play_rounds(tmp_path, event, 3)
    assert len(nets) == 6  # a round robin of four teams: two matches a round
    doc = json.loads(run("standings", event, "--json"))
    assert doc["ranked_by"] == "victory-points" and not doc["provisional"]
    expected = expected_standings(nets)
    for row in doc["teams"]:
        want = expected[row["team"]]
        assert row["played"] == want["played"] == 3
        assert (row["imps_for"], row["imps_against"], row["match_points"]) == \
            (want["imps_for"], want["imps_against"], want["match_points"])
        assert row["imps"] == want["imps_for"] - want["imps_against"]
        assert row["victory_points"] == pytest.approx(want["victory_points"], abs=0.011)
    keys = [(-r["victory_points"], -r["imps"], -r["imps_for"]) for r in doc["teams"]]
    assert keys == sorted(keys), "ranked by victory points, then the IMP difference, then IMPs won"
    shown = run("standings", event)
    assert "duplicate teams standings" in shown and "victory points" in shown
    assert " wins the match)" in shown and "(finished)" not in shown and ", VP " in shown and "boards 5-6" in shown
    spanish = run("standings", event, "--lang", "es")
    assert "puntos de victoria" in spanish and "tableros 5-6" in spanish and " gana el encuentro)" in spanish
    run("pair", event, code=1)  # four teams' round robin has three rounds
    assert "boards 5-6" in run("tables", event)
    slips = run("boards", event, "--slips", "-o", tmp_path / "slips.html", "--round", 3)
    assert "wrote" in slips and "8 board slips" in slips  # four tables, two boards each
    assert "24 results (12 records re-validated): 0 errors" in run("check", event)
    info = run("info", event)
    assert "ranked by victory points, then IMPs" in info and "duplicate teams: each match plays" in info
    exported = json.loads(run("export", event, "-o", "-"))
    assert exported["event"]["duplicate_teams"] == {"boards_per_round": 2, "victory_points": True}
    assert len(exported["boards"]) == 6 and exported["duplicate_team_standings"] == doc
    by_match = {(m["round"], m["home"], m["away"]): [b["net"] for b in m["boards"]]
                for m in exported["duplicate_team_matches"]}
    assert by_match == nets


def test_match_points_rank_without_victory_points_and_refusals(tmp_path: Path) -> None:
    event = tmp_path / "mp.db"
    new_event(event, 4)
    out = runner.invoke(app, ["pair", str(event)])
    assert out.exit_code == 1 and "round 1 plays boards 1 to 2" in out.output
    run("boards", event, "--boards", 2, "--seed", 1)
    run("pair", event)
    wrong = run("result", event, "--round", 1, "--table", 1, "--board", 3, "--score", "NS=10,EW=0", code=2)
    assert "play boards 1, 2, not board 3" in wrong
    boards = {b.number: b for b in B.deal_boards("competitive", 20, 1)}
    other = next(b for n, b in boards.items() if n > 1 and b.leader == boards[1].leader)
    bad = tmp_path / "other.json"
    bad.write_text(text_of([attrs.evolve(B.play(other, 1), event={"round": 1, "table": 1, "board": 1})], "json"))
    refused = run("result", event, bad, code=1).strip().splitlines()
    assert len(refused) == 1 and "is not board 1's deal: board 1 deals" in refused[0]
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=40,EW=0")
    run("result", event, "--round", 1, "--table", 2, "--board", 1, "--score", "NS=0,EW=0")
    not_yet = run("pair", event, code=1)
    assert "round 1 is not finished" in not_yet and "table 1 board 2" in not_yet
    doc = json.loads(run("standings", event, "--json"))
    assert doc["ranked_by"] == "match-points" and doc["provisional"]
    top = doc["teams"][0]
    assert (top["match_points"], top["imps_for"], top["victory_points"]) == (2, imps_by_hand(Fraction(40)), None)
    dup = run("standings", event, "--round", 1, code=2)
    assert "no --round" in dup
    # A whole game's result counts for nothing in a match of boards: refused where results are stored.
    from tournament.event import results as res
    from tournament.event.files import open_event
    from tournament.errors import ResultRefused

    store = open_event(event)
    try:
        with pytest.raises(ResultRefused, match="a result per board"):
            res.enter_manual(store, 3, {"NS": 10, "EW": 0}, 1)
    finally:
        store.close()
    assert "--board B" in run("result", event, "--table", 3, "--score", "NS=10,EW=0", code=2)


def test_the_docs_example_of_a_match() -> None:
    from tournament.pairing import matchpoints as P

    match = P.team_match([P.TeamBoard(1, (30, 0), (10, 0)), P.TeamBoard(2, (0, 25), (0, 0))], 5, True)
    assert [b.net for b, _ in match.boards] == [20, -25]
    assert (match.home_imps, match.away_imps, match.home_vp, match.away_vp) == (2, 3, 9.14, 10.86)
    assert (match.home_vp, match.away_vp) == (vp_by_hand(-1, 2), vp_by_hand(1, 2))


def test_settings_of_duplicate_teams() -> None:
    s = make_settings("T", "competitive", "teams", team_size=4, team_duplicate=True, victory_points=True,
                      boards_per_round=3)
    assert s.team_duplicate and s.victory_points and s.boards_per_round == 3 and not s.duplicate
    assert Settings.from_json(s.to_json()) == s
    plain = make_settings("T", "competitive", "teams", team_size=4)
    assert "team_duplicate" not in plain.to_json() and "boards_per_round" not in plain.to_json()
    for bad, says in ((dict(format="teams", team_size=6, team_duplicate=True), "teams of 4"),
                      (dict(format="teams", team_size=4, victory_points=True), "duplicate teams"),
                      (dict(format="pairs", team_duplicate=True), "--format teams"),
                      (dict(format="teams", team_size=4, team_duplicate=True, boards_per_round=9), "2 to 4"),
                      (dict(format="teams", team_size=4, team_duplicate=True, team_set=50), "not a set")):
        fmt = bad.pop("format")
        with pytest.raises(SettingsError, match=says):
            make_settings("T", "competitive", fmt, **bad)


def test_simulate_duplicate_pairs_and_teams(tmp_path: Path) -> None:
    import sqlite3

    from tests.tournament.test_matchpoints import rescored
    from tournament.event import duplicate as dup
    from tournament.event.files import open_event

    pairs = tmp_path / "pairs.db"
    out = run("simulate", pairs, "--format", "duplicate", "--tables", 3, "--rounds", 3, "--seed", 5, "-q")
    assert "12 players, 3 rounds, 18 board results" in out
    with sqlite3.connect(pairs) as db:
        assert db.execute("SELECT count(*), sum(verified) FROM board_results").fetchone() == (18, 18)
    store = open_event(pairs)
    try:
        doc = dup.standings(store)
        expected = rescored(dup.table_results(store))  # the stored results, scored again the slow way
    finally:
        store.close()
    assert {r["pair"]: [r["matchpoints"], r["top"], r["imps"]] for r in doc["pairs"]} == dict(expected)
    again = tmp_path / "again.db"
    run("simulate", again, "--format", "duplicate", "--tables", 3, "--rounds", 3, "--seed", 5, "-q")
    assert json.loads(run("standings", again, "--json")) == json.loads(run("standings", pairs, "--json"))
    assert "has 3 rounds, not 4" in run("simulate", tmp_path / "x.db", "--format", "duplicate", "--tables", 3,
                                        "--rounds", 4, "-q", code=2)
    assert "--tables N" in run("simulate", tmp_path / "y.db", "--format", "duplicate", "-q", code=2)

    teams = tmp_path / "teams.db"
    out = run("simulate", teams, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 3,
              "--victory-points", "-q")
    assert "16 players, 3 rounds, 24 board results" in out
    with sqlite3.connect(teams) as db:
        assert db.execute("SELECT count(*), sum(verified) FROM board_results").fetchone() == (24, 24)
    doc = json.loads(run("standings", teams, "--json"))
    assert not doc["provisional"] and [r["played"] for r in doc["teams"]] == [3, 3, 3, 3]
    assert sum(r["imps"] for r in doc["teams"]) == 0
    assert sum(r["victory_points"] for r in doc["teams"]) == pytest.approx(6 * 20, abs=0.05)


def test_a_bye_is_a_match_won_by_twelve_victory_points(tmp_path: Path) -> None:
    event = tmp_path / "five.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 5, "--rounds", 2, "--victory-points",
        "--seed", 3, "-q")
    exported = json.loads(run("export", event, "-o", "-"))
    vp: dict[str, float] = defaultdict(float)
    for m in exported["duplicate_team_matches"]:
        vp[m["home"]] += m["home_vp"]
        vp[m["away"]] += m["away_vp"]
    rows = exported["duplicate_team_standings"]["teams"]
    assert sum(r["byes"] for r in rows) == 2  # five teams: one sits out each round
    for r in rows:
        assert r["played"] + r["byes"] == 2
        assert r["match_points"] == 2 * r["won"] + r["drawn"] + 2 * r["byes"]
        assert r["victory_points"] == pytest.approx(vp[r["team"]] + 12 * r["byes"], abs=0.011)


def test_the_round_being_played_follows_the_boards(tmp_path: Path) -> None:
    """A duplicate teams table has no game result of its own: its round is over when each board of
    the round has its result there (the round in play stayed 1 for ever)."""
    from tournament.event import progress
    from tournament.event.files import open_event

    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--seed", 3, "-q")
    store = open_event(event)
    try:
        assert progress.current_round(store) == 2 and store.last_round() == 2
        assert progress.status(store) == progress.IN_PROGRESS  # a Swiss of teams with no last round set
    finally:
        store.close()


def test_a_team_a_pair_short_is_told_to_bring_a_reserve(tmp_path: Path) -> None:
    """A pair withdrawn: the round was refused naming a table and the board entry (the forfeit of an
    ordinary team match does not exist board by board); it says what to do instead."""
    event = tmp_path / "short.db"
    new_event(event, 4)
    run("boards", event, "--boards", 12, "--seed", 4)
    run("withdraw", event, "East 2")
    out = run("pair", event, code=1)
    assert "team Team 2 has 1 pair to play in round 1, not 2" in out, out
    assert "a duplicate match plays its boards at both tables" in out and "team EVENT sub" in out
    assert "--board" not in out


def test_victory_points_level_to_the_hundredth_fall_to_the_imp_difference(tmp_path: Path) -> None:
    """T1 (2.69 + 14.39) and T2 (6.22 + 10.86) both have 17.08 VPs; the floats' sums differ in the
    last bit (17.080000000000002 and 17.08), which ranked T1 (IMPs -6) above T2 (IMPs -4).  Level
    victory points go to the IMP difference, as the docs say."""
    event = tmp_path / "level.db"
    new_event(event, 4, "--victory-points")
    run("boards", event, "--boards", 4, "--seed", 1)
    # Round 1: T1 v T4 (T4 by 12 IMPs), T3 v T2 (T3 by 5); round 2: T3 v T1 (T1 by 6), T2 v T4 (T2 by 1).
    boards = {1: {(1, 1): (0, 135), (2, 1): (15, 0), (3, 1): (45, 0)},
              2: {(1, 3): (0, 60), (3, 3): (10, 0)}}
    for r in (1, 2):
        run("pair", event)
        for table in (1, 2, 3, 4):
            for board in (2 * r - 1, 2 * r):
                ns, ew = boards[r].get((table, board), (0, 0))
                run("result", event, "--round", r, "--table", table, "--board", board, "--score", f"NS={ns},EW={ew}")
    rows = {row["team"]: row for row in json.loads(run("standings", event, "--json"))["teams"]}
    assert (rows["Team 1"]["victory_points"], rows["Team 1"]["imps"]) == (17.08, -6)
    assert (rows["Team 2"]["victory_points"], rows["Team 2"]["imps"]) == (17.08, -4)
    assert rows["Team 2"]["rank"] < rows["Team 1"]["rank"]


def test_a_round_with_board_results_is_neither_unpaired_nor_reseated(tmp_path: Path) -> None:
    """A duplicate-teams table's results are its boards': a round with one is refused by `unpair`
    (it used to fail on the board results' foreign key and call the file damaged) and by `swap`
    (which moved a team's pairs after their boards were in, giving their hands to the other pair)."""
    event = tmp_path / "played.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--seed", 3, "-q")
    before = run("tables", event, "--json")
    out = run("unpair", event, code=1)
    assert "round 2 table 1 has a result on board 3: round 2 cannot be unpaired" in out
    assert "damaged" not in out
    out = run("swap", event, "Team 001 pair 1", "Team 001 pair 2", code=1)
    assert "has a result on board 3: its players cannot change" in out
    assert run("tables", event, "--json") == before


def test_a_swiss_round_keeps_the_standings_it_was_paired_on(tmp_path: Path) -> None:
    """A Swiss round of duplicate teams is paired on victory points and IMPs: it keeps those (it
    kept the games' standings, all zeros, rank 1 each), so a board corrected since is noticed by
    the correction's note and by `check`."""
    event = tmp_path / "swiss.db"
    run("new", event, "--name", "Swiss", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--duplicate", "--victory-points")
    for t in range(1, 5):
        run("team", event, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")
    run("boards", event, "--boards", 4, "--seed", 1)
    run("pair", event)
    for table in (1, 2, 3, 4):
        for board in (1, 2):
            run("result", event, "--round", 1, "--table", table, "--board", board, "--score",
                "NS=45,EW=0" if (table, board) in ((1, 1), (3, 1)) else "NS=0,EW=0")
    run("pair", event)
    kept = sqlite3.connect(event).execute('SELECT unit, rank, "values" FROM standings_used').fetchall()
    assert sorted(rank for _, rank, _ in kept) == [1, 1, 3, 3]  # two matches won by 5 IMPs, two lost
    assert {json.loads(v)["victory_points"] for _, _, v in kept} == {13.78, 6.22}
    assert "changed" not in run("check", event)
    # Table 1's home team now loses board 1 by 45: round 2, paired on the old standings, is unplayed.
    out = run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=0,EW=45", "--replace")
    assert "note: round 2 was paired on team standings this correction has changed" in out
    warned = run("check", event, code=0)
    assert "round 2: paired on team standings that have changed since" in warned
    assert "Team 1 rank 3 then, 1 now" in warned

"""Team events (issue 37): teams of pairs, matches at adjacent tables, team standings, presets."""

from __future__ import annotations

import csv
import json
import random
import re
import sqlite3
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as st
from typer.testing import CliRunner

from domrec.simulate import dumps, play_game

from tournament.cli import app
from tournament.errors import SettingsError
from tournament.event.files import open_event
from tournament.event.simulate import game_record
from tournament.pairing.teams import pair_teams
from tournament.settings import PRESETS, Settings, make_settings
from tournament.values import Squad, Team

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def write_csv(path: Path, teams: int, size: int = 4, reserves: dict[int, int] | None = None) -> Path:
    """A players CSV: name, team, pair; team t's pairs "T{t} pair k"; reserves where asked."""
    reserves = reserves or {}
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "team", "pair", "club"])
        for t in range(1, teams + 1):
            for i in range(size):
                w.writerow([f"Player {t:02d}-{i}", f"Team {t:02d}", f"T{t:02d} pair {i // 2 + 1}", f"Club {t}"])
            for r in range(reserves.get(t, 0)):
                w.writerow([f"Reserve {t:02d}-{r}", f"Team {t:02d}", "reserve", f"Club {t}"])
    return path


def play_round_via_cli(event: Path, round_no: int, folder: Path, skip: set[int] = frozenset()) -> None:
    """Every table of ``round_no`` (but ``skip``) played by domrec's simulator, its record written
    to a file, and all of them entered with one ``tournament result``."""
    store = open_event(event)
    try:
        names = {p.id: p.name for p in store.players()}
        files = []
        for t in store.tables(round_no):
            if t.number in skip:
                continue
            record = play_game(game_record(store.settings, t, names),
                               random.Random(f"teams-test:{round_no}:{t.number}"))
            path = folder / f"r{round_no}t{t.number}.json"
            path.write_text(dumps(record))
            files.append(path)
    finally:
        store.close()
    run("result", event, *files)


def stored_games(event: Path) -> tuple[dict, dict, list]:
    """Straight from the event file with SQLite (not the tool): player -> team, team -> name, and
    every table's (round, table, {side: team}, scores, winner)."""
    conn = sqlite3.connect(event)
    try:
        team_of = dict(conn.execute("SELECT player_id, squad_id FROM squad_players"))
        names = dict(conn.execute("SELECT id, name FROM squads"))
        rows = conn.execute("SELECT r.number, t.number, s.side, s.player_id, x.scores, x.winner "
                            "FROM round_tables t JOIN rounds r ON r.id = t.round_id JOIN seats s ON s.table_id = t.id "
                            "LEFT JOIN results x ON x.table_id = t.id ORDER BY r.number, t.number").fetchall()
        byes = conn.execute("SELECT r.number, b.player_id FROM byes b JOIN rounds r ON r.id = b.round_id").fetchall()
    finally:
        conn.close()
    tables: dict[tuple[int, int], dict] = {}
    for rnd, tno, side, player, scores, winner in rows:
        t = tables.setdefault((rnd, tno), {"sides": {}, "scores": json.loads(scores) if scores else None,
                                           "winner": winner})
        assert t["sides"].setdefault(side, team_of[player]) == team_of[player], "a side of two teams"
    out = [(rnd, tno, t["sides"], t["scores"], t["winner"]) for (rnd, tno), t in sorted(tables.items())]
    bye_teams = sorted({(rnd, team_of[p]) for rnd, p in byes})
    return names, {"byes": bye_teams}, out


def recompute(event: Path, forfeit_score: int) -> dict[str, dict]:
    """The team standings worked out here, from the stored games alone: games won, efectividad,
    match points (2 a match won, 1 drawn; a bye a match won, its two pairs a game each)."""
    names, extra, tables = stored_games(event)
    acc = {n: Counter() for n in names.values()}
    matches: dict[tuple, Counter] = defaultdict(Counter)
    for rnd, _, sides, scores, winner in tables:
        (s1, t1), (s2, t2) = sides.items()
        key = (rnd, min(t1, t2), max(t1, t2))
        matches[key].update({t1: 0, t2: 0})
        for side, team, other in ((s1, t1, s2), (s2, t2, s1)):
            a = acc[names[team]]
            a["for"] += scores[side]
            a["against"] += scores[other]
            won = 1 if winner == side else 0.5 if winner is None else 0
            a["won"] += won
            matches[key][team] += won
    for key, games in matches.items():
        (a, ga), (b, gb) = games.items()
        for team, mine, theirs in ((a, ga, gb), (b, gb, ga)):
            acc[names[team]]["match_points"] += 2 if mine > theirs else 1 if mine == theirs else 0
            acc[names[team]]["played"] += 1
    for _, team in extra["byes"]:
        acc[names[team]]["won"] += 2
        acc[names[team]]["match_points"] += 2
    return {n: {"won": a["won"], "points_for": a["for"], "points_against": a["against"],
                "efectividad": a["for"] - a["against"], "match_points": a["match_points"], "played": a["played"]}
            for n, a in acc.items()}


def check_round_shape(event: Path, round_no: int, size: int = 4) -> list[tuple[int, int]]:
    """A round's matches, checked: a team never meets itself, a match's tables adjacent (1-2, 3-4,
    …) with the same two teams, the home team N-S at its first table and E-W at its second."""
    _, _, tables = stored_games(event)
    mine = [(tno, sides) for rnd, tno, sides, _, _ in tables if rnd == round_no]
    per = size // 2
    assert [tno for tno, _ in mine] == list(range(1, len(mine) + 1))
    assert len(mine) % per == 0
    out = []
    for start in range(0, len(mine), per):
        group = mine[start:start + per]
        home, away = group[0][1]["NS"], group[0][1]["EW"]
        assert home != away, f"round {round_no}: a team meets itself"
        for i, (tno, sides) in enumerate(group):
            expect = (home, away) if i % 2 == 0 else (away, home)
            assert (sides["NS"], sides["EW"]) == expect, f"round {round_no} table {tno}"
        out.append((home, away))
    return out


def test_cuartetas_24_teams_six_swiss_rounds_from_the_cli(tmp_path: Path) -> None:
    event = tmp_path / "cuartetas.db"
    players = write_csv(tmp_path / "players.csv", 24, reserves={1: 1, 2: 2})
    out = run("new", event, "--name", "Copa de cuartetas", "--game", "competitive", "--format", "teams",
              "--team-size", "4", "--preset", "femundo-teams", "--seed", "5")
    assert "teams of 4 (2 pairs)" in out and "preset femundo-teams" in out
    out = run("add", event, "--csv", players)
    assert out.count("added team") == 24 and "2 reserves" in out
    listing = run("players", event, "--csv").splitlines()
    assert listing[0] == "id,name,pair,team,from_round,withdrawn_from,club"
    assert "Reserve 02-1,,Team 02,1,,Club 2" in listing[-1] + "".join(listing)
    info = run("info", event)
    assert "format: teams" in info and "preset: femundo-teams" in info and "FEMUNDO" in info
    met: Counter = Counter()
    withdrawn_id = None
    for r in range(1, 7):
        if r == 3:
            out = run("team", event, "withdraw", "Team 07")
            assert "from round 3" in out
            # A reserve substituted: Team 02's first reserve for Player 02-1 from round 3 on.
            out = run("team", event, "sub", "Team 02", "--out", "Player 02-1", "--in", "Reserve 02-0")
            assert "from round 3 Reserve 02-0 plays in pair T02 pair 1 in place of Player 02-1" in out
        run("pair", event)
        matches = check_round_shape(event, r)
        for a, b in matches:
            met[frozenset((a, b))] += 1
        teams_playing = {t for m in matches for t in m}
        if r >= 3:
            names, extra, _ = stored_games(event)
            withdrawn_id = next(i for i, n in names.items() if n == "Team 07")
            assert withdrawn_id not in teams_playing
            assert len(matches) == 11 and sum(1 for rnd, _ in extra["byes"] if rnd == r) == 1
        else:
            assert len(matches) == 12
        if r == 4:
            # One pair does not come: its table is a forfeit, its partner pair's game is played.
            play_round_via_cli(event, r, tmp_path, skip={3})
            out = run("result", event, "--table", "3", "--forfeit", "NS", "--round", "4")
        else:
            play_round_via_cli(event, r, tmp_path)
    assert max(met.values()) == 1, "two teams met twice in a Swiss"
    # A corrected result: round 2, table 5 becomes a 200-10 win for E-W.
    run("amend", event, "--round", "2", "--table", "5", "--score", "NS=10,EW=200", "--reason", "sheet misread")
    doc = json.loads(run("standings", event, "--json"))
    assert set(doc) >= {"teams", "pairs", "players"}
    mine = recompute(event, 200)
    rows = {row["team"]: row for row in doc["teams"]}
    assert set(rows) == set(mine)
    for name, expect in mine.items():
        got = rows[name]
        assert (got["won"], got["points_for"], got["points_against"], got["efectividad"], got["match_points"],
                got["played"]) == (expect["won"], expect["points_for"], expect["points_against"],
                                   expect["efectividad"], expect["match_points"], expect["played"]), name
        assert set(got) >= {"rank", "team", "played", "won", "lost", "points_for", "points_against", "efectividad",
                            "match_points"}
    # Ordered by the preset: games won, then efectividad.
    order = [(-r["won"], -r["efectividad"]) for r in doc["teams"]]
    assert order == sorted(order)
    assert rows["Team 07"]["status"] == "withdrawn" and rows["Team 07"]["played"] == 2
    # The forfeit: the absent pair's side scored 0, the other the preset's forfeit score.
    _, _, tables = stored_games(event)
    forfeit = next(t for t in tables if t[0] == 4 and t[1] == 3)
    assert forfeit[3] == {"NS": 0, "EW": 200} and forfeit[4] == "EW"
    # Players and pairs inside the team event: the substituted player and the reserve each with their own games.
    assert len(doc["players"]) == 96 + 3 and len(doc["pairs"]) == 48
    played = {r["player"]: r["played"] for r in doc["players"]}
    assert (played["Player 02-1"], played["Reserve 02-0"], played["Player 02-0"]) == (2, 4, 6)
    by_player = run("standings", event, "--by", "player", "--csv")
    assert by_player.splitlines()[0].startswith("rank,player,id,played")
    assert len(run("standings", event, "--by", "pair", "--csv").splitlines()) == 49
    text = run("standings", event)
    assert "standings of the teams after round 6" in text and "ranked by games, then efectividad" in text
    assert "0 errors" in run("check", event)


def test_three_pair_teams_round_robin(tmp_path: Path) -> None:
    event = tmp_path / "rr.db"
    players = write_csv(tmp_path / "players.csv", 5, size=6)
    run("new", event, "--name", "Liga", "--game", "competitive", "--format", "teams", "--team-size", "6",
        "--team-pairing", "round-robin", "--preset", "fid-teams")
    run("add", event, "--csv", players)
    met: Counter = Counter()
    for r in range(1, 6):
        run("pair", event)
        matches = check_round_shape(event, r, size=6)
        assert len(matches) == 2
        for a, b in matches:
            met[frozenset((a, b))] += 1
        play_round_via_cli(event, r, tmp_path)
    assert len(met) == 10 and set(met.values()) == {1}, "each team meets each other once"
    _, extra, _ = stored_games(event)
    assert sorted(t for _, t in extra["byes"]) == [1, 2, 3, 4, 5]
    run("pair", event, code=1)  # a round robin of 5 has 5 rounds
    doc = json.loads(run("standings", event, "--json"))
    assert {r["team"] for r in doc["teams"]} == {f"Team {t:02d}" for t in range(1, 6)}
    # fid-teams: games won, then total points for.
    order = [(-r["won"], -r["points_for"]) for r in doc["teams"]]
    assert order == sorted(order)
    assert sum(r["played"] for r in doc["teams"]) == 20
    assert "fid-teams" in run("info", event) and "time limit: 55 minutes" in run("info", event)


def test_team_commands_and_lineup(tmp_path: Path) -> None:
    event = tmp_path / "t.db"
    run("new", event, "--name", "Club", "--game", "competitive", "--format", "teams", "--team-size", "4")
    for t in "ABCD":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2,{t} one", "--pair", f"{t}3,{t}4,{t} two",
            *(["--reserve", f"{t}5"] if t == "A" else []))
    out = run("team", event, "add", "Team E", "--pair", "E1,E2", code=2)
    assert "plays 2 pairs, not 1" in out
    out = run("team", event, "add", "Team A", "--pair", "X1,X2", "--pair", "X3,X4", code=1)
    assert "already entered" in out
    assert "Team B is now Los Primos" in run("team", event, "rename", "Team B", "Los Primos")
    run("team", event, "lineup", "Team A", "A two", "A one")
    out = run("team", event, "lineup", "Team A", "A two", code=2)
    assert "each of team Team A's 2 pairs once" in out
    run("pair", event)
    conn = sqlite3.connect(event)
    try:
        first = conn.execute("SELECT t.number FROM seats s JOIN round_tables t ON t.id = s.table_id JOIN players p "
                             "ON p.id = s.player_id WHERE p.name = 'A3'").fetchone()[0]
        second = conn.execute("SELECT t.number FROM seats s JOIN round_tables t ON t.id = s.table_id JOIN players p "
                              "ON p.id = s.player_id WHERE p.name = 'A1'").fetchone()[0]
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        kinds = [k for (k,) in conn.execute("SELECT kind FROM changes")]
    finally:
        conn.close()
    assert first % 2 == 1 and second == first + 1, "the line-up's first pair sits at the match's first table"
    assert version == "9"
    assert kinds.count("team_added") == 4 and "team_renamed" in kinds and "lineup_set" in kinds
    out = run("team", event, "lineup", "Team A", "A one", "A two", "--round", "1", code=1)
    assert "paired already" in out
    listing = run("team", event, "list")
    assert "Los Primos" in listing and "A5" in listing
    assert "enters whole teams" in run("add", event, "Z1", "Z2", code=2)
    assert "a new stage starts when every table so far has one" in run("knockout", event, code=1)
    assert "cannot pin a pair" in run("pin", event, "A1", "--table", "3", code=1)
    assert "cannot keep two pairs apart" in run("apart", event, "A1", "B1", code=1)
    assert "only within their team" in run("swap", event, "A one", "B one", code=1)
    before = run("tables", event, "--csv")
    run("swap", event, "A one", "A two")  # the captain's order changed after the pairing
    after = run("tables", event, "--csv")
    assert before != after and sorted(before.splitlines()) != sorted(after.splitlines())
    # A team left with one pair cannot be paired: said in one line, nothing written.
    run("result", event, "--table", "1", "--score", "NS=200,EW=100", "--round", "1")
    out = runner.invoke(app, ["tables", str(event)], env={"COLUMNS": "80"}).output
    assert "Tables 1-2:" in out and "1 – 0" in out and "(1 of 2 tables in)" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    for tno in range(2, 5):
        run("result", event, "--table", tno, "--score", "NS=200,EW=100", "--round", "1")
    out = run("tables", event, "--csv")
    assert out.splitlines()[0] == "round,table,seat,side,id,name,pair,team,pair_id,score,result"
    # The second table of a match has the sides swapped: each team won one game.
    assert "Tables 1-2:" in run("tables", event) and "1 – 1" in run("tables", event)
    assert "(match drawn)" in run("tables", event)
    run("withdraw", event, "C one")
    # Team C a pair short: its pair that plays sits at its match's first table, the one gone at the
    # second, lost by forfeit as soon as the round is paired (tests/tournament/test_team_stages.py).
    out = run("pair", event)
    assert "C one" in out and "forfeit" in out


def test_a_team_or_pair_numbered_in_other_digits_than_0_to_9_is_not_found(tmp_path: Path) -> None:
    """int() reads any script's digits: `#١` was team #1. Refused in one line naming what was typed."""
    event = tmp_path / "t.db"
    run("new", event, "--name", "Club", "--game", "competitive", "--format", "teams", "--team-size", "4")
    for t in "AB":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2,{t} one", "--pair", f"{t}3,{t}4,{t} two")
    assert "no team named or numbered '#١'" in run("team", event, "rename", "#١", "Los Primos", code=2)
    assert "no pair '٢'" in run("team", event, "lineup", "Team A", "A two", "٢", code=2)
    assert "renamed team #1" in run("team", event, "rename", "#1", "Los Primos")


def test_settings_presets_and_refusals() -> None:
    s = make_settings("X", "competitive", "teams", team_size=6, preset="team-pairs")
    assert s.format == "pairs" and s.teams and s.pairs_a_team == 3 and s.format_name == "teams"
    assert s.team_tiebreaks == ("match-points", "games", "efectividad")
    assert Settings.from_json(s.to_json()) == s
    fed = make_settings("X", "competitive", "pairs", preset="fed-spain")
    assert fed.forfeit_score == 300 and fed.tiebreaks == ("wins", "efectividad") and not fed.teams
    assert "team_size" not in json.loads(fed.to_json())
    plain = make_settings("X", "competitive", "pairs")
    assert set(json.loads(plain.to_json())) & {"team_size", "preset", "team_tiebreaks"} == set()
    usa = make_settings("X", "competitive", "pairs", preset="dominousa", time_limit=30)
    assert usa.time_limit == 30 and usa.forfeit_score == 200  # the director's own choice stands
    for kwargs, words in (({"team_size": 5}, "give --team-size 4 or 6"), ({}, "give --team-size"),
                          ({"team_size": 4, "team_tiebreaks": ("buchholz",)}, "cannot rank teams"),
                          ({"team_size": 4, "team_schedule": "knockout"}, "swiss or round-robin")):
        with pytest.raises(SettingsError, match=words):
            make_settings("X", "competitive", "teams", **kwargs)
    with pytest.raises(SettingsError, match="for --format teams"):
        make_settings("X", "competitive", "pairs", team_size=4)
    with pytest.raises(SettingsError, match="unknown preset"):
        make_settings("X", "competitive", "pairs", preset="fifa")
    assert set(PRESETS) == {"femundo-teams", "fid-teams", "team-pairs", "dominousa", "fed-spain"}


def test_standings_json_of_pairs_and_individual_events(tmp_path: Path) -> None:
    event = tmp_path / "p.db"
    run("new", event, "--name", "P", "--game", "competitive", "--format", "pairs")
    for a, b in (("A", "B"), ("C", "D")):
        run("add", event, a, b)
    run("pair", event)
    doc = json.loads(run("standings", event, "--json"))
    assert "teams" not in doc and len(doc["pairs"]) == 2 and len(doc["players"]) == 4
    assert "standings" in doc  # the earlier shape is still there
    out = run("standings", event, "--by", "team", code=2)
    assert "team event" in out
    event = tmp_path / "r.db"
    run("new", event, "--name", "R", "--game", "competitive", "--format", "rotating")
    run("add", event, "A", "B", "C", "D")
    run("pair", event)
    doc = json.loads(run("standings", event, "--json"))
    assert "teams" not in doc and "pairs" not in doc and len(doc["players"]) == 4


# --- pairing never seats a team against itself -----------------------------------------------------


@hsettings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 14), st.sampled_from([4, 6]), st.integers(1, 5), st.randoms(use_true_random=False),
       st.sampled_from(["swiss", "round-robin"]))
def test_pairing_never_seats_a_team_against_itself(n: int, size: int, rounds: int, rng: random.Random,
                                                   schedule: str) -> None:
    settings = make_settings("P", "competitive", "teams", team_size=size, team_schedule=schedule,
                             seed=rng.randrange(1000))
    per = size // 2
    teams, squads, pid = [], [], 1
    for s in range(1, n + 1):
        pairs = []
        for k in range(per):
            tid = s * 10 + k
            teams.append(Team(tid, f"pair {tid}", (pid, pid + 1), 1, None))
            pairs.append(tid)
            pid += 2
        squads.append(Squad(s, f"team {s}", tuple(pairs), (), 1, None))
    squad_of = {p: s.id for s in squads for t in teams if t.id in s.pairs for p in t.players}
    pair_of = {p: t.id for t in teams for p in t.players}
    from tournament.values import SeatAssignment, Table

    tables: list[Table] = []
    byes: dict[int, list[int]] = {}
    met: Counter = Counter()
    for r in range(1, rounds + 1):
        ranking = [s.id for s in squads]
        rng.shuffle(ranking)
        try:
            plan = pair_teams(settings, r, squads, teams, tables, byes, ranking)
        except Exception as e:  # a Swiss can run out of new opponents; a round robin out of rounds
            assert type(e).__name__ == "PairingError"
            break
        for i, seats in enumerate(plan.tables):
            sides = {s.side: {squad_of[x.player] for x in seats if x.side == s.side} for s in seats}
            assert all(len(v) == 1 for v in sides.values())
            assert sides["NS"] != sides["EW"], "a team met itself"
            assert len({pair_of[x.player] for x in seats}) == 2, "a table of one pair"
            tables.append(Table(len(tables) + 1, r, i + 1, tuple(SeatAssignment(x.seat, x.side, x.player)
                                                                 for x in seats)))
        for i in range(0, len(plan.tables), per):
            a, b = {squad_of[x.player] for x in plan.tables[i]}
            assert all({squad_of[x.player] for x in t} == {a, b} for t in plan.tables[i:i + per])
            met[frozenset((a, b))] += 1
        byes[r] = list(plan.byes)
        assert len(plan.tables) == (n // 2) * per or schedule == "round-robin"
    assert not met or max(met.values()) == 1


def test_simulated_team_event(tmp_path: Path) -> None:
    event = tmp_path / "demo.db"
    out = run("simulate", event, "--format", "teams", "--teams", "7", "--team-size", "6", "--rounds", "3", "-q")
    assert "42 players, 3 rounds, 27 games" in out  # 3 matches of 3 tables a round; a team's bye
    doc = json.loads(run("standings", event, "--json"))
    assert len(doc["teams"]) == 7 and sum(r["byes"] for r in doc["teams"]) == 3
    for r in range(1, 4):
        check_round_shape(event, r, size=6)
    assert "0 errors" in run("check", event)
    assert "--teams N" in run("simulate", tmp_path / "x.db", "--format", "teams", code=2)


def test_the_feed_gains_the_team_standings(tmp_path: Path) -> None:
    from tournament.event import feed

    event = tmp_path / "f.db"
    run("simulate", event, "--format", "teams", "--teams", "4", "--rounds", "2", "-q")
    store = open_event(event)
    try:
        doc = feed.standings(store)
    finally:
        store.close()
    assert doc["team_tiebreaks"] == ["games", "efectividad"]
    assert [r["team"] for r in doc["teams"]] == [r["team"] for r in json.loads(run("standings", event,
                                                                                    "--json"))["teams"]]
    pairs = tmp_path / "p.db"
    run("simulate", pairs, "--format", "pairs", "--players", "8", "--rounds", "1", "-q")
    store = open_event(pairs)
    try:
        assert "teams" not in feed.standings(store)
    finally:
        store.close()


def test_team_csv_without_a_pair_column_keeps_ids_and_columns(tmp_path: Path) -> None:
    event = tmp_path / "c.db"
    path = tmp_path / "p.csv"
    path.write_text("name,team,id,sex\nAna,Norte,F-1,f\nBo,Norte,F-2,m\nCy,Norte,,m\nDi,Norte,,f\nEd,Norte,,m\n"
                    "Flo,Sur,,f\nGus,Sur,,m\nHal,Sur,,m\nIvo,Sur,,m\n")
    run("new", event, "--name", "C", "--game", "competitive", "--format", "teams", "--team-size", "4")
    out = run("add", event, "--csv", path)
    assert "Norte: 2 pairs, 1 reserve" in out and "Sur: 2 pairs, 0 reserves" in out
    rows = list(csv.DictReader(run("players", event, "--csv").splitlines()))
    by = {r["name"]: r for r in rows}
    assert by["Ana"]["player_id"] == "F-1" and by["Ana"]["pair"] == "Ana & Bo" and by["Ana"]["sex"] == "f"
    assert by["Ed"]["pair"] == "" and by["Ed"]["team"] == "Norte"
    bad = tmp_path / "bad.csv"
    bad.write_text("name,team,pair\nAna,Norte,one\nBo,Norte,one\nCy,Norte,one\n")
    assert "has 3 players, not 2" in run("add", event, "--csv", bad, code=2)
    empty = tmp_path / "empty.csv"  # a pair column left empty for a team: said so, not "plays 2 pairs, not 0"
    empty.write_text("name,team,pair\nAna,Norte,\nBo,Norte,\nCy,Norte,\nDi,Norte,\n")
    said = run("add", event, "--csv", empty, code=2)
    assert "no row of team 'Norte' names its pair" in said and "empty is a reserve" in said, said


def seated_in(event: Path, round_no: int) -> dict[str, int]:
    """Player name -> their table in ``round_no``, straight from the file."""
    conn = sqlite3.connect(event)
    try:
        return dict(conn.execute("SELECT p.name, t.number FROM seats s JOIN round_tables t ON t.id = s.table_id "
                                 "JOIN rounds r ON r.id = t.round_id JOIN players p ON p.id = s.player_id "
                                 "WHERE r.number = ?", [round_no]))
    finally:
        conn.close()


def test_a_reserve_substituted(tmp_path: Path) -> None:
    event = tmp_path / "sub.db"
    run("new", event, "--name", "Club", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--seed", "3")
    for t in "ABCDEFGH":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2,{t} one", "--pair", f"{t}3,{t}4,{t} two",
            *(["--reserve", f"{t}5"] if t in "AB" else []))
    run("pair", event)
    play_round_via_cli(event, 1, tmp_path)
    # Refusals, one line each, nothing written.
    assert "paired already" in run("team", event, "sub", "Team A", "--out", "A1", "--in", "A5", "--round", "1",
                                   code=1)
    assert "has no player 'B5'" in run("team", event, "sub", "Team A", "--out", "A1", "--in", "B5", code=2)
    assert "(its reserves: A5)" in run("team", event, "sub", "Team A", "--out", "A1", "--in", "Nobody", code=2)
    assert "does not sit in a pair of team Team A" in run("team", event, "sub", "Team A", "--out", "A5", "--in",
                                                          "A5", code=1)
    assert "already sits in a pair" in run("team", event, "sub", "Team A", "--out", "A1", "--in", "A3", code=1)
    assert "has no player 'B1'" in run("team", event, "sub", "Team A", "--out", "B1", "--in", "A5", code=2)
    assert "--out" in run("team", event, "sub", "Team A", "--in", "A5", code=2)
    # Team A: A5 for A1 from the next round (2); Team B: B5 for B4 from round 3.
    assert "from round 2 A5 plays in pair A one in place of A1" in run("team", event, "sub", "Team A", "--out", "A1",
                                                                        "--in", "A5")
    assert "from round 3" in run("team", event, "sub", "Team B", "--out", "B4", "--in", "B5", "--round", "3")
    assert "has a substitution from round 3" in run("team", event, "sub", "Team B", "--out", "B3", "--in", "B5",
                                                    code=1)
    listing = run("team", event, "list")
    assert "A5 for A1 from round 2" in listing and "B5 for B4 from round 3" in listing
    run("pair", event)
    r2 = seated_in(event, 2)
    assert "A5" in r2 and "A1" not in r2 and "A2" in r2 and "B4" in r2 and "B5" not in r2
    tables = run("tables", event, "--csv", "--round", "2")
    assert any(line.split(",")[5:8] == ["A5", "A one", "Team A"] for line in tables.splitlines())
    play_round_via_cli(event, 2, tmp_path)
    run("pair", event)
    r3 = seated_in(event, 3)
    assert "A5" in r3 and "A1" not in r3 and "B5" in r3 and "B4" not in r3
    # A1 back in for A5 in round 4 (a player substituted out is the team's again); A5 cannot go to
    # the other pair later: a player plays in one pair only.
    play_round_via_cli(event, 3, tmp_path)
    run("team", event, "sub", "Team A", "--out", "A5", "--in", "A1")
    assert "played in pair A one" in run("team", event, "sub", "Team A", "--out", "A3", "--in", "A5", "--round",
                                         "5", code=1)
    run("pair", event)
    assert "A1" in seated_in(event, 4) and "A5" not in seated_in(event, 4)
    play_round_via_cli(event, 4, tmp_path)
    # Each player keeps their own games; the pair all of its own.
    doc = json.loads(run("standings", event, "--json"))
    players = {r["player"]: r for r in doc["players"]}
    assert players["A1"]["played"] == 2 and players["A5"]["played"] == 2 and players["A2"]["played"] == 4
    assert players["B4"]["played"] == 2 and players["B5"]["played"] == 2
    pairs = {r["pair"]: r for r in doc["pairs"]}
    assert pairs["A one"]["played"] == 4 and pairs["B two"]["played"] == 4
    mine = recompute(event, 200)
    for row in doc["teams"]:
        assert (row["won"], row["efectividad"], row["match_points"]) == (
            mine[row["team"]]["won"], mine[row["team"]]["efectividad"], mine[row["team"]]["match_points"])
    # A1's games as A5's partner's: A2's won games are A1's and A5's together.
    assert players["A1"]["won"] + players["A5"]["won"] == players["A2"]["won"]
    assert "0 errors" in run("check", event)
    conn = sqlite3.connect(event)
    try:
        subs = [json.loads(d) for (d,) in conn.execute("SELECT data FROM changes WHERE kind = 'player_substituted'")]
    finally:
        conn.close()
    assert [(s["out"]["name"], s["in"]["name"], s["from_round"]) for s in subs] == [
        ("A1", "A5", 2), ("B4", "B5", 3), ("A5", "A1", 4)]
    # The hall's pages and the feed read the pair a reserve sat in: nothing fails for it.
    from tests.tournament.test_venue import _server
    from starlette.testclient import TestClient

    ids = {r["player"]: r["id"] for r in doc["players"]}
    server = _server(event)
    try:
        client = TestClient(server.asgi)
        for path in ("/", "/tables", "/standings", "/games", "/crosstable", "/projector", "/api/v1/event",
                     "/api/v1/standings", "/api/v1/rounds/3", f"/players/{ids['A5']}", f"/players/{ids['A1']}"):
            r = client.get(path)
            assert r.status_code == 200, (path, r.text[:300])
        assert "A5" in client.get(f"/players/{ids['A5']}").text
    finally:
        server.close()


def games_in(text: str) -> float:
    """The games counted so far in the first set's line (``Tables 1-2: A 3½ – 2½ B (…)``)."""
    found = re.search(r"^Tables 1-2: .*? (\d*½?) – (\d*½?) ", text, re.M)
    assert found, text
    return sum(float(x.replace("½", ".5")) for x in found.groups())


def round_seats(event: Path, round_no: int, open_only: bool = False) -> list[tuple[int, str, str, str]]:
    """Each seat of the round (``open_only``: of its tables without a result), in table and seat
    order, straight from the file with SQLite (not the tool): (table, side, player, their team)."""
    conn = sqlite3.connect(event)
    try:
        return conn.execute("SELECT t.number, s.side, p.name, q.name FROM round_tables t JOIN rounds r "
                            "ON r.id = t.round_id JOIN seats s ON s.table_id = t.id JOIN players p ON p.id = s.player_id "
                            "LEFT JOIN squad_players y ON y.player_id = p.id LEFT JOIN squads q ON q.id = y.squad_id "
                            "LEFT JOIN results x ON x.table_id = t.id WHERE r.number = ?"
                            + (" AND x.id IS NULL" if open_only else "") + " ORDER BY t.number, s.position",
                            [round_no]).fetchall()
    finally:
        conn.close()


def open_tables(event: Path, round_no: int = 1) -> list[tuple[int, dict[str, list[str]]]]:
    """The round's tables without a result, in order: (number, side -> its players' names)."""
    out: dict[int, dict[str, list[str]]] = {}
    for number, side, name, _ in round_seats(event, round_no, open_only=True):
        out.setdefault(number, {}).setdefault(side, []).append(name)
    return sorted(out.items())


def set_of_two(path: Path, target: int = 3) -> Path:
    """A team event of sets to ``target``: Team A (A1-A4) against Team B, round 1 paired."""
    run("new", path, "--name", "Sets", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--team-set", target, "--seed", "2")
    for t in "AB":
        run("team", path, "add", f"Team {t}", "--pair", f"{t}1,{t}2", "--pair", f"{t}3,{t}4")
    run("pair", path)
    return path


def a_wins_next(event: Path) -> None:
    """The next game waiting in round 1, won 200-100 by Team A."""
    number, sides = open_tables(event)[0]
    win = "NS" if sides["NS"][0].startswith("A") else "EW"
    run("result", event, "--table", number, "--score", f"{win}=200,{'EW' if win == 'NS' else 'NS'}=100",
        "--round", 1)


def test_a_team_pairs_set_to_50_with_a_draw_cross(tmp_path: Path) -> None:
    event = tmp_path / "set.db"
    out = run("new", event, "--name", "Team pairs", "--game", "competitive", "--format", "teams", "--team-size", "4",
              "--preset", "team-pairs")
    assert "matches are sets to 50 game points" in out
    assert "won by the first team to 50 game points" in run("info", event)
    for t in "AB":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2,{t} one", "--pair", f"{t}3,{t}4,{t} two",
            "--reserve", f"{t}5")
    assert "no round has been paired yet" in run("team", event, "change", "Team A", "--cross", code=1)
    assert "--cross, or --sub" in run("team", event, "change", "Team A", code=2)
    run("pair", event)
    h = open_tables(event)[0][1]["NS"][0][0]  # the home team (drawn): N-S at the match's first table
    v = "B" if h == "A" else "A"
    assert [sides for _, sides in open_tables(event)] == [{"NS": [f"{h}1", f"{h}2"], "EW": [f"{v}1", f"{v}2"]},
                                                          {"NS": [f"{v}3", f"{v}4"], "EW": [f"{h}3", f"{h}4"]}]
    assert "after 6 games of the match; 0 have been played" in run("team", event, "change", f"Team {h}", "--cross",
                                                                   code=1)
    played: list[tuple[int, str]] = []  # (table, the team that won it), in table order

    def play(n: int) -> None:
        """Each of the next ``n`` games: Team A wins two of three."""
        for _ in range(n):
            waiting = open_tables(event)
            assert waiting, f"no game seated after {len(played)} games: the set ended early"
            number, sides = waiting[0]
            a_side = "NS" if sides["NS"][0].startswith("A") else "EW"
            a_wins = len(played) % 3 != 2
            win = a_side if a_wins else ("EW" if a_side == "NS" else "NS")
            score = f"{win}=200,{'EW' if win == 'NS' else 'NS'}=120"
            run("result", event, "--table", number, "--score", score, "--round", 1)
            played.append((number, "A" if a_wins else "B"))

    play(6)
    # Each line's next game was seated after its result: two games waiting, after the six played.
    assert [n for n, _ in open_tables(event)] == [7, 8]
    assert games_in(run("tables", event)) == 6 and "(set to 50, in progress)" in run("tables", event)
    out = run("team", event, "change", f"Team {h}", "--cross")
    assert "draw cross" in out and "table 7" in out and "table 8" in out
    # The draw cross: the home team's pairs changed tables, each in the other's seats.
    crossed = [{"NS": [f"{h}3", f"{h}4"], "EW": [f"{v}1", f"{v}2"]},
               {"NS": [f"{v}3", f"{v}4"], "EW": [f"{h}1", f"{h}2"]}]
    assert [sides for _, sides in open_tables(event)] == crossed
    assert "made their change in this match already (cross)" in run("team", event, "change", f"Team {h}", "--cross",
                                                                    code=1)
    assert f"has no player '{h}5'" in run("team", event, "change", f"Team {v}", "--sub", f"{v}1", f"{h}5", code=2)
    out = run("team", event, "change", f"Team {v}", "--sub", f"{v}1", f"{v}5")
    assert "substitution" in out
    crossed[0]["EW"] = [f"{v}5", f"{v}2"]
    assert [sides for _, sides in open_tables(event)] == crossed
    assert "already (sub)" in run("team", event, "change", f"Team {v}", "--cross", code=1)
    play(2)
    # The lines keep the crossed seats: the next games copy their last game's.
    assert [sides for _, sides in open_tables(event)] == crossed
    # Until a team has 49 games the set goes on (each play finds the next game seated); from then
    # on, the tables are read after each game for the set won.
    while max(sum(1 for _, w in played if w == t) for t in "AB") < 49:
        play(1)
    while " wins the set " not in run("tables", event):
        play(1)
    a = sum(1 for _, w in played if w == "A")
    b = len(played) - a
    assert a == 50 and b < 50
    # The other line's game, begun before the set was won, is played out; nothing more is seated.
    waiting = open_tables(event)
    assert len(waiting) <= 1
    play(len(waiting))
    assert open_tables(event) == []
    text = run("tables", event)
    assert f"Tables 1-2: Team {h} " in text and f"(Team A wins the set 50–{b})" in text
    with pytest.raises(SettingsError):
        make_settings("X", "competitive", "pairs", team_set=50)
    with pytest.raises(SettingsError):
        make_settings("X", "competitive", "teams", team_size=4, team_set=0)
    s = make_settings("X", "competitive", "teams", team_size=4, preset="team-pairs", team_set=75)
    assert s.team_set == 75 and Settings.from_json(s.to_json()) == s
    assert "team_set" not in make_settings("X", "competitive", "teams", team_size=4).to_json()
    assert "(Team A wins the set 50" in run("standings", event)
    assert "the match is over: Team A won it at 50" in run("team", event, "change", "Team B", "--cross", code=1)
    doc = json.loads(run("standings", event, "--json"))
    rows = {r["team"]: r for r in doc["teams"]}
    assert rows["Team A"]["match_points"] == 2 and rows["Team B"]["match_points"] == 0
    mine = recompute(event, 200)
    for name, row in rows.items():
        assert (row["won"], row["efectividad"]) == (mine[name]["won"], mine[name]["efectividad"])
    assert rows["Team A"]["won"] + rows["Team B"]["won"] == len(played)
    players = {r["player"]: r for r in doc["players"]}
    assert players[f"{v}1"]["played"] + players[f"{v}5"]["played"] == players[f"{v}2"]["played"]
    assert players[f"{v}1"]["played"] == 3 and players[f"{h}5"]["played"] == 0
    assert "0 errors" in run("check", event)
    conn = sqlite3.connect(event)
    try:
        kinds = Counter(k for (k,) in conn.execute("SELECT kind FROM changes"))
    finally:
        conn.close()
    assert kinds["captain_change"] == 2 and kinds["table_reseated"] == 3
    assert kinds["table_seated"] == len(played) - 2


def test_a_sets_next_game_is_seated_when_the_venue_confirms_a_game(tmp_path: Path) -> None:
    """At the venue a set's game is recorded and confirmed like any table's; its confirmation seats
    the line's next game, whose table has its own link and page at once."""
    from starlette.testclient import TestClient

    from tests.tournament.test_venue import _auth, _game_of, _play, _server

    event = tmp_path / "set.db"
    run("new", event, "--name", "Sets", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--team-set", "3")
    for t in "AB":
        run("team", event, "add", f"Team {t}", "--pair", f"{t}1,{t}2", "--pair", f"{t}3,{t}4")
    run("pair", event)
    server = _server(event)
    try:
        client = TestClient(server.asgi)
        links = server.call(server.venue.links, "http://testserver")
        assert [x["table"] for x in links["tables"]] == [1, 2]
        token = links["tables"][0]["token"]
        state = _play(client, token, 1, 1, _game_of(event, 1, 1, seed=5), whole_hands=True)
        for side in state["sides"]:
            r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token),
                            json={"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side})
            assert r.status_code == 200, r.json()
            state = r.json()
        assert state["status"] == "confirmed"
        links = server.call(server.venue.links, "http://testserver")
        assert [x["table"] for x in links["tables"]] == [1, 2, 3]
        third = links["tables"][2]["token"]
        r = client.get("/api/v1/tables/1/3", headers=_auth(third))
        seated = client.get("/api/v1/tables/1/1", headers=_auth(token)).json()["game"]["players"]
        assert r.json()["game"]["players"] == seated  # the line's next game: the same players, the same seats
        assert client.get("/tables").status_code == 200
        # That game too is recorded and confirmed at its own table: its result is table 3's, not
        # table 1's (the same players in the same seats), and the line's next game is seated.
        state = _play(client, third, 1, 3, _game_of(event, 1, 3, seed=6), whole_hands=True)
        for side in state["sides"]:
            r = client.post("/api/v1/tables/1/3/confirm", headers=_auth(third),
                            json={"rev": state["rev"], ("seat" if state["by_seat"] else "side"): side})
            assert r.status_code == 200, r.json()
            state = r.json()
        assert state["status"] == "confirmed"
        links = server.call(server.venue.links, "http://testserver")
        assert [x["table"] for x in links["tables"]] == [1, 2, 3, 4]
    finally:
        server.close()
    assert games_in(run("tables", event)) == 2 and "(set to 3, in progress)" in run("tables", event)


def test_a_correction_that_undecides_a_set_seats_its_next_games(tmp_path: Path) -> None:
    event = set_of_two(tmp_path / "set3.db")
    while " wins the set " not in run("tables", event):
        a_wins_next(event)
    while open_tables(event):  # the other line's game, played out
        a_wins_next(event)
    assert open_tables(event) == [] and "(Team A wins the set 3–0)" in run("tables", event)
    # Four games, all Team A's: corrected, tables 1 and 2 become Team B's. After the first the set
    # is still Team A's (B, A, A, A: 3 at the fourth game); after the second it is 2-2, undecided,
    # and the lines' next games are seated again, after the round's last table.
    conn = sqlite3.connect(event)
    try:
        last = conn.execute("SELECT MAX(number) FROM round_tables").fetchone()[0]
        a_side = dict(conn.execute("SELECT t.number, s.side FROM seats s JOIN round_tables t ON t.id = s.table_id "
                                   "JOIN players p ON p.id = s.player_id WHERE p.name LIKE 'A%'"))
    finally:
        conn.close()
    assert last == 4
    for number in (1, 2):
        side = a_side[number]
        other = "EW" if side == "NS" else "NS"
        run("amend", event, "--round", 1, "--table", number, "--score", f"{other}=200,{side}=100",
            "--reason", "misread")
        if number == 1:
            assert open_tables(event) == [] and "(Team A wins the set 3–1)" in run("tables", event)
    waiting = open_tables(event)
    assert [n for n, _ in waiting] == [5, 6]
    assert games_in(run("tables", event)) == 4 and "(set to 3, in progress)" in run("tables", event)
    assert "provisional" in run("standings", event).lower()


def test_a_match_still_played_gives_no_match_points_until_it_is_decided(tmp_path: Path) -> None:
    # Two teams of two pairs: one match of two tables.  With none of its tables in, it was a drawn
    # match (1 match point each); 1-0 after the first table, a match won (2) and lost.  Its games
    # count as they come in, but the match only once its last table is in.
    event = tmp_path / "open.db"
    run("new", event, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--seed", "5")
    run("team", event, "add", "A", "--pair", "a1,a2", "--pair", "a3,a4")
    run("team", event, "add", "B", "--pair", "b1,b2", "--pair", "b3,b4")
    run("pair", event)

    def teams() -> dict[str, dict]:
        rows = json.loads(run("standings", event, "--by", "team", "--json"))["rows"]
        return {r["team"]: r for r in rows}

    for row in teams().values():
        assert (row["played"], row["match_points"], row["matches_won"], row["matches_drawn"],
                row["matches_lost"]) == (0, 0, 0, 0, 0), row
    run("result", event, "--table", 1, "--score", "NS=200,EW=100")
    now = teams()
    assert sorted(r["won"] for r in now.values()) == [0, 1]  # the game is in
    for row in now.values():
        assert (row["played"], row["match_points"], row["matches_won"], row["matches_lost"]) == (0, 0, 0, 0), row
    assert "provisional" in run("standings", event, "--by", "team").lower()
    shown = run("standings", event, "--by", "team", "--csv").splitlines()[0].split(",")
    assert shown[shown.index("matches_won"):shown.index("matches_lost") + 1] == [
        "matches_won", "matches_drawn", "matches_lost"]
    run("result", event, "--table", 2, "--score", "NS=200,EW=100")  # one game each: a drawn match
    for row in teams().values():
        assert (row["played"], row["match_points"], row["matches_drawn"]) == (1, 1, 1), row
    # The players' and pairs' rankings show the keys they say they are ranked by.
    for by in ("player", "pair"):
        table = run("standings", event, "--by", by, "--csv").splitlines()
        said = run("standings", event, "--by", by).split("ranked by ")[-1]
        assert said.startswith("wins") and {"wins", "byes"} <= set(table[0].split(",")), (table[0], said)


def test_the_captains_change_refused_where_it_does_not_apply(tmp_path: Path) -> None:
    six = tmp_path / "six.db"
    run("new", six, "--name", "Six", "--game", "competitive", "--format", "teams", "--team-size", "6",
        "--team-set", "5")
    for t in "AB":
        run("team", six, "add", f"Team {t}", *[x for i in (1, 3, 5) for x in ("--pair", f"{t}{i},{t}{i + 1}")])
    run("pair", six)
    assert "the draw cross is for teams of two pairs" in run("team", six, "change", "Team A", "--cross", code=1)
    plain = tmp_path / "plain.db"
    run("new", plain, "--name", "Plain", "--game", "competitive", "--format", "teams", "--team-size", "4")
    assert "for matches played as sets" in run("team", plain, "change", "Team A", "--cross", code=1)


def test_simulate_plays_each_set_to_its_winner(tmp_path: Path) -> None:
    """``simulate --team-set N``: each match's games are played, through the result path, until the
    set is won (a line's game begun then played out); nothing is left waiting."""
    from tournament.event import public as pub
    from tournament.event.files import open_event

    event = tmp_path / "sets.db"
    out = run("simulate", event, "--format", "teams", "--teams", 4, "--rounds", 2, "--team-set", 3, "-q")
    assert "4 players" not in out and "16 players, 2 rounds" in out
    assert open_tables(event, 1) == [] and open_tables(event, 2) == []
    text = run("tables", event)
    assert text.count(" wins the set ") == 2 and "in progress" not in text
    store = open_event(event)
    try:
        assert store.settings.team_set == 3
        data = pub.public_data(store)
    finally:
        store.close()
    games = 0
    for r in data["rounds"]:
        matches = pub.round_matches(data, r)
        assert len(matches) == 2
        for m in matches:
            won, lost = (float(x.replace("½", ".5")) for x in m["won_at"].split("–"))
            assert m["finished"] and m["winner"] is not None and won >= 3 > lost
            # more than the first two tables: a set to 3 needs at least three games
            assert len(m["tables"]) >= 3
        games += len(r["tables"])
    assert f"{games} games" in out
    assert "0 errors" in run("check", event)
    assert "--team-set is for --format teams" in run("simulate", tmp_path / "x.db", "--format", "pairs",
                                                     "--team-set", 3, code=2)

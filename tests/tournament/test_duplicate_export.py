"""A duplicate event's exports hold its real standings: the JSON export's ``standings``, the CSV
export's ``standings.csv`` and the event file's browsing ``standings`` table are the ones ``standings
--csv``/``--json`` print (duplicate pairs by matchpoints and IMPs; duplicate teams by victory points
and IMPs), never the all-zero ranking of games a duplicate event's rounds do not have; and the board
results are exported (``boards.csv``, duplicate teams' ``team_boards.csv``)."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

from typer.testing import CliRunner

from tournament.cli import app

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def rows_of(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(path.read_text())))


def test_duplicate_pairs_export_their_matchpoints_and_boards(tmp_path: Path) -> None:
    event = tmp_path / "pairs.db"
    run("simulate", event, "--format", "duplicate", "--tables", 3, "--rounds", 3, "--seed", 5, "-q")
    doc = json.loads(run("standings", event, "--json"))
    assert any(r["matchpoints"] for r in doc["pairs"])
    exported = json.loads(run("export", event, "-o", "-"))
    assert exported["standings"] == doc == exported["duplicate_standings"]
    out = tmp_path / "out"
    said = run("export", event, "-o", out, "--csv")
    assert "boards" in said
    printed = list(csv.DictReader(io.StringIO(run("standings", event, "--csv"))))
    assert rows_of(out / "standings.csv") == printed
    assert printed[0]["matchpoints"] and "played" not in printed[0]
    boards = rows_of(out / "boards.csv")
    assert len(boards) == 18  # 3 tables, 3 rounds, 2 boards a round
    traveller = {(r["round"], r["table"], t["board"]): r for t in exported["travellers"] for r in t["results"]}
    for b in boards:
        mine = traveller[(int(b["round"]), int(b["table"]), int(b["board"]))]
        assert (int(b["ns_points"]), int(b["ew_points"])) == (mine["ns_points"], mine["ew_points"])
        assert int(b["ns_pair"]) == mine["ns"] and int(b["ew_pair"]) == mine["ew"]
        if not mine["too_few"]:
            assert int(b["ns_matchpoints"]) == mine["ns_matchpoints"] and int(b["ns_imps"]) == mine["ns_imps"]
            assert int(b["ew_matchpoints"]) == mine["top"] - mine["ns_matchpoints"]
    with sqlite3.connect(event) as db:  # the snapshot people browse: as `standings --csv` has it
        db.row_factory = sqlite3.Row
        snap = [dict(r) for r in db.execute("SELECT * FROM standings")]
    assert [(r["rank"], r["pair"], r["matchpoints"], r["imps"], r["provisional"]) for r in snap] == \
        [(int(r["rank"]), int(r["pair"]), int(r["matchpoints"]), int(r["imps"]), 0) for r in printed]


def test_duplicate_teams_export_the_team_standings(tmp_path: Path) -> None:
    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points",
        "-q")
    doc = json.loads(run("standings", event, "--json"))
    exported = json.loads(run("export", event, "-o", "-"))
    assert exported["standings"] == doc and "player_standings" not in exported
    out = tmp_path / "out"
    run("export", event, "-o", out, "--csv")
    printed = list(csv.DictReader(io.StringIO(run("standings", event, "--csv"))))
    assert rows_of(out / "standings.csv") == printed == rows_of(out / "teams.csv")
    assert len(rows_of(out / "boards.csv")) == 16  # 2 matches of 2 tables, 2 rounds, 2 boards
    team_boards = rows_of(out / "team_boards.csv")
    assert sorted(int(b["imps"]) for b in team_boards) == \
        sorted(b["imps"] for m in exported["duplicate_team_matches"] for b in m["boards"])
    with sqlite3.connect(event) as db:
        db.row_factory = sqlite3.Row
        snap = [dict(r) for r in db.execute("SELECT * FROM standings")]
    assert [(r["team"], r["victory_points"]) for r in snap] == \
        [(r["team"], float(r["victory_points"])) for r in printed]


def test_boards_dealt_without_a_seed_differ_and_are_not_dealt_over(tmp_path: Path) -> None:
    """Without --seed each event's boards are dealt from a fresh seed, said and kept (--seed N deals
    them again); boards dealt again over the event's need --replace."""
    import re

    dealt, seeds = [], []
    for name in ("a.db", "b.db"):
        event = tmp_path / name
        run("new", event, "--name", "Club", "--game", "competitive", "--format", "duplicate")
        said = run("boards", event, "--boards", 2)
        seeds.append(re.search(r"dealt with seed (\d+) \(--seed \1 deals them again\)", said).group(1))
        dealt.append(json.loads(run("boards", event, "--json")))
        assert f"dealt with seed {seeds[-1]}" in run("boards", event)
    assert dealt[0] != dealt[1] and seeds[0] != seeds[1]
    again = tmp_path / "again.db"
    run("new", again, "--name", "Club", "--game", "competitive", "--format", "duplicate")
    run("boards", again, "--boards", 2, "--seed", seeds[0])
    assert json.loads(run("boards", again, "--json")) == dealt[0]
    event = tmp_path / "a.db"
    refused = run("boards", event, "--boards", 10, code=1)
    assert refused.strip() == "error: the event already has boards 1 to 2: --replace to store these instead"
    assert json.loads(run("boards", event, "--json")) == dealt[0]
    run("boards", event, "--boards", 2, "--seed", seeds[0])  # the very same boards: nothing replaced
    assert "stored 10 boards" in run("boards", event, "--boards", 10, "--seed", 9, "--replace")


def test_duplicate_team_tables_show_their_boards_and_the_team_with_the_bye(tmp_path: Path) -> None:
    """``tournament tables`` of duplicate teams: a table's result column is its boards' results (not
    ``to play`` under a line saying who won the match), and a team's bye names the team."""
    event = tmp_path / "rr.db"
    run("new", event, "--name", "RR", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--team-pairing", "round-robin", "--duplicate", "--lang", "es")
    for name in ("Uno", "Dos", "Tres"):
        run("team", event, "add", name, "--pair", f"{name}a,{name}b", "--pair", f"{name}c,{name}d")
    run("boards", event, "--boards", 6, "--seed", 2)
    run("pair", event)
    out = run("tables", event, "--round", 1, "--wide")
    assert "bye: Uno (pair #1 Unoa & Unob, pair #2 Unoc & Unod)" in out
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    out = run("tables", event, "--round", 1, "--wide")
    assert "B1 NS 30 EW 0 · B2 to play" in out
    for table in (1, 2):
        for board in (1, 2):
            run("result", event, "--round", 1, "--table", table, "--board", board, "--score", "NS=10,EW=0",
                "--replace")
    out = run("tables", event, "--round", 1, "--wide")
    assert "to play" not in out and out.count("B1 NS 10 EW 0 · B2 NS 10 EW 0") == 2
    assert "encuentro empatado" in out  # the match's line: the hall's words, in the event's language


def test_info_of_a_duplicate_event_says_its_ranking_and_boards(tmp_path: Path) -> None:
    """``info`` of a duplicate event: its own ranking and its boards (how many, the seed), never the
    bye scores, the ranking of games or the forfeit score, which do not apply to it."""
    event = tmp_path / "d.db"
    run("new", event, "--name", "Club", "--game", "competitive", "--format", "duplicate", "--ranking", "imps")
    out = run("info", event)
    assert "ranking: pairs by IMPs, then matchpoint percentage" in out  # (as the pairs are sorted)
    assert "boards: none yet (tournament boards EVENT --boards N)" in out
    run("boards", event, "--boards", 4, "--seed", 11)
    out = run("info", event)
    assert "boards: 4 (1 to 4), dealt with seed 11" in out
    # the event's own seed (the pairings') is named so, never a bare "seed: 0" beside the boards' seed
    assert "\npairing seed: 0 (the pairings' draw, not the boards': their seed is on the boards line)\n" in out
    assert "\nseed:" not in out
    for gone in ("bye scores", "wins, then", "forfeit score", "sit-out"):
        assert gone not in out
    teams = tmp_path / "t.db"
    run("new", teams, "--name", "Cuartetas", "--game", "competitive", "--format", "teams", "--team-size", "4",
        "--duplicate", "--victory-points")
    out = run("info", teams)
    assert "ranking: teams by victory points, then the IMP difference, then the IMPs won" in out
    assert "forfeit score" not in out and "bye scores" not in out and "boards: none yet" in out


def _served_standings(event: Path) -> dict:
    import pytest

    testclient = pytest.importorskip("starlette.testclient")
    from tournament.web.app import VenueServer

    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        return testclient.TestClient(server.asgi).get("/api/v1/standings").json()
    finally:
        server.close()


def test_the_venue_feed_gives_a_duplicate_events_real_standings(tmp_path: Path) -> None:
    """``/api/v1/standings`` of duplicate pairs: ``standings`` is the pairs as ``standings --json``
    ranks them (it was the all-zero ranking of games beside them), its ``columns`` and
    ``tiebreaks`` name those rows, and no ranking of games is left (players all at zero)."""
    event = tmp_path / "pairs.db"
    run("simulate", event, "--format", "duplicate", "--tables", 3, "--rounds", 3, "--seed", 5, "-q")
    doc = json.loads(run("standings", event, "--json"))
    feed = _served_standings(event)
    assert feed["standings"] == doc["pairs"] == feed["pairs"]
    assert any(r["matchpoints"] for r in feed["standings"])
    assert {k: v for k, v in feed.items() if k not in ("standings", "columns", "tiebreaks")} == doc
    assert [c["key"] for c in feed["columns"]] == list(feed["standings"][0])
    assert feed["tiebreaks"] == ["percent", "imps"] and "players" not in feed


def test_the_venue_feed_gives_duplicate_teams_their_real_standings(tmp_path: Path) -> None:
    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points",
        "-q")
    doc = json.loads(run("standings", event, "--json"))
    feed = _served_standings(event)
    assert feed["standings"] == doc["teams"] == feed["teams"]
    assert feed["team_ranked_by"] == doc["ranked_by"] == "victory-points"
    assert feed["provisional"] is doc["provisional"] is False  # (the games' ranking said True: no games)
    assert feed["tiebreaks"] == ["victory_points", "imps", "imps_for"]
    assert [c["key"] for c in feed["columns"]] == list(feed["standings"][0])
    assert "players" not in feed and "pairs" not in feed


def test_duplicate_teams_team_matches_csv_names_its_imps(tmp_path: Path) -> None:
    """Duplicate teams' ``team_matches.csv`` says IMPs, victory points and boards under their own
    names (it put the IMPs under ``home_games``/``away_games``, the boards under ``done``/``count``),
    each match's IMPs those of its boards in ``team_boards.csv``."""
    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points",
        "-q")
    out = tmp_path / "out"
    run("export", event, "-o", out, "--csv")
    header = (out / "team_matches.csv").read_text().splitlines()[0].split(",")
    assert header == ["round", "first", "last", "home", "away", "home_imps", "away_imps", "home_vp", "away_vp",
                      "home_points", "away_points", "boards_in", "boards", "finished"]
    boards = rows_of(out / "team_boards.csv")
    matches = rows_of(out / "team_matches.csv")
    assert len(matches) == 4
    for m in matches:
        mine = [int(b["imps"]) for b in boards if (b["round"], b["tables"]) == (m["round"], f"{m['first']}-{m['last']}")]
        assert (int(m["home_imps"]), int(m["away_imps"])) == (sum(i for i in mine if i > 0), -sum(i for i in mine if i < 0))
        assert int(m["boards_in"]) == int(m["boards"]) == len(mine) == 2
        assert abs(float(m["home_vp"]) + float(m["away_vp"]) - 20) < 0.02


def test_info_of_an_event_of_games_names_its_pairing_seed(tmp_path: Path) -> None:
    event = tmp_path / "open.db"
    run("new", event, "--name", "Open", "--game", "competitive", "--format", "pairs", "--seed", 7)
    out = run("info", event)
    assert "\npairing seed: 7 (the first round's draw and random tie order)\n" in out and "\nseed:" not in out


def test_duplicate_teams_team_matches_json_names_its_imps(tmp_path: Path) -> None:
    """The JSON export's ``team_matches`` of duplicate teams names what it holds as
    ``team_matches.csv`` does: the IMPs under ``home_imps``/``away_imps`` (they were under
    ``home_games``/``away_games``), the boards in under ``boards_in`` and the round's boards under
    ``board_count`` (they were ``done``/``count``), ``boards`` each board itself; a team event of
    games keeps its names."""
    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 2, "--victory-points",
        "-q")
    doc = json.loads(run("export", event, "-o", "-"))
    out = tmp_path / "out"
    run("export", event, "-o", out, "--csv")
    csv_rows = rows_of(out / "team_matches.csv")
    assert len(doc["team_matches"]) == len(csv_rows) == 4
    by_match = {(m["round"], m["home"], m["away"]): m for m in doc["duplicate_team_matches"]}
    for m, row in zip(doc["team_matches"], csv_rows):
        assert not {"home_games", "away_games", "home_text", "away_text", "done", "count"} & set(m), m
        assert set(m) >= {"round", "first", "last", "home", "away", "home_imps", "away_imps", "home_vp", "away_vp",
                          "home_points", "away_points", "boards_in", "board_count", "boards", "finished"}
        whole = by_match[(m["round"], m["home"]["name"], m["away"]["name"])]
        assert (m["home_imps"], m["away_imps"]) == (whole["home_imps"], whole["away_imps"])
        assert m["boards"] == whole["boards"] and m["boards_in"] == len(whole["boards"]) == m["board_count"] == 2
        for key in ("home_imps", "away_imps", "home_points", "away_points", "boards_in"):  # the CSV's, as said
            assert str(m[key]) == row[key], key
        assert str(m["board_count"]) == row["boards"] and str(m["home_vp"]) == row["home_vp"]
    # A team event of games: its matches' games under home_games/away_games, done of count, as before.
    games = tmp_path / "games.db"
    run("simulate", games, "--format", "teams", "--teams", 4, "--rounds", 1, "-q")
    plain = json.loads(run("export", games, "-o", "-"))["team_matches"]
    assert plain and all({"home_games", "away_games", "home_text", "away_text", "done", "count"} <= set(m)
                         and "home_imps" not in m and "boards_in" not in m for m in plain)


def test_the_export_lists_the_boards_a_table_did_not_play(tmp_path: Path) -> None:
    """A board marked not played has no result, so no row in the travellers or ``boards.csv``: the
    export lists it apart (``boards_not_played``, ``boards_not_played.csv``), with its reason."""
    csv_file = tmp_path / "p6.csv"
    csv_file.write_text("name,partner,pair\nAna,Bo,Primos\nCruz,Dani,Dupla\nEva,Fede,Halcones\nGil,Hugo,Leones\n"
                        "Ines,Juan,Tigres\nKiko,Luz,Pumas\n", encoding="utf-8")
    event = tmp_path / "e.db"
    run("new", event, "--name", "E", "--game", "competitive", "--format", "duplicate", "--movement", "howell")
    run("add", event, "--csv", csv_file)
    run("boards", event, "--boards", 10, "--seed", 7)
    run("pair", event)
    run("result", event, "--round", 1, "--table", 3, "--board", 1, "--not-played", "--reason", "ran out of time",
        "--by", "Marta")
    exported = json.loads(run("export", event, "-o", "-"))
    [row] = exported["boards_not_played"]
    assert {k: row[k] for k in ("round", "table", "board", "reason", "marked_by")} == \
        {"round": 1, "table": 3, "board": 1, "reason": "ran out of time", "marked_by": "Marta"}
    assert isinstance(row["ns"], int) and isinstance(row["ew"], int) and row["marked_at"]
    out = tmp_path / "out"
    assert "boards_not_played" in run("export", event, "-o", out, "--csv")
    [line] = rows_of(out / "boards_not_played.csv")
    assert (line["round"], line["table"], line["board"], line["reason"]) == ("1", "3", "1", "ran out of time")

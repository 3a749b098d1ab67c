"""The 24-team cuartetas event of issue 37 run through the venue (points 6 and "done when"): 96
players, 6 Swiss rounds (with ``--long``; by default 12 teams over 4 rounds, the same paths),
every game sent by its table's phone hand by hand and confirmed by both sides, a team withdrawn
and a reserve substituted at the director's terminal beside the server, a pair's forfeit, a
result corrected from the director's page; each match's line on the director's page and the
hall's filling in as its tables confirm; and the team standings worked out here from
the stored games, compared with ``standings --json`` and the feed's ``/api/v1/standings``.

The server runs in-process (an ASGI test client, as tests/tournament/test_venue.py drives it)."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from domrec import notation

from tests.tournament.test_teams import recompute, round_seats, run, write_csv
from tests.tournament.test_venue import _auth, _game_of, _key, _server

starlette_testclient = pytest.importorskip("starlette.testclient")

pytestmark = pytest.mark.slow  # 44 games sent a hand a request, each confirmed (134 with --long: 20-60 s)

BASE = "http://testserver"


def _seated(event: Path, round_no: int) -> dict[int, dict[str, tuple[str, set[str]]]]:
    """Each table of the round: side -> (its team's name, its players' names), from the file."""
    out: dict[int, dict[str, tuple[str, set[str]]]] = {}
    for table, side, player, team in round_seats(event, round_no):
        name, players = out.setdefault(table, {}).setdefault(side, (team, set()))
        assert name == team, "a side of two teams"
        players.add(player)
    return out


def _games_text(x: float) -> str:
    """Games as the match line reads them: 2, 1½, ½, 0."""
    whole = int(x)
    return (str(whole) if whole or x == whole else "") + ("½" if x != whole else "")


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


class Round:
    """One round as the test sees it: each table's two teams (from the seats the phones were
    given) and each table's result as the venue answered it, summed into matches here."""

    def __init__(self, number: int, seated: dict[int, dict[str, tuple[str, set[str]]]]) -> None:
        self.number = number
        self.sides = {table: {side: team for side, (team, _) in sides.items()} for table, sides in seated.items()}
        self.results: dict[int, dict] = {}

    def match_of(self, table: int) -> list[int]:
        first = table - (table - 1) % 2
        return [first, first + 1]

    def expected(self, table: int) -> dict:
        """The match of ``table`` as it stands: home (N-S at its first table), away, the games
        each has won (a drawn game a half), how many of its tables are in."""
        tables = self.match_of(table)
        home, away = self.sides[tables[0]]["NS"], self.sides[tables[0]]["EW"]
        games = {home: 0.0, away: 0.0}
        done = 0
        for t in tables:
            res = self.results.get(t)
            if res is None:
                continue
            done += 1
            for side, team in self.sides[t].items():
                games[team] += 1.0 if res["winner"] == side else 0.5 if res["winner"] is None else 0.0
        return {"tables": tables, "home": home, "away": away, "home_games": games[home], "away_games": games[away],
                "done": done, "count": 2}


def _hall_line(m: dict) -> str:
    """The hall's line of a match, in the words of the pages."""
    state = (f"({m['done']} of 2 tables in)" if m["done"] < 2
             else "(match drawn)" if m["home_games"] == m["away_games"]
             else f"({m['home'] if m['home_games'] > m['away_games'] else m['away']} wins the match)")
    return (f"Tables {m['tables'][0]}-{m['tables'][1]}: {m['home']} {_games_text(m['home_games'])} – "
            f"{_games_text(m['away_games'])} {m['away']} {state}")


@pytest.mark.parametrize("teams, rounds", [
    pytest.param(12, 4, id="12-teams-4-rounds"),
    pytest.param(24, 6, id="24-teams-6-rounds", marks=pytest.mark.long),
])
def test_cuartetas_swiss_rounds_through_the_venue(tmp_path, teams, rounds):
    """Issue 37's event (24 teams, 6 rounds: 134 games) under ``--long``; by default half the teams
    over four rounds (44 games), which takes every path of it: the withdrawal and the reserve from
    round 3 on (and so a team's bye), the forfeit in round 4, the hall's lines in rounds 1 and 4,
    the correction of round 2, the standings worked out here against both of the server's."""
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa de cuartetas", "--game", "competitive", "--format", "teams",
        "--team-size", "4", "--preset", "femundo-teams", "--seed", "5")
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", teams, reserves={2: 1}))
    server = _server(event)
    try:
        client = starlette_testclient.TestClient(server.asgi)
        director = _auth(_key(server.call(server.venue.links, BASE)["director"]))
        for number in range(1, rounds + 1):
            if number == 3:
                # At the director's terminal, beside the running server: a team withdrawn, and a
                # reserve into a pair, both from round 3 on.
                assert "from round 3" in run("team", event, "withdraw", "Team 07")
                out = run("team", event, "sub", "Team 02", "--out", "Player 02-1", "--in", "Reserve 02-0")
                assert "Reserve 02-0 plays in pair T02 pair 1" in out
            r = client.post("/api/v1/director/pair", headers=director, json={})
            assert r.status_code == 200 and r.json()["round"] == number, r.json()
            tokens = {t["table"]: t["token"] for t in server.call(server.venue.links, BASE)["tables"]
                      if t["round"] == number}
            assert len(tokens) == (teams if number < 3 else teams - 2)  # from round 3, one team fewer: a team's bye
            seated = _seated(event, number)
            assert sorted(seated) == sorted(tokens)
            rnd = Round(number, seated)
            playing = {team for sides in rnd.sides.values() for team in sides.values()}
            if number >= 3:
                assert "Team 07" not in playing and len(playing) == teams - 2
                players = {p for sides in seated.values() for _, names in sides.values() for p in names}
                assert "Reserve 02-0" in players and "Player 02-1" not in players
            for table in sorted(tokens):
                if number == 4 and table == 3:
                    # One pair does not come: the director enters the forfeit at the terminal.
                    run("result", event, "--table", "3", "--forfeit", "NS", "--round", "4")
                    rnd.results[table] = {"scores": {"NS": 0, "EW": 200}, "winner": "EW"}
                else:
                    rnd.results[table] = _play_and_confirm(client, tokens[table], number, table, event)
                _the_match_fills_in(client, director, rnd, table, hall=number in (1, 4))
            # Nothing of the match lines counted before its tables: every match finished.
            overview = client.get("/api/v1/director", headers=director).json()
            assert all(m["finished"] for m in overview["matches"]) and overview["can_pair"]
        # A result corrected from the director's page: round 2, table 5, the sheet misread.
        r = client.post("/api/v1/tables/2/5/result", headers=director,
                        json={"scores": {"NS": 10, "EW": 200}, "reason": "sheet misread"})
        assert r.status_code == 200, r.json()
        feed = client.get("/api/v1/standings").json()
    finally:
        server.close()
    cli = json.loads(run("standings", event, "--json"))
    mine = recompute(event, 200)
    keys = ("won", "points_for", "points_against", "efectividad", "match_points", "played")
    for doc in (cli, feed):
        rows = {row["team"]: row for row in doc["teams"]}
        assert set(rows) == set(mine)
        for name, expect in mine.items():
            assert tuple(rows[name][k] for k in keys) == tuple(expect[k] for k in keys), name
        order = [(-row["won"], -row["efectividad"]) for row in doc["teams"]]
        assert order == sorted(order), "femundo-teams: games won, then efectividad"
        assert rows["Team 07"]["status"] == "withdrawn" and rows["Team 07"]["played"] == 2
    assert [r["team"] for r in feed["teams"]] == [r["team"] for r in cli["teams"]]
    assert feed["players"] == cli["players"] and feed["pairs"] == cli["pairs"]
    played = {r["player"]: r["played"] for r in cli["players"]}
    assert (played["Player 02-1"], played["Reserve 02-0"], played["Player 02-0"]) == (2, rounds - 2, rounds)
    # The corrected table and the forfeit, as stored.
    conn = sqlite3.connect(event)
    try:
        stored = dict(conn.execute("SELECT r.number || '/' || t.number, x.kind FROM results x JOIN round_tables t "
                                   "ON t.id = x.table_id JOIN rounds r ON r.id = t.round_id"))
    finally:
        conn.close()
    assert stored["2/5"] == "manual" and stored["4/3"] == "forfeit"
    assert sum(1 for k in stored.values() if k == "record") == teams * 2 + (teams - 2) * (rounds - 2) - 2
    assert "0 errors" in run("check", event)


def _play_and_confirm(client, token: str, round_no: int, table_no: int, event: Path) -> dict:
    """The table's game as domrec's simulator plays it, sent by the table's phone a hand a
    request, then confirmed by each side; the result the venue answered."""
    record = _game_of(event, round_no, table_no, seed=round_no * 100 + table_no)
    url = f"/api/v1/tables/{round_no}/{table_no}"
    state = client.get(url, headers=_auth(token)).json()
    for text in [*_typed_hands(record), "y"]:
        if text == "y" and not state["game"]["in_hand"]:
            break  # (the last hand closed by its own lines: no y to send)
        r = client.post(f"{url}/dgn", headers=_auth(token), json={"rev": state["rev"], "text": text})
        assert r.status_code == 200, (text, r.json())
        state = r.json()
    assert state["game"]["over"]
    for side in state["sides"]:
        r = client.post(f"{url}/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.json()
        state = r.json()
    assert state["status"] == "confirmed" and state["result"]["verified"]
    return {"scores": state["result"]["scores"], "winner": state["result"]["winner"]}


def _typed_hands(record) -> list[str]:
    """The game typed as a table's phone sends it (the deal written), a hand a request: the lines
    of :func:`domrec.session.requests_for` without its replay (the server's answer says whether
    the last hand still wants its ``y``)."""
    hands: list[list[str]] = []
    for line in notation.dumps_typed(record, keep_deal=True).splitlines():
        if line and not line.startswith("["):
            if line.startswith("hand ") or not hands:
                hands.append([])
            hands[-1].append(line)
    return ["\n".join(lines) for lines in hands]


def _the_match_fills_in(client, director: dict, rnd: Round, table: int, hall: bool) -> None:
    """After ``table``'s result: its match on the director's page says what the tables in so far
    add up to (the other matches unchanged), and, with ``hall``, the hall's round page says so
    in its match line."""
    want = rnd.expected(table)
    overview = client.get("/api/v1/director", headers=director).json()
    assert overview["round"] == rnd.number
    got = next(m for m in overview["matches"] if m["tables"] == want["tables"])
    assert ({k: got[k] for k in want}, got["finished"]) == (want, want["done"] == 2), (rnd.number, table)
    assert (got["home_text"], got["away_text"]) == (_games_text(want["home_games"]), _games_text(want["away_games"]))
    later = [m for m in overview["matches"] if m["tables"][0] > table]
    assert all(m["done"] == 0 for m in later)
    if hall:
        page = _text(client.get("/tables").text)
        assert _hall_line(want) in page, (_hall_line(want), rnd.number, table)

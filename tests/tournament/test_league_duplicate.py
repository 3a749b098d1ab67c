"""A league over a duplicate event's standings: its pairs are numbered, not named, by ``pair``."""

from __future__ import annotations

from tournament.event import league


def test_a_league_by_pair_over_a_duplicate_event_finds_its_pairs_by_name():
    """A duplicate event's feed lists its pairs as ``standings --json`` prints them: ``pair`` is the
    movement's number (an int) and ``name`` the pair's name.  The league took the number for the
    name and gave it to the name's key, which stopped the league's page (TypeError: a 500 at the
    hub); now the pair is its name, summed with the same pair of a pairs event."""
    duplicate = {"pairs": [{"rank": 1, "pair": 3, "name": "Ana & Bo", "direction": "NS", "boards": 4},
                           {"rank": 2, "pair": 8, "name": "Cy & Di", "direction": "EW", "boards": 4}]}
    pairs_event = {"pairs": [{"rank": 1, "pair": "Ana & Bo", "played": 3, "won": 2, "points_for": 300,
                              "points_against": 250}]}
    table = league.standings("Liga", [("dup", duplicate), ("club", pairs_event)], by="pair")
    rows = {r["player"]: r for r in table["players"]}
    assert set(rows) == {"Ana & Bo", "Cy & Di"}
    assert (rows["Ana & Bo"]["events"], rows["Ana & Bo"]["won"]) == (2, 2)
    assert (rows["Cy & Di"]["events"], rows["Cy & Di"]["played"]) == (1, 0)


def test_a_league_by_player_credits_each_player_of_a_duplicate_pair_with_its_place():
    """A duplicate pairs event's standings list pairs, not players, and no games: the league by
    player found no rows and the event counted for no one.  Now each partner (the standings'
    ``members``, by the pair's number) has the event, no games (a pair's result there is a place
    and a percentage), and its place and score in ``places``; the same player's games of a pairs
    event are added up beside it."""
    duplicate = {"pairs": [{"rank": 1, "pair": 3, "name": "Ana & Bo", "direction": "NS", "boards": 4,
                            "matchpoints": 12, "top": 16, "percent": 75.0, "imps": 9},
                           {"rank": 2, "pair": 8, "name": "Cy & Di", "direction": "EW", "boards": 4,
                            "matchpoints": 4, "top": 16, "percent": 25.0, "imps": -9}],
                 "members": {"3": ["Ana", "Bo"], "8": ["Cy", "Di"]}}
    swiss = {"players": [{"rank": 1, "player": "Ana", "played": 3, "won": 2, "drawn": 0, "lost": 1,
                          "points_for": 300, "points_against": 250}]}
    table = league.standings("Liga", [("dup", duplicate), ("club", swiss)])
    rows = {r["player"]: r for r in table["players"]}
    assert set(rows) == {"Ana", "Bo", "Cy", "Di"}
    assert (rows["Ana"]["events"], rows["Ana"]["played"], rows["Ana"]["won"], rows["Ana"]["points_for"]) == \
        (2, 3, 2, 300)
    assert (rows["Bo"]["events"], rows["Bo"]["played"], rows["Bo"]["points_for"]) == (1, 0, 0)
    assert rows["Bo"]["places"] == rows["Ana"]["places"] == [
        {"event": "dup", "rank": 1, "of": 2, "percent": 75.0, "matchpoints": 12, "top": 16, "imps": 9}]
    assert rows["Di"]["places"] == [{"event": "dup", "rank": 2, "of": 2, "percent": 25.0, "matchpoints": 4,
                                     "top": 16, "imps": -9}]
    # By club: the event's four players' rows added up (an event, no games) for its club.
    clubs = league.standings("Liga", [("dup", duplicate, "Norte")], by="club")["players"]
    assert [(r["player"], r["events"], r["played"]) for r in clubs] == [("Norte", 1, 0)]
    # A duplicate event from a venue before ``members``: no players to credit, as before.
    assert league.standings("Liga", [("dup", {"pairs": duplicate["pairs"]})])["players"] == []


def test_a_league_by_player_credits_each_player_of_a_duplicate_team_with_its_matches():
    """Duplicate teams: each player who sat for the team has its matches (played, won, drawn,
    lost, as a row a team counts them) and its place; IMPs are not game points."""
    teams = {"teams": [{"rank": 1, "team": "Norte", "id": 2, "played": 3, "won": 2, "drawn": 1, "lost": 0,
                        "match_points": 5, "victory_points": None, "imps_for": 40, "imps_against": 12, "imps": 28},
                       {"rank": 2, "team": "Sur", "id": 1, "played": 3, "won": 0, "drawn": 1, "lost": 2,
                        "match_points": 1, "victory_points": None, "imps_for": 12, "imps_against": 40, "imps": -28}],
             "members": {"2": ["Ana", "Bo", "Cy", "Di"], "1": ["Eva", "Fe", "Gil", "Hu"]}}
    rows = {r["player"]: r for r in league.standings("Liga", [("cuartetas", teams)])["players"]}
    assert len(rows) == 8
    for who in ("Ana", "Bo", "Cy", "Di"):
        r = rows[who]
        assert (r["events"], r["played"], r["won"], r["drawn"], r["lost"], r["points_for"]) == (1, 3, 2, 1, 0, 0)
        assert r["places"] == [{"event": "cuartetas", "rank": 1, "of": 2, "imps": 28, "match_points": 5,
                                "imps_for": 40, "imps_against": 12}]
    assert [r["player"] for r in league.standings("Liga", [("cuartetas", teams)])["players"]][:4] == \
        ["Ana", "Bo", "Cy", "Di"]  # ranked by games won: the winning team's players first
    # By team, as before (its matches), with its place besides.
    by_team = {r["player"]: r for r in league.standings("Liga", [("cuartetas", teams)], by="team")["players"]}
    assert (by_team["Norte"]["won"], by_team["Norte"]["places"][0]["rank"]) == (2, 1)


def test_simulated_duplicate_events_count_for_their_players_on_the_feed(tmp_path):
    """From the events themselves: the feed's standings (what the hub adds up) name each pair's and
    team's players, and the league by player gives every one of them a row with their pair's or
    team's place."""
    import json

    from typer.testing import CliRunner

    from tournament.cli import app
    from tournament.event import feed
    from tournament.event.files import open_event

    runner = CliRunner()
    pairs, teams = tmp_path / "pairs.db", tmp_path / "teams.db"
    for path, args in ((pairs, ["--format", "duplicate", "--tables", "3", "--rounds", "3"]),
                       (teams, ["--format", "teams", "--duplicate", "--teams", "4", "--rounds", "3"])):
        r = runner.invoke(app, ["simulate", str(path), *args, "--seed", "5", "-q"])
        assert r.exit_code == 0, r.output
    docs = []
    for path in (pairs, teams):
        store = open_event(path)
        try:
            docs.append((path.stem, json.loads(json.dumps(feed.published_standings(store)))))
            everyone = {p.name for p in store.players()}
        finally:
            store.close()
        doc = docs[-1][1]
        assert {n for names in doc["members"].values() for n in names} == everyone
    # (the simulated events name their players alike: a league each)
    rows = {r["player"]: r for r in league.standings("Liga", docs[:1])["players"]}
    assert len(rows) == 12
    pair_doc, team_doc = docs[0][1], docs[1][1]
    for row in pair_doc["pairs"]:
        for who in pair_doc["members"][str(row["pair"])]:
            got = rows[who]
            assert (got["events"], got["played"]) == (1, 0)
            of = 3 if pair_doc["fields"] else 6  # a Mitchell ranks each direction's three pairs on its own
            assert got["places"] == [{"event": "pairs", "rank": row["rank"], "of": of, "percent": row["percent"],
                                      "matchpoints": row["matchpoints"], "top": row["top"], "imps": row["imps"]}]
    rows = {r["player"]: r for r in league.standings("Liga", docs[1:])["players"]}
    assert len(rows) == 16
    for row in team_doc["teams"]:
        for who in team_doc["members"][str(row["id"])]:
            got = rows[who]
            assert (got["played"], got["won"], got["drawn"], got["lost"]) == \
                (row["played"], row["won"], row["drawn"], row["lost"]) and got["played"] == 3
            assert got["places"][0]["rank"] == row["rank"] and got["places"][0]["of"] == 4


def test_rows_level_on_every_tie_break_share_a_rank():
    """Two players level on games won, difference and points for were ranked 2nd and 3rd by
    their names; an event's standings share the rank, and so does the league now (1, 2, 2, 4)."""
    swiss = {"players": [
        {"rank": 1, "player": "Zoe", "played": 2, "won": 2, "points_for": 400, "points_against": 100},
        {"rank": 2, "player": "Bea", "played": 2, "won": 1, "points_for": 300, "points_against": 250},
        {"rank": 2, "player": "Al", "played": 2, "won": 1, "points_for": 300, "points_against": 250},
        {"rank": 4, "player": "Cy", "played": 2, "won": 1, "points_for": 290, "points_against": 250}]}
    table = league.standings("Liga", [("club", swiss)])
    assert [(r["player"], r["rank"]) for r in table["players"]] == [("Zoe", 1), ("Al", 2), ("Bea", 2), ("Cy", 4)]
    by_played = league.standings("Liga", [("club", swiss)], ranked_by=("played",))
    assert [r["rank"] for r in by_played["players"]] == [1, 1, 1, 1]

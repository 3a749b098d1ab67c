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

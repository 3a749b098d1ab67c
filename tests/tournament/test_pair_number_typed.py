"""A number typed to name a pair (docs/tournament.md, "Withdrawal" and the numbering of pairs).

A pairs event shows each pair's number everywhere (the standings' *no.*, *Find your table*, the
score sheets), while a player keeps their own number inside the event.  ``withdraw club.db '#3'``
read as player #3 withdrew player 3's pair (Ann & Bo are pair 2: players 3 and 4), not the pair
the director had read as #3.  Where the two readings are two pairs, the number is refused naming
both; where they are one pair, or only one exists, it is taken."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tournament import open_event

from tests.tournament.test_duplicate_event import run


def _pairs(tmp_path: Path, count: int = 6) -> Path:
    path = tmp_path / "p.db"
    run("new", path, "--name", "P", "--game", "competitive", "--format", "pairs")
    for i in range(1, count + 1):
        run("add", path, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    return path


def _withdrawn(path: Path) -> list[str]:
    with open_event(path) as store:
        return [t.name for t in store.teams() if t.withdrawn is not None]


@pytest.mark.parametrize("command", [["withdraw"], ["remove"], ["sit-out"]])
def test_a_number_that_is_one_pair_and_another_pairs_player_is_refused_naming_both(tmp_path: Path, command) -> None:
    path = _pairs(tmp_path)
    out = run(*command, path, "#3", code=1)
    assert ("'#3' is ambiguous: pair #3 is Pair 3, and player #3 (North 2) plays in Pair 2; name the pair you "
            "mean: 'Pair 3' or 'Pair 2'") in out, out
    assert "ambiguous" in run(*command, path, "4", code=1)  # without '#' too: player 4 is South 2
    assert _withdrawn(path) == []
    with open_event(path) as store:
        assert len(store.teams()) == 6  # nothing removed


def test_a_number_that_names_one_pair_either_way_is_taken(tmp_path: Path) -> None:
    path = _pairs(tmp_path)
    assert "withdrew Pair 1 from round 1 on" in run("withdraw", path, "#1")  # pair 1 holds player 1
    assert "withdrew Pair 6 from round 1 on" in run("withdraw", path, "#12")  # no pair 12: player 12's pair
    assert "withdrew Pair 3 from round 1 on" in run("withdraw", path, "Pair 3")  # a name, as always
    assert "withdrew Pair 4 from round 1 on" in run("withdraw", path, "South 4")  # a member's name
    assert _withdrawn(path) == ["Pair 1", "Pair 3", "Pair 4", "Pair 6"]
    assert "back from round 1" in run("return", path, "#1")


def test_a_duplicate_events_number_is_the_movements(tmp_path: Path) -> None:
    """A duplicate event numbers its pairs in the movement: with Pair 2 removed before round 1, the
    movement's pair 2 is Pair 3 (id 3).  ``tournament pins`` numbered the players by the pair's id
    (#3 beside North 3, where the tables say pair 2)."""
    path = tmp_path / "d.db"
    run("new", path, "--name", "D", "--game", "competitive", "--format", "duplicate", "--movement", "mitchell")
    for i in range(1, 9):
        run("add", path, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    run("remove", path, "Pair 2")
    run("boards", path, "--boards", 8, "--seed", 5)
    run("pair", path)
    doc = json.loads(run("tables", path, "--json"))
    numbers = {r["ns_name"]: r["ns"] for r in doc["rows"]} | {r["ew_name"]: r["ew"] for r in doc["rows"]}
    assert numbers["Pair 3"] == 2
    # the PIN slips' list numbers each player by their pair's number in the movement, as the tables do
    pins = run("pins", path)
    assert "#2\tNorth 3\t" in pins and "#3\tNorth 4\t" in pins, pins
    # player #5 (North 3) is in Pair 3, the movement's pair 2; the movement's pair 5 is Pair 6
    out = run("withdraw", path, "#5", code=1)
    assert "'#5' is ambiguous: pair #5 is Pair 6, and player #5 (North 3) plays in Pair 3" in out, out
    # '#2': the movement's pair 2 is Pair 3, and player #2 (South 1) plays in Pair 1: refused too
    assert "pair #2 is Pair 3" in run("withdraw", path, "#2", code=1)

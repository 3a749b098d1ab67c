"""Two loose ends of the team events' round of fixes.

``tournament return`` of a pair (or a player) of a withdrawn team (docs/tournament.md, team events,
"Not yet") said the pair was back from the next round and logged its return, while the team stayed
withdrawn and the pair was never paired again: refused now, naming the team.  And a typed score no
game ends with, refused when entered now, is found by ``check`` where it was stored before."""

from __future__ import annotations

from pathlib import Path

from tournament import open_event
from tournament.store import desk as desk_sql

from tests.tournament.test_duplicate_event import run


def test_a_pair_of_a_withdrawn_team_does_not_come_back(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    run("new", path, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", "4")
    for team in ("Uno", "Dos", "Tres", "Cuatro"):
        run("team", path, "add", team, "--pair", f"{team} A,{team} B,1", "--pair", f"{team} C,{team} D,2")
    run("team", path, "withdraw", "Dos")
    with open_event(path) as store:
        before = len(desk_sql.trail(store))
    for key in ("Dos 1", "Dos C"):
        out = run("return", path, key, code=1)
        assert "plays for the team Dos, which has withdrawn (from round 1): a withdrawn team does not come back" \
            in out, out
    with open_event(path) as store:
        assert all(t.withdrawn is None or t.name.startswith("Dos") for t in store.teams())
        assert len(desk_sql.trail(store)) == before  # nothing logged
    assert "is back" not in run("players", path)


def test_check_finds_a_typed_score_no_game_ends_with(tmp_path: Path) -> None:
    """A Competitive result of 200-200 typed before entering refused it: ``check`` says so, as an
    error naming the rule and the way to correct it (tournament amend)."""
    import json
    import sqlite3

    path = tmp_path / "c.db"
    run("new", path, "--name", "C", "--game", "competitive", "--format", "pairs")
    for i in range(1, 5):
        run("add", path, f"North {i}", f"South {i}")
    run("pair", path)
    run("result", path, "--table", 1, "--score", "NS=150,EW=100")
    assert "0 errors" in run("check", path)
    db = sqlite3.connect(path)  # (the file as an older version stored it: the test's own connection)
    try:
        with db:
            db.execute("UPDATE results SET scores = ?, winner = NULL", (json.dumps({"NS": 200, "EW": 200}),))
    finally:
        db.close()
    out = " ".join(run("check", path, code=1).split())  # (a long finding is wrapped)
    assert ("round 1 table 1: NS 200, EW 200: a game to 200 never ends with two sides at 200 or more (only one "
            "side scores in a hand, and the game stops after the hand in which a side reaches the target): "
            "correct it with tournament amend") in out, out

"""``tournament history --entered`` in a duplicate event (docs/duplicate.md, docs/tournament.md
"Who entered each result"): its results are the boards', so each board's first entry is listed
(who entered it with ``--by``, when, how it was had); it used to say "no result has been entered"
with board results stored, and ``--by`` was shown nowhere."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from tests.tournament.test_duplicate_event import new_event, run


def test_a_duplicate_pairs_board_entry_is_listed_with_its_first_author(tmp_path: Path) -> None:
    event = tmp_path / "e.db"
    new_event(event, 6, "howell")
    run("boards", event, "--boards", 10, "--seed", 7)
    run("pair", event)
    assert "no result has been entered" in run("history", event, "--entered")
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=20,EW=0", "--by", "Dir")
    # Replaced since: the first entry (and its author) is the one listed.
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0", "--by", "Eva",
        "--replace")
    out = run("history", event, "--entered")
    lines = out.strip().splitlines()
    assert len(lines) == 1 and "round 1 table 1 board 1  entered by Dir (typed)" in lines[0], out
    rows = json.loads(run("history", event, "--entered", "--json"))
    assert [(r["round"], r["table"], r["board"], r["by"], r["kind"]) for r in rows] == [(1, 1, 1, "Dir", "typed")]
    got = list(csv.DictReader(io.StringIO(run("history", event, "--entered", "--csv"))))
    assert [(g["round"], g["table"], g["board"], g["by"]) for g in got] == [("1", "1", "1", "Dir")]


def test_a_duplicate_teams_event_lists_every_board_entered(tmp_path: Path) -> None:
    event = tmp_path / "t.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 1, "--seed", 3, "-q")
    rows = json.loads(run("history", event, "--entered", "--json"))
    assert rows and all({"round", "table", "board", "when", "by", "kind"} <= set(r) for r in rows)
    assert len({(r["round"], r["table"], r["board"]) for r in rows}) == len(rows)
    assert "no result has been entered" not in run("history", event, "--entered")

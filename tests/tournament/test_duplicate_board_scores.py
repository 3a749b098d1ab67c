"""A duplicate board's typed score (docs/duplicate.md, "Running a session"): a board is one hand,
so its typed score is checked by the game's engine as a one-hand score sheet, whichever way it
comes (``tournament result --board --score``, the director's correction), in the engine's words,
and ``tournament check`` flags a stored one no hand can make.  A replaced board's reason is kept
in the trail; a malformed ``--score`` is unusable input (exit 2); a typed score replaced by the
hand's record of the same points says what differs."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app

from tests.tournament.test_duplicate_event import new_event, run

runner = CliRunner()


def _points(event: Path) -> dict[tuple[int, int], tuple[int, int, str | None]]:
    with sqlite3.connect(event) as db:
        return {(t, b): (ns, ew, ended) for t, b, ns, ew, ended in db.execute(
            "SELECT table_id, board, ns_points, ew_points, ended FROM board_results")}


@pytest.fixture
def seated(tmp_path: Path) -> Path:
    event = tmp_path / "dup.db"
    new_event(event, 6, "mitchell")
    run("boards", event, "--boards", 6, "--seed", 5)
    run("pair", event)
    return event


@pytest.mark.parametrize("score, words", [
    ("NS=1,EW=0", "NS is claimed 1, but a hand scores 0 or between 3 and 137"),
    ("NS=2,EW=0", "NS is claimed 2, but a hand scores 0 or between 3 and 137"),
    ("NS=20,EW=20", "both sides are claimed points (NS 20, EW 20), but only one side scores a hand"),
])
def test_a_typed_board_score_no_hand_can_make_is_refused(seated: Path, score: str, words: str) -> None:
    """Competitive: no hand scores 1 or 2 (a domino scores at least 3, a block at least 5), and only
    one side scores a hand; each was stored (exit 0) and scored.  Now refused in one line with the
    engine's sentence, exit 2, nothing stored, with or without --replace."""
    for extra in ((), ("--replace",)):
        out = runner.invoke(app, ["result", str(seated), "--round", "1", "--table", "1", "--board", "1",
                                  "--score", score, *extra])
        lines = out.output.strip().splitlines()
        assert out.exit_code == 2 and len(lines) == 1, out.output
        assert lines[0].startswith(f"error: board 1: {words}") and lines[0].endswith("; nothing was stored")
        assert _points(seated) == {}
    # Every score some hand can make is taken, how the hand ended unknown: a domino of 3 (odd: no
    # block gives it), a block's 126, a tied block (nobody scores).
    for i, score in enumerate(("NS=3,EW=0", "NS=0,EW=126", "NS=0,EW=0")):
        run("result", seated, "--round", 1, "--table", i + 1, "--board", 1 + 2 * i if i < 2 else 5,
            "--score", score)
    assert len(_points(seated)) == 3


def test_the_directors_correction_of_a_typed_board_is_checked_without_its_end(seated: Path) -> None:
    """A board typed at the command line has no end stored; the director's correction of it was
    checked only where the end was known, so NS 1 went through.  Now any hand is the rule."""
    from tournament.event import duplicate as dup

    run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    store = open_event(seated)
    try:
        with pytest.raises(dup.NoHandScores, match="^board 1: NS is claimed 1, but a hand scores 0 or between"):
            dup.correct_score(store, 1, 1, 1, {"NS": 1, "EW": 0}, "recount", "the director")
        assert dup.correct_score(store, 1, 1, 1, {"NS": 31, "EW": 0}, "recount", "the director").ns == 31
    finally:
        store.close()


def test_a_roads_board_typed_so_no_hand_goes_out_is_refused(tmp_path: Path) -> None:
    """Domino Roads: someone always goes out, for 50 and the pips of both opponents' stocks, so NS 3,
    EW 7 is no hand's score."""
    event = tmp_path / "rd.db"
    run("simulate", event, "--game", "domino-roads", "--format", "duplicate", "--tables", 3, "--rounds", 1,
        "--seed", 4, "-q")
    before = _points(event)
    out = runner.invoke(app, ["result", str(event), "--round", "1", "--table", "1", "--board", "1",
                              "--score", "NS=3,EW=7", "--replace"])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1, out.output
    assert "board 1: neither side scores 53 or more, but the side that goes out scores 50" in out.output
    assert _points(event) == before


def test_check_flags_a_stored_board_score_no_hand_can_make(seated: Path) -> None:
    """An event file written before the check may hold such a score: ``check`` says where and why."""
    run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    run("result", seated, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=0,EW=0")
    out = runner.invoke(app, ["check", str(seated)])
    assert out.exit_code == 0 and "0 errors" in out.output, out.output
    with sqlite3.connect(seated) as db:
        db.execute("UPDATE board_results SET ns_points = 2 WHERE board = 1")
        db.execute("UPDATE board_results SET ns_points = 21, ended = 'blocked' WHERE board = 2")
    out = runner.invoke(app, ["check", str(seated)])
    assert out.exit_code == 1, out.output
    assert "round 1 table 1 board 1: the typed score NS 2, EW 0 is one no hand can make: NS is claimed 2" \
        in out.output
    assert "round 1 table 1 board 2: the typed score NS 21, EW 0 is one no hand can make: NS is claimed 21 for " \
           "a block, but a block always scores an even number" in out.output
    assert "2 errors" in out.output


def _trail(event: Path, action: str) -> list[tuple[dict, str | None]]:
    with sqlite3.connect(event) as db:
        return [(json.loads(d), r) for d, r in db.execute(
            "SELECT detail, reason FROM desk_log WHERE action = ? ORDER BY id", (action,))]


def test_a_replaced_boards_reason_is_kept_in_the_trail(seated: Path, tmp_path: Path) -> None:
    """``result --board --score … --replace --reason`` exited 0 and threw the reason away: ``history``
    showed the replacement without it.  Kept now, as the director's correction keeps its reason, for a
    typed score and a hand's record alike; ``--reason`` without ``--replace`` (nothing to say why of)
    is a usage error, nothing stored."""
    import attrs

    from domrec.convert import text_of

    from tournament.pairing import boards as B

    out = runner.invoke(app, ["result", str(seated), "--round", "1", "--table", "1", "--board", "1",
                              "--score", "NS=30,EW=0", "--reason", "first"])
    assert out.exit_code == 2 and "--reason goes with --replace" in out.output and _points(seated) == {}
    run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=30,EW=0")
    run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", "NS=45,EW=0", "--replace",
        "--reason", "sheet misread")
    board = B.board_from_json(json.loads(run("boards", seated, "--json"))[0])
    record = attrs.evolve(B.play(board, "r"), event={"round": 1, "table": 1, "board": 1})
    path = tmp_path / "r1t1b1.json"
    path.write_text(text_of([record], "json"))
    run("result", seated, path, "--replace", "--reason", "the hand was recorded after all")
    assert [r for _, r in _trail(seated, "board_replaced")] == ["sheet misread", "the hand was recorded after all"]
    history = run("history", seated)
    assert "table 1 board 1: NS 30, EW 0 replaced by NS 45, EW 0 — sheet misread" in history
    assert "— the hand was recorded after all" in history
    audit = [a for a in json.loads(run("export", seated, "-o", "-"))["audit"] if a["action"] == "board_replaced"]
    assert [a["reason"] for a in audit] == ["sheet misread", "the hand was recorded after all"]


def test_a_duplicate_teams_boards_reason_is_kept_too(tmp_path: Path) -> None:
    event = tmp_path / "teams.db"
    run("simulate", event, "--format", "teams", "--duplicate", "--teams", 4, "--rounds", 1, "--seed", 2, "-q")
    with sqlite3.connect(event) as db:
        ns, ew = db.execute("SELECT ns_points, ew_points FROM board_results WHERE board = 1 ORDER BY table_id"
                            ).fetchone()
    score = "NS=0,EW=0" if (ns, ew) != (0, 0) else "NS=30,EW=0"
    run("result", event, "--round", 1, "--table", 1, "--board", 1, "--score", score, "--replace", "--reason", "slip")
    assert [r for _, r in _trail(event, "board_replaced")] == ["slip"]


@pytest.mark.parametrize("score", ["NS=10,ns=0", "NS=5", "NS=5,EW=0,XX=1", "NS=abc,EW=0"])
def test_a_malformed_score_is_unusable_input_for_a_board_and_a_game(seated: Path, tmp_path: Path, score: str) -> None:
    """A side missing or misnamed was exit 1 (refused) where a score not a number is exit 2 (unusable
    input): all are a mistyped command, exit 2, in a duplicate event and in any other."""
    out = runner.invoke(app, ["result", str(seated), "--round", "1", "--table", "1", "--board", "1", "--score", score])
    assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1, out.output
    assert _points(seated) == {}
    games = tmp_path / "games.db"
    run("simulate", games, "--format", "pairs", "-p", 8, "--rounds", 1, "--seed", 1, "-q")
    run("pair", games)
    for command in (["result", str(games), "--table", "1", "--score", score],
                    ["amend", str(games), "--round", "1", "--table", "1", "--score", score]):
        out = runner.invoke(app, command)
        assert out.exit_code == 2 and len(out.output.strip().splitlines()) == 1, out.output


def test_a_typed_score_replaced_by_the_hands_record_of_the_same_points_says_so(seated: Path, tmp_path: Path) -> None:
    """The refusal said only "already has a result (NS 0, EW 0); give --replace", and the trail "NS 0,
    EW 0 replaced by NS 0, EW 0": what differs (a typed score, now the hand's record) was not said."""
    import attrs

    from domrec.convert import text_of

    from tournament.pairing import boards as B

    board = B.board_from_json(json.loads(run("boards", seated, "--json"))[0])
    record = attrs.evolve(B.play(board, "r"), event={"round": 1, "table": 1, "board": 1})
    ns, ew = (record.hands[0].result.scores[s] for s in ("NS", "EW"))
    path = tmp_path / "r1t1b1.json"
    path.write_text(text_of([record], "json"))
    run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", f"NS={ns},EW={ew}")
    out = runner.invoke(app, ["result", str(seated), str(path)])
    assert out.exit_code == 1, out.output
    assert f"round 1 table 1 board 1 already has a result (NS {ns}, EW {ew}, a typed score); this is the hand's " \
           f"record of the same points; give --replace to replace it" in out.output
    # The record's file named first, as every line of a batch of files names its own.
    assert out.stderr.startswith(f"error: {path}: round 1 table 1 board 1 already has a result"), out.stderr
    run("result", seated, path, "--replace")
    out = runner.invoke(app, ["result", str(seated), "--round", "1", "--table", "1", "--board", "1",
                              "--score", f"NS={ns},EW={ew}"])
    assert out.exit_code == 1 and "(NS %d, EW %d, the hand's record); this is a typed score of the same points" \
        % (ns, ew) in out.output, out.output
    history = run("history", seated)
    assert f"table 1 board 1: NS {ns}, EW {ew} (typed score) replaced by NS {ns}, EW {ew} (the hand's record)" \
        in history, history
    # A typed score over another, the points differing, say so themselves: the sentence is as it was.
    for points in ("NS=30,EW=0", "NS=40,EW=0"):
        run("result", seated, "--round", 1, "--table", 1, "--board", 1, "--score", points, "--replace")
    assert run("history", seated).splitlines()[-1].endswith("table 1 board 1: NS 30, EW 0 replaced by NS 40, EW 0")

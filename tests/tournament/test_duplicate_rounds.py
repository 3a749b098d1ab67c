"""A duplicate event's ``--round N`` for a round not seated is refused in the words, and with the
exit code, of every other event's same command: ``result`` (a typed score or a record: "round N
does not exist (the last round is L); nothing was stored", exit 2; a record's own event.round
not seated: a refused record, exit 1), ``tables`` and ``boards --slips`` ("round N has not been
paired (the last round paired is L)", exit 2).  They said "has not been seated"."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from domrec.convert import text_of
from tournament import open_event
from tournament.cli import app
from tournament.event import duplicate as dup
from tournament.pairing import boards as B

runner = CliRunner()


def run(*args: object):  # type: ignore[no-untyped-def]
    return runner.invoke(app, [str(a) for a in args])


def ok(*args: object) -> str:
    r = run(*args)
    assert r.exit_code == 0, r.output
    return r.output


def _pairs(path: Path) -> None:
    ok("new", path, "--name", "Club duplicate", "--game", "competitive", "--format", "duplicate",
       "--movement", "mitchell")
    for i in range(1, 7):
        ok("add", path, f"North {i}", f"South {i}", "--pair", f"Pair {i}")
    ok("boards", path, "--boards", 12, "--seed", 1)
    ok("pair", path)


def _teams(path: Path) -> None:
    ok("new", path, "--name", "Cuartetas", "--game", "competitive", "--format", "teams", "--team-size", "4",
       "--team-pairing", "round-robin", "--duplicate")
    for t in range(1, 5):
        ok("team", path, "add", f"Team {t}", "--pair", f"North {t},South {t}", "--pair", f"East {t},West {t}")
    ok("boards", path, "--boards", 6, "--seed", 1)
    ok("pair", path)


def _swiss(path: Path) -> None:
    ok("new", path, "--name", "Club pairs", "--game", "competitive", "--format", "pairs")
    for i in range(1, 5):
        ok("add", path, f"A{i}", f"B{i}")
    ok("pair", path)


def _board_records(tmp_path: Path, event: Path) -> tuple[Path, Path]:
    """Board 1's hand played from its deal: one record without its round, one saying round 5."""
    with open_event(event) as store:
        record = B.play(dup.board(store, 1), "1/1")
    plain, own = tmp_path / "board1.json", tmp_path / "round5.json"
    plain.write_text(text_of([record], "json"))
    own.write_text(text_of([attrs.evolve(record, event={"round": 5, "table": 1, "board": 1})], "json"))
    return plain, own


@pytest.mark.parametrize("make", [_pairs, _teams], ids=["pairs", "teams"])
def test_a_round_not_seated_is_refused_in_every_events_words(  # type: ignore[no-untyped-def]
        tmp_path: Path, make) -> None:
    event, swiss = tmp_path / "dup.db", tmp_path / "swiss.db"
    make(event)
    _swiss(swiss)
    plain, own = _board_records(tmp_path, event)

    # A typed score: as any event's typed score for round 5 when round 1 is the last.
    theirs = run("result", swiss, "--round", 5, "--table", 1, "--score", "NS=10,EW=20")
    mine = run("result", event, "--round", 5, "--table", 1, "--board", 1, "--score", "NS=10,EW=20")
    assert theirs.exit_code == mine.exit_code == 2, mine.output
    assert mine.stderr == theirs.stderr == "error: round 5 does not exist (the last round is 1); nothing was stored\n"
    mine = run("result", event, "--round", 0, "--table", 1, "--board", 1, "--score", "NS=10,EW=20")
    assert mine.exit_code == 2 and mine.stderr == \
        "error: round 0 does not exist (the last round is 1); nothing was stored\n", mine.output

    # A record with --round 5: a usage mistake (exit 2), its file named, as any event's record.
    mine = run("result", event, "--round", 5, "--table", 1, "--board", 1, plain)
    assert mine.exit_code == 2, mine.output
    assert mine.stderr == f"error: {plain}: round 5 does not exist (the last round is 1); nothing was stored\n"
    # A record of round 1 (its event.round) given --round 5: the disagreement is said first, a
    # refused record (exit 1), and docs/duplicate.md says both cases (it said exit 2 for any record).
    one = tmp_path / "round1.json"
    one.write_text(own.read_text(encoding="utf-8").replace('"round": 5', '"round": 1'), encoding="utf-8")
    mine = run("result", event, "--round", 5, one)
    assert mine.exit_code == 1, mine.output
    assert mine.stderr == f"error: {one} is a record of round 1 (its event.round), not round 5; nothing was stored\n"
    docs = " ".join((Path(__file__).parents[2] / "docs" / "duplicate.md").read_text(encoding="utf-8").split())
    assert ("`b1.json is a record of round 1 (its event.round), not round 5; nothing was stored`" in docs
            and "a record without an `event.round` given `--round 5`" in docs)
    # A record whose own event.round is not seated: a refused record (exit 1), in those words.
    mine = run("result", event, own)
    assert mine.exit_code == 1, mine.output
    assert mine.stderr == (f"error: {own}: round 5 (its event.round) does not exist (the last round is 1); "
                           f"nothing was stored\n")

    # Printing a round's tables, and its board slips: as any event's `tables --round 5`.
    theirs = run("tables", swiss, "--round", 5)
    assert theirs.exit_code == 2
    assert theirs.stderr == "error: round 5 has not been paired (the last round paired is 1)\n"
    for args in (("tables", event, "--round", 5),
                 ("boards", event, "--slips", "-o", tmp_path / "s.html", "--round", 5)):
        mine = run(*args)
        assert mine.exit_code == 2 and mine.stderr == theirs.stderr, (args, mine.output)
    assert not (tmp_path / "s.html").exists()
    for r in (run("result", event, "--round", 5, "--table", 1, "--board", 1, plain),
              run("tables", event, "--round", 5)):
        assert "has not been seated" not in r.output

    with open_event(event) as store:  # nothing was stored
        assert not dup.sql.results(store)


def test_the_library_refuses_a_round_not_seated_whoever_calls_it(tmp_path: Path) -> None:
    """The event layer itself (the venue's director's page corrects a board through it)."""
    from tournament.errors import UnusableInput

    event = tmp_path / "dup.db"
    _pairs(event)
    with open_event(event) as store:
        with pytest.raises(UnusableInput, match=r"^round 3 does not exist \(the last round is 1\); nothing was "
                                                r"stored$"):
            dup.enter_score(store, 3, 1, 1, {"NS": 10, "EW": 20})
        with pytest.raises(UnusableInput, match=r"^round 3 does not exist \(the last round is 1\)$"):
            dup.correct_score(store, 3, 1, 1, {"NS": 10, "EW": 20}, "typo", "the director")

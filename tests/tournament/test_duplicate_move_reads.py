"""A move at a duplicate table asks which of its boards are marked not played
(:func:`tournament.event.duplicate.not_played_boards`): it read every board result of the event to
answer, thousands at a big event (about 9 of a move's 11 ms on a 248-table event:
``benchmarks/bench_feed.py``).  With no board marked anywhere it reads no result at all; with
marks, only the marked tables' results; the answer is the same."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_event import new_event, run
from tournament import open_event
from tournament.event import duplicate


def _traced(store, work):
    said: list[str] = []
    store.conn.set_trace_callback(said.append)
    try:
        return work(), said
    finally:
        store.conn.set_trace_callback(None)


def test_not_played_boards_reads_only_the_marked_tables_results(tmp_path: Path) -> None:
    event = tmp_path / "dup.db"
    new_event(event, 8, "mitchell")
    run("boards", event, "--boards", 8, "--seed", 3)
    run("pair", event)
    seated = duplicate.table_boards(open_event(event), 1)
    for t in seated[1:]:  # every table but the first has its boards' results
        for b in t.boards:
            run("result", event, "--table", t.table, "--board", b, "--score", "NS=30,EW=0")
    store = open_event(event)
    try:
        found, said = _traced(store, lambda: duplicate.not_played_boards(store))
        assert found == {}
        assert not any("FROM board_results" in s for s in said), said  # no mark: no result read
    finally:
        store.close()

    first = seated[0]
    run("result", event, "--table", first.table, "--board", first.boards[0], "--not-played", "--reason", "time")
    store = open_event(event)
    try:
        found, said = _traced(store, lambda: duplicate.not_played_boards(store))
        table_id = next(t.id for t in store.tables(1) if t.number == first.table)
        assert found == {table_id: [first.boards[0]]}
        reads = [s for s in said if "FROM board_results" in s]
        assert reads and all("WHERE table_id IN" in s for s in reads), reads
    finally:
        store.close()

"""Review of the 7 December commits (the hall withholding a duplicate board's results until every
table has played it; the venue's rate limit by device).

* The hall's read of the whole event (``public_data(hall=True)``, made at every result) worked out
  which boards every table has played four times: for the rounds, the standings, the duplicate
  part and the boards' deals, each reading every result of the event again (some 50 ms each for
  250 tables).  It is made once a read now, and handed to every part that withholds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Callable

import pytest

from tests.test_duplicate_hall_privacy import _five_pairs, _teams
from tests.tournament.test_duplicate_teams import run
from tournament import open_event
from tournament.event import duplicate as dup, duplicate_hall, duplicate_teams, public as pub


def _counted(monkeypatch: pytest.MonkeyPatch, module: Any) -> list[int]:
    """How many times ``module.complete_boards`` is called (one item a call)."""
    calls: list[int] = []
    real: Callable[..., Any] = module.complete_boards

    def counting(store: Any) -> Any:
        calls.append(1)
        return real(store)

    monkeypatch.setattr(module, "complete_boards", counting)
    return calls


def test_the_halls_read_of_a_duplicate_teams_event_works_out_the_boards_shown_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    event = _teams(tmp_path)
    for table in (1, 2, 3, 4):
        run("result", event, "--round", 1, "--table", table, "--board", 1, "--score", f"NS={10 * table},EW=0")
    run("result", event, "--round", 1, "--table", 1, "--board", 2, "--score", "NS=77,EW=0")
    calls = _counted(monkeypatch, duplicate_teams)
    with open_event(event) as store:
        data = pub.public_data(store, hall=True)
    assert len(calls) == 1
    # What it withholds is as before: board 1 (every table) shows, board 2 (one table) does not.
    assert [b["board"] for b in data["boards"]] == [1]
    first = next(m for m in data["duplicate_team_matches"] if m["tables"] == [1, 2])
    assert [b["board"] for b in first["boards"]] == [1] and first["waiting"] == [2]
    at = {(r["round"], t["table"]): t["board_results"] for r in data["rounds"] for t in r["tables"]}
    assert at[(1, 1)] == [{"board": 1, "ns_points": 10, "ew_points": 0, "ended": None, "verified": False},
                          {"board": 2, "withheld": True}], at[(1, 1)]


def test_the_halls_read_of_a_duplicate_pairs_event_works_out_the_boards_shown_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    event = _five_pairs(tmp_path)
    with open_event(event) as store:
        first = dup.table_boards(store, 1)
    t = first[0]
    run("result", event, "--round", 1, "--table", t.table, "--board", t.boards[0], "--score", "NS=91,EW=0")
    calls = _counted(monkeypatch, duplicate_hall)
    with open_event(event) as store:
        data = pub.public_data(store, hall=True)
    assert len(calls) == 1
    assert data["boards"] == [] and all(tr.get("withheld") for tr in data["travellers"] if tr["board"] == t.boards[0])
    assert all(r["boards"] == 0 for r in data["duplicate_standings"]["pairs"])


# --- a table's write reads no change log (the pairs' names kept for its answer) ------------------------
#
# The phone's pair names (``units``, 7 December) were looked up at every table's write, each asking the
# change log for its latest number: a move (the hall's most common request) read the change log again,
# which tests/tournament/test_hall.py (a move costs a handful of statements, never the change log) failed
# on.  A write now names the sides as last made for the same seats; a read (the phone's refresh every few
# seconds) asks whether the event changed, and names a pair renamed meanwhile.


def _traced(venue: Any, work: Callable[[], Any]) -> list[str]:
    statements: list[str] = []
    venue.store.conn.set_trace_callback(statements.append)
    try:
        work()
    finally:
        venue.store.conn.set_trace_callback(None)
    return statements


def test_a_pairs_tables_write_reads_no_change_log_and_a_read_names_a_pair_renamed(tmp_path: Path) -> None:
    from tests.test_phone_polish import _pairs
    from tournament.event.roster import rename

    venue = _pairs(tmp_path)
    try:
        called = venue.call(1, 1, venue.state(1, 1)["rev"])  # (its first write logs the table's status)
        assert called["units"]["NS"]["pair"]
        rev = venue.state(1, 1)["rev"]
        written = _traced(venue, lambda: venue.clear_call(1, 1, rev))
        assert any(s.startswith("INSERT INTO venue_log") for s in written), written
        assert not any("FROM changes" in s for s in written), written
        rename(venue.store, called["units"]["NS"]["pair"], "Los Nuevos")
        assert venue.state(1, 1)["units"]["NS"]["pair"] == "Los Nuevos"
        answer = venue.call(1, 1, venue.state(1, 1)["rev"])
        assert answer["units"]["NS"]["pair"] == "Los Nuevos"
    finally:
        venue.store.close()


# --- where a restarting venue resumes: never off a message on another subject --------------------------
#
# ``Upstream._stopped_at`` took a restarting venue's place off its stream's last change, "a message forged
# on another subject does not count" (docs/hub.md); but where the stream held no change at all (a stream
# the federation made with ``tournament stream`` before the event, or its changes removed), it took the
# ``Domrec-Seq`` of the last message whatever its subject: the pages' data forged with the venue's
# credentials, numbered 999999, made the venue take its whole log for sent, and the hub never had it.

EVENT_ID = "4b738ec1-5927-4bc7-875d-c2537b31b070"


class _Message:
    def __init__(self, subject: str, headers: dict[str, str] | None) -> None:
        self.subject, self.headers, self.data = subject, headers, b"{}"


class _Stream:
    """JetStream's ``get_msg`` over messages held in order (a message's number its place, from 1)."""

    def __init__(self, messages: list[_Message]) -> None:
        self.messages = messages

    async def get_msg(self, name: str, seq: int | None = None, subject: str | None = None) -> _Message:
        from nats.js.errors import NotFoundError

        if seq is not None:
            if 1 <= seq <= len(self.messages):
                return self.messages[seq - 1]
            raise NotFoundError()
        assert subject is not None and subject.endswith(".*")
        found = [m for m in self.messages if m.subject.rsplit(".", 1)[0] == subject[:-2]]
        if not found:
            raise NotFoundError()
        return found[-1]


def _stopped_at(tmp_path: Path, messages: list[_Message]) -> int:
    pytest.importorskip("nats", reason="the NATS client (nats-py) is not installed")
    from tournament.web import relay
    from tournament.web.upstream import Upstream

    up = Upstream(tmp_path / "event.db", "nats://127.0.0.1:4222")
    up.event_uuid = EVENT_ID
    return asyncio.run(up._stopped_at(_Stream(messages), relay.stream_name(EVENT_ID), len(messages)))


def test_a_forged_pages_data_on_a_stream_without_changes_does_not_move_where_a_venue_resumes(
        tmp_path: Path) -> None:
    from tournament.web import relay

    forged = _Message(relay.public_subject(EVENT_ID), {relay.SEQ_HEADER: "999999"})
    assert _stopped_at(tmp_path, [forged]) == 0  # (it was 999999: nothing of the log sent, ever)
    game = _Message(relay.game_subject(EVENT_ID, 1, 1), {relay.SEQ_HEADER: "999999"})
    assert _stopped_at(tmp_path, [game]) == 0
    # A stream holding the venue's changes: its last change, as before, whatever came after it.
    changes = [_Message(relay.change_subject(EVENT_ID, n), {relay.SEQ_HEADER: str(n)}) for n in (1, 2, 3)]
    assert _stopped_at(tmp_path, [*changes, forged]) == 3
    assert _stopped_at(tmp_path, changes) == 3


# --- what a "device" is, said where the limits are set ------------------------------------------------
#
# The connections one device may hold (``--connections-per-device``) counted an IPv6 client from another
# network by its /64 since 7 December (tournament/web/devices.py), but the option's help still said "one
# device (one address)", and docs/venue.md told a venue whose Wi-Fi is split into routed IPv6 networks to
# raise ``--rate`` only: its phones there share one device's 64 connections too.


def test_the_connections_per_device_help_and_the_docs_say_what_a_device_is() -> None:
    import inspect

    from tournament.cli import hub, venue

    for command in (venue.serve, hub.hub):
        said = inspect.signature(command).parameters["per_device"].default.help
        assert "/64" in said and "(one address)" not in said, said
    text = (Path(__file__).resolve().parent.parent / "docs" / "venue.md").read_text(encoding="utf-8")
    routed = text[text.index("several routed IPv6 networks"):][:300]
    assert "--connections-per-device" in routed, routed

"""How far an event is: not started, in progress, finished; and the round being played.

The tool has no "finish" command: an event is finished when what it set out to play is played,
which the file says by itself.  With a later stage (a knockout, a round robin, a rotating
event's final), when the last stage is decided: a knockout has its champion (every match decided),
a final every game of its tables, a round robin every game.  Without one, when the last round of
an event that knows how many it has (:func:`last_round_of`: a balanced schedule's ``--rounds N``,
a duplicate session's movement, a team round robin) has every result.  An event of standings rounds has no
last round the tool knows of: it stays in progress until a stage ends it.  A stage drawn after
an event finished takes it on again.

The moment it finishes is a change people see: :func:`note_if_finished`, called in the write of
every result, records ``event_finished`` (once; again only if a corrected result crowns another
champion, or after a later stage finishes).
"""

from __future__ import annotations

from typing import Any

from tournament.event import changes, finals, stages
from tournament.pairing import movements
from tournament.store import boards as boards_sql
from tournament.store.event_store import EventStore

NOT_STARTED, IN_PROGRESS, FINISHED = "not started", "in progress", "finished"


def status(store: EventStore) -> str:
    """``not started`` (no round paired), ``in progress`` or ``finished`` (see the module)."""
    last = store.last_round()
    if not last:
        return NOT_STARTED
    stage = stages.current(store)
    if stage is not None:
        return FINISHED if stage_finished(store, stage) else IN_PROGRESS
    rounds = last_round_of(store)
    if rounds and last >= rounds and not _open_tables(store):
        return FINISHED
    return IN_PROGRESS


def last_round_of(store: EventStore) -> int:
    """How many rounds the event has, where it says (0 where it does not: rounds paired on the
    standings until the director stops): a balanced schedule's ``--rounds N``, a duplicate session's
    movement, a team round robin's circle of the teams entered for round 1."""
    s = store.settings
    if s.rounds:
        return s.rounds
    if s.duplicate:  # the movement sets how many rounds a session has
        return _movement_rounds(store)
    if s.teams and s.team_schedule == "round-robin":
        from tournament.pairing.teams import round_robin_rounds
        from tournament.store import squads as squads_sql
        return round_robin_rounds(squads_sql.squads(store))
    return 0


def stage_finished(store: EventStore, stage: stages.Stage) -> bool:
    if stage.format == stages.FINAL_TABLE or stage.knockout:
        return finals.finished(store, stage)
    rounds = {n for n, s in store.round_stage().items() if s == stage.id}
    results = store.results()
    return all(t.id in results for t in store.tables() if t.round in rounds)


def champion(store: EventStore) -> str | None:
    """The name of the event's winner once its last stage has one (a knockout, a final)."""
    stage = stages.current(store)
    if stage is None or not (stage.format == stages.FINAL_TABLE or stage.knockout):
        return None
    return finals.champion(store, stage)


def current_round(store: EventStore) -> int:
    """The round being played: the first with a table still waiting for its result (a final
    seats all its games at once, so the last round paired may not have begun), else the last
    round paired; 0 before round 1."""
    done = _played(store)
    open_rounds = sorted({t.round for t in store.tables() if t.id not in done})
    return open_rounds[0] if open_rounds else store.last_round()


def _movement_rounds(store: EventStore) -> int:
    """How many rounds a duplicate session's movement has (0 before round 1 draws it)."""
    numbers = boards_sql.pair_numbers(store)
    if not numbers:
        return 0
    s = store.settings
    return movements.for_event(s, len(numbers)).rounds


def _played(store: EventStore) -> set[int]:
    """The ids of the tables whose round is over: with their game's result or, at a duplicate table
    (which has none of its own), with a result on every board it plays (or marked not played:
    :func:`tournament.store.boards.settled`)."""
    done = set(store.results())
    if store.settings.duplicate:
        done |= boards_sql.played_tables(store)
    elif store.settings.team_duplicate:  # each table of round R plays the round's boards, k a round
        # (duplicate_teams.round_boards' rule, restated: that module imports this one through duplicate)
        k = store.settings.boards_per_round
        have: dict[int, set[int]] = {}
        for table_id, board in boards_sql.settled(store):  # (marked not played there or at the match's other table)
            have.setdefault(table_id, set()).add(board)
        done |= {t.id for t in store.tables()
                 if set(range((t.round - 1) * k + 1, t.round * k + 1)) <= have.get(t.id, set())}
    return done


def _open_tables(store: EventStore) -> bool:
    done = _played(store)
    return any(t.id not in done for t in store.tables())


def note_if_finished(store: EventStore) -> None:
    """Within the write of a result: ``event_finished`` if this result finished the event (or
    crowned another champion than the one already announced)."""
    if status(store) != FINISHED:
        return
    who = champion(store)
    last = changes.last_of(store, changes.EVENT_FINISHED, changes.STAGE_CREATED, changes.ROUND_PAIRED)
    if last is not None and last[0] == changes.EVENT_FINISHED and last[1].get("champion") == who:
        return
    data: dict[str, Any] = {"champion": who}
    changes.record(store, changes.EVENT_FINISHED, data=data)

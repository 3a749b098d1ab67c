"""How far an event is: not started, in progress, finished; and the round being played.

The tool has no "finish" command: an event is finished when what it set out to play is played,
which the file says by itself.  With a later stage (a knockout, a round robin, a rotating
event's final), when the last stage is decided: a knockout has its champion (every match decided),
a final every game of its tables, a round robin every game.  Without one, when a balanced
schedule's last round (``--rounds N``) has every result.  An event of standings rounds has no
last round the tool knows of: it stays in progress until a stage ends it.  A stage drawn after
an event finished takes it on again.

The moment it finishes is a change people see: :func:`note_if_finished`, called in the write of
every result, records ``event_finished`` (once; again only if a corrected result crowns another
champion, or after a later stage finishes).
"""

from __future__ import annotations

from typing import Any

from tournament.event import changes, finals, stages
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
    rounds = store.settings.rounds
    if rounds and last >= rounds and not _open_tables(store):
        return FINISHED
    return IN_PROGRESS


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
    results = store.results()
    open_rounds = sorted({t.round for t in store.tables() if t.id not in results})
    return open_rounds[0] if open_rounds else store.last_round()


def _open_tables(store: EventStore) -> bool:
    results = store.results()
    return any(t.id not in results for t in store.tables())


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

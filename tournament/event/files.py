"""Creating and opening an event file for the operations: the store's files, with what people browse.

Every event is created and opened here (the ``tournament`` command, the library's
:func:`tournament.open_event`, simulated events): the store checks the file and does the SQL
(:mod:`tournament.store.files`); this layer hands it :func:`tournament.event.browsing.snapshot`,
the standings it keeps up to date for people browsing the file, in the same transaction as every
write (:meth:`~tournament.store.event_store.EventStore.refresh_browsing`).
"""

from __future__ import annotations

from pathlib import Path

from tournament.event import changes
from tournament.event.browsing import snapshot
from tournament.settings import Settings
from tournament.store.event_store import EventStore
from tournament.store.files import create_store, open_store


def create_event(path: str | Path, settings: Settings) -> EventStore:
    """A new event file at ``path``; refuses to touch an existing file.  Its change log starts with
    ``event_created``, written with the file (:mod:`tournament.event.changes`)."""
    first = (changes.EVENT_CREATED, {"name": settings.name, "game": settings.game, "format": settings.format})
    return create_store(path, settings, browsing=snapshot, first_change=first)


def open_event(path: str | Path, shared: bool = False) -> EventStore:
    """Open an existing event; refuse anything that is not one.  ``shared``: its connection may be
    used by more than one thread, one at a time (:func:`tournament.store.files.open_store`)."""
    return open_store(path, browsing=snapshot, shared=shared)

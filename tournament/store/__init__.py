"""The SQLite store: the schema of an event file and all of the tool's SQL.

One file per event, opened through sqlite-utils.  The rules the rest of the
package relies on:

* **Identity.**  The file carries SQLite's ``application_id`` and a ``meta``
  table (application, schema version, event uuid, settings).  A file without
  them is refused: it may be somebody's other database, and must never be
  written to.  :func:`~tournament.store.files.open_store` never creates a file;
  :func:`~tournament.store.files.create_store` never overwrites one (it builds the event in a scratch file and links it
  into place, so a killed ``new`` leaves nothing behind).
* **Every write is one transaction** (:meth:`~tournament.store.event_store.EventStore.write`): ``BEGIN
  IMMEDIATE`` takes the write lock before anything is read, so what a write
  decides on (is this table's result already in? which round is next?) cannot
  change under it; WAL mode lets readers go on meanwhile, and the busy timeout
  makes a second writer wait its turn instead of failing.  A process killed
  mid-write leaves the file as before the write: SQLite rolls the unfinished
  transaction back.
* **All SQL is parameterised.**  Names are data, never SQL text.

The schema is ready for the later stages of an event (brackets, round robin):
rounds belong to a *stage* with its own format, and a table is the unit a
result belongs to, so a knockout match can later reference its tables.

Modules: ``sqlite`` (what the tool's SQLite files share: the header, the busy timeout, one write
transaction), ``schema`` (the tables, their upgrades, the views people browse), ``event_store``
(:class:`~tournament.store.event_store.EventStore`, one open event file: every read and write),
``files`` (creating and opening an event file, its identity checked), ``damage`` (what SQLite
finds damaged in a file, table by table and row by row), ``ratings`` (the ratings file's SQL),
``venue`` (the venue's tables), ``changes`` (the append-only change log), ``desk`` (the
director's desk: its trail, the pins, keep-aparts and sit-outs pairing honours, player ids).
The store imports nothing above the base layer (:mod:`tournament.settings`,
:mod:`tournament.values`, :mod:`tournament.names`, :mod:`tournament.errors`): what it computes
for people browsing the file (the standings snapshot) is handed to it by the event layer
(:attr:`~tournament.store.event_store.EventStore.browsing`).
"""

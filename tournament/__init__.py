"""tournament: run a domino tournament on top of domrec.

The library the ``tournament`` command is a thin layer over::

    from tournament import make_settings, create_event, open_event
    from tournament import add_players, pair_next_round, enter_record, enter_manual, current_standings

    store = create_event("club.db", make_settings("Club night", "competitive", "rotating", seed=7))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    plan = pair_next_round(store)
    enter_record(store, open("game.json", "rb").read(), "game.json")
    print(current_standings(store).rows)

Packages in layers, each importing only from the layers below it (tests/test_layers.py):

* the base: ``errors``, ``settings`` (what the director chose, the formats and tie-break keys),
  ``values`` (players, pairs, tables, results), ``names`` (when two names are the same name);
* ``pairing/``: pure algorithms, no database — ``swiss`` (pairing a round by the standings),
  ``plan``, ``schedule`` (balanced schedules for rotating partners), ``roundrobin``,
  ``brackets`` (knockouts), ``standings`` (the ranking and its tie-breaks);
* ``store/``: the SQLite schema and all SQL — ``event_store`` (every read and write of an event
  file), ``files``, ``schema``, ``damage``, ``ratings`` (the ratings file), ``sqlite``;
* ``event/``: what a director does, each a transaction over the store — ``files`` (create and
  open events), ``players``, ``rounds``, ``results``, ``audit``, ``stages``, ``finals``,
  ``standings``, ``check``, ``ratings``, ``simulate``, ``venue``, ``changes`` (the change log),
  ``progress``, ``feed`` (the public feed), ``federation`` and ``federation_file`` (the federation
  report, docs/federation.md);
* ``pages/``: what people read — ``terminal``, ``display``, ``report`` (HTML, exports),
  ``sheets`` (score sheets and pre-filled game files);
* ``cli/``: the ``tournament`` command, one module a subject.

See docs/tournament.md.
"""

from tournament.errors import (EventFileError, PairingError, PlayerInputError, Refused, ResultRefused,
                               SettingsError, TournamentError, UnknownPlayer, UnusableInput)
from tournament.event.check import run as run_check
from tournament.event.files import create_event, open_event
from tournament.event.finals import create_final
from tournament.event.players import add_pairs, add_players, withdraw
from tournament.event.results import enter_dgn, enter_forfeit, enter_manual, enter_record
from tournament.event.results import amend_dgn, amend_manual, amend_record
from tournament.event.rounds import pair_next_round
from tournament.event.stages import create_stage
from tournament.event.standings import from_store as current_standings
from tournament.pages.sheets import write_sheets
from tournament.settings import FORMATS, INDIVIDUAL, PAIRS, ROTATING, Settings, make_settings
from tournament.store.event_store import EventStore

__all__ = [
    "EventFileError", "EventStore", "FORMATS", "INDIVIDUAL", "PAIRS", "PairingError", "PlayerInputError",
    "ROTATING", "Refused", "ResultRefused", "Settings", "SettingsError", "TournamentError", "UnknownPlayer",
    "UnusableInput", "add_pairs", "create_stage", "add_players", "current_standings", "run_check", "create_event", "enter_dgn", "enter_forfeit", "enter_manual", "enter_record",
    "make_settings", "open_event", "pair_next_round", "withdraw", "write_sheets",
    "amend_dgn", "amend_manual", "amend_record",
    "create_final",
]

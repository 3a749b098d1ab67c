"""tournament: run a domino tournament on top of domrec.

The library the ``tournament`` command is a thin layer over::

    from tournament import make_settings, create_event, open_event
    from tournament import add_players, pair_next_round, enter_record, enter_manual, current_standings

    store = create_event("club.db", make_settings("Club night", "competitive", "rotating", seed=7))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    plan = pair_next_round(store)
    enter_record(store, open("game.json", "rb").read(), "game.json")
    print(current_standings(store).rows)

Modules: ``event`` (settings and values), ``store`` (the SQLite schema and all
SQL), ``players``, ``pairing`` (pure pairing functions), ``rounds`` (pair and
store a round), ``results`` (records checked by domrec, manual scores),
``standings``, ``check``, ``simulate``, ``cli``; issue 8: ``brackets`` (single and double
elimination, multi-player knockout: pure draws and their replay), ``roundrobin`` (circle method,
groups), ``stages`` (a knockout or round robin in an event file, advanced by results), ``ratings``
(openskill across events, in a ratings file), ``report`` (HTML page, JSON/CSV export data);
``sheets`` (each table's pre-filled .dgn and printable score sheets; the files ``tournament
record`` continues); issue 14: ``audit`` (the trail of amended and replaced results); ``schedule`` (balanced schedules for rotating partners, and who
partnered and opposed whom).
See docs/tournament.md.
"""

from tournament.event.check import run as run_check
from tournament.errors import (EventFileError, PairingError, PlayerInputError, Refused, ResultRefused,
                               SettingsError, TournamentError, UnknownPlayer, UnusableInput)
from tournament.settings import FORMATS, INDIVIDUAL, PAIRS, ROTATING, Settings, make_settings
from tournament.event.players import add_pairs, add_players, withdraw
from tournament.event.results import enter_dgn, enter_forfeit, enter_manual, enter_record
from tournament.event.results import amend_dgn, amend_manual, amend_record
from tournament.event.rounds import pair_next_round
from tournament.event.standings import from_store as current_standings
from tournament.store.event_store import EventStore
from tournament.event.files import create_event, open_event
from tournament.event.stages import create_stage
from tournament.event.finals import create_final
from tournament.pages.sheets import write_sheets

__all__ = [
    "EventFileError", "EventStore", "FORMATS", "INDIVIDUAL", "PAIRS", "PairingError", "PlayerInputError",
    "ROTATING", "Refused", "ResultRefused", "Settings", "SettingsError", "TournamentError", "UnknownPlayer",
    "UnusableInput", "add_pairs", "create_stage", "add_players", "current_standings", "run_check", "create_event", "enter_dgn", "enter_forfeit", "enter_manual", "enter_record",
    "make_settings", "open_event", "pair_next_round", "withdraw", "write_sheets",
    "amend_dgn", "amend_manual", "amend_record",
    "create_final",
]

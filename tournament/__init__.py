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

import importlib
from typing import Any

#: Each public name and the module it is imported from when first used (PEP 562): ``import
#: tournament`` imports nothing else, so that the command's entry point (:mod:`tournament.entry`)
#: starts under its guard at once.  ``from tournament import open_event`` works as before.
_NAMES = {
    **dict.fromkeys(["EventFileError", "PairingError", "PlayerInputError", "Refused", "ResultRefused",
                     "SettingsError", "TournamentError", "UnknownPlayer", "UnusableInput"], "tournament.errors"),
    "run_check": "tournament.event.check:run",
    **dict.fromkeys(["create_event", "open_event"], "tournament.event.files"),
    "create_final": "tournament.event.finals",
    **dict.fromkeys(["add_pairs", "add_players", "withdraw"], "tournament.event.players"),
    **dict.fromkeys(["enter_dgn", "enter_forfeit", "enter_manual", "enter_record", "amend_dgn", "amend_manual",
                     "amend_record"], "tournament.event.results"),
    "pair_next_round": "tournament.event.rounds",
    "create_stage": "tournament.event.stages",
    "current_standings": "tournament.event.standings:from_store",
    "write_sheets": "tournament.pages.sheets",
    **dict.fromkeys(["FORMATS", "INDIVIDUAL", "PAIRS", "ROTATING", "Settings", "make_settings"], "tournament.settings"),
    "EventStore": "tournament.store.event_store",
}


def __getattr__(name: str) -> Any:
    """A public name, imported when first asked for and kept; any other, tried as a submodule
    (``tournament.event`` after ``import tournament``)."""
    where = _NAMES.get(name)
    if where is None:
        try:
            return importlib.import_module(f"tournament.{name}")
        except ModuleNotFoundError as e:
            if e.name != f"tournament.{name}":
                raise
            raise AttributeError(f"module 'tournament' has no attribute {name!r}") from None
    module, _, attribute = where.partition(":")
    value = getattr(importlib.import_module(module), attribute or name)
    globals()[name] = value
    return value

__all__ = [
    "EventFileError", "EventStore", "FORMATS", "INDIVIDUAL", "PAIRS", "PairingError", "PlayerInputError",
    "ROTATING", "Refused", "ResultRefused", "Settings", "SettingsError", "TournamentError", "UnknownPlayer",
    "UnusableInput", "add_pairs", "create_stage", "add_players", "current_standings", "run_check", "create_event", "enter_dgn", "enter_forfeit", "enter_manual", "enter_record",
    "make_settings", "open_event", "pair_next_round", "withdraw", "write_sheets",
    "amend_dgn", "amend_manual", "amend_record",
    "create_final",
]

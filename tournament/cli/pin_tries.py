"""``tournament pins``'s wrong PINs: reading the waits they make (``--waits``) and clearing them
(``--clear R/T``, ``--clear-director``), apart from :mod:`tournament.cli.venue` (at its length's
limit, ``tests/test_layers.py``); the library does the work (:func:`tournament.event.venue.pin_waits`,
``Venue.clear_pin_tries``, ``Venue.clear_director_pins``)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tournament.cli.app import open_for_command
from tournament.errors import UnusableInput
from tournament.event import venue as vn


def say_waits(event: Path) -> None:
    """Print the event's waits after wrong PINs, clearing nothing: a line a table that has had one,
    then the director's PIN's (:meth:`tournament.event.venue.PinWaits.lines`)."""
    with open_for_command(event) as store:
        waits = vn.pin_waits(store)
    for line in waits.lines():
        typer.echo(line)


def clear_pins(event: Path, place: Optional[tuple[int, int]], by: Optional[str]) -> None:
    """A table's wrong PINs cleared (``place``: its round and table), or (None) the event's wrong
    director's PINs alone: the director's page's operations (``Venue.clear_pin_tries``,
    ``clear_director_pins``)."""
    from tournament.event.audit import clean_text, default_author

    who = clean_text(by, "--by") or default_author() or "unknown"
    with open_for_command(event) as store:
        try:
            venue, author = vn.Venue(store), f"{who} (command line)"
            done = (venue.clear_pin_tries(*place, by=author) if place is not None
                    else venue.clear_director_pins(by=author))
        except vn.VenueError as e:
            raise UnusableInput(e.message) from None
    for said in done["said"]:
        typer.echo(said)

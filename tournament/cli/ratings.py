"""The command of ratings across events: ``ratings``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from domrec import console

from tournament.cli.app import say_waiting, emit, guarded


@guarded
def ratings(
    ratings_file: Path = typer.Argument(..., help="The ratings file (created by the first --add or --from)."),
    add: list[Path] = typer.Option([], "--add", help="Import an event's results (repeatable; the same event "
                                                     "again counts once)."),
    from_: list[Path] = typer.Option([], "--from", help="Import a federation report (`tournament export "
                                                       "--format federation`; repeatable; the same event "
                                                       "again counts once)."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """Ratings across events (openskill): import events (or their federation reports), list rating and
    uncertainty."""
    from tournament.event import ratings as rt

    # Every event file is opened (and so checked) before the ratings file is opened or created
    # (rt.import_and_rate).  The bar (a terminal only) runs while events are imported and
    # everything is rated; what each import did is said after it, so that no line is written
    # across the bar.
    imported: list[str] = []
    try:
        with console.progress_bar("rating", None):
            rated, events = rt.import_and_rate(ratings_file, add, imported, from_, say_waiting(ratings_file))
            rows = [r.row() for r in rated]
    finally:
        for line in imported:
            typer.echo(line, err=as_csv or as_json)
    if as_json:
        sys.stdout.write(json.dumps({"events": events, "ratings": rows}, ensure_ascii=False, indent=1) + "\n")
        return
    if not as_csv and not any(row["id"] for row in rows):  # no federation ids: no empty column on screen
        rows = [{k: v for k, v in row.items() if k != "id"} for row in rows]
    emit(rows, as_csv, False, f"ratings: {len(events)} event(s), {sum(e['games'] for e in events)} games",
         footer=["rating = mu - 3 sigma (openskill Plackett-Luce); sigma is the uncertainty"])

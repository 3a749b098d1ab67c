"""Commands that change a paired round before it is played: ``unpair``, ``swap``, ``move``, ``pin``,
``apart``.  Each calls one operation of :mod:`tournament.event.desk` and prints its one line."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tournament.cli.app import MAX_COUNT, guarded, open_for_command
from tournament.errors import UnusableInput
from tournament.event import desk
from tournament.values import Table

BY = typer.Option(None, "--by", help="Who makes the change (default: your login name); kept in the audit trail.")
REASON = typer.Option(None, "--reason", help="Why (kept in the audit trail).")


def _seated(store: object, tables: list[Table]) -> list[str]:
    names = {p.id: p.name for p in store.players()}  # type: ignore[attr-defined]
    return [f"round {t.round} table {t.number}: " + ", ".join(f"{s.seat} {names.get(s.player, '?')}"
                                                            for s in t.seats) for t in tables]


@guarded
def unpair(
    event: Path = typer.Argument(..., help="The event file."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Take back the last round while none of it is played (no result, no game on a table phone)."""
    with open_for_command(event) as store:
        number = desk.unpair(store, desk.Who(by, reason))
    typer.echo(f"round {number} unpaired: `tournament pair {event}` pairs it again")


@guarded
def swap(
    event: Path = typer.Argument(..., help="The event file."),
    a: str = typer.Argument(..., help="A player's name or number (#12); in a pairs event, a pair's name or a "
                                      "member's."),
    b: str = typer.Argument(..., help="The other player (or pair)."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="The round (default: the last paired)."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Swap two players' seats (two pairs', in a pairs event) before their tables are played."""
    with open_for_command(event) as store:
        said: list[str] = []  # (a forfeit the pairing stored for a team a pair short, moved with its pair)
        tables = desk.swap(store, a, b, round_no, desk.Who(by, reason), said)
        lines = _seated(store, tables) + said
        warnings = desk.seating_warnings(store, tables[0].round if tables else store.last_round(), tables)
    typer.echo("\n".join(lines) if lines else "swapped")
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)


@guarded
def move(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's name or number (#12)."),
    table: int = typer.Option(..., "--table", "-t", min=1, max=MAX_COUNT, help="The table to sit at."),
    seat: str = typer.Option(..., "--seat", "-s", help="The seat (N, E, S, W; P1, P2, …)."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="The round (default: the last paired)."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Move a player to a seat; whoever sat there takes the player's old place (seat or bye)."""
    with open_for_command(event) as store:
        said: list[str] = []
        tables = desk.move(store, player, table, seat, round_no, desk.Who(by, reason), said)
        lines = _seated(store, tables) + said
        warnings = desk.seating_warnings(store, tables[0].round if tables else store.last_round(), tables)
    typer.echo("\n".join(lines) if lines else "moved")
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)


@guarded
def pin(
    event: Path = typer.Argument(..., help="The event file."),
    player: Optional[str] = typer.Argument(None, help="The player's name or number (#12)."),
    table: Optional[int] = typer.Option(None, "--table", "-t", min=1, max=MAX_COUNT,
                                        help="The table they always sit at."),
    unpin: bool = typer.Option(False, "--unpin", help="Lift the player's pin."),
    list_: bool = typer.Option(False, "--list", help="List the pins, keep-aparts and sit-outs in force."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Pin a player to a table (a wheelchair user at table 1) from the next round paired on."""
    with open_for_command(event) as store:
        if list_:
            if player is not None or table is not None or unpin:
                raise UnusableInput("--list takes no player, --table or --unpin")
            lines = desk.requests_text(store)
            typer.echo("\n".join(lines) if lines else "no pins, keep-aparts or sit-outs")
            return
        if player is None:
            raise UnusableInput("name the player to pin (or --list)")
        if unpin == (table is not None):
            raise UnusableInput("give --table N to pin, or --unpin to lift the pin (not both)")
        typer.echo(desk.pin(store, player, table, desk.Who(by, reason)))


@guarded
def apart(
    event: Path = typer.Argument(..., help="The event file."),
    a: str = typer.Argument(..., help="A player's name or number (#12)."),
    b: str = typer.Argument(..., help="The other player."),
    rounds: Optional[int] = typer.Option(None, "--rounds", min=1, max=MAX_COUNT,
                                         help="Through round K only (default: every round)."),
    lift: bool = typer.Option(False, "--lift", help="They may meet again."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Keep two players (family, same club) at different tables, from the next round paired on."""
    if lift and rounds is not None:
        raise UnusableInput("--lift takes no --rounds")
    with open_for_command(event) as store:
        typer.echo(desk.apart(store, a, b, rounds, lift, desk.Who(by, reason)))


@guarded
def accept(
    event: Path = typer.Argument(..., help="The event file."),
    table: Optional[int] = typer.Option(None, "--table", "-t", min=1, max=MAX_COUNT,
                                        help="The table whose manual score is accepted."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="The round (default: the last paired; with --all, every round)."),
    every: bool = typer.Option(False, "--all", help="Every manual score not yet accepted."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Accept a score typed in by hand, once: `check` stops warning about it (kept in the audit trail)."""
    if (table is None) == (not every):
        raise UnusableInput("give --table N (and --round R), or --all")
    with open_for_command(event) as store:
        lines = desk.accept(store, round_no, table, desk.Who(by, reason))
    typer.echo("\n".join(lines))

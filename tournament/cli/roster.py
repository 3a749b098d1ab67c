"""Commands that fix the player list: ``rename``, ``remove``, ``sit-out``, ``return``, ``player-id``.
Each calls one operation of :mod:`tournament.event.roster` and prints its one line."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tournament.cli.app import MAX_COUNT, guarded, open_for_command
from tournament.cli.desk import BY, REASON
from tournament.event import duplicate_withdrawal, players as pl, roster
from tournament.event.desk import Who


@guarded
def rename(
    event: Path = typer.Argument(..., help="The event file."),
    old: str = typer.Argument(..., help="The player's name or number (#12); in a pairs event also a pair's name."),
    new: str = typer.Argument(..., help="The new name."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Rename a player (or a pair); their number, games and results stay theirs."""
    with open_for_command(event) as store:
        pair = roster.pair_named(store, old) is not None  # (a pair's new name is told against the pairs')
        was, now = roster.rename(store, old, new, Who(by, reason))
        warnings = pl.near_identical(store, [now], store.teams(), "pair ") if pair else pl.near_identical(store, [now])
    typer.echo(f"renamed {was!r} to {now!r}")
    for line in warnings:
        typer.echo(f"warning: {line}", err=True)


@guarded
def remove(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's name or number (#12); in a pairs event, the pair."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Remove an entry made by mistake, before it has played (withdraw a player who has)."""
    with open_for_command(event) as store:
        gone = roster.remove(store, player, Who(by, reason))
    typer.echo(f"removed #{gone.id} {gone.name}")


@guarded
def sit_out(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's name or number (#12); in a pairs event, the pair."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="The round they miss (default: the next one paired)."),
    lift: bool = typer.Option(False, "--lift", help="They play that round after all."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """A player misses one round (scored by the event's --sit-out-score: nothing by default) and comes back."""
    with open_for_command(event) as store:
        name, number = roster.sit_out(store, player, round_no, lift, Who(by, reason))
    typer.echo(f"{name} plays round {number} after all" if lift else
               f"{name} sits out round {number} (scored as the event's sit-out: tournament info) and is paired "
               f"again from round {number + 1}")


@guarded
def return_(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's name or number (#12); in a pairs event, the pair."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """A withdrawn player (or pair) comes back from the next round, with their games so far."""
    with open_for_command(event) as store:
        name, number = roster.return_player(store, player, Who(by, reason))
        team = roster.pair_named(store, name)
        more = duplicate_withdrawal.told(store, "pair_returned", team.id) if team is not None else ""
        in_play = bool(more) and number == store.last_round()
    typer.echo(f"{name} is back from round {number}" + (" (the round in play)" if in_play else ""))
    if more:  # a seated duplicate event: the boards its withdrawal marked in the round in play
        typer.echo(more)


@guarded
def player_id(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's name or number (#12)."),
    fid: Optional[str] = typer.Argument(None, help="Their id from outside the event (a federation number); "
                                                   "none: take it away."),
    by: Optional[str] = BY,
    reason: Optional[str] = REASON,
) -> None:
    """Give a player an id (a federation number) that ratings match them on across events."""
    with open_for_command(event) as store:
        p = roster.set_id(store, player, fid, Who(by, reason))
    typer.echo(f"#{p.id} {p.name}: player id {fid.strip()!r}" if fid and fid.strip() else
               f"#{p.id} {p.name}: no player id")

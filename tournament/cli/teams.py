"""``tournament team EVENT ACTION ...``: a team event's teams (add, rename, withdraw, lineup, sub, list)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional, Tuple

import typer

from tournament.cli.app import MAX_COUNT, emit, guarded, open_for_command
from tournament.errors import UnusableInput
from tournament.event import teams as tm

ACTIONS = ("add", "rename", "withdraw", "lineup", "sub", "change", "list")


@guarded
def team(
    event: Path = typer.Argument(..., help="The event file (a team event)."),
    action: str = typer.Argument(..., help="add, rename, withdraw, lineup, sub, change or list."),
    args: list[str] = typer.Argument(None, help="add: the team's name; rename: the team and its new name; "
                                                "withdraw: the team; lineup: the team, then its pairs in the "
                                                "order they sit (a name, or the team's number 1, 2); sub, "
                                                "change: the team."),
    pair: list[str] = typer.Option([], "--pair", help="add: a pair as 'Player,Partner' or "
                                                      "'Player,Partner,Pair name' (one --pair a pair; a number "
                                                      "N names it 'TEAM N')."),
    reserve: list[str] = typer.Option([], "--reserve", help="add: a reserve player (at most two)."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=1, max=MAX_COUNT,
                                           help="lineup, sub: the round (default: the next one to be paired)."),
    out: Optional[str] = typer.Option(None, "--out", help="sub: the player who leaves their pair."),
    into: Optional[str] = typer.Option(None, "--in", help="sub: the team's reserve who takes their place."),
    cross: bool = typer.Option(False, "--cross", help="change: the draw cross (the team's two pairs change "
                                                      "tables) in the match's next games."),
    swap_in: Optional[Tuple[str, str]] = typer.Option(None, "--sub", help="change: PLAYER-OUT PLAYER-IN, a reserve "
                                                                            "into the match's next game."),
    reason: Optional[str] = typer.Option(None, "--reason", help="withdraw: why (kept in the trail, "
                                                                "`tournament history`)."),
    by: Optional[str] = typer.Option(None, "--by", help="withdraw: who withdraws the team (default: your login "
                                                        "name)."),
) -> None:
    """A team event's teams: enter one, rename it, withdraw it, set its line-up for a round, bring in
    a reserve (sub), list them."""
    args = list(args or [])
    if action not in ACTIONS:
        raise UnusableInput(f"unknown action {action!r}; actions: {', '.join(ACTIONS)}")
    if (reason is not None or by is not None) and action != "withdraw":
        raise UnusableInput(f"--reason and --by are for withdraw (the desk's trail), not for {action}")
    with open_for_command(event) as store:
        if action == "list":
            emit(team_rows(store), False, False, f"{store.settings.name}: teams")
            return
        if action == "add":
            if len(args) != 1:
                raise UnusableInput("give the team's name (quoted if it has spaces), and its pairs with --pair")
            pairs = []
            for text in pair:
                parts = [x.strip() for x in text.split(",")]
                if len(parts) not in (2, 3) or not all(parts):
                    raise UnusableInput(f"--pair {text!r}: write 'Player,Partner' or 'Player,Partner,Pair name'")
                pairs.append((parts[0], parts[1], parts[2] if len(parts) == 3 else None))
            near: list[str] = []
            squad = tm.add_team(store, args[0], pairs, reserve, near=near)
            typer.echo(f"added team #{squad.id} {squad.name} (from round {squad.entered})")
            for line in near:  # entered, and told of (as a near-identical player's name is)
                typer.echo(f"warning: {line}", err=True)
        elif action == "rename":
            if len(args) != 2:
                raise UnusableInput("give the team and its new name")
            near = []
            squad = tm.rename_team(store, args[0], args[1], near=near)
            typer.echo(f"renamed team #{squad.id}: {args[0]} is now {squad.name}")
            for line in near:
                typer.echo(f"warning: {line}", err=True)
        elif action == "withdraw":
            if len(args) != 1:
                raise UnusableInput("give the team to withdraw")
            squad = tm.withdraw_team(store, args[0], reason, by)
            typer.echo(f"withdrew team {squad.name} from round {squad.withdrawn} on")
        elif action == "change":
            if len(args) != 1:
                raise UnusableInput("give the team whose captain makes the change, and --cross or --sub OUT IN")
            seated = tm.captain_change(store, args[0], cross, tuple(swap_in) if swap_in else None)
            typer.echo(f"{'draw cross' if cross else 'substitution'} for {args[0]} from the match's next game: "
                       + ", ".join(f"table {t.number}" for t in seated) + " re-seated")
        elif action == "sub":
            if len(args) != 1 or not out or not into:
                raise UnusableInput("give the team, the player who leaves with --out and the reserve with --in")
            sub = tm.substitute(store, args[0], out, into, round_no)
            names = {p.id: p.name for p in store.players()}
            pairs = {t.id: t.name for t in store.teams()}
            typer.echo(f"from round {sub.from_round} {names[sub.player_in]} plays in pair {pairs[sub.pair]} "
                       f"in place of {names[sub.player_out]}")
        else:
            if len(args) < 2:
                raise UnusableInput("give the team, then its pairs in the order they sit")
            order = tm.set_lineup(store, args[0], args[1:], round_no)
            names = {t.id: t.name for t in store.teams()}
            typer.echo(f"line-up of {args[0]} for round {round_no or store.last_round() + 1}: "
                       + ", ".join(f"table {i + 1} of the match: {names[p]}" for i, p in enumerate(order)))


def team_rows(store) -> list[dict]:  # type: ignore[no-untyped-def]
    """A row a team: number, name, its pairs, its reserves, its substitutions, from which round, withdrawn."""
    pairs = {t.id: t.name for t in store.teams()}
    players = {p.id: p.name for p in store.players()}
    subs = tm.substitutions(store)
    return [{"id": s.id, "team": s.name, "pairs": "; ".join(pairs[p] for p in s.pairs),
             "reserves": ", ".join(players[p] for p in s.reserves),
             "substitutions": "; ".join(f"{players[x.player_in]} for {players[x.player_out]} from round {x.from_round}"
                                        for x in subs if x.squad == s.id),
             "from_round": s.entered, "withdrawn": s.withdrawn or ""} for s in tm.squads(store)]

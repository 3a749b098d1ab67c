"""Commands of the event and its players: ``new``, ``add``, ``players``, ``withdraw``, ``info``, ``simulate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import typer

from domrec import console

from tournament.cli.app import (MAX_COUNT, SEED_MAX, SEED_MIN, emit, guarded, number, once_written, open_for_command,
                                parse_pairs, parse_rule_options)
from tournament.errors import TournamentError, UnusableInput
from tournament.event import duplicate_withdrawal, players as pl
from tournament.event.files import create_event
from tournament.event.simulate import simulate_event
from tournament.settings import FORMATS, HEAD_TO_HEAD, HEAD_TO_HEAD_RULES, MAX_ACCELERATED, PAIRS, make_settings
from tournament.values import Team


class EventNotMade(TournamentError):
    """``tournament new`` interrupted (Ctrl-C) before its file was in place: there is no file."""

    exit_code = 2


@guarded
def new(
    event: Path = typer.Argument(..., help="The event file to create (refused if it exists)."),
    name: str = typer.Option(..., "--name", help="The event's name."),
    game: str = typer.Option(..., "--game", help="broadway, competitive, horse-race, castle-rock or domino-roads."),
    format: str = typer.Option(..., "--format", help=f"{', '.join(FORMATS)}, teams or duplicate."),
    table_size: Optional[int] = typer.Option(None, "--table-size", min=1, max=MAX_COUNT,
                                             help="Players a table (individual format)."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant (celko for Horse Race)."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX,
                             help="Seed of the first-round draw (and of random tie order)."),
    team_size: Optional[int] = typer.Option(None, "--team-size", min=1, max=MAX_COUNT,
                                            help="A team event: 4 (two pairs, cuartetas) or 6 (three pairs)."),
    team_pairing: Optional[str] = typer.Option(None, "--team-pairing", help="A team event: swiss (default, on "
                                                                            "the team standings) or round-robin."),
    team_tiebreak: Optional[str] = typer.Option(None, "--team-tiebreak", help="A team event: the team standings' "
                                                "keys in order, of games, efectividad, match-points, for, "
                                                "head-to-head."),
    team_set: Optional[int] = typer.Option(None, "--team-set", min=1, max=500,
                                           help="A team event in sets: a match is won by the first team to this "
                                                "many game points (team-pairs: 50)."),
    preset: Optional[str] = typer.Option(None, "--preset", help="A federation's rules: femundo-teams, fid-teams, "
                                                                "team-pairs, dominousa or fed-spain."),
    bye: Optional[str] = typer.Option(None, "--bye", help="What a bye scores: wins=1,for=0,against=0 "
                                                          "(partnership formats) or placement=1.5,score=0."),
    sit_out_score: Optional[str] = typer.Option(None, "--sit-out-score", help="What a round a player asked to "
                                                "sit out scores, in --bye's keys (default: nothing, "
                                                "wins=0,for=0,against=0; a pairing's bye keeps --bye)."),
    placement: Optional[str] = typer.Option(None, "--placement", help="Placement points by place, e.g. 3,2,1,0."),
    tiebreak: Optional[str] = typer.Option(None, "--tiebreak", help="Ranking keys in order, e.g. wins,diff,for "
                                                                    "or wins,head-to-head,efectividad."),
    head_to_head: Optional[str] = typer.Option(None, "--head-to-head", help="Where the tie-breaks name "
                                               "head-to-head: two (default: only between exactly two tied) or "
                                               "mini-league (the results among all the tied)."),
    time_limit: Optional[int] = typer.Option(None, "--time-limit", min=1, max=1440,
                                             help="Minutes a game (shown on sheets and the report)."),
    forfeit_score: Optional[int] = typer.Option(None, "--forfeit-score", min=0, max=1_000_000,
                                                help="A forfeit's score for the side that played (default: "
                                                     "the game's target)."),
    schedule: Optional[str] = typer.Option(None, "--schedule", help="Rotating partners: standings (default) or "
                                                                    "balanced (fixed in advance, --rounds N)."),
    rounds_: Optional[int] = typer.Option(None, "--rounds", min=0, max=MAX_COUNT,  # (0: said by the settings' own line)
                                          help="The rounds of a balanced schedule; a duplicate event: a "
                                               "session cut short to its movement's first N rounds."),
    lang: Optional[str] = typer.Option(None, "--lang", help="The language of the players' pages when their "
                                                            "browser asks for none of en, es (and of report and "
                                                            "sheets): en (default) or es."),
    movement: Optional[str] = typer.Option(None, "--movement", help="A duplicate event: mitchell (default; "
                                           "share and relay at an even number of tables), mitchell-skip "
                                           "(the skip instead) or howell."),
    boards_per_round: Optional[int] = typer.Option(None, "--boards-per-round", min=1, max=MAX_COUNT,
                                                   help="A duplicate event: boards a round, 2 (default) to 4."),
    ranking: Optional[str] = typer.Option(None, "--ranking", help="A duplicate event: rank the pairs by "
                                                                  "matchpoints (default) or imps."),
    duplicate: bool = typer.Option(False, "--duplicate", help="A team event of 4: duplicate teams, each match "
                                   "playing the same boards at both its tables, scored in IMPs."),
    victory_points: bool = typer.Option(False, "--victory-points", help="Duplicate teams: each match's IMPs "
                                        "turned into victory points (0-20), which rank the teams."),
    accelerated: Optional[int] = typer.Option(None, "--accelerated", min=1, max=MAX_ACCELERATED,
                                              help="Accelerated pairings (Baku) in the first N rounds: the top "
                                                   "half of the seeded field is paired with a virtual win more "
                                                   "(half a win in the later half of them); never in the "
                                                   "standings."),
) -> None:
    """Create an event file: its name, game, rules and format."""
    options = parse_rule_options(option)
    bye_values = {k: number(v, f"bye {k}") for k, v in parse_pairs(bye, "a bye").items()} if bye else None
    places = tuple(number(x, "a placement point") for x in placement.split(",")) if placement else None
    sit_out = ({k: number(v, f"sit-out {k}") for k, v in parse_pairs(sit_out_score, "a sit-out").items()}
               if sit_out_score else None)
    # (An empty --tiebreak "" or "," is given and names no key: make_settings refuses it naming the
    # keys, not taken as the default ranking.)
    keys = tuple(k.strip() for k in tiebreak.split(",") if k.strip()) if tiebreak is not None else None
    team_keys = (tuple(k.strip() for k in team_tiebreak.split(",") if k.strip()) if team_tiebreak is not None
                 else None)
    if rounds_ is not None and rounds_ < 1 and format != "duplicate":  # (a duplicate session's range: make_settings)
        raise UnusableInput(f"--rounds is a number of rounds, 1 or more, not {rounds_}")
    settings = make_settings(name, game, format, table_size, seed, variant, options, bye_values, places, keys,
                             time_limit, forfeit_score, schedule=schedule, rounds=rounds_, lang=lang,
                             team_size=team_size, team_schedule=team_pairing, team_tiebreaks=team_keys, preset=preset,
                             team_set=team_set, movement=movement, boards_per_round=boards_per_round,
                             ranking=ranking, team_duplicate=duplicate, victory_points=victory_points,
                             head_to_head=head_to_head, sit_out=sit_out, accelerated=accelerated)
    # Ctrl-C once the file is in place under its name (complete: made whole under another name, then
    # linked) says the event is made, whether it lands in what follows (the file closing, the line
    # below, the command line closing) or in the last steps of making it; before, that there is none.
    made = f"{event} is made, a complete event (tournament add {event} enters its players)"
    try:
        store = create_event(event, settings)
    except KeyboardInterrupt:
        if event.exists() or event.is_symlink():
            once_written(made)
            raise
        raise EventNotMade(f"interrupted; {event} was not made: nothing was written") from None
    once_written(made)
    store.close()
    typer.echo(f"created {event}: {settings.name} — {settings.game}, {settings.format_name}, tables of "
               f"{settings.table_size}" + (f"; balanced schedule of {settings.rounds} rounds" if settings.rounds else "")
               + (f"; teams of {settings.team_size} ({settings.pairs_a_team} pairs), {settings.team_schedule}"
                  if settings.teams else "")
               + (f"; matches are sets to {settings.team_set} game points" if settings.team_set else "")
               + (f"; preset {settings.preset}" if settings.preset else "")
               + (f"; {settings.movement_words}, {settings.boards_per_round} boards a round, ranked by "
                  f"{settings.ranking} (make the boards: tournament boards {event} --boards N --seed S)"
                  if settings.duplicate else "")
               + (f"; duplicate teams, {settings.boards_per_round} boards a round, ranked by "
                  f"{'victory points' if settings.victory_points else 'match points'} then IMPs (make the boards: "
                  f"tournament boards {event} --boards N --seed S)" if settings.team_duplicate else ""))


@guarded
def add(
    event: Path = typer.Argument(..., help="The event file."),
    names: list[str] = typer.Argument(None, help="Player names (a pairs event: the two partners)."),
    from_csv: Optional[Path] = typer.Option(None, "--csv", help="A CSV file with a header: name (and partner, "
                                                                "pair for a pairs event; optional id, "
                                                                "partner_id); - reads it from standard input."),
    pair_name: Optional[str] = typer.Option(None, "--pair", help="The pair's name (pairs event; default A & B)."),
    player_id: list[str] = typer.Option([], "--id", help="A player's id from outside the event (a federation "
                                                         "number), one a name in order; ratings match on it."),
) -> None:
    """Enter players (or partnerships), by name or from a CSV file; late entries play from the next round."""
    with open_for_command(event) as store:
        names = list(names or [])
        pairs = store.settings.format == PAIRS
        ids: list | None = None
        fields: list | None = None
        rows: list[tuple[int, str, str]] = []  # a CSV's names and ids, by line (none from the command line)
        if player_id and len(player_id) != len(names):
            raise UnusableInput(f"give one --id a name ({len(player_id)} for {len(names)} names)")
        if store.settings.teams:
            from tournament.event import teams as tm

            if names or from_csv is None:
                raise UnusableInput("a team event enters whole teams: --csv FILE with name and team columns (and "
                                    "pair), or `tournament team EVENT add`")
            near_teams: list[str] = []
            read = tm.read_teams_csv(from_csv, store.settings.pairs_a_team, rows)
            with pl.said_at_line(from_csv, rows):  # (a name already entered: said at its line)
                made = tm.add_teams(store, *read, near=near_teams)
            for squad in made:
                typer.echo(f"added team #{squad.id} {squad.name}: {len(squad.pairs)} pairs, "
                           f"{len(squad.reserves)} reserve{'s' if len(squad.reserves) != 1 else ''} "
                           f"(from round {squad.entered})")
            for line in near_teams:
                typer.echo(f"warning: {line}", err=True)
            return
        if from_csv is not None:
            if names:
                raise UnusableInput("give names or --csv, not both")
            entries, ids, fields = pl.read_csv_entries(from_csv, pairs, rows)
        elif pairs:
            if len(names) != 2:
                raise UnusableInput("a pairs event enters one partnership at a time: give exactly two names "
                                    "(or use --csv)")
            entries = [(names[0], names[1], pair_name)]
            ids = [(player_id[0], player_id[1])] if player_id else None
        else:
            if not names:
                raise UnusableInput("give at least one name, or --csv FILE")
            if pair_name:
                raise UnusableInput("--pair is for pairs events only")
            entries = names
            ids = list(player_id) if player_id else None
        # The look-alike warnings are worked out within the write (Ctrl-C there: nothing written);
        # an interrupt after it says the players were added, and prints the warnings not yet printed.
        near: list[str] = []
        if pairs:
            with pl.said_at_line(from_csv or "", rows):  # (a CSV's name already entered: said at its line)
                teams = pl.add_pairs(store, entries, ids, fields, near=near)
            lines = [f"added pair #{t.id} {t.name} (from round {t.entered})" for t in teams]
            entered = "the pair was added" if len(teams) == 1 else f"the {len(teams)} pairs were added"
        else:
            with pl.said_at_line(from_csv or "", rows):
                added = pl.add_players(store, entries, ids, fields, near=near)
            lines = [f"added #{p.id} {p.name} (from round {p.entered})" for p in added]
            entered = "the player was added" if len(added) == 1 else f"the {len(added)} players were added"
        warnings = [f"warning: {line}" for line in near]
        once_written(f"{entered} (tournament players {event} lists them), but not all listed here", warnings)
        for line in lines:
            typer.echo(line)
        for at, line in enumerate(warnings):
            once_written(f"{entered} and listed, but not every look-alike warning was printed", warnings[at:])
            typer.echo(line, err=True)
        once_written(f"{entered} and listed" + (", with their look-alike warnings" if warnings else ""))


@guarded
def players(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV instead of a table."),
    as_json: bool = typer.Option(False, "--json", help="JSON instead of a table."),
) -> None:
    """List the players (numbers, names, pairs, entry and withdrawal)."""
    with open_for_command(event) as store:
        emit(pl.player_rows(store), as_csv, as_json, f"{store.settings.name}: players")


@guarded
def withdraw(
    event: Path = typer.Argument(..., help="The event file."),
    player: str = typer.Argument(..., help="The player's exact name or number (#12); in a pairs event, "
                                           "the pair's name or a member's (a number that may be the pair's "
                                           "or a player's is refused: name the pair)."),
    reason: Optional[str] = typer.Option(None, "--reason", help="Why (kept in the trail, `tournament history`)."),
    by: Optional[str] = typer.Option(None, "--by", help="Who withdraws them (default: your login name)."),
) -> None:
    """Withdraw a player (or pair) from the next round on; their games so far still count."""
    with open_for_command(event) as store:
        who = pl.withdraw(store, player, reason, by)
        typer.echo(duplicate_withdrawal.withdrawn_words(store, who) if isinstance(who, Team) else
                   f"withdrew {who.name} from round {who.withdrawn} on")
        if isinstance(who, Team):  # a seated duplicate event: its boards from now on, not played
            more = duplicate_withdrawal.told(store, "pair_withdrawn", who.id)
            if more:
                typer.echo(more)


@guarded
def info(event: Path = typer.Argument(..., help="The event file.")) -> None:
    """The event's settings and progress."""
    from tournament.pages.terminal import printable

    with open_for_command(event) as store:
        s = store.settings
        results = store.results()
        lines = [f"event: {printable(s.name)}", f"uuid: {store.uuid}", f"game: {s.game}" + (f" ({s.variant})" if s.variant else ""),
                 f"options: {json.dumps(s.options, ensure_ascii=False) if s.options else 'defaults'}",
                 f"format: {s.format_name}, tables of {s.table_size}", _seed_line(s),
                 f"bye scores: {', '.join(f'{k}={v:g}' for k, v in s.bye.items())}",
                 f"a sit-out asked for scores: {', '.join(f'{k}={v:g}' for k, v in s.sit_out.items())}",
                 f"ranking: {', then '.join(s.tiebreaks)}"
                 + (f" (head-to-head: {s.head_to_head}, {HEAD_TO_HEAD_RULES[s.head_to_head]})"
                    if HEAD_TO_HEAD in s.tiebreaks else ""),
                 f"time limit: {f'{s.time_limit} minutes a game' if s.time_limit else 'none'}",
                 f"forfeit score: {s.forfeit_score}-0", f"language of the pages: {s.lang}"]
        if s.duplicate or s.team_duplicate:  # no games of its own: no bye scores, forfeit score, game ranking
            from tournament.event import duplicate as dup

            lines = [x for x in lines if not x.startswith(("bye scores:", "a sit-out", "ranking:", "forfeit score:"))]
            lines.append(f"ranking: {dup.ranking_text(store)}")
            lines.append(f"boards: {dup.boards_summary(store)}")
        if s.rounds:
            lines.append(f"schedule: {s.schedule}, {s.rounds} rounds")
        if s.accelerated:
            lines.append(f"accelerated pairings (Baku): rounds 1-{s.accelerated}")
        if s.teams:
            ranked = ", then ".join(s.team_tiebreaks) if not s.team_duplicate else \
                ("victory points" if s.victory_points else "match points") + ", then IMPs"
            lines.append(f"teams: {s.team_size} players ({s.pairs_a_team} pairs) and up to 2 reserves; "
                         f"paired {s.team_schedule}; teams ranked by {ranked}")
            if s.team_duplicate:
                lines.append(f"duplicate teams: each match plays the round's {s.boards_per_round} boards at both "
                             f"its tables (round R: boards {s.boards_per_round}R-{s.boards_per_round - 1} to "
                             f"{s.boards_per_round}R), scored in IMPs"
                             + (" and victory points" if s.victory_points else ""))
            if s.team_set:
                lines.append(f"matches: sets, won by the first team to {s.team_set} game points (a game 1 point); "
                             f"a captain's change after 6 games (tournament team EVENT change)")
        if s.duplicate:
            lines.append(f"duplicate: {s.movement_words}, {s.boards_per_round} boards a round, pairs ranked by "
                         f"{s.ranking}")
        if s.preset:
            from tournament.settings import PRESETS

            chosen = PRESETS[s.preset]
            target = (f"games to {chosen.target} points where the game takes a target"
                      if chosen.target else "the game's own target")
            lines.append(f"preset: {s.preset} ({chosen.source}); sets {target}, "
                         f"time limit {chosen.time_limit or 'none'}, forfeit score, ranking order")
        if s.placement:
            lines.append(f"placement points: {', '.join(f'{p:g}' for p in s.placement)}")
        entered = f"results: {len(results)}"
        if s.duplicate or s.team_duplicate:  # a duplicate table's results are its boards'
            from tournament.store import boards as boards_sql

            entered = f"board results: {len(boards_sql.results(store))}"
        lines.append(f"players: {len(store.players())}; rounds paired: {store.last_round()}; {entered}")
        from tournament.event import progress

        lines.append(f"progress: {progress.status(store)}")  # (as the feed's event says: "finished")
        typer.echo("\n".join(lines))


def _seed_line(s: Any) -> str:
    """``info``'s line of the event's seed, named for what it draws: the pairings, not a duplicate
    event's boards, whose deals have a seed of their own (``boards:``, ``tournament boards --seed``)."""
    if s.duplicate or s.team_duplicate:
        return f"pairing seed: {s.seed} (the pairings' draw, not the boards': their seed is on the boards line)"
    return f"pairing seed: {s.seed} (the first round's draw and random tie order)"


@guarded
def simulate(
    event: Path = typer.Argument(..., help="The event file to create (refused if it exists)."),
    game: str = typer.Option("competitive", "--game", help="The game."),
    format: str = typer.Option("rotating", "--format", help=f"{', '.join(FORMATS)}."),
    players_: int = typer.Option(16, "--players", "-p", min=2, max=MAX_COUNT, help="How many players."),
    rounds_: Optional[int] = typer.Option(None, "--rounds", "-n", min=0, max=MAX_COUNT,
                                          help="How many opening rounds (0: only --stage); 5 if not given, "
                                               "or a duplicate session's movement's rounds."),
    seed: int = typer.Option(0, "--seed", min=SEED_MIN, max=SEED_MAX, help="Same seed, same event."),
    table_size: Optional[int] = typer.Option(None, "--table-size", min=1, max=MAX_COUNT,
                                             help="Players a table (individual format)."),
    option: list[str] = typer.Option([], "--option", help="A rule option, name=value (repeatable)."),
    variant: Optional[str] = typer.Option(None, "--variant", help="A named variant."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress lines."),
    stage: Optional[str] = typer.Option(None, "--stage", help="After the opening rounds (--rounds 0 for none): "
                                        "single, double, multi, roundrobin or groups (groups then a knockout)."),
    third_place: bool = typer.Option(False, "--third-place", help="Knockout: play a third-place game."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="Knockout: a match is won by the first to win N games."),
    advance: int = typer.Option(2, "--advance", min=1, max=MAX_COUNT,
                                help="Multi-player knockout: the top K of each table go "
                                     "on; groups: the top K of each group."),
    groups: int = typer.Option(2, "--groups", min=1, max=MAX_COUNT, help="Groups (--stage groups)."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the standings enter the stage."),
    teams_: Optional[int] = typer.Option(None, "--teams", min=2, max=MAX_COUNT,
                                         help="--format teams: how many teams (instead of --players)."),
    team_size: int = typer.Option(4, "--team-size", min=1, max=MAX_COUNT,
                                  help="--format teams: 4 (two pairs) or 6 (three pairs)."),
    team_set: Optional[int] = typer.Option(None, "--team-set", min=1, max=500,
                                           help="--format teams: each match a set, won by the first team to this "
                                                "many game points (its games seated until it is won)."),
    tables: Optional[int] = typer.Option(None, "--tables", min=3, max=30,
                                         help="--format duplicate: how many tables (two pairs each)."),
    pairs: Optional[int] = typer.Option(None, "--pairs", min=5, max=60,
                                        help="--format duplicate: how many pairs, instead of --tables (an odd "
                                             "number: one pair sits out each round)."),
    movement: Optional[str] = typer.Option(None, "--movement", help="--format duplicate: mitchell (default), "
                                                                    "mitchell-skip or howell."),
    boards_per_round: Optional[int] = typer.Option(None, "--boards-per-round", min=1, max=MAX_COUNT,
                                                   help="Duplicate (pairs or teams): boards a round, 2 to 4."),
    duplicate: bool = typer.Option(False, "--duplicate", help="--format teams: duplicate teams (teams of 4, "
                                                              "the same boards at both tables of a match)."),
    victory_points: bool = typer.Option(False, "--victory-points", help="Duplicate teams: rank by victory "
                                                                        "points."),
) -> None:
    """Run a whole event with simulated games (domrec simulate), entered through the result path; a
    duplicate event (--format duplicate --tables N, or --format teams --duplicate --teams N) with each
    board's hand played from its deal."""
    options = parse_rule_options(option)
    if format == "duplicate" or duplicate:
        _simulate_duplicate(event, game, format, tables, teams_, rounds_, seed, movement, boards_per_round,
                            options, variant, quiet, duplicate, victory_points, stage, pairs)
        return
    rounds_ = 5 if rounds_ is None else rounds_
    if tables is not None or pairs is not None or movement is not None or boards_per_round is not None \
            or victory_points:
        raise UnusableInput("--tables, --pairs, --movement, --boards-per-round and --victory-points are for a duplicate "
                            "event (--format duplicate, or --format teams --duplicate)")
    if teams_ is not None:
        if format != "teams":
            raise UnusableInput("--teams is for --format teams")
        players_ = teams_ * team_size
    elif format == "teams":
        raise UnusableInput("say how many teams: --teams N")
    if team_set is not None and format != "teams":
        raise UnusableInput("--team-set is for --format teams")
    if format == PAIRS and players_ % 2:
        raise UnusableInput("a pairs event needs an even number of players")
    spec = then = None
    if stage is not None:
        seeding = {"seeding": "standings" if rounds_ else "random", "top": top}
        if stage == "groups":
            spec = {"format": "roundrobin", "groups": groups, **seeding}
            then = {"format": "single", "seeding": "groups", "per_group": advance, "third_place": third_place,
                    "wins_needed": first_to}
        elif stage == "roundrobin":
            spec = {"format": "roundrobin", **seeding}
        elif stage in ("single", "double", "multi"):
            spec = {"format": stage, "third_place": third_place, "wins_needed": first_to, "advance": advance,
                    **seeding}
        else:
            raise UnusableInput(f"unknown --stage {stage!r}; stages: single, double, multi, roundrobin, groups")
    with console.progress_bar("simulating", rounds_ if spec is None else None, enabled=not quiet) as bar:
        def say(line: str) -> None:  # a line a round (or a stage's games), above the bar on a terminal
            bar.say(line)
            bar.advance()

        summary = simulate_event(event, game, format, players_, rounds_, seed, table_size, options or None,
                                 variant, progress=None if quiet else say, stage=spec, then=then,
                                 team_size=team_size if format == "teams" else None, team_set=team_set)
    typer.echo(f"simulated {summary.path}: {_counted(summary.players, 'player')}, {_counted(summary.rounds, 'round')}, "
               f"{_counted(summary.games, 'game')}, {_counted(summary.byes, 'bye')}")


def _counted(n: int, word: str) -> str:
    """``1 round``, ``2 rounds``: simulate's summary said "1 rounds"."""
    return f"{n} {word}{'s' if n != 1 else ''}"


def _simulate_duplicate(event: Path, game: str, format: str, tables: Optional[int], teams_: Optional[int],
                        rounds_: Optional[int], seed: int, movement: Optional[str], boards_per_round: Optional[int],
                        options: dict, variant: Optional[str], quiet: bool, duplicate: bool,  # type: ignore[type-arg]
                        victory_points: bool, stage: Optional[str], pairs: Optional[int]) -> None:
    """``simulate --format duplicate --tables N`` (or ``--pairs N``) or ``--format teams --duplicate
    --teams N``."""
    from tournament.event.simulate import simulate_duplicate

    if stage is not None:
        raise UnusableInput("a duplicate event has no --stage: its rounds are the movement's (or the team matches)")
    if format == "duplicate":
        if duplicate or teams_ is not None or victory_points:
            raise UnusableInput("--duplicate, --teams and --victory-points are for duplicate teams "
                                "(--format teams --duplicate)")
        if tables is None and pairs is None:
            raise UnusableInput("say how many tables: --tables N (3 to 30), or pairs: --pairs N (5 to 60)")
        if tables is not None and pairs is not None:
            raise UnusableInput("give --tables or --pairs, not both (--pairs N plays on (N + 1) / 2 tables)")
    else:
        if format != "teams":
            raise UnusableInput("--duplicate is for --format teams (duplicate pairs: --format duplicate)")
        if teams_ is None:
            raise UnusableInput("say how many teams: --teams N")
        if tables is not None or pairs is not None or movement is not None:
            raise UnusableInput("--tables, --pairs and --movement are for duplicate pairs (--format duplicate)")
    with console.progress_bar("simulating", rounds_ or None, enabled=not quiet) as bar:
        def say(line: str) -> None:
            bar.say(line)
            bar.advance()

        try:
            summary = simulate_duplicate(event, game, tables or 0, rounds_, seed, movement, boards_per_round,
                                         options or None, variant, progress=None if quiet else say,
                                         teams=teams_ if format == "teams" else None,
                                         victory_points=victory_points, pairs=pairs)
        except ValueError as e:
            raise UnusableInput(str(e)) from None
    typer.echo(f"simulated {summary.path}: {_counted(summary.players, 'player')}, {_counted(summary.rounds, 'round')}, "
               f"{_counted(summary.games, 'board result')}, "
               f"{_counted(summary.byes, 'sit-out' if format == 'duplicate' else 'bye')}")

"""Commands of the standings and the stages after the rounds: ``standings``, ``knockout``, ``roundrobin``,
``final``, ``bracket``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, Optional

import typer

from tournament.cli.app import MAX_COUNT, emit, guarded, open_for_command
from tournament.errors import UnusableInput
from tournament.event import players as pl, standings as st
from tournament.pages import display
from tournament.store.event_store import EventStore


@guarded
def standings(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Standings after this round."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
    stage_id: Optional[int] = typer.Option(None, "--stage", min=1, max=MAX_COUNT,
                                           help="Only one stage's games: 1 is the opening "
                                                "rounds, later stages as `bracket` numbers them."),
    wide: bool = typer.Option(False, "--wide", help="Every column at full width, however wide the terminal "
                                                   "(else the least important go when it is narrow)."),
    by: Optional[str] = typer.Option(None, "--by", help="Prize lists: the standings within each value of this "
                                                        "column of the players CSV (sex, category, club)."),
    best: Optional[int] = typer.Option(None, "--best", min=1, max=MAX_COUNT,
                                       help="With --by: the values (clubs) ranked by the sum of their best K "
                                            "players."),
    lang: Optional[str] = typer.Option(None, "--lang", help="A team event of sets: the sets' lines, en or es, "
                                                            "in the words of the hall's pages (default: the "
                                                            "event's language)."),
) -> None:
    """The standings, from scratch; results of unfinished rounds are marked provisional."""
    from tournament.cli.pages import _language
    from tournament.event import finals

    with open_for_command(event) as store:
        st.check_paired(store, round_no)
        lang = _language(lang, store.settings.lang)
        if store.settings.duplicate:
            if round_no is not None or stage_id is not None or by is not None:
                raise UnusableInput("a duplicate event's standings are the session's: no --round, --stage or --by")
            from tournament.cli.duplicate import print_standings
            print_standings(store, as_csv, as_json, wide)
            return
        if store.settings.team_duplicate:
            if round_no is not None or stage_id is not None or (by is not None and by != "team"):
                raise UnusableInput("duplicate teams' standings are the teams': no --round, --stage or --by")
            from tournament.cli.duplicate import print_team_standings
            print_team_standings(store, as_csv, as_json, wide, lang)
            return
        if by in UNITS:
            _unit_standings(store, by, round_no, as_csv, as_json, wide, lang)
            return
        if best is not None and by is None:
            raise UnusableInput("--best sums a club's best players: give the column with --by (--by club --best 3)")
        if by is not None:
            if round_no is not None and stage_id is not None:
                raise UnusableInput("give --round or --stage, not both")
            table = st.of_stage(store, stage_id)[0] if stage_id is not None else st.event_standings(store, round_no)
            _prize_lists(store, table, by, best, as_csv, as_json, wide)
            return
        final_stage = finals.final_stage(store)
        if final_stage is not None and stage_id in (None, final_stage.id) and round_no is None:
            _final_standings(store, final_stage, stage_id is None, as_csv, as_json, wide)
            return
        if stage_id is None and store.settings.teams:  # the teams' standings, in every form (CSV, JSON too)
            _unit_standings(store, "team", round_no, as_csv, as_json, wide, lang, whole=True)
            return
        if stage_id is None:
            table = st.event_standings(store, round_no)
        else:
            if round_no is not None:
                raise UnusableInput("give --round or --stage, not both")
            table, chosen = st.of_stage(store, stage_id)
            if store.settings.teams:  # a team event's stage ranks its teams (its CSV too)
                _team_stage_standings(store, chosen, stage_id, as_json, wide, as_csv, lang)
                return
        rows = [table.row_dict(s) for s in table.rows]
        note = [provisional_line(table.missing)] if table.provisional else []
        note.append(table.ranked_by())
        note += _late_note([r["status"] for r in rows], table.through_round)
        if stage_id is None:
            from tournament.event import stages as stg

            note += [f"the games of stage {x.id} ({x.name}) are not counted here: `tournament standings --stage "
                     f"{x.id}` ranks them" for x in stg.load(store)]
        if as_json:
            doc = table.to_dict()
            if stage_id is None:  # the rankings by team, pair and player, for another program to read
                from tournament.event import teams as tm
                doc.update(tm.standings_json(store, round_no))
            sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
            return
        if as_csv:
            for r in rows:
                r["provisional"] = "yes" if table.provisional else ""
                r["ranked_by"] = ", ".join(table.tiebreaks)
        title = f"{store.settings.name} — standings after round {table.through_round}"
        if stage_id is not None:
            title = (f"{store.settings.name} — standings of stage {stage_id} "
                     f"({chosen.name if chosen is not None else 'the opening rounds'})")
        shown = rows if as_csv else [display.display_row(r, table.tiebreaks) for r in rows]
        emit(shown, as_csv, False, title + (" (provisional)" if table.provisional else ""), footer=note, wide=wide,
             keep=display.ranking_columns(table.tiebreaks))


def _team_stage_standings(store: EventStore, chosen: Any, stage_id: int, as_json: bool, wide: bool,
                          as_csv: bool = False, lang: str = "en") -> None:
    """``standings --stage N`` of a team event: the teams ranked by that stage's matches (as a
    table, JSON or CSV: a row a team, as ``standings --by team --csv`` gives the event's); while
    provisional, the tables still missing said under it (and ``missing`` in the JSON), as the
    event's own team standings say them, in the same language."""
    from tournament.event.stages import team_stage_standings

    table = team_stage_standings(store, chosen)
    rows = [{k: v for k, v in r.to_dict().items() if k != "id"} for r in table.rows]
    if as_json:
        sys.stdout.write(json.dumps({"by": "team", "stage": stage_id, "provisional": table.provisional,
                                     "missing": {str(k): v for k, v in sorted(table.missing.items())},
                                     "rows": rows}, ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv:  # as the pairs' CSV: whether it is provisional, and what ranks it, on each row
        emit([{**r, "provisional": "yes" if table.provisional else "", "ranked_by": ", ".join(table.tiebreaks)}
              for r in rows], True, False, "")
        return
    name = chosen.name if chosen is not None else "the opening rounds"
    emit([display.team_display_row(r) for r in rows], False, False,
         f"{store.settings.name} — the teams in stage {stage_id} ({name})"
         + (" (provisional)" if table.provisional else ""),
         footer=([provisional_line(table.missing, lang)] if table.provisional else [])
         + [_team_ranked_line(table.tiebreaks, lang)], wide=wide)


def _team_ranked_line(keys: tuple[str, ...], lang: str = "en") -> str:
    """The line under a team standings' grid saying what ranks it: in English its keys, in
    another language the hall's sentence (as the match and provisional lines beside it)."""
    if lang == "en":
        return f"ranked by {', then '.join(keys)}"
    from tournament.pages.public import TEAM_KEY_COLUMNS
    from tournament.pages.words import Words

    said = Words(lang).ranked_text({"tiebreaks": [TEAM_KEY_COLUMNS.get(k, k) for k in keys]})
    return said[:1].lower() + said[1:]


#: ``standings --by`` these: a ranking of another unit (not a prize list of a CSV column).
UNITS = ("team", "pair", "player")


def provisional_line(missing: dict[int, int], lang: str = "en") -> str:
    """The line under provisional standings: the tables still without a result, round by round
    (every event's standings at the terminal, the teams' too); in Spanish, the hall's words."""
    if lang != "en":
        from tournament.i18n import translations

        _ = translations(lang).gettext
        parts = ", ".join(_("round %(r)s: %(n)s") % {"r": r, "n": n} for r, n in sorted(missing.items()))
        return (_("Provisional: results still missing (%(missing)s)") % {"missing": parts} if parts
                else _("Provisional: results still missing"))
    parts = ", ".join(f"round {r}: {n} table{'s' if n > 1 else ''} missing" for r, n in sorted(missing.items()))
    return "PROVISIONAL — results still missing" + (f" ({parts})" if parts else "")


def _late_note(statuses: list[Any], through: int, lang: str = "en") -> list[str]:
    """The line under standings listing a late entry (status ``from round K``): why it is last
    (:func:`tournament.pairing.standings.late_rows`); ``lang``: a team event's lines, in the hall's
    words (the status as the hall's pages label it)."""
    from tournament.i18n import translations
    from tournament.pages.words import Words

    late = sorted({str(x) for x in statuses if str(x).startswith("from round ")}, key=lambda x: int(x.split()[-1]))
    if not late:
        return []
    said = ", ".join(Words(lang).label(x) for x in late)
    return [translations(lang).gettext("%(late)s: a late entry, in none of the rounds counted here (through round "
                                       "%(n)s): listed after the others") % {"late": said, "n": through}]


def _unit_standings(store: EventStore, by: str, round_no: Optional[int], as_csv: bool, as_json: bool,
                    wide: bool, lang: str = "en", whole: bool = False) -> None:
    """``standings --by team|pair|player``: a team event's team standings (what ``standings`` shows
    for one: ``whole``, its JSON with the pairs' and players' lists too), or the pairs' or players'
    own ranking inside a team (or pairs) event.  Every form says what the table is: provisional
    (the tables still missing), the keys that rank it (the CSV on each row, as the event's own)."""
    from tournament.event import teams as tm

    s = store.settings
    if by == "team" and not s.teams:
        raise UnusableInput("--by team ranks the teams of a team event; this is a " + s.format_name + " event")
    if by == "pair" and s.format != "pairs":
        raise UnusableInput(f"--by pair ranks the pairs of a pairs or team event; this is a {s.format_name} event")
    if by == "player" and not s.partnership:
        raise UnusableInput("an individual event ranks its players already: `tournament standings`")
    if by == "team":
        table = tm.team_standings(store, round_no, late_last=True)
        rows = [{k: v for k, v in r.to_dict().items() if k != "id"} for r in table.rows]
        through, provisional, keys = table.through_round, table.provisional, ", then ".join(table.tiebreaks)
        tiebreaks, missing = table.tiebreaks, table.missing
    else:
        ranked = st.event_standings(store, round_no) if by == "pair" else tm.player_standings(store, round_no)
        rows = [tm._unit_row(r, by, ranked.tiebreaks) for r in ranked.rows]
        through, provisional, keys = ranked.through_round, ranked.provisional, ", then ".join(ranked.tiebreaks)
        tiebreaks, missing = ranked.tiebreaks, ranked.missing
    if as_json:
        state = {"through_round": through, "provisional": provisional,
                 "missing": {str(k): v for k, v in sorted(missing.items())}, "tiebreaks": list(tiebreaks),
                 "ranked_by": f"ranked by {keys}"}
        if whole:  # the event's own standings: the teams, as `standings` shows them, and every ranking's list
            doc = {"format": "teams", "by": by, **state, "standings": [r.to_dict() for r in table.rows]}
            doc.update(tm.standings_json(store, round_no))
        else:
            doc = {"by": by, **state, "rows": rows}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv:  # as the event's own CSV: whether it is provisional, and what ranks it, on each row
        emit([{**r, "provisional": "yes" if provisional else "", "ranked_by": ", ".join(tiebreaks)} for r in rows],
             True, False, "")
        return
    title = f"{s.name} — standings of the {by}s after round {through}" + (" (provisional)" if provisional else "")
    sets = tm.match_lines(store, through, lang) if by == "team" and s.team_set and through else []  # each set's state
    # The lines under a team event's grid are the hall's sentences, in the event's language (or --lang):
    # the ranking line as the match lines (docs/tournament.md, "Languages"); the grid stays English.
    ranked = _team_ranked_line(table.tiebreaks, lang) if by == "team" else f"ranked by {keys}"
    unranked = ["no rank: a reserve who has not played"] if by == "player" and any(r["rank"] is None for r in rows) \
        else []
    late = _late_note([r.get("status") for r in rows], through, lang if by == "team" else "en")
    if by == "team":  # (the grid's headers say what each counts: the CSV keeps the data's keys)
        rows = [display.team_display_row(r) for r in rows]
    head = [provisional_line(missing, lang if by == "team" else "en")] if provisional else []
    emit(rows, False, False, title, footer=head + [ranked] + sets + late + unranked, wide=wide)


def _prize_lists(store: EventStore, table: Any, by: str, best: Optional[int], as_csv: bool, as_json: bool,
                 wide: bool) -> None:
    """``standings --by COLUMN [--best K]``: a list a value of the column, or the values ranked by
    their best K players' sums."""
    from tournament.event import prizes

    column = prizes.check_column(store, by)
    name = store.settings.name
    note = [table.ranked_by()] + (["PROVISIONAL — results still missing"] if table.provisional else [])
    if best is not None:
        listing = prizes.group_list(store, table, column, best)
        rows = listing.row_dicts()
        if as_json:
            sys.stdout.write(json.dumps(listing.to_dict(), ensure_ascii=False, indent=1) + "\n")
            return
        keys = " + ".join(listing.keys)
        emit(rows, as_csv, False, f"{name} — by {column}, the best {best} of each (after round "
                                  f"{table.through_round})",
             footer=[f"a {column} scores the sums of its best {best} ({keys}), ranked in that order; "
                     f"'counted' is how many it has of them"] + note[1:], wide=wide,
             keep={"rank", column, *listing.keys})
        return
    lists = prizes.category_lists(store, table, column)
    if as_json:
        doc = {"column": column, "tiebreaks": list(table.tiebreaks), "through_round": table.through_round,
               "provisional": table.provisional,
               "categories": [{"value": c.value, "rows": prizes.category_rows(table, c)} for c in lists]}
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv:
        emit([{column: c.value, **r} for c in lists for r in prizes.category_rows(table, c)], True, False, "")
        return
    if not lists:
        typer.echo(f"{name}: no player has a value in the column {column!r}")
        return
    for n, c in enumerate(lists):
        rows = []
        for r in prizes.category_rows(table, c):
            shown = display.display_row({k: v for k, v in r.items() if k not in ("place", "event_rank")},
                                        table.tiebreaks)
            rows.append({"place": r["place"], "name": shown.pop("name"), "event": r["event_rank"], **shown})
        if n:
            typer.echo("")
        emit(rows, False, False, f"{name} — {column}: {c.value} (after round {table.through_round})",
             footer=note if n == len(lists) - 1 else (), wide=wide,
             keep={"place", "event", *display.ranking_columns(table.tiebreaks),
                   *(["status"] if any(r.get("status", "active") != "active" for r in rows) else [])})


def _final_standings(store: EventStore, stage: Any, both: bool, as_csv: bool, as_json: bool,
                     wide: bool = False) -> None:
    """A rotating event with a final: the final's result, then (``both``) the standings of the
    rounds, which the final's games are not added into.  CSV: one of the two (``--stage`` chooses).
    The standings of the rounds are shown as without a final (one won-drawn-lost column, the
    ranking keys kept at a narrow terminal), so that a tie-break stays visible."""
    from tournament.event import finals, stages as stg

    rows = finals.rows(store, stage)
    done = finals.finished(store, stage)
    rounds = stg.stage_standings(store, None)
    if as_json:
        doc = {**rounds.to_dict(), "final": {"stage": stage.id, "name": stage.name, "finished": done,
                                             "champion": finals.champion(store, stage), "rows": rows}}
        sys.stdout.write(json.dumps(doc if both else doc["final"], ensure_ascii=False, indent=1) + "\n")
        return
    if as_csv and both:
        emit([rounds.row_dict(s) for s in rounds.rows], True, False, "")
        return
    title = f"{store.settings.name} — {stage.name} (from round {stage.offset + 1})"
    footer = [] if done else ["PROVISIONAL — the final's games are not all in"]
    if stage.format == stg.FINAL_TABLE:
        footer.append("a final table is ranked by its own games (" + ", then ".join(rounds.tiebreaks) +
                      "), then by the place in the rounds (rounds_place)")
    emit(rows, as_csv, False, title, footer=footer, wide=wide,
         keep={"place", "name", "rounds_place", *display.ranking_columns(rounds.tiebreaks)})
    if not both:
        return
    note = [f"PROVISIONAL — results still missing ({', '.join(f'round {r}: {n}' for r, n in rounds.missing.items())})"] \
        if rounds.provisional else []
    emit([display.display_row(rounds.row_dict(s), rounds.tiebreaks) for s in rounds.rows], False, False,
         f"{store.settings.name} — standings of the rounds (1-{rounds.through_round}), before the final",
         footer=note + ["ranked by " + ", then ".join(rounds.tiebreaks)], wide=wide,
         keep=display.ranking_columns(rounds.tiebreaks))


def _seed_names(seeds: Optional[str], seeds_file: Optional[Path]) -> list[str]:
    if seeds and seeds_file:
        raise UnusableInput("give --seeds or --seeds-file, not both")
    if seeds_file is not None:
        text = pl.read_list_file(seeds_file, "a seeds file")
        return [line.strip() for line in text.splitlines() if line.strip()]
    return [n.strip() for n in seeds.split(",") if n.strip()] if seeds else []


def _print_stage(store: EventStore, stage: Any) -> None:
    from tournament.pairing import brackets as br
    from tournament.event import stages as stg
    from tournament.pages.terminal import wrap_lines

    names = stg.side_names(store, stage)
    if stage.format == stg.FINAL_TABLE:
        from tournament.event import finals
        typer.echo(f"{store.settings.name} — {stage.name} (rounds {stage.offset + 1}-{stage.offset + 3})")
        typer.echo("\n".join(wrap_lines(finals.draw_text(store, stage))))
    elif stage.knockout:
        state = stg.state_of(store, stage)
        rounds_of = {r: stage.event_round(r) for r in range(1, len(state.bracket.round_labels) + 1)}
        typer.echo(f"{store.settings.name} — {stage.name}")
        typer.echo("\n".join(wrap_lines(br.draw_text(state, names, rounds_of))))
    else:
        sched = stage.schedule()
        typer.echo(f"{store.settings.name} — {stage.name}: {len(sched.rounds)} rounds, from round "
                   f"{stage.offset + 1}")
        from tournament.pairing.roundrobin import group_name
        for gi, members in enumerate(sched.groups):
            if len(sched.groups) > 1:
                typer.echo("\n".join(wrap_lines(f"group {group_name(gi)}: " +
                                                 ", ".join(names.get(u, str(u)) for u in members))))


@guarded
def knockout(
    event: Path = typer.Argument(..., help="The event file."),
    format: str = typer.Option("single", "--format", help="single, double or multi (multi-player tables)."),
    seeding: str = typer.Option("standings", "--seeding", help="list, standings, random or groups."),
    seeds: Optional[str] = typer.Option(None, "--seeds", help="--seeding list: names or numbers, best first, "
                                                              "comma-separated."),
    seeds_file: Optional[Path] = typer.Option(None, "--seeds-file", help="--seeding list: one name a line."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the seeding enter."),
    per_group: int = typer.Option(2, "--per-group", min=1, max=MAX_COUNT,
                                  help="--seeding groups: how many of each group go on."),
    third_place: bool = typer.Option(False, "--third-place", help="Single elimination: a third-place game."),
    reset: bool = typer.Option(True, "--reset/--no-reset", help="Double elimination: a second grand final when "
                                                                "the losers' champion wins the first."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="A match is won by the first to win N games."),
    advance: int = typer.Option(2, "--advance", min=1, max=MAX_COUNT,
                                help="Multi-player knockout: the top K of each table go on."),
    final_set: Optional[int] = typer.Option(None, "--final-set", min=1, max=500,
                                            help="A team event of sets: the semi-finals and final are sets to "
                                                 "this many game points (team-pairs preset: 75; else the "
                                                 "event's --team-set)."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Start a knockout stage: draw the bracket from the seeding and seat the first games (a team event:
    each game a team match at adjacent tables)."""
    from tournament.event import stages as stg

    with open_for_command(event) as store:
        # Sides level on every key at a line the draw goes by: said, not decided in silence.
        notes = stg.group_level_notes(store, per_group) if seeding == "groups" else []
        stage = stg.create_stage(store, format, seeding, _seed_names(seeds, seeds_file), top, per_group,
                                 third_place=third_place, reset=reset, wins_needed=first_to, advance=advance,
                                 name=name, final_set=final_set)
        _print_stage(store, stage)
        for note in notes:
            typer.echo(note, err=True)


@guarded
def roundrobin(
    event: Path = typer.Argument(..., help="The event file."),
    seeding: str = typer.Option("random", "--seeding", help="list, standings or random (who goes in which group)."),
    seeds: Optional[str] = typer.Option(None, "--seeds", help="--seeding list: names or numbers, comma-separated."),
    seeds_file: Optional[Path] = typer.Option(None, "--seeds-file", help="--seeding list: one name a line."),
    top: Optional[int] = typer.Option(None, "--top", min=0, max=MAX_COUNT,
                                      help="Only the top N of the seeding enter."),
    double: bool = typer.Option(False, "--double", help="Everyone meets everyone twice (seats swapped)."),
    groups: int = typer.Option(1, "--groups", min=1, max=MAX_COUNT,
                               help="Groups played side by side (then: tournament knockout "
                                    "--seeding groups)."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Start a round-robin stage (or groups): every round is seated at once, by the circle method."""
    from tournament.event import stages as stg

    with open_for_command(event) as store:
        stage = stg.create_stage(store, "roundrobin", seeding, _seed_names(seeds, seeds_file), top,
                                 groups=groups, double=double, name=name)
        _print_stage(store, stage)


@guarded
def final(
    event: Path = typer.Argument(..., help="The event file (a rotating-partner event)."),
    top: Optional[int] = typer.Option(None, "--top", min=1, max=MAX_COUNT,
                                      help="How many of the standings play the final: final tables of four "
                                           "take 4, 8, 12, … (table 1: places 1-4, table 2: places 5-8, …); "
                                           "default 4, or one block of --pairs when that is more."),
    pairs: Optional[str] = typer.Option(None, "--pairs", help="A knockout of pairs formed from the standings "
                                        "instead: which places partner within each block, e.g. 1-4,2-3 (1st "
                                        "with 4th, 2nd with 3rd, 5th with 8th, …)."),
    format: str = typer.Option("single", "--format", help="With --pairs: single or double elimination."),
    third_place: bool = typer.Option(False, "--third-place", help="With --pairs: a third-place game."),
    reset: bool = typer.Option(True, "--reset/--no-reset", help="With --pairs --format double: a second "
                                                                "grand final when the losers' champion wins."),
    first_to: int = typer.Option(1, "--first-to", min=1, max=MAX_COUNT,
                                 help="With --pairs: a match is won by the first to win N games."),
    name: Optional[str] = typer.Option(None, "--name", help="The stage's name."),
) -> None:
    """Draw the final of a rotating-partner event from the standings of its rounds: final tables of four
    (three games, each partnering each once), or a knockout of pairs formed from the standings."""
    from tournament.event import finals

    with open_for_command(event) as store:
        stage = finals.create_final(store, top, pairs, format, third_place=third_place, reset=reset,
                                    wins_needed=first_to, name=name)
        _print_stage(store, stage)
        note = finals.cut_note(store, stage)
        if note:
            typer.echo(note, err=True)


@guarded
def bracket(
    event: Path = typer.Argument(..., help="The event file."),
    stage_id: Optional[int] = typer.Option(None, "--stage", min=1, max=MAX_COUNT,
                                           help="Which stage (default: the last)."),
    as_json: bool = typer.Option(False, "--json", help="JSON."),
) -> None:
    """Draw the knockout bracket (or the round-robin groups) as text: who plays, who won, what is due."""
    from tournament.pages import report as rp
    from tournament.event import stages as stg

    with open_for_command(event) as store:
        chosen = stg.chosen_stage(store, stage_id)
        if as_json:
            doc = next(d for d in rp.event_data(store)["stages"] if d["id"] == chosen.id)
            sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
            return
        _print_stage(store, chosen)
        if chosen.format == stg.ROUND_ROBIN:
            for gi in range(len(chosen.schedule().groups)):
                if store.settings.teams:  # a group of teams: its teams' standings
                    from tournament.event.stages import group_rows
                    rows, keys = group_rows(store, chosen, gi)
                    emit([{k: v for k, v in r.items() if k not in ("id", "status")} for r in rows],
                         False, False, rp.group_label(gi, len(chosen.schedule().groups)),
                         footer=[f"ranked by {', then '.join(keys)}"])
                    continue
                t = stg.group_standings(store, chosen, gi)
                emit([display.display_row(t.row_dict(r), t.tiebreaks) for r in t.rows], False, False,
                     rp.group_label(gi, len(chosen.schedule().groups)))

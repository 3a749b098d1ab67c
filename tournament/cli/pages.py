"""Commands of what is printed and posted: ``sheets``, ``report``, ``export``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from tournament.cli.app import MAX_COUNT, best_for, guarded, once_written, open_for_command, write_output
from tournament.errors import UnusableInput


def _language(asked: Optional[str], default: str) -> str:
    """``--lang`` checked (one line naming the languages there are), else the event's language."""
    from domrec.i18n import UnknownLanguage
    from tournament.i18n import page_language

    try:
        return page_language(asked, default)
    except UnknownLanguage as e:
        raise UnusableInput(e.message) from None


@guarded
def sheets(
    event: Path = typer.Argument(..., help="The event file."),
    round_no: Optional[int] = typer.Option(None, "--round", "-r", min=0, max=MAX_COUNT,
                                           help="Which round (default: the last paired)."),
    output: Optional[Path] = typer.Option(None, "--output", "-o", help="The folder to write to (made if missing; "
                                                                       "default: EVENT-games next to the event)."),
    force: bool = typer.Option(False, "--force", help="Replace files already there (and any game recorded "
                                                      "in them)."),
    table: Optional[int] = typer.Option(None, "--table", "-t", min=1, max=MAX_COUNT,
                                        help="Only this table (e.g. a knockout game "
                                             "seated after the others)."),
    qr: Optional[bool] = typer.Option(None, "--qr/--no-qr", help="Each sheet carries its table's venue link as "
                                                                 "a QR code (`tournament serve`, docs/venue.md); "
                                                                 "default: when the event has been served or "
                                                                 "--url is given."),
    url: Optional[str] = typer.Option(None, "--url", help="The address phones reach the venue server at, for the "
                                                          "QR codes (default: the one `tournament serve` last "
                                                          "used)."),
    lang: Optional[str] = typer.Option(None, "--lang", help="The sheets' language: en or es (default: the "
                                                            "event's)."),
) -> None:
    """Write each table's pre-filled game file (.dgn, for `domrec record` or typing up) and one printable
    HTML page of score sheets, one sheet a table."""
    from tournament.cli.venue import _checked_url, say_where_links_point
    from tournament.event.venue import remember_printed, served_before, venue_url
    from tournament.pages import sheets as sh

    if url is not None and qr is False:
        raise UnusableInput("--url is the address for the QR codes; --no-qr leaves them out")
    with open_for_command(event) as store:
        if table is not None:  # a duplicate round's sit-out table says who sits out
            from tournament.event import duplicate as dup

            dup.refuse_missing_table(store, round_no, table)
        if qr is None:
            qr = url is not None or served_before(store)
        link_base = venue_url(store, _checked_url(url)) if qr else None
        if link_base is not None:
            say_where_links_point(store, link_base, url is not None)
        folder = output if output is not None else sh.default_folder(event)
        written = sh.write_sheets(store, folder, round_no, force, table, url=link_base,
                                  lang=_language(lang, store.settings.lang),
                                  written=lambda: once_written(f"the sheets were written in {folder}"))
        if link_base is not None:
            remember_printed(store, link_base)
    for path in written.files:
        typer.echo(f"wrote {path}")


BY_OPTION = typer.Option([], "--by", help="Prize lists: the standings within each value of this column of the "
                                          "players CSV (sex, category, club); again for another column.")
BEST_OPTION = typer.Option(None, "--best", min=1, max=MAX_COUNT, help="After a --by: that column's values (clubs) "
                                                                         "ranked by the sum of their best K players "
                                                                         "(--by club --best 2 --by sex).")


@guarded
def report(
    event: Path = typer.Argument(..., help="The event file."),
    output: Path = typer.Option(..., "--output", "-o", help="The HTML file to write (- for stdout)."),
    force: bool = typer.Option(False, "--force", help="Replace an existing file that is not an earlier report."),
    screen: bool = typer.Option(False, "--screen", help="The projector page instead: the round being played, "
                                                        "\"find your table\" by player name in large type, then "
                                                        "the standings, a screen at a time."),
    url: Optional[str] = typer.Option(None, "--url", help="The address of the event's public page, for the "
                                                          "projector's QR code (default: the one `tournament "
                                                          "serve` last used; no code if it never ran)."),
    lang: Optional[str] = typer.Option(None, "--lang", help="The pages' language: en or es (default: the "
                                                            "event's)."),
    no_replays: bool = typer.Option(False, "--no-replays", help="Write the page alone, no replay pages (a "
                                                                "big event's report in a moment)."),
    by: list[str] = BY_OPTION,
    best: Optional[list[int]] = BEST_OPTION,
) -> None:
    """Write the event as HTML: a one-page summary (standings, bracket, rounds and tables), its public pages
    beside it (find your table, standings, results, a page a player, crosstable) and each game's replay."""
    from tournament.cli.venue import _checked_url
    from tournament.event.public import public_data
    from tournament.event.venue import hall_url, served_before, venue_url
    from tournament.pages import report as rp

    from domrec import output as outputs

    if url is not None and not screen:
        raise UnusableInput("--url is the address for the projector's QR code: give it with --screen")
    bests = best_for(by, best)
    # The page and the folders beside it are written as one (domrec.output.Together): each under a
    # temporary name, moved into place only when all are complete; a failure or Ctrl-C before
    # that leaves what was there as it was, and no folder half made: not even report/ of
    # report/x.html when this command made it, taken away again once the Together has removed its
    # temporary files from it (a folder that was there already stays).
    from tournament.pages.sheets import prepare_folder, unmade

    made: list[bool] = []
    try:
        with outputs.Together() as batch:
            with open_for_command(event) as store:
                language = _language(lang, store.settings.lang)
                data = public_data(store)
                rp.add_desk_data(store, data, by, bests)
                link = None
                if screen and (url is not None or served_before(store)):
                    link = hall_url(store, venue_url(store, _checked_url(url))) + "/"
                replays: dict = {}
                pages = rounds = None
                if str(output) != "-":  # report/x.html: the folder made, as `sheets` makes its own
                    made.append(prepare_folder(output.parent))
                # replay pages and public pages beside the report (none beside stdout)
                if not screen and str(output) != "-":
                    try:
                        outputs.check(output, rp.REPORT, force)
                        rp.check_pages(data, output, force)
                        if not no_replays:  # --no-replays: the pages alone, in a moment
                            replays = rp.write_replays(store, output, force, language, batch=batch)
                        pages = rp.write_pages(data, output, replays, force, language, batch=batch)
                        if rp.rounds_apart(data, replays):  # a big event: a page a round, the report stays light
                            rounds = rp.write_rounds(data, output, replays, force, language, batch=batch)
                    except outputs.OutputError as e:
                        raise UnusableInput(e.message) from None
            page = (rp.screen_page(data, link, language) if screen
                    else rp.html_page(data, replays, pages, rounds, language))
            if str(output) == "-" or screen:
                write_output(output, page, rp.REPORT, force)
            else:
                said = [f"wrote {output}"] + ([f"wrote {rp.pages_folder(output)}/ (the event's public pages: "
                                               f"{len(data['players'])} players' pages among them)"]
                                              if pages is not None else [])
                try:
                    batch.file(output, page, rp.REPORT, force)
                    batch.commit(then=lambda: once_written(f"{output} and the folders beside it were written", said))
                except outputs.OutputError as e:
                    raise UnusableInput(e.message) from None
    except BaseException:
        unmade(output.parent, any(made))
        raise
    if str(output) != "-":
        typer.echo(f"wrote {output}")
        if pages is not None:
            typer.echo(f"wrote {rp.pages_folder(output)}/ (the event's public pages: {len(data['players'])} "
                       f"players' pages among them)")


@guarded
def export(
    event: Path = typer.Argument(..., help="The event file."),
    output: Path = typer.Option(..., "--output", "-o", help="JSON, federation: the file to write (- for stdout); CSV: a "
                                                            "folder (made if missing) for players, standings, "
                                                            "tables, matches, placings, changes .csv."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV files instead of one JSON file."),
    force: bool = typer.Option(False, "--force", help="Replace existing files that tournament export did not "
                                                      "write."),
    by: list[str] = BY_OPTION,
    best: Optional[list[int]] = BEST_OPTION,
    form: Optional[str] = typer.Option(None, "--format", help="json (the default), csv (as --csv) or federation: "
                                                             "the federation report, one text file a rating "
                                                             "office reads (docs/federation.md)."),
) -> None:
    """Export everything (players, standings, tables and results, stages' draws, the change log, the
    audit trail) as JSON or CSV; or the federation report (--format federation)."""
    import io
    from domrec import output as outputs
    from tournament.pages import report as rp
    from tournament.pages.sheets import written_together

    if form is not None and form not in ("json", "csv", "federation"):
        raise UnusableInput(f"--format is json, csv or federation, not {form!r}")
    if form == "federation":
        if as_csv or by or best:
            raise UnusableInput("--format federation writes one file: --csv, --by and --best are for the other "
                                "exports")
        _export_federation(event, output, force)
        return
    if form == "json" and as_csv:
        raise UnusableInput("--csv and --format json ask for two different exports: give one")
    as_csv = as_csv or form == "csv"
    bests = best_for(by, best)
    with open_for_command(event) as store:
        data = rp.event_data(store, by, bests)
        from tournament.event import duplicate as dup

        data["event"].update(dup.described(store))  # a duplicate event's format and ranking, as the feed's
    if not as_csv:
        if str(output) != "-":  # export/x.json: the folder made, as `report` and `sheets` make theirs
            from tournament.pages.sheets import folder_for

            with folder_for(output.parent):  # (and taken away again if nothing is written there)
                write_output(output, rp.export_json(data), rp.EXPORT, force)
        else:
            write_output(output, rp.export_json(data), rp.EXPORT, force)
        if str(output) != "-":
            typer.echo(f"wrote {output}")
        return
    if str(output) == "-":
        raise UnusableInput("--csv writes a folder of CSV files; give a folder, not -")
    if output.exists() and not output.is_dir():
        raise UnusableInput(f"{output} is not a folder; --csv writes a folder of CSV files")
    texts = []
    for stem, (columns, rows) in rp.csv_tables(data).items():
        buf = io.StringIO()
        rp.write_csv(buf, columns, rows)
        texts.append((output / f"{stem}.csv", buf.getvalue()))
    for path, text in texts:  # every file checked before any is written
        try:
            outputs.check(path, rp.csv_kind(text), force)
        except outputs.OutputError as e:
            raise UnusableInput(f"{e.message}; nothing was written") from None
    made = not output.exists()
    try:
        output.mkdir(exist_ok=True)
    except OSError as e:
        raise UnusableInput(f"cannot make {output}: {e.strerror}") from None
    said = f"wrote {output}/ ({', '.join(rp.csv_tables(data))} .csv)"
    # the files written as one: all of them, or none and the folder as it was
    written_together(output, made, [(path, text, rp.csv_kind(text)) for path, text in texts], force,
                     lambda: once_written(f"the CSV files were written in {output}", [said]))
    typer.echo(said)


def _export_federation(event: Path, output: Path, force: bool) -> None:
    """``export --format federation``: the federation report, written by domrec.output's rules (an
    earlier report is replaced; any other file only with --force)."""
    from tournament.event import federation as fed

    with open_for_command(event) as store:
        text = fed.text_of(store)
    if str(output) != "-":
        from tournament.pages.sheets import folder_for

        with folder_for(output.parent):  # (made for it, and taken away again if nothing is written there)
            write_output(output, text, fed.FEDERATION, force)
    else:
        write_output(output, text, fed.FEDERATION, force)
    if str(output) != "-":
        typer.echo(f"wrote {output}")

"""Commands that check and tell what happened: ``check``, ``history``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from domrec import console

from tournament.cli.app import EXIT_OK, EXIT_REFUSED, guarded, open_for_command
from tournament.errors import DamagedEventFile
from tournament.event import check as checking


@guarded
def check_cmd(
    event: Path = typer.Argument(..., help="The event file."),
    as_json: bool = typer.Option(False, "--json", help="Findings as JSON."),
) -> None:
    """Re-validate every record, recompute every standing, check every pairing rule; exit 1 on errors."""
    try:
        store = open_for_command(event)
    except DamagedEventFile:  # too damaged to open: the diagnosis alone
        report = checking.diagnose_file(event)
    else:
        with store, console.progress_bar("checking the event", None):
            report = checking.run(store)
    if as_json:
        sys.stdout.write(json.dumps({"ok": report.ok, "records": report.records, "results": report.results,
                                     "rounds": report.rounds,
                                     "findings": [{"level": f.level, "where": f.where, "message": f.message}
                                                  for f in report.findings]}, ensure_ascii=False) + "\n")
    else:
        from tournament.pages.terminal import wrap_lines
        for f in report.findings:
            for line in wrap_lines(f.text()):
                console.write_line(sys.stdout, line, "invalid" if f.level == "error" else "warning")
        errors = len(report.errors)
        typer.echo(f"{event}: {report.rounds} round{'s' if report.rounds != 1 else ''}, {report.results} "
                   f"result{'s' if report.results != 1 else ''} ({report.records} record"
                   f"{'s' if report.records != 1 else ''} re-validated): {errors} error{'s' if errors != 1 else ''}, "
                   f"{len(report.findings) - errors} warning{'s' if len(report.findings) - errors != 1 else ''}")
    raise typer.Exit(EXIT_OK if report.ok else EXIT_REFUSED)


@guarded
def history(
    event: Path = typer.Argument(..., help="The event file."),
    as_csv: bool = typer.Option(False, "--csv", help="CSV, one row a change."),
    as_json: bool = typer.Option(False, "--json", help="JSON (results replaced, then the desk's changes, "
                                                       "which have an \"action\")."),
    desk_only: bool = typer.Option(False, "--desk", help="With --csv: the desk's changes (rounds and players) "
                                                         "instead of the results replaced."),
    entered: bool = typer.Option(False, "--entered", help="Instead: each table's result (a duplicate "
                                                          "event: each board's) as first entered — when, by "
                                                          "whom, what kind."),
) -> None:
    """The audit trail: every result replaced or amended, every paired round or player changed — when,
    by whom, what, why."""
    from tournament.event import audit

    with open_for_command(event) as store:
        changes = audit.history(store)
        desk = audit.desk_history(store)
        duplicate = store.settings.duplicate or store.settings.team_duplicate
        firsts: list[audit.Entered | audit.BoardEntered] = []
        if entered:  # a duplicate event's results are its boards'
            firsts = list(audit.first_board_entries(store)) if duplicate else list(audit.first_entries(store))
    if entered:
        rows = [e.to_dict() for e in firsts]
        if as_json:
            sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=1) + "\n")
        elif as_csv:
            from tournament.pages.report import write_csv
            write_csv(sys.stdout, ["round", "table"] + ["board"] * duplicate + ["when", "by", "kind"], rows)
        elif not rows:
            typer.echo(f"{event}: no result has been entered")
        else:
            from tournament.pages.terminal import wrap_lines
            for e in firsts:
                typer.echo("\n".join(wrap_lines(e.text())))
        return
    if as_json:
        doc = [c.to_dict() for c in changes] + [d.to_dict() for d in desk]
        sys.stdout.write(json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
    elif as_csv:
        if desk_only:
            from tournament.pages.report import write_csv
            rows = [{**d.to_dict(), "detail": json.dumps(d.detail, ensure_ascii=False, sort_keys=True)}
                    for d in desk]
            write_csv(sys.stdout, ["id", "when", "by", "action", "round", "detail", "reason"], rows)
            return
        from tournament.pages.report import write_csv
        rows = [c.csv_row() for c in changes]
        write_csv(sys.stdout, list(rows[0]) if rows else list(audit.CSV_COLUMNS), rows)
    elif not changes and not desk:
        typer.echo(f"{event}: no result has been amended or replaced, and no round or player changed")
    else:
        from tournament.pages.terminal import wrap_lines
        # One trail in time order: results replaced, and the desk's changes to rounds and players.
        lines = [(c.when, 0, c.id, c.text()) for c in changes] + [(d.when, 1, d.id, d.text()) for d in desk]
        for *_, line in sorted(lines):
            typer.echo("\n".join(wrap_lines(line)))

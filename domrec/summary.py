"""One row per checked record, for querying an archive's verdicts later.

``domrec validate --summary out.csv`` (or ``.jsonl``), the worker processes
and the Dask entry point all write the same rows through this module, so a
summary made on one core, on every core or on a cluster is the same file.

Columns: ``source`` (file, or ``archive.jsonl:LINE``, or ``shard:LINE``),
``game``, ``status`` (valid, invalid, unusable), ``hands``, ``moves``,
``finished``, ``scores`` (a JSON object, side -> points: SQLite's and
DuckDB's JSON functions read it), ``winner`` (a side; empty for a draw or an
unfinished game), ``problems`` (how many) and ``first_problem`` (its one line,
as ``domrec validate`` prints it).
"""

from __future__ import annotations

import csv
import json
from typing import IO, Any, Iterable

from domrec.validate import Report

COLUMNS = ("source", "game", "status", "hands", "moves", "finished", "scores", "winner", "problems",
           "first_problem")

#: The header line of a summary CSV: how domrec knows a summary file it wrote (see domrec/output.py).
CSV_HEADER = ",".join(COLUMNS)


def row(report: Report) -> dict[str, Any]:
    """The summary row of one verdict."""
    return {
        "source": report.source,
        "game": report.game,
        "status": report.status,
        "hands": report.hands,
        "moves": report.moves,
        "finished": report.finished,
        "scores": report.scores,
        "winner": report.winner,
        "problems": len(report.problems),
        "first_problem": report.problems[0].text() if report.problems else None,
    }


class Writer:
    """Writes rows to an open text stream as CSV (``form="csv"``) or JSON Lines (``"jsonl"``)."""

    def __init__(self, stream: IO[str], form: str) -> None:
        if form not in ("csv", "jsonl"):
            raise ValueError(f"a summary is csv or jsonl, not {form!r}")
        self.stream = stream
        self.form = form
        self._csv = csv.writer(stream, lineterminator="\n") if form == "csv" else None
        if self._csv is not None:
            stream.write(CSV_HEADER + "\n")

    def write(self, report: Report) -> None:
        self.write_row(row(report))

    def write_row(self, values: dict[str, Any]) -> None:
        if self._csv is None:
            self.stream.write(json.dumps(values, ensure_ascii=False) + "\n")
            return
        cells = []
        for name in COLUMNS:
            value = values[name]
            if name == "scores":
                value = "" if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))
            elif value is None:
                value = ""
            elif isinstance(value, bool):
                value = "true" if value else "false"
            elif isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
                value = "'" + value  # a spreadsheet must not take a record's text for a formula
            cells.append(value)
        self._csv.writerow(cells)

    def write_all(self, reports: Iterable[Report]) -> None:
        for report in reports:
            self.write(report)


def form_of(path: str) -> str:
    """``csv`` or ``jsonl`` from the summary file's name (``-``: JSON Lines)."""
    if path.endswith(".csv"):
        return "csv"
    if path.endswith(".jsonl") or path == "-":
        return "jsonl"
    raise ValueError(f"--summary writes *.csv or *.jsonl, not {path!r}")

"""Reports people can read: the event's pages as files, the projector page, and the exports.

``tournament report -o club.html`` writes the event's one-page summary (``club.html``: standings,
stages, every round, laid out for a phone, a desktop and print), the event's public pages beside
it (``club-pages/``: find your table, the round's tables, the standings, every result, a page a
player, the crosstable, the bracket), and the replay page of every game entered with its record
(``club-replays/``).  They are the very pages ``tournament serve`` shows the hall, rendered from
the same templates (:mod:`tournament.pages.public`) with links from file to file and no script:
a file is read as it was written.  ``--screen`` writes the projector page instead.

The data is :func:`tournament.event.public.event_data` (also the JSON export); every name goes
through the templates' autoescaping: a player's name is data, never markup.

Each output carries the mark by which a later ``report``/``export`` knows it may replace
the file without ``--force`` (:mod:`domrec.output`): a generator meta tag in the page, a
``generator`` key first in the JSON export, and each CSV file's exact header.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import IO, Any, Iterable, Mapping, Sequence
from urllib.parse import quote

from domrec.output import Kind, Together, first_line, marked

from tournament.event import public as pub
from tournament.event.public import current_round, find_your_table, group_label  # noqa: F401
from tournament.pages import public
from tournament.pages.public import REPORT_MARK, Site, sides_in_seating_order, stages_title  # noqa: F401
from tournament.pages.words import LABELS, Words  # noqa: F401  (the pages' words, as the report knows them)
from tournament.store.event_store import EventStore

#: The report's style, in every page it writes (``templates/report.css``).  Three layouts from one
#: page: a screen (a table scrolls sideways in its own box, never the page), a phone (the standings
#: keep rank, name and the ranking columns; the others are hidden there, and shown on a wider
#: screen and in print), and print (A4 or Letter: every column, a smaller type, no sticky or
#: scrolling boxes, rows never split across pages, a name wrapped between words only).
CSS = (public.TEMPLATES / "report.css").read_text(encoding="utf-8")
#: ``tournament report``'s pages.
REPORT = Kind("a page written by tournament report", marked(REPORT_MARK))
EXPORT_MARK = '"generator": "domrec tournament export"'
#: ``tournament export``'s JSON file.
EXPORT = Kind("a file written by tournament export", marked(EXPORT_MARK))


def csv_kind(text: str) -> Kind:
    """An export CSV file: recognised by its header, exactly the one about to be written."""
    return Kind("a CSV file written by tournament export with the same columns", first_line(text.partition("\n")[0]))


def event_data(store: EventStore, by: Sequence[str] = (), best: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Everything about the event, as JSON-ready values (the JSON export): :func:`tournament.event.
    public.event_data` with the whole change log (``changes``), read in one read transaction, so
    the log ends exactly where the rest of the data stands; and what the director's desk adds
    (:func:`add_desk_data`)."""
    with store.reading():
        data = pub.event_data(store, log=True)
        add_desk_data(store, data, by, best)
    return data


def add_desk_data(store: EventStore, data: dict[str, Any], by: Sequence[str] = (),
                  best: Mapping[str, int] | None = None) -> None:
    """What the director's desk adds to the report and the export (issue 25): each player's
    every column the players CSV brought (club, id, …), the whole audit trail, and the prize lists
    asked for (``--by COLUMN``, and ``best``: column -> its ``--best K``) of the event's standings."""
    from tournament.event import audit, prizes, standings as st_
    from tournament.store import desk as desk_sql, fields as fields_sql

    fids = desk_sql.federation_ids(store)
    own = fields_sql.fields(store)
    names = fields_sql.field_names(store)
    for p in data["players"]:
        if fids:
            p["player_id"] = fids.get(p["id"])
        for f in names:
            p.setdefault(f, own.get(p["id"], {}).get(f))
    data["player_columns"] = (["player_id"] if fids else []) + [f for f in names if f not in PLAYER_COLUMNS]
    data["audit"] = audit.trail_rows(store)
    if store.settings.duplicate or store.settings.team_duplicate:  # the boards a table did not play, and why
        from tournament.event import duplicate

        data["boards_not_played"] = duplicate.not_played_rows(store)
    if by:
        data["prizes"] = prizes.prize_lists(store, st_.event_standings(store), list(by), best)


#: The players' columns every export has.
PLAYER_COLUMNS = ("id", "name", "pair", "from_round", "withdrawn_from")


def export_json(data: dict[str, Any]) -> str:
    """The JSON export: :func:`event_data` under a first ``generator`` key."""
    return json.dumps({"generator": "domrec tournament export", **exported(data)}, ensure_ascii=False,
                      indent=1) + "\n"


def exported(data: dict[str, Any]) -> dict[str, Any]:
    """The data as the export writes it: a duplicate event's ``standings`` are the ones ``standings
    --json`` prints (the pairs by matchpoints and IMPs; duplicate teams: the teams by victory or
    match points and IMPs), not the ranking of games its rounds do not have (all zeros there), and
    duplicate teams have no players' ranking of games either; a team event's lead with the teams,
    the pairs under ``pairs``, as ``standings --json`` and the feed give them
    (:func:`tournament.event.feed.teams_first`)."""
    if "duplicate_standings" in data:
        return {**data, "standings": data["duplicate_standings"]}
    if "duplicate_team_standings" in data:
        return {**{k: v for k, v in data.items() if k != "player_standings"},
                "standings": data["duplicate_team_standings"]}
    if "teams" in data:
        from tournament.event.feed import teams_first

        return {**data, "standings": teams_first(data["standings"])}
    return data


def html_page(data: dict[str, Any], replays: dict[tuple[int, int], str] | None = None,
              pages: str | None = None, rounds: dict[int, str] | None = None, lang: str = "en") -> str:
    """The report's one page in ``lang`` (header, champion, standings, stages, rounds).  ``replays``
    links a table's result to its replay page ((round, table) -> address); ``pages``, the address
    of the public pages' folder from the report (:func:`write_pages`), links to them; with
    ``rounds`` (round -> address, see :func:`write_rounds`) each round is a link to its own page
    instead of its table."""
    site = Site(served=False, pages=pages or "", replays=dict(replays or {}), has_pages=pages is not None)
    return public.report_html(data, site, lang, round_links=rounds)


def screen_page(data: dict[str, Any], url: str | None = None, lang: str = "en") -> str:
    """The projector page (``report --screen``) in ``lang``: the round being played, "find your
    table" by player name in large type, then the standings, a screen at a time (after a final:
    the champion and the final placings); the QR code of ``url``, the event's public page."""
    return public.projector_html(data, Site(served=False, has_pages=False), url, lang=lang)


#: Past this many bytes of rounds' tables, ``tournament report`` gives each round a page of its own
#: (:func:`write_rounds`): a club's evening stays one page; a thousand players' report stays light.
ROUNDS_ON_THE_PAGE = 100_000


def rounds_apart(data: dict[str, Any], replays: dict[tuple[int, int], str] | None = None) -> bool:
    """Would the rounds' tables weigh more than :data:`ROUNDS_ON_THE_PAGE` on the report's page?"""
    site = Site(served=False, replays=dict(replays or {}), has_pages=False)
    total = 0
    for r in data["rounds"]:
        total += len(public.round_page_html(data, site, r, part="round").encode("utf-8"))
        if total > ROUNDS_ON_THE_PAGE:
            return True
    return False


def rounds_folder(report: Path) -> Path:
    """Where a report's round pages go: beside it, in a folder named after it (``club-rounds/``)."""
    return report.with_name(f"{report.stem}-rounds")


def write_rounds(data: dict[str, Any], report: Path, replays: dict[tuple[int, int], str], force: bool = False,
                 lang: str = "en", pages: bool = True, batch: Together | None = None) -> dict[int, str]:
    """Each round's page written beside ``report`` (its tables, a link back to the report, its
    results' links to their replay pages and its players' to theirs when ``pages`` were written);
    returns round -> the link from the report to it.  As :func:`write_replays`: every file checked
    before any is written (one domrec did not write is replaced only with ``force``; a link, a
    folder or a device never), and with ``batch`` written in its temporary folder."""
    from domrec import output as outputs

    folder = rounds_folder(report)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise outputs.NotReplaced(f"{folder} is not a folder: the round pages cannot be written there; "
                                  f"nothing was written")
    targets = [(r, folder / f"round-{r['round']}.html") for r in data["rounds"]]
    for _, path in targets:
        try:
            outputs.check(path, REPORT, force)
        except outputs.OutputError as e:
            raise type(e)(f"{e.message}; nothing was written") from None
    into = _made(folder, REPORT, force, batch)
    # From a round's page: the replays', the pages' and the report's folder are its folder's siblings.
    site = Site(served=False, pages=f"../{quote(pages_folder(report).name)}/", up="../", report=report.name,
                replays=replays, has_pages=pages)
    links = {}
    for r, path in targets:
        outputs.write_text(into / path.name, public.round_page_html(data, site, r, lang=lang), REPORT, force)
        links[r["round"]] = f"{quote(folder.name)}/{quote(path.name)}"
    return links


def pages_folder(report: Path) -> Path:
    """Where a report's public pages go: beside it, in a folder named after it
    (``club.html`` -> ``club-pages/``)."""
    return report.with_name(f"{report.stem}-pages")


def _page_targets(data: dict[str, Any], report: Path, replays: dict[tuple[int, int], str],
                  lang: str = "en") -> list[tuple[Path, Any]]:
    site = Site(served=False, pages="", up="../", report=report.name, replays=replays)
    folder = pages_folder(report)
    return [(folder / name, make) for name, make in public.site_pages(data, site, lang)]


def check_pages(data: dict[str, Any], report: Path, force: bool = False) -> None:
    """Refuse, before anything is written, a public page that may not be replaced (a file domrec
    did not write, without ``force``; a link, a folder or a device, ever) or a folder that is not
    one."""
    from domrec import output as outputs

    folder = pages_folder(report)
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise outputs.NotReplaced(f"{folder} is not a folder: the event's pages cannot be written there; "
                                  f"nothing was written")
    for path, _ in _page_targets(data, report, {}):
        try:
            outputs.check(path, REPORT, force)
        except outputs.OutputError as e:
            raise type(e)(f"{e.message}; nothing was written") from None


def write_pages(data: dict[str, Any], report: Path, replays: dict[tuple[int, int], str],
                force: bool = False, lang: str = "en", batch: Together | None = None) -> str:
    """The event's public pages (:mod:`tournament.pages.public`) as files in :func:`pages_folder`
    (with ``batch``, in its temporary folder, moved there with the rest), one at a time (an
    event's thousand player pages are never held in memory together), each whole or not at
    all; returns the folder's address from the report.  Call :func:`check_pages` first: this
    writes."""
    from domrec import output as outputs

    folder = pages_folder(report)
    into = _made(folder, REPORT, force, batch)
    for path, make in _page_targets(data, report, replays, lang):
        outputs.write_text(into / path.name, make(), REPORT, force)
    return f"{quote(folder.name)}/"


def _made(folder: Path, kind: Kind, force: bool, batch: Together | None) -> Path:
    """Where the files of ``folder`` are written: ``batch``'s temporary folder for it, else the
    folder itself, made when missing."""
    from domrec import output as outputs

    if batch is not None:
        return batch.folder(folder, kind, force)
    try:
        folder.mkdir(exist_ok=True)
    except OSError as e:
        raise outputs.WriteFailed(f"cannot make {folder}: {e.strerror}; nothing was written") from None
    return folder


def replays_folder(report: Path) -> Path:
    """Where a report's replay pages go: beside it, in a folder named after it
    (``club.html`` -> ``club-replays/``), so that two reports in one folder keep theirs apart."""
    return report.with_name(f"{report.stem}-replays")


def replay_name(round_no: int, table_no: int) -> str:
    return f"round-{round_no}-table-{table_no}.html"


def write_replays(store: EventStore, report: Path, force: bool = False,
                  lang: str = "en", batch: Together | None = None) -> dict[tuple[int, int], str]:
    """The replay page of every verified result (a result entered with its record), written
    beside ``report`` in ``lang``; returns (round, table) -> the link from the report to it.

    Forfeits and scores typed in by hand have no record, so no page.  Every file is checked
    before any is written (:func:`domrec.output.check`: a file domrec did not write is replaced
    only with ``force``; a link, a folder or a device never), so a refusal writes nothing; the
    pages are then written one at a time (an event's pages are not held in memory together),
    with ``batch`` in its temporary folder (a page kept as it was stays where it is).  A page whose result has since been replaced or amended to a typed score is left in the
    folder, not deleted (nothing is destroyed); the report no longer links it."""
    from urllib.parse import quote

    from domrec import output as outputs, replay_page
    from domrec.errors import DomrecError, TooLargeError
    from domrec.reader import loads

    folder = replays_folder(report)
    results = store.results()
    wanted = []
    for t in store.tables():
        res = results.get(t.id)
        if res is not None and res.kind == "record" and res.verified:
            wanted.append((t, res))
    if not wanted:
        return {}
    if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
        raise outputs.NotReplaced(f"{folder} is not a folder: the replay pages cannot be written there; "
                                  f"nothing was written")
    targets = [(t, res, folder / replay_name(t.round, t.number)) for t, res in wanted]
    for _, _, path in targets:
        try:
            outputs.check(path, outputs.REPLAY, force)
        except outputs.OutputError as e:
            raise type(e)(f"{e.message}; nothing was written") from None
    into = _made(folder, outputs.REPLAY, force, batch)
    links = {}
    for t, res, path in targets:
        link = f"{quote(folder.name)}/{quote(path.name)}"
        if res.record_hash and _already_written(path, replay_page.identity_mark(res.record_hash, lang)):
            links[(t.round, t.number)] = link  # the same record, drawn by the same edition: kept
            continue
        text = store.record_text(res.id)
        if text is None:
            continue
        try:
            record = loads(text)
        except DomrecError:  # a damaged stored record: `tournament check` reports it; no page
            continue
        try:
            page = replay_page.page(record, f"round {t.round} table {t.number}", res.record_hash, lang=lang)
        except TooLargeError:  # a game longer than any page shows (replay_page.MAX_PAGE_MOVES): no page
            continue
        outputs.write_text(into / path.name, page, outputs.REPLAY, force)
        links[(t.round, t.number)] = link
    return links


def _already_written(path: Path, mark: str) -> bool:
    """``path`` is a replay page domrec wrote of the record ``mark`` names, by this edition."""
    from domrec import output as outputs

    try:
        return path.is_file() and not path.is_symlink() and outputs.REPLAY.own is not None and \
            outputs.REPLAY.own(path) and outputs.marked(mark)(path)
    except OSError:
        return False


#: What makes a spreadsheet read a CSV cell as a formula (or hide what follows): OWASP's list.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """A cell as written to CSV: text a spreadsheet would run as a formula (a player named
    ``=HYPERLINK(…)``, ``+x``, ``-x``, ``@x``, or starting with a tab or carriage return) gets a
    leading single quote, so that it is shown as text.  Numbers are left alone: ``-12`` in a
    ``diff`` column is a number, not a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def write_csv(stream: IO[str], columns: list[str], rows: Iterable[dict[str, Any]]) -> None:
    """Every CSV the tool writes (``standings``/``tables``/``players``/``ratings --csv``, ``export
    --csv``) goes through here, so that no cell of one can carry a formula."""
    writer = csv.DictWriter(stream, fieldnames=columns, lineterminator="\n", extrasaction="ignore")
    writer.writerow({c: csv_cell(c) for c in columns})
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})


def csv_tables(data: dict[str, Any]) -> dict[str, tuple[list[str], list[dict[str, Any]]]]:
    """The export as CSV tables: file stem -> (columns, rows)."""
    out: dict[str, tuple[list[str], list[dict[str, Any]]]] = {}
    out["players"] = (list(PLAYER_COLUMNS) + (["team"] if "teams" in data else []) +
                      list(data.get("player_columns", [])), data["players"])
    if "duplicate_standings" in data or "duplicate_team_standings" in data:  # as `standings --csv` has them
        out["standings"] = duplicate_standings_csv(data)
    else:
        st_rows = data["standings"]["standings"]
        out["standings"] = (list(st_rows[0]) if st_rows else ["rank", "id", "name"], st_rows)
    seat_rows = []
    for r in data["rounds"]:
        for t in r["tables"]:
            res = t["result"] or {}
            absent = res.get("forfeit_players")
            for s in t["seats"]:
                score, winner = (res.get("scores") or {}).get(s["side"], ""), res.get("winner") or ""
                if absent:  # a forfeit by player: each seat its own game, and no side won (docs: Forfeits)
                    score = 0 if s["id"] in absent else data["event"].get("forfeit_score", "")
                    winner = ""
                seat_rows.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "table": t["table"],
                                  "match": t["match"] or "", "game": t["game"] or "", "seat": s["seat"],
                                  "side": s["side"], "id": s["id"], "name": s["name"], "score": score,
                                  "winner": winner, "verified": res.get("verified", ""),
                                  "result": ("forfeit" if res.get("forfeit") or res.get("kind") == "forfeit"
                                             else "in") if res else ""})
        # A bye; a duplicate pair sitting the round out (an odd number of pairs): at no table, not
        # scored, each of its players a row, so that every player of the round is in the file.
        sitting_out = (r.get("sits_out") or {}).get("players", [])
        for b, where in [(b, "bye") for b in r["byes"]] + [(p, "sits out") for p in sitting_out]:
            seat_rows.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "table": where,
                              "match": "", "game": "", "seat": "", "side": "", "id": b["id"], "name": b["name"],
                              "score": "", "winner": "", "verified": "", "result": ""})
    out["tables"] = (["round", "stage", "label", "table", "match", "game", "seat", "side", "id", "name", "score",
                      "winner", "verified", "result"], seat_rows)
    if "boards" in data:  # a duplicate event: a row a board's result at a table
        out["boards"] = board_results_csv(data)
    if "boards_not_played" in data:  # a duplicate event: a row a board a table did not play, and why
        out["boards_not_played"] = (list(NOT_PLAYED_COLUMNS), data["boards_not_played"])
    if "duplicate_team_matches" in data:  # each match board by board: both tables, the net, the IMPs
        # (a board not scored, marked not played at a table of the match: no net, no IMPs, the tables
        # marked in ``not_played``, a table's points where it has a result)
        out["team_boards"] = (["round", "tables", "home", "away", "board", "first_ns", "first_ew", "second_ns",
                               "second_ew", "net", "imps", "not_played"],
                              [{"round": m["round"], "tables": "-".join(map(str, m["tables"])), "home": m["home"],
                                "away": m["away"], "board": b["board"],
                                **{f"{at}_{side}": (b[at] or ("", ""))[i] for at in ("first", "second")
                                   for i, side in enumerate(("ns", "ew"))},
                                "net": b.get("net", ""), "imps": b.get("imps", ""),
                                "not_played": " ".join(map(str, b.get("not_played", ())))}
                               for m in data["duplicate_team_matches"]
                               for b in sorted([*m["boards"], *m.get("not_scored", ())], key=lambda x: x["board"])])
    match_rows = []
    place_rows = []
    for stage in data["stages"]:
        for m in stage.get("matches", []):
            match_rows.append({"stage": stage["id"], "match": m["key"], "round": m["round"], "label": m["label"],
                               "status": m["status"], "sides": " | ".join("" if x is None else x for x in m["sides"]),
                               "from": " | ".join(m["from"]), "wins": "-".join(map(str, m["wins"])),
                               "order": " | ".join(m["order"])})
        for p in stage.get("placings", []):
            place_rows.append({"stage": stage["id"], **p})
    out["matches"] = (["stage", "match", "round", "label", "status", "sides", "from", "wins", "order"], match_rows)
    out["placings"] = (["stage", "place", "id", "name"], place_rows)
    # The change log, a row a change; its data as JSON text (each kind's data has its own fields).
    out["changes"] = (["seq", "at", "kind", "round", "table", "data"],
                      [{**c, "round": "" if c["round"] is None else c["round"],
                        "table": "" if c["table"] is None else c["table"],
                        "data": json.dumps(c["data"], ensure_ascii=False, sort_keys=True)}
                       for c in data.get("changes", [])])
    if "teams" in data:  # a team event: the team standings, and each round's matches
        team_rows = data["standings"].get("teams", [])
        out["teams"] = (list(team_rows[0]) if team_rows else ["rank", "team", "id"], team_rows)
        if "duplicate_team_matches" in data:  # scored on the boards: IMPs, not games
            out["team_matches"] = duplicate_team_matches_csv(data)
        else:
            out["team_matches"] = (
                ["round", "first", "last", "home", "away", "home_games", "away_games", "home_points", "away_points",
                 "done", "count", "finished"] + (["target", "winner", "won_at"] if data["event"].get("team_set") else []),
                [{**m, "home": m["home"]["name"], "away": m["away"]["name"],
                  **({"winner": (m["home"] if m["winner"] == m["home"]["id"] else m["away"])["name"]
                      if m.get("winner") is not None else ""} if "target" in m else {})}
                 for m in data["team_matches"]])
    from tournament.event.audit import TRAIL_COLUMNS

    out["audit"] = (list(TRAIL_COLUMNS), data.get("audit", []))
    prize_rows, group_rows = prize_tables(data.get("prizes", {}))
    if prize_rows:
        out["prizes"] = (list(dict.fromkeys(k for r in prize_rows for k in r)), prize_rows)
    if group_rows:
        out["groups"] = (list(dict.fromkeys(k for r in group_rows for k in r)), group_rows)
    return out


#: Duplicate teams' ``team_matches.csv``: a match's IMPs, victory points (empty where the event
#: ranks by match points), the points its team scored at both tables, and its boards in at both.
DUPLICATE_TEAM_MATCH_COLUMNS = ["round", "first", "last", "home", "away", "home_imps", "away_imps", "home_vp",
                                "away_vp", "home_points", "away_points", "boards_in", "boards", "finished"]


def duplicate_team_matches_csv(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """Duplicate teams' ``team_matches.csv``, a row a match: its tables (``first``, ``last``), its
    teams, the IMPs each has won (``home_imps``, ``away_imps``; ``team_boards.csv`` has them board by
    board), the victory points, each team's points over both tables, and how many of the round's
    boards (``boards``) are in at both tables (``boards_in``).  The columns a match of games has
    (``home_games``, ``done``, ``count``) would hold IMPs and boards under other names.  Read from
    the export's ``team_matches``, which names them so too
    (:func:`tournament.event.public.exported_duplicate_match`; its ``board_count`` is this ``boards``,
    the JSON's ``boards`` being the match's boards themselves)."""
    def vp(x: Any) -> Any:
        return "" if x is None else x

    return list(DUPLICATE_TEAM_MATCH_COLUMNS), [
        {"round": m["round"], "first": m["first"], "last": m["last"], "home": m["home"]["name"],
         "away": m["away"]["name"], "home_imps": m["home_imps"], "away_imps": m["away_imps"],
         "home_vp": vp(m.get("home_vp")), "away_vp": vp(m.get("away_vp")), "home_points": m["home_points"],
         "away_points": m["away_points"], "boards_in": m["boards_in"], "boards": m["board_count"],
         "finished": m["finished"]}
        for m in data["team_matches"]]


def duplicate_standings_csv(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """A duplicate event's ``standings.csv``: its standings as ``standings --csv`` prints them (the
    pairs with their matchpoints, percentage and IMPs, and ``provisional``; duplicate teams: the
    teams by victory or match points and IMPs)."""
    from tournament.event.browsing import DUPLICATE_COLUMNS, DUPLICATE_TEAM_COLUMNS

    if "duplicate_team_standings" in data:
        return list(DUPLICATE_TEAM_COLUMNS), data["duplicate_team_standings"]["teams"]
    doc = data["duplicate_standings"]
    return ([*DUPLICATE_COLUMNS, "provisional"],
            [{**r, "provisional": "yes" if doc["provisional"] else ""} for r in doc["pairs"]])


#: ``boards.csv``: a row a board's result at a table (duplicate pairs; duplicate teams).
BOARD_COLUMNS = ["round", "table", "board", "ns_pair", "ns", "ew_pair", "ew", "ns_points", "ew_points", "ended",
                 "verified", "ns_matchpoints", "ew_matchpoints", "top", "ns_imps", "ew_imps"]
#: ``boards_not_played.csv``: a row a board a table did not play (duplicate pairs: ``ns`` and ``ew`` the
#: movement's pair numbers; duplicate teams: the teams' names), with its reason.
NOT_PLAYED_COLUMNS = ("round", "table", "board", "ns", "ew", "reason", "marked_at", "marked_by")
TEAM_BOARD_COLUMNS = ["round", "table", "board", "ns_team", "ns", "ew_team", "ew", "ns_points", "ew_points",
                      "ended", "verified"]


def board_results_csv(data: dict[str, Any]) -> tuple[list[str], list[dict[str, Any]]]:
    """A duplicate event's ``boards.csv``: every board's result at every table, in round, table and
    board order: the NS and EW pairs (the movement's numbers in duplicate pairs; the pairs' names),
    the points, how the hand ended, whether from a checked record, and in duplicate pairs each
    side's matchpoints (of ``top``) and IMPs on the board (empty where too few tables played it);
    duplicate teams: each side's team (``team_boards.csv`` has each match's IMPs board by board)."""
    pair_of = {p["id"]: p.get("pair") or p["name"] for p in data["players"]}
    team_of = {p["id"]: p.get("team") or "" for p in data["players"]}
    teams = "duplicate_team_standings" in data
    scored = {(r["round"], r["table"], t["board"]): r for t in data.get("travellers", []) for r in t.get("results", [])}
    rows = []
    for rnd in data["rounds"]:
        for t in rnd["tables"]:
            side = {s["side"]: pair_of.get(s["id"], s["name"]) for s in t["seats"]}
            team = {s["side"]: team_of.get(s["id"], "") for s in t["seats"]}
            numbers = t.get("pairs") or {}
            for b in t.get("board_results", []):
                if teams:
                    rows.append({"round": rnd["round"], "table": t["table"], "board": b["board"],
                                 "ns_team": team.get("NS", ""), "ns": side.get("NS", ""), "ew_team": team.get("EW", ""),
                                 "ew": side.get("EW", ""), "ns_points": b["ns_points"], "ew_points": b["ew_points"],
                                 "ended": b["ended"] or "", "verified": b["verified"]})
                    continue
                mine = scored.get((rnd["round"], t["table"], b["board"]), {})
                mp, imps, top = mine.get("ns_matchpoints"), mine.get("ns_imps"), mine.get("top")
                rows.append({"round": rnd["round"], "table": t["table"], "board": b["board"],
                             "ns_pair": numbers.get("NS", ""), "ns": side.get("NS", ""),
                             "ew_pair": numbers.get("EW", ""), "ew": side.get("EW", ""),
                             "ns_points": b["ns_points"], "ew_points": b["ew_points"], "ended": b["ended"] or "",
                             "verified": b["verified"], "ns_matchpoints": "" if mp is None else mp,
                             "ew_matchpoints": "" if mp is None or top is None else top - mp,
                             "top": "" if mp is None or top is None else top,
                             "ns_imps": "" if imps is None else imps, "ew_imps": "" if imps is None else -imps})
    return list(TEAM_BOARD_COLUMNS if teams else BOARD_COLUMNS), rows


def prize_tables(prizes: dict[str, Any]) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The prize lists as two CSV tables: a row a unit of a category (``column``, ``value``, the
    place in it, the event's row), and a row a group (``column``, its value, the sums)."""
    rows, groups = [], []
    for column, entry in prizes.items():
        for c in entry["categories"]:
            rows += [{"column": column, "value": c["value"], **r} for r in c["rows"]]
        if "groups" in entry:
            g = entry["groups"]
            groups += [{"column": column, "best": g["best"], "value": r[column],
                        **{k: v for k, v in r.items() if k != column}} for r in g["rows"]]
    return rows, groups

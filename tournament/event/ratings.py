"""Ratings across events, with openskill (Plackett-Luce), kept in a ratings file of their own.

A ratings file is a small SQLite database, separate from the event files
(an event file stays one event).  ``tournament ratings RATINGS.db --add
EVENT.db …`` copies each event's finished games into it: one row per table
with a result, keyed by the event's uuid and the table, so importing the same
event twice counts its games once, and importing it again after more results
(or a replaced one) brings the file up to date.  Ratings are never stored as
running totals: they are recomputed from every imported game, in import
order (event by event, round by round, table by table), whenever they are
listed, so they cannot drift.

A player is the same person in two events when both have the same player id (a federation
number, ``tournament add --id``) or, failing that, when the name is exactly the same: a player
with an id is written into the ratings file as ``{"id", "name"}``, one without as their name, and
a name that goes with one id elsewhere is that id's player.  A renamed player (``tournament
rename``) is shown under the new name at once, read from the event file where it was imported
from (:func:`current_names`), without importing it again.
Partnership games rate the two partners as a team of two; individual tables
rate every seat as a side (free for all); level sides share a rank.

The ratings file's SQL is :mod:`tournament.store.ratings`; here are what goes into it
(:func:`event_games`) and what is computed from it (:func:`rate`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

import attrs

from domrec.errors import InputError as DomrecInputError

from tournament.event.files import open_event
from tournament.pairing import standings as st
from tournament.store import ratings as ratings_file
from tournament.store.event_store import EventStore
from tournament.store.ratings import Imported, RatingsFile

if TYPE_CHECKING:
    from tournament.event import federation_file as ff


@attrs.frozen
class Rating:
    rank: int
    name: str
    mu: float
    sigma: float
    games: int
    events: int
    #: The player's federation id where the ratings keep them by one (None: kept by name), so
    #: that another event can find them by it (``pair --seed ratings:FILE``) whatever the name.
    fed_id: str | None = None

    @property
    def ordinal(self) -> float:
        """The conservative rating shown first: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    def row(self) -> dict[str, Any]:
        """The row a listing shows; ``id``, the federation id ("" for a player kept by name), is
        what a rating office files the rating under."""
        return {"rank": self.rank, "id": self.fed_id or "", "name": self.name, "rating": round(self.ordinal, 2),
                "mu": round(self.mu, 2), "sigma": round(self.sigma, 2), "games": self.games, "events": self.events}


class RatingsBook:
    """A ratings file as the operations use it: events imported from their files, ratings computed
    from every game imported (the SQL is :class:`tournament.store.ratings.RatingsFile`'s)."""

    def __init__(self, file: RatingsFile) -> None:
        self.file = file
        self.path = file.path

    def close(self) -> None:
        self.file.close()

    def __enter__(self) -> "RatingsBook":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def import_event(self, store: EventStore, label: str) -> Imported:
        """Copy the event's games with a result (one transaction).  Idempotent.  A duplicate
        event has none: each board is one hand scored against the other tables that played it,
        not a game between the players at one table, and the file is left as it was."""
        settings = store.settings
        if settings.duplicate or settings.team_duplicate:
            return Imported(label, settings.name, 0, 0, 0, none_because=(
                "a duplicate event's boards are single hands scored against the field, not games "
                "between the players at a table; ratings rate whole games"))
        games = list(event_games(store))
        return self.file.import_games(store.uuid, store.settings.name, store.settings.game, label, games)

    def import_report(self, report: "ff.Report", label: str) -> Imported:
        """Copy a federation report's rated games (``ratings --from``), keyed as the event's own
        import keys them (its uuid, each game's number in the event file): idempotent, and the
        same games whether they came from the event file or from its report."""
        return self.file.import_games(report.uuid, report.name, report.game, label, report_games(report))

    def events(self) -> list[dict[str, Any]]:
        return self.file.events()

    def ratings(self) -> list[Rating]:
        """Everybody's rating; a player renamed in an event since it was imported (``tournament
        rename``) shows the new name at once, without importing the event again (:func:`current_names`)."""
        renamed = current_names(self)
        games = self.file.games()
        if not renamed:
            return rate(games)
        tables = self.file.game_tables()
        return rate((event, renamed.get((event, table), sides), ranks)
                    for (event, sides, ranks), (_, table, _) in zip(games, tables, strict=True))


def current_names(book: RatingsBook) -> dict[tuple[str, int], list[list[Any]]]:
    """The sides of the imported games whose players have been renamed since, under their names
    now: (event uuid, table) -> sides.  Read from each event file still where it was imported from
    (its ``source``; the same uuid): only the names are taken from it, never its results (those
    change with ``--add``).  An event file moved or gone keeps the names imported."""
    from tournament.errors import TournamentError
    from tournament.store import desk

    out: dict[tuple[str, int], list[list[Any]]] = {}
    stored: dict[str, dict[int, list[list[Any]]]] = {}
    for event, table, sides in book.file.game_tables():
        stored.setdefault(event, {})[table] = sides
    for e in book.events():
        try:
            store = open_event(e["source"])
        except (TournamentError, OSError):
            continue
        try:
            if store.uuid != e["uuid"] or not any(r["action"] in ("player_renamed", "pair_renamed")
                                                  for r in desk.trail(store)):
                continue
            for game in event_games(store):
                was = stored.get(e["uuid"], {}).get(game["table_id"])
                if was is not None and was != game["sides"] and [len(x) for x in was] == \
                        [len(x) for x in game["sides"]]:
                    out[(e["uuid"], game["table_id"])] = game["sides"]
        finally:
            store.close()
    return out


def event_games(store: EventStore) -> Iterator[dict[str, Any]]:
    """Every table whose game was played and recorded: the sides (player names) and their ranks
    (0 = first).  Forfeits and manual scores are not rated: a forfeit is no game, and a typed
    score is unverified (docs/tournament.md, "Ratings across events")."""
    from tournament.store import desk

    fids = desk.federation_ids(store)
    names: dict[int, Any] = {p.id: {"id": fids[p.id], "name": p.name} if p.id in fids else p.name
                             for p in store.players()}
    results = store.results()
    for t in store.tables():
        res = results.get(t.id)
        if res is None or res.kind != "record":
            continue
        by_side: dict[str, list[str]] = {}
        for s in t.seats:
            by_side.setdefault(s.side, []).append(names[s.player])
        sides = list(by_side)
        ranks = side_ranks(res.scores, res.winner, sides)
        yield {"table_id": t.id, "round": t.round, "table_no": t.number, "sides": [by_side[s] for s in sides],
               "ranks": ranks}


def report_games(report: "ff.Report") -> list[dict[str, Any]]:
    """A federation report's games as a ratings file keeps them (:func:`event_games`'s shape):
    only the games of kind ``record``, as ``--add`` rates only those; each side its players
    (``{"id", "name"}`` with a federation id, the name without), keyed by the game's number in the
    event file, so that a report read twice, or the event file and its report both, rate each game
    once."""
    from tournament.event import federation_file

    people = {p.number: ({"id": p.fed_id, "name": p.name} if p.fed_id else p.name) for p in report.players}
    out = []
    for g in report.games:
        if g.kind != federation_file.RECORD:
            continue
        labels = [s.side for s in g.sides]
        scores = {s.side: s.score or 0 for s in g.sides}
        winner = None if g.winner in (None, federation_file.DRAW) else g.winner
        out.append({"table_id": g.game_id, "round": g.round, "table_no": g.table,
                    "sides": [[people[p] for _, p in s.seats] for s in g.sides],
                    "ranks": side_ranks(scores, winner, labels)})
    return out


def without_ids(report: "ff.Report") -> int:
    """How many of the report's rated players have no federation id (matched by name)."""
    from tournament.event import federation_file

    rated = {p for g in report.games if g.kind == federation_file.RECORD for p in g.players()}
    return sum(1 for p in report.players if p.number in rated and not p.fed_id)


def side_ranks(scores: dict[str, int], winner: str | None, sides: Sequence[str]) -> list[float]:
    """Rank of each side (0 best; level sides share).  Two sides: the winner first, a draw level.
    More sides: by placement (scores, with the game's winner first among those level on top)."""
    if len(sides) == 2:
        if winner is None:
            return [0.0, 0.0]
        return [0.0 if s == winner else 1.0 for s in sides]
    points = st.placements(scores, winner, [float(len(sides) - i) for i in range(len(sides))])
    levels = sorted(set(points.values()), reverse=True)
    return [float(levels.index(points[s])) for s in sides]


def rate(games: Iterable[tuple[str, list[list[Any]], list[float]]]) -> list[Rating]:
    """Replay every game through openskill's Plackett-Luce model, from default ratings."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    games = list(games)
    # A name that goes with exactly one player id anywhere is that id's player where it has none.
    ids_of: dict[str, set[str]] = {}
    for _, sides, _ in games:
        for side in sides:
            for entry in side:
                if isinstance(entry, dict):
                    ids_of.setdefault(entry["name"], set()).add(entry["id"])

    def key(entry: Any) -> tuple[str, str]:
        if isinstance(entry, dict):
            return "id:" + entry["id"], entry["name"]
        known = ids_of.get(entry, set())
        return ("id:" + next(iter(known)) if len(known) == 1 else "name:" + entry), entry

    current: dict[str, Any] = {}
    shown: dict[str, str] = {}  # the name a player was last seen with
    played: dict[str, int] = {}
    events: dict[str, set[str]] = {}
    for event, sides, ranks in games:
        keyed = [[key(e) for e in side] for side in sides]
        teams = [[current.get(k) or model.rating(name=n) for k, n in side] for side in keyed]
        new = model.rate(teams, ranks=list(ranks))
        for side, rated in zip(keyed, new):
            for (k, n), r in zip(side, rated):
                current[k] = r
                shown[k] = n
                played[k] = played.get(k, 0) + 1
                events.setdefault(k, set()).add(event)
    rows = sorted(current.items(), key=lambda kv: (-(kv[1].mu - 3 * kv[1].sigma), shown[kv[0]], kv[0]))
    return [Rating(i, shown[k], r.mu, r.sigma, played[k], len(events[k]), k[3:] if k.startswith("id:") else None)
            for i, (k, r) in enumerate(rows, 1)]


def open_ratings(path: str | Path, create: bool = True) -> RatingsBook:
    """Open a ratings file; create it when missing (``create``).  Anything else is refused."""
    return RatingsBook(ratings_file.open_ratings(path, create))


def read_report(path: str | Path) -> "ff.Report":
    """A federation report file read and checked (``ratings --from``): one line at
    ``FILE:line:column`` for anything wrong in it (exit 2)."""
    from domrec.reader import read_bytes, unreadable
    from tournament.errors import UnusableInput
    from tournament.event import federation_file

    try:
        data = read_bytes(path, REPORT_LIMIT, "a federation report")
    except OSError as e:
        raise UnusableInput(unreadable(path, e, "a federation report")) from None
    except DomrecInputError as e:
        raise UnusableInput(f"{path}: {e.message}") from None
    return federation_file.read(str(path), data)


#: The largest federation report read (a thousand players over many rounds is a few MB).
REPORT_LIMIT = 256 * 1024 * 1024


def import_and_rate(ratings_path: str | Path, event_paths: Sequence[str | Path],
                    imported: list[str], report_paths: Sequence[str | Path] = (),
                    on_wait: Callable[[float], None] | None = None
                    ) -> tuple[list[Rating], list[dict[str, Any]]]:
    """Import the events (``tournament ratings --add``) and the federation reports (``--from``)
    and rate everybody: the ratings, best first, and the events in the file.  Every event file is
    opened (and so checked) and every report read before the ratings file is opened or created: a
    missing, foreign or malformed input must not leave a new, empty ratings file behind.
    ``imported`` gets what each import did as it is done (kept when a later one fails);
    ``on_wait``: told once when a write to the ratings file waits for another program holding it."""
    stores: list[EventStore] = []
    try:
        reports = [read_report(path) for path in report_paths]
        for path in event_paths:
            stores.append(open_event(path))
        book = open_ratings(ratings_path, create=bool(event_paths) or bool(report_paths))
        book.file.on_wait = on_wait
        try:
            for path, store in zip(event_paths, stores):
                imported.append(book.import_event(store, str(path)).summary())
            for path, report in zip(report_paths, reports):
                line = book.import_report(report, str(path)).summary()
                unnamed = without_ids(report)
                if unnamed:
                    line += (f"; {unnamed} player{'s' if unnamed != 1 else ''} without a federation id, "
                             f"matched by name")
                imported.append(line)
            return book.ratings(), book.events()
        finally:
            book.close()
    finally:
        for store in stores:
            store.close()

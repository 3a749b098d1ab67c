"""A team event's teams in the event file: the teams, their players and pairs, each round's line-up.

Schema 9 (issue 37).  In the store a *partnership* has been a ``teams`` row since schema 1 (a pairs
event's pair), so the teams of a team event are ``squads``: a squad holds players (``squad_players``:
its pairs' members and its reserves) and pairs (``squad_pairs``: which of the event's partnerships
are its, in its registered order).  ``squad_lineups`` keeps the captain's order of the pairs for a
round (which pair sits at the match's first table); a round without one seats the registered order.
A file gets these tables, and becomes schema 9, in the transaction of its first team.
``squad_subs`` keeps the reserves brought into pairs (a row a substitution, from its round on); a
schema-9 file gets it, in the same schema, with its first substitution (a file without it has none).
``squad_set_changes``: the captain's one change in a set (a round's match: ``sub`` or ``cross``),
made the same way with the first of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from tournament.errors import Refused
from tournament.values import SeatAssignment, Squad, Substitution

if TYPE_CHECKING:
    from tournament.store.event_store import EventStore

SQUADS_SCHEMA_VERSION = 9
SQUADS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS squads (id INTEGER PRIMARY KEY, name TEXT NOT NULL, "
    "entered_round INTEGER NOT NULL, withdrawn_round INTEGER)",
    "CREATE UNIQUE INDEX IF NOT EXISTS ux_squads_name ON squads(name)",
    "CREATE TABLE IF NOT EXISTS squad_players (player_id INTEGER PRIMARY KEY REFERENCES players(id), "
    "squad_id INTEGER NOT NULL REFERENCES squads(id), reserve INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS squad_pairs (pair_id INTEGER PRIMARY KEY REFERENCES teams(id), "
    "squad_id INTEGER NOT NULL REFERENCES squads(id), position INTEGER NOT NULL)",
    "CREATE TABLE IF NOT EXISTS squad_lineups (round INTEGER NOT NULL, squad_id INTEGER NOT NULL "
    "REFERENCES squads(id), position INTEGER NOT NULL, pair_id INTEGER NOT NULL REFERENCES teams(id), "
    "PRIMARY KEY (round, squad_id, position))",
)
SUBS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS squad_subs (id INTEGER PRIMARY KEY, from_round INTEGER NOT NULL, "
    "squad_id INTEGER NOT NULL REFERENCES squads(id), pair_id INTEGER NOT NULL REFERENCES teams(id), "
    "out_player INTEGER NOT NULL REFERENCES players(id), in_player INTEGER NOT NULL REFERENCES players(id))",
)
SET_CHANGES_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS squad_set_changes (round INTEGER NOT NULL, squad_id INTEGER NOT NULL "
    "REFERENCES squads(id), kind TEXT NOT NULL, PRIMARY KEY (round, squad_id))",
)


def upgrade(store: "EventStore") -> None:
    """Within a write: the squads' tables, and schema 9."""
    if store.has_table("squad_lineups"):
        return
    for sql in SQUADS_SCHEMA:
        store.conn.execute(sql)
    store._bump_schema(SQUADS_SCHEMA_VERSION)


def squads(store: "EventStore") -> list[Squad]:
    """Every team, in the order they were registered."""
    if not store.has_table("squads"):
        return []
    pairs: dict[int, list[int]] = {}
    for r in store._rows("SELECT pair_id, squad_id FROM squad_pairs ORDER BY squad_id, position"):
        pairs.setdefault(r["squad_id"], []).append(r["pair_id"])
    reserves: dict[int, list[int]] = {}
    for r in store._rows("SELECT player_id, squad_id FROM squad_players WHERE reserve = 1 ORDER BY player_id"):
        reserves.setdefault(r["squad_id"], []).append(r["player_id"])
    return [Squad(r["id"], r["name"], tuple(pairs.get(r["id"], ())), tuple(reserves.get(r["id"], ())),
                  r["entered_round"], r["withdrawn_round"])
            for r in store._rows("SELECT id, name, entered_round, withdrawn_round FROM squads ORDER BY id")]


def insert_squad(store: "EventStore", name: str, entered: int) -> int:
    """Within a write."""
    upgrade(store)
    if store._rows("SELECT id FROM squads WHERE name = ?", [name]):
        raise Refused(f"a team named {name!r} is already entered; team names must be unique")
    return int(store.conn.execute("INSERT INTO squads(name, entered_round) VALUES (?, ?)",
                                  [name, entered]).lastrowid)


def add_pair(store: "EventStore", squad: int, pair: int, players: tuple[int, ...]) -> None:
    """Within a write: a partnership (and its players) joins a team, after its other pairs."""
    position = store._rows("SELECT COUNT(*) AS n FROM squad_pairs WHERE squad_id = ?", [squad])[0]["n"]
    store.conn.execute("INSERT INTO squad_pairs(pair_id, squad_id, position) VALUES (?, ?, ?)",
                       [pair, squad, position])
    store.conn.executemany("INSERT INTO squad_players(player_id, squad_id, reserve) VALUES (?, ?, 0)",
                           [(p, squad) for p in players])


def add_reserve(store: "EventStore", squad: int, player: int) -> None:
    """Within a write."""
    store.conn.execute("INSERT INTO squad_players(player_id, squad_id, reserve) VALUES (?, ?, 1)", [player, squad])


def rename_squad(store: "EventStore", squad: int, name: str) -> None:
    """Within a write."""
    if store._rows("SELECT id FROM squads WHERE name = ? AND id != ?", [name, squad]):
        raise Refused(f"a team named {name!r} is already entered; team names must be unique")
    store.conn.execute("UPDATE squads SET name = ? WHERE id = ?", [name, squad])


def withdraw_squad(store: "EventStore", squad: int, from_round: int) -> None:
    """Within a write: the team, its pairs and all its players leave from ``from_round``."""
    store.conn.execute("UPDATE squads SET withdrawn_round = ? WHERE id = ?", [from_round, squad])
    for r in store._rows("SELECT pair_id FROM squad_pairs WHERE squad_id = ?", [squad]):
        store.set_team_withdrawn(r["pair_id"], from_round)
    store.conn.execute("UPDATE players SET withdrawn_round = ? WHERE id IN (SELECT player_id FROM squad_players "
                       "WHERE squad_id = ?) AND (withdrawn_round IS NULL OR withdrawn_round > ?)",
                       [from_round, squad, from_round])


def set_lineup(store: "EventStore", round_no: int, squad: int, pairs: tuple[int, ...]) -> None:
    """Within a write: the order the team's pairs sit in at ``round_no``'s match."""
    upgrade(store)
    store.conn.execute("DELETE FROM squad_lineups WHERE round = ? AND squad_id = ?", [round_no, squad])
    store.conn.executemany("INSERT INTO squad_lineups(round, squad_id, position, pair_id) VALUES (?, ?, ?, ?)",
                           [(round_no, squad, i, p) for i, p in enumerate(pairs)])


def lineups(store: "EventStore", round_no: int) -> dict[int, tuple[int, ...]]:
    """Team -> the order of its pairs set for ``round_no`` (teams that set none are not there)."""
    if not store.has_table("squad_lineups"):
        return {}
    out: dict[int, list[int]] = {}
    for r in store._rows("SELECT squad_id, pair_id FROM squad_lineups WHERE round = ? ORDER BY squad_id, position",
                         [round_no]):
        out.setdefault(r["squad_id"], []).append(r["pair_id"])
    return {k: tuple(v) for k, v in out.items()}


def add_substitution(store: "EventStore", from_round: int, squad: int, pair: int, out: int, into: int) -> int:
    """Within a write: ``into`` takes ``out``'s place in ``pair`` from ``from_round`` on."""
    upgrade(store)
    for sql in SUBS_SCHEMA:
        store.conn.execute(sql)
    return int(store.conn.execute("INSERT INTO squad_subs(from_round, squad_id, pair_id, out_player, in_player) "
                                  "VALUES (?, ?, ?, ?, ?)", [from_round, squad, pair, out, into]).lastrowid)


def substitutions(store: "EventStore") -> list[Substitution]:
    """Every substitution, in the order they apply (by round, then as they were made)."""
    if not store.has_table("squad_subs"):
        return []
    return [Substitution(r["id"], r["from_round"], r["squad_id"], r["pair_id"], r["out_player"], r["in_player"])
            for r in store._rows("SELECT id, from_round, squad_id, pair_id, out_player, in_player FROM squad_subs "
                                 "ORDER BY from_round, id")]


def add_set_change(store: "EventStore", round_no: int, squad: int, kind: str) -> None:
    """Within a write: the team's captain has made their change in the round's set."""
    upgrade(store)
    for sql in SET_CHANGES_SCHEMA:
        store.conn.execute(sql)
    store.conn.execute("INSERT INTO squad_set_changes(round, squad_id, kind) VALUES (?, ?, ?)",
                       [round_no, squad, kind])


def set_change(store: "EventStore", round_no: int, squad: int) -> str | None:
    """The change the team's captain made in the round's set (``sub`` or ``cross``), or None."""
    if not store.has_table("squad_set_changes"):
        return None
    rows = store._rows("SELECT kind FROM squad_set_changes WHERE round = ? AND squad_id = ?", [round_no, squad])
    return rows[0]["kind"] if rows else None


def insert_set_table(store: "EventStore", round_no: int, seats: "Sequence[SeatAssignment]") -> tuple[int, int]:
    """Within a write: a set's next game, a table of the paired round ``round_no`` numbered after
    its last; (its id, its number)."""
    round_id = store._rows("SELECT id FROM rounds WHERE number = ?", [round_no])[0]["id"]
    number = int(store._rows("SELECT MAX(number) AS n FROM round_tables WHERE round_id = ?", [round_id])[0]["n"]) + 1
    tid = int(store.conn.execute("INSERT INTO round_tables(round_id, number) VALUES (?, ?)",
                                 [round_id, number]).lastrowid)
    store.conn.executemany("INSERT INTO seats(table_id, seat, side, player_id, position) VALUES (?, ?, ?, ?, ?)",
                           [(tid, x.seat, x.side, x.player, i) for i, x in enumerate(seats)])
    return tid, number

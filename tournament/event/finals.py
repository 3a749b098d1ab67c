"""The final of a rotating-partner event, in the same event file: final tables, or a knockout of
pairs formed from the standings.

A rotating-partner event has no fixed sides, so it cannot go on to an ordinary knockout or round
robin (:mod:`tournament.event.stages`).  Its final is drawn from the individual standings of its rounds,
once every table so far has a result, and is one more stage of the same event: players keep their
numbers, its rounds continue the event's round numbers, and its results come in through the
ordinary record and manual paths.  Two forms:

* **Final tables** (:data:`~tournament.event.stages.FINAL_TABLE`): the top ``N`` (a multiple of four)
  in blocks of four — table 1 holds places 1–4, table 2 places 5–8, … (blocks, not snake order:
  table 1 is the final for the title, the next tables play for the places below).  Each table
  plays three games so that each player partners each other once: 1+2 v 3+4, 1+3 v 2+4,
  1+4 v 2+3 (numbers are places at the table; the pair holding the better place sits N-S).  All
  games are seated when the final is drawn, game ``g`` in the event's round ``offset + g``, at
  the table numbered like its final table.  A table's ranking is by the final's own games
  (the event's ranking keys over those three games); players level on every key are separated by
  their place in the standings of the rounds.  Nothing is carried over otherwise.
* **A knockout of pairs** (``--pairs 1-4,2-3``): the pattern pairs places within each block of
  places (1st with 4th, 2nd with 3rd, 5th with 8th, 6th with 7th, …); the pairs, seeded in the
  order they are formed, play the existing single or double elimination
  (:mod:`tournament.pairing.brackets`).  The pairs are kept in the stage's settings (``sides``): side
  ``i`` of the bracket is the ``i``-th pair formed.

As for every stage, nothing about the final is stored as a running state: the draw (the players
in place order, the pairs) is fixed when it is made, and everything else is recomputed from the
draw and the results each time.
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

import attrs

from tournament.errors import SettingsError
from tournament.event import stages
from tournament.event.stages import FINAL_TABLE, Stage, StageError, UsageError
from tournament.pairing import brackets, standings as st
from tournament.settings import PAIRS, ROTATING
from tournament.store.event_store import EventStore
from tournament.values import SeatAssignment, Table

#: The three games of a final table, as places at the table (0 = the best): NS partners, EW partners.
#: Over the three games each player partners each of the other three once.
GAMES: tuple[tuple[tuple[int, int], tuple[int, int]], ...] = (((0, 1), (2, 3)), ((0, 2), (1, 3)),
                                                              ((0, 3), (1, 2)))
TABLE_SIZE = 4
KNOCKOUTS = (brackets.SINGLE, brackets.DOUBLE)


@attrs.frozen
class Placing:
    """One player's place in the final (a final table's ranking, or the knockout's placings)."""

    place: int
    player: int
    name: str
    seed: int  # the player's place in the standings of the rounds (1 = the top)
    table: int = 0  # final tables: which table (1 = the final for the title)
    pair: str = ""  # knockout: the pair's name, "Ana & Di"
    #: Final tables: the player's figures over the final's games (standings keys).
    figures: dict[str, Any] = attrs.field(factory=dict)


# --- the draw ------------------------------------------------------------------------------


def parse_pairs(text: str) -> tuple[tuple[int, int], ...]:
    """``1-4,2-3`` as pairs of places within a block of places (the block's size is the largest
    number); every place from 1 to that size is used exactly once."""
    pairs = []
    for part in text.split(","):
        m = re.fullmatch(r"\s*([0-9]{1,4})\s*-\s*([0-9]{1,4})\s*", part)
        if not m:
            raise UsageError(f"write --pairs as places joined in pairs, such as 1-4,2-3 (1st with 4th, 2nd "
                             f"with 3rd), not {text!r}")
        pairs.append((int(m.group(1)), int(m.group(2))))
    used = [x for pair in pairs for x in pair]
    size = max(used)
    if sorted(used) != list(range(1, size + 1)):
        raise UsageError(f"--pairs {text}: each place from 1 to {size} must be in exactly one pair (1-4,2-3 "
                         f"pairs places 1 to 4 as 1st with 4th and 2nd with 3rd)")
    return tuple(pairs)


def form_pairs(places: Sequence[int], pattern: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The pattern applied to each block of places in turn: with ``1-4,2-3``, places 1..8 give
    (1, 4), (2, 3), (5, 8), (6, 7) — in that order, which is the seeding."""
    size = 2 * len(pattern)
    out = []
    for start in range(0, len(places), size):
        block = places[start:start + size]
        out += [(block[a - 1], block[b - 1]) for a, b in pattern]
    return out


def final_table_seats(players: Sequence[int], game: int) -> tuple[SeatAssignment, ...]:
    """The seats of a final table's game ``game`` (from 1); ``players`` in place order."""
    (a, b), (c, d) = GAMES[game - 1]
    n, s, e, w = players[a], players[b], players[c], players[d]
    return (SeatAssignment("N", "NS", n), SeatAssignment("E", "EW", e), SeatAssignment("S", "NS", s),
            SeatAssignment("W", "EW", w))


def _check_event(store: EventStore) -> None:
    fmt = store.settings.format
    if fmt == ROTATING:
        return
    if fmt == PAIRS:
        raise SettingsError("`tournament final` draws a final from individual standings, for rotating-partner "
                            "events; this pairs event has its partnerships already: use `tournament knockout` "
                            "(or `tournament roundrobin`)")
    raise SettingsError(f"`tournament final` is for rotating-partner events; this individual event ({store.settings.game} "
                        f"at tables of {store.settings.table_size}) has no partners: use `tournament knockout` "
                        f"(--format multi for a final table of its own)")


def _rounds_finished(store: EventStore) -> None:
    """The final is drawn from complete standings: every table so far must have its result."""
    if not store.last_round():
        raise StageError("no round has been played yet: a final is drawn from the standings of the rounds")
    results = store.results()
    missing = [t for t in store.tables() if t.id not in results]
    if missing:
        t = missing[0]
        raise StageError(f"round {t.round} table {t.number} has no result yet: the final is drawn from the "
                         f"standings once every table so far has its result ({len(missing)} missing); nothing "
                         f"was written")


def _finalists(store: EventStore, top: int) -> list[int]:
    """The top ``top`` active players of the standings of the rounds, in place order."""
    table = stages.stage_standings(store, None)
    nxt = store.last_round() + 1
    active = {p.id for p in store.players() if p.active_in(nxt)}
    ranked = [s.unit for s in table.rows if s.unit in active]
    if len(ranked) < top:
        gone = len(table.rows) - len(ranked)
        raise UsageError(f"--top {top} asks for {top} players, but the event has {len(ranked)} active "
                         f"player{'s' if len(ranked) != 1 else ''}" + (f" ({gone} withdrawn)" if gone else ""))
    return ranked[:top]


def create_final(store: EventStore, top: int | None = None, pairs: str | None = None, knockout: str = brackets.SINGLE, *,
                 third_place: bool = False, reset: bool = True, wins_needed: int = 1,
                 name: str | None = None) -> Stage:
    """Draw the final of a rotating-partner event from the standings of its rounds, and seat what is due,
    in one transaction (refused, with nothing written, before every table so far has a result).

    Without ``pairs``: final tables of four (``top`` a multiple of 4).  With ``pairs`` (``"1-4,2-3"``):
    a ``knockout`` (single or double elimination) of the pairs the pattern forms from the top
    ``top`` places.  ``top`` defaults to 4, or to one block of the pattern when that is more
    (``1-8,2-7,3-6,4-5`` alone means the top 8: a director who wrote the pattern meant it whole)."""
    _check_event(store)
    pattern = parse_pairs(pairs) if pairs is not None else None
    if top is None:
        top = max(TABLE_SIZE, 2 * len(pattern)) if pattern is not None else TABLE_SIZE
    if pattern is None:
        if top < TABLE_SIZE or top % TABLE_SIZE:
            raise UsageError(f"--top {top}: final tables seat four, so --top is 4, 8, 12, … (4: one final table "
                             f"for places 1-4; 8: a second table for places 5-8)")
        if third_place or not reset or wins_needed != 1 or knockout != brackets.SINGLE:
            raise UsageError("--format, --third-place, --no-reset and --first-to are for a knockout of pairs "
                             "(--pairs); a final table plays three games")
    else:
        block = 2 * len(pattern)
        if knockout not in KNOCKOUTS:
            raise UsageError(f"a knockout of pairs is single or double elimination, not {knockout!r}")
        if top % block:
            raise UsageError(f"--top {top}: --pairs {pairs} pairs places in blocks of {block}, so --top must be a "
                             f"multiple of {block}")
        if top // 2 < 2:
            raise UsageError(f"--top {top} forms one pair; a knockout needs at least 2 pairs (--top 4 or more)")
        if third_place and top // 2 < 4:
            raise UsageError("a third-place game needs at least 4 pairs (--top 8 or more)")
    with store.write():
        done = stages.load(store)
        if done:
            raise StageError(f"this event already has its final (stage {done[0].id}, {done[0].name}, from round "
                             f"{done[0].offset + 1})")
        _rounds_finished(store)
        players = _finalists(store, top)
        options: dict[str, Any] = {"offset": store.last_round(), "seeding": "standings", "places": players}
        store.upgrade_for_stages()
        if pattern is None:
            options["seeds"] = players
            tables = top // TABLE_SIZE
            label = name or ("final table" if tables == 1 else f"final tables ({tables})")
            sid = store.insert_stage(label, FINAL_TABLE, options)
            stage = Stage(sid, label, FINAL_TABLE, tuple(players), options["offset"], options)
            stages.stage_created(store, stage)
            _seat_final_tables(store, stage)
        else:
            sides = form_pairs(players, pattern)
            options.update(seeds=list(range(1, len(sides) + 1)), sides=[list(s) for s in sides], pairs=pairs,
                           third_place=third_place, reset=reset, wins_needed=wins_needed)
            label = name or (f"final: knockout of pairs {pairs.replace(' ', '')} "
                             f"({'single' if knockout == brackets.SINGLE else 'double'} elimination)")
            sid = store.insert_stage(label, knockout, options)
            stage = Stage(sid, label, knockout, tuple(options["seeds"]), options["offset"], options)
            stages.stage_created(store, stage)
            bracket = stage.bracket()
            store.insert_matches(sid, [(m.key, stage.event_round(m.round), m.position,
                                        bracket.round_labels[m.round - 1],
                                        json.dumps([attrs.asdict(s) for s in m.sources])) for m in bracket.matches])
            stages.advance_stage(store, stage)
    return stage


def table_places(k: int) -> str:
    return f"places {TABLE_SIZE * (k - 1) + 1}-{TABLE_SIZE * k}"


def _table_key(k: int) -> str:
    return f"F{k}"


def _seat_final_tables(store: EventStore, stage: Stage) -> None:
    """Every game of every final table, seated at once: game g of table k is round offset + g, table k."""
    tables = len(stage.seeds) // TABLE_SIZE
    store.insert_matches(stage.id, [
        (_table_key(k), stage.event_round(1), k, f"final table {k} ({table_places(k)})",
         json.dumps([{"kind": "seed", "unit": u} for u in _at_table(stage, k)]))
        for k in range(1, tables + 1)])
    matches = store.matches(stage.id)
    for game in range(1, len(GAMES) + 1):
        for k in range(1, tables + 1):
            stages.seat_stage_table(store, stage, stage.event_round(game), k,
                                    final_table_seats(_at_table(stage, k), game), matches[_table_key(k)]["id"],
                                    _table_key(k), game)


def _at_table(stage: Stage, k: int) -> tuple[int, ...]:
    return stage.seeds[TABLE_SIZE * (k - 1):TABLE_SIZE * k]


# --- where a final stands --------------------------------------------------------------------


def final_stage(store: EventStore) -> Stage | None:
    """The final of a rotating-partner event (its only stage after the rounds), if drawn."""
    if store.settings.format != ROTATING:
        return None
    return stages.current(store)


@attrs.frozen
class FinalTable:
    number: int
    players: tuple[int, ...]  # in place order (their places in the rounds)
    #: Per game (1..3): the table it is played at, and its result (None: not in yet).
    games: tuple[tuple[int, Table, Any], ...]
    ranking: tuple[Placing, ...]

    @property
    def complete(self) -> bool:
        return all(res is not None for _, _, res in self.games)


def final_tables(store: EventStore, stage: Stage) -> list[FinalTable]:
    """Each final table: its games and results, and its ranking by the final's own games (players
    level on every ranking key in order of their place in the standings of the rounds)."""
    results = store.results()
    tables = {t.id: t for t in store.tables() if t.round > stage.offset}
    by_key: dict[str, list[tuple[int, Table, Any]]] = {}
    for row in store.match_tables(stage.id):
        t = tables[row["table_id"]]
        by_key.setdefault(row["key"], []).append((row["game"], t, results.get(t.id)))
    players = {p.id: p for p in store.players()}
    seed_of = {u: i + 1 for i, u in enumerate(stage.seeds)}
    out = []
    for k in range(1, len(stage.seeds) // TABLE_SIZE + 1):
        members = _at_table(stage, k)
        games = tuple(sorted(by_key.get(_table_key(k), []), key=lambda g: g[0]))
        figures = st.compute(store.settings, [players[p] for p in members], [], [t for _, t, _ in games],
                             results, {})
        rows = sorted(figures.rows, key=lambda s: (s.rank, seed_of[s.unit]))
        ranking = tuple(Placing(TABLE_SIZE * (k - 1) + i + 1, s.unit, s.name, seed_of[s.unit], table=k,
                                figures={"played": s.played, "won": s.won, "drawn": s.drawn, "lost": s.lost,
                                         "wins": st.shown_number(s.wins), "for": s.points_for,
                                         "against": s.points_against, "diff": s.diff})
                        for i, s in enumerate(rows))
        out.append(FinalTable(k, members, games, ranking))
    return out


def knockout_placings(store: EventStore, stage: Stage) -> list[Placing]:
    """Each player of a knockout of pairs with the place of the pair (pairs still in share the
    top places, as in every knockout)."""
    state = stages.state_of(store, stage)
    names = {p.id: p.name for p in store.players()}
    pair_names = stages.side_names(store, stage)
    seed_of = {u: i + 1 for i, u in enumerate(stage.options.get("places", ()))}
    out = []
    for side, place in sorted(brackets.placings(state).items(), key=lambda kv: (kv[1], kv[0])):
        for p in stage.sides[side - 1]:
            out.append(Placing(place, p, names[p], seed_of.get(p, 0), pair=pair_names[side]))
    return out


def placings(store: EventStore, stage: Stage) -> list[Placing]:
    """Every finalist's place (final tables: provisional until a table's three games are in)."""
    if stage.format == FINAL_TABLE:
        return [p for t in final_tables(store, stage) for p in t.ranking]
    return knockout_placings(store, stage)


def finished(store: EventStore, stage: Stage) -> bool:
    if stage.format == FINAL_TABLE:
        return all(t.complete for t in final_tables(store, stage))
    return stages.state_of(store, stage).finished


def champion(store: EventStore, stage: Stage) -> str | None:
    """The winner's name (a knockout of pairs: the pair's), once the final for the title is over."""
    if stage.format == FINAL_TABLE:
        first = final_tables(store, stage)[0]
        return first.ranking[0].name if first.complete else None
    state = stages.state_of(store, stage)
    return stages.side_names(store, stage).get(state.champion) if state.champion is not None else None


def rows(store: EventStore, stage: Stage) -> list[dict[str, Any]]:
    """The final's result as rows (``standings --stage K``, and above the standings): one a player."""
    out = []
    for p in placings(store, stage):
        row: dict[str, Any] = {"place": p.place, "id": p.player, "name": p.name}
        if stage.format == FINAL_TABLE:
            row["table"] = p.table
            row.update(named_figures(store.settings.tiebreaks, p.figures))
        else:
            row["pair"] = p.pair
        row["rounds_place"] = p.seed
        out.append(row)
    return out


def cut_note(store: EventStore, stage: Stage) -> str | None:
    """A player left out of the final though level, on every ranking key, with the last player in:
    the standings' order (player number) decided, and the director may want to know."""
    places = list(stage.options.get("places", stage.seeds))
    table = stages.stage_standings(store, None)
    nxt = stage.offset + 1
    active = {p.id for p in store.players() if p.active_in(nxt)}
    ranked = [s for s in table.rows if s.unit in active or s.unit in places]
    last = next((s for s in ranked if s.unit == places[-1]), None)
    out = [s for s in ranked if s.unit not in places and last is not None and s.rank == last.rank]
    if last is None or not out:
        return None
    who = ", ".join(f"#{s.unit} {s.name}" for s in out)
    return (f"note: {who} {'is' if len(out) == 1 else 'are'} level on every ranking key with #{last.unit} "
            f"{last.name}, the last player in the final; the standings' order (by player number) decided")


# --- as text, as data ------------------------------------------------------------------------


def _side_text(table: Table, side: str, names: dict[int, str]) -> str:
    return " & ".join(names[s.player] for s in table.seats if s.side == side)


def draw_text(store: EventStore, stage: Stage) -> str:
    """The final tables as plain text: each table's games, results and ranking."""
    names = {p.id: p.name for p in store.players()}
    lines: list[str] = []
    for ft in final_tables(store, stage):
        who = ", ".join(f"#{p} {names[p]}" for p in ft.players)
        lines.append(f"== final table {ft.number} ({table_places(ft.number)}): {who} ==")
        for game, t, res in ft.games:
            sides = f"{_side_text(t, 'NS', names)} v {_side_text(t, 'EW', names)}"
            if res is None:
                how = "to play"
            else:
                how = f"NS {res.scores.get('NS')}, EW {res.scores.get('EW')}; " + (
                    f"won by {_side_text(t, res.winner, names)}" if res.winner else "a draw")
            lines.append(f"  game {game} (round {t.round} table {t.number}): {sides}: {how}")
        state = "" if ft.complete else " (provisional: games still to play)"
        lines.append(f"  ranking{state}: " + ", ".join(
            f"{p.place}. {p.name} ({_figures_text(store.settings.tiebreaks, p.figures)})" for p in ft.ranking))
    name = champion(store, stage)
    if name is not None:
        lines.append(f"champion: {name}")
    return "\n".join(lines)


def figure_columns(keys: tuple[str, ...]) -> list[str]:
    """A final table's figure columns as the event names them: ``played``, then the event's own
    ranking keys in their order (``efectividad`` where the event ranks by it, never also
    ``diff``: one number, one name), then the other figures.  Head-to-head is a comparison among
    the tied, not a figure of the final's games, and is not a column."""
    from tournament.settings import TIEBREAK_ALIASES

    base = ("wins", "for", "against", "diff")
    out = ["played"]
    for k in keys:
        have = [TIEBREAK_ALIASES.get(x, x) for x in out]
        if TIEBREAK_ALIASES.get(k, k) in base and TIEBREAK_ALIASES.get(k, k) not in have:
            out.append(k)
    out += [k for k in base if k not in [TIEBREAK_ALIASES.get(x, x) for x in out]]
    return out


def named_figures(keys: tuple[str, ...], figures: dict[str, Any]) -> dict[str, Any]:
    """A finalist's figures under :func:`figure_columns`."""
    from tournament.settings import TIEBREAK_ALIASES

    return {c: figures.get(TIEBREAK_ALIASES.get(c, c)) for c in figure_columns(keys)}


def _figures_text(keys: tuple[str, ...], figures: dict[str, Any]) -> str:
    """A finalist's figures under the event's own ranking keys, in their order (``efectividad +35``),
    those the final's games give a number for (head-to-head is a comparison, not a figure)."""
    from tournament.settings import TIEBREAK_ALIASES

    shown = []
    for key in keys:
        value = figures.get(TIEBREAK_ALIASES.get(key, key))
        if isinstance(value, (int, float)):
            shown.append(f"{key} {value:+g}" if TIEBREAK_ALIASES.get(key, key) == "diff" else f"{key} {value:g}")
    return ", ".join(shown) or f"wins {figures.get('wins', 0):g}"


def stage_doc(store: EventStore, stage: Stage) -> dict[str, Any]:
    """What the report and the JSON export say about a final, beside what every stage has."""
    names = {p.id: p.name for p in store.players()}
    doc: dict[str, Any] = {"final": True, "rounds_places": [{"place": i + 1, "id": u, "name": names[u]}
                                                           for i, u in enumerate(stage.options.get("places", ()))]}
    if stage.format == FINAL_TABLE:
        tables = []
        for ft in final_tables(store, stage):
            tables.append({
                "table": ft.number, "places": table_places(ft.number), "complete": ft.complete,
                "games": [{"game": g, "round": t.round, "table": t.number, "NS": _side_text(t, "NS", names),
                           "EW": _side_text(t, "EW", names),
                           "result": None if res is None else {"scores": res.scores, "winner": res.winner,
                                                               "verified": res.verified}}
                          for g, t, res in ft.games],
                "columns": figure_columns(store.settings.tiebreaks),
                "ranking": [{"place": p.place, "id": p.player, "name": p.name, **p.figures,
                             **named_figures(store.settings.tiebreaks, p.figures),
                             "rounds_place": p.seed} for p in ft.ranking]})
        doc["final_tables"] = tables
    doc["placings"] = [{"place": p.place, "id": p.player, "name": p.name, **({"pair": p.pair} if p.pair else {})}
                       for p in placings(store, stage)]
    doc["champion"] = champion(store, stage)
    return doc


# --- check ------------------------------------------------------------------------------------


def draw_findings(store: EventStore, stage: Stage) -> list[tuple[str, str]]:
    """``check``: (level, message) for a final whose seated games are not its draw (an error), or
    whose draw the standings of the rounds no longer give (a warning: a result of the rounds was
    replaced after the final was drawn; the final is not redrawn)."""
    out: list[tuple[str, str]] = []
    places = list(stage.options.get("places", ()))
    if stage.format == FINAL_TABLE:
        want = {(stage.event_round(g), k): {s.seat: s.player for s in final_table_seats(_at_table(stage, k), g)}
                for g in range(1, len(GAMES) + 1) for k in range(1, len(stage.seeds) // TABLE_SIZE + 1)}
        got = {(t.round, t.number): {s.seat: s.player for s in t.seats}
               for t in store.tables() if t.round > stage.offset}
        for where in sorted(set(want) | set(got)):
            if want.get(where) != got.get(where):
                what = "is not seated" if where not in got else ("is not a table of the final" if where not in
                                                                 want else "does not seat its draw")
                out.append(("error", f"round {where[0]} table {where[1]} {what}"))
    now = stages.stage_standings(store, None)
    active = {p.id for p in store.players() if p.active_in(stage.offset + 1)}
    fresh = [s.unit for s in now.rows if s.unit in active or s.unit in places][:len(places)]
    if places and fresh != places:
        out.append(("warning", "the final was drawn from standings of the rounds that have changed since (a "
                               "result was entered or replaced after the draw); it is not redrawn"))
    return out

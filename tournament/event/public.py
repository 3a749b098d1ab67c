"""What the hall sees: the event as plain values, for its public pages and its report.

Pure reads.  :func:`event_data` gathers everything about an event (settings, players, standings,
every round's tables and results, every stage's draw and how it stands) as JSON-ready values:
the JSON export, the report and the public pages all start from it.  :func:`public_data` is
the same read in one read transaction, with what only the public pages need (the number of the
event's latest change, the round's clock, each player's unit).  The functions after it are pure
functions of that dictionary, one a page: who sits where (:func:`find_your_table`), a player's
games (:func:`player_view`), the crosstable (:func:`crosstable`), the champion and final placings
(:func:`final_standing`).

Only what is *entered* is ever shown: a table's result once it is in the event (confirmed at the
table, entered by the director or at the command line).  A game still being played at a table
is never read here, so nothing of its hands (and none of its hidden tiles) can reach a page;
its table shows "playing" until its result is in.
"""

from __future__ import annotations

import datetime
import unicodedata
from fractions import Fraction
from typing import Any

from tournament.errors import TournamentError
from tournament.event import feed, finals, stages, standings as standings_of
from tournament.event.changes import latest_seq, table_statuses
from tournament.event.stages import main_round_label  # noqa: F401 (the rounds' labels, as the feed gives them)
from tournament.pairing import brackets
from tournament.pairing.standings import exact, exact_table_points, forfeit_by_player, placements, shown_number
from tournament.settings import PAIRS, PARTNERSHIP_FORMATS
from tournament.store.event_store import EventStore


class NotPublic(TournamentError):
    """What a public page asked for is not there, or not shown to the public (a game in play)."""


def group_label(index: int, count: int) -> str:
    from tournament.pairing.roundrobin import group_name
    return f"Group {group_name(index)}" if count > 1 else "Round robin"


def event_data(store: EventStore, log: bool = False) -> dict[str, Any]:
    """Everything about the event, as JSON-ready values, read in one read transaction (a write
    made meanwhile, the venue's or another command's, is in all of it or in none).  The parts the
    venue's feed serves too (the standings, the rounds) are made by the feed's own functions
    (:mod:`tournament.event.feed`), so the two are the same data.  ``latest_seq`` is the number of
    the event's last change the data is as of; with ``log``, the whole change log (``changes``:
    the JSON export has it, the pages do not need it)."""
    with store.reading():
        return _event_data(store, log)


def _event_data(store: EventStore, log: bool, hall: bool = False, complete: set[int] | None = None
                ) -> dict[str, Any]:
    """:func:`event_data`; ``hall``: as the hall shows it, a duplicate board's results only once
    every table due to play it has played it (``complete``: those boards, :func:`feed.complete_boards`,
    made once for the whole read by :func:`public_data`)."""
    s = store.settings
    if hall and complete is None:
        complete = feed.complete_boards(store)
    players = standings_of.seated_players(store)  # a reserve brought in: its pair
    teams = store.teams()
    team_names = {t.id: t.name for t in teams}
    stage_list = stages.load(store)
    rounds = feed.rounds(store, withhold=hall, shown=complete)  # the hall: no board's points before its last table
    # A rotating event's final is not added into the standings of its rounds: both are shown.
    standings = feed.standings(store, withhold=hall, shown=complete)
    stage_docs = []
    for x in stage_list:
        unit_names = stages.side_names(store, x)
        doc: dict[str, Any] = {"id": x.id, "name": x.name, "format": x.format, "first_round": x.offset + 1,
                               "seeds": [{"seed": i + 1, "id": u, "name": unit_names.get(u, str(u)),
                                          **({"players": list(x.sides[u - 1])} if x.sides else {})}
                                         for i, u in enumerate(x.seeds)], "options": {
                                   k: v for k, v in x.options.items() if k not in ("seeds", "counts")}}
        if x.knockout:
            state = stages.state_of(store, x)
            doc["matches"] = [{"key": m.match.key, "round": x.event_round(m.match.round), "bracket": m.match.bracket,
                               "label": state.bracket.round_labels[m.match.round - 1], "status": m.status,
                               "sides": [None if u is None else ("bye" if u == brackets.NOBODY else
                                                                 unit_names.get(u, str(u))) for u in m.sides],
                               # A side may be *named* "bye": whether a place is a bye is this flag.
                               "byes": [u == brackets.NOBODY for u in m.sides],
                               "from": [src.text() for src in m.match.sources],
                               "wins": list(m.wins),
                               "order": [unit_names.get(u, str(u)) for u in m.order]} for m in state.matches]
            doc["text"] = brackets.draw_text(state, unit_names)
            places = brackets.placings(state)
            doc["placings"] = [{"place": p, "id": u, "name": unit_names.get(u, str(u))}
                               for u, p in sorted(places.items(), key=lambda kv: (kv[1], kv[0]))]
            doc["champion"] = unit_names.get(state.champion) if state.champion is not None else None
        elif x.format == stages.ROUND_ROBIN:
            sched = x.schedule()
            doc["groups"] = []
            for gi, members in enumerate(sched.groups):
                if s.teams:  # a group of teams: the teams' standings in it
                    from tournament.event.stages import group_rows
                    rows, keys = group_rows(store, x, gi)
                    doc["groups"].append({"group": group_label(gi, len(sched.groups)), "teams": rows,
                                          "team_tiebreaks": list(keys)})
                    continue
                gt = stages.group_standings(store, x, gi)
                doc["groups"].append({"group": group_label(gi, len(sched.groups)),
                                      "standings": [gt.row_dict(r) for r in gt.rows]})
        if x.format == stages.FINAL_TABLE or x.sides:
            doc.update(finals.stage_doc(store, x))
        stage_docs.append(doc)
    out = {"event": {"name": s.name, "uuid": store.uuid, "game": s.game, "variant": s.variant,
                     "options": s.options, "format": s.format, "table_size": s.table_size, "seed": s.seed,
                     "time_limit": s.time_limit, "forfeit_score": s.forfeit_score, "tiebreaks": list(s.tiebreaks),
                     "finished": feed.progress.status(store) == feed.progress.FINISHED},
           "generated_at": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
           "players": [{"id": p.id, "name": p.name, "pair": team_names.get(p.team) if p.team else None,
                        "from_round": p.entered, "withdrawn_from": p.withdrawn} for p in players],
           "standings": standings, "rounds": rounds, "stages": stage_docs, "feed_version": feed.FEED_VERSION}
    if s.team_set:  # the matches are sets: what the pages need to say how each set stands
        out["event"]["team_set"] = s.team_set
        from tournament.event.stages import set_targets

        later = set_targets(store)  # a knockout's semi-finals and final: sets to its --final-set
        if later:
            out["event"]["set_targets"] = {str(n): t for n, t in sorted(later.items())}
    if s.team_duplicate:  # the boards, each match board by board in IMPs, the teams' standings
        from tournament.event import duplicate as dup_boards, duplicate_teams
        from tournament.pairing.boards import boards_json as boards_doc

        out["event"]["duplicate_teams"] = {"boards_per_round": s.boards_per_round,
                                           "victory_points": s.victory_points}
        out["boards"] = boards_doc(dup_boards.boards(store))
        # The hall: a board's results, and the IMPs and totals counting them, once every table has played it.
        shown = complete if hall else None
        out["duplicate_team_matches"] = duplicate_teams.match_docs(store, shown=shown)
        out["duplicate_team_standings"] = duplicate_teams.standings(store, shown=shown)
        out["travellers"] = duplicate_teams.travellers(store, out["duplicate_team_matches"])
    if s.teams:  # a team event: its teams, and the players' own ranking inside it
        from tournament.event.teams import player_standings

        out["teams"] = team_docs(store)
        out["player_standings"] = player_standings(store).to_dict()
        team_name = {x["id"]: t["name"] for t in out["teams"] for x in
                     [*(p for pair in t["pairs"] for p in pair["players"]), *t["reserves"]]}
        for p in out["players"]:
            p["team"] = team_name.get(p["id"])
        # Each round's matches as its tables' results add up (the export's; the pages make theirs).
        out["team_matches"] = [{"round": r["round"], **{k: v for k, v in m.items() if k != "sides"}}
                               for r in rounds for m in round_matches(out, r)]
        if s.team_duplicate:  # scored on the boards: the IMPs and boards under their own names
            out["team_matches"] = [exported_duplicate_match(m) for m in out["team_matches"]]
    if s.duplicate:  # the boards, each board's traveller and the duplicate standings
        from tournament.event import duplicate
        from tournament.pairing.boards import boards_json

        out["event"]["duplicate"] = {"movement": s.movement, "boards_per_round": s.boards_per_round,
                                     "ranking": s.ranking}
        # (a skip Mitchell, a curtailed session: said where chosen; an event without them exports as before)
        if s.even != "relay":
            out["event"]["duplicate"]["even"] = s.even
        if s.movement_rounds:
            out["event"]["duplicate"]["rounds"] = s.movement_rounds
        out["boards"] = boards_json(duplicate.boards(store))
        out["travellers"] = duplicate.travellers(store, complete if hall else None)
        out["duplicate_standings"] = duplicate.standings(  # the hall: of the boards every table has played
            store, complete if hall else None)
    if log:
        entries = feed.all_changes(store)
        out.update(latest_seq=entries[-1]["seq"] if entries else 0, changes=entries)
    else:
        out["latest_seq"] = latest_seq(store)
    return out


def team_docs(store: EventStore) -> list[dict[str, Any]]:
    """A team event's teams as plain values: each team's pairs (their players) and reserves, in
    the order registered, and the rounds it entered and withdrew from."""
    from tournament.event.teams import squads, substitutions

    pairs = {t.id: t for t in store.teams()}
    names = {p.id: p.name for p in store.players()}
    # A reserve brought into a pair (``team sub``): the pair's ``substitutes``, in the order made, so a
    # team's page says who plays in it from which round (a pair with none has no such key).
    subs: dict[int, list[dict[str, Any]]] = {}
    for x in sorted(substitutions(store), key=lambda x: (x.from_round, x.id)):
        subs.setdefault(x.pair, []).append({"from_round": x.from_round,
                                            "out": {"id": x.player_out, "name": names.get(x.player_out, str(x.player_out))},
                                            "in": {"id": x.player_in, "name": names.get(x.player_in, str(x.player_in))}})
    return [{"id": s.id, "name": s.name, "from_round": s.entered, "withdrawn_from": s.withdrawn,
             "pairs": [{"id": pid, "name": pairs[pid].name,
                        "players": [{"id": x, "name": names.get(x, str(x))} for x in pairs[pid].players],
                        **({"substitutes": subs[pid]} if pid in subs else {})}
                       for pid in s.pairs if pid in pairs],
             "reserves": [{"id": x, "name": names.get(x, str(x))} for x in s.reserves]}
            for s in squads(store)]


def public_data(store: EventStore, hall: bool = False) -> dict[str, Any]:
    """:func:`event_data` and what the public pages add to it, read in one read transaction (so a
    result landing meanwhile is in all of it or none of it): ``seq``, the number of the event's
    latest change (:func:`tournament.event.changes.latest_seq`) the data is as of; ``clock``
    (:func:`clock`); ``unit_of``, each player's unit in the standings (the pair in a pairs event);
    ``scoring``, what a bye, a place at a multi-player table and a forfeit are worth.  A duplicate event's
    ``board_numbers`` and ``pair_cards`` besides; ``hall``: for the hall's pages, served while the
    session is played, whose ``boards`` hold only the boards every table that plays them has
    played (a deal shown earlier would be a leak); the report, the director's, keeps them all."""
    with store.read_once():  # the players and the tables read once, however many parts ask for them
        # (the boards the hall may show: in the same read as the boards and their results, made once
        # for every part that withholds the others)
        complete = feed.complete_boards(store) if hall else None
        data = _event_data(store, log=False, hall=hall, complete=complete)
        unit_of = {p.id: (p.team if store.settings.format == PAIRS and p.team else p.id)
                   for p in standings_of.seated_players(store)}  # a reserve brought in: its pair
        paired_at = {r.number: r.paired_at for r in store.rounds()}
        if store.settings.duplicate:  # the movement's pair numbers, which every duplicate page shows
            from tournament.store.boards import pair_numbers

            number_of = {pair: number for number, pair in pair_numbers(store).items()}
            pair_no = {player: number_of[pair] for player, pair in unit_of.items() if pair in number_of}
        from tournament.store.desk import sit_outs

        # The rounds a unit asked to sit out: its bye there scores the event's sit-out, as the standings count it.
        sat_out = {r: sorted({unit_of.get(p, p) for p in asked}) for r, asked in sit_outs(store).items()}
    s = store.settings
    if s.duplicate or s.team_duplicate:
        data["board_numbers"] = [b["board"] for b in data["boards"]]
        if hall:  # a board's deal, and its results, only once every table that plays it has played it
            shown = complete or set()
            data["boards"] = [b for b in data["boards"] if b["board"] in shown]
            data["travellers"] = [t if t["board"] in shown else _withheld(t) for t in data["travellers"]]
    if s.duplicate:  # from the travellers the page may show
        from tournament.event.duplicate_hall import pair_cards

        data["pair_cards"] = pair_cards(data["travellers"], data["duplicate_standings"])
        data["pair_no"] = pair_no
    data.update(seq=data["latest_seq"], unit_of=unit_of, paired_at=paired_at)
    data.update(clock=clock(data),
                scoring={"bye": dict(s.bye), "placement": list(s.placement),
                         "partnership": s.format in PARTNERSHIP_FORMATS, "forfeit": s.forfeit_score,
                         "sit_out": dict(s.sit_out or dict.fromkeys(s.bye, 0.0)), "sat_out": sat_out})
    return data


def _withheld(traveller: dict[str, Any]) -> dict[str, Any]:
    """A board's traveller before every table that plays it has played it: how many have
    (``played``), not what they scored (``results`` or ``matches`` empty): a result tells of the deal."""
    key = "matches" if "matches" in traveller else "results"
    return {**traveller, key: [], "played": len(traveller[key]), "withheld": True}


def with_statuses(store: EventStore, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` (:func:`public_data`) with each table's status in play as the change log now gives
    it, and ``seq`` the event's latest change: all that a change of a table's status alone (a
    table starting, or over and waiting for its confirmation) changes, without reading the event
    again.  The caller knows that nothing else changed meanwhile (the public pages' revision,
    :func:`tournament.event.changes.latest_public_seq`, read in the same read transaction)."""
    with store.reading():
        seq = latest_seq(store)
        statuses = table_statuses(store)
    rounds = [{**r, "tables": [{**t, "status": feed.status_of(feed.table_played(t),
                                                               statuses.get((r["round"], t["table"])))}
                               for t in r["tables"]]} for r in data["rounds"]]
    return {**data, "rounds": rounds, "seq": seq, "latest_seq": seq}


# --- the round being played ------------------------------------------------------------------


def current_round(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """The round being played now: the first with a table still to play (a final seats all its
    games at once, in rounds of their own, so the last round paired may not have begun), else
    the last round."""
    return next((r for r in rounds if not all(feed.table_played(t) for t in r["tables"])), rounds[-1])


def round_heading(r: dict[str, Any]) -> str:
    """"Round 3", or "Round 4 · final, game 1" for a round of a later stage."""
    return f"Round {r['round']}" + ("" if r["stage"] == 1 else f" · {r['label']}")


def _plain(text: str) -> str:
    """Text as people look it up: accents and case aside, and the letters Unicode does not take
    apart into a letter and its mark read as the letter they are written on (Łukasz as Lukasz,
    Øst as Ost): a phone's keyboard may not have them."""
    text = text.translate(_BARE)
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


#: Letters with a stroke or ligatures, which NFKD leaves whole, as the letters people type for them.
_BARE = str.maketrans({"Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h",
                       "Ŧ": "T", "ŧ": "t", "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th",
                       "ı": "i", "Ŀ": "L", "ŀ": "l"})


def _pair_numbers(data: dict[str, Any]) -> dict[int, int]:
    """Player -> the number a pairs event shows for them: their pair's (empty in other events).  In
    a duplicate event, the pair's number in the movement (``pair_no``), as the tables, the pair's
    card and the travellers number it: it differs from the pair's id in the event where a pair was
    removed before round 1 (the movement numbers the pairs that play from 1)."""
    if (data.get("event") or {}).get("format") != "pairs":
        return {}
    if data.get("pair_no"):
        return {int(k): v for k, v in data["pair_no"].items()}
    return {int(k): v for k, v in (data.get("unit_of") or {}).items()}


def find_your_table(r: dict[str, Any], units: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """A round's seating by player name: name, number, table, seat, partners, opponents (and byes),
    sorted by name the way people look themselves up (``key``: the name with case and accents aside).
    ``no`` is the number shown: in a pairs event the pair's (``units``, the data's ``unit_of``),
    the one number a pair has everywhere (docs/tournament.md); else the player's."""
    units = units or {}
    out = []
    for t in r["tables"]:
        for s in t["seats"]:
            partners = [o["name"] for o in t["seats"] if o["side"] == s["side"] and o["id"] != s["id"]]
            opponents = [o["name"] for o in t["seats"] if o["side"] != s["side"]]
            out.append({"name": s["name"], "key": _plain(s["name"]), "id": s["id"], "table": t["table"], "seat": s["seat"],
                        "partners": partners, "opponents": opponents, "match": t["match"],
                        "result": t["result"], "boards": t.get("boards"), "no": units.get(s["id"], s["id"])})
    for b in r["byes"]:
        out.append({"name": b["name"], "key": _plain(b["name"]), "id": b["id"], "table": None, "seat": None, "partners": [], "opponents": [],
                    "match": None, "result": None, "no": units.get(b["id"], b["id"])})
    away = r.get("sits_out")  # a duplicate pair sitting the round out (an odd number of pairs): no table, no bye
    for b in away["players"] if away else ():
        out.append({"name": b["name"], "key": _plain(b["name"]), "id": b["id"], "table": None, "seat": None,
                    "partners": [o["name"] for o in away["players"] if o["id"] != b["id"]], "opponents": [],
                    "match": None, "result": None, "no": units.get(b["id"], away["pair"]), "sits_out": True})
    return sorted(out, key=lambda row: (row["key"], row["name"]))


def search(rows: list[dict[str, Any]], query: str) -> list[dict[str, Any]]:
    """The rows of :func:`find_your_table` a search names: the number shown (``12`` or ``#12``: a
    player's, in a pairs event a pair's, both its players), or part of a name (case and accents
    aside; every word typed must be in the name)."""
    text = " ".join(query.split())
    if not text:
        return rows
    number = text.removeprefix("#")
    if number.isascii() and number.isdigit():
        return [row for row in rows if row.get("no", row["id"]) == int(number)]
    words = _plain(text).split()
    return [row for row in rows if all(w in row["key"] for w in words)]


def clock(data: dict[str, Any]) -> dict[str, Any] | None:
    """The round's clock, when the event has a time limit and a round is being played: the round
    started when it was paired (the time the event file keeps for it) and ends ``time_limit``
    minutes later (``paired_at`` of :func:`public_data`).  Times are UTC, ISO 8601; None when there
    is no clock to show."""
    limit = data["event"].get("time_limit")
    if not limit or not data["rounds"]:
        return None
    r = current_round(data["rounds"])
    paired = data.get("paired_at", {}).get(r["round"])
    if all(feed.table_played(t) for t in r["tables"]) or not paired:
        return None
    try:
        started = datetime.datetime.fromisoformat(paired)
    except ValueError:
        return None
    if started.tzinfo is None:
        started = started.replace(tzinfo=datetime.UTC)
    ends = started + datetime.timedelta(minutes=limit)
    return {"round": r["round"], "minutes": limit, "started_at": started.isoformat(timespec="seconds"),
            "ends_at": ends.isoformat(timespec="seconds")}


def final_standing(data: dict[str, Any]) -> dict[str, Any] | None:
    """Once a stage has its champion (a final, a knockout): the last such stage's name, champion
    and placings.  The projector then shows these instead of the rounds' standings."""
    done = [x for x in data["stages"] if x.get("champion")]
    if not done:
        return None
    stage = done[-1]
    return {"stage": stage["name"], "champion": stage["champion"], "placings": stage.get("placings") or []}


# --- a player's page ----------------------------------------------------------------------------


def _place(scores: dict[str, int], winner: str | None, side: str) -> int:
    """A seat's place at a multi-player table: 1 + the seats ahead of it (the winner is ahead of
    everyone it is level with)."""
    own = scores.get(side, 0)
    ahead = sum(1 for s, v in scores.items() if s != side and (s == winner or (winner != side and v > own)))
    return 1 + ahead


def _by_player(data: dict[str, Any]) -> dict[str, Any]:
    """Where each player played, and sits now: worked out once for every player's page (kept in
    ``data``, which is one moment of the event)."""
    index = data.get("_by_player")
    if index is None:
        games: dict[int, list[tuple[dict[str, Any], dict[str, Any] | None]]] = {}
        for r in data["rounds"]:
            for b in r["byes"]:
                games.setdefault(b["id"], []).append((r, None))
            away = r.get("sits_out")  # a duplicate pair sitting the round out: no table, not a bye
            for p in away["players"] if away else ():
                games.setdefault(p["id"], []).append((r, None))
            for t in r["tables"]:
                for s in t["seats"]:
                    games.setdefault(s["id"], []).append((r, t))
        current = current_round(data["rounds"]) if data["rounds"] else None
        now = {row["id"]: row for row in find_your_table(current, _pair_numbers(data))} if current else {}
        standing = {row["id"]: row for row in data["standings"]["standings"]}
        if "duplicate_standings" in data and "duplicate_team_matches" not in data:
            # Duplicate pairs rank the movement's pairs (matchpoints, IMPs), not the games' standings:
            # each player's pair by its movement number, as its tables (and its sit-outs) name it.
            number_of: dict[int, int] = {}
            for r in data["rounds"]:
                for t in r["tables"]:
                    for s in t["seats"]:
                        if t.get("pairs") and s["side"] in t["pairs"]:
                            number_of.setdefault(s["id"], t["pairs"][s["side"]])
                for p in (r.get("sits_out") or {}).get("players", ()):
                    number_of.setdefault(p["id"], r["sits_out"]["pair"])
            # (a pair with no board scored yet is not on the standings: no rank to give)
            from tournament.event.duplicate_hall import ranked_pairs

            ranked = {row["pair"]: row for row in ranked_pairs(data["duplicate_standings"])}
            standing = {player: ranked[n] for player, n in number_of.items() if n in ranked}
        index = data["_by_player"] = {"games": games, "now": now, "standing": standing, "current": current,
                                      "players": {p["id"]: p for p in data["players"]}}
    return index


def player_view(data: dict[str, Any], player_id: int) -> dict[str, Any]:
    """One player's event: every game (round, table, seat, partners, opponents, scores, the outcome)
    with running totals after each, their rank in the standings, and where they sit now.  A game
    without its result shows where it is played and nothing else."""
    index = _by_player(data)
    player = index["players"].get(player_id)
    if player is None:
        raise NotPublic(f"no player number {player_id} in this event")
    partnership = data["scoring"]["partnership"]
    points = data["scoring"]["placement"]
    unit = data["unit_of"].get(player_id, player_id)
    # (placement points added exactly, as the standings add them: 10/3 three times is 10)
    totals: dict[str, Any] = {"wins": 0.0, "for": 0, "against": 0, "placement": Fraction(0), "score": 0}
    games = []
    for r, t in index["games"].get(player_id, []):
        away = r.get("sits_out")
        if t is None and away and any(p["id"] == player_id for p in away["players"]):
            # A duplicate pair sitting the round out (an odd number of pairs): not a bye, nothing scores it.
            games.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "heading": round_heading(r),
                          "bye": True, "sits_out": True, "totals": None})
            continue
        if t is None:  # a bye (one asked for scores the event's sit-out: tournament sit-out)
            bye = data["scoring"]["bye"]
            if unit in data["scoring"].get("sat_out", {}).get(r["round"], ()):
                bye = data["scoring"]["sit_out"]
            if partnership:
                totals["wins"] += bye.get("wins", 0)
                totals["for"] += int(bye.get("for", 0))
                totals["against"] += int(bye.get("against", 0))
            else:
                totals["placement"] += exact(bye.get("placement", 0))
                totals["score"] += int(bye.get("score", 0))
            games.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "heading": round_heading(r),
                          "bye": True, "totals": _as_ranked(totals)})
            continue
        seat = next(s for s in t["seats"] if s["id"] == player_id)
        side = seat["side"]
        game: dict[str, Any] = {
            "round": r["round"], "stage": r["stage"], "label": r["label"], "heading": round_heading(r), "bye": False,
            "table": t["table"],
            "match": t["match"], "seat": seat["seat"], "side": side,
            "partners": [{"id": s["id"], "name": s["name"]} for s in t["seats"]
                         if s["side"] == side and s["id"] != player_id],
            "opponents": [{"id": s["id"], "name": s["name"], "seat": s["seat"]} for s in t["seats"]
                          if s["side"] != side],
            "result": t["result"],
            # A duplicate table's boards: each board's points for the player's side and against.
            # (Only that it is played, until every table that plays the board has: the feed's "withheld".)
            # A board marked not played there: over, with nothing to come. In the table's order.
            "boards": sorted([{"board": b["board"], "withheld": True} if b.get("withheld") else
                              {"board": b["board"], "for": b["ns_points" if side == "NS" else "ew_points"],
                               "against": b["ew_points" if side == "NS" else "ns_points"]}
                              for b in t.get("board_results") or ()] +
                             [{"board": b, "not_played": True} for b in t.get("not_played") or ()],
                             key=lambda x: t["boards"].index(x["board"]) if x["board"] in t["boards"] else 0)
            if "boards" in t else None,
            "board_count": len(t["boards"]) if "boards" in t else None}
        res = t["result"]
        if res is not None and res.get("forfeit_players"):
            # A forfeit by player: the player's own game, as the standings count it.
            own = forfeit_by_player(player_id not in res["forfeit_players"], data["scoring"]["forfeit"],
                                    len(t["seats"]))
            game["for"], game["forfeit"] = own.points_for, True
            if partnership:
                game["against"], game["outcome"] = own.points_against, own.outcome
                totals["wins"] += own.outcome == "won"
                totals["for"] += own.points_for
                totals["against"] += own.points_against
            else:
                game["place"] = own.place
                game["outcome"] = "won" if own.place == 1 else "placed"
                sized = exact_table_points(points, len(t["seats"]))
                totals["placement"] += sized[0 if own.place == 1 else -1]
                totals["score"] += own.points_for
            game["totals"] = _as_ranked(totals)
        elif res is not None:
            scores = res["scores"]
            mine = scores.get(side, 0)
            game["for"] = mine
            if partnership:
                against = sum(v for k, v in scores.items() if k != side)
                game["against"] = against
                game["outcome"] = "won" if res["winner"] == side else "draw" if res["winner"] is None else "lost"
                totals["wins"] += 1 if game["outcome"] == "won" else 0.5 if game["outcome"] == "draw" else 0
                totals["for"] += mine
                totals["against"] += against
            else:
                game["place"] = _place(scores, res["winner"], side)
                game["outcome"] = "won" if game["place"] == 1 else "placed"
                # (a smaller table's points, as the standings count them: 3, 1.5, 0 at a table of
                # three where a full table's are 3, 2, 1, 0)
                totals["placement"] += placements(scores, res["winner"],
                                                  exact_table_points(points, len(t["seats"]))).get(side, 0)
                totals["score"] += mine
            game["totals"] = _as_ranked(totals)
        games.append(game)
    # Duplicate teams rank teams, not pairs: a player's pair has no place of its own to show.
    # Duplicate pairs: the pair's place in the duplicate standings (keyed by player: _by_player).
    standing = (None if "duplicate_team_matches" in data else index["standing"].get(player_id)
                if "duplicate_standings" in data else index["standing"].get(unit))
    # A Mitchell ranks each direction apart (its "fields"): the page says whose rank 1 it is, as the pair's card.
    fields = (data.get("duplicate_standings") or {}).get("fields") or ()
    field = standing.get("direction") if standing and fields and standing.get("direction") in fields else None
    return {"player": player, "unit": unit, "standing": standing, "field": field, "games": games,
            "partnership": partnership, "now": index["now"].get(player_id),
            "now_round": round_heading(index["current"]) if index["current"] else None,
            "now_of": {k: index["current"][k] for k in ("round", "stage", "label")} if index["current"] else None,
            "totals": _as_ranked(totals)}


def _as_ranked(totals: dict[str, float]) -> dict[str, float | int]:
    """Running totals as the standings show them (:func:`~tournament.pairing.standings.shown_number`:
    a table of four's 2.333333 of a table of five's points is 2.3333)."""
    return {k: shown_number(v) for k, v in totals.items()}


# --- the crosstable -------------------------------------------------------------------------------


def crosstable(data: dict[str, Any]) -> dict[str, Any]:
    """The event in one table: a row a unit of the standings (a player; a pair in a pairs event), in
    the standings' order; a column a round; each cell the unit's game that round: the outcome
    (W, D, L, or the place at a multi-player table), the score, and the opponents' numbers."""
    unit_of = data["unit_of"]
    partnership = data["scoring"]["partnership"]
    cells: dict[int, dict[int, dict[str, Any]]] = {}
    for r in data["rounds"]:
        for b in r["byes"]:
            cells.setdefault(unit_of.get(b["id"], b["id"]), {})[r["round"]] = {"bye": True}
        for t in r["tables"]:
            res = t["result"]
            for side in dict.fromkeys(s["side"] for s in t["seats"]):
                units = list(dict.fromkeys(unit_of.get(s["id"], s["id"]) for s in t["seats"] if s["side"] == side))
                opponents = sorted(dict.fromkeys(unit_of.get(s["id"], s["id"]) for s in t["seats"]
                                                 if s["side"] != side))
                cell: dict[str, Any] = {"table": t["table"], "opponents": opponents, "outcome": None}
                if res is not None:
                    mine = res["scores"].get(side, 0)
                    cell["for"] = mine
                    if partnership:
                        cell["against"] = sum(v for k, v in res["scores"].items() if k != side)
                        cell["outcome"] = "W" if res["winner"] == side else "D" if res["winner"] is None else "L"
                    else:
                        cell["outcome"] = str(_place(res["scores"], res["winner"], side))
                    if res.get("forfeit"):  # a side that did not play: marked, as a player's forfeit is
                        cell["forfeit"] = True
                gone = res.get("forfeit_players") if res is not None else None
                for u in units:
                    partners = [s["id"] for s in t["seats"] if s["side"] == side and unit_of.get(s["id"]) != u]
                    own_cell = cell
                    if gone:  # a forfeit by player: each player's own game, as the standings count it
                        came = not any(unit_of.get(p, p) == u for p in gone)
                        own = forfeit_by_player(came, data["scoring"]["forfeit"], len(t["seats"]))
                        own_cell = {**cell, "for": own.points_for, "forfeit": True,
                                    "outcome": ("W" if came else "L") if partnership else str(own.place)}
                        if partnership:
                            own_cell["against"] = own.points_against
                    cells.setdefault(u, {})[r["round"]] = {**own_cell, "partners": partners}
    rounds = [r["round"] for r in data["rounds"]]
    rows = [{"rank": x["rank"], "id": x["id"], "name": x["name"],
             "cells": [cells.get(x["id"], {}).get(n) for n in rounds], "row": x}
            for x in data["standings"]["standings"]]
    playing = any(c is not None and not c.get("bye") and c.get("outcome") is None for row in rows for c in row["cells"])
    return {"rounds": rounds, "rows": rows, "partnership": partnership, "playing": playing}


# --- a team event: its matches, a team's page, the crosstable of teams ------------------------------


def team_of_players(data: dict[str, Any]) -> dict[int, int]:
    """Player id -> their team (a pair's players and the team's reserves), in a team event."""
    return {x["id"]: t["id"] for t in data.get("teams", ()) for x in
            [*(p for pair in t["pairs"] for p in pair["players"]), *t["reserves"]]}


def round_matches(data: dict[str, Any], r: dict[str, Any]) -> list[dict[str, Any]]:
    """A round's matches in a team event, in table order, each as its tables' results stand: its
    tables, the home team (N-S at its first table) and the visitors, the games each has won so far
    (a drawn game a half; ``home_text``, ``away_text``: "1½"), the points each has scored, and
    how many of its tables have a result.  A match fills in as its tables confirm: this reads only
    the tables' entered results, as every page does.  In an event of sets (``team_set`` in the
    event's settings; a knockout's semi-finals and final: ``set_targets``) each match also has its
    ``target``, its ``winner`` (a team's id, None while
    the set is played: the first to the target, counting the games in table order, as
    :func:`tournament.pairing.teams.set_winner` counts them) and ``won_at``, the game points when
    it was won, the winner's first ("50–41"); it is named by its first tables, one a pair of a
    team (its later games are seated after the round's last table)."""
    from tournament.event.teams import games_text
    from tournament.pairing.teams import set_winner

    if "duplicate_team_matches" in data:  # scored on the boards, in IMPs: not by the tables' games
        return duplicate_team_matches(data, r)
    target = data["event"].get("set_targets", {}).get(str(r.get("round")), data["event"].get("team_set"))
    pairs_of = {t["id"]: len(t["pairs"]) for t in data.get("teams", ())}

    team_of = team_of_players(data)
    names = {t["id"]: t["name"] for t in data.get("teams", ())}
    found: dict[tuple[int, ...], dict[str, Any]] = {}
    for t in sorted(r["tables"], key=lambda t: t["table"]):
        sides: dict[str, int] = {}
        for s in t["seats"]:
            if s["id"] in team_of:
                sides.setdefault(s["side"], team_of[s["id"]])
        if len(set(sides.values())) != 2:
            continue
        key = tuple(sorted(sides.values()))
        home = sides.get("NS", key[0])
        m = found.setdefault(key, {"tables": [], "home": home, "away": key[0] if key[1] == home else key[1],
                                   "games": {home: 0.0}, "points": {home: 0}, "done": 0, "sides": [],
                                   "order": []})
        m["tables"].append(t["table"])
        m["sides"].append({side: team for side, team in sides.items()})
        res = t["result"]
        if res is None:
            continue
        m["done"] += 1
        for side, team in sides.items():
            won = 1.0 if res["winner"] == side else 0.5 if res["winner"] is None else 0.0
            m["games"][team] = m["games"].get(team, 0.0) + won
            m["points"][team] = m["points"].get(team, 0) + int(res["scores"].get(side, 0))
            m["order"].append((team, won))
    # A knockout of teams: a level match still sends one team through (the bracket's order says which).
    # The final's (or its reset's) says so: its team wins the final, and the event when it is the champion.
    knockout = {frozenset(x["sides"]): x["order"][0] for st in data.get("stages", ()) for x in st.get("matches", ())
                if x.get("round") == r.get("round") and x.get("status") == "decided" and x.get("order")
                and None not in x["sides"]}
    finals_of = {frozenset(x["sides"]): ("event" if st.get("champion") == x["order"][0] else "final")
                 for st in data.get("stages", ()) for x in st.get("matches", ())
                 if x.get("round") == r.get("round") and x.get("status") == "decided" and x.get("order")
                 and None not in x["sides"] and x.get("bracket") in ("final", "reset")}
    out = []
    for m in found.values():
        home, away = m["home"], m["away"]
        hg, ag = m["games"].get(home, 0.0), m["games"].get(away, 0.0)
        finished = m["done"] == len(m["tables"])
        named = m["tables"]
        extra: dict[str, Any] = {}
        if target:
            won_by, at = set_winner(m["order"], (home, away), target)
            first = at if won_by == home or at is None else (at[1], at[0])
            finished = finished and won_by is not None
            named = m["tables"][:pairs_of.get(home) or len(m["tables"])]
            extra = {"target": target, "winner": won_by,
                     "won_at": "–".join(games_text(x) for x in first) if first else None}
        out.append({"tables": m["tables"], "first": named[0], "last": named[-1],
                    "home": {"id": home, "name": names.get(home, str(home))},
                    "away": {"id": away, "name": names.get(away, str(away))},
                    "home_games": hg, "away_games": ag, "home_text": games_text(hg), "away_text": games_text(ag),
                    "home_points": m["points"].get(home, 0), "away_points": m["points"].get(away, 0),
                    "done": m["done"], "count": len(m["tables"]), "finished": finished,
                    "winner": (None if not finished or hg == ag else home if hg > ag else away),
                    "through": (knockout.get(frozenset((names.get(home), names.get(away))))
                                if finished and hg == ag and not target else None),
                    # "final" or "event" (the final, won by the champion): what a level final's line says.
                    "through_final": finals_of.get(frozenset((names.get(home), names.get(away)))),
                    "sides": m["sides"], **extra})
    return out


def duplicate_team_matches(data: dict[str, Any], r: dict[str, Any]) -> list[dict[str, Any]]:
    """A round's matches in duplicate teams, in the shape of :func:`round_matches`' (so a team's
    page and the crosstable read them alike), scored on the boards: ``home_text`` and
    ``away_text`` the IMPs each team has, ``done`` and ``count`` the boards in at both tables and
    the boards the match scores (the round's, less those not scored), ``home_vp`` and
    ``away_vp``, ``boards``, each board's points at both tables, the home team's net and IMPs,
    ``not_scored`` (each board marked not played at a table of the match: its points where a table
    has a result, and the tables marked) and ``board_rows``, both in board order (``duplicate``: true)."""
    names = {t["id"]: t["name"] for t in data.get("teams", ())}
    out = []
    for m in data["duplicate_team_matches"]:
        if m["round"] != r.get("round"):
            continue
        home, away = m["home_id"], m["away_id"]
        hi, ai = m["home_imps"], m["away_imps"]
        first, second = m["tables"]
        skipped = m.get("not_scored") or []  # (an export written before boards could be not played has none)
        out.append({"tables": [first, second], "first": first, "last": second, "duplicate": True,
                    "home": {"id": home, "name": names.get(home, m["home"])},
                    "away": {"id": away, "name": names.get(away, m["away"])},
                    "home_games": hi, "away_games": ai, "home_text": str(hi), "away_text": str(ai),
                    "home_points": sum(b["first"][0] + b["second"][1] for b in m["boards"]),
                    "away_points": sum(b["first"][1] + b["second"][0] for b in m["boards"]),
                    "home_vp": m["home_vp"], "away_vp": m["away_vp"], "boards": m["boards"],
                    # A board marked not played at a table of the match: settled, not scored (shown as such).
                    "not_scored": skipped,
                    "board_rows": sorted([*m["boards"], *({**b, "not_scored": True} for b in skipped)],
                                         key=lambda b: b["board"]),
                    # (only the boards that count: one not scored, a result at the other table or
                    # not, is neither in nor to come, as the command line and the director's page count)
                    "done": len(m["boards"]),
                    "count": len(m["boards"]) + len(m["waiting"]),
                    "finished": m["finished"],
                    "winner": None if not m["finished"] or hi == ai else home if hi > ai else away,
                    "through": None, "round": m["round"],
                    "sides": [{"NS": home, "EW": away}, {"NS": away, "EW": home}]})
    return out


#: A duplicate teams match in the export's ``team_matches``: the names its keys have in the shape of
#: a match of games (:func:`duplicate_team_matches`, which the pages read) and in the export, as
#: ``team_matches.csv`` names its columns: the IMPs each team won, the round's boards in at both
#: tables and how many it has.  (``home_text`` and ``away_text``, the IMPs again as the pages show
#: them, are left out.)
DUPLICATE_MATCH_KEYS = {"home_games": "home_imps", "away_games": "away_imps", "done": "boards_in",
                        "count": "board_count"}


def exported_duplicate_match(m: dict[str, Any]) -> dict[str, Any]:
    """A duplicate teams match as the export's ``team_matches`` gives it: ``round``, ``tables``,
    ``first``, ``last``, ``duplicate`` (true), ``home`` and ``away`` (``{"id", "name"}``),
    ``home_imps`` and ``away_imps``, ``home_points`` and ``away_points`` (each team's points at both
    tables), ``home_vp`` and ``away_vp`` (None where the event ranks by match points), ``boards``
    (each board in at both tables: its points there, the home team's net and IMPs), ``not_scored``
    (each board marked not played at a table of the match: ``{"board", "first", "second",
    "not_played"}``, a table's points or null, and the tables marked), ``boards_in`` (the boards
    in at both tables) of ``board_count`` (the boards the match scores: the round's, less those
    not scored), ``finished``, ``winner`` (the team with
    more IMPs, once finished) and ``through``; a match of games has ``home_games``, ``away_games``,
    ``home_text``, ``away_text``, ``done`` and ``count`` instead."""
    return {DUPLICATE_MATCH_KEYS.get(k, k): v for k, v in m.items()
            if k not in ("home_text", "away_text", "board_rows")}


def team_byes(data: dict[str, Any], r: dict[str, Any]) -> list[int]:
    """The teams with a bye in round ``r`` (their pairs' byes)."""
    team_of = team_of_players(data)
    return list(dict.fromkeys(team_of[b["id"]] for b in r["byes"] if b["id"] in team_of))


def team_view(data: dict[str, Any], team_id: int) -> dict[str, Any]:
    """One team's event: its pairs and reserves, its row of the team standings, and each round's
    match (the opponents, the games and points each side has, and its tables with the team's side
    at each) or bye."""
    team = next((t for t in data.get("teams", ()) if t["id"] == team_id), None)
    if team is None:
        raise NotPublic(f"no team number {team_id} in this event")
    standing = next((row for row in data["standings"].get("teams", ()) if row["id"] == team_id), None)
    rounds = []
    for r in data["rounds"]:
        if team_id in team_byes(data, r):
            rounds.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "heading": round_heading(r),
                           "bye": True})
            continue
        for m in round_matches(data, r):
            if team_id not in (m["home"]["id"], m["away"]["id"]):
                continue
            home = m["home"]["id"] == team_id
            tables = [t for t in r["tables"] if t["table"] in m["tables"]]
            own = []
            for t, sides in zip(tables, m["sides"]):
                side = next(s for s, team in sides.items() if team == team_id)
                res = t["result"]
                own.append({"table": t["table"], "side": side, "result": res,
                            "ours": [s for s in t["seats"] if s["side"] == side],
                            "theirs": [s for s in t["seats"] if s["side"] != side],
                            "for": res["scores"].get(side) if res else None,
                            "against": sum(v for k, v in res["scores"].items() if k != side) if res else None,
                            "outcome": (None if res is None else "won" if res["winner"] == side else
                                        "draw" if res["winner"] is None else "lost")})
            rounds.append({"round": r["round"], "stage": r["stage"], "label": r["label"], "heading": round_heading(r),
                           "bye": False, "match": m,
                           "opponent": m["away"] if home else m["home"],
                           "games_for": m["home_text"] if home else m["away_text"],
                           "games_against": m["away_text"] if home else m["home_text"],
                           "outcome": (None if not m["finished"] else "draw" if m["winner"] is None else
                                       "won" if m["winner"] == team_id else "lost"),
                           "tables": own})
    return {"team": team, "standing": standing, "rounds": rounds}


def team_crosstable(data: dict[str, Any]) -> dict[str, Any]:
    """The team event in one table: a row a team, in the team standings' order; a column a round;
    each cell the team's match that round: won, drawn or lost (W, D, L; none while it is played, and
    none for a duplicate-teams match that scored no board),
    the games for and against, and the opponents' number."""
    cells: dict[int, dict[int, dict[str, Any]]] = {}
    for r in data["rounds"]:
        for team in team_byes(data, r):
            cells.setdefault(team, {})[r["round"]] = {"bye": True}
        for m in round_matches(data, r):
            for us, them, g_for, g_against in ((m["home"], m["away"], m["home_text"], m["away_text"]),
                                               (m["away"], m["home"], m["away_text"], m["home_text"])):
                # (a duplicate-teams match with no board scored, each marked not played: no match played)
                outcome = (None if not m["finished"] or (m.get("duplicate") and not m["boards"]) else
                           "D" if m["winner"] is None else "W" if m["winner"] == us["id"] else "L")
                cells.setdefault(us["id"], {})[r["round"]] = {
                    "bye": False, "outcome": outcome, "for": g_for or "0", "against": g_against or "0",
                    "opponent": them["id"], "tables": m["tables"]}
    rounds = [r["round"] for r in data["rounds"]]
    rows = [{"rank": x["rank"], "id": x["id"], "name": x["team"],
             "cells": [cells.get(x["id"], {}).get(n) for n in rounds]}
            for x in data["standings"].get("teams", ())]
    return {"rounds": rounds, "rows": rows}


# --- a game's replay --------------------------------------------------------------------------------


def confirmed_record(store: EventStore, round_no: int, table_no: int) -> tuple[str, str | None]:
    """The record of a table's game once its result is in the event, and its hash: the replay the
    public may open.  A game still being played has no result, and is refused (its hidden tiles
    stay hidden); so is a result typed in by hand, which has no record to replay."""
    table = store.table(round_no, table_no)
    if table is None:
        raise NotPublic(f"round {round_no} has no table {table_no}")
    if store.settings.duplicate or store.settings.team_duplicate:  # (not "no result yet" once its boards are in)
        raise NotPublic(feed.duplicate_table(round_no, table_no))
    result = store.result_for(table.id)
    if result is None:
        raise NotPublic(f"round {round_no} table {table_no} has no result yet: its game is shown once it is in")
    text = store.record_text(result.id) if result.kind == "record" else None
    if text is None:
        raise NotPublic(f"round {round_no} table {table_no} was entered as a score, without its moves: there is no "
                        f"game to replay")
    return text, result.record_hash

"""``tournament check``: trust nothing that is stored; recompute it and compare.

Re-validates every stored record with domrec (and its hash, and its match to
its table), recomputes the standings each round was paired on from scratch,
and checks every pairing invariant.  Problems are errors (something is wrong
with the event) or warnings (something a director did that changed history,
such as replacing a result after the next round was paired).
"""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any, Mapping, Sequence

import attrs

from domrec.reader import loads
from domrec.errors import DomrecError, clip

from tournament.errors import EventFileError, TournamentError
from tournament.event import desk, paired_on
from tournament.event.results import _and, judge, match_table, record_hash, short_of_target
from tournament.event.standings import seated_players
from tournament.names import name_key
from tournament.pairing.seating import table_sizes
from tournament.pairing.teams import members_in, pair_of_players
from tournament.settings import INDIVIDUAL, PAIRS, ROTATING, Settings
from tournament.store import desk as desk_sql, squads as squad_store
from tournament.store.damage import diagnose_file as damage_file
from tournament.store.event_store import EventStore
from tournament.values import SCORES_ONLY_NOTE, Player, Squad, Substitution, Table, Team


@attrs.frozen
class Finding:
    level: str  # "error" or "warning"
    where: str
    message: str

    def text(self) -> str:
        return f"{self.level}: {self.where}: {self.message}"


@attrs.frozen
class CheckReport:
    findings: tuple[Finding, ...]
    records: int
    results: int
    rounds: int

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.level == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors


def pairing_findings(settings: Settings, players: list[Player], teams: list[Team], tables: list[Table],
                     byes: dict[int, list[int]], excused: dict[int, set[int]] | None = None,
                     subs: Sequence[Substitution] = (), forfeited: Mapping[int, set[int]] | None = None,
                     squads: Sequence[Squad] = ()) -> list[Finding]:
    """Every pairing invariant, checked round by round (also used by the tests).  ``excused``:
    round -> players the desk excused from it (:func:`tournament.event.desk.excused`: a requested
    sit-out, which has a bye outside the count of byes; a withdrawn player's rounds away before
    returning, which have neither table nor bye).  ``subs``: a team event's reserves brought into
    pairs (:mod:`tournament.store.squads`): a pair's players in a round are the ones it fields then.
    ``forfeited``: round -> the players of a team event's withdrawn pairs seated there only to lose
    their table by forfeit (their team a pair short, :func:`tournament.event.rounds.forfeit_short_tables`);
    ``squads``: a team event's teams (a team a pair short has the bye of the pairs it fields)."""
    excused = excused or {}
    forfeited = forfeited or {}
    out: list[Finding] = []
    err = lambda where, msg: out.append(Finding("error", where, msg))  # noqa: E731
    by_id = {p.id: p for p in players}
    seats = settings.seats()
    rounds = sorted({t.round for t in tables} | set(byes))
    partners_seen: set[frozenset[int]] = set()
    met_pairs: set[frozenset[int]] = set()
    bye_count: Counter = Counter()
    team_of = {p.id: p.team for p in players}
    if subs:
        team_of.update(pair_of_players(teams, subs))
    unit = (lambda pid: team_of[pid]) if settings.format == PAIRS else (lambda pid: pid)
    for r in rounds:
        fielded = members_in(teams, subs, r) if settings.teams else {}
        sitting = {p for members in fielded.values() for p in members}
        rt = [t for t in tables if t.round == r]
        where = f"round {r}"
        numbers = [t.number for t in rt]
        # (a duplicate round keeps its movement's numbers: a pair sitting out leaves a gap; the
        # movement's check says which tables a round has: duplicate.check_findings)
        if numbers != list(range(1, len(rt) + 1)) and not settings.duplicate:
            err(where, f"tables are not numbered 1..{len(rt)}: {numbers}")
        seen: Counter = Counter()
        this_round: set[frozenset[int]] = set()
        for t in rt:
            tw = f"round {r} table {t.number}"
            for s in t.seats:
                # A set (--team-set) seats its games one after another: a player at many tables of a round.
                seen[s.player] = 1 if settings.team_set else seen[s.player] + 1
            want_seats = seats if len(t.seats) == len(seats) or settings.partnership else None
            if want_seats is None and len(t.seats) in settings.table_counts():
                want_seats = settings.seats_for(len(t.seats))  # a smaller table: every player seated
            if want_seats is None:
                err(tw, f"{len(t.seats)} players at one table; this event seats "
                        f"{', '.join(map(str, settings.table_counts()))}")
            elif tuple(s.seat for s in t.seats) != want_seats:
                err(tw, f"seats {', '.join(s.seat for s in t.seats)} are not the game's seats "
                        f"{', '.join(want_seats)}")
            for s in t.seats:
                want = ("NS" if s.seat in ("N", "S") else "EW") if settings.partnership else s.seat
                if s.side != want:
                    err(tw, f"seat {s.seat} is on side {s.side}, not {want}")
            if settings.partnership:
                side = {s.seat: s.player for s in t.seats}
                if set(side) != {"N", "E", "S", "W"}:
                    continue
                if settings.format == PAIRS:
                    ns, ew = (team_of.get(side["N"]), team_of.get(side["S"])), (team_of.get(side["E"]),
                                                                               team_of.get(side["W"]))
                    if ns[0] != ns[1] or ew[0] != ew[1] or ns[0] is None or ew[0] is None:
                        err(tw, "a partnership is split: N-S or E-W are not the two players of one pair")
                    elif ns[0] == ew[0]:
                        err(tw, "a pair plays against itself")
                    else:
                        key = frozenset((ns[0], ew[0]))
                        if key in met_pairs and not (settings.team_set and key in this_round):
                            err(tw, f"pairs {ns[0]} and {ew[0]} meet a second time")
                        met_pairs.add(key)
                        this_round.add(key)
                if settings.format == ROTATING:
                    for a, b in ((side["N"], side["S"]), (side["E"], side["W"])):
                        key = frozenset((a, b))
                        if key in partners_seen:
                            na, nb = by_id[a].name if a in by_id else a, by_id[b].name if b in by_id else b
                            err(tw, f"{na} and {nb} are partners a second time")
                        partners_seen.add(key)
        given = byes.get(r, [])
        for p in given:
            seen[p] += 1
        for p, n in seen.items():
            if p not in by_id:
                err(where, f"player #{p} does not exist")
            elif n > 1:
                err(where, f"{by_id[p].name} is seated {n} times (tables and byes)")
            elif not by_id[p].active_in(r) and p not in forfeited.get(r, ()):
                gap = next(((o, b) for o, b in by_id[p].away if o <= r < b), None)
                if gap is not None:  # told they would miss it (``tournament return``)
                    err(where, f"{by_id[p].name} is paired in round {r}, a round they were out of "
                               f"(withdrawn from round {gap[0]}, back from round {gap[1]})")
                else:
                    err(where, f"{by_id[p].name} plays but is not entered for round {r}")
        away = excused.get(r, set())
        for p in players:
            # A team event's reserves are in no pair: they have no table, and that is no error.
            # A reserve brought into a pair sits in it from its round on; the player it replaced not.
            reserve = settings.teams and p.id not in sitting
            if p.active_in(r) and p.id not in seen and p.id not in away and not reserve:
                err(where, f"{p.name} is entered but has neither a table nor a bye")
        # Byes: nobody gets a second bye before every active unit has had one.
        active_units = list(dict.fromkeys(unit(p.id) for p in players if p.active_in(r) and p.id not in away))
        bye_units = list(dict.fromkeys(unit(p) for p in given if p in by_id and p not in away))
        if bye_units and settings.teams and settings.team_schedule == "round-robin":
            pass  # a round robin of teams gives its byes by its schedule (a withdrawn team's opponents too)
        elif bye_units:
            needed = len(active_units) % (2 if settings.format == PAIRS else settings.table_size)
            if settings.teams:  # a team's bye is a bye for each of its pairs (that it fields)
                needed = len(active_units) // settings.pairs_a_team % 2 * settings.pairs_a_team
                fielding = [[u for u in x.pairs if u in active_units] for x in squads if x.active_in(r)]
                fielding = [x for x in fielding if x]
                if fielding:
                    odd = len(fielding) % 2
                    needed = len(bye_units) if odd and any(set(x) == set(bye_units) for x in fielding) else \
                        settings.pairs_a_team if odd else 0
            if settings.format == INDIVIDUAL and table_sizes(len(active_units), settings.table_counts()):
                needed = 0  # every player could be seated at tables of the sizes the game allows
            if len(bye_units) != needed:
                err(where, f"{len(bye_units)} byes given where {needed} are needed")
            others = [bye_count[u] for u in active_units if u not in bye_units]
            worst = max(bye_count[u] for u in bye_units)
            if others and worst > min(others):
                err(where, f"a bye went to a {'pair' if settings.format == PAIRS else 'player'} with {worst} "
                           f"bye(s) before one with {min(others)}")
            if settings.format == PAIRS:
                for u in bye_units:
                    members = list(fielded[u]) if settings.teams else [p.id for p in players if p.team == u]
                    if sorted(members) != sorted(p for p in given if team_of.get(p) == u):
                        err(where, f"only one player of pair {u} has the bye")
        for u in bye_units:
            bye_count[u] += 1
    return out


def _winner_against_scores(scores: dict[str, int], winner: str | None) -> str | None:
    """What is wrong with a typed result's winner, given its scores, as entering it refuses it
    (:func:`tournament.event.results.enter_manual`): a winner who scored less than another side,
    none where one side scored most, none where sides are level at the top of a table of more
    than two sides (the game's rules name one there).  ``None``: they agree."""
    if not scores:
        return None
    best = max(scores.values())
    top = [s for s, n in scores.items() if n == best]
    listed = _and(top)  # (as entering words it)
    if winner is not None and winner not in scores:
        return f"the stored winner, {winner}, is not a side of the table ({', '.join(scores)})"
    if winner is not None and winner not in top:
        return f"the stored winner, {winner}, contradicts the scores: {listed} scored more ({best} to {scores[winner]})"
    if winner is None and len(top) == 1:
        return f"no winner is stored, but {top[0]} scored most ({best})"
    if winner is None and len(scores) > 2:
        return f"no winner is stored, but {listed} are level at the top ({best}): the game's rules name one"
    return None


def _impossible_end(settings: Settings, table: Table, scores: Mapping[str, int]) -> str | None:
    """Why no game ends with a typed game result's scores, as its engine says it
    (:meth:`~domrec.games.base.ScoreRange.end_refusal`: Competitive's two sides at 200 or more),
    or ``None``; what entering such a result refuses, for one stored before it did."""
    from domrec import games

    if settings.duplicate or settings.team_duplicate or set(scores) != set(table.sides()):
        return None  # (a duplicate table's results are boards'; wrong sides are said above)
    span = games.engine(settings.game).final_scores(settings.variant or "standard", settings.resolved_options(),
                                                    len(table.seats))
    return span.end_refusal({side: int(scores[side]) for side in table.sides()})


def _forfeited_seats(store: EventStore, tables: Sequence[Table]) -> dict[int, set[int]]:
    """Round -> the players seated on a side whose table it forfeited (a team a pair short)."""
    results = store.results()
    out: dict[int, set[int]] = {}
    for t in tables:
        absent = set(results[t.id].absent) if t.id in results else set()
        if absent:
            out.setdefault(t.round, set()).update(x.player for x in t.seats if x.side in absent)
    return out


def _withdrawn_seated(store: EventStore) -> dict[int, set[int]]:
    """Duplicate pairs: round -> the players of a pair the movement seats after it withdrew (its
    boards there are not played: :mod:`tournament.event.duplicate_withdrawal`)."""
    from tournament.event.duplicate_withdrawal import seated_away

    return seated_away(store)


def diagnose_file(path: str | Path) -> CheckReport:
    """``check`` on an event file too damaged to be opened (its meta table or settings cannot be
    read): the damage diagnosis alone, read-only."""
    damage = damage_file(path)
    findings = [Finding("error", where, message) for where, message in damage.problems] or [
        Finding("error", "database", "the event's meta table or settings cannot be read")]
    return CheckReport(tuple(findings), 0, 0, 0)


def run(store: EventStore) -> CheckReport:
    """Every check.  A damaged file is diagnosed first (:func:`tournament.store.damage.find_damage`:
    which tables, which rows); then the rest runs on whatever can still be read, skipping the
    damaged results, and if a damaged page stops it, that is one more error, never a crash:
    ``check`` always reports."""
    damage = store.damage()
    findings: list[Finding] = [Finding("error", where, message) for where, message in damage.problems]
    counts = {"records": 0, "results": 0, "rounds": 0}
    try:
        # Undecodable text has been reported row by row; the other checks read it with U+FFFD.
        with store.lenient_text():
            _run_checks(store, findings, damage.bad_results, counts)
    except (sqlite3.DatabaseError, EventFileError) as e:
        findings.append(Finding("error", "database", f"the other checks stopped at a damaged part of the file "
                                                     f"({clip(str(e), 160)}); restore the event from a copy"))
    except (LookupError, TypeError, ValueError, AttributeError, ArithmeticError, RecursionError) as e:
        # A value SQLite reads but the tool never writes (a row edited outside it: a round numbered
        # 'x', a seat of a player or a side that is not there): said, as check always reports.
        # Where the scans above have named such rows (the damage scan's, or rows pointing at rows
        # that do not exist), the stop is theirs: said in words, without the exception's text,
        # which only repeats the value they named.
        if any("not UTF-8" not in what for _, what in damage.problems) or counts.get("dangling"):
            # (text that is not UTF-8 is read with U+FFFD, and stops nothing: not the stop's cause)
            findings.append(Finding("error", "database", "the other checks stopped at a value they cannot use, "
                                                         "in a row named above: restore the event from a copy"))
        else:
            findings.append(Finding("error", "database", f"the other checks stopped at a value they cannot use "
                                                         f"({type(e).__name__}: {clip(str(e), 120)}): if the file "
                                                         f"was changed outside the tool, restore the event from a "
                                                         f"copy; if not, please report it"))
    return CheckReport(tuple(findings), counts["records"], counts["results"], counts["rounds"])


def _run_checks(store: EventStore, findings: list[Finding], skip: set[int], counts: dict[str, int]) -> None:
    add = lambda level, where, msg: findings.append(Finding(level, where, msg))  # noqa: E731
    fk = store.foreign_key_problems()
    if fk:
        add("error", "database", f"{fk} row(s) point at rows that do not exist")
        counts["dangling"] = fk
    settings = store.settings
    players = seated_players(store)  # a team event's reserve brought in: the pair it sits in
    teams = store.teams()
    tables = store.tables()
    byes = store.byes()
    swiss_rounds = {n for n, sid in store.round_stage().items() if sid == 1}
    excused = desk.excused(store)
    if settings.duplicate:  # an odd number of pairs: the pair sitting out a round has neither table nor bye
        from tournament.event import duplicate
        for r in swiss_rounds:
            out = duplicate.sits_out(store, r)
            if out is not None:
                excused.setdefault(r, set()).update(next(t.players for t in teams if t.id == out.pair_id))
    findings.extend(pairing_findings(settings, players, teams, [t for t in tables if t.round in swiss_rounds],
                                     {r: v for r, v in byes.items() if r in swiss_rounds}, excused,
                                     squad_store.substitutions(store) if settings.teams else (),
                                     _forfeited_seats(store, tables) if settings.teams else _withdrawn_seated(store),
                                     squad_store.squads(store) if settings.teams else ()))
    # A keep-apart or a pin the seats go against (a swap or a move since the pairing): as a repeat.
    findings.extend(Finding("error", where, message) for where, message in desk.request_findings(store))
    if settings.duplicate:  # the movement's seating, each board result, each board record again
        from tournament.event import duplicate

        found, counts["records"] = duplicate.check_findings(store)
        findings.extend(Finding(*f) for f in found)
    if settings.team_duplicate:  # each board result of its round's boards, each board record again
        from tournament.event import duplicate_teams

        found, counts["records"] = duplicate_teams.check_findings(store)
        findings.extend(Finding(*f) for f in found)
    if not skip and not any(f.where == "database" or f.where.startswith("table ") for f in findings):
        findings.extend(stage_findings(store))  # replayed in a transaction: not on a damaged file
    by_table = {t.id: t for t in tables}
    results = store.results(skip)
    counts["results"] = len(results)
    player_map = {p.id: p for p in players}
    former: dict[int, list[str]] = {}  # names players had before a rename
    for row in desk_sql.trail(store):
        if row["action"] == "player_renamed":
            former.setdefault(row["detail"]["player"], []).append(row["detail"]["old"])
    by_name = {name_key(p.name): p for p in players}  # normalised once, not once a record
    n_records = 0
    with_record: set[int] = set()
    for result, text in store.records(skip):
        n_records += 1
        counts["records"] = n_records
        with_record.add(result.id)
        table = by_table.get(result.table)
        where = f"round {table.round} table {table.number}" if table else f"result {result.id}"
        report = record = None
        # Checked as the bytes of a file, as it was entered: a record stored by an older version
        # may still begin with a UTF-8 byte-order mark, which JSON accepts only in bytes.
        text = text.encode("utf-8")
        try:
            record, report = judge(text, where)  # read once, as entering reads it: validated and hashed
        except TournamentError as e:
            add("error", where, str(e))
        if report is not None and (report.status != "valid" or not report.finished):
            first = report.problems[0].text() if report.problems else (report.note or "not finished")
            add("error", where, f"the stored record no longer validates: {first}")
            continue
        if record is None:
            try:
                record = loads(text)
            except DomrecError as e:
                add("error", where, f"the stored record cannot be read: {e}")
                continue
        if record_hash(record) != result.record_hash:
            add("error", where, "the stored record's hash does not match its text")
        if report is not None and report.on_time and settings.time_limit is None:
            # domrec checked the claim (the side ahead wins), but no clock was set for the event: a
            # typing slip, or a limit the director forgot to record; not an error, the table stands.
            add("warning", where, "the game is said to have ended on time, but the event has no time limit")
        if report is not None and report.sheet_hands and (
                len(report.sheet_hands) < report.hands or result.note != SCORES_ONLY_NOTE):
            # Some hands typed by their score alone, others played: the typed ones' arithmetic
            # checked, their play never replayed.  Said as `domrec validate` says it, so that a
            # mixed game (a hand tapped, the rest typed as score-sheet lines) is not passed over
            # here while the replay page says it; one stored before such a game was told apart
            # still shows "verified record", until `tournament amend` stores its own record again,
            # marked scores only.  (A game recorded by its scores alone, a table that chose to, is
            # said "scores only" wherever it is shown: no warning for each such table.)
            said = report.scores_only or ""
            if result.note != SCORES_ONLY_NOTE:
                said += ("; it is still shown as a verified record (stored before such games were told apart): "
                         f"`tournament amend EVENT --round {table.round if table else '?'} --table "
                         f"{table.number if table else '?'}` with its own record shows it as scores only")
            add("warning", where, said)
        if report is not None and (report.scores != result.scores or report.winner != result.winner):
            add("error", where, f"stored scores {result.scores} (winner {result.winner}) differ from the "
                                f"record's computed {report.scores} (winner {report.winner})")
        if table is None:
            add("error", where, "the result belongs to no table")
            continue
        try:
            try:
                matched = match_table(settings, record, [table], player_map, where, by_name)
            except TournamentError:
                # A player renamed since (``tournament rename``) is named in the record as they were.
                named = {name_key(rp.name) for rp in record.players}
                then = {pid: attrs.evolve(p, name=next(n for n in former[pid] if name_key(n) in named))
                        for pid, p in player_map.items() if any(name_key(n) in named for n in former.get(pid, ()))}
                if not then:
                    raise
                matched = match_table(settings, record, [table], {**player_map, **then}, where)
            if matched.id != table.id:
                add("error", where, "the record matches another table")
        except TournamentError as e:
            add("error", where, f"the record does not match its table: {e}")
    from tournament.event.desk import accepted_results

    accepted = accepted_results(store)  # manual scores the director has vouched for, once
    for result in results.values():
        table = by_table.get(result.table)
        if table is None:
            add("error", f"result {result.id}", "the result belongs to no table")
            continue
        if set(result.scores) != set(table.sides()):
            add("error", f"round {table.round} table {table.number}",
                f"scores are for {', '.join(result.scores)}, the table's sides are {', '.join(table.sides())}")
        # The flags must agree with what is stored: a verified result is a record that is kept and
        # re-checked above; a manual one has neither record nor hash and is never verified.
        rw = f"round {table.round} table {table.number}"
        if result.kind == "record":
            if not result.verified:
                add("error", rw, "a result entered from a record is marked unverified")
            if result.id not in with_record or result.record_hash is None:
                add("error", rw, "the result is marked as a verified record, but its record (or its hash) "
                                 "is missing, so it cannot be re-checked")
        elif result.kind == "manual":
            if result.verified or result.record_hash is not None or result.id in with_record:
                add("error", rw, "a manual result is marked verified or carries a record")
            if result.id not in accepted:
                add("warning", rw, "manual result (unverified; `tournament accept` once it is checked: no more "
                                   "warnings)")
                short = short_of_target(settings, table, result.scores)
                if short is not None:  # (taken at entry with this warning: a game abandoned, perhaps)
                    add("warning", rw, short)
            wrong = _winner_against_scores(result.scores, result.winner)
            if wrong is not None:  # (entering refuses it: a file changed since, or by other means)
                add("error", rw, wrong)
            ended = _impossible_end(settings, table, result.scores)
            if ended is not None:  # (entering refuses it now: a result typed before it did)
                add("error", rw, f"{ended}: correct it with tournament amend")
        elif result.kind == "forfeit":
            # A forfeit is the event's fixed score, no game: never verified, no record, and its sides known.
            if result.verified or result.record_hash is not None or result.id in with_record:
                add("error", rw, "a forfeit is marked verified or carries a record")
            if result.absent_players:  # by player: some of the table's players, not all of them
                if not set(result.absent_players) < set(table.players):
                    add("error", rw, "a forfeit by player names players who are not at the table, or all of them")
            elif not result.absent or not set(result.absent) < set(table.sides()):
                add("error", rw, "a forfeit does not say which side did not play")
        else:
            add("error", rw, f"a result of unknown kind {result.kind!r}")
    audit_rows = store.audit()
    # A replacing result may itself have been replaced later: then it is the old result of a later row.
    replaced_later = {_json_object(r["old_result"]).get("id") for r in audit_rows}
    current_by_id = {r.id: r for r in results.values()}
    for row in audit_rows:
        if row["new_result_id"] is not None and row["new_result_id"] not in replaced_later \
                and row["new_result_id"] not in current_by_id:
            add("error", f"audit {row['id']}", "the result that replaced this one is missing")
        # The trail's new values (schema 3) must be those of the result it names, while that is current.
        new = _json_object(row["new_result"]) if row["new_result"] else None
        now_result = current_by_id.get(row["new_result_id"])
        if new and now_result is not None and (new.get("scores"), new.get("winner"), new.get("kind"),
                                               new.get("record_hash")) != (now_result.scores, now_result.winner,
                                                                           now_result.kind, now_result.record_hash):
            add("error", f"audit {row['id']}", "the new values the audit trail records are not those of the "
                                               "result it names")
    # Standings: each round was paired on the standings after the round before; recompute them.
    rounds = [r.number for r in store.rounds()]
    counts["rounds"] = len(rounds)
    # A damaged result (reported above) is left out; its table is not "without a result", and the
    # standings without it would differ for that reason alone.
    skipped_tables = store.tables_of_results(skip)
    for number in [n for n in rounds if n in swiss_rounds]:
        if number == 1 or skipped_tables or settings.duplicate:  # a duplicate round is seated by its movement
            continue
        if settings.teams and settings.team_schedule != "swiss":
            continue  # a round robin of teams is paired on its schedule, not on standings
        used = store.standings_used(number)
        # The standings as they were when this round was paired (a team event's: its teams'):
        # only the players, pairs and teams entered by then.  A late entry, added after the
        # pairing, is in no standing it used and changes nobody's rank there; counting it would
        # make untouched results look replaced.
        again = paired_on.recompute(store, number, used, players, teams, tables, results, byes)
        changed = paired_on.changed(used, again)
        if changed:
            add("warning", f"round {number}", _changed_standings(number, used, again, changed, audit_rows, store))
    if rounds:
        last = rounds[-1]
        missing = [t.number for t in tables if t.round < last and t.round in swiss_rounds and t.id not in results
                   and t.id not in skipped_tables]
        if settings.duplicate:  # a duplicate table's results are its boards'
            from tournament.event import duplicate

            left = [(r, t, b) for r in rounds if r < last for t, b in duplicate.missing(store, r)]
            missing = [f"round {r} table {t} board {b}" for r, t, b in left]  # type: ignore[misc]
            counts["results"] = len(duplicate.sql.results(store))
        if settings.team_duplicate:  # a match's results are its boards' at both tables
            from tournament.event import duplicate_teams

            left = [(r, t, b) for r in rounds if r < last for t, b in duplicate_teams.missing(store, r)]
            missing = [f"round {r} table {t} board {b}" for r, t, b in left]  # type: ignore[misc]
            counts["results"] = len(duplicate_teams.sql.results(store))
        if missing:
            add("error", "results", f"tables of finished rounds without results: {missing[:10]}")


def _changed_standings(number: int, used: dict[int, tuple[int, dict[str, Any]]], again: paired_on.Recomputed,
                       changed: list[int], audit_rows: list[dict[str, Any]], store: EventStore) -> str:
    """The warning for a round paired on standings an amendment has changed since: who moved
    (rank then and now, or the first value that changed), and which corrections did it.  A team
    event's round was paired on the team standings: its teams are named, by its team tie-breaks."""
    now = again.rows
    order = sorted(changed, key=lambda u: (now.get(u, used.get(u, (0, {})))[0], u))
    shown = []
    for u in order[:6]:
        (r0, v0), (r1, v1) = used.get(u, (None, {})), now.get(u, (None, {}))
        who = again.names.get(u, f"#{u}")
        if r0 != r1:
            shown.append(f"{who} rank {r0} then, {r1} now")
        else:
            key = next((k for k in again.tiebreaks if v0.get(k) != v1.get(k)), None)
            shown.append(f"{who} {again.key_words(key)} {_num_text(v0.get(key))} then, {_num_text(v1.get(key))} now"
                         if key else f"{who} changed")
    more = f" and {len(order) - 6} more" if len(order) > 6 else ""
    paired_at = next((r.paired_at for r in store.rounds() if r.number == number), "")
    rounds_of = {t.id: (t.round, t.number) for t in store.tables()}
    amended = sorted({rounds_of[r["table_id"]] for r in audit_rows if r["table_id"] in rounds_of
                      and rounds_of[r["table_id"]][0] < number and (r["replaced_at"] or "") >= paired_at})
    cause = ("after " + ", ".join(f"round {a} table {b}" for a, b in amended[:6])
             + (" …" if len(amended) > 6 else "") + (" was" if len(amended) == 1 else " were")
             + " amended") if amended else "a result of an earlier round was entered or replaced after pairing"
    unit = again.unit
    which = "team standings" if unit == "team" else "standings"
    return (f"paired on {which} that have changed since ({len(changed)} {unit}{'s' if len(changed) != 1 else ''}: "
            f"{'; '.join(shown)}{more}), {cause}; the round stands as paired (played rounds are never re-paired)")


def _num_text(x: Any) -> str:
    return str(int(x)) if isinstance(x, float) and x.is_integer() else str(x)


def _json_object(text: Any) -> dict[str, Any]:
    """A stored JSON object, or {} when it is damaged (already reported by
    :func:`tournament.store.damage.find_damage`)."""
    try:
        value = json.loads(text)
    except (TypeError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


class _Rollback(Exception):
    pass


def stage_findings(store: EventStore) -> list[Finding]:
    """Knockout and round-robin stages: every seated game must be the one the draw and the results
    say (replayed from scratch), and every game that is due must be seated.  The replay runs in a
    transaction that is always rolled back: ``check`` never writes."""
    from tournament.event import stages

    out: list[Finding] = []
    if not store.has_stage_tables():
        return out
    for stage in stages.load(store):
        where = f"stage {stage.id} ({stage.name})"
        try:
            with store.write():
                try:
                    new = stages.advance_stage(store, stage)
                except stages.StageError as e:
                    out.append(Finding("error", where, f"a seated game does not fit the draw: {e.message}"))
                    raise _Rollback from None
                for t in new:
                    out.append(Finding("error", where, f"a due game has no table (round {t.round} would seat it at "
                                                       f"table {t.number})"))
                raise _Rollback
        except _Rollback:
            pass
        if stage.format == stages.FINAL_TABLE or stage.sides:  # a rotating event's final
            from tournament.event import finals
            out.extend(Finding(level, where, message) for level, message in finals.draw_findings(store, stage))
        if stage.format == stages.ROUND_ROBIN:
            sched = stage.schedule()
            want = sorted(tuple(sorted((p.home, p.away))) for games in sched.rounds for p in games)
            team_of = {p.id: p.team for p in store.players()}
            if store.settings.teams:  # a stage of teams: a match's tables are one game of the schedule
                from tournament.event.stages import squad_of
                team_of = squad_of(store)
            pairs = store.settings.format == PAIRS
            got = []
            seen: set[str] = set()
            for row in store.match_tables(stage.id):
                if store.settings.teams and row["key"] in seen:
                    continue
                seen.add(row["key"])
                t = next(t for t in store.tables(row["round"]) if t.id == row["table_id"])
                got.append(tuple(sorted(dict.fromkeys(team_of[p] if pairs else p for p in t.players))))
            if sorted(got) != want:
                out.append(Finding("error", where, "the seated games are not the round-robin schedule"))
    return out

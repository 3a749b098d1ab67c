"""Team events (issue 37, the gaps): home and away balance, a team a pair short, and groups then a
knockout of teams."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.event import rounds, teams as tm
from tournament.event.files import create_event
from tournament.event.simulate import play_round
from tournament.pairing.teams import balance, home_first, home_history, must_be, squad_of_players
from tournament.settings import make_settings
from tournament.store.event_store import EventStore


def team_event(path: Path, teams: int, size: int = 4, **settings: object) -> EventStore:
    """A team event of ``teams`` teams of ``size`` players ("Team 01", its pairs "T01 pair k"),
    entered as a team event's CSV would enter them."""
    store = create_event(path, make_settings("Gaps", "competitive", "teams", team_size=size, **settings))
    per = size // 2
    tm.add_teams(store, [(f"Team {t:02d}", [(f"P{t:02d}-{2 * k}", f"P{t:02d}-{2 * k + 1}", f"T{t:02d} pair {k + 1}")
                                            for k in range(per)], [f"R{t:02d}"]) for t in range(1, teams + 1)])
    return store


def homes_of(store: EventStore) -> dict[str, str]:
    """Team name -> its matches in order, H where it sat N-S at the match's first table, A where not;
    read from the stored tables."""
    squads = tm.squads(store)
    names = {s.id: s.name for s in squads}
    history = home_history(store.tables(), squad_of_players(squads, store.teams()))
    return {names[u]: "".join("H" if x else "A" for x in h) for u, h in history.items()}


@pytest.mark.parametrize("schedule, teams", [("swiss", 10), ("swiss", 9), ("round-robin", 7)])
def test_home_and_away_alternate_fairly_over_six_rounds(tmp_path: Path, schedule: str, teams: int) -> None:
    store = team_event(tmp_path / "e.db", teams, team_schedule=schedule)
    try:
        for r in range(1, 7):
            plan = rounds.pair_next_round(store)
            play_round(store, plan.round, 7)
            for team, line in homes_of(store).items():
                # As chess colours: never two more home matches than away (or the other way), never
                # three in a row of one.
                assert abs(line.count("H") - line.count("A")) <= 2, (r, team, line)
                assert "HHH" not in line and "AAA" not in line, (r, team, line)
        lines = homes_of(store)
        played = sum(len(x) for x in lines.values())
        assert played == 6 * (teams - teams % 2)  # a bye is no match
        # Most teams are as level as their number of matches allows (one out when it is odd).
        assert sum(abs(x.count("H") - x.count("A")) - len(x) % 2 for x in lines.values()) <= teams // 2, lines
    finally:
        store.close()


def test_which_team_is_at_home() -> None:
    h, a = True, False
    assert balance([h, h, a]) == 1 and must_be([h, h]) is False and must_be([a, h, a, a]) is True
    assert must_be([h, a]) is None and must_be([]) is None
    # The team at home less often; level, the one away where they last differ; level, the first named.
    assert home_first(1, 2, {1: [h, h, a], 2: [a]}) == (2, 1)
    assert home_first(1, 2, {1: [a, h], 2: [h, a]}) == (2, 1)
    assert home_first(1, 2, {1: [h, a], 2: [h, a]}) == (1, 2)
    assert home_first(1, 2, {}) == (1, 2)
    # A team that must be at home is, though the other has been away more often.
    assert home_first(1, 2, {1: [h, h, a, a], 2: [a]}) == (1, 2)


def forfeits_in(store: EventStore, round_no: int) -> dict[int, tuple[str, ...]]:
    """Table number -> the sides that forfeited it, in round ``round_no``."""
    results = store.results()
    return {t.number: results[t.id].absent for t in store.tables(round_no) if t.id in results and results[t.id].absent}


def test_a_team_a_pair_short_plays_and_loses_that_pairs_table_by_forfeit(tmp_path: Path) -> None:
    from tournament.errors import PairingError
    from tournament.event import check, players as pl

    store = team_event(tmp_path / "e.db", 5, forfeit_score=150)
    try:
        play_round(store, rounds.pair_next_round(store).round, 1)
        pl.withdraw(store, "T02 pair 1")  # the team's first pair leaves; its second plays on
        for r in (2, 3, 4):
            plan = rounds.pair_next_round(store)
            names = {p.id: p.name for p in store.players()}
            short = forfeits_in(store, r)
            seated = {names[p] for t in store.tables(r) for p in t.players}
            given = {names[p] for p in plan.byes}
            if {"P02-2", "P02-3"} & given:
                # Team 02 has the bye: the pair it fields has it, the pair gone not; no table forfeited.
                assert given == {"P02-2", "P02-3"} and not short
                continue
            # Team 02's match: its pair that plays at the match's first table, the pair gone at its
            # second, where the opponents' pair won by the forfeit score before anyone sat down.
            first = next(t for t in store.tables(r) if {"P02-2", "P02-3"} <= {names[p] for p in t.players})
            second = next(t for t in store.tables(r) if t.number == first.number + 1)
            assert {"P02-0", "P02-1"} <= {names[p] for p in second.players} and "P02-0" in seated
            side = next(x.side for x in second.seats if names[x.player] == "P02-0")
            assert short == {second.number: (side,)}
            result = store.results()[second.id]
            other = "EW" if side == "NS" else "NS"
            assert result.kind == "forfeit" and result.winner == other
            assert result.scores == {side: 0, other: 150}
            assert first.id not in store.results()  # the other table is played as any
            play_round(store, r, r)
        row = next(r for r in tm.team_standings(store).rows if r.name == "Team 02")
        # Each match of Team 02 is two games (the one forfeited lost); a bye, a game for each pair it fielded.
        ids = {p.id for p in store.players() if p.name.startswith("P02")}
        bye_pairs = sum(1 for given in store.byes().values() for p in given if p in ids) // 2
        assert row.games + row.games_lost == 2 * row.played + bye_pairs
        assert row.played == 4 - row.byes
        report = check.run(store)
        assert report.ok, report.errors
    finally:
        store.close()
    # Both teams a pair short at the same table: no game there, for neither.
    store = team_event(tmp_path / "two.db", 2)
    try:
        play_round(store, rounds.pair_next_round(store).round, 1)
        pl.withdraw(store, "T01 pair 2")
        pl.withdraw(store, "T02 pair 1")
        with pytest.raises(PairingError, match="meeting again"):
            rounds.pair_next_round(store)  # two teams: they have met (Swiss)
    finally:
        store.close()
    # A set is played by all of a team's pairs: refused, in one line that says what to do.
    store = team_event(tmp_path / "set.db", 4, team_set=3)
    try:
        pl.withdraw(store, "T03 pair 2")
        with pytest.raises(PairingError, match="a set is played by all of a team's pairs.*team EVENT sub"):
            rounds.pair_next_round(store)
    finally:
        store.close()


def test_two_teams_a_pair_short_at_one_table_leave_it_empty(tmp_path: Path) -> None:
    from tournament.event import check, players as pl

    store = team_event(tmp_path / "rr.db", 4, size=6, team_schedule="round-robin")
    try:
        pl.withdraw(store, "T01 pair 3")
        pl.withdraw(store, "T04 pair 2")
        squads = tm.squads(store)
        for r in (1, 2, 3):
            plan = rounds.pair_next_round(store)
            squad_of = squad_of_players(squads, store.teams())
            per_match: dict[frozenset[int], list[int]] = {}
            for t in store.tables(r):
                per_match.setdefault(frozenset(squad_of[p] for p in t.players), []).append(t.number)
            short = forfeits_in(store, r)
            for match, numbers in per_match.items():
                names = {s.name for s in squads if s.id in match}
                if names == {"Team 01", "Team 04"}:
                    # Both a pair short: their pairs that play meet at two tables; the third is no game.
                    assert len(numbers) == 2 and not set(numbers) & set(short), (r, numbers, short)
                elif names & {"Team 01", "Team 04"}:
                    assert len(numbers) == 3 and set(short) & set(numbers) == {numbers[-1]}, (r, numbers, short)
                else:
                    assert len(numbers) == 3 and not set(numbers) & set(short)
            play_round(store, plan.round, plan.round)
        report = check.run(store)
        assert report.ok, report.errors
    finally:
        store.close()


# --- groups, then a knockout of teams ------------------------------------------------------------


def cli(*args: object, code: int = 0) -> str:
    from typer.testing import CliRunner

    from tournament.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def stage_matches(store: EventStore, stage_id: int) -> dict[str, list]:
    """A stage's matches: key -> its tables (in table order)."""
    tables = {t.id: t for t in store.tables()}
    out: dict[str, list] = {}
    for row in store.match_tables(stage_id):
        out.setdefault(row["key"], []).append(tables[row["table_id"]])
    return {k: sorted(v, key=lambda t: t.number) for k, v in out.items()}


def test_groups_then_a_knockout_of_teams_to_a_champion(tmp_path: Path) -> None:
    import csv
    import io
    import json

    from tournament.event import check
    from tournament.event.simulate import play_stage

    path = tmp_path / "ko.db"
    team_event(path, 8).close()
    out = cli("roundrobin", path, "--groups", "2", "--seeding", "list", "--seeds",
              ",".join(f"Team {t:02d}" for t in range(1, 9)))
    assert "group A: Team 01" in out
    store = open_event(path)
    try:
        squad_of = squad_of_players(tm.squads(store), store.teams())
        for key, tables in stage_matches(store, 2).items():
            # Each game of the schedule a team match: two adjacent tables, the same two teams, swapped.
            assert len(tables) == 2 and tables[1].number == tables[0].number + 1, key
            a, b = (pairing_sides(t, squad_of) for t in tables)
            assert a["NS"] == b["EW"] and a["EW"] == b["NS"] and a["NS"] != a["EW"]
        play_stage(store, 5)
    finally:
        store.close()
    group = cli("bracket", path, "--stage", "2")
    assert "Group A" in group and "Team 01" in group and "match_points" in group
    out = cli("knockout", path, "--seeding", "groups", "--per-group", "2")
    assert "semi-final" in out and "Team" in out
    assert "--final-set is the semi-finals'" in cli("knockout", path, "--final-set", "75", code=1)
    store = open_event(path)
    try:
        from tournament.event import results as rs

        # Every tie level on games (each team wins one table, N-S each time): the semi-finals' N-S
        # at the first table win by more, so efectividad decides; the final is level on points too,
        # so the better seed goes through.
        while True:
            waiting = [t for t in store.tables() if t.round > stage_offset(store) and t.id not in store.results()]
            if not waiting:
                break
            t = waiting[0]
            first = t.number % 2 == 1
            final = t.round == stage_offset(store) + 2
            rs.enter_manual(store, t.number, {"NS": 200, "EW": 100 if first or final else 150}, t.round)
        names = {s.id: s.name for s in tm.squads(store)}
        squad_of = squad_of_players(tm.squads(store), store.teams())
        stage = stages_of(store)[-1]
        results = store.results()
        # Every tie worked out here from the stored games: games won, then efectividad, then points
        # for, then the better seed; the bracket's winner is that team.
        doc = json.loads(cli("bracket", path, "--json"))
        decided = {m["key"]: m["order"][0] for m in doc["matches"] if m["status"] == "decided"}
        matches = stage_matches(store, stage.id)
        assert len(matches) == 3 and set(decided) == set(matches)
        level: list[tuple[int, str]] = []
        for key, tables in matches.items():
            assert len(tables) == 2 and tables[1].number == tables[0].number + 1
            acc: dict[int, list[float]] = {}
            for t in tables:
                sides = pairing_sides(t, squad_of)
                r = results[t.id]
                for side, team in sides.items():
                    other = "EW" if side == "NS" else "NS"
                    row = acc.setdefault(team, [0.0, 0.0, 0.0])
                    row[0] += 1 if r.winner == side else 0.5 if r.winner is None else 0
                    row[1] += r.scores[side] - r.scores[other]
                    row[2] += r.scores[side]
            best = min(acc, key=lambda u: (-acc[u][0], -acc[u][1], -acc[u][2], stage.seeds.index(u)))
            assert decided[key] == names[best], key
            if len(set(g for g, _, _ in acc.values())) == 1:  # level on games: the tables line says who goes on
                level.append((tables[0].round, names[best]))
        assert doc["champion"] == decided["R2-1"]
        assert len(level) == 3  # efectividad decided the semi-finals, the seed the final
        final_round = stage.offset + 2
        for round_no, team in level:
            if round_no == final_round:  # the final's tie sends nobody on: its line names the event's winner
                assert team == doc["champion"]
                shown = cli("tables", path, "--round", round_no)
                assert f"(level: {team} wins the final, and the event, on the tie-breaks)" in shown
                assert "wins the tie" not in shown
                assert f"empate: {team} gana la final, y el torneo," in cli("tables", path, "--round", round_no,
                                                                             "--lang", "es")
                continue
            assert f"(level: {team} wins the tie on the tie-breaks)" in cli("tables", path, "--round", round_no)
            assert f"empate: {team} gana la eliminatoria" in cli("tables", path, "--round", round_no, "--lang", "es")
        assert sum(r != final_round for r, _ in level) == 2
        # The knockout stage's standings as CSV are its teams' (as without --csv), not its pairs'.
        rows = list(csv.DictReader(io.StringIO(cli("standings", path, "--stage", str(stage.id), "--csv"))))
        assert {r["team"] for r in rows} == {f"Team {t:02d}" for t in range(1, 9)}
        assert all(r["ranked_by"] for r in rows)
        table = json.loads(cli("standings", path, "--stage", str(stage.id), "--json"))
        assert [r["team"] for r in rows] == [r["team"] for r in table["rows"]]
        text = cli("tables", path, "--round", stage.offset + 2)
        assert "Tables 1-2:" in text and doc["champion"] in text
        report = check.run(store)
        assert report.ok, report.errors
    finally:
        store.close()
    assert doc["champion"] in cli("bracket", path)
    page = cli("report", path, "--output", tmp_path / "report.html")
    html = (tmp_path / "report.html").read_text()
    assert doc["champion"] in html and "Group A" in html, page
    # The hall's match line says so too: the semi-finals' ties, and the final that wins the event.
    assert f"level: {doc['champion']} wins the final, and the event, on the tie-breaks" in html
    assert html.count("wins the tie on the tie-breaks") == 2


def stage_offset(store: EventStore) -> int:
    """The round after which the last stage starts."""
    return stages_of(store)[-1].offset


def pairing_sides(table, squad_of):  # type: ignore[no-untyped-def]
    from tournament.pairing.teams import table_sides

    return table_sides(table, squad_of)


def stages_of(store: EventStore) -> list:
    from tournament.event import stages

    return stages.load(store)


def open_event(path: Path) -> EventStore:
    from tournament.event.files import open_event as opened

    return opened(path)


def test_a_knockout_of_team_sets_rises_to_75_in_the_final(tmp_path: Path) -> None:
    from tournament.event import check, results as rs
    from tournament.event.stages import set_target

    path = tmp_path / "sets.db"
    team_event(path, 4, preset="team-pairs", team_set=3).close()
    cli("roundrobin", path, "--groups", "2", "--seeding", "list", "--seeds", "Team 01,Team 02,Team 03,Team 04")
    store = open_event(path)

    def play_out(round_no: int, winner: str) -> None:
        """Every game of the round to its end, the team ``winner`` takes two of three (by name)."""
        squad_of = squad_of_players(tm.squads(store), store.teams())
        names = {s.id: s.name for s in tm.squads(store)}
        n = 0
        while True:
            done = store.results()
            waiting = [t for t in store.tables(round_no) if t.id not in done]
            if not waiting:
                return
            t = waiting[0]
            sides = pairing_sides(t, squad_of)
            mine = next((x for x, u in sides.items() if names[u] == winner), None)
            win = mine if mine is not None and n % 3 != 2 else ("EW" if mine == "NS" else "NS")
            n += 1
            rs.enter_manual(store, t.number, {win: 100, ("EW" if win == "NS" else "NS"): 40}, round_no)

    try:
        play_out(1, "Team 01")
        play_out(1, "Team 02")
        assert set_target(store, 1) == 3
    finally:
        store.close()
    out = cli("knockout", path, "--seeding", "groups", "--per-group", "1")
    assert "final" in out
    store = open_event(path)
    try:
        stage = stages_of(store)[-1]
        assert stage.options["final_set"] == 75  # the team-pairs preset's semi-finals and final
        final_round = stage.offset + 1
        assert set_target(store, final_round) == 75
        play_out(final_round, "Team 02")
        text = cli("tables", path, "--round", final_round)
        assert "(Team 02 wins the set 75–" in text
        games = [t for t in store.tables(final_round)]
        assert len(games) >= 75 + 37
        report = check.run(store)
        assert report.ok, report.errors
    finally:
        store.close()
    import json

    doc = json.loads(cli("bracket", path, "--json"))
    assert doc["champion"] == "Team 02" and doc["options"]["final_set"] == 75

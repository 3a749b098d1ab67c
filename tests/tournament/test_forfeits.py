"""Forfeits by player in individual and rotating events (issue #25, point 4): the absent player
takes the loss, the players who came win by the event's forfeit score as with a bye; forfeits
and manual scores are not rated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import games
from tournament import add_players, create_event, enter_manual, enter_record, make_settings, pair_next_round, \
    run_check
from tournament.cli import app
from tournament.errors import ResultRefused, UnknownPlayer, UnusableInput
from tournament.event.ratings import event_games
from tournament.event.results import enter_player_forfeit
from tournament.event.standings import from_store as current_standings

from .conftest import play_table

runner = CliRunner()


def test_a_rotating_forfeit_by_player(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    by_seat = {s.seat: s.player for s in table.seats}
    names = {p.id: p.name for p in store.players()}
    absent = names[by_seat["N"]]
    entry = enter_player_forfeit(store, table.number, (absent,))
    assert entry.absent == (absent,) and entry.scores == {"NS": 0, "EW": 200} and entry.winner == "EW"
    # Again: nothing changes.
    assert enter_player_forfeit(store, table.number, (f"#{by_seat['N']}",)).status == "unchanged"
    rows = {r.unit: r for r in current_standings(store).rows}
    n, e, s, w = (rows[by_seat[x]] for x in "NESW")
    # The absent player lost 0-200; the three who came, the partner too, won 200-0.
    assert (n.won, n.lost, n.points_for, n.points_against, n.forfeits) == (0, 1, 0, 200, 1)
    for r in (e, s, w):
        assert (r.won, r.lost, r.points_for, r.points_against, r.forfeits) == (1, 0, 200, 0, 0)
    # As with a bye, nobody met anybody at this table: no opponents for the tie-breaks.
    assert all(r.buchholz == 0 for r in (n, e, s, w))
    assert not [f for f in run_check(store).findings if f.level == "error"]
    change = store.db.execute("SELECT data FROM changes WHERE kind = 'result_entered'").fetchall()
    assert json.loads(change[-1][0])["forfeit_players"] == [by_seat["N"]]


def test_a_forfeit_by_player_is_refused_clearly(rotating_event, pairs_event) -> None:
    store = rotating_event
    table, other = store.tables(1)[0], store.tables(1)[1]
    names = {p.id: p.name for p in store.players()}
    with pytest.raises(ResultRefused, match="does not sit at round 1 table 1"):
        enter_player_forfeit(store, table.number, (names[other.players[0]],))
    with pytest.raises(UnknownPlayer, match="no player named"):  # a name mistyped: unusable input, exit 2
        enter_player_forfeit(store, table.number, ("Nobody",))
    with pytest.raises(ResultRefused, match="every player"):
        enter_player_forfeit(store, table.number, tuple(names[p] for p in table.players))
    with pytest.raises(UnusableInput, match="named twice"):  # a usage error: exit 2, as --forfeit twice
        enter_player_forfeit(store, table.number, (names[table.players[0]], f"#{table.players[0]}"))
    enter_record(store, play_table(store, table), "game.json")
    with pytest.raises(ResultRefused, match="recorded game"):
        enter_player_forfeit(store, table.number, (names[table.players[0]],), replace=True)
    with pytest.raises(ResultRefused, match="side that did not play"):
        enter_player_forfeit(pairs_event, 1, ("Ana",))
    assert store.results().keys() == {table.id}


def test_an_individual_forfeit_by_player(tmp_path: Path) -> None:
    if "castle-rock" not in games.available():
        pytest.skip("castle-rock is not available")
    store = create_event(tmp_path / "ind.db", make_settings("Ind", "castle-rock", "individual", 4, seed=2))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    table = store.tables(1)[0]
    gone = table.seats[2].player
    entry = enter_player_forfeit(store, 1, (f"#{gone}",))
    assert entry.scores[table.seats[2].seat] == 0 and entry.winner is None
    rows = {r.unit: r for r in current_standings(store).rows}
    points = store.settings.placement  # 3, 2, 1, 0 at a table of four
    assert rows[gone].placement == points[-1] and rows[gone].score == 0 and rows[gone].firsts == 0
    for p in table.players:
        if p != gone:
            assert rows[p].placement == points[0] and rows[p].score == store.settings.forfeit_score
            assert rows[p].firsts == 1
    assert not [f for f in run_check(store).findings if f.level == "error"]
    store.close()


def test_forfeits_and_manual_scores_are_not_rated(rotating_event) -> None:
    store = rotating_event
    pair_tables = store.tables(1)
    enter_record(store, play_table(store, pair_tables[0]), "game.json")
    enter_manual(store, pair_tables[1].number, {"NS": 120, "EW": 200})
    assert [g["table_id"] for g in event_games(store)] == [pair_tables[0].id]
    enter_manual(store, pair_tables[0].number, {"NS": 1, "EW": 2}, replace=True)
    assert list(event_games(store)) == []


def test_the_result_command_takes_absent_players(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    names = {p.id: p.name for p in store.players()}
    path = store.path
    store.close()
    done = runner.invoke(app, ["result", str(path), "--table", "1", "--absent", names[table.players[0]],
                               "--absent", names[table.players[1]]])
    assert done.exit_code == 0, done.output
    assert f"{names[table.players[0]]}, {names[table.players[1]]} did not play" in done.stdout
    done = runner.invoke(app, ["result", str(path), "--table", "1", "--absent", "Nobody", "--replace"])
    assert done.exit_code != 0
    assert done.exception is None or isinstance(done.exception, SystemExit)
    assert "no player named" in done.output and "Traceback" not in done.output


def test_the_exports_tables_csv_gives_each_seat_its_own_game_of_a_forfeit_by_player(rotating_event,
                                                                                    tmp_path: Path) -> None:
    # The absent player's row says 0, each player who came (the partner too) the forfeit score,
    # all "forfeit", no winning side named: as the standings count them, never the side's score.
    store = rotating_event
    table = store.tables(1)[0]
    by_seat = {s.seat: s.player for s in table.seats}
    names = {p.id: p.name for p in store.players()}
    enter_player_forfeit(store, table.number, (names[by_seat["N"]],))
    path = store.path
    store.close()
    done = runner.invoke(app, ["export", str(path), "-o", str(tmp_path / "csv"), "--csv"])
    assert done.exit_code == 0, done.output
    import csv
    with (tmp_path / "csv" / "tables.csv").open(encoding="utf-8") as f:
        rows = [r for r in csv.DictReader(f) if r["round"] == "1" and r["table"] == str(table.number)]
    got = {r["seat"]: (r["score"], r["winner"], r["result"]) for r in rows}
    assert got == {"N": ("0", "", "forfeit"), "E": ("200", "", "forfeit"), "S": ("200", "", "forfeit"),
                   "W": ("200", "", "forfeit")}, got

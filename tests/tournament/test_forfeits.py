"""Forfeits by player in individual and rotating events (issue #25, point 4): the absent player
takes the loss, the players who came win by the event's forfeit score as with a bye; forfeits
and manual scores are not rated."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import games
from tournament import add_players, create_event, enter_manual, enter_record, make_settings, open_event, \
    pair_next_round, run_check
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
    with pytest.raises(UnusableInput, match="side that did not play"):  # an option of other events: exit 2
        enter_player_forfeit(pairs_event, 1, ("Ana",))
    assert store.results().keys() == {table.id}


def _castle_rock_table(tmp_path: Path):
    """An individual Castle Rock event of four, round 1 paired: its store and its one table."""
    if "castle-rock" not in games.available():
        pytest.skip("castle-rock is not available")
    store = create_event(tmp_path / "ind.db", make_settings("Ind", "castle-rock", "individual", 4, seed=2))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    return store, store.tables(1)[0]


def test_an_individual_forfeit_by_player(tmp_path: Path) -> None:
    store, table = _castle_rock_table(tmp_path)
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


def _result(path: Path, *args: str):
    return runner.invoke(app, ["result", str(path), "--table", "1", *args])


def _won(path: Path) -> dict[int, tuple[int, int]]:
    with open_event(path) as store:
        return {r.unit: (r.won, r.points_for) for r in current_standings(store).rows}


@pytest.mark.parametrize("first", ["side", "player"])
def test_a_side_forfeit_and_a_player_forfeit_are_different_results(rotating_event, first: str) -> None:
    # Both store NS 200, EW 0 when W does not come; the side's forfeit makes W's partner E lose, the
    # player's makes E win.  Switching was "already stored; nothing changed", even with --replace.
    store = rotating_event
    table = store.tables(1)[0]
    by_seat = {s.seat: s.player for s in table.seats}
    names = {p.id: p.name for p in store.players()}
    path = store.path
    store.close()
    side, player = ["--forfeit", "EW"], ["--absent", names[by_seat["W"]]]
    old, new = (side, player) if first == "side" else (player, side)
    old_how, new_how = (f"forfeit: {'EW' if old is side else names[by_seat['W']]} did not play",
                        f"forfeit: {'EW' if new is side else names[by_seat['W']]} did not play")
    done = _result(path, *old)
    assert done.exit_code == 0 and "— stored" in done.stdout, done.output
    before = _won(path)
    assert before[by_seat["E"]] == ((0, 0) if old is side else (1, 200))
    done = _result(path, *new)
    assert done.exit_code == 1, done.output
    assert f"round 1 table 1 already has a result (NS 200, EW 0, {old_how}); give --replace" in done.stderr
    assert "already stored" not in done.output and _won(path) == before
    done = _result(path, *new, "--replace")
    assert done.exit_code == 0 and f"({new_how}) — replaced" in done.stdout, done.output
    after = _won(path)
    assert after[by_seat["E"]] == ((0, 0) if new is side else (1, 200))
    assert after[by_seat["W"]] == (0, 0) and after[by_seat["N"]] == (1, 200)
    # The same forfeit again changes nothing; the trail says which forfeit each was.
    done = _result(path, *new)
    assert done.exit_code == 0 and f"({new_how}) — already stored; nothing changed" in done.stdout, done.output
    done = runner.invoke(app, ["history", str(path)])
    assert f"({old_how}) → NS 200, EW 0; winner NS ({new_how})" in done.stdout, done.output


def test_an_individual_tables_side_forfeit_and_player_forfeit_are_different_results(tmp_path: Path) -> None:
    store, table = _castle_rock_table(tmp_path)
    seat = table.seats[1]
    path = store.path
    store.close()
    for old, new in ((["--forfeit", seat.side], ["--absent", f"#{seat.player}"]),
                     (["--absent", f"#{seat.player}"], ["--forfeit", seat.side])):
        done = _result(path, *old, "--replace")
        assert done.exit_code == 0, done.output
        with open_event(path) as store:
            before = {r.unit: r.placement for r in current_standings(store).rows}
        done = _result(path, *new)
        assert done.exit_code == 1 and "already has a result" in done.stderr, done.output
        done = _result(path, *new, "--replace")
        assert done.exit_code == 0 and "— replaced" in done.stdout, done.output
        with open_event(path) as store:
            after = {r.unit: r.placement for r in current_standings(store).rows}
            points = store.settings.placement
        # A player's forfeit: each who came takes first place's points; a side's: they share the places.
        came = [p for p in table.players if p != seat.player]
        player_way, side_way = (after, before) if new[0] == "--absent" else (before, after)
        assert all(player_way[p] == points[0] for p in came)
        assert sorted(side_way[p] for p in came) != [points[0]] * len(came)
        assert player_way[seat.player] == side_way[seat.player] == points[-1]

"""A duplicate pairs event's movement choices at ``tournament new``: the skip Mitchell for an even
number of tables (``--movement mitchell-skip``) and a curtailed session (``--rounds N``), chosen,
stored, shown, followed by every round, the standings and ``check``, and refused in one line (exit
2) where they make no sense: a Howell with a skip, a skip at an odd number of tables, rounds out of
the movement's range for the tables there are."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import attrs
import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.pairing import movements as mv
from tournament.settings import Settings, make_settings

from tests.tournament.test_duplicate_event import check_standings, play_session
from tests.tournament.test_matchpoints import rescored

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    return result.output


def refused(*args: object) -> str:
    """A refusal: exit 2, one line, no traceback."""
    out = run(*args, code=2).strip()
    assert len(out.splitlines()) == 1 and "Traceback" not in out, out
    return out


def new_event(path: Path, pairs: int, *choices: object) -> None:
    run("new", path, "--name", "Club night", "--game", "competitive", "--format", "duplicate", *choices)
    for i in range(1, pairs + 1):
        run("add", path, f"North {i}", f"South {i}", "--pair", f"Pair {i}")


def seated(event: Path) -> list[dict]:
    """Every round's tables as ``tables --json`` gives them."""
    out = []
    r = 1
    while True:
        got = runner.invoke(app, ["tables", str(event), "--round", str(r), "--json"])
        if got.exit_code:
            return out
        out.append(json.loads(got.output))
        r += 1


def assert_movement_kept(rounds: list[dict]) -> None:
    """Each pair plays each board at most once and never meets a pair twice."""
    boards: Counter = Counter()
    met: Counter = Counter()
    for doc in rounds:
        for row in doc["rows"]:
            met[frozenset((row["ns"], row["ew"]))] += 1
            for b in row["boards"]:
                boards[(row["ns"], b)] += 1
                boards[(row["ew"], b)] += 1
    assert max(boards.values()) == 1 and max(met.values()) == 1


def settings_json(event: Path) -> dict:
    with sqlite3.connect(event) as conn:
        return json.loads(conn.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])


def test_new_stores_and_shows_the_choices(tmp_path: Path) -> None:
    event = tmp_path / "e.db"
    said = run("new", event, "--name", "N", "--game", "competitive", "--format", "duplicate",
               "--movement", "mitchell-skip", "--rounds", 5)
    assert "mitchell-skip movement, curtailed to 5 rounds" in said
    assert "duplicate: mitchell-skip movement, curtailed to 5 rounds" in run("info", event)
    stored = settings_json(event)
    assert stored["movement"] == "mitchell" and stored["even"] == "skip" and stored["movement_rounds"] == 5
    plain = tmp_path / "plain.db"
    run("new", plain, "--name", "N", "--game", "competitive", "--format", "duplicate")
    # an event without the choices is stored as every event before them
    assert not {"even", "movement_rounds"} & set(settings_json(plain))
    assert "duplicate: mitchell movement, 2 boards" in run("info", plain)


def test_a_file_from_a_newer_tool_is_said_so(tmp_path: Path) -> None:
    event = tmp_path / "e.db"
    run("new", event, "--name", "N", "--game", "competitive", "--format", "duplicate")
    data = {**settings_json(event), "a_later_setting": 1}
    with sqlite3.connect(event) as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'settings'", (json.dumps(data),))
    out = refused("info", event)
    assert "'a_later_setting'" in out and "newer tournament tool" in out
    with pytest.raises(ValueError, match="newer tournament tool"):
        Settings.from_json(json.dumps(data))


def test_refusals_at_new(tmp_path: Path) -> None:
    base = ("new", tmp_path / "x.db", "--name", "N", "--game", "competitive", "--format", "duplicate")
    assert "a Howell has no skip" in refused(*base, "--movement", "howell-skip")
    assert "mitchell or howell (a Mitchell with the skip at an even number of tables: mitchell-skip)" in refused(*base, "--movement", "skip")
    assert "--rounds 0: a Mitchell has 1 to 30 rounds" in refused(*base, "--rounds", 0)
    assert "--rounds 60: a Howell has 1 to 59 rounds" in refused(*base, "--movement", "howell", "--rounds", 60)
    assert "a skip Mitchell has 1 to 29 rounds" in refused(*base, "--movement", "mitchell-skip", "--rounds", 30)
    assert not (tmp_path / "x.db").exists()
    # --rounds keeps its meaning for the other formats: a balanced schedule's length, else refused
    assert "balanced schedule" in refused("new", tmp_path / "p.db", "--name", "N", "--game", "competitive",
                                          "--format", "pairs", "--rounds", 3)


def test_refusals_when_the_tables_are_known(tmp_path: Path) -> None:
    odd = tmp_path / "odd.db"
    new_event(odd, 14, "--movement", "mitchell-skip")
    run("boards", odd, "--boards", 14, "--seed", 1)
    out = refused("pair", odd)
    assert "--movement mitchell-skip is for an even number of tables: 14 pairs play on 7 tables" in out
    assert "no round has been paired yet" in runner.invoke(app, ["tables", str(odd)]).output  # nothing seated
    long = tmp_path / "long.db"
    new_event(long, 26, "--rounds", 15)
    run("boards", long, "--boards", 26, "--seed", 1)
    out = refused("pair", long)
    assert "--rounds 15: a 13-table Mitchell (26 pairs) has 1 to 13 rounds, not 15" in out
    howell = tmp_path / "howell.db"
    new_event(howell, 8, "--movement", "howell", "--rounds", 8)
    run("boards", howell, "--boards", 14, "--seed", 1)
    assert "a 4-table Howell (8 pairs) has 1 to 7 rounds, not 8" in refused("pair", howell)


def test_a_skip_mitchell_of_eight_tables(tmp_path: Path) -> None:
    event = tmp_path / "skip.db"
    new_event(event, 16, "--movement", "mitchell-skip")
    run("boards", event, "--boards", 16, "--seed", 8)
    played = play_session(tmp_path, event)
    rounds = seated(event)
    assert len(rounds) == 7  # one round fewer than the relay's 8
    assert_movement_kept(rounds)
    assert len(played) == 8 * 7 * 2
    # after round 4 the EW pairs skip a table: pair 9 (EW, table 1 in round 1) is at table 4 in round 4, 6 in 5
    where = [next(row["table"] for row in doc["rows"] if row["ew"] == 9) for doc in rounds]
    assert where == [1, 2, 3, 4, 6, 7, 8]
    doc = check_standings(event, played)
    assert {r["boards"] for r in doc["pairs"]} == {14}
    assert "skip: after round 4 the EW pairs move up two tables" in run("tables", event, "--round", 7)
    run("check", event)
    assert json.loads(run("export", event, "-o", "-"))["event"]["finished"] is True
    export = json.loads(run("export", event, "-o", "-"))
    assert export["event"]["duplicate"]["even"] == "skip"


def test_a_curtailed_mitchell(tmp_path: Path) -> None:
    # 9 tables with time for 6 rounds (13 tables cut to 9 is the same movement cut shorter; the
    # movement itself is checked at every table count below, 13 tables cut to 9 among them)
    event = tmp_path / "cut.db"
    new_event(event, 18, "--rounds", 6)
    run("boards", event, "--boards", 18, "--seed", 13)
    played = play_session(tmp_path, event)
    rounds = seated(event)
    assert len(rounds) == 6
    assert_movement_kept(rounds)
    doc = check_standings(event, played)
    # each board is played at 6 tables, so its top is 10 (two for each of the 5 other pairs of a
    # direction), and a pair plays 12 boards (6 rounds of 2)
    per_board = Counter(r.board for r in played)
    assert set(per_board.values()) == {6}
    assert {r["boards"] for r in doc["pairs"]} == {12}
    assert {r["top"] for r in doc["pairs"]} == {12 * 10}
    assert "round 6 of 6 (curtailed: --rounds 6)" in run("tables", event, "--round", 6)
    run("check", event)
    export = json.loads(run("export", event, "-o", "-"))
    assert export["event"]["finished"] is True and export["event"]["duplicate"]["rounds"] == 6


def test_a_curtailed_howell(tmp_path: Path) -> None:
    event = tmp_path / "howell.db"
    new_event(event, 12, "--movement", "howell", "--rounds", 5)
    moving = mv.for_event(make_settings("H", "competitive", "duplicate", movement="howell", rounds=5), 12)
    run("boards", event, "--boards", max(moving.boards), "--seed", 7)
    played = play_session(tmp_path, event)
    rounds = seated(event)
    assert len(rounds) == 5
    assert_movement_kept(rounds)
    # scored over the tables that played each board (a curtailed Howell plays some at one table
    # only: no comparison, no top, said in too_few)
    doc = json.loads(run("standings", event, "--json"))
    got = {r["pair"]: [r["matchpoints"], r["top"], r["imps"]] for r in doc["pairs"]}
    assert got == dict(rescored(played))
    once = {b for b, n in Counter(r.board for r in played).items() if n == 1}
    assert {x["board"] for x in doc["too_few"]} == once
    run("check", event)
    assert json.loads(run("export", event, "-o", "-"))["event"]["finished"] is True


def test_a_skip_mitchell_with_a_sit_out_and_simulate(tmp_path: Path) -> None:
    # 15 pairs: 8 tables with a phantom, skip Mitchell of 7 rounds, one pair sitting out each round
    event = tmp_path / "sim.db"
    out = run("simulate", event, "--format", "duplicate", "--pairs", 15, "--movement", "mitchell-skip", "--seed", 4,
              "-q")
    assert "7 rounds" in out and "7 sit-outs" in out
    assert_movement_kept(seated(event))
    run("check", event)
    assert "odd number of tables" not in refused("simulate", tmp_path / "x.db", "--format", "duplicate",
                                                 "--tables", 7, "--movement", "mitchell-skip", "-q")


@pytest.mark.parametrize("kind", ["mitchell-skip", "mitchell", "howell"])
def test_every_table_count_and_length_keeps_the_promises(kind: str) -> None:
    base = make_settings("M", "competitive", "duplicate", movement=kind)
    for tables in range(3, 31):
        for odd in (False, True):
            pairs = 2 * tables - odd
            if kind == "mitchell-skip" and tables % 2:
                with pytest.raises(mv.MovementError, match="is for an even number of tables"):
                    mv.for_event(base, pairs)
                continue
            full = mv.full_rounds(base.movement, tables, base.even)
            for rounds in sorted({1, full // 2 or 1, max(full - 1, 1), full}):
                moving = mv.for_event(attrs.evolve(base, movement_rounds=rounds), pairs)
                assert moving.rounds == rounds
                boards: Counter = Counter()
                met: Counter = Counter()
                for s in moving.all_sittings():
                    met[frozenset((s.ns, s.ew))] += 1
                    boards.update((p, b) for p in (s.ns, s.ew) for b in s.boards)
                assert max(boards.values()) == 1 and max(met.values()) == 1
            if kind == "mitchell" and tables == 13 and not odd:  # a 13-table room with time for 9 rounds
                assert mv.for_event(attrs.evolve(base, movement_rounds=9), pairs).rounds == 9
            with pytest.raises(mv.MovementError, match=f"has 1 to {full} rounds, not {full + 1}"):
                mv.for_event(attrs.evolve(base, movement_rounds=full + 1), pairs)


def test_the_venue_follows_a_skip_mitchell(tmp_path: Path) -> None:
    """The phones at the tables are given the boards the skip Mitchell seats each round, and the
    director's page pairs its rounds, no more; a skip at an odd number of tables is refused there in
    the same line as at the command line."""
    testclient = pytest.importorskip("starlette.testclient")
    from tournament.event import duplicate
    from tournament.web.app import VenueServer

    event = tmp_path / "skip.db"
    new_event(event, 8, "--movement", "mitchell-skip")  # 4 tables: 3 rounds, the EW pairs skip before round 3
    run("boards", event, "--boards", 8, "--seed", 3)
    run("pair", event)
    server = VenueServer(event, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
        auth = {"Authorization": f"Bearer {director}"}
        for round_no in (1, 2, 3):
            seated_now = {t.table: t for t in server.call(duplicate.table_boards, server.venue.store, round_no)}
            for link in server.call(server.venue.links, "http://testserver")["tables"]:
                state = client.get(f"/api/v1/tables/{round_no}/{link['table']}",
                                   headers={"Authorization": f"Bearer {link['token']}"}).json()
                assert state["boards"] == list(seated_now[link["table"]].boards)
            # EW pair 5 starts at table 1 and moves up one, then two: tables 1, 2, 4
            assert next(t.table for t in seated_now.values() if t.ew == 5) == (1, 2, 4)[round_no - 1]
            for t in seated_now.values():
                for b in t.boards:
                    run("result", event, "--round", round_no, "--table", t.table, "--board", b, "--score",
                        "NS=20,EW=0")
            overview = client.get("/api/v1/director", headers=auth).json()
            assert overview["can_pair"] == (round_no < 3)
            if round_no < 3:
                assert client.post("/api/v1/director/pair", headers=auth, json={}).status_code == 200
    finally:
        server.close()
    run("check", event)

    odd = tmp_path / "odd.db"
    new_event(odd, 10, "--movement", "mitchell-skip")
    run("boards", odd, "--boards", 10, "--seed", 3)
    server = VenueServer(odd, base_url="http://testserver", rate=1e9, burst=10 ** 9)
    try:
        client = testclient.TestClient(server.asgi)
        director = server.call(server.venue.links, "http://testserver")["director"].rsplit("/", 1)[1]
        r = client.post("/api/v1/director/pair", headers={"Authorization": f"Bearer {director}"}, json={})
        assert 400 <= r.status_code < 500 and "Traceback" not in r.text
        assert "--movement mitchell-skip is for an even number of tables: 10 pairs play on 5 tables" in r.text
    finally:
        server.close()

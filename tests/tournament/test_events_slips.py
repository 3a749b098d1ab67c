"""A tester's team and duplicate events run from the docs at the command line: the slips found.

* The feed's ``/api/v1/standings`` of a team event led with the pairs' table as ``standings``,
  while ``standings --json`` leads with the teams' (the pairs under ``pairs``); the export too.
  The hall's own pages, which read the teams beside the pairs, show what they showed.
* ``standings --stage N`` of a team event said it was provisional but not which tables were missing.
* Duplicate teams refused to pair with "the event has boards 1 to 1".
* A report made mid-session said "too few tables (1), not scored" of each board played once so far.
* Ctrl-C just after ``tournament new`` made its file said "the last write was not made".
* ``tournament report -o dir/x.html`` left ``dir/`` behind when it failed or was interrupted.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domrec import console

from tournament import open_event
from tournament.event import feed

from tests.tournament.test_cli import run

starlette_testclient = pytest.importorskip("starlette.testclient")


def _team_event(tmp_path: Path) -> Path:
    """The tester's team event: four teams of two pairs, round 1 paired, one table's result in."""
    path = tmp_path / "t.db"
    rows = ["name,team,pair"] + [f"{t}{i},{t},{(i + 1) // 2}" for t in ("Alfa", "Beta", "Gama", "Delta")
                                 for i in range(1, 5)]
    (tmp_path / "eq.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert run("new", path, "--name", "T", "--game", "competitive", "--format", "teams", "--team-size", "4",
               "--seed", "5").exit_code == 0
    assert run("add", path, "--csv", tmp_path / "eq.csv").exit_code == 0
    assert run("pair", path).exit_code == 0
    assert run("result", path, "--table", "1", "--score", "NS=200,EW=150").exit_code == 0
    return path


# --- 1. the feed of a team event leads with the teams -------------------------------------------


def test_the_feed_of_a_team_event_leads_with_the_teams_as_the_command_line_does(tmp_path: Path) -> None:
    from tests.tournament.test_venue import _server

    path = _team_event(tmp_path)
    cli = json.loads(run("standings", path, "--json").stdout)
    server = _server(path)
    try:
        served = starlette_testclient.TestClient(server.asgi).get("/api/v1/standings").json()
        page = starlette_testclient.TestClient(server.asgi).get("/standings").text
    finally:
        server.close()
    for key in ("format", "by", "tiebreaks", "ranked_by", "through_round", "provisional", "missing", "standings",
                "teams", "pairs", "players"):
        assert served[key] == cli[key], key
    assert [r["team"] for r in served["standings"]] == ["Gama", "Alfa", "Delta", "Beta"]
    assert all(set(row) == {c["key"] for c in served["columns"]} for row in served["standings"])
    assert sorted((c["order"], c["key"]) for c in served["columns"] if c["ranks"]) == [(1, "games_won"),
                                                                                       (2, "efectividad")]
    assert all(c["about"] for c in served["columns"] if c["ranks"])
    # The pairs are under `pairs`, with what ranks them.
    assert len(served["pairs"]) == 8 and served["pair_tiebreaks"] == ["wins", "diff", "for"]
    assert served["team_tiebreaks"] == ["games", "efectividad"]
    # The export writes what the feed serves.
    assert run("export", path, "-o", tmp_path / "x.json").exit_code == 0
    exported = json.loads((tmp_path / "x.json").read_text(encoding="utf-8"))["standings"]
    assert {k: v for k, v in exported.items() if k != "players"} == \
        {k: v for k, v in served.items() if k != "players"}
    # The hall's own standings page still shows the teams first (it reads the teams beside the pairs).
    assert page.index("Gama") < page.index("Gama 1") and "Beta" in page
    # Any other event's feed is as it was: its own rows as `standings`.
    with open_event(path) as store:
        internal = feed.standings(store, withhold=True)
    assert internal["standings"][0].get("team") is None and "pair_tiebreaks" not in internal


# --- 2. standings --stage of a team event says which tables are missing -----------------------------


def test_a_team_events_stage_standings_say_which_tables_are_missing(tmp_path: Path) -> None:
    path = _team_event(tmp_path)
    plain = run("standings", path).stdout
    staged = run("standings", path, "--stage", "1")
    assert staged.exit_code == 0
    line = "PROVISIONAL — results still missing (round 1: 3 tables missing)"
    assert line in plain and line in staged.stdout
    assert json.loads(run("standings", path, "--stage", "1", "--json").stdout)["missing"] == {"1": 3}
    spanish = run("standings", path, "--stage", "1", "--lang", "es").stdout
    assert "Provisional: faltan resultados (ronda 1: 3)" in spanish
    assert "ordenada por partidas ganadas, luego efectividad" in spanish


# --- 3. one board is "board 1" ---------------------------------------------------------------------


def test_duplicate_teams_with_one_board_dealt_say_board_1(tmp_path: Path) -> None:
    from domrec import phrases

    from tournament import i18n
    from tournament.web.app import PHRASES

    path = tmp_path / "d.db"
    rows = ["name,team,pair"] + [f"{t}{i},{t},{(i + 1) // 2}" for t in ("Alfa", "Beta") for i in range(1, 5)]
    (tmp_path / "eq.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert run("new", path, "--name", "D", "--game", "competitive", "--format", "teams", "--team-size", "4",
               "--duplicate", "--seed", "5").exit_code == 0
    assert run("add", path, "--csv", tmp_path / "eq.csv").exit_code == 0
    assert run("boards", path, "--boards", "1", "--seed", "2").exit_code == 0
    r = run("pair", path)
    assert r.exit_code != 0
    said = r.stderr.strip()
    assert said == (f"error: round 1 plays boards 1 to 2; the event has board 1 (deal them before round 1: "
                    f"tournament boards {path} --boards 2 or more)"), said
    r = run("boards", path, "--boards", "2", "--seed", "2")
    assert "the event already has board 1: --replace" in r.stderr and "1 to 1" not in r.stderr
    # In Spanish, as the director's page says a refusal.
    text = said.removeprefix("error: ").replace(str(path), "EVENT")
    assert phrases.translate(text, "es", PHRASES, i18n.FOLDERS) == (
        "la ronda 1 juega los tableros 1 a 2; el torneo tiene el tablero 1 (repártalos antes de la ronda 1: "
        "tournament boards EVENTO --boards 2 o más)")


# --- 4. a board played once so far is not "too few tables" ------------------------------------------


def _duplicate_mid_session(tmp_path: Path) -> Path:
    """A Mitchell of eight pairs, round 1 seated: board 1 played at its two tables, board 3 at one."""
    path = tmp_path / "p.db"
    (tmp_path / "p.csv").write_text("name,partner\n" + "".join(f"A{i},B{i}\n" for i in range(1, 9)),
                                    encoding="utf-8")
    assert run("new", path, "--name", "P", "--game", "competitive", "--format", "duplicate",
               "--seed", "5").exit_code == 0
    assert run("add", path, "--csv", tmp_path / "p.csv").exit_code == 0
    assert run("boards", path, "--boards", "16", "--seed", "3").exit_code == 0
    assert run("pair", path).exit_code == 0
    for table, board, ns in ((2, 3, 100), (1, 1, 100), (4, 1, 80)):
        assert run("result", path, "--round", "1", "--table", str(table), "--board", str(board), "--score",
                   f"NS={ns},EW=0").exit_code == 0
    return path


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_mid_session_report_says_a_board_played_once_is_not_scored_yet(tmp_path: Path, lang: str) -> None:
    path = _duplicate_mid_session(tmp_path)
    assert run("report", path, "-o", tmp_path / "r.html", "--no-replays", "--lang", lang).exit_code == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "too few tables (1)" not in page and "demasiado pocas mesas (1)" not in page
    # Under the standings once for all such boards, and in board 3's traveller (its hand record).
    if lang == "en":
        assert ("Not scored yet: board 3, played at too few tables so far; it is scored once more tables have "
                "played it.") in page
        assert '<td colspan="2">not scored yet</td>' in page and "too few tables</td>" not in page
    else:
        assert ("Sin puntuar todavía: el tablero 3, jugado hasta ahora en demasiado pocas mesas; se puntúa cuando "
                "lo hayan jugado más mesas.") in page
        assert '<td colspan="2">sin puntuar todavía</td>' in page and "demasiado pocas mesas</td>" not in page
    doc = json.loads(run("standings", path, "--json").stdout)
    assert {(f["board"], f["complete"]) for f in doc["too_few"]} == {(3, False)}


def test_a_board_short_of_tables_for_good_is_still_said_on_its_own(tmp_path: Path) -> None:
    """After the session (every table due to play board 3 has, or is marked not to), it is short
    of tables for good: said as before, a line a direction, and no "not scored yet"."""
    from tournament.event import duplicate

    path = _duplicate_mid_session(tmp_path)
    entered = {(1, 2, 3), (1, 1, 1), (1, 4, 1)}
    for number in range(1, 5):
        if number > 1:
            assert run("pair", path).exit_code == 0
        with open_event(path) as store:
            seated = duplicate.table_boards(store, number)
        for t in seated:
            for board in t.boards:
                if (number, t.table, board) in entered:
                    continue
                how = (["--not-played", "--reason", "slow play"] if board == 3 else
                       ["--score", f"NS={10 * t.table + board},EW=0"])
                r = run("result", path, "--round", str(number), "--table", str(t.table), "--board", str(board), *how)
                assert r.exit_code == 0, r.output
    assert run("report", path, "-o", tmp_path / "r.html", "--no-replays").exit_code == 0
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "Board 3 NS: too few tables (1), not scored." in page and "Not scored yet" not in page
    assert '<td colspan="2">too few tables</td>' in page and "not scored yet" not in page
    doc = json.loads(run("standings", path, "--json").stdout)
    assert {(f["board"], f["complete"]) for f in doc["too_few"]} == {(3, True)}


# --- 5. Ctrl-C just after `tournament new` ----------------------------------------------------------


def test_ctrl_c_once_new_has_made_its_file_says_the_event_was_made(tmp_path: Path, monkeypatch) -> None:
    from tournament.store.event_store import EventStore

    path = tmp_path / "n.db"
    closing = EventStore.close

    def interrupted(self):
        closing(self)
        raise KeyboardInterrupt

    monkeypatch.setattr(EventStore, "close", interrupted)
    r = run("new", path, "--name", "N", "--game", "competitive", "--format", "pairs")
    monkeypatch.undo()
    assert r.exit_code == 2
    assert r.stderr == (f"error: interrupted after the write was made: {path} is made, a complete event "
                        f"(tournament add {path} enters its players)\n"), r.stderr
    assert run("info", path).exit_code == 0


def test_ctrl_c_in_the_last_steps_of_making_the_file_says_the_event_was_made(tmp_path: Path, monkeypatch) -> None:
    """The file is linked under its name, whole; Ctrl-C as it is opened to refresh its snapshot."""
    from tournament.store import files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(files, "open_store", interrupted)
    path = tmp_path / "n.db"
    r = run("new", path, "--name", "N", "--game", "competitive", "--format", "pairs")
    monkeypatch.undo()
    assert r.exit_code == 2
    assert r.stderr.startswith(f"error: interrupted after the write was made: {path} is made, a complete event"), \
        r.stderr
    assert run("info", path).exit_code == 0


def test_ctrl_c_as_the_command_line_closes_after_new_says_the_event_was_made(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    assert run("new", path, "--name", "N", "--game", "competitive", "--format", "pairs").exit_code == 0
    # What a Ctrl-C landing after the command's last line says (the entry point asks this).
    assert console.interrupted_line() == (f"error: interrupted after the write was made: {path} is made, a "
                                          f"complete event (tournament add {path} enters its players)")


def test_ctrl_c_before_new_has_made_its_file_says_nothing_was_written(tmp_path: Path, monkeypatch) -> None:
    from tournament.store import files

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "link", interrupted)
    path = tmp_path / "n.db"
    r = run("new", path, "--name", "N", "--game", "competitive", "--format", "pairs")
    monkeypatch.undo()
    assert r.exit_code == 2
    assert r.stderr == f"error: interrupted; {path} was not made: nothing was written\n", r.stderr
    assert list(tmp_path.iterdir()) == []


# --- 6. a folder the report made is taken away when it writes nothing ----------------------------


@pytest.mark.parametrize("how", ["interrupted", "failed"])
def test_a_report_that_writes_nothing_takes_away_the_folder_it_made(tmp_path: Path, monkeypatch, how: str) -> None:
    from tournament.errors import UnusableInput
    from tournament.pages import report as rp

    path = _team_event(tmp_path)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt if how == "interrupted" else UnusableInput("cannot write the page")

    monkeypatch.setattr(rp, "html_page", stopped)
    r = run("report", path, "-o", tmp_path / "out" / "x.html", "--no-replays")
    assert r.exit_code == 2, r.output
    assert not (tmp_path / "out").exists()
    # A folder that was there before is left, as it was.
    (tmp_path / "kept").mkdir()
    r = run("report", path, "-o", tmp_path / "kept" / "x.html", "--no-replays")
    assert r.exit_code == 2 and (tmp_path / "kept").is_dir() and list((tmp_path / "kept").iterdir()) == []
    monkeypatch.undo()
    assert run("report", path, "-o", tmp_path / "out" / "x.html", "--no-replays").exit_code == 0
    assert (tmp_path / "out" / "x.html").is_file()


def test_an_export_that_writes_nothing_takes_away_the_folder_it_made(tmp_path: Path, monkeypatch) -> None:
    from tournament.pages import report as rp

    path = _team_event(tmp_path)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(rp, "export_json", stopped)
    r = run("export", path, "-o", tmp_path / "out" / "x.json")
    assert r.exit_code == 2 and not (tmp_path / "out").exists()

"""Reports: the HTML page (content, escaping, self-contained, phone-sized), CSV and JSON exports,
the bracket on the terminal, and ratings across events (openskill) imported idempotently."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_pairs, create_event, enter_manual, make_settings, open_event
from tournament.event import ratings as rt, stages
from tournament.cli import app
from tournament.event.simulate import play_stage, simulate_event

runner = CliRunner()
EVIL = '<script>alert("x")</script> O\'Neil & "Bo"'


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


@pytest.fixture
def knockout_event(tmp_path: Path) -> Path:
    path = tmp_path / "cup.db"
    store = create_event(path, make_settings("Cup <b>final</b>", "competitive", "pairs", seed=3))
    add_pairs(store, [(EVIL, "Partner", "Los <i>Primos</i>")] + [(f"A{i}", f"B{i}", None) for i in range(2, 6)])
    stages.create_stage(store, "double", "random")
    play_stage(store, seed=2)
    store.close()
    return path


def test_html_report_content(knockout_event: Path, tmp_path: Path) -> None:
    out = tmp_path / "cup.html"
    r = run("report", knockout_event, "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    # Names are data, never markup.
    assert "<script" not in page.lower() and "<b>final" not in page and "<i>Primos" not in page
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; O&#39;Neil &amp; &#34;Bo&#34;" in page
    assert "Los &lt;i&gt;Primos&lt;/i&gt;" in page
    # Self-contained: no scripts, no fetches, inline CSS.
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert "<link" not in page and "@import" not in page and "<style>" in page
    # Standings, the bracket, every round and every table.
    store = open_event(knockout_event)
    stage = stages.current(store)
    state = stages.state_of(store, stage)
    names = stages.unit_names(store)
    assert "Standings after round" in page and "Champion" in page
    from markupsafe import escape  # the templates escape as Jinja2 does (&#39; &#34;)
    assert escape(names[state.champion]) in page
    for m in state.matches:
        assert f">{m.match.key} · {m.status}<" in page
    for r in store.rounds():
        assert f"<h3>Round {r.number}" in page
    for label in ("winners&#39; round 1", "losers&#39; final", "grand final"):
        assert label in page
    for p in store.players():
        assert escape(p.name) in page
    # Phone-sized: wide tables scroll in their own box, nothing fixed wider than a phone.
    assert "overflow-x:auto" in page and "max-width:600px" in page
    assert not re.search(r"width:\s*[4-9]\d\dpx|width:\s*\d{4,}px", page.replace("max-width:600px", ""))
    store.close()


def test_exports(knockout_event: Path, tmp_path: Path) -> None:
    assert run("export", knockout_event, "-o", tmp_path / "cup.json").exit_code == 0
    data = json.loads((tmp_path / "cup.json").read_text(encoding="utf-8"))
    assert {"event", "players", "standings", "rounds", "stages"} <= set(data)
    assert any(p["name"] == EVIL for p in data["players"])
    stage = data["stages"][0]
    assert stage["format"] == "double" and stage["champion"] and stage["placings"][0]["place"] == 1
    r = run("export", knockout_event, "-o", tmp_path / "csv", "--csv")
    assert r.exit_code == 0, r.output
    with (tmp_path / "csv" / "tables.csv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    played = sum(len(r["tables"]) for r in data["rounds"])
    assert len(rows) == 4 * played and {row["name"] for row in rows} >= {EVIL}
    with (tmp_path / "csv" / "matches.csv").open(encoding="utf-8") as f:
        matches = list(csv.DictReader(f))
    assert len(matches) == len(stage["matches"])
    assert run("export", knockout_event, "-o", tmp_path / "cup.json", "--csv").exit_code == 2


def test_bracket_command_and_manual_match_entry(tmp_path: Path) -> None:
    path = tmp_path / "ko.db"
    store = create_event(path, make_settings("KO", "competitive", "pairs", seed=1))
    add_pairs(store, [(f"A{i}", f"B{i}", f"Pair {i}") for i in range(1, 6)])
    store.close()
    r = run("knockout", path, "--format", "single", "--seeding", "list",
            "--seeds", "Pair 1,Pair 2,Pair 3,Pair 4,Pair 5")
    assert r.exit_code == 0, r.output
    assert "R1-1" in r.output and "bye" in r.output
    r = run("result", path, "--match", "R2-1", "--score", "NS=1,EW=0")
    assert r.exit_code == 1 and "not due yet" in r.output
    r = run("result", path, "--match", "R1-1", "--score", "NS=1,EW=0")
    assert r.exit_code == 1 and "bye" in r.output
    r = run("result", path, "--match", "R1-2", "--score", "NS=100,EW=20")
    assert r.exit_code == 0, r.output
    r = run("bracket", path)
    assert r.exit_code == 0 and "won by Pair 4" in r.output and "R2-1" in r.output
    r = run("pair", path)
    assert r.exit_code == 1 and "Swiss rounds cannot be paired" in r.output
    assert run("bracket", path, "--stage", "9").exit_code == 2
    assert run("knockout", path, "--format", "nope").exit_code == 2
    r = run("bracket", path, "--json")
    assert json.loads(r.output)["format"] == "single"


def test_ratings_across_events_count_each_event_once(tmp_path: Path) -> None:
    for i in (1, 2):
        simulate_event(tmp_path / f"e{i}.db", "competitive", "pairs", 8, 2, seed=i)
    book = tmp_path / "ratings.db"
    r = run("ratings", book, "--add", tmp_path / "e1.db", "--json")
    assert r.exit_code == 0, r.output
    first = json.loads(r.stdout)
    assert first["events"][0]["games"] == 4 and len(first["ratings"]) == 8
    again = json.loads(run("ratings", book, "--add", tmp_path / "e1.db", "--json").stdout)
    assert again["ratings"] == first["ratings"], "the same event twice counts once"
    both = json.loads(run("ratings", book, "--add", tmp_path / "e2.db", "--add", tmp_path / "e1.db",
                          "--json").stdout)
    assert [e["games"] for e in both["events"]] == [4, 4]
    by_name = {x["name"]: x for x in both["ratings"]}
    assert all(x["games"] == 4 and x["events"] == 2 for x in by_name.values())
    assert all(x["sigma"] < 25 / 3 for x in by_name.values()), "uncertainty falls with games"
    ordinals = [x["rating"] for x in both["ratings"]]
    assert ordinals == sorted(ordinals, reverse=True)
    listed = run("ratings", book)
    assert listed.exit_code == 0 and "sigma" in listed.output
    # An event file is not a ratings file, and the other way round.
    assert run("ratings", tmp_path / "e1.db").exit_code == 2
    assert run("standings", book).exit_code == 2
    assert run("ratings", tmp_path / "none.db").exit_code == 2


def test_a_duplicate_event_added_to_ratings_says_why_nothing_is_imported(tmp_path: Path) -> None:
    """``ratings --add`` of a duplicate event said "0 games added" and nothing more: its boards are
    single hands scored against the field, not games, which it now says; the file stays empty."""
    event = tmp_path / "dup.db"
    r = run("simulate", event, "--format", "duplicate", "--tables", 3, "--seed", 1)
    assert r.exit_code == 0, r.output
    book = tmp_path / "ratings.db"
    r = run("ratings", book, "--add", event)
    assert r.exit_code == 0, r.output
    assert ("nothing imported: a duplicate event's boards are single hands scored against the field, not games "
            "between the players at a table; ratings rate whole games") in r.output
    assert json.loads(run("ratings", book, "--json").stdout)["ratings"] == []


def test_ratings_follow_results() -> None:
    """The winner of every game gains on the loser; a free-for-all table ranks by placement."""
    games = [("e", [["a", "b"], ["c", "d"]], [0.0, 1.0])] * 5
    table = {r.name: r for r in rt.rate(games)}
    assert table["a"].mu > table["c"].mu and table["a"].games == 5
    assert rt.side_ranks({"P1": 10, "P2": 30, "P3": 30}, None, ["P1", "P2", "P3"]) == [1.0, 0.0, 0.0]
    assert rt.side_ranks({"P1": 10, "P2": 30, "P3": 30}, "P3", ["P1", "P2", "P3"]) == [2.0, 1.0, 0.0]
    assert rt.side_ranks({"NS": 5, "EW": 5}, None, ["NS", "EW"]) == [0.0, 0.0]


def test_ratings_update_a_replaced_result(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("E", "competitive", "pairs"))
    add_pairs(store, [("a", "b", None), ("c", "d", None)])
    stages.create_stage(store, "single", "list", ["a & b", "c & d"])
    from tournament import enter_record
    from tests.tournament.conftest import play_table

    table = store.tables()[0]
    first = enter_record(store, play_table(store, table, seed=0), "game.json")
    book = rt.open_ratings(tmp_path / "r.db")
    assert book.import_event(store, "ev").added == 1
    # Another game of the table that the other side won: the rated game is updated.
    seed = next(n for n in range(1, 200) if _winner_of(store, table, n) not in (None, first.winner))
    enter_record(store, play_table(store, table, seed=seed), "again.json", replace=True)
    imported = book.import_event(store, "ev")
    assert (imported.added, imported.updated) == (0, 1)
    ratings = {r.name: r for r in book.ratings()}
    won = "c" if first.winner == "NS" else "a"  # the second game went the other way
    assert ratings[won].mu > ratings["a" if won == "c" else "c"].mu
    # A manual score is not rated: replacing the record by one takes the game out of the file.
    enter_manual(store, 1, {"NS": 0, "EW": 10}, replace=True, round_no=table.round)
    imported = book.import_event(store, "ev")
    assert (imported.added, imported.updated) == (0, 1) and book.ratings() == []
    book.close()
    store.close()


def _winner_of(store, table, seed: int) -> str | None:
    from domrec.validate import validate_text
    from tests.tournament.conftest import play_table

    return validate_text(play_table(store, table, seed=seed), "x").winner


def test_simulate_command_runs_new_formats(tmp_path: Path) -> None:
    r = run("simulate", tmp_path / "a.db", "--format", "pairs", "--players", "12", "--rounds", "0",
            "--stage", "double", "-q")
    assert r.exit_code == 0, r.output
    r = run("simulate", tmp_path / "b.db", "--game", "castle-rock", "--format", "individual", "--table-size", "4",
            "--players", "13", "--rounds", "1", "--stage", "multi", "-q")
    assert r.exit_code == 0, r.output
    r = run("simulate", tmp_path / "c.db", "--format", "pairs", "--players", "16", "--rounds", "0",
            "--stage", "groups", "--groups", "2", "-q")
    assert r.exit_code == 0, r.output
    assert run("check", tmp_path / "c.db").exit_code == 0
    assert run("simulate", tmp_path / "d.db", "--format", "rotating", "--stage", "single", "-q").exit_code == 2


def test_a_side_named_bye_is_not_shown_as_a_bye(tmp_path: Path) -> None:
    """Names are data: a pair called "bye" is a pair, and a real bye is marked as one, by flag."""
    from tournament.pages import report as rp
    store = create_event(tmp_path / "k.db", make_settings("K", "competitive", "pairs", seed=1))
    add_pairs(store, [("A", "B", "bye"), ("C", "D", "Real"), ("E", "F", "Third")])
    stages.create_stage(store, "single", "list", ["bye", "Real", "Third"])
    data = rp.event_data(store)
    store.close()
    matches = {m["key"]: m for m in data["stages"][0]["matches"]}
    assert matches["R1-1"]["sides"] == ["bye", "bye"] and matches["R1-1"]["byes"] == [False, True]
    assert matches["R2-1"]["byes"] == [False, False]
    page = rp.html_page(data)
    r1 = re.search(r'<span class="key">R1-1 .*?</div></div>', page).group(0)
    assert r1.count('class="bye"') == 1 and '<div class="">bye</div>' in r1
    r2 = re.search(r'<span class="key">R2-1 .*?</div></div>', page).group(0)
    assert '<div class="">bye</div>' in r2


@pytest.mark.parametrize("command", [["report"], ["export"]])
def test_report_or_export_never_overwrites_an_event_or_ratings_file(knockout_event: Path, tmp_path: Path,
                                                                       command: list[str]) -> None:
    """`-o` naming the event file itself (or another event, or a ratings file) would replace a database
    full of results with a page: refused, and the file is left as it was (the event read, not even
    with --force)."""
    other = tmp_path / "other.db"
    create_event(other, make_settings("Other", "competitive", "pairs")).close()
    assert run("ratings", tmp_path / "ratings.db", "--add", knockout_event).exit_code == 0
    for target in (knockout_event, other, tmp_path / "ratings.db"):
        before = target.read_bytes()
        r = run(*command, knockout_event, "-o", target)
        said = "is the file this command reads" if target == knockout_event else "SQLite"
        assert r.exit_code == 2 and said in r.stderr, r.output
        assert target.read_bytes() == before
    wal = tmp_path / "league.db-wal"  # another event's log, while that event is open elsewhere
    wal.write_bytes(b"pretend")
    r = run(*command, knockout_event, "-o", wal)
    assert r.exit_code == 2 and wal.read_bytes() == b"pretend"
    assert open_event(knockout_event).players()


def test_ratings_file_is_never_made_through_a_link_or_into_a_fifo(tmp_path: Path) -> None:
    """A dangling link is not followed (the file it names may be anyone's), a FIFO is not opened,
    and a failed creation leaves no scratch file behind."""
    import os

    simulate_event(tmp_path / "e1.db", "competitive", "pairs", 8, 1, seed=1)
    elsewhere = tmp_path / "elsewhere.db"
    link = tmp_path / "ratings.db"
    link.symlink_to(elsewhere)
    r = run("ratings", link, "--add", tmp_path / "e1.db")
    assert r.exit_code == 2 and "link to nothing" in r.output
    assert not elsewhere.exists() and link.is_symlink()
    fifo = tmp_path / "fifo.db"
    os.mkfifo(fifo)
    r = run("ratings", fifo, "--add", tmp_path / "e1.db")
    assert r.exit_code == 2 and "not a regular file" in r.output
    book = tmp_path / "book.db"
    assert run("ratings", book, "--add", tmp_path / "e1.db").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []

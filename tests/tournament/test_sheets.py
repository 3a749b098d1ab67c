"""Score sheets, recording at the table and DGN results: `tournament sheets`, `tournament record`,
`tournament result FILE.dgn`, end to end with DGN files only."""

from __future__ import annotations

import html
import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import notation, record_cli
from domrec.cli import app as domrec_app
from domrec.reader import loads
from domrec.simulate import play_game

from tournament import open_event
from tournament.cli import app
from tournament.event.results import record_hash
from tournament.pages.sheets import default_folder, dgn_name, sheets_name, table_record

from tests.in_memory import tmp_path  # noqa: F401  (records saved move by move: in memory)
from tests.tournament.conftest import individual_game

runner = CliRunner()


def run(*args: object, input: str | None = None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def domrec_validate(*paths: Path):
    return runner.invoke(domrec_app, ["validate", *map(str, paths)])


def moves_for(event: Path, round_no: int, table_no: int, seed: int, typed: bool = False) -> str:
    """The DGN moves of a whole game of the event's game (from `hand 1` on), as piped at a table:
    the canonical text with its deals, or (``typed``) what a scorer types — no deal, no scores."""
    store = open_event(event)
    try:
        players = {p.id: p for p in store.players()}
        table = next(t for t in store.tables(round_no) if t.number == table_no)
        record = play_game(table_record(store.settings, table, players), random.Random(seed))
    finally:
        store.close()
    text = notation.dumps_typed(record, keep_deal=False) if typed else notation.dumps(record)
    lines = text.splitlines()
    return "\n".join(lines[next(i for i, line in enumerate(lines) if line.startswith("hand 1")):]) + "\n"


def record_pipe(path: Path, moves: str, capsys) -> int:
    """`domrec record FILE < moves`, through the recorder's own entry point."""
    code = record_cli.run(str(path), None, [], None, [], None, stdin=io.StringIO(moves), interactive=False)
    capsys.readouterr()
    return code


def new_event(tmp_path: Path, names: list[str], fmt: str = "rotating", game: str = "competitive",
              event_name: str = "Club night", *extra: str) -> Path:
    path = tmp_path / "club.db"
    r = run("new", path, "--name", event_name, "--game", game, "--format", fmt, "--seed", "5", *extra)
    assert r.exit_code == 0, r.output
    if fmt == "pairs":
        for a, b in zip(names[::2], names[1::2]):
            assert run("add", path, a, b).exit_code == 0
    else:
        assert run("add", path, *names).exit_code == 0, names
    return path


EIGHT = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def results_count(event: Path) -> int:
    store = open_event(event)
    try:
        return len(store.results())
    finally:
        store.close()


# --- the whole path ----------------------------------------------------------------------------


def test_from_sheets_to_standings_with_dgn_only(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT)
    for round_no in (1, 2):
        assert run("pair", event).exit_code == 0
        folder = tmp_path / f"round{round_no}"
        r = run("sheets", event, "-o", folder)
        assert r.exit_code == 0, r.output
        files = sorted(folder.glob("*.dgn"))
        assert [f.name for f in files] == [dgn_name(round_no, 1), dgn_name(round_no, 2)]
        assert (folder / sheets_name(round_no)).is_file()
        # The pre-filled files: valid, unfinished, with the event, round, table and ids.
        v = domrec_validate(*files)
        assert v.exit_code == 0, v.output
        assert v.output.count("valid competitive, 0 hands") == 2 and v.output.count("game not finished") == 2
        store = open_event(event)
        tables = store.tables(round_no)
        store.close()
        for table, path in zip(tables, files):
            rec = notation.loads(path.read_bytes())
            assert rec.event == {"name": "Club night", "round": round_no, "table": table.number}
            assert [(p.seat, p.id) for p in rec.players] == [(s.seat, str(s.player)) for s in table.seats]
            assert rec.hands == ()
        # Each table's game is piped into `domrec record FILE`: one canonical, one as typed.
        for k, path in enumerate(files):
            moves = moves_for(event, round_no, k + 1, seed=10 * round_no + k, typed=bool(k))
            assert record_pipe(path, moves, capsys) == 0
            assert "winner" in domrec_validate(path).output
        r = run("result", event, *files)
        assert r.exit_code == 0, r.output
        assert r.output.count("(verified record) — stored") == 2
    r = run("standings", event, "--json")
    assert r.exit_code == 0
    table = json.loads(r.stdout)
    assert not table["provisional"] and table["through_round"] == 2 and len(table["standings"]) == 8
    assert sum(row["played"] for row in table["standings"]) == 16
    r = run("check", event)
    assert r.exit_code == 0, r.output
    assert "0 errors, 0 warnings" in r.output


def test_stored_as_json_and_the_same_game_as_json_is_the_same_result(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    folder = tmp_path / "r1"
    run("sheets", event, "-o", folder)
    path = folder / dgn_name(1, 1)
    assert record_pipe(path, moves_for(event, 1, 1, seed=3, typed=True), capsys) == 0
    assert run("result", event, path).exit_code == 0
    store = open_event(event)
    (result, text), = list(store.records())
    store.close()
    stored = loads(text)  # JSON, the form `check` re-validates
    game = notation.loads(path.read_bytes())
    assert stored == game and result.record_hash == record_hash(game)
    as_json = tmp_path / "t1.json"
    assert runner.invoke(domrec_app, ["convert", str(path), "-o", str(as_json)]).exit_code == 0
    r = run("result", event, as_json)
    assert r.exit_code == 0 and "already stored; nothing changed" in r.output


def test_the_same_dgn_twice_changes_nothing(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    folder = tmp_path / "r1"
    run("sheets", event, "-o", folder)
    paths = [folder / dgn_name(1, n) for n in (1, 2)]
    for n, path in enumerate(paths, 1):
        assert record_pipe(path, moves_for(event, 1, n, seed=n), capsys) == 0
    assert run("result", event, paths[0]).exit_code == 0
    store = open_event(event)
    before = store.results()
    store.close()
    r = run("result", event, paths[0], paths[0], paths[1])
    assert r.exit_code == 0, r.output
    assert r.output.count("already stored; nothing changed") == 2 and r.output.count("— stored") == 1
    # An archive holding both games: each game on its own, both already in.
    archive = tmp_path / "both.dgn"
    archive.write_text(paths[0].read_text(encoding="utf-8") + "\n" + paths[1].read_text(encoding="utf-8"),
                       encoding="utf-8")
    r = run("result", event, archive)
    assert r.exit_code == 0 and r.output.count("already stored; nothing changed") == 2, r.output
    assert f"{archive}:1:" in r.output
    store = open_event(event)
    after = store.results()
    audit = store.audit()
    store.close()
    assert len(before) == 1 and len(after) == 2 and not audit
    assert all(after[table_id] == result for table_id, result in before.items())


def test_dgn_from_standard_input(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    folder = tmp_path / "r1"
    run("sheets", event, "-o", folder)
    path = folder / dgn_name(1, 2)
    assert record_pipe(path, moves_for(event, 1, 2, seed=4), capsys) == 0
    r = run("result", event, "-", input=path.read_text(encoding="utf-8"))
    assert r.exit_code == 0 and "round 1 table 2" in r.output and "— stored" in r.output, r.output


# --- refusals --------------------------------------------------------------------------------


def finished_table_file(tmp_path: Path, capsys, table_no: int = 1) -> tuple[Path, Path]:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    folder = tmp_path / "r1"
    run("sheets", event, "-o", folder)
    path = folder / dgn_name(1, table_no)
    assert record_pipe(path, moves_for(event, 1, table_no, seed=7), capsys) == 0
    return event, path


def test_a_dgn_of_another_table_is_refused(tmp_path: Path, capsys) -> None:
    event, path = finished_table_file(tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    # The table's players, but the file says table 2.
    wrong_tag = tmp_path / "says-table-2.dgn"
    wrong_tag.write_text(text.replace("[Table 1]", "[Table 2]"), encoding="utf-8")
    r = run("result", event, wrong_tag)
    assert r.exit_code == 1 and "says it is table 2" in r.stderr and "nothing" not in r.stdout
    # Table 2's players, but E and W exchanged: no table of the round seats them so.
    store = open_event(event)
    settings, t2, players = store.settings, store.tables(1)[1], {p.id: p for p in store.players()}
    store.close()
    template = table_record(settings, t2, players)
    by_seat = {p.seat: p for p in template.players}
    import attrs
    exchanged = attrs.evolve(template, players=tuple(
        attrs.evolve(by_seat[{"E": "W", "W": "E"}.get(p.seat, p.seat)], seat=p.seat) for p in template.players))
    body = text[text.index("\nhand 1"):]
    swapped = tmp_path / "swapped.dgn"
    swapped.write_text(notation.dumps(exchanged) + body, encoding="utf-8")
    r = run("result", event, swapped)
    assert r.exit_code == 1 and "does not match table 2 of round 1" in r.stderr, r.output
    assert results_count(event) == 0
    # `tournament record` refuses another table's file before recording anything.
    r = run("record", event, "--table", "2", "-o", path, input="")
    assert r.exit_code == 1 and "does not match table 2 of round 1" in r.stderr, r.output


def test_an_unreadable_or_illegal_dgn_is_refused_with_its_line_and_column(tmp_path: Path, capsys) -> None:
    event, path = finished_table_file(tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    # A move that is no tile: unusable notation.
    k = next(i for i, line in enumerate(lines) if line.startswith("hand 1")) + 1
    while not re.match(r"^[NESW] ", lines[k]):
        k += 1
    bad = lines.copy()
    first = bad[k].split()[1]
    bad[k] = bad[k].replace(first, "7-7", 1)
    broken = tmp_path / "illegal.dgn"
    broken.write_text("\n".join(bad) + "\n", encoding="utf-8")
    r = run("result", event, broken)
    assert r.exit_code == 1, r.output
    assert "the record is invalid" in r.stderr and re.search(rf"\n  {k + 1}:\d+: ", r.stderr), r.stderr
    assert len(r.stderr.splitlines()[0].split("\n")) == 1
    garbled = tmp_path / "garbled.dgn"
    garbled.write_text(text.replace('[Game "competitive"]', '[Game "competitive" extra]'), encoding="utf-8")
    r = run("result", event, garbled)
    assert r.exit_code == 2 and re.search(r"garbled\.dgn: the record cannot be read: 1:\d+: ", r.stderr), r.stderr
    unfinished = tmp_path / "unfinished.dgn"
    cut = next(i for i, line in enumerate(lines) if line.startswith("hand 2"))
    unfinished.write_text("\n".join(lines[:cut]) + "\n", encoding="utf-8")
    r = run("result", event, unfinished)
    assert r.exit_code == 1 and "not finished" in r.stderr
    other_game = tmp_path / "other.dgn"
    other_game.write_text(text.replace('"competitive"', '"horse-race"'), encoding="utf-8")
    assert run("result", event, other_game).exit_code in (1, 2)
    assert results_count(event) == 0
    # The good file goes in after all that.
    assert run("result", event, path).exit_code == 0 and results_count(event) == 1


# --- sheets: files and the printable page ----------------------------------------------------


MARKUP = ['<script>alert("x")</script>', "Bo & <b>Co</b>", "O'Brien \"the\" <i>", "Di", "Ed", "Flo", "Gus",
          "</td><td>Hal"]


def test_every_name_is_escaped(tmp_path: Path) -> None:
    event = new_event(tmp_path, MARKUP, "rotating", "competitive", "Night <em>&</em> \"day\"")
    run("pair", event)
    folder = tmp_path / "sheets"
    assert run("sheets", event, "-o", folder).exit_code == 0
    page = (folder / sheets_name(1)).read_text(encoding="utf-8")
    for raw in MARKUP + ["Night <em>&</em> \"day\""]:
        if html.escape(raw, quote=True) != raw:
            assert raw not in page, raw
        assert html.escape(raw, quote=True) in page
    assert "<script" not in page and "<em>" not in page and "<b>" not in page and "<i>" not in page
    # The only tags are the page's own.
    assert set(re.findall(r"</?([a-zA-Z0-9]+)", page)) <= {"html", "head", "meta", "title", "style", "body",
                                                          "section", "h1", "p", "table", "thead", "tbody",
                                                          "tfoot", "tr", "th", "td", "small", "div", "span"}
    # The names go into the DGN files exactly as they are.
    names = set()
    for path in folder.glob("*.dgn"):
        names |= {p.name for p in notation.loads(path.read_bytes()).players}
    assert names == set(MARKUP)
    assert all(f'"Night <em>&</em> \\"day\\""' in p.read_text(encoding="utf-8") for p in folder.glob("*.dgn"))


def test_the_printable_page(tmp_path: Path) -> None:
    event = new_event(tmp_path, EIGHT + ["Ivo"])  # nine players: two tables and a bye
    run("pair", event)
    folder = tmp_path / "s"
    assert run("sheets", event, "-o", folder).exit_code == 0
    page = (folder / sheets_name(1)).read_text(encoding="utf-8")
    assert page.count('<section class="sheet"') == 2
    assert "@page" in page and "break-after:page" in page and "page-break-after:always" in page
    assert "Round 1 · Table 1" in page and "Round 1 · Table 2" in page and "Club night" in page
    sheet = page.split('<section class="sheet"')[1]
    rows = re.findall(r'<td class="hand">(\d+)</td>', sheet)
    assert rows == [str(n) for n in range(1, len(rows) + 1)] and 10 <= len(rows) <= 20
    assert "<th>NS<small>" in sheet and "<th>EW<small>" in sheet and "Total" in sheet
    assert sheet.count('class="sig"') == 2 and "Signature NS" in sheet and "Signature EW" in sheet
    store = open_event(event)
    t1 = store.tables(1)[0]
    names = {p.id: p.name for p in store.players()}
    store.close()
    for s in t1.seats:
        assert f'<td class="seat">{s.seat}</td><td class="side">{s.side}</td><td class="no">#{s.player}</td>' \
               f'<td class="name">{names[s.player]}</td>' in sheet
    assert dgn_name(1, 1) in sheet


def test_a_sheet_has_a_running_total_beside_each_side_and_a_time_called_box(tmp_path: Path) -> None:
    """The scorer adds as the game goes (each side's points of a hand, then its running total), and a
    game the clock stops says when time was called and in which hand, in English and Spanish."""
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    for lang, running, called, at, during in (("en", "running total", "Time called", "at (hh:mm)", "during hand"),
                                              ("es", "total acumulado", "Tiempo cumplido", "a las (hh:mm)",
                                               "en la mano")):
        folder = tmp_path / lang
        assert run("sheets", event, "-o", folder, "--lang", lang).exit_code == 0
        sheet = (folder / sheets_name(1)).read_text(encoding="utf-8").split('<section class="sheet"')[1]
        assert f'<th class="run">{running}<small>NS</small></th>' in sheet
        assert f'<th class="run">{running}<small>EW</small></th>' in sheet
        body = sheet.split("<tbody>")[2].split("</tbody>")[0]  # the hands' grid (the first is the seats')
        for row in re.findall(r"<tr>.*?</tr>", body):
            assert row.count('<td class="run"></td>') == 2, row  # every hand: both sides' totals so far
        assert sheet.count('<td colspan="2"></td>') == 2  # each side's final total under its two columns
        box = re.search(r'<div class="called">(.*?)</div>', sheet).group(1)
        assert called in box and at in box and during in box
        assert sheet.index('class="called"') < sheet.index('class="sig"')  # written before both sides sign


def test_pairs_event_sheets_name_the_pairs(tmp_path: Path) -> None:
    event = new_event(tmp_path, EIGHT, "pairs")
    run("pair", event)
    folder = tmp_path / "s"
    assert run("sheets", event, "-o", folder).exit_code == 0
    page = (folder / sheets_name(1)).read_text(encoding="utf-8")
    assert "Ana &amp; Bo" in page  # a pair's default name


def test_individual_tables_have_a_column_a_seat(tmp_path: Path, capsys) -> None:
    game = individual_game()
    event = new_event(tmp_path, EIGHT, "individual", game, "Solo", "--table-size", "4")
    run("pair", event)
    folder = tmp_path / "s"
    assert run("sheets", event, "-o", folder).exit_code == 0
    page = (folder / sheets_name(1)).read_text(encoding="utf-8")
    sheet = page.split('<section class="sheet"')[1]
    for seat in ("P1", "P2", "P3", "P4"):
        assert f"<th>{seat}<small>" in sheet and f"Signature {seat} — " in sheet
    path = folder / dgn_name(1, 1)
    assert domrec_validate(path).exit_code == 0
    assert record_pipe(path, moves_for(event, 1, 1, seed=2), capsys) == 0
    r = run("result", event, path)
    assert r.exit_code == 0 and "— stored" in r.output, r.output


def test_options_and_variant_go_into_the_files(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT, "rotating", "competitive", "Short", "--option", "first_lead=double-six")
    run("pair", event)
    folder = tmp_path / "s"
    assert run("sheets", event, "-o", folder).exit_code == 0
    path = folder / dgn_name(1, 1)
    assert '[Option "first_lead=double-six"]' in path.read_text(encoding="utf-8")
    assert "first_lead=double-six" in (folder / sheets_name(1)).read_text(encoding="utf-8")
    assert record_pipe(path, moves_for(event, 1, 1, seed=6), capsys) == 0
    assert run("result", event, path).exit_code == 0


def test_sheets_never_replace_a_file_without_force(tmp_path: Path, capsys) -> None:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    folder = tmp_path / "s"
    folder.mkdir()
    mine = folder / sheets_name(1)
    mine.write_text("my own notes", encoding="utf-8")
    r = run("sheets", event, "-o", folder)
    assert r.exit_code == 2 and "already exists" in r.stderr and "nothing was written" in r.stderr
    assert mine.read_text(encoding="utf-8") == "my own notes"
    assert not list(folder.glob("*.dgn"))  # nothing half written
    mine.unlink()
    assert run("sheets", event, "-o", folder).exit_code == 0
    path = folder / dgn_name(1, 1)
    assert record_pipe(path, moves_for(event, 1, 1, seed=1), capsys) == 0
    recorded = path.read_text(encoding="utf-8")
    r = run("sheets", event, "-o", folder)
    # the two game files are records (one holds a recorded game); the page of sheets is the
    # tool's own earlier output and would be replaced without --force
    assert r.exit_code == 2 and "already exists (and 1 more" in r.stderr
    assert path.read_text(encoding="utf-8") == recorded
    assert not [p for p in folder.iterdir() if p.name.startswith(".")]  # no temporary file left behind
    # A link is never written through, even with --force.
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep", encoding="utf-8")
    link = folder / dgn_name(1, 2)
    link.unlink()
    os.symlink(target, link)
    r = run("sheets", event, "-o", folder, "--force")
    assert r.exit_code == 2 and "not a regular file" in r.stderr
    assert target.read_text(encoding="utf-8") == "keep" and path.read_text(encoding="utf-8") == recorded
    link.unlink()
    r = run("sheets", event, "-o", folder, "--force")
    assert r.exit_code == 0
    assert "hand 1" not in path.read_text(encoding="utf-8")  # --force replaced the recorded game, as it says
    # A folder that is a file.
    afile = tmp_path / "afile"
    afile.write_text("x", encoding="utf-8")
    assert run("sheets", event, "-o", afile).exit_code == 2


def test_sheets_default_folder_and_rounds(tmp_path: Path) -> None:
    event = new_event(tmp_path, EIGHT)
    r = run("sheets", event)
    assert r.exit_code == 2 and "no round has been paired" in r.stderr
    run("pair", event)
    assert run("sheets", event, "--round", "2").exit_code == 2
    assert run("sheets", event).exit_code == 0
    folder = default_folder(event)
    assert folder == tmp_path / "club-games"
    assert sorted(p.name for p in folder.iterdir()) == sorted([dgn_name(1, 1), dgn_name(1, 2), sheets_name(1)])


# --- tournament record ------------------------------------------------------------------------


def test_record_a_table_from_a_pipe(tmp_path: Path) -> None:
    event = new_event(tmp_path, EIGHT)
    run("pair", event)
    moves = moves_for(event, 1, 2, seed=8, typed=True)
    cut = moves.index("hand 3")
    # The first two hands, then the session stops: the file keeps them, no result yet.
    r = run("record", event, "--table", "2", input=moves[:cut])
    assert r.exit_code == 0, r.output
    path = default_folder(event) / dgn_name(1, 2)
    assert "not finished; no result was stored" in r.stdout and path.is_file()
    assert results_count(event) == 0
    assert "2 hands" in domrec_validate(path).output
    # Later, the rest: the recorder continues the file and the result goes in.
    r = run("record", event, "--table", "2", input=moves[cut:])
    assert r.exit_code == 0, r.output
    assert "continuing" in r.stdout and "round 1 table 2" in r.stdout and "(verified record) — stored" in r.stdout
    assert results_count(event) == 1
    # Again: the game is over, nothing more is recorded and nothing changes.
    r = run("record", event, "--table", "2", input="")
    assert r.exit_code == 0 and "already stored; nothing changed" in r.stdout
    # The same file through `tournament result`: the same result.
    r = run("result", event, path)
    assert r.exit_code == 0 and "already stored; nothing changed" in r.stdout
    # Table 1 into a file of our choice, with its tags piped too (they are the file's already).
    out = tmp_path / "t1.dgn"
    full = notation.dumps(table_record(*_table_one(event))) + "\n" + moves_for(event, 1, 1, seed=9)
    r = run("record", event, "--table", "1", "-o", out, input=full)
    assert r.exit_code == 0 and "— stored" in r.stdout, r.output
    assert run("check", event).exit_code == 0
    r = run("record", event, "--table", "1", "--board", "1", input="")
    assert r.exit_code == 2 and "--board is for a duplicate event's tables" in r.output


def _table_one(event: Path):
    store = open_event(event)
    try:
        return store.settings, store.tables(1)[0], {p.id: p for p in store.players()}
    finally:
        store.close()


def test_record_refusals(tmp_path: Path) -> None:
    event = new_event(tmp_path, EIGHT)
    assert run("record", event, "--table", "1", input="").exit_code == 2  # no round yet
    run("pair", event)
    r = run("record", event, "--table", "9", input="")
    assert r.exit_code == 2 and "no table 9" in r.stderr
    assert run("record", event, "--table", "1", "-o", tmp_path / "t.txt", input="").exit_code == 2
    assert run("record", event, "--table", "1", "-o", tmp_path / "nowhere" / "t.dgn", input="").exit_code == 2
    # A refused move from a pipe: reported, exit 1, the recording stops there (the file holds what came before).
    r = run("record", event, "--table", "1", input="hand 1 lead N\nN 9-9\n")
    assert r.exit_code == 1 and "9-9 is not a tile" in r.stderr and "the recording stops" in r.stderr
    # A table with a (manual) result is not recorded again without --replace.
    assert run("result", event, "--table", "1", "--score", "NS=250,EW=0").exit_code == 0
    r = run("record", event, "--table", "1", input="")
    assert r.exit_code == 1 and "already has a result" in r.stderr and "--replace" in r.stderr
    moves = moves_for(event, 1, 1, seed=12)
    r = run("record", event, "--table", "1", "--replace", input=moves)
    assert r.exit_code == 0 and "replaced" in r.stdout, r.output
    store = open_event(event)
    assert len(store.audit()) == 1 and store.results()[store.tables(1)[0].id].verified
    store.close()


def test_a_knockout_game_seated_later_gets_its_own_sheet(tmp_path: Path) -> None:
    event = new_event(tmp_path, ["Ana", "Bo", "Cy", "Di"], "pairs")
    assert run("knockout", event, "--seeding", "random", "--first-to", "2").exit_code == 0
    assert run("sheets", event).exit_code == 0
    folder = default_folder(event)
    page = (folder / sheets_name(1)).read_text(encoding="utf-8")
    assert "match R1-1, game 1" in page
    r = run("record", event, "--table", "1", input=moves_for(event, 1, 1, seed=5))
    assert r.exit_code == 0 and "— stored" in r.stdout, r.output
    # Game 2 of the match is seated now, at table 2: the round's files are there, so a new run is
    # refused as a whole; --table writes that table alone.
    assert run("sheets", event).exit_code == 2
    r = run("sheets", event, "--table", "2")
    assert r.exit_code == 0, r.output
    assert (folder / dgn_name(1, 2)).is_file()
    assert "match R1-1, game 2" in (folder / sheets_name(1, 2)).read_text(encoding="utf-8")
    assert "hand 1" in (folder / dgn_name(1, 1)).read_text(encoding="utf-8")  # game 1 untouched
    assert run("sheets", event, "--table", "3").exit_code == 2


@pytest.mark.slow
def test_tables_recorded_at_once_all_land(tmp_path: Path) -> None:
    """Four tables recorded by four `tournament record` processes at the same time, and the same
    .dgn entered by two `tournament result` processes at once: every result lands, once."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    event = new_event(tmp_path, [f"p{i}" for i in range(16)])
    assert run("pair", event).exit_code == 0
    cmd = [sys.executable, "-m", "tournament.cli"]
    procs = []
    for n in (1, 2, 3, 4):
        moves = moves_for(event, 1, n, seed=30 + n, typed=n % 2 == 0)
        p = subprocess.Popen(cmd + ["record", str(event), "--table", str(n)], cwd=root, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        procs.append((p, moves))
    outs = [p.communicate(moves, timeout=300) for p, moves in procs]
    assert all(p.returncode == 0 for p, _ in procs), [err for _, err in outs]
    assert all("— stored" in out for out, _ in outs)
    path = default_folder(event) / dgn_name(1, 3)
    twins = [subprocess.Popen(cmd + ["result", str(event), str(path)], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for _ in range(2)]
    for p in twins:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0 and "already stored; nothing changed" in out, err
    assert results_count(event) == 4
    r = run("check", event)
    assert r.exit_code == 0 and "4 results" in r.output, r.output

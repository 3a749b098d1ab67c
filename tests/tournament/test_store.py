"""The event file: identity, refusal of other files, names as typed, transactions."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tournament import EventFileError, Refused, add_players, create_event, make_settings, open_event
from tournament.errors import PlayerInputError, SettingsError


def settings():
    return make_settings("Club night", "competitive", "rotating")


def test_create_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, settings())
    uuid = store.uuid
    store.close()
    again = open_event(path)
    assert again.uuid == uuid and again.settings == settings()
    assert again.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    again.close()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("ev.db")) == []


def test_new_never_overwrites(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    path.write_text("precious")
    with pytest.raises(EventFileError, match="already exists"):
        create_event(path, settings())
    assert path.read_text() == "precious"


def _crashed_with_a_write_in_its_log(path: Path) -> None:
    """An event whose last write is in its -wal only (the process ended before a checkpoint)."""
    import subprocess
    import sys

    create_event(path, settings()).close()
    with open_event(path) as store:
        add_players(store, ["Old One", "Old Two"])
    code = ("import os, sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_autocheckpoint=0'); "
            "c.execute(\"UPDATE players SET name = name || ', written last'\"); c.commit(); os._exit(0)")
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert Path(f"{path}-wal").stat().st_size > 0


def test_new_refuses_the_log_an_earlier_event_of_its_name_left(tmp_path: Path) -> None:
    """``club.db-wal`` left beside where ``club.db`` was (the file moved away after a crash): a new
    ``club.db`` read it as its own log, and held the old event's players (and was damaged); now
    refused, the log left as it was.  ``tournament simulate`` and a new ratings file likewise."""
    from tournament.event.simulate import simulate_event
    from tournament.store.ratings import open_ratings

    path = tmp_path / "club.db"
    _crashed_with_a_write_in_its_log(path)
    path.rename(tmp_path / "moved.db")
    log = Path(f"{path}-wal").read_bytes()
    said = (f"{path}-wal is there already: the last writes of an earlier event file named club.db, which SQLite "
            f"would read into the new one as its own; move it to where that event file is (or delete it, if "
            f"that file is gone) and run this again")
    with pytest.raises(EventFileError) as e:
        create_event(path, settings())
    assert str(e.value) == said
    with pytest.raises(EventFileError) as e:
        simulate_event(path, "competitive", "pairs", 8, 1, seed=1)
    assert str(e.value) == said
    assert not path.exists() and Path(f"{path}-wal").read_bytes() == log
    Path(f"{path}-wal").rename(tmp_path / "moved.db-wal")  # where it belongs: the old event has its last write
    with open_event(tmp_path / "moved.db") as old:
        assert {p.name for p in old.players()} == {"Old One, written last", "Old Two, written last"}
    create_event(path, settings()).close()  # and a new one is made
    journal = tmp_path / "r.db-journal"
    journal.write_bytes(b"x")
    with pytest.raises(EventFileError, match="r.db-journal is there already: the last writes of an earlier ratings"):
        open_ratings(tmp_path / "r.db")


@pytest.mark.parametrize("name", ["club.db-wal", "club.db-shm", "club.db-journal"])
def test_new_refuses_a_name_sqlite_gives_to_a_companion(tmp_path: Path, name: str) -> None:
    """``tournament new club.db-wal`` beside ``club.db``: the next command on club.db deleted it,
    as a log that was none."""
    with pytest.raises(EventFileError, match=f"the name cannot end in {name[7:]}, which SQLite gives to a file it "
                                             f"keeps beside club.db; choose another name for the event file"):
        create_event(tmp_path / name, settings())
    assert not (tmp_path / name).exists()


def test_missing_file_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "nope.db"
    with pytest.raises(EventFileError, match="no such event file"):
        open_event(path)
    assert not path.exists()


def test_text_file_and_empty_file(tmp_path: Path) -> None:
    (tmp_path / "a.db").write_text("name,score\n")
    (tmp_path / "b.db").write_bytes(b"")
    with pytest.raises(EventFileError, match="not an SQLite database"):
        open_event(tmp_path / "a.db")
    with pytest.raises(EventFileError, match="empty file"):
        open_event(tmp_path / "b.db")


def test_sqlite_of_another_kind(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta(key TEXT, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('application', 'something-else')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(EventFileError, match="another kind"):
        open_event(path)
    assert path.read_bytes() == before


def test_newer_schema_refused(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    create_event(path, settings()).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(EventFileError, match="newer"):
        open_event(path)


def test_corrupt_file(tmp_path: Path) -> None:
    path = tmp_path / "ev.db"
    store = create_event(path, settings())
    add_players(store, [f"player {i}" for i in range(300)])
    store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()
    data = bytearray(path.read_bytes())
    for i in range(100, len(data) - 10, 7):  # keep the header, wreck the rest
        data[i] = 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(EventFileError):
        s = open_event(path)
        s.players()  # if the damaged pages are not the ones open reads, reading them must fail
        s.close()


@pytest.mark.parametrize("name", ["O'Brien", 'Say "hi"', "Robert'); DROP TABLE players;--", "Zoë Ñúñez 李",
                                  "%_*", "  spaced  "])
def test_names_stored_as_typed(tmp_path: Path, name: str) -> None:
    """Stored as typed, but for the spaces around a name and inside it (runs of spaces are one:
    "A  na" is "A na", so no look-alike of a name can differ from it by spaces alone)."""
    store = create_event(tmp_path / "ev.db", settings())
    [p] = add_players(store, [name])
    assert p.name == " ".join(name.split())
    assert store.find_player(name).id == p.id
    store.close()
    assert [p.name for p in open_event(tmp_path / "ev.db").players()] == [" ".join(name.split())]


def test_bad_names_and_duplicates(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", settings())
    add_players(store, ["Ana"])
    with pytest.raises(PlayerInputError):
        add_players(store, ["  "])
    with pytest.raises(PlayerInputError):
        add_players(store, ["line\nbreak"])
    with pytest.raises(Refused, match="already entered"):
        add_players(store, ["Bo", "Ana"])
    # One transaction: Bo did not land either.
    assert [p.name for p in store.players()] == ["Ana"]


def test_write_rolls_back_on_error(tmp_path: Path) -> None:
    store = create_event(tmp_path / "ev.db", settings())
    with pytest.raises(RuntimeError):
        with store.write():
            store.insert_player("Ana", 1)
            raise RuntimeError("boom")
    assert store.players() == []


@pytest.mark.parametrize("kw,msg", [
    ({"game": "chess"}, "unknown game"),
    ({"format": "knockout"}, "unknown format"),
    ({"table_size": 3}, "four players"),
    ({"options": {"nonsense": 1}}, "nonsense"),
    ({"tiebreaks": ("placement",)}, "cannot rank"),
    ({"bye": {"placement": 2}}, "not 'placement'"),
])
def test_settings_refused(kw: dict, msg: str) -> None:
    args = {"name": "x", "game": "competitive", "format": "rotating"}
    args.update(kw)
    with pytest.raises(SettingsError, match=msg):
        make_settings(**args)


def test_individual_settings_follow_the_engine() -> None:
    from tests.tournament.conftest import individual_game
    game = individual_game()
    from domrec import games
    engine = games.engine(game)
    counts = engine.player_counts(engine.defaults)
    s = make_settings("x", game, "individual", counts[0])
    assert s.table_size == counts[0] and len(s.placement) == counts[0]
    assert s.placement[0] == counts[0] - 1 and s.placement[-1] == 0
    with pytest.raises(SettingsError, match="not 99"):
        make_settings("x", game, "individual", 99)
    with pytest.raises(SettingsError, match="not a partnership game"):
        make_settings("x", game, "rotating")
    with pytest.raises(SettingsError, match="partnerships|individual"):
        make_settings("x", "competitive", "individual")


def test_an_individual_event_of_a_game_whose_four_play_in_partnerships_seats_three() -> None:
    """Domino Roads is played by three each on their own and by four in partnerships: an individual
    event of it was refused unless ``--table-size 3`` was given (the default was four), with a line
    naming only the partnership formats.  Its default is now three, and four is refused naming
    ``--table-size 3``; its rounds never seat four at an individual table."""
    s = make_settings("x", "domino-roads", "individual")
    assert s.table_size == 3 and s.table_counts() == (3,)
    with pytest.raises(SettingsError, match=r"at tables of 4 is played in partnerships: an individual event of it "
                                            r"sits 3 at a table \(--table-size 3\)"):
        make_settings("x", "domino-roads", "individual", 4)
    assert make_settings("x", "domino-roads", "rotating").table_size == 4
    assert make_settings("x", "horse-race", "individual").table_counts() == (2, 3, 4)
    assert make_settings("x", "castle-rock", "individual", 5).table_counts() == (2, 3, 4, 5)


@pytest.mark.parametrize("name", ["esc\x1b[31mred", "bell\x07", "line\u2028sep", "para\u2029sep", "nel\x85x",
                                  "vt\x0bx", "ff\x0cx", "del\x7fx"])
def test_names_with_control_characters_or_line_breaks_refused(tmp_path: Path, name: str) -> None:
    """A name is printed on the director's terminal: no escape sequences, no line breaks of any kind."""
    store = create_event(tmp_path / "ev.db", settings())
    with pytest.raises(PlayerInputError):
        add_players(store, [name])
    assert store.players() == []


@pytest.mark.parametrize("kw", [{"bye": {"wins": float("nan")}}, {"bye": {"for": float("inf")}}])
def test_non_finite_settings_refused(kw: dict) -> None:
    with pytest.raises(SettingsError, match="finite|number"):
        make_settings("x", "competitive", "pairs", **kw)


def test_non_finite_placement_points_refused() -> None:
    from tests.tournament.conftest import individual_game
    game = individual_game()
    with pytest.raises(SettingsError, match="finite|number"):
        make_settings("x", game, "individual", table_size=3, placement=(float("nan"),) * 3)


def test_names_that_are_not_utf8_are_refused(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 on a command line arrive as lone surrogates: a clear refusal, not a crash."""
    store = create_event(tmp_path / "ev.db", settings())
    with pytest.raises(PlayerInputError, match="UTF-8"):
        add_players(store, ["bad\udcffbyte"])
    with pytest.raises(SettingsError, match="UTF-8"):
        make_settings("n\udcff", "competitive", "pairs")


def test_csv_cells_are_trimmed(tmp_path):
    from tournament.event.players import read_csv

    path = tmp_path / "p.csv"
    path.write_text("name , partner,pair\n  Ana  ,Bo ,  Los Primos \n")
    assert read_csv(path, pairs=True) == [("Ana", "Bo", "Los Primos")]
    path.write_text("name\n Cy \n")
    assert read_csv(path, pairs=False) == ["Cy"]


def test_nothing_is_written_into_a_damaged_file(tmp_path):
    """A damaged page that opening does not notice is caught before the first write."""
    import sqlite3
    import subprocess
    import sys

    from typer.testing import CliRunner

    from tournament.cli import app

    path = tmp_path / "e.db"
    tour = [sys.executable, "-m", "tournament.cli"]
    # The event made by the same commands in this process (a start-up of its own costs a second
    # or more); the write refused is the program's own, run as a process.
    assert CliRunner().invoke(app, ["new", str(path), "--name", "E", "--game", "competitive",
                                    "--format", "rotating"]).exit_code == 0
    names = [f"Player {i}" for i in range(40)]
    assert CliRunner().invoke(app, ["add", str(path), *names]).exit_code == 0
    con = sqlite3.connect(path)
    page_size, pages = con.execute("PRAGMA page_size").fetchone()[0], con.execute("PRAGMA page_count").fetchone()[0]
    con.close()
    before = path.read_bytes()
    with path.open("r+b") as f:  # the last page's header: a cell count no page can hold
        f.seek((pages - 1) * page_size + 3)
        f.write(b"\x7f\x7f")
    damaged = path.read_bytes()
    assert damaged != before
    r = subprocess.run(tour + ["pair", str(path)], capture_output=True, text=True)
    assert r.returncode == 2 and "damaged" in r.stderr and "nothing was written" in r.stderr
    assert "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert path.read_bytes() == damaged


def test_opening_the_event_again_keeps_another_process_from_deleting_the_live_journal(tmp_path: Path) -> None:
    """A process holding the event (a server) that opens it a second time (a public page) must
    keep its locks: another process closing its last connection then leaves the -wal alone.  The
    file was once read with open()/close() first, which dropped all of the process's locks."""
    import subprocess
    import sys

    path = tmp_path / "ev.db"
    held = create_event(path, settings())
    add_players(held, ["Ana", "Bo"])  # a read transaction's worth of WAL
    again = open_event(path)  # the second opening, in the same process
    again.close()
    code = ("import sys; from tournament import open_event; s = open_event(sys.argv[1]); s.players(); s.close()")
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, timeout=300)
    assert Path(f"{path}-wal").exists() and Path(f"{path}-shm").exists()
    add_players(held, ["Cy"])  # written into the journal the others see
    code = ("import sys; from tournament import open_event; s = open_event(sys.argv[1]); "
            "print(len(s.players())); s.close()")
    seen = subprocess.run([sys.executable, "-c", code, str(path)], check=True, capture_output=True, text=True,
                          timeout=300).stdout.strip()
    held.close()
    assert seen == "3"


def test_a_live_event_file_given_as_a_record_or_csv_is_refused_unopened(tmp_path: Path) -> None:
    from domrec.reader import read_bytes

    path = tmp_path / "ev.db"
    store = create_event(path, settings())
    store.players()
    with pytest.raises(OSError, match="SQLite database in use"):
        read_bytes(path)
    store.close()

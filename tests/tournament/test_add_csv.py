"""``tournament add --csv`` of many names: the look-alike check's cost grows with the names, not
with their square, its warnings the same lines as before; and Ctrl-C tells the truth about what
was written (a tester's 3,000 names: all committed in 3 s, then "the last write was not made"
printed on an interrupt during the 35 s look-alike check that followed)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from tournament import add_players, create_event, make_settings, open_event
from tournament.cli import app
from tournament.event import players as pl
from tournament.names import name_key, near_key

runner = CliRunner()

#: Names with near-identical twins (case, spaces), look-alike-free among themselves otherwise.
NAMES = ["Li Na", "Bo", "Ana María", "ana maría", "Ed", "LINA", "Jo Ann", "Joann", "JO ANN B", "Zoë", "ZOË",
         "Mc Coy", "McCoy", "mccoy", "Al", "Bo Li", "Boli", "Iona", "lona", "I ona"]


def _reference(store, names):
    """near_identical as it was: every name compared with every player, keys worked out each time."""
    out = []
    players = store.players()
    told: set[str] = set()
    for name in names:
        key, near = name_key(name), near_key(name)
        twin = next((p for p in players if near_key(p.name) == near and name_key(p.name) != key), None)
        if twin is not None and name_key(twin.name) not in told:
            told.add(key)
            out.append(f"{name!r} is near-identical to #{twin.id} {twin.name!r} (they differ only by capitals "
                       f"and spaces); to tell them apart, rename one (tournament rename)")
    return out


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "a.db"
    create_event(path, make_settings("A", "competitive", "rotating")).close()
    return path


def _entered(names: list[str]) -> list[str]:
    """The names of ``NAMES`` an event takes together (a true look-alike, ``Iona``/``lona``, once)."""
    kept: list[str] = []
    for n in names:
        if pl._first_repeat([*kept, n]) is None:
            kept.append(n)
    return kept


def test_the_warnings_are_the_lines_every_pair_compared_gave(tmp_path: Path):
    path = _event(tmp_path)
    first, later = _entered(NAMES[:10]), _entered(NAMES)[len(_entered(NAMES[:10])):]
    with open_event(path) as store:
        add_players(store, first)
        assert pl.near_identical(store, first) == _reference(store, first)
        add_players(store, later)
        for names in (later, first + later, list(reversed(first + later)), ["LI NA"], ["bo li"], []):
            assert pl.near_identical(store, names) == _reference(store, names), names
        assert len(pl.near_identical(store, later)) >= 3  # (the set has look-alikes to tell)


def test_the_cli_prints_the_same_warnings(tmp_path: Path):
    path = _event(tmp_path)
    names = _entered(NAMES)
    r = runner.invoke(app, ["add", str(path), *names])
    assert r.exit_code == 0, r.stdout + r.stderr
    with open_event(path) as store:
        expected = [f"warning: {line}" for line in _reference(store, names)]
    assert r.stderr.splitlines() == expected and len(expected) >= 4
    assert r.stdout.splitlines() == [f"added #{i} {n} (from round 1)" for i, n in enumerate(names, 1)]


def test_each_name_is_keyed_once_not_once_a_pair(tmp_path: Path, monkeypatch):
    """300 names: the keys are worked out a few times a name (the old check: twice a pair, 180,000)."""
    path = _event(tmp_path)
    names = [f"Player {i:05d}x{chr(97 + i % 26)}" for i in range(300)]
    counted = {"name_key": 0, "near_key": 0}

    def counting(fn):
        def wrapped(name):
            counted[fn.__name__] += 1
            return fn(name)
        return wrapped

    with open_event(path) as store:
        add_players(store, names)
        monkeypatch.setattr(pl, "name_key", counting(name_key))
        monkeypatch.setattr(pl, "near_key", counting(near_key))
        assert pl.near_identical(store, names) == []
    assert counted["name_key"] + counted["near_key"] <= 4 * len(names), counted


def _players(path: Path) -> int:
    with open_event(path) as store:
        return len(store.players())


def _ctrl_c_at(monkeypatch, said: str) -> None:
    """Ctrl-C pressed as the command says a line starting with ``said`` (its write made by then)."""
    echo = typer.echo

    def interrupted(message=None, *args, **kwargs):
        if str(message).startswith(said):
            raise KeyboardInterrupt
        return echo(message, *args, **kwargs)

    monkeypatch.setattr(typer, "echo", interrupted)


def test_ctrl_c_after_the_players_are_written_says_they_were_added(tmp_path: Path, monkeypatch):
    """Ctrl-C while the players added are being listed (the write made): the interrupt says they
    were added, and prints the look-alike warnings not yet printed."""
    path = _event(tmp_path)
    _ctrl_c_at(monkeypatch, "added #")
    r = runner.invoke(app, ["add", str(path), "Li Na", "Bo", "Lina"])
    assert r.exit_code == 2
    assert _players(path) == 3
    assert "last write was not made" not in r.stderr
    lines = r.stderr.splitlines()
    assert lines[0].startswith("error: interrupted after the write was made: the 3 players were added"), r.stderr
    assert lines[1:] == ["  warning: 'Li Na' is near-identical to #3 'Lina' (they differ only by capitals and "
                         "spaces); to tell them apart, rename one (tournament rename)"]


def test_ctrl_c_during_the_look_alike_check_writes_nothing_and_says_so(tmp_path: Path, monkeypatch):
    """The check is a warning about the names being added: it is made within the write, so Ctrl-C
    during it takes the write back, and "the last write was not made" is then true."""
    path = _event(tmp_path)

    def interrupted(store, names):
        raise KeyboardInterrupt

    monkeypatch.setattr(pl, "near_identical", interrupted)
    csv = tmp_path / "p.csv"
    csv.write_text("name,club\n" + "".join(f"Player {i},C{i % 3}\n" for i in range(50)))
    r = runner.invoke(app, ["add", str(path), "--csv", str(csv)])
    assert r.exit_code == 2
    assert r.stderr == "error: interrupted; the last write was not made\n"
    assert _players(path) == 0


@pytest.mark.parametrize("pairs", [False, True], ids=["players", "pairs"])
def test_ctrl_c_after_the_write_of_a_command_without_a_note_says_the_write_was_made(tmp_path: Path, monkeypatch,
                                                                                    pairs: bool):
    """Any command stopped after its write committed says so, not that nothing was written."""
    path = tmp_path / "w.db"
    create_event(path, make_settings("W", "competitive", "pairs" if pairs else "rotating")).close()
    args = ["Ana", "Bo"] if pairs else ["Ana"]
    assert runner.invoke(app, ["add", str(path), *args]).exit_code == 0
    _ctrl_c_at(monkeypatch, "withdrew")
    r = runner.invoke(app, ["withdraw", str(path), "Ana"])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: interrupted after the write was made (it is in the event file)"), r.stderr


def test_ctrl_c_while_the_browsing_snapshot_is_refreshed_says_the_players_were_added(tmp_path: Path, monkeypatch):
    """The last write of a command, as it closes the event, refreshes the snapshot people browse:
    Ctrl-C there takes back that refresh only; the players were added, and the interrupt says so."""
    from tournament.store.event_store import EventStore

    path = _event(tmp_path)

    def interrupted(self):
        raise KeyboardInterrupt

    monkeypatch.setattr(EventStore, "refresh_browsing", interrupted)
    r = runner.invoke(app, ["add", str(path), "Ana", "Bo", "Cy"])
    monkeypatch.undo()
    assert r.exit_code == 2
    assert r.stderr.startswith("error: interrupted after the write was made: the 3 players were added and listed; "
                               "the snapshot people browse"), r.stderr
    assert _players(path) == 3


def test_ctrl_c_during_a_simulation_says_nothing_was_written(tmp_path: Path, monkeypatch):
    """``tournament simulate`` builds the event in a hidden file, given its name only when whole:
    stopped half-way, that file is discarded, so Ctrl-C says that nothing was written (it said a
    write had been made "(it is in the event file)", of a file that is not there)."""
    from tournament.event import simulate as sim

    played = []

    def interrupted(store, round_no, seed, progress=None):
        played.append(round_no)
        raise KeyboardInterrupt

    monkeypatch.setattr(sim, "play_round", interrupted)
    path = tmp_path / "big.db"
    r = runner.invoke(app, ["simulate", str(path), "--players", "8", "--rounds", "2", "--game", "competitive"])
    assert played == [1]  # (the players were added and round 1 paired: written, in the hidden file)
    assert r.exit_code == 2
    assert r.stderr == "error: interrupted; the last write was not made\n"
    assert not path.exists() and list(tmp_path.iterdir()) == []

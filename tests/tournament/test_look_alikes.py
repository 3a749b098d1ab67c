"""Issue 27, point 4 (look-alike players, direction controls in every output) and the event
name's limits (point 5)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament import add_players, create_event, make_settings, pair_next_round
from tournament.cli import app
from tournament.errors import Refused, SettingsError
from tournament.names import name_key, plain_direction, skeleton

runner = CliRunner()
RLO = "\u202e1 reyalP"  # shows as "Player 1"


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("look_alike", ["\u0410na", "\u0391na", "\ua4eena", "\uff21na"])
def test_the_issues_look_alikes_are_one_name_with_ana(look_alike):
    assert name_key(look_alike) == name_key("Ana")


def test_names_that_differ_stay_apart():
    for a, b in [("Ana", "Ama"), ("Ana", "ana"), ("Lina", "Lena"), ("José", "Jose"), ("Bo", "Bob")]:
        assert name_key(a) != name_key(b), (a, b)
    assert skeleton("Ana") == "Ana"  # the usual name is its own skeleton


def test_a_cyrillic_look_alike_is_refused_naming_the_player(tmp_path: Path):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "x", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, "Ana", "Bo").exit_code == 0
    r = run("add", path, "\u0410na")
    assert r.exit_code == 1 and "#1 'Ana'" in r.output and len(r.output.strip().splitlines()) == 1


def _old_event_with_a_reversed_name(tmp_path: Path):
    """An event whose player's name holds a right-to-left override, as an event file made before
    such names were refused (written into the file directly)."""
    store = create_event(tmp_path / "ev.db", make_settings("Club night", "competitive", "rotating", seed=7))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    store.close()
    db = sqlite3.connect(tmp_path / "ev.db")
    db.execute("UPDATE players SET name = ? WHERE name = 'Ed'", [RLO])
    db.commit()
    db.close()
    return tmp_path / "ev.db"


def test_the_terminal_never_prints_direction_controls(tmp_path: Path):
    path = _old_event_with_a_reversed_name(tmp_path)
    for args in (("pair", path), ("tables", path), ("standings", path), ("players", path)):
        r = run(*args)
        assert "\u202e" not in r.output, args
    assert "1 reyalP" in run("tables", path).output


def test_the_report_isolates_names_and_drops_direction_controls(tmp_path: Path):
    path = _old_event_with_a_reversed_name(tmp_path)
    assert run("pair", path).exit_code == 0
    out = tmp_path / "r.html"
    assert run("report", path, "-o", out).exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert "\u202e" not in page and "1 reyalP" in page
    assert "td.name,.who,h1{unicode-bidi:plaintext}" in page  # each name isolated, as <bdi> does


def test_plain_direction_keeps_everything_but_the_controls():
    assert plain_direction("\u2067\u05e9\u05e8\u05d4\u2069 12") == "\u05e9\u05e8\u05d4 12"
    assert plain_direction("Ana") == "Ana"


def test_an_event_name_is_limited_like_a_players():
    with pytest.raises(SettingsError, match="limited to 200 characters"):
        make_settings("x" * 10_000, "competitive", "rotating")
    with pytest.raises(SettingsError, match="direction-control"):
        make_settings("\u202etsaM", "competitive", "rotating")
    with pytest.raises(SettingsError, match="line breaks"):
        make_settings("Club\nnight", "competitive", "rotating")
    assert make_settings("x" * 200, "competitive", "rotating").name == "x" * 200


def test_the_event_name_limit_at_the_command_line(tmp_path: Path):
    r = run("new", tmp_path / "ev.db", "--name", "x" * 10_000, "--game", "competitive", "--format", "rotating")
    assert r.exit_code == 2 and "limited to 200" in r.output and len(r.output) < 300
    assert not (tmp_path / "ev.db").exists()


def test_look_alikes_in_a_paired_event_still_refused(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("N", "competitive", "rotating", seed=1))
    try:
        add_players(store, ["Ana", "Bo", "Cy", "Di"])
        pair_next_round(store)
        with pytest.raises(Refused, match="#1 'Ana'"):
            add_players(store, ["\u0391na"])
    finally:
        store.close()

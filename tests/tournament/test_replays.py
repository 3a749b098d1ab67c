"""The event's report links every verified result to its replay page, written beside it."""

from __future__ import annotations

import os
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

import pytest
from typer.testing import CliRunner

from domrec.output import REPLAY_MARK
from tournament import enter_manual, open_event
from tournament.cli import app
from tournament.event.results import enter_forfeit
from tournament.event.simulate import simulate_event

runner = CliRunner()


def run(*args):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


class Links(HTMLParser):
    def __init__(self, text: str) -> None:
        super().__init__()
        self.replays: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a" and a.get("class") == "replay":
            self.replays.append(a["href"])


@pytest.fixture(scope="module")
def event(tmp_path_factory) -> Path:
    """One round of three tables: a record, a score typed in by hand, a forfeit."""
    path = tmp_path_factory.mktemp("ev") / "club.db"
    simulate_event(path, "competitive", "rotating", 12, 1, seed=4)
    store = open_event(path)
    enter_manual(store, 2, {"NS": 150, "EW": 90}, round_no=1, replace=True)
    enter_manual(store, 3, {"NS": 0, "EW": 0}, round_no=1, replace=True)  # a recorded game is never forfeited
    enter_forfeit(store, 3, ("EW",), round_no=1, replace=True)
    store.close()
    return path


def test_only_the_verified_result_links_to_its_replay_page(event, tmp_path):
    out = tmp_path / "club night #1.html"
    r = run("report", event, "-o", out)
    assert r.exit_code == 0, r.output
    links = Links(out.read_text(encoding="utf-8")).replays
    assert links == ["club%20night%20%231-replays/round-1-table-1.html"]
    page = (tmp_path / unquote(links[0])).read_text(encoding="utf-8")
    assert REPLAY_MARK in page[:4096]
    store = open_event(event)
    names = [a for t in store.tables(1) if t.number == 1 for a in t.seats]
    players = {p.id: p.name for p in store.players()}
    store.close()
    for seat in names:
        assert f'<span class="seat">{seat.seat}</span><bdi>{players[seat.player]}</bdi></li>' in page
    assert sorted(p.name for p in (tmp_path / "club night #1-replays").iterdir()) == ["round-1-table-1.html"]


def test_a_second_report_keeps_the_pages_it_would_write_again(event, tmp_path):
    out = tmp_path / "r.html"
    assert run("report", event, "-o", out).exit_code == 0
    page = tmp_path / "r-replays" / "round-1-table-1.html"
    os.utime(page, (1_000_000, 1_000_000))
    assert run("report", event, "-o", out).exit_code == 0
    assert page.stat().st_mtime == 1_000_000  # not drawn again: the same record, the same edition
    page.write_text(page.read_text(encoding="utf-8").replace('name="domrec-record" content="',
                                                              'name="domrec-record" content="x'), encoding="utf-8")
    assert run("report", event, "-o", out).exit_code == 0
    assert page.stat().st_mtime != 1_000_000  # another record (or edition): drawn again


def test_a_file_domrec_did_not_write_is_not_replaced_and_nothing_is_written(event, tmp_path):
    out = tmp_path / "r.html"
    (tmp_path / "r-replays").mkdir()
    mine = tmp_path / "r-replays" / "round-1-table-1.html"
    mine.write_text("<p>my own notes</p>")
    r = run("report", event, "-o", out)
    assert r.exit_code == 2 and "not replaced (use --force" in r.output and "nothing was written" in r.output
    assert len(r.output.strip().splitlines()) == 1
    assert mine.read_text() == "<p>my own notes</p>" and not out.exists()
    assert run("report", event, "-o", out, "--force").exit_code == 0
    assert REPLAY_MARK in mine.read_text(encoding="utf-8")


def test_a_replays_path_that_is_not_a_folder_is_refused(event, tmp_path):
    out = tmp_path / "r.html"
    (tmp_path / "r-replays").write_text("a file")
    r = run("report", event, "-o", out)
    assert r.exit_code == 2 and "is not a folder" in r.output and not out.exists()
    assert (tmp_path / "r-replays").read_text() == "a file"


def test_a_link_in_place_of_the_folder_is_refused(event, tmp_path):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "r-replays").symlink_to(elsewhere)
    r = run("report", event, "-o", tmp_path / "r.html")
    assert r.exit_code == 2 and list(elsewhere.iterdir()) == []


def test_a_report_that_is_refused_writes_no_replay_page(event, tmp_path):
    out = tmp_path / "r.html"
    out.write_text("<p>not a report</p>")
    r = run("report", event, "-o", out)
    assert r.exit_code == 2 and not (tmp_path / "r-replays").exists()


def test_no_pages_beside_standard_output_or_for_the_projector(event, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("report", event, "-o", "-")
    assert r.exit_code == 0 and 'class="replay"' not in r.stdout
    assert run("report", event, "--screen", "-o", tmp_path / "s.html").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.html"]

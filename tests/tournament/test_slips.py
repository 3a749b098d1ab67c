"""The players' PIN slips (issue 35): ``tournament pins EVENT --slips -o pins.html`` writes one
printable page, a slip a player with the name and the PIN and nothing else, names escaped and
isolated, and replaces only a page of slips it wrote (``--force`` for anything else)."""

from __future__ import annotations

import html
import os
import re
from pathlib import Path

from typer.testing import CliRunner

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.cli import app
from tournament.event import venue as vn
from tournament.pages import slips as sl

runner = CliRunner()

NAMES = ["Zoë Álvarez", "<script>alert(1)</script>", 'Ana & "Bo"', "عليّ حسن", "ángel", "Bea"]


def _event(tmp_path: Path, names: list[str] = NAMES) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club <night>", "competitive", "rotating", seed=3))
    add_players(store, names + [f"Filler {k}" for k in range(-len(names) % 4)])  # full tables
    pair_next_round(store)
    vn.links(store, "http://testserver")  # the venue has keys: none may reach a slip
    store.close()
    return path


def _run(*args: object):
    r = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in r.output
    return r


def _slips(page: str) -> list[tuple[str, str]]:
    """Each slip's (name as written in the page, PIN)."""
    return re.findall(r'<div class="slip"><bdi class="name" dir="auto">(.*?)</bdi><p class="pin">PIN <b>(\d{4})</b>'
                      r'</p></div>', page)


def test_a_slip_a_player_with_the_name_and_pin_and_nothing_else(tmp_path: Path) -> None:
    path = _event(tmp_path)
    out = tmp_path / "pins.html"
    r = _run("pins", path, "--slips", "-o", out)
    assert r.exit_code == 0 and r.stdout == f"wrote {out} (8 slips)\n", r.output
    page = out.read_text(encoding="utf-8")
    listed = [line.split("\t") for line in _run("pins", path).stdout.splitlines()]  # the same PINs, made once
    slips = _slips(page)
    assert len(slips) == page.count('class="slip"') == len(listed) == 8
    assert sorted(pin for _, pin in slips) == sorted(pin for _, _, pin in listed)
    assert {html.unescape(name): pin for name, pin in slips} == {name: pin for _, name, pin in listed}
    # Escaped, isolated: a name is text, whatever it holds.
    assert "<script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "Ana &amp; &quot;Bo&quot;" in page and "<title>Club &lt;night&gt; — the players&#x27; PINs</title>" in page
    # Sorted as a desk looks names up (case and accents aside), numbers of nobody's.
    order = [html.unescape(n) for n, _ in slips]
    assert order.index('Ana & "Bo"') < order.index("ángel") < order.index("Bea") < order.index("Zoë Álvarez")
    # Nothing else: no key, no link, no player number, no event name on a slip.
    store = open_event(path)
    keys = [t["token"] for t in vn.links(store, "http://testserver")["tables"]]
    keys.append(vn.links(store, "http://testserver")["director"].rsplit("/", 1)[1])
    store.close()
    assert not any(key in page for key in keys)
    assert "http" not in page and "href" not in page and "<script" not in page and "#1" not in page
    body = page[page.index("<body>"):]
    assert "Club" not in body
    # Printable on A4: several slips a page, cut lines.
    assert "@page{size:A4" in page and "dashed" in page and page.count('<section class="page">') == 1


def test_slips_in_spanish_and_pages_of_twelve(tmp_path: Path) -> None:
    path = _event(tmp_path, [f"Jugador {k}" for k in range(1, 29)])
    out = tmp_path / "pins.html"
    assert _run("pins", path, "--slips", "-o", out, "--lang", "es").exit_code == 0
    page = out.read_text(encoding="utf-8")
    assert '<html lang="es">' in page and "los PIN de los jugadores" in page
    sections = page.split('<section class="page">')[1:]
    assert [s.count('class="slip"') for s in sections] == [12, 12, 4]
    names = [name for name, _ in _slips(page)]
    assert names[:12] == [f"Jugador {k}" for k in range(1, 13)]  # numbers in names in their order


def test_slips_never_replace_a_file_they_did_not_write(tmp_path: Path) -> None:
    path = _event(tmp_path)
    out = tmp_path / "pins.html"
    out.write_text("my own notes", encoding="utf-8")
    r = _run("pins", path, "--slips", "-o", out)
    assert r.exit_code == 2 and "already exists" in r.output and r.output.count("\n") == 1, r.output
    assert out.read_text(encoding="utf-8") == "my own notes"
    assert _run("pins", path, "--slips", "-o", out, "--force").exit_code == 0
    first = out.read_text(encoding="utf-8")
    assert sl.SLIPS_MARK in first
    assert _run("pins", path, "--slips", "-o", out).exit_code == 0  # its own earlier page: replaced
    assert out.read_text(encoding="utf-8") == first  # the same PINs
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left behind
    # Never through a link or over a folder, and over the event file only with --force (as every page).
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep", encoding="utf-8")
    link = tmp_path / "link.html"
    os.symlink(target, link)
    assert _run("pins", path, "--slips", "-o", link, "--force").exit_code == 2
    assert target.read_text(encoding="utf-8") == "keep"
    assert _run("pins", path, "--slips", "-o", tmp_path, "--force").exit_code == 2
    r = _run("pins", path, "--slips", "-o", path)
    assert r.exit_code == 2 and "SQLite database" in r.output
    store = open_event(path)  # the event file untouched
    assert store.settings.name == "Club <night>"
    store.close()
    # The options that go together.
    for args in (["--slips"], ["-o", out], ["--clear", "1/1", "--slips", "-o", out], ["--by", "Marta"],
                 ["--slips", "-o", out, "--lang", "fr"]):
        r = _run("pins", path, *args)
        assert r.exit_code == 2 and r.output.count("\n") == 1, (args, r.output)


def test_the_pin_list_numbers_players_by_their_pair_where_the_event_does(tmp_path: Path) -> None:
    """A pairs event and a duplicate event number a pair, not its players, in every printout: the
    list of PINs gives each player their pair's number (`#2` beside both partners of pair 2)."""
    partners = [("Ana López", "Bo Díaz"), ("Cy Ruiz", "Di Gil"), ("Ed Mar", "Flo Paz"), ("Gus Sol", "Hal Rey"),
                ("Ivo Luz", "Jo Sanz"), ("Ka Mir", "Lu Vega")]
    for fmt in ("pairs", "duplicate"):
        path = tmp_path / f"{fmt}.db"
        assert _run("new", path, "--name", "N", "--game", "competitive", "--format", fmt, "--seed", "1").exit_code == 0
        for a, b in partners:
            assert _run("add", path, a, b).exit_code == 0
        if fmt == "duplicate":
            assert _run("boards", path, "--boards", "6", "--seed", "3").exit_code == 0
            assert _run("pair", path).exit_code == 0
        listed = [line.split("\t") for line in _run("pins", path).stdout.splitlines()]
        number = {name: no for no, name, _ in listed}
        for k, (a, b) in enumerate(partners, 1):
            assert number[a] == number[b] == f"#{k}", (fmt, listed)
    plain = [line.split("\t")[0] for line in _run("pins", _event(tmp_path)).stdout.splitlines()]
    assert plain == [f"#{k}" for k in range(1, 9)]  # elsewhere each player's own number

"""A team match's line at the terminal says what the hall's pages say (issue 37): the same words,
in English by default, in Spanish with the event's language or ``--lang es`` — a match being
played, won or drawn, and a set in progress or won, under ``tables`` and ``standings``."""

from __future__ import annotations

import re
from pathlib import Path

from tests.tournament.test_teams import a_wins_next, open_tables, run, set_of_two, write_csv
from tournament.event import public as pub
from tournament.event.files import open_event
from tournament.pages import public as pages


def _page_text(event: Path, lang: str) -> str:
    """The hall's page of the round's tables in ``lang``, as text."""
    store = open_event(event)
    try:
        data = pub.public_data(store)
    finally:
        store.close()
    html = pages.page_html(data, pages.Site(), "tables", lang=lang)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _lines(out: str) -> list[str]:
    """The match lines a command printed (English or Spanish)."""
    return [line.strip() for line in out.splitlines() if re.match(r"\s*(Tables|Mesas) \d+-\d+: ", line)]


def _same_as_the_page(event: Path, out: str, lang: str, count: int) -> list[str]:
    lines = _lines(out)
    assert len(lines) == count, out
    page = _page_text(event, lang)
    for line in lines:
        assert line in page, (line, lang)
    return lines


def test_a_matchs_line_at_the_terminal_is_the_pages_in_either_language(tmp_path):
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4, "--seed", 5)
    run("add", event, "--csv", write_csv(tmp_path / "equipos.csv", 4))
    run("pair", event)
    run("result", event, "--table", 1, "--score", "NS=200,EW=100", "--round", 1)
    [en, other] = _same_as_the_page(event, run("tables", event), "en", 2)
    assert en.startswith("Tables 1-2: ") and " 1 – 0 " in en
    assert en.endswith("(1 of 2 tables in)") and other.endswith("(0 of 2 tables in)")
    [es, _] = _same_as_the_page(event, run("tables", event, "--lang", "es"), "es", 2)
    assert es.startswith("Mesas 1-2: ") and es.endswith("(1 de 2 mesas con resultado)")
    run("result", event, "--table", 2, "--score", "NS=100,EW=200", "--round", 1)  # the home team's second pair wins
    run("result", event, "--table", 3, "--score", "NS=200,EW=100", "--round", 1)
    run("result", event, "--table", 4, "--score", "NS=200,EW=100", "--round", 1)  # one game each
    home = en.split(": ", 1)[1].split(" 1 – 0 ")[0]
    [won, drawn] = _same_as_the_page(event, run("tables", event), "en", 2)
    assert won.startswith(f"Tables 1-2: {home} 2 – 0 ") and won.endswith(f"({home} wins the match)")
    assert drawn.startswith("Tables 3-4: ") and " 1 – 1 " in drawn and drawn.endswith("(match drawn)")
    [won, drawn] = _same_as_the_page(event, run("tables", event, "--lang", "es"), "es", 2)
    assert won.endswith(f"({home} gana el encuentro)") and drawn.endswith("(encuentro empatado)")
    # An event whose language is Spanish: its lines in Spanish without asking; --lang en, English.
    run("new", tmp_path / "es.db", "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", 4,
        "--seed", 5, "--lang", "es")
    run("add", tmp_path / "es.db", "--csv", tmp_path / "equipos.csv")
    run("pair", tmp_path / "es.db")
    assert _same_as_the_page(tmp_path / "es.db", run("tables", tmp_path / "es.db"), "es", 2)[0].endswith(
        "(0 de 2 mesas con resultado)")
    assert _lines(run("tables", tmp_path / "es.db", "--lang", "en"))[0].endswith("(0 of 2 tables in)")
    out = run("tables", event, "--lang", "xx", code=2)
    assert len(out.strip().splitlines()) == 1 and "xx" in out


def test_a_sets_line_at_the_terminal_is_the_pages_in_either_language(tmp_path):
    event = set_of_two(tmp_path / "set.db")
    a_wins_next(event)
    for command in (("tables",), ("standings",)):
        [en] = _same_as_the_page(event, run(*command, event), "en", 1)
        assert en.endswith("(set to 3, in progress)") and (" 1 – 0 " in en or " 0 – 1 " in en)
        [es] = _same_as_the_page(event, run(*command, event, "--lang", "es"), "es", 1)
        assert es.startswith("Mesas 1-2: ") and es.endswith("(set a 3, en juego)")
    while open_tables(event):
        a_wins_next(event)
    for command in (("tables",), ("standings",)):
        [en] = _same_as_the_page(event, run(*command, event), "en", 1)
        assert en.endswith("(Team A wins the set 3–0)") and "tables in" not in en
        [es] = _same_as_the_page(event, run(*command, event, "--lang", "es"), "es", 1)
        assert es.endswith("(Team A gana el set 3–0)")

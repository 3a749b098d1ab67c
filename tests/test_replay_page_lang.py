"""A replay page in Spanish carries every word of its pictures in Spanish (a club night's finding,
2026-12-07; its browser test, which reads the pictures drawn, is test_replay_page_lang_browser.py).

The hall's replay page in Spanish drew its pictures in English: the title's "hand 1 · move 25 of
25 · hand over (out)", "Last: …", the racks' "3 tiles", the board's words and notes ("The line:
23 tiles, open ends: 5 and 0."), every tile's title.  The pictures' scripts now say each word
through the page's words: the patterns of :data:`domrec.replay_page.PICTURE_PHRASES` (frame.js's
and the game's own), and the texts a position holds whole (a Horse Race tile's "6-4: set on 4-4",
what the count pegs, Domino Roads' dice, Broadway's face-up rows: :data:`SCENE_PHRASES`), each
translated by the catalog.  The same page written by ``tournament report --lang es`` (the command
line's way to a Spanish replay page) carries them too.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

import pytest

from domrec import replay_page
from domrec.i18n import translations
from domrec.pictures import MODULES

from tests.simulated import simulate
from tests.test_replay_page import page_data

#: (game, players): a simulated game of each game, and Domino Roads with four (sides of two).
GAMES = [("competitive", None), ("horse-race", 3), ("broadway", None), ("castle-rock", 4), ("domino-roads", 3),
         ("domino-roads", 4)]
#: Patterns whose Spanish is the English ("spinner" stays, as clubs say it; a heading and its count).
SAME = {"; spinner %(tiles)s", "; spinners %(tiles)s", "%(heading)s: %(n)s"}


def _say(page: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', page, re.S)
    assert found is not None
    return json.loads(found.group(1))["say"]


def _script(game: str) -> str:
    name = "frame.js" if game == "frame" else MODULES[game].rsplit(".", 1)[1] + ".js"
    return resources.files("domrec.pictures").joinpath(name).read_text(encoding="utf-8")


@pytest.mark.parametrize("game", list(replay_page.PICTURE_PHRASES))
def test_each_listed_word_is_the_scripts_and_has_its_spanish(game: str) -> None:
    """Each pattern is written in its script as listed (the list is the script's), and the Spanish
    catalog gives it with the same places."""
    text = _script(game).replace("\\u2212", "\u2212")
    gettext = translations("es").gettext
    for pattern in replay_page.PICTURE_PHRASES[game]:
        assert f'"{pattern}"' in text or f'"{pattern[:-1]}"' in text, f"{game}: {pattern!r} is not its script's"
        spanish = gettext(pattern)
        assert spanish != pattern or pattern in SAME, f"{game}: no Spanish for {pattern!r}"
        assert set(re.findall(r"%\((\w+)\)s", spanish)) == set(re.findall(r"%\((\w+)\)s", pattern)), pattern


def _scene_texts(page: str) -> set[str]:
    """Every text of the page's positions said in words (a space in it), as the script reads them."""
    out: set[str] = set()

    def walk(value: object) -> None:
        if isinstance(value, str):
            if " " in value and not re.fullmatch(r"\d+-\d+ spinner", value):  # (a count's part: "5-5 spinner")
                out.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    for hand in page_data(page)["hands"]:
        for position in hand["positions"]:
            walk(position["board"])
            if position["ended"]:
                out.add(position["ended"])
    return out


@pytest.mark.parametrize("game, players", GAMES, ids=[f"{g}-{p}" for g, p in GAMES])
def test_a_spanish_page_carries_every_word_its_pictures_say(game: str, players: int | None) -> None:
    record = next(simulate(game, 1, 1, players))
    english = replay_page.page(record, lang="en")
    assert _say(english) == {}  # (an English page: the scripts' own words)
    page = replay_page.page(record, lang="es")
    say = _say(page)
    for pattern in replay_page.PICTURE_PHRASES["frame"] + replay_page.PICTURE_PHRASES[game]:
        assert pattern in say and (say[pattern] != pattern or pattern in SAME), pattern
    texts = _scene_texts(page)
    missing = sorted(t for t in texts if t not in say or say[t] == t)
    assert not missing, f"{game}: shown in English: {missing[:10]}"
    assert not any(p in say for p in replay_page.PICTURE_PHRASES if p not in ("frame", game))


def test_the_reports_spanish_replay_pages_carry_their_pictures_words(tmp_path: Path) -> None:
    """``tournament report --lang es``: the replay pages beside the report are Spanish, pictures and all."""
    from tournament.event.simulate import simulate_event

    from tests.tournament.test_duplicate_rounds import ok

    path = tmp_path / "club.db"
    simulate_event(path, "competitive", "rotating", 8, 1, seed=2)
    ok("report", path, "-o", tmp_path / "report.html", "--lang", "es")
    pages = sorted(tmp_path.rglob("*.html"))
    replays = [p for p in pages if 'id="replay-data"' in p.read_text(encoding="utf-8")]
    assert replays, pages
    say = _say(replays[0].read_text(encoding="utf-8"))
    assert say["hand over (%(end)s)"] == "mano terminada (%(end)s)"
    assert say["The line: %(tiles)s, open ends: %(a)s and %(b)s."] == "La línea: %(tiles)s, extremos abiertos: %(a)s y %(b)s."
    assert say["%(n)s tiles"] == "%(n)s fichas"

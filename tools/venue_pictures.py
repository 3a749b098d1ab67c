"""Make the screenshots in docs/venue.md: the venue's pages as phones and the director see them.

    python tools/venue_pictures.py [docs/pictures]

It makes a small event, serves it on 127.0.0.1 (``tournament serve``'s application in a
thread: :class:`tournament.web.background.BackgroundVenue`), and drives the pages in the
system's Chromium through Playwright for Python (no browser is downloaded): a Competitive table at a phone's 390x844 (the start, a tile tapped
and where it may go, the result waiting for confirmation), a Broadway tableau, and the
director's page at 1280x800; and what the hall sees (the public pages, no key): find your
table and the standings on a phone, a player's page, and the projector at 1920x1080.  Simulated
games (seeded) give the moves, so the pictures are the same every time but for the keys in the
links and the round's clock.
"""

from __future__ import annotations

import random
import shutil
import sys
import tempfile
from pathlib import Path

import attrs
from playwright.sync_api import sync_playwright

from domrec.session import PARTS, Session, requests_for
from domrec.simulate import play_game

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.tables import table_record
from tournament.web.background import BackgroundVenue

PHONE = {"width": 390, "height": 844}


def _steps(record) -> list[str]:
    return [text for text in requests_for(record) if text != "y"]


def _two_ways(record, steps: list[str], start: int) -> int:
    """The first move from ``start`` on whose tile could go two ways, so that the page asks where."""
    session = Session(attrs.evolve(record, hands=(), result=None))
    for k, text in enumerate(steps):
        if k >= start and text.split()[0] not in PARTS:
            tile = text.split("@")[0]
            if sum(1 for m in session.legal() if m["tile"] == tile) >= 2:
                return k
        session.take(text)
    raise SystemExit("no move of this game has a tile that could go two ways")


def _event(folder: Path, game: str) -> Path:
    path = folder / f"{game}.db"
    store = create_event(path, make_settings("Club night", game, "rotating", seed=4))
    add_players(store, ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"])
    pair_next_round(store)
    store.close()
    return path


def _record(path: Path, seed: int):
    store = open_event(path)
    table = store.tables(1)[0]
    template = table_record(store.settings, table, {p.id: p for p in store.players()})
    store.close()
    return play_game(template, random.Random(seed))


def _send(page, text: str) -> None:
    before = int(page.evaluate("() => document.body.dataset.rev || -1"))
    page.fill("#typed-text", text)
    page.click("#typed-form button[type=submit]")
    page.wait_for_function(f"() => Number(document.body.dataset.rev) > {before} || "
                           f"document.querySelector('#message.bad')")
    if page.locator("#message.bad").count():
        raise SystemExit(f"{text!r} was refused: {page.inner_text('#message')}")


def _competitive(browser, folder: Path, out: Path) -> None:
    """The table page at a phone's size (the start, a tap, the confirmation), then the director's."""
    path = _event(folder, "competitive")
    record = _record(path, seed=11)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as venue:
        page = browser.new_page(viewport=PHONE)
        page.goto(venue.links["tables"][0]["url"])
        page.wait_for_selector("#mode-play")
        page.screenshot(path=str(out / "venue-choose.png"))
        page.click("#mode-play")
        page.wait_for_selector("#start-hand")
        steps = _steps(record)
        moves = [k for k, s in enumerate(steps) if s.split()[0] not in PARTS]
        for text in steps[:moves[6]]:  # the hand line, the deal, six moves typed in
            _send(page, text)
        k = _two_ways(record, steps, moves[6])
        for text in steps[moves[6]:k]:
            _send(page, text)
        page.click(f'#panel .tiles button[data-tile="{steps[k].split("@")[0]}"]')
        page.wait_for_selector("#panel .targets")
        page.screenshot(path=str(out / "venue-tap.png"))
        for text in steps[k:]:
            _send(page, text)
        if page.locator("#close-hand").count():
            page.click("#close-hand")
        page.wait_for_selector('#panel button[data-side="NS"]')
        page.screenshot(path=str(out / "venue-confirm.png"))
        director = browser.new_page(viewport={"width": 1280, "height": 800})
        director.goto(venue.links["director"])
        director.wait_for_selector("#tables tbody tr")
        director.screenshot(path=str(out / "venue-director.png"))
        page.close()
        director.close()


def _broadway(browser, folder: Path, out: Path) -> None:
    """A Broadway tile tapped: the tableau's cells where it may go."""
    path = _event(folder, "broadway")
    record = _record(path, seed=3)
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as venue:
        page = browser.new_page(viewport=PHONE)
        page.goto(venue.links["tables"][0]["url"])
        page.click("#mode-play")
        steps = _steps(record)
        moves = [k for k, s in enumerate(steps) if s.split()[0] not in PARTS]
        for text in steps[:moves[5]]:
            _send(page, text)
        tile = steps[moves[5]].split("@")[0].lstrip("*!")
        turned = "-".join(reversed(tile.split("-")))  # (the move names its tile as it lies; the hand, as dealt)
        page.click(f'#panel .tiles button[data-tile="{tile}"], #panel .tiles button[data-tile="{turned}"]')
        page.wait_for_selector("#panel .grid")
        page.screenshot(path=str(out / "venue-tableau.png"))
        page.close()


HALL = ["Ana Ruiz", "Bo Chen", "Carmen Díaz", "Dani Okafor", "Elena Marte", "Félix Soto", "Gus Baptiste",
        "Hilda Peña", "Iván Castro", "Juana Reyes", "Kemal Aydın", "Lucía Vega", "Marco Polanco", "Nora Félix",
        "Omar Jiménez", "Pilar Nuñez", "Quique Rosario", "Rosa Tavárez", "Samuel Brito", "Teresa Cruz",
        "Ulises Paredes", "Vera Almonte", "Wanda Liriano", "Ximena Ortiz"]


def _hall(browser, folder: Path, out: Path) -> None:
    """The public pages of a club night in round 3 (two rounds played, two tables of the third in),
    with a 45-minute clock."""
    from tournament.event.results import enter_manual
    from tournament.event.simulate import play_round

    path = folder / "hall.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4, time_limit=45))
    add_players(store, HALL)
    for number in (1, 2):
        pair_next_round(store)
        play_round(store, number, seed=4)
    pair_next_round(store)
    enter_manual(store, 1, {"NS": 212, "EW": 148})
    enter_manual(store, 4, {"NS": 96, "EW": 203})
    store.close()
    with BackgroundVenue(path, rate=1e9, burst=10 ** 9) as served:
        phone = browser.new_page(viewport=PHONE)
        phone.goto(served.base_url + "/")
        phone.wait_for_selector("#seating")
        phone.screenshot(path=str(out / "hall-find.png"))
        phone.goto(served.base_url + "/standings")
        phone.wait_for_selector("table.std")
        phone.screenshot(path=str(out / "hall-standings.png"))
        phone.goto(served.base_url + "/players/3")
        phone.wait_for_selector("ol.games")
        phone.screenshot(path=str(out / "hall-player.png"))
        projector = browser.new_page(viewport={"width": 1920, "height": 1080})
        projector.goto(served.base_url + "/projector")
        projector.wait_for_selector(".screen.on")
        projector.screenshot(path=str(out / "hall-projector.png"))
        projector.evaluate("() => document.querySelectorAll('.screen').forEach((s, k) => s.classList.toggle('on', k === 1))")
        projector.screenshot(path=str(out / "hall-projector-standings.png"))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        raise SystemExit("Chromium is not installed (Debian: apt-get install chromium)")
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu",
                                                                    "--disable-background-networking"])
        _competitive(browser, Path(folder), out)
        _broadway(browser, Path(folder), out)
        _hall(browser, Path(folder), out)
        browser.close()
    for name in ("venue-choose", "venue-tap", "venue-confirm", "venue-tableau", "venue-director", "hall-find",
                 "hall-standings", "hall-player", "hall-projector", "hall-projector-standings"):
        print(f"wrote {out / f'{name}.png'}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent / "docs" / "pictures")

"""The table's phone page (390x844), what a tester found on it:

- a language link tapped offline said "the language changes when the connection is back", and
  back online the line stayed in red and the language never changed: the link is now followed
  once the server answers, after the writes made offline are sent (none lost with the page);
- after a conflict the message line said "3 lines made offline were refused" when the server
  refused one and the two after it were not sent: it now tells them apart;
- the offline banner counted its writes as "moves" (a tap and a typed post of 17 moves were
  "2 moves"): it counts lines, as the director's page does;
- a tile in the refusal under the box ("N does not hold 6-" / "6"), in the box's example and in
  Castle Rock's row help was cut at its hyphen: each stays whole, as in the move list."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.slow

from tests.browser import playwright_or_skip

playwright_api = playwright_or_skip(server=True)

from tournament import add_players, create_event, make_settings, pair_next_round  # noqa: E402
from tests.tournament.test_venue_browser import PHONE, WAIT_MS, _served, _shot, _type  # noqa: E402
from tests.tournament.test_venue_outbox_browser import (_bodies, _competitive_table, _NeverReaches, _opened,  # noqa: E402
                                                        _outbox, _type_offline)


def _lang(url: str, lang: str) -> str:
    return url + ("&" if "?" in url else "?") + "lang=" + lang


# Every tile the page's own text shows outside an unbreakable span (a text node holding "6-6"), and
# every such span drawn over two lines (its client rects): both are a tile a phone may cut.
_CUT_TILES = """(id) => {
  const box = document.getElementById(id), bad = [];
  const walk = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    const whole = n.parentElement && getComputedStyle(n.parentElement).whiteSpace === "nowrap";
    if (!whole && /\\d-\\d/.test(n.data)) bad.push(n.data);
  }
  for (const s of box.querySelectorAll(".nowrap")) if (s.getClientRects().length > 1) bad.push("cut: " + s.textContent);
  return bad;
}"""


def test_a_language_tapped_offline_changes_once_the_connection_is_back(tmp_path, browser):
    """Offline, "Español" waits (said in red); back online the outbox goes first, then the page
    comes back in Spanish, the line made offline in the server's log (the outbox kept in IndexedDB,
    sent before the page was left)."""
    path, steps, served = _competitive_table(tmp_path, seed=6)
    url = served.links["tables"][0]["url"]
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, url)
        _type(page, steps[0])
        context.set_offline(True)
        _type_offline(page, steps[1])
        page.click("nav.langs a[data-lang=es]")
        page.wait_for_function("() => document.getElementById('message').textContent === "
                               "'no connection to the server: the language changes when the connection is back'",
                               timeout=WAIT_MS)
        assert "lang=es" not in page.url
        _shot(page, "phone-language-offline")
        context.set_offline(False)
        page.wait_for_url("**lang=es**", timeout=WAIT_MS)
        page.wait_for_function("() => document.body.dataset.outbox === '0' && document.body.dataset.rev",
                               timeout=WAIT_MS)
        assert page.inner_text("#undo") == "Deshacer"
        assert "language changes" not in page.inner_text("body")
        _shot(page, "phone-language-back")
    finally:
        served.close()
    assert _bodies(path) == steps[:2]  # the line made offline sent, once, before the page was left


def test_lines_not_sent_after_a_refusal_are_not_said_refused(tmp_path, browser):
    """One phone offline makes three lines while the other records the first of them: the server
    refuses the first, the two after it are not sent.  The line says so, in English and Spanish."""
    for lang, offline, said in [
            ("en", 2, "1 line made offline was refused and 1 was not sent: see the list under the board"),
            ("es", 3, "se rechazó 1 línea hecha sin conexión y 2 no se enviaron: vea la lista bajo el tablero")]:
        (tmp_path / lang).mkdir()
        path, steps, served = _competitive_table(tmp_path / lang, seed=6)
        url = _lang(served.links["tables"][0]["url"], lang)
        try:
            one = browser.new_context(viewport=PHONE, service_workers="block")
            two = browser.new_context(viewport=PHONE, service_workers="block")
            first = _opened(one, url)
            _type(first, steps[0])
            second = _opened(two, url)
            one.set_offline(True)
            for step in steps[1:1 + offline]:
                _type_offline(first, step)
            # the other phone records the same move meanwhile, with a comment of its own: not the
            # very same line (that one would be taken as the first phone's twin, not refused)
            _type(second, steps[1] + " {the other phone}")
            one.set_offline(False)
            _outbox(first, 0)
            first.wait_for_selector("#refused:not([hidden]) #refused-list li", timeout=WAIT_MS)
            assert first.locator("#refused-list li").count() == offline
            assert first.inner_text("#message") == said
            _shot(first, f"phone-refused-and-not-sent-{lang}")
            one.close()
            two.close()
        finally:
            served.close()


def test_the_banner_counts_lines_not_moves(tmp_path, browser):
    """A typed post of several moves and an Undo are a line each: "2 lines", never "2 moves"."""
    for lang, said in [("en", "offline: 2 lines waiting to be sent"), ("es", "sin conexión: 2 líneas esperando a enviarse")]:
        (tmp_path / lang).mkdir()
        path, steps, served = _competitive_table(tmp_path / lang, seed=6)
        try:
            context = browser.new_context(viewport=PHONE, service_workers="block")
            page = _opened(context, _lang(served.links["tables"][0]["url"], lang))
            context.set_offline(True)
            cut = _NeverReaches(steps[0])  # (its body holds the post's first line)
            context.route("**/api/v1/tables/**", cut)
            page.fill("#typed-text", "\n".join(steps[:6]))  # the hand and its whole deal: one post
            page.click("#typed-form button[type=submit]")
            _outbox(page, 1)
            context.unroute("**/api/v1/tables/**", cut)
            _type_offline(page, "undo")
            assert page.inner_text("#outbox") == said
            _shot(page, f"phone-banner-lines-{lang}")
            context.close()
        finally:
            served.close()


def test_tiles_are_never_cut_in_the_refusal_the_example_and_the_row_help(tmp_path, browser):
    """At 390 px: the refusal under the box ("N does not hold 6-6 …"), Competitive's and Castle
    Rock's examples in the box (a placeholder: non-breaking hyphens) and Castle Rock's row help
    (in Spanish, the one the tester saw cut) keep every tile whole."""
    path, steps, served = _competitive_table(tmp_path, seed=6)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, served.links["tables"][0]["url"])
        for step in steps[:6]:
            _type(page, step)
        page.fill("#typed-text", "N 6-6")
        page.click("#typed-form button[type=submit]")
        page.wait_for_selector("#typed-message.bad", timeout=WAIT_MS)
        assert "6-6" in page.inner_text("#typed-message")
        assert page.evaluate(_CUT_TILES, "typed-message") == []
        placeholder = page.get_attribute("#typed-text", "placeholder")
        assert "6\u20114" in placeholder and not any(a.isdigit() and b == "-" and c.isdigit()
                                                     for a, b, c in zip(placeholder, placeholder[1:], placeholder[2:]))
        _shot(page, "phone-refusal-tile-whole")
        context.close()
    finally:
        served.close()
    path = tmp_path / "castle-rock.db"
    store = create_event(path, make_settings("Club night", "castle-rock", "individual", table_size=3, seed=4))
    add_players(store, ["Ana", "Bo", "Cy"])
    pair_next_round(store)
    store.close()
    served = _served(path)
    try:
        context = browser.new_context(viewport=PHONE, service_workers="block")
        page = _opened(context, _lang(served.links["tables"][0]["url"], "es"))
        page.click("#mode-play")
        page.wait_for_selector("#row-hint", timeout=WAIT_MS)
        assert "4-0 5-3 3-1 4-2" in page.inner_text("#row-hint")
        assert page.evaluate(_CUT_TILES, "row-hint") == []
        assert "x5\u20113,3\u20111,6\u20113" in page.get_attribute("#typed-text", "placeholder")
        assert "-" not in page.get_attribute("#row-tiles", "placeholder")
        _shot(page, "phone-castle-rock-row-help")
        context.close()
    finally:
        served.close()

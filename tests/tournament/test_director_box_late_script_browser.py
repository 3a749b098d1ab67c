"""The director's box on a table's page (table_director.js) says the director's PIN's wait even when
its script came after the table's first read was answered (a real browser at a phone's size,
Chromium with Playwright).

The page's scripts are plain ones at the end of the page: table.js asks for the table as it runs,
and while table_director.js is still on its way the browser goes on with the answer.  The box
heard of the wait only through the event each read sends, so a script slower to come than that
first answer missed it: the box opened on an empty line, and said the wait only at the next read
(5 s later; never while the page's clock stands still, as here).  A loaded CI machine met it once.
Now the table's page keeps what its last read said, and the box takes it as it starts.

Here the script is held (a route the test lets go) until the first read has been drawn, so the order
is the one that failed, every time.  Slow, and skipped without Chromium or Playwright."""

from __future__ import annotations

import pytest

from tests.browser import playwright_or_skip

pytestmark = pytest.mark.slow
playwright_api = playwright_or_skip(server=True)
pytest.importorskip("httpx", reason="httpx (the other tables' phones here) is not installed")

from tests.tournament.test_director_pin_wait_browser import WORDS, _counts, _Hall, _paused, _says  # noqa: E402
from tests.tournament.test_venue_browser import WAIT_MS  # noqa: E402


def test_the_box_says_the_wait_heard_before_its_script_ran(tmp_path, browser):
    hall = _Hall(tmp_path)
    try:
        context = _paused(browser)
        held = []
        context.route("**/static/table_director.js", lambda route: held.append(route))
        page = context.new_page()
        page.goto(hall.tables[3]["url"], wait_until="commit")
        # the table's first read answered and drawn while the box's script is still held
        page.wait_for_function("() => Number(document.body.dataset.refreshed) > 0", timeout=WAIT_MS)
        assert len(held) == 1
        held[0].continue_()
        _counts(page, 30)  # (the box's script took the wait the first read said)
        page.click("#director")
        _says(page, "#td-message", WORDS["en"]["box"].format(n=30), "bad")
    finally:
        hall.close()

"""The venue's browsing thread (it refreshes the standings people browse, apart from the tables'
thread) always ends when the venue closes, whenever the close lands."""

from __future__ import annotations

import threading
from pathlib import Path

from tournament.web.app import BrowsingThread


class _ClosedJustBeforeTheClear(threading.Event):
    """The thread's wake-up whose ``clear`` is preceded by the venue's ``close`` (its stop set, then
    its wake-up): the interleaving that hung a CI run ten minutes in ``close``."""

    def __init__(self, owner: BrowsingThread) -> None:
        super().__init__()
        self.owner = owner
        self.cleared = 0

    def clear(self) -> None:
        if not self.cleared:
            self.owner._stop.set()  # BrowsingThread.close's two steps, landing here
            super().set()
        self.cleared += 1
        super().clear()


def test_a_close_landing_between_the_wake_up_and_its_clear_still_ends_the_thread(tmp_path: Path) -> None:
    """``close`` sets the stop, then wakes the thread; a thread woken by a result just before, past
    its check of the stop, then cleared that wake-up: it refreshed and waited for ever, and
    ``close`` joined it for ever.  It now looks at the stop again after clearing."""
    browsing = BrowsingThread.__new__(BrowsingThread)
    browsing.path, browsing.delay, browsing.made = tmp_path / "none.db", 0.0, 0
    browsing._stop = threading.Event()
    browsing._due = _ClosedJustBeforeTheClear(browsing)
    browsing._thread = threading.Thread(target=browsing._run, name="browsing-test", daemon=True)
    browsing._thread.start()
    browsing.poke()  # a result committed
    browsing._thread.join(timeout=120)  # (ends at once; the bound only keeps a hang from holding the run)
    assert not browsing._thread.is_alive(), "the browsing thread never ended: close would wait for ever"
    assert browsing._due.cleared == 1 and browsing.made == 0  # stopped before refreshing

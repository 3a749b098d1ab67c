"""A forfeit entered with ``--reason`` and ``--replace`` over the game in progress on the table's
phone is one line of ``tournament history``: the forfeit, who did not play, the game it cut short
and the reason.  Before, two lines (``forfeit_entered`` and ``result_entered_over_play``), which
read as two things the director did; a forfeit over no game keeps its own line."""

from __future__ import annotations

import pytest

from tests.tournament.test_result_over_phone_game_audited import OVER, _at, _cli, _totals_said, _trail
from tests.tournament.test_venue_live_result import _two_hands, served  # noqa: F401 (a fixture)

pytest.importorskip("starlette.testclient")


def test_a_forfeit_over_the_phones_game_is_one_trail_line(served):  # noqa: F811
    path, server, client, token, _ = served["horse-race"]
    state = _two_hands(path, client, token)
    r = _cli("result", path, "--round", 1, "--table", 1, "--forfeit", "P3", "--replace", "--by", "Desk",
             "--reason", "P3 was taken ill")
    assert r.exit_code == 0, r.output
    text, doc = _trail(path)
    assert [d["action"] for d in doc if d.get("action") in (OVER, "forfeit_entered")] == [OVER], doc
    (entry,) = [d for d in doc if d.get("action") == OVER]
    assert entry["reason"] == "P3 was taken ill" and entry["detail"]["absent"] == ["P3"]
    assert text.count("P3 was taken ill") == 1, text
    assert (f"round 1 by Desk: table 1: a forfeit, P3 did not play (P1 ") in text, text
    assert (f"entered over the game in progress on its phone ({_at(state)}, {_totals_said(state)} so far) — "
            f"P3 was taken ill") in text, text


def test_a_forfeit_over_no_game_keeps_its_own_line(served):  # noqa: F811
    path, server, client, token, _ = served["competitive"]
    r = _cli("result", path, "--round", 1, "--table", 2, "--forfeit", "EW", "--reason", "EW did not come")
    assert r.exit_code == 0, r.output
    text, doc = _trail(path)
    assert [d["action"] for d in doc if d.get("action") in (OVER, "forfeit_entered")] == ["forfeit_entered"]
    assert "a forfeit at table 2: EW did not play — EW did not come" in text, text


def test_a_sides_forfeit_over_the_phones_game_in_docs_words(served):  # noqa: F811
    """docs/tournament.md's line, at a table of two sides."""
    path, server, client, token, _ = served["competitive"]
    state = _two_hands(path, client, token)
    r = _cli("result", path, "--round", 1, "--table", 1, "--forfeit", "EW", "--replace", "--reason", "EW left")
    assert r.exit_code == 0, r.output
    text, doc = _trail(path)
    assert [d["action"] for d in doc if d.get("action") in (OVER, "forfeit_entered")] == [OVER], doc
    points = next(d for d in doc if d.get("action") == OVER)["detail"]["now"][0][1]
    totals = state["game"]["totals"]
    assert (f"table 1: a forfeit, EW did not play (NS {points}, EW 0) entered over the game in progress on its "
            f"phone ({_at(state)}, NS {totals['NS']}, EW {totals['EW']} so far) — EW left") in text, text

"""A typed score refused over a table whose result is a record of hand scores only says *scores
only*, never *verified record*: docs/tournament.md says such a record is "reported as *scores only*,
never as a verified record, in `result`'s line".  Before, the refusal (`already has a result (NS
…, EW 0, verified record); give --replace …`) called it a verified record."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tournament import open_event
from tournament.cli import app
from tournament.event import results
from tests.tournament.test_venue import _auth
from tests.tournament.test_venue_scores_only import sheet_table  # noqa: F401 (a fixture)


def _scores_only_game(client, token: str, state: dict) -> dict:
    """Table 1 played to its end by hand scores (NS 51, 52, …) and confirmed by both sides."""
    n = 0
    while not state["game"]["over"]:
        n += 1
        r = client.post("/api/v1/tables/1/1/dgn", headers=_auth(token),
                        json={"rev": state["rev"], "text": f"hand {n}\nend NS {50 + n} EW 0"})
        assert r.status_code == 200, r.json()
        state = r.json()
    for side in state["sides"]:
        r = client.post("/api/v1/tables/1/1/confirm", headers=_auth(token), json={"rev": state["rev"], "side": side})
        assert r.status_code == 200, r.json()
        state = r.json()
    assert state["result"]["scores_only"]
    return state


def test_result_over_a_scores_only_record_says_scores_only(sheet_table):
    path, server, client, token, _, state = sheet_table
    state = _scores_only_game(client, token, state)
    ns = state["result"]["scores"]["NS"]
    r = CliRunner().invoke(app, ["result", str(path), "--round", "1", "--table", "1", "--score", "NS=60,EW=5"])
    assert r.exit_code == 1, r.output
    said = " ".join(r.output.split())
    assert f"round 1 table 1 already has a result (NS {ns}, EW 0, scores only); give --replace" in said, said
    assert "verified" not in said


def test_the_library_refusal_says_scores_only(sheet_table):
    path, server, client, token, _, state = sheet_table
    _scores_only_game(client, token, state)
    store = open_event(path)
    try:
        with pytest.raises(results.HasResult, match=r", scores only\); give --replace") as refused:
            results.enter_manual(store, 1, {"NS": 60, "EW": 5}, round_no=1)
        assert "verified record" not in str(refused.value)
    finally:
        store.close()

"""The director's desk, round two (issue 39, "Wrong or inconsistent today"): a typed score checked
against the range its game's engine declares, one result for a forfeit by one player everywhere,
head-to-head's two conventions, a requested sit-out, a result cleared, a report's folder made,
``--best`` paired with its ``--by``, and the desk's words (history, tables, pair numbers, brackets)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import games
from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.cli import app
from tournament.errors import UnusableInput

runner = CliRunner()


def run(*args, code: int | None = 0):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in (result.output or "")
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if code is not None:
        assert result.exit_code == code, result.output
    return result


# --- 1. a typed score within the range the game's engine declares --------------------------------

#: game, variant, whether its final totals can be below zero (docs/rules/).
SIGNS = [("competitive", None, False), ("domino-roads", None, False), ("horse-race", None, False),
         ("horse-race", "celko", True), ("castle-rock", None, True), ("broadway", None, True)]


@pytest.mark.parametrize("game, variant, below", SIGNS)
def test_each_engine_declares_the_range_of_its_final_scores(game, variant, below) -> None:
    span = games.engine(game).final_scores(variant or "standard", {})
    assert (span.refusal(-31) is None) is below
    assert span.refusal(53) is None


def test_castle_rock_takes_a_typed_score_below_zero_at_the_desk(tmp_path: Path) -> None:
    """What a verified Castle Rock record of the table gives, typed in: P2 ended at -31."""
    path = tmp_path / "cr.db"
    store = create_event(path, make_settings("CR", "castle-rock", "individual", 2, seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    run("result", path, "--round", 1, "--table", 1, "--score", "P1=53,P2=-31")
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id).scores == {"P1": 53, "P2": -31}


@pytest.mark.parametrize("game, variant, below", SIGNS)
def test_a_score_below_zero_is_refused_only_where_the_game_cannot_end_so(tmp_path: Path, game, variant,
                                                                          below) -> None:
    fmt, size = {"competitive": ("rotating", 4), "broadway": ("rotating", 4),
                 "domino-roads": ("individual", 3)}.get(game, ("individual", 2))
    store = create_event(tmp_path / "ev.db", make_settings("E", game, fmt, size, seed=1, variant=variant))
    try:
        add_players(store, ["Ana", "Bo", "Cy", "Di"][:size] if size == 3 else ["Ana", "Bo", "Cy", "Di"])
        pair_next_round(store)
        sides = store.tables(1)[0].sides()
        scores = {side: 60 - 90 * (i == 1) for i, side in enumerate(sides)}
        if below:
            assert enter_manual(store, 1, scores).status == "stored"
        else:
            with pytest.raises(UnusableInput, match=f"below zero, which no game of {game} can end with"):
                enter_manual(store, 1, scores)
    finally:
        store.close()

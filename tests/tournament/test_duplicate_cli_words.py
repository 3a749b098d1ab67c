"""The command line's words in a duplicate event (docs/duplicate.md, "The standings"): one round
is "1 round" (simulate, check said "1 rounds"); before round 1 `standings` says in one line that no
board has a result (it printed a blank line and the ranking); and the ranking line says what the
pairs rank by, the matchpoint percentage, as the hall says it and the JSON's ``percent`` ranks."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_duplicate_event import new_event, run


def test_simulate_and_check_say_one_round(tmp_path: Path) -> None:
    event = tmp_path / "one.db"
    out = run("simulate", event, "--format", "duplicate", "--tables", 3, "--rounds", 1, "--seed", 2, "-q")
    assert " 1 round, " in out and "1 rounds" not in out, out
    out = run("check", event)
    assert ": 1 round, " in out and "1 rounds" not in out, out


def test_standings_before_round_one_say_no_board_has_a_result(tmp_path: Path) -> None:
    event = tmp_path / "e.db"
    new_event(event, 6, "howell")
    assert run("standings", event).strip() == "Club duplicate: no board has a result yet (round 1 is not paired)"


def test_the_ranking_line_says_matchpoint_percentage(tmp_path: Path) -> None:
    for ranking, said in (("matchpoints", "ranked by matchpoint percentage, then IMPs"),
                          ("imps", "ranked by IMPs, then matchpoint percentage")):
        event = tmp_path / f"{ranking}.db"
        new_event(event, 6, "howell", ranking)
        run("boards", event, "--boards", 10, "--seed", 7)
        run("pair", event)
        out = run("standings", event)
        assert said in out and "ranked by matchpoints" not in out, out


def test_the_halls_ranking_line_says_what_breaks_a_tie_of_imps(tmp_path: Path) -> None:
    """Ranked by IMPs, a tie is broken by the matchpoint percentage (``matchpoints.ranking``), as the
    terminal says: the hall's page said "then matchpoints", which a pair that sat out a board is
    behind on and the ranking never compares."""
    event = tmp_path / "imps.db"
    new_event(event, 6, "howell", "imps")
    run("boards", event, "--boards", 10, "--seed", 7)
    run("pair", event)
    for lang, said in (("en", "Ranked by IMPs, then matchpoint percentage."),
                       ("es", "Clasificación por IMPs; después, por porcentaje de puntos de match.")):
        page = run("report", event, "-o", "-", "--lang", lang)
        assert said in page and "then matchpoints." not in page and "por puntos de match." not in page

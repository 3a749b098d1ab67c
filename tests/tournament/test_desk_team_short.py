"""A team a pair short: the forfeit the pairing stores at its withdrawn pair's table is part of the
pairing, so ``unpair`` takes it away with the round (kept in the trail) and ``swap`` (two pairs of
one team) moves the pairs, the forfeit following the pair that is short.  A table with a result of
its own still holds the round, and the refusal names the real way out (``tournament clear``)."""

from __future__ import annotations

from pathlib import Path

from tests.tournament.test_team_stages import cli, open_event


def _event(tmp_path: Path) -> Path:
    """Four teams of two pairs, round 1 played, then A1 & A2 withdrawn and round 2 paired: Team A's
    withdrawn pair sits at a table lost by forfeit."""
    path = tmp_path / "u.db"
    cli("new", path, "--name", "U", "--game", "competitive", "--format", "teams", "--team-size", "4")
    for t in "ABCD":
        cli("team", path, "add", f"Team {t}", "--pair", f"{t}1,{t}2", "--pair", f"{t}3,{t}4")
    cli("pair", path)
    for n in (1, 2, 3, 4):
        cli("result", path, "--table", n, "--score", "NS=200,EW=100")
    cli("withdraw", path, "A1 & A2")
    cli("pair", path)
    return path


def _forfeits(path: Path) -> dict[int, tuple[tuple[str, ...], frozenset[str]]]:
    """Round 2's forfeited tables: number -> (the sides short, the names seated there)."""
    with open_event(path) as store:
        names = {p.id: p.name for p in store.players()}
        results = store.results()
        return {t.number: (results[t.id].absent, frozenset(names[p] for p in t.players))
                for t in store.tables(2) if t.id in results and results[t.id].kind == "forfeit"}


def test_unpair_takes_the_pairings_forfeit_with_the_round(tmp_path: Path) -> None:
    path = _event(tmp_path)
    [(number, (_, seated))] = _forfeits(path).items()
    assert {"A1", "A2"} <= seated
    out = cli("unpair", path)
    assert "round 2 unpaired" in out
    with open_event(path) as store:
        assert store.last_round() == 1
    trail = cli("history", path, "--desk")
    assert (f"table {number}'s result was taken back before its round was un-paired (the old result is kept "
            f"here) — the forfeit the pairing stored for a team a pair short goes with its round") in \
        " ".join(trail.split())
    cli("pair", path)  # paired again: the forfeit stored again with it
    assert len(_forfeits(path)) == 1


def test_swap_of_two_pairs_of_a_team_moves_the_forfeit_with_the_pair_short(tmp_path: Path) -> None:
    path = _event(tmp_path)
    [(number, (short, seated))] = _forfeits(path).items()
    winners = sorted({"B1", "B2", "B3", "B4"} & seated)
    other = "B3 & B4" if winners[0] == "B1" else "B1 & B2"
    cli("swap", path, " & ".join(winners), other)  # the winning team's pairs change places
    [(again, (short_now, seated_now))] = _forfeits(path).items()
    assert (again, short_now) == (number, short) and {"A1", "A2"} <= seated_now
    assert not set(winners) & seated_now  # the forfeit won now by the pair seated there
    cli("swap", path, "A1 & A2", "A3 & A4")  # the short team's: the forfeit follows its withdrawn pair
    [(moved, (_, seated_moved))] = _forfeits(path).items()
    assert moved != number and {"A1", "A2"} <= seated_moved
    with open_event(path) as store:
        assert next(t for t in store.tables(2) if t.number == number).id not in store.results()
    assert "the forfeit of the team a pair short follows its withdrawn pair" in " ".join(
        cli("history", path).split())
    assert "0 errors" in cli("check", path)


def test_a_table_with_its_own_result_still_holds_the_round_and_says_the_way_out(tmp_path: Path) -> None:
    path = _event(tmp_path)
    [number] = _forfeits(path)
    played = 3 if number != 3 else 1
    cli("result", path, "--round", 2, "--table", played, "--score", "NS=210,EW=50")
    out = cli("unpair", path, code=1)
    assert (f"round 2 table {played} has a result: round 2 cannot be unpaired (a result entered by mistake is "
            f"taken back first with `tournament clear EVENT --round 2 --table {played} --reason TEXT`; a result of "
            f"a game played is corrected with `tournament amend`)") in " ".join(out.split())
    assert len(_forfeits(path)) == 1  # nothing taken back
    cli("clear", path, "--round", 2, "--table", played, "--reason", "wrong table")
    cli("unpair", path)

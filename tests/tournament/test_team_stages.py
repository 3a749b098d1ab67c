"""Team events (issue 37, the gaps): home and away balance, a team a pair short, and groups then a
knockout of teams."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament.event import rounds, teams as tm
from tournament.event.files import create_event
from tournament.event.simulate import play_round
from tournament.pairing.teams import balance, home_first, home_history, must_be, squad_of_players
from tournament.settings import make_settings
from tournament.store.event_store import EventStore


def team_event(path: Path, teams: int, size: int = 4, **settings: object) -> EventStore:
    """A team event of ``teams`` teams of ``size`` players ("Team 01", its pairs "T01 pair k"),
    entered as a team event's CSV would enter them."""
    store = create_event(path, make_settings("Gaps", "competitive", "teams", team_size=size, **settings))
    per = size // 2
    tm.add_teams(store, [(f"Team {t:02d}", [(f"P{t:02d}-{2 * k}", f"P{t:02d}-{2 * k + 1}", f"T{t:02d} pair {k + 1}")
                                            for k in range(per)], [f"R{t:02d}"]) for t in range(1, teams + 1)])
    return store


def homes_of(store: EventStore) -> dict[str, str]:
    """Team name -> its matches in order, H where it sat N-S at the match's first table, A where not;
    read from the stored tables."""
    squads = tm.squads(store)
    names = {s.id: s.name for s in squads}
    history = home_history(store.tables(), squad_of_players(squads, store.teams()))
    return {names[u]: "".join("H" if x else "A" for x in h) for u, h in history.items()}


@pytest.mark.parametrize("schedule, teams", [("swiss", 10), ("swiss", 9), ("round-robin", 7)])
def test_home_and_away_alternate_fairly_over_six_rounds(tmp_path: Path, schedule: str, teams: int) -> None:
    store = team_event(tmp_path / "e.db", teams, team_schedule=schedule)
    try:
        for r in range(1, 7):
            plan = rounds.pair_next_round(store)
            play_round(store, plan.round, 7)
            for team, line in homes_of(store).items():
                # As chess colours: never two more home matches than away (or the other way), never
                # three in a row of one.
                assert abs(line.count("H") - line.count("A")) <= 2, (r, team, line)
                assert "HHH" not in line and "AAA" not in line, (r, team, line)
        lines = homes_of(store)
        played = sum(len(x) for x in lines.values())
        assert played == 6 * (teams - teams % 2)  # a bye is no match
        # Most teams are as level as their number of matches allows (one out when it is odd).
        assert sum(abs(x.count("H") - x.count("A")) - len(x) % 2 for x in lines.values()) <= teams // 2, lines
    finally:
        store.close()


def test_which_team_is_at_home() -> None:
    h, a = True, False
    assert balance([h, h, a]) == 1 and must_be([h, h]) is False and must_be([a, h, a, a]) is True
    assert must_be([h, a]) is None and must_be([]) is None
    # The team at home less often; level, the one away where they last differ; level, the first named.
    assert home_first(1, 2, {1: [h, h, a], 2: [a]}) == (2, 1)
    assert home_first(1, 2, {1: [a, h], 2: [h, a]}) == (2, 1)
    assert home_first(1, 2, {1: [h, a], 2: [h, a]}) == (1, 2)
    assert home_first(1, 2, {}) == (1, 2)
    # A team that must be at home is, though the other has been away more often.
    assert home_first(1, 2, {1: [h, h, a, a], 2: [a]}) == (1, 2)

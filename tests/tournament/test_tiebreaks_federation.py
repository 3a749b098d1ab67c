"""The federation tie-breaks (issue 39): median Buchholz, Sonneborn-Berger and best round, worked
out by hand for small events and checked in the pure standings, in any order of keys."""

from __future__ import annotations

import pytest

from tournament import make_settings
from tournament.errors import SettingsError
from tournament.pairing.standings import compute, median_cut
from tournament.values import Player, Result, SeatAssignment, Table, Team

# Four pairs (A=1 … D=4; pair i is players 2i-1 and 2i), three rounds:
#   round 1: A 200-100 B, C 200-150 D;  round 2: A 200-190 C, B 200-50 D;  round 3: D 200-0 A, B 200-120 C.
# Wins: A 2, B 2, C 1, D 1.  Buchholz: A 4, B 4, C 5, D 5.
# Sonneborn-Berger (the wins of those beaten): A = B 2 + C 1 = 3; B = D 1 + C 1 = 2; C = D 1; D = A 2.
# Median Buchholz (3 games: the best and worst game's opponent dropped): A, B 1; C, D 2.
# Best round (the biggest margin of one game): A 100, B 150, C 50, D 200.
GAMES = [(1, 1, 2, 200, 100), (1, 3, 4, 200, 150), (2, 1, 3, 200, 190), (2, 2, 4, 200, 50),
         (3, 4, 1, 200, 0), (3, 2, 3, 200, 120)]


def _pairs_event(tiebreaks: tuple[str, ...], games=GAMES, byes=None):
    settings = make_settings("fed", "competitive", "pairs", tiebreaks=tiebreaks)
    players = [Player(i, f"p{i}", (i + 1) // 2, 1, None) for i in range(1, 9)]
    teams = [Team(t, "ABCDE"[t - 1], (2 * t - 1, 2 * t), 1, None) for t in range(1, 5)]
    tables, results = [], {}
    for n, (rnd, ns, ew, s_ns, s_ew) in enumerate(games, 1):
        seats = (SeatAssignment("N", "NS", 2 * ns - 1), SeatAssignment("E", "EW", 2 * ew - 1),
                 SeatAssignment("S", "NS", 2 * ns), SeatAssignment("W", "EW", 2 * ew))
        tables.append(Table(n, rnd, n, seats))
        winner = "NS" if s_ns > s_ew else "EW" if s_ew > s_ns else None
        results[n] = Result(n, n, "manual", True, {"NS": s_ns, "EW": s_ew}, winner, None, "")
    return compute(settings, players, teams, tables, results, byes or {})


def _by_name(table) -> dict[str, object]:
    return {r.name: r for r in table.rows}


def test_the_three_keys_by_hand() -> None:
    table = _pairs_event(("wins", "median-buchholz", "sonneborn-berger", "best-round"))
    rows = _by_name(table)
    assert {n: r.buchholz for n, r in rows.items()} == {"A": 4, "B": 4, "C": 5, "D": 5}
    assert {n: r.median_buchholz for n, r in rows.items()} == {"A": 1, "B": 1, "C": 2, "D": 2}
    assert {n: r.sonneborn_berger for n, r in rows.items()} == {"A": 3, "B": 2, "C": 1, "D": 2}
    assert {n: r.best_round for n, r in rows.items()} == {"A": 100, "B": 150, "C": 50, "D": 200}
    # Level on wins and median Buchholz, A beat the stronger: Sonneborn-Berger ranks A first.
    assert [(r.name, r.rank) for r in table.rows] == [("A", 1), ("B", 2), ("D", 3), ("C", 4)]


@pytest.mark.parametrize("keys,order", [
    (("wins", "sonneborn-berger"), [("A", 1), ("B", 2), ("D", 3), ("C", 4)]),
    (("wins", "best-round"), [("B", 1), ("A", 2), ("D", 3), ("C", 4)]),
    (("wins", "median-buchholz"), [("A", 1), ("B", 1), ("C", 3), ("D", 3)]),
    (("best-round", "wins"), [("D", 1), ("B", 2), ("A", 3), ("C", 4)]),
    (("sonneborn-berger", "best-round"), [("A", 1), ("D", 2), ("B", 3), ("C", 4)]),
])
def test_any_order_of_keys(keys: tuple[str, ...], order: list[tuple[str, int]]) -> None:
    table = _pairs_event(keys)
    assert [(r.name, r.rank) for r in table.rows] == order
    assert all(k in table.columns() for k in keys)  # each a named column
    shown = table.to_dict()["standings"][0]
    assert all(k in shown for k in keys)
    assert "Sonneborn-Berger" in table.ranked_by() or "sonneborn-berger" not in keys


def test_not_shown_unless_ranked_by() -> None:
    table = _pairs_event(("wins", "diff"))
    assert not {"median-buchholz", "sonneborn-berger", "best-round"} & set(table.columns())


def test_a_bye_is_no_game_and_no_opponent() -> None:
    """Pairs C and D sit out round 1 with a bye (1 win): no game, so no opponent in their Buchholz
    or Sonneborn-Berger and no best round from it; the bye's win counts in their opponents' sums."""
    games = [(1, 1, 2, 200, 100), (2, 1, 3, 200, 190), (2, 2, 4, 200, 50)]
    settings_keys = ("wins", "sonneborn-berger", "median-buchholz", "best-round")
    table = _pairs_event(settings_keys, games, byes={1: [5, 6, 7, 8]})  # pairs C and D had the bye
    rows = _by_name(table)
    assert rows["C"].byes == 1 and rows["C"].wins == 1
    # A beat B (1 win) and C (its bye's win): 2.
    assert rows["A"].sonneborn_berger == 2
    # C played once (lost to A): SB 0, one game so nothing cut, best round its margin -10.
    assert rows["C"].sonneborn_berger == 0 and rows["C"].median_buchholz == 2 and rows["C"].best_round == -10


def test_a_draw_counts_half() -> None:
    games = [(1, 1, 2, 150, 150), (1, 3, 4, 200, 0), (2, 1, 3, 200, 100), (2, 2, 4, 200, 100)]
    rows = _by_name(_pairs_event(("wins", "sonneborn-berger"), games))
    # A drew with B (1.5 wins) and beat C (1 win): 0.75 + 1.
    assert rows["A"].sonneborn_berger == pytest.approx(1.75)
    assert rows["B"].sonneborn_berger == pytest.approx(0.75)  # drew with A (1.5 wins), beat D (0 wins)


@pytest.mark.parametrize("games,cut", [(1, 0), (2, 0), (3, 1), (8, 1), (9, 2), (13, 2)])
def test_median_cut(games: int, cut: int) -> None:
    assert median_cut(games) == cut


def test_multi_player_tables() -> None:
    """Individuals at a table of four: Sonneborn-Berger counts each opponent placed behind (the
    game's winner first when the top was level), best round the best score at one table."""
    settings = make_settings("ind", "horse-race", "individual", tiebreaks=("placement", "sonneborn-berger",
                                                                             "best-round", "median-buchholz"))
    players = [Player(i, f"p{i}", None, 1, None) for i in range(1, 5)]
    seats = tuple(SeatAssignment(f"P{i}", f"P{i}", i) for i in range(1, 5))
    tables = [Table(1, 1, 1, seats), Table(2, 2, 1, seats)]
    results = {1: Result(1, 1, "manual", True, {"P1": 50, "P2": 40, "P3": 40, "P4": 0}, "P1", None, ""),
               2: Result(2, 2, "manual", True, {"P1": 0, "P2": 10, "P3": 61, "P4": 30}, "P3", None, "")}
    table = compute(settings, players, [], tables, results, {})
    rows = {r.unit: r for r in table.rows}
    # Placement (3-2-1-0, level seats share): p1 3+0, p2 1.5+1, p3 1.5+3, p4 0+2.
    assert {u: r.placement for u, r in rows.items()} == {1: 3, 2: 2.5, 3: 4.5, 4: 2}
    # p1 beat everyone in game 1 (2.5 + 4.5 + 2 = 9) and nobody in game 2.
    assert rows[1].sonneborn_berger == 9
    # p2: game 1 level with p3 (half of 4.5), ahead of p4 (2); game 2 ahead of p1 (3).
    assert rows[2].sonneborn_berger == pytest.approx(2.25 + 2 + 3)
    assert {u: r.best_round for u, r in rows.items()} == {1: 50, 2: 40, 3: 61, 4: 30}
    # Two games: nothing is cut, the median Buchholz is the Buchholz (9 + 9).
    assert rows[1].median_buchholz == rows[1].buchholz == 18
    assert table.rows[0].unit == 3


def test_rejected_where_unknown() -> None:
    with pytest.raises(SettingsError):
        make_settings("x", "competitive", "pairs", tiebreaks=("wins", "sonnenborn"))


# --- the columns, everywhere the standings are shown ---------------------------------------------

FED_KEYS = ("wins", "sonneborn-berger", "median-buchholz", "best-round")


@pytest.fixture(scope="module")
def fed_event(tmp_path_factory):
    from tournament import create_event, pair_next_round
    from tournament.event.players import add_pairs
    from tournament.event.simulate import play_round

    path = tmp_path_factory.mktemp("fed") / "fed.db"
    store = create_event(path, make_settings("Open", "competitive", "pairs", seed=3, tiebreaks=FED_KEYS))
    add_pairs(store, [(f"a{i}", f"b{i}", f"pair {i}") for i in range(8)])
    for _ in range(3):
        play_round(store, pair_next_round(store).round, 7)
    store.close()
    return path


def test_standings_command_terminal_csv_json(fed_event) -> None:
    import csv
    import io
    import json

    from .test_pages import run

    r = run("standings", fed_event, "--wide")
    assert r.exit_code == 0, r.output
    header = next(line for line in r.output.splitlines() if "rank" in line)
    # The ranking keys come right after the name, in ranking order.
    assert header.index("wins") < header.index("Sonneborn-Berger") < header.index("median Buchholz") \
        < header.index("best round")
    assert "Sonneborn-Berger (the opponents beaten" in r.output
    data = json.loads(run("standings", fed_event, "--json").output)
    assert data["tiebreaks"] == list(FED_KEYS)
    for row in data["standings"]:
        assert {"sonneborn-berger", "median-buchholz", "best-round"} <= set(row)
    about = {c["key"]: c["about"] for c in data.get("columns", [])}
    if about:
        assert "Sonneborn-Berger" in about["sonneborn-berger"]
    out = run("standings", fed_event, "--csv").output
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rows and "sonneborn-berger" in rows[0] and "best-round" in rows[0]
    # The order the rows are in is the keys' order.
    keys = [tuple(-float(r[k]) for k in FED_KEYS) for r in rows]
    assert keys == sorted(keys)


@pytest.mark.parametrize("lang,words", [("en", ("Sonneborn-Berger", "median Buchholz", "best round")),
                                        ("es", ("Sonneborn-Berger", "Buchholz mediano", "mejor ronda"))])
def test_public_page_report_and_projector(fed_event, lang: str, words: tuple[str, ...]) -> None:
    from tournament import open_event
    from tournament.event.public import public_data
    from tournament.pages import public as pages
    from tournament.pages.public import Site

    store = open_event(fed_event)
    data = public_data(store)
    store.close()
    site = Site(served=False)
    made = {"standings": pages.page_html(data, site, "standings", lang=lang),
            "report": pages.report_html(data, site, lang),
            "projector": pages.projector_html(data, site, "http://127.0.0.1:8000/", lang=lang)}
    for where, html in made.items():
        for word in words:
            assert word in html, (where, word)

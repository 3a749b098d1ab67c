"""Duplicate scoring: matchpoints, IMPs on the domino scale, too few tables, duplicate teams;
a 7-table Mitchell and a 5-table Howell played through the library from each board's deal and
scored again independently here; and docs/duplicate.md's worked example, read from the page."""

from __future__ import annotations

import re
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import pytest

import domrec

from tournament.pairing import boards as B, matchpoints as P, movements as M

DOC = Path(__file__).resolve().parents[2] / "docs" / "duplicate.md"

#: Competitive's scale as docs/duplicate.md prints it: (from this difference, in points; IMPs).
COMPETITIVE_SCALE = [(5, 1), (12.5, 2), (22.5, 3), (32.5, 4), (42.5, 5), (55, 6), (67.5, 7), (80, 8), (92.5, 9),
                     (107.5, 10), (125, 11), (150, 12), (187.5, 13), (225, 14), (275, 15), (325, 16), (375, 17),
                     (437.5, 18), (500, 19), (562.5, 20), (625, 21), (750, 22), (875, 23), (1000, 24)]


def imps_by_hand(difference: Fraction, scale=COMPETITIVE_SCALE) -> int:
    won = max([k for start, k in scale if abs(difference) >= Fraction(start)], default=0)
    return won if difference >= 0 else -won


def test_five_tables_by_hand() -> None:
    """NS nets +30, +5, -25, +5, -40: computed on paper below, then by the library."""
    results = [P.TableResult(1, 1, 6, 30, 0), P.TableResult(1, 2, 7, 10, 5), P.TableResult(1, 3, 8, 0, 25),
               P.TableResult(1, 4, 9, 10, 5), P.TableResult(1, 5, 10, 0, 40)]
    session = P.score_session(results)
    ns, ew = session.travellers
    # Matchpoints, top 8: +30 beats 4 -> 8; +5 beats 2 (-25, -40) and ties 1 -> 5; -25 beats 1 -> 2; -40 -> 0.
    assert [(r.pair, r.net, r.matchpoints, r.top) for r in ns.results] == \
        [(1, 30, 8, 8), (2, 5, 5, 8), (3, -25, 2, 8), (4, 5, 5, 8), (5, -40, 0, 8)]
    # Datum: five tables, so +30 and -40 are left out: (5 + 5 - 25) / 3 = -5.
    assert ns.datum == -5 and ew.datum == 5
    # Differences 35, 10, -20, 10, -35 -> 4, 1, -2, 1, -4 IMPs at 5 points a step.
    assert [r.imps for r in ns.results] == [4, 1, -2, 1, -4]
    assert [(r.pair, r.matchpoints, r.imps) for r in ew.results] == \
        [(6, 0, -4), (7, 3, -1), (8, 6, 2), (9, 3, -1), (10, 8, 4)]
    total = session.total(2)
    assert (total.boards, total.matchpoints, total.top, total.imps) == (1, 5, 8, 1)
    assert total.percent == pytest.approx(62.5)
    assert [t.pair for t in P.ranking(session)] == [1, 10, 8, 2, 4, 7, 9, 3, 5, 6]
    assert [t.pair for t in P.ranking(session, "imps")][:2] == [1, 10]


def test_the_scale_is_the_one_the_doc_prints() -> None:
    assert [(float(d), k) for d, k in P.imp_scale(5)] == COMPETITIVE_SCALE
    for d in [Fraction(n, 6) for n in range(-7000, 7000, 7)]:
        assert P.imps(d, 5) == imps_by_hand(d)
    assert P.imps(4, 5) == 0 and P.imps(5, 5) == 1 and P.imps(-5, 5) == -1 and P.imps(10 ** 6, 5) == 24
    assert [P.imps(d, 1) for d in (0, 1, 2, 3, 5, 7)] == [0, 1, 1, 2, 3, 4]
    with pytest.raises(P.ScoringError, match="whole number of points above zero"):
        P.imps(10, 0)


def test_a_board_at_too_few_tables_says_so() -> None:
    results = [P.TableResult(1, 1, 4, 20, 0), P.TableResult(1, 2, 5, 0, 10), P.TableResult(2, 1, 5, 5, 0)]
    session = P.score_session(results)
    lonely = [t for t in session.travellers if t.board == 2]
    assert all(t.too_few and t.datum is None for t in lonely)
    assert all(r.too_few and r.matchpoints is None and r.imps is None for t in lonely for r in t.results)
    one = session.total(1)
    assert (one.boards, one.unscored, one.matchpoints, one.top) == (1, 1, 2, 2)
    assert P.score_session(results, min_tables=3).total(1).boards == 0
    with pytest.raises(P.ScoringError, match="pair 1 has two results on it"):
        P.score_session(results + [P.TableResult(1, 1, 6, 0, 0)])
    with pytest.raises(P.ScoringError, match="both NS and EW"):
        P.score_session([P.TableResult(3, 2, 2, 0, 0)])


def test_duplicate_teams_imps_and_victory_points() -> None:
    # Board 1: home +50 with the NS cards at one table, visitors +19 with them at the other: +31.
    # Board 2: home loses 27 at one table and wins 10 at the other: -17.  Board 3: equal: 0.
    boards = [P.TeamBoard(1, (50, 0), (19, 0)), P.TeamBoard(2, (0, 27), (0, 10)), P.TeamBoard(3, (20, 0), (20, 0))]
    assert [b.net for b in boards] == [31, -17, 0]
    match = P.team_match(boards)
    assert [i for _, i in match.boards] == [3, -2, 0]
    assert (match.home_imps, match.away_imps, match.margin, match.home_vp) == (3, 2, 1, None)
    scored = P.team_match(boards, victory_points=True)
    assert scored.home_vp + scored.away_vp == pytest.approx(20)
    assert scored.home_vp == P.victory_point(1, 3) > 10
    assert P.victory_point(0, 8) == 10.0 and P.victory_point(200, 8) == 20.0 and P.victory_point(-200, 8) == 0.0
    assert P.victory_point(5, 8) + P.victory_point(-5, 8) == pytest.approx(20)
    gains = [P.victory_point(m + 1, 8) - P.victory_point(m, 8) for m in range(0, 42)]
    assert all(a >= b - 0.011 for a, b in zip(gains, gains[1:])), "each IMP is worth no more than the one before"
    with pytest.raises(P.ScoringError, match="listed twice"):
        P.team_match(boards + [boards[0]])


def rescored(results: list[P.TableResult], scale=COMPETITIVE_SCALE) -> dict[int, list]:
    """The session scored again, here, the slow way: pair -> [matchpoints, top, IMPs]."""
    out: dict[int, list] = defaultdict(lambda: [0, 0, 0])
    by_board = defaultdict(list)
    for r in results:
        by_board[r.board].append(r)
    for rows in by_board.values():
        for side in ("NS", "EW"):
            nets = {(r.ns if side == "NS" else r.ew): (r.ns_points - r.ew_points) * (1 if side == "NS" else -1)
                    for r in rows}
            ordered = sorted(nets.values())
            kept = ordered[1:-1] if len(ordered) >= 5 else ordered
            middle = Fraction(sum(kept), len(kept))
            for pair, net in nets.items():
                out[pair][0] += sum(2 if net > other else 1 if net == other else 0 for other in nets.values()) - 1
                out[pair][1] += 2 * (len(nets) - 1)
                out[pair][2] += imps_by_hand(net - middle, scale)
    return out


def play_movement(mv: M.Movement, boards: dict[int, B.Board]) -> list[P.TableResult]:
    """Every table of every round plays its boards from the board's deal, through the engine; each
    record is validated by domrec and checked against its board before its score is taken."""
    results = []
    for s in mv.all_sittings():
        for number in s.boards:
            record = B.play(boards[number], f"table {s.table}")
            assert domrec.validate(record).valid
            B.check_hand(boards[number], record)
            scores = record.hands[0].result.scores
            results.append(P.TableResult(number, s.ns, s.ew, scores["NS"], scores["EW"]))
    return results


def test_a_seven_table_mitchell_of_fourteen_boards() -> None:
    mv = M.mitchell(7, 2)
    assert mv.boards == tuple(range(1, 15))
    boards = {b.number: b for b in B.deal_boards("competitive", 14, 38)}
    results = play_movement(mv, boards)
    assert len(results) == 7 * 14
    session = P.score_session(results)
    assert all(t.tables == 7 and not t.too_few for t in session.travellers)
    expected = rescored(results)
    assert {t.pair: [t.matchpoints, t.top, t.imps] for t in session.totals} == dict(expected)
    assert all(t.boards == 14 for t in session.totals)
    assert sum(t.matchpoints for t in session.totals) == 14 * 2 * (7 * 6)  # each board hands out n(n-1) a direction


def test_a_five_table_howell() -> None:
    mv = M.howell(5, 2)
    step = P.IMP_STEP["horse-race"]
    boards = {b.number: b for b in B.deal_boards("horse-race", len(mv.boards), 38, players=4,
                                                 options={"partnerships": True})}
    results = play_movement(mv, boards)
    session = P.score_session(results, step=step)
    scale = [(float(d), k) for d, k in P.imp_scale(step)]
    assert {t.pair: [t.matchpoints, t.top, t.imps] for t in session.totals} == dict(rescored(results, scale))
    assert sorted(t.pair for t in session.totals) == list(range(1, 11))
    directions = {(r.pair, r.direction) for t in session.travellers for r in t.results}
    assert all((p, "NS") in directions and (p, "EW") in directions for p in range(1, 11)), "everybody moves"


def doc_example() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    block = text.split("<!-- worked example:")[1].split("<!-- end of the worked example -->")[0]
    rows = [line.strip("|").split("|") for line in block.splitlines()[1:] if line.startswith("|")]
    return [[c.strip().replace("−", "-") for c in row] for row in rows[2:]]


def test_the_worked_example_of_the_doc() -> None:
    rows = doc_example()
    assert len(rows) == 5
    board = B.deal_boards("competitive", 1, 3)[0]
    doc_json = re.search(r'"hands": (\{.*?\}),\s*"boneyard"', DOC.read_text(encoding="utf-8"), re.S).group(1)
    assert {s: list(t) for s, t in board.deal.hands.items()} == eval(doc_json), "the deal the doc shows"
    results, ended = [], []
    for table in range(1, 6):
        record = B.play(board, table)
        B.check_hand(board, record)
        result = record.hands[0].result
        results.append(P.TableResult(1, table, table + 5, result.scores["NS"], result.scores["EW"]))
        ended.append(result.end)
    ns, ew = P.score_session(results).travellers
    assert ns.datum == 27
    for table, (row, r, end, a, b) in enumerate(zip(rows, results, ended, ns.results, ew.results), 1):
        assert row == [str(v) for v in (table, r.ns, r.ew, r.ns_points, r.ew_points, end, a.net, a.matchpoints,
                                        a.imps, b.matchpoints, b.imps)]

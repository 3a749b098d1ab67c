"""The Castle Rock picture: the row and the captured tiles, read back against the engine.

The engine's state is watched by an observer of its own, in the same replay
the camera draws from, so every position's picture is compared with what the
engine held at that moment: the row in order from the blocked end, each
player's captured tiles, the boneyard's size, each rack, and the highlight of
the last move.
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

from domrec import games, notation, reader, simulate
from domrec import tiles as T
from domrec.pictures.positions import Camera, picture, position
from domrec.pictures.tiles import LAST
from domrec.record import Capture, Deal, Draw, Hand, Play, Record
from domrec.validate import validate
from tests.pictures.readback import NS, racks, texts, tiles, tiles_under
from tests.replay_sample import _chosen

ROOT = Path(__file__).parents[2]
SAMPLE = ROOT / "samples/valid/castle-rock/strategy-example.json"
SETS = ("double-six", "double-nine", "double-twelve")


# --- reading the picture --------------------------------------------------------------------
# Each picture is parsed once and read element by element (thousands of positions are read); the
# pips are counted by readback.half_value, as readback.tiles counts them.

def _classes(node: ET.Element) -> list[str]:
    return (node.get("class") or "").split()


def _groups(root: ET.Element, css: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if css in _classes(g)]


_within = tiles_under


def _root(svg: str | ET.Element) -> ET.Element:
    return ET.fromstring(svg) if isinstance(svg, str) else svg


def row_of(svg: str | ET.Element) -> list[tuple[int, int]]:
    """The row as drawn, blocked end first (tiles are drawn high half first)."""
    (row,) = _groups(_root(svg), "row")
    return _within(row)


def captured_of(svg: str | ET.Element) -> dict[str, list[tuple[int, int]]]:
    return {g.get("data-seat"): _within(g) for g in _groups(_root(svg), "captured")}


def last_of(svg: str | ET.Element) -> list[tuple[str, tuple[int, int]]]:
    """Every highlighted tile, with where it lies (``row`` or ``captured:SEAT``)."""
    out = []
    root = _root(svg)
    for kind in ("row", "captured"):
        for g in _groups(root, kind):
            where = kind if kind == "row" else f"captured:{g.get('data-seat')}"
            for t in g.iter(f"{NS}g"):
                if "last" in _classes(t):
                    (drawn,) = _within(t)
                    assert t.find(f"{NS}rect").get("fill") == LAST
                    out.append((where, drawn))
    return out


def pair(t) -> tuple[int, int]:
    return (t.high, t.low)


# --- watching the engine ----------------------------------------------------------------------

@attrs.frozen
class Seen:
    """What the engine held at one position (copied at once: the state goes on changing)."""

    row: tuple
    captured: dict
    held: dict
    bone_left: int
    open: bool


class Tee:
    """Passes the replay to the camera and copies the engine's state at every position."""

    def __init__(self, camera: Camera) -> None:
        self.camera = camera
        self.seen: dict[int, list[Seen]] = {}   # hand index -> the engine at each position
        self.index = -1

    @staticmethod
    def _copy(state) -> Seen:
        return Seen(tuple(state.row), {s: list(c) for s, c in state.captured.items()},
                    {s: state.held_count(s) for s in state.seats}, state.bone_left, state.open)

    def match_started(self, match):
        self.camera.match_started(match)

    def hand_started(self, index, hand, state):
        self.index = index
        self.seen[index] = [self._copy(state)]
        self.camera.hand_started(index, hand, state)

    def moved(self, index, move, points, state):
        self.seen[self.index].append(self._copy(state))
        self.camera.moved(index, move, points, state)

    def hand_finished(self, index, outcome, match):
        self.camera.hand_finished(index, outcome, match)


def check_every_position(record: Record, hand: int | None = None) -> int:
    """Replay every position of ``record`` (or of one hand), each with the engine's state, and
    draw and read back against the engine those of :func:`tests.replay_sample._chosen` (in the
    default run each hand's deal and end, one in four, and the first after each kind of move, a
    play, a capture, a draw ..., scoring or not; every position under --long).  How many
    positions were replayed."""
    camera = Camera(record, hand=hand, every=True)
    tee = Tee(camera)
    validate(record, observer=tee)
    camera.close()
    chosen = _chosen(camera.hands)
    replayed_count = 0
    for replayed in camera.hands:
        if replayed.sheet:
            continue
        seen = tee.seen[replayed.number - 1]
        moves = record.hands[replayed.number - 1].moves
        assert len(replayed.positions) <= len(seen)
        for i, (pos, engine) in enumerate(zip(replayed.positions, seen)):
            if i in chosen[replayed.number]:
                check_position(pos.svg(), pos, engine, moves[pos.move - 1] if pos.move else None)
            replayed_count += 1
    return replayed_count


def check_position(svg: str, pos, engine: Seen, last) -> None:
    where = f"hand {pos.hand}, move {pos.move}"
    root = ET.fromstring(svg)
    assert row_of(root) == [pair(t) for t in engine.row], where
    captured = captured_of(root)
    assert captured == {s: [pair(t) for t in c] for s, c in engine.captured.items()}, where
    for g in _groups(root, "captured"):
        seat = g.get("data-seat")
        assert g.get("data-tiles") == str(len(engine.captured[seat]))
    # Every tile on the table is drawn once: the row and the captured piles, nothing else on the board.
    (board,) = _groups(root, "board")
    assert len(_within(board)) == len(engine.row) + sum(map(len, engine.captured.values())), where
    (pile,) = _groups(root, "boneyard")
    assert pile.get("data-tiles") == str(engine.bone_left)
    shown = texts(svg)
    assert any(t.startswith("Boneyard: " + (f"{engine.bone_left} tile" if engine.bone_left else "empty"))
               for t in shown), where
    # Each rack is the engine's holding: face up with the deal known, face down (counted) in an open hand.
    drawn_racks = {g.get("data-seat"): _within(g) for g in _groups(root, "rack")}
    if engine.open:
        assert all(v == [] for v in drawn_racks.values())
    else:
        assert drawn_racks == {s: [pair(t) for t in ts] for s, ts in pos.holdings.items()}, where
    for g in _groups(root, "rack"):
        assert g.get("data-tiles") == str(engine.held[g.get("data-seat")]), where
        backs = [b for b in g.iter(f"{NS}g") if "tile-back" in _classes(b)]
        assert len(backs) == (engine.held[g.get("data-seat")] if engine.open else 0), where
    # The last move is highlighted where its tiles went.
    lit = last_of(root)
    if type(last) is Play:
        assert lit == [("row", pair(T.tile(last.play)))], where
        assert pair(engine.row[-1]) == pair(T.tile(last.play))
    elif type(last) is Capture:
        assert lit == [(f"captured:{last.seat}", pair(T.tile(x))) for x in last.capture], where
    else:
        assert lit == [], where
        if type(last) is Draw:
            assert any(f"{last.seat} just drew " in t for t in shown), where


# --- the golden positions ---------------------------------------------------------------------

def test_the_golden_position_shows_the_row_of_the_rule_text_with_the_tile_just_placed():
    record = reader.load(str(SAMPLE))
    svg, report = picture(record, 1, 9)
    assert report.status == "valid"
    # The row the rule text discusses, blocked end first, with 1-4 just placed at the open end.
    assert row_of(svg) == [(6, 1), (6, 0), (0, 0), (4, 2), (4, 4), (4, 0), (1, 1), (5, 1), (4, 1)]
    assert [sum(t) for t in row_of(svg)] == [7, 6, 0, 6, 8, 4, 2, 6, 5]
    assert last_of(svg) == [("row", (4, 1))]
    assert captured_of(svg) == {"P1": [], "P2": []}
    shown = texts(svg)
    assert shown[:3] == ["Castle Rock · hand 1 · move 9 of 59", "Last: P1 plays 1-4 (Ana)", "Scores: P1 0 · P2 0"]
    assert "The row: 9 tiles, blocked end first (−1 each to every player at the end)" in shown
    assert "P1 captured 0" in shown and "Boneyard: 16 tiles to draw" in shown
    # The open end is the dashed slot after the last tile; the blocked end a wall before the first.
    marks = [r.get("class") for r in _groups(_root(svg), "row")[0].iter(f"{NS}rect") if r.get("class")]
    assert marks == ["blocked-end", "open-end"]


def test_the_golden_capture_of_three_lies_highlighted_in_the_capturers_pile():
    record = reader.load(str(SAMPLE))
    svg, _ = picture(record, 1, 13)
    assert row_of(svg) == [(6, 1), (6, 0), (0, 0)]
    assert captured_of(svg) == {"P1": [(5, 1), (1, 1), (4, 0), (4, 2), (4, 4), (4, 1)], "P2": []}
    assert last_of(svg) == [("captured:P1", (4, 2)), ("captured:P1", (4, 4)), ("captured:P1", (4, 1))]
    shown = texts(svg)
    assert shown[1] == "Last: P1 captures 2-4 4-4 1-4 (Ana), scoring 3"
    assert shown[2] == "Scores: P1 6 · P2 0"
    assert "P1 captured 6 (+3 now)" in shown and "P2 captured 0" in shown
    assert len(tiles(svg, "board")) == 3 + 6
    found = position(record, 1, 13)[0]
    assert racks(svg) == {s: [pair(t) for t in ts] for s, ts in found.holdings.items()}
    # 28 tiles: 3 in the row, 6 captured, 3 in the racks, 16 in the boneyard.
    assert sum(map(len, racks(svg).values())) == 3
    assert "Boneyard: 16 tiles to draw" in shown


def test_a_draw_names_the_tile_drawn_and_lights_nothing_on_the_table():
    record = reader.load(str(SAMPLE))
    svg, _ = picture(record, 1, 14)
    assert last_of(svg) == []
    drawn = position(record, 1, 14)[0].holdings["P1"]
    assert any(t.startswith("Boneyard: 15 tiles to draw · P1 just drew ") for t in texts(svg))
    assert len(drawn) == 2


def test_the_end_of_the_hand_and_an_emptied_row():
    record = reader.load(str(SAMPLE))
    svg, _ = picture(record, 1, 58)
    assert row_of(svg) == []
    assert "The row is empty: the next tile placed starts it" in texts(svg)
    end, _ = picture(record, 1)
    assert row_of(end) == [(2, 2)] and last_of(end) == [("row", (2, 2))]
    assert "Totals after the hand: P1 22 · P2 3 (this hand: P1 +22, P2 +3)" in texts(end)
    assert "Boneyard: empty" in texts(end)


def test_a_double_twelve_row_shows_numerals_beyond_nine():
    template = simulate.make_record("castle-rock", 2, {"set": "double-twelve", "start_tiles": 40})
    deal = games.engine("castle-rock").start(template).random_hand(random.Random(3))
    record = attrs.evolve(template, hands=(deal,))   # a game whose first hand is only dealt
    svg, _ = picture(record, 1, 0)
    row = row_of(svg)
    assert len(row) == 40 and max(max(t) for t in row) > 9
    root = ET.fromstring(svg)
    numerals = [t for t in root.iter(f"{NS}text") if t.get("class") == "numeral"]
    assert numerals and all(int(t.text) > 9 for t in numerals)


# --- every sample, every position ----------------------------------------------------------------

def _sample_records():
    for path in sorted((ROOT / "samples").glob("*/castle-rock/*")):
        if path.suffix == ".json":
            try:
                yield pytest.param(reader.load(str(path)), id=path.name)
            except Exception:  # unreadable on purpose (an invalid sample): nothing to draw
                continue
        elif path.suffix == ".dgn":
            for k, game in enumerate(notation.read_games(path.read_bytes(), str(path))):
                if game.record is not None:
                    yield pytest.param(game.record, id=f"{path.name}:{k}")


@pytest.mark.parametrize("record", list(_sample_records()))
def test_every_position_of_every_sample_is_drawn_as_the_engine_holds_it(record):
    """Each sample's positions read back (a sample of each hand's, every kind of move among them,
    in the default run: :func:`check_every_position`; every one under --long)."""
    check_every_position(record)


# --- simulated games ---------------------------------------------------------------------------------

def _start(set_name: str, players: int, kind: str):
    if kind == "all":  # the rest of the set in the row: no boneyard at all
        return len(T.SETS[set_name]) - 2 * players
    return kind


def _game(seed: int, players: int, set_name: str, start: str) -> Record:
    (record,) = simulate.simulate("castle-rock", 1, seed, players,
                                  {"set": set_name, "start_tiles": _start(set_name, players, start)})
    return record


def opened(record: Record, k: int) -> Record:
    """The game up to hand ``k`` (1-based), that hand being recorded without its deal (an open hand)."""
    hand = record.hands[k - 1]
    public = Hand(leader=hand.leader, deal=Deal(hands={}, row=hand.deal.row, boneyard=hand.deal.boneyard),
                  moves=hand.moves)
    return attrs.evolve(record, hands=(*record.hands[:k - 1], public), result=None)


#: The default run: every player count, every set and every kind of starting row, each met at least
#: once, one hand a game (known, then the same hand open); the slow run below takes every combination.
QUICK = [(2, "double-six", "all"), (3, "double-six", "auto"), (4, "double-six", "1"),
         (5, "double-six", "8"), (6, "double-six", "auto"), (2, "double-nine", "1"), (3, "double-twelve", "8")]


@pytest.mark.parametrize("players, set_name, start", QUICK)
def test_simulated_hands_known_and_open_are_drawn_as_the_engine_holds_them(players, set_name, start):
    start = int(start) if start.isdigit() else start
    record = _game(11 * players, players, set_name, start)
    k = 1 + (players % len(record.hands))
    assert check_every_position(record, k) == len(record.hands[k - 1].moves) + 1
    assert check_every_position(opened(record, k), k) == len(record.hands[k - 1].moves) + 1


@pytest.mark.long
@pytest.mark.parametrize("set_name", SETS)
@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("start", ["auto", 1, 8, "all"])
def test_every_position_of_simulated_games_is_drawn_as_the_engine_holds_it(players, set_name, start):
    for seed in range(2):
        record = _game(seed, players, set_name, start)
        assert check_every_position(record) == sum(len(h.moves) + 1 for h in record.hands)
        last = len(record.hands)
        assert check_every_position(opened(record, last), last) == len(record.hands[-1].moves) + 1


def test_a_hands_loss_is_signed_as_it_is():
    """Six players: a hand's losers score -2, shown as "P2 -2" (it was "P2 +-2")."""
    record = reader.load(str(SAMPLE.parent / "six-players.json"))
    end, _ = picture(record, 1)
    shown = next(t for t in texts(end) if t.startswith("Totals after the hand: "))
    assert "+-" not in shown and " -2" in shown, shown

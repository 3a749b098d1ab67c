"""The Horse Race picture: the layout tree read back tile by tile, disc by disc, against the engine.

Every position checked here is read back from the SVG (``readback``) and compared
with the engine's own state at that moment, caught beside the camera that drew it:
the tiles on the board are the tiles on the table, each rack is the seat's holding
(or as many face-down tiles as it holds, in an open hand), the discs at the open
ends add up to the engine's count, the tile just set is the one highlighted, and
no two tiles overlap or leave the felt.
"""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import attrs
import pytest

from domrec import notation, reader, simulate
from domrec.pictures import horserace
from domrec.pictures.horserace import count_parts
from domrec.pictures.positions import Camera, Position, picture, position
from domrec.pictures.tiles import LAST
from domrec.record import Deal, Play, Record
from domrec.tiles import tile
from domrec.validate import validate
from tests.games.test_horserace_open import CONFIGS  # every variant, option set and player count
from tests.pictures.readback import NS, racks, texts, tiles
from tests.replay_sample import _chosen

SAMPLES = Path(__file__).parents[2] / "samples"
FOUR_ARMS = SAMPLES / "valid/horse-race/spinner-four-arms.json"
CHAIN = SAMPLES / "valid/horse-race/chain-of-three.json"


# --- reading a picture's board ------------------------------------------------------------------

def _classes(node: ET.Element) -> set[str]:
    return set((node.get("class") or "").split())


def board_of(svg: str) -> ET.Element:
    [found] = [g for g in ET.fromstring(svg).iter(f"{NS}g") if "board" in _classes(g)]
    return found


def placed(svg: str) -> list[tuple[str, float, float, float, float, set[str]]]:
    """Each tile on the board: its ``data-tile``, its outline (x, y, width, height) in the board's own
    units, and its classes."""
    out = []
    for g in board_of(svg).iter(f"{NS}g"):
        if "tile" in _classes(g):
            r = g.find(f"{NS}rect")
            out.append((g.get("data-tile"), float(r.get("x")), float(r.get("y")), float(r.get("width")),
                        float(r.get("height")), _classes(g)))
    return out


def discs(svg: str) -> list[int]:
    """The counts shown at the open ends, read from the discs' own text."""
    out = []
    for g in board_of(svg).iter(f"{NS}g"):
        if "open-end" in _classes(g):
            [t] = [t for t in g.iter(f"{NS}text")]
            assert t.text == g.get("data-count")
            out.append(int(t.text))
    return out


def rings(svg: str) -> int:
    return sum(1 for g in board_of(svg).iter(f"{NS}g") if "free-place" in _classes(g))


def _pair(t) -> tuple[int, int]:
    return tuple(sorted(t))


# --- the engine beside the camera ------------------------------------------------------------------

@attrs.frozen
class Facts:
    """What the engine holds at a position, caught when the camera draws it."""

    table: list[tuple[int, int]]
    count: int
    parts: list[int]
    holdings: dict[str, list[tuple[int, int]]]
    held: dict[str, int]
    open: bool
    last: tuple[int, int] | None


class Watching(Camera):
    """A camera that also notes the engine's own state at every position it draws."""

    def __init__(self, record: Record, hand: int | None = None) -> None:
        super().__init__(record, hand, every=True)
        self.facts: list[Facts] = []

    def snap(self) -> Position:
        shot = super().snap()
        s = self.state
        move = self.last[0] if self.last else None
        self.facts.append(Facts(
            sorted(_pair((t.high, t.low)) for t in s.nodes), s.count, [n for n, _ in count_parts(s)],
            {seat: [(t.high, t.low) for t in ts] for seat, ts in s.holdings().items()},
            {seat: s.held_count(seat) for seat in s.seats}, bool(s.open),
            _pair((tile(move.play).high, tile(move.play).low)) if type(move) is Play else None))
        return shot


def watched(record: Record, hand: int | None = None, sample: bool = False) -> list[tuple[Position, Facts]]:
    """Every position of the replay with the engine's facts; with ``sample``, those of
    :func:`tests.replay_sample._chosen` alone (every one under --long; in the default run each
    hand's deal and end, one in four, and the first after each kind of move, scoring or not)."""
    camera = Watching(record, hand)
    validate(record, observer=camera)
    camera.close()
    shots = [p for h in camera.hands for p in h.positions]
    assert len(shots) == len(camera.facts)
    if not sample:
        return list(zip(shots, camera.facts))
    chosen = _chosen(camera.hands)
    checked = [i in chosen[h.number] for h in camera.hands for i in range(len(h.positions))]
    return [pair for pair, check in zip(zip(shots, camera.facts), checked) if check]


def check(shot: Position, facts: Facts) -> None:
    """The picture of ``shot`` shows what the engine held, and draws it cleanly."""
    svg = shot.svg()
    assert sorted(_pair(t) for t in tiles(svg, "board")) == facts.table
    drawn = racks(svg)
    if facts.open:
        assert all(ts == [] for ts in drawn.values())
        counts = {g.get("data-seat"): int(g.get("data-tiles")) for g in ET.fromstring(svg).iter(f"{NS}g")
                  if "rack" in _classes(g)}
        assert counts == facts.held
    else:
        assert drawn == facts.holdings
    shown = discs(svg)
    assert sum(shown) == facts.count == sum(facts.parts)
    assert sorted(shown) == sorted(facts.parts)
    outlines = placed(svg)
    width, height = shot.board.width, shot.board.height
    for (_, x, y, w, h, _) in outlines:  # on the felt
        assert -0.01 <= x and x + w <= width + 0.01 and -0.01 <= y and y + h <= height + 0.01
    for a, b in itertools.combinations(outlines, 2):  # no tile over another
        assert (a[1] + a[3] <= b[1] + 0.01 or b[1] + b[3] <= a[1] + 0.01
                or a[2] + a[4] <= b[2] + 0.01 or b[2] + b[4] <= a[2] + 0.01), (a, b)
    last = [t for t, *_, css in outlines if "last" in css]
    if facts.last is None:
        assert last == []
    else:
        assert [_pair(map(int, t.split("-"))) for t in last] == [facts.last]


# --- the golden positions ----------------------------------------------------------------------------

def test_the_golden_position_shows_the_spinner_its_arms_the_open_ends_and_the_scores():
    record = reader.load(str(FOUR_ARMS))
    svg, report = picture(record, 1, 4)
    assert report.status == "valid"
    # 4-4 led (a spinner, across), 4-2 and 4-3 on its sides, 5-4 on its first end: each arm goes out
    # from the spinner with its matching half against it, read from the pips.
    assert tiles(svg, "board") == [(4, 4), (4, 2), (3, 4), (5, 4)]
    (_, sx, sy, sw, sh, spinner), right, left, up = placed(svg)
    assert "spinner" in spinner and sh > sw  # laid across the line of its sides
    assert right[1] > sx + sw - 1 and abs(right[2] + right[4] / 2 - (sy + sh / 2)) < 0.5
    assert left[1] + left[3] < sx + 1 and abs(left[2] + left[4] / 2 - (sy + sh / 2)) < 0.5
    assert up[2] + up[4] < sy + 1 and abs(up[1] + up[3] / 2 - (sx + sw / 2)) < 0.5 and up[4] > up[3]
    assert "last" in up[5] and all("last" not in t[5] for t in (right, left))
    [last] = [g for g in board_of(svg).iter(f"{NS}g") if "last" in _classes(g)]
    assert last.find(f"{NS}rect").get("fill") == LAST
    # The open ends: 2, 3 and 5 count 10, as the engine counts; the spinner's other end is free.
    assert sorted(discs(svg)) == [2, 3, 5]
    assert rings(svg) == 1
    shown = texts(svg)
    assert shown[:3] == ["Horse Race · hand 1 · move 4 of 5", "Last: P1 plays 5-4 on 4-4 (Ana), scoring 2",
                         "Scores: P1 5 · P2 0 · P3 0 · P4 0"]
    assert "Count of the open ends: 2 (4-2) + 3 (4-3) + 5 (5-4) = 10 (pegs 2: one point per five)." in shown
    assert "4 tiles on the table; spinner 4-4; boneyard: 8 tiles." in shown
    found = position(record, 1, 4)[0]
    assert racks(svg) == {s: [(t.high, t.low) for t in ts] for s, ts in found.holdings.items()}
    assert sum(len(v) for v in racks(svg).values()) == 20 - 4


def test_a_spinner_on_an_arm_lies_across_it_with_its_side_straight_on_and_its_ends_across():
    record = reader.load(str(CHAIN))
    svg, _ = picture(record, 1, 8)
    drawn = {str(tile(t)): (x, y, w, h) for t, x, y, w, h, _ in placed(svg)}  # keyed high-low
    assert len(drawn) == 8
    x, y, w, h = drawn["0-0"]       # set on the lead's 0, which runs left to right: upright
    assert h > w
    side = drawn["6-0"]             # its side: straight on, to the right
    assert side[0] >= x + w - 1 and abs(side[1] + side[3] / 2 - (y + h / 2)) < 0.5
    ends = [drawn["2-0"], drawn["4-0"]]   # its two ends: above and below it
    assert sorted(e[1] < y for e in ends) == [False, True]
    for e in ends:
        assert abs(e[0] + e[2] / 2 - (x + w / 2)) < 0.5 and e[3] > e[2]
    x, y, w, h = drawn["1-1"]       # the last tile, a spinner across the 6-1 arm, its side still free
    assert w < h
    assert sorted(discs(svg)) == [2, 2, 2, 5]
    assert "= 11 (no score: not a multiple of five)." in texts(svg)


def test_the_deal_shows_an_empty_layout_and_the_boneyard():
    record = reader.load(str(FOUR_ARMS))
    svg, _ = picture(record, 1, 0)
    assert tiles(svg, "board") == []
    shown = texts(svg)
    assert "The layout is empty: the lead is still to be set." in shown
    assert "Boneyard: 8 tiles." in shown


def test_a_tile_boxed_in_is_set_apart_joined_to_its_open_end_by_a_dashed_line(monkeypatch):
    """Rare in play (a crowded middle), so forced here: no way to lie against its open end fits."""
    monkeypatch.setattr(horserace.Layout, "best", lambda self, node, spot, parent, gap: None)
    record = reader.load(str(CHAIN))
    for shot, facts in watched(record):
        check(shot, facts)  # the tiles, racks and discs as the engine has them; no overlap, on the felt
        svg = shot.svg()
        links = [ln for ln in board_of(svg).iter(f"{NS}line") if "link" in _classes(ln)]
        assert len(links) == max(len(facts.table) - 1, 0)
        assert all("set apart" in t.text for g in board_of(svg).iter(f"{NS}g") if "tile" in _classes(g)
                   for t in g.iter(f"{NS}title") if "the lead" not in t.text)


def test_every_position_of_every_hand_of_the_golden_samples_reads_back():
    for path in (FOUR_ARMS, CHAIN):
        for shot, facts in watched(reader.load(str(path))):
            check(shot, facts)


# --- every sample of the game, valid and invalid -------------------------------------------------------

def _sample_records() -> list:
    out = []
    for path in sorted((SAMPLES / "valid/horse-race").iterdir()) + sorted((SAMPLES / "invalid/horse-race").iterdir()):
        if path.suffix == ".json":
            out.append(pytest.param(path, id=f"{path.parent.parent.name}/{path.name}"))
        elif path.suffix == ".dgn":
            out.append(pytest.param(path, id=f"{path.parent.parent.name}/{path.name}"))
    return out


def _records_of(path: Path) -> list[Record]:
    if path.suffix == ".dgn":
        return [g.record for g in notation.read_games(path.read_bytes(), str(path)) if g.record is not None]
    try:
        return [reader.load(str(path))]
    except Exception:  # an unusable record: nothing to draw (explain says why, in one line)
        return []


@pytest.mark.parametrize("path", _sample_records())
def test_every_position_of_every_sample_reads_back(path):
    """Each sample's positions read back (a sample of each hand's, every kind of move among them,
    in the default run: :func:`watched`; every one under --long)."""
    for record in _records_of(path):
        for shot, facts in watched(record, sample=True):
            check(shot, facts)


# --- simulated games: every variant, option and player count -------------------------------------------



def _config_id(config) -> str:
    players, options, variant = config
    words = [variant or "standard", f"{players}p"] + [f"{k}={v}" for k, v in sorted(options.items())]
    return ",".join(words)


def opened(record: Record, hand: int, rng: random.Random, keep_boneyard: bool) -> Record:
    """The game up to hand ``hand`` (1-based), that hand being typed without its deal and stopped
    part-way, as a record being kept at the table is (format 1.1: an open hand)."""
    h = record.hands[hand - 1]
    deal = Deal(hands={}, boneyard=h.deal.boneyard) if keep_boneyard and h.deal is not None else None
    cut = rng.randrange(len(h.moves)) if h.moves else 0
    open_hand = attrs.evolve(h, deal=deal, moves=h.moves[:cut], result=None)
    return attrs.evolve(record, hands=record.hands[:hand - 1] + (open_hand,), result=None, ended=None)


def _draw_game(config, seed: int, every_hand: bool) -> int:
    players, options, variant = config
    record = next(simulate.simulate("horse-race", 1, seed, players=players, options=options, variant=variant))
    n = len(record.hands)
    chosen = range(1, n + 1) if every_hand else sorted({1, n})
    seen = 0
    for hand in chosen:
        for shot, facts in watched(record, hand, sample=not every_hand):
            check(shot, facts)
            seen += 1
    rng = random.Random(seed)
    for hand, keep in ((1, True), (n, False)) if not every_hand else ((k, k % 2 == 0) for k in range(1, n + 1)):
        shots = watched(opened(record, hand, rng, keep), hand, sample=not every_hand)
        assert shots, f"hand {hand} typed without its deal was not replayed"
        for shot, facts in shots:
            assert facts.open
            check(shot, facts)
            seen += 1
    return seen


@pytest.mark.parametrize("config", CONFIGS[::3], ids=_config_id)
def test_every_position_of_simulated_games_reads_back(config):
    """The first and last hands of a game of a third of the option sets and player counts (every
    player count and both variants among them; --long runs them all, whole games), and the same
    hands typed without the deal, their positions drawn and read back against the engine (a
    sample of each hand's, every kind of move among them: :func:`watched`; every one under
    --long)."""
    assert _draw_game(config, CONFIGS.index(config), every_hand=False) > 0


@pytest.mark.long
@pytest.mark.parametrize("config", CONFIGS, ids=_config_id)
def test_every_position_of_many_simulated_games_reads_back(config):
    for seed in range(100, 102):
        _draw_game(config, seed, every_hand=True)

"""The Domino Roads picture: roads, bridges, blocks, piles and dice, read back against the engine.

Every check reads the drawing (pips counted, dice pips counted) and compares
it with the engine's own state, caught at the moment the picture was drawn.
"""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from domrec import notation, reader, simulate
from domrec.errors import DomrecError
from domrec.games.roads import RoadsHand
from domrec.pictures.positions import Camera, picture
from domrec.record import Block, Bridge, Span, Starter, unstructure
from domrec.validate import validate
from tests.pictures.readback import NS, racks, texts, tiles, tiles_under
from tests.replay_sample import _chosen

SAMPLES = Path(__file__).parents[2] / "samples"
FIGURE_4 = SAMPLES / "valid/domino-roads/figure-4-bridge-total-10.json"


def _classes(node: ET.Element) -> set[str]:
    return set((node.get("class") or "").split())


def _groups(svg: str | ET.Element, css: str) -> list[ET.Element]:
    root = ET.fromstring(svg) if isinstance(svg, str) else svg
    return [g for g in root.iter(f"{NS}g") if css in _classes(g)]


_drawn = tiles_under


def dice(svg: str | ET.Element) -> list[int]:
    """The dice as drawn: the pips of each die counted."""
    return [sum(1 for c in die.iter(f"{NS}circle") if "pip" in _classes(c)) for die in _groups(svg, "die")]


def expected(state: RoadsHand, last) -> dict:
    """What the picture must show, taken from the engine's state when it was drawn."""
    roads = {}
    for name, road in state.roads.items():
        row = [(road.starter.other(road.facing), road.facing)] + [(touch, out) for _, touch, out in road.spans]
        if road.block_tile is not None:
            row.append((road.block_tile.high, road.block_tile.low))
        roads[name] = row
    bridges = sum(1 for r in state.roads.values() if r.joined is not None) // 2
    piles = {s: [None if t is None else (t.high, t.low) for t in p] for s, p in (state.piles or {}).items()}
    hot = None
    if isinstance(last, (Starter, Span, Block)):
        hot = {Starter: lambda m: roads[m.road][0], Span: lambda m: roads[m.road][len(state.roads[m.road].spans)],
               Block: lambda m: roads[m.road][-1]}[type(last)](last)
    elif isinstance(last, Bridge):
        hot = (0, 0)
    return {"roads": roads, "bridges": bridges, "piles": piles, "dice": list(state.dice or ()), "hot": hot,
            "on_table": sum(len(r) for r in roads.values()) + bridges}


def watched(record) -> tuple[list, list[dict], object, list]:
    """Every position of the replay, with what the engine held when each was drawn, and the
    positions checked (:func:`tests.replay_sample._chosen`: every one under --long)."""
    camera = Camera(record, every=True)
    seen: list[dict] = []
    read = camera.read_board

    def spy(state, last):
        seen.append(expected(state, last))
        return read(state, last)

    camera.read_board = spy
    report = validate(record, observer=camera)
    camera.close()
    chosen = _chosen(camera.hands)
    checked = [i in chosen[h.number] for h in camera.hands for i in range(len(h.positions))]
    return [p for h in camera.hands for p in h.positions], seen, report, checked


def check_position(pos, want: dict) -> None:
    root = ET.fromstring(pos.svg())
    drawn_roads = {g.get("data-road"): _drawn(g) for g in _groups(root, "road")}
    assert drawn_roads == want["roads"]
    bridges = [t for g in _groups(root, "bridge") for t in _drawn(g)]
    assert bridges == [(0, 0)] * want["bridges"]
    on_table = sum(len(v) for v in drawn_roads.values()) + len(bridges)
    assert on_table == want["on_table"]
    piles = {}
    for g in _groups(root, "pile"):
        backs = sum(1 for b in g.iter(f"{NS}g") if "tile-back" in _classes(b))
        faces = _drawn(g)
        assert backs + len(faces) == int(g.get("data-tiles"))
        piles[g.get("data-seat")] = faces
        assert faces == [t for t in want["piles"][g.get("data-seat")] if t is not None]
    assert set(piles) == set(want["piles"])
    # The board holds the roads, bridges and the piles' face-up tiles, nothing else.
    (board,) = _groups(root, "board")
    assert len(_drawn(board)) == on_table + sum(len(v) for v in piles.values())
    assert dice(root) == want["dice"]
    hot = [_drawn(g)[0] for g in _groups(root, "last")]
    assert hot == ([] if want["hot"] is None else [want["hot"]])
    for g in _groups(root, "rack"):
        seat = g.get("data-seat")
        assert _drawn(g) == [(t.high, t.low) for t in pos.holdings[seat]]
        assert int(g.get("data-tiles")) == len(pos.holdings[seat]) + pos.hidden.get(seat, 0)
    assert {g.get("data-seat") for g in _groups(root, "rack")} == set(pos.holdings)


def check_record(record) -> int:
    """How many positions the replay of ``record`` holds, each with what the engine held; those
    of :func:`tests.replay_sample._chosen` drawn and read back against it: in the default run each
    hand's deal and end, one in four, and the first after each kind of move (a starter, a span, a
    bridge, a block, a roll ..., scoring or not); every position under --long."""
    positions, seen, report, checked = watched(record)
    assert len(positions) == len(seen) == len(checked)
    for pos, want, check in zip(positions, seen, checked):
        if check:
            check_position(pos, want)
    return len(positions)


# --- the golden position -------------------------------------------------------------------------


def test_the_golden_position_shows_the_bridge_the_roads_the_dice_and_the_scores():
    """Figure 4 of the rule text, move 14: N rolled 6+4, bridged NS1 and NS2 at their first spans,
    S is spanning NS1 with the same total of 10."""
    record = reader.load(str(FIGURE_4))
    svg, report = picture(record, 1, 14)
    assert report.status == "valid"
    shown = texts(svg)
    assert shown[0] == "Domino Roads · hand 1 · move 14 of 17"
    assert shown[1] == "Last: S spans 6-5 onto road NS1 (Cy)"
    assert shown[2] == "Scores: NS 0 · EW 0"
    roads = {g.get("data-road"): g for g in _groups(svg, "road")}
    assert list(roads) == ["NS1", "NS2", "EW1"]
    # Each road as the engine holds it: starter (back | facing), then spans (touching | exposed).
    assert _drawn(roads["NS1"]) == [(6, 2), (6, 4), (6, 6), (4, 4), (6, 5)]
    assert _drawn(roads["NS2"]) == [(4, 4), (4, 0)]
    assert _drawn(roads["EW1"]) == [(1, 2)]
    assert [g.get("data-spans") for g in roads.values()] == ["4", "1", "0"]
    assert [g.get("data-joined") for g in roads.values()] == ["NS2", "NS1", None]
    assert [g.get("data-blocked") for g in roads.values()] == ["no", "no", "no"]
    assert tiles(svg, "bridge") == [(0, 0)]
    (bridge,) = _groups(svg, "bridge")
    assert bridge.get("data-join") == "NS1:1:6 NS2:1:4"
    assert len(tiles(svg, "board")) == 5 + 2 + 1 + 1
    # The last span is highlighted, and it is the 6-5 just played.
    (hot,) = _groups(svg, "last")
    assert _drawn(hot) == [(6, 5)] and "span" in _classes(hot)
    assert dice(svg) == [6, 4]
    assert "Turn 3: N has the dice, total 10; S playing." in shown
    assert "Roads: NS 2 (1 joined pair) · EW 1." in shown
    assert racks(svg)["S"] == [(5, 5), (5, 5), (5, 4)]
    assert sum(len(v) for v in racks(svg).values()) == 40 - 9


def test_the_bridged_halves_line_up_under_the_bridge():
    """The joined road is shifted so the two bridged halves sit one above the other, and the
    0-0 stands between them."""
    svg, _ = picture(reader.load(str(FIGURE_4)), 1, 11)
    root = ET.fromstring(svg)

    def rects(css):
        g = next(g for g in root.iter(f"{NS}g") if css(g))
        return [(float(r.get("x")), float(r.get("width"))) for r in g.iter(f"{NS}rect")]

    ns1 = rects(lambda g: g.get("data-road") == "NS1")
    ns2 = rects(lambda g: g.get("data-road") == "NS2")
    (bx, bw), = rects(lambda g: "bridge" in _classes(g))
    middle = bx + bw / 2
    # The 6 of NS1's span 1 (its left half) and the 4 of NS2's span 1 (its left half).
    for (x, w) in (ns1[1], ns2[1]):
        assert x < middle < x + w / 2


def test_a_block_is_drawn_at_the_end_of_the_road_it_blocks():
    record = reader.load(str(SAMPLES / "valid/domino-roads/road-of-ten-and-road-block.json"))
    positions, seen, report, _ = watched(record)
    blocked = [(p, w) for p, w in zip(positions, seen) if "block" in (p.last or "")]
    assert blocked
    pos, want = blocked[0]
    svg = pos.svg()
    (hot,) = _groups(svg, "last")
    assert "block" in _classes(hot)
    road = next(g for g in _groups(svg, "road") if g.get("data-blocked") == "yes" and _groups(
        ET.tostring(g, encoding="unicode"), "block"))
    assert _drawn(road)[-1] == want["hot"] and want["hot"][0] == want["hot"][1]


def test_three_players_show_the_piles_in_top_up_order():
    record = reader.load(str(SAMPLES / "valid/domino-roads/three-players-pile-top-up.json"))
    svg, _ = picture(record, 1, 0)
    piles = {g.get("data-seat"): _drawn(g) for g in _groups(svg, "pile")}
    deal = record.hands[0].deal.piles
    assert piles == {s: [tuple(map(int, t.split("-"))) for t in ts] for s, ts in deal.items()}
    assert dice(svg) == [] and any(t.startswith("No dice rolled yet") for t in texts(svg))


def test_an_unused_toss_is_shown_as_one_that_may_be_reused():
    """Hand 1 of the sample: P2 rolls 6+5 and passes, P3 reuses the 11 and starts P3-1 with 6-5."""
    record = notation.loads((SAMPLES / "valid/domino-roads/mixed-three-players.dgn").read_bytes())
    positions, seen, _, _ = watched(record)
    at = next(i for i, p in enumerate(positions) if p.last == "P2 passes")
    svg = positions[at].svg()
    assert "Unused toss: total 11. P3 may reuse it or roll again." in texts(svg)
    assert [g for g in _groups(svg, "dice") if "unused" in _classes(g)] and dice(svg) == [6, 5]
    svg = positions[at + 1].svg()
    assert "Turn 3: P3 reused the toss, total 11; P3 playing." in texts(svg)
    assert not [g for g in _groups(svg, "dice") if "unused" in _classes(g)] and dice(svg) == [6, 5]


# --- every position of every record ---------------------------------------------------------------


def _samples() -> list[Path]:
    out = sorted((SAMPLES / "valid/domino-roads").iterdir()) + sorted((SAMPLES / "invalid/domino-roads").iterdir())
    return [p for p in out if p.suffix in (".json", ".dgn")]


@pytest.mark.parametrize("path", _samples(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_position_of_every_sample_reads_back(path):
    """Each sample's positions drawn and read back (a sample of each hand's in the default run,
    every kind of move among them: :func:`check_record`; every one under --long), and the end of
    every hand drawn."""
    if path.suffix == ".dgn":
        # A DGN text the rules stop part-way still gives the record read up to the problem.
        record = next(notation.read_games(path.read_bytes())).record
    else:
        try:
            record = reader.load(str(path))
        except DomrecError:
            record = None
    if record is None:
        assert path.parent.parent.name == "invalid"  # unusable input: there is no table to draw
        return
    check_record(record)
    # The end of every hand (or where the replay stopped) draws too.
    for hand in range(1, len(record.hands) + 1):
        try:
            svg, _ = picture(record, hand)
        except DomrecError:
            continue
        ET.fromstring(svg)


def opened(record, rng: random.Random):
    """``record`` cut in a hand whose deal is not given (format 1.1; three players keep their piles)."""
    doc = json.loads(json.dumps(unstructure(record)))
    doc["version"] = "1.1"
    doc.pop("result", None)
    keep = rng.randrange(len(doc["hands"]))
    doc["hands"] = doc["hands"][:keep + 1]
    hand = doc["hands"][keep]
    hand.pop("result", None)
    piles = hand.pop("deal").get("piles")
    if piles is not None and rng.random() < 0.5:
        hand["deal"] = {"hands": {}, "piles": piles}
    hand["moves"] = hand["moves"][:rng.randrange(1, len(hand["moves"]))]
    return reader.load_dict(doc)


CONFIGS = [(3, None), (4, None), (4, {"block_match": "sum"})]


@pytest.mark.parametrize("players, options", CONFIGS, ids=["3", "4", "4-sum"])
def test_every_position_of_simulated_games_reads_back(players, options):
    """Simulated games (seeded) of every player count and option, and the same games cut in an
    open hand: every position is replayed, and drawn and read back against the engine (in the
    default run a sample of each hand's positions that holds every kind of move:
    :func:`check_record`; every position under --long)."""
    rng = random.Random(f"roads-picture:{players}:{options}")
    drawn = 0
    for record in simulate.simulate("domino-roads", 1, 15, players, options):
        drawn += check_record(record)
        drawn += check_record(opened(record, rng))
    assert drawn > 150


@pytest.mark.long
@pytest.mark.parametrize("players, options", CONFIGS, ids=["3", "4", "4-sum"])
def test_every_position_of_many_simulated_games_reads_back(players, options):
    rng = random.Random(f"roads-picture-many:{players}:{options}")
    for record in simulate.simulate("domino-roads", 25, 99, players, options):
        check_record(record)
        check_record(opened(record, rng))


def test_a_long_or_strange_road_name_is_only_text_and_is_shortened():
    doc = json.loads(FIGURE_4.read_text())
    name = "</svg><script>alert(1)</script>" * 20
    doc["hands"][0]["moves"] = [{**m, "road": name} if m.get("road") == "NS1" else m
                                for m in doc["hands"][0]["moves"][:3]]
    svg, report = picture(reader.load_dict(doc), 1, 3)
    (road,) = [g for g in _groups(svg, "road") if g.get("data-side") == "NS"]
    assert road.get("data-road") == name and _drawn(road) == [(6, 2), (6, 4)]
    assert "</svg><s…" in texts(svg)  # the name column holds eight characters
    assert "<script>" not in svg

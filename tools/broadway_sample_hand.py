"""Find cells for the sample hand of Broadway's rule text and write it as a record.

The source narrates a whole first hand (the deal, the 28 plays in order and
which of them score) but its diagrams are pictures, so the cells of each tile
are not in the text.  This script searches for them with the engine itself: a
depth-first search over the plays in the narrated order, where a play that
the narrative says scores must make exactly two matched segments (one point)
and every other play exactly one (a legal play scoring nothing).  It also
honours the narrative's geometric hints that can be stated as "this play
matched these tiles" or "this tile could have scored here" (see ``HINTS``).

    python tools/broadway_sample_hand.py [--seed N] [--out samples/valid/broadway/sample-hand.json]

The search is seeded and deterministic; the committed sample was written by it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from domrec import record as rec
from domrec.games import broadway as bw
from domrec.reader import load_dict
from domrec.record import Deal, Hand, HandResult, Play, Player, Record
from domrec.tiles import tile

DEAL = {
    "N": ["6-5", "6-2", "4-4", "4-1", "4-0", "3-2", "2-0"],
    "E": ["6-6", "6-1", "5-5", "5-4", "5-3", "2-1", "0-0"],
    "S": ["6-3", "6-0", "5-1", "4-3", "3-1", "2-2", "1-0"],
    "W": ["6-4", "5-2", "5-0", "4-2", "3-3", "3-0", "1-1"],
}

#: The plays in order: (seat, tile, scores a point?).
PLAYS = [
    ("E", "6-6", False), ("S", "6-3", False), ("W", "3-3", False), ("N", "3-2", False),
    ("E", "5-3", True), ("S", "6-0", False), ("W", "5-2", False), ("N", "2-0", True),
    ("E", "2-1", False), ("S", "5-1", False), ("W", "4-2", True), ("N", "4-1", True),
    ("E", "6-1", True), ("S", "4-3", True), ("W", "5-0", False), ("N", "6-5", False),
    ("E", "5-4", True), ("S", "2-2", False), ("W", "6-4", False), ("N", "4-0", False),
    ("E", "5-5", True), ("S", "1-0", False), ("W", "3-0", False), ("N", "4-4", True),
    ("E", "0-0", True), ("S", "3-1", False), ("W", "1-1", False), ("N", "6-2", False),
]

#: Hints from the narrative, by play index: the tiles a play must touch with a matched
#: segment ("matched"), or tiles of the mover that must have had a scoring place
#: when the narrative says the player overlooked one ("could_score").
HINTS: dict[int, dict[str, tuple[str, ...]]] = {
    1: {"matched": ("6-6",)},            # S builds on the lead's six
    2: {"matched": ("6-3",)},            # W's 3-3 on S's three
    4: {"matched": ("6-3", "3-3")},      # E's 5-3 in the slot between the threes
    6: {"matched": ("3-2",)},            # W's 5-2 off the two end of N's 3-2
    7: {"matched": ("6-0",)},            # N's 2-0 made possible by S's 6-0
    8: {"matched": ("5-2",)},            # E's 2-1 on W's two
    10: {"matched": ("2-1",)},           # W's 4-2 in the slot E made
    11: {"matched": ("4-2", "2-1")},     # N's 4-1 across the ends of E's and W's tiles
    15: {"could_score": ("4-4",)},       # N overlooks a score with 4-4
    19: {"could_score": ("4-0", "4-4")},  # N could have scored with 4-0 or 4-4
}


def clone(state: bw.BroadwayHand) -> bw.BroadwayHand:
    new = bw.BroadwayHand.__new__(bw.BroadwayHand)
    new.__dict__.update(state.__dict__)
    new.board = dict(state.board)
    new.near = dict(state.near)
    new._laid = list(state._laid)
    new.points = dict(state.points)
    new.hands = {s: set(h) for s, h in state.hands.items()}
    new.face_up = {s: set(h) for s, h in state.face_up.items()}
    new._legal_cache = {}
    new._legal_points = {}
    new._blocked_at = -1
    return new


def matched_tiles(state: bw.BroadwayHand) -> set[str]:
    """The tiles the last placement matched."""
    _, matched = state.last_marks()
    return {str(state._tile_at(state.key(c))) for c in matched}


def could_score(state: bw.BroadwayHand, seat: str, tiles: tuple[str, ...]) -> bool:
    saved = state.to_move
    state.to_move = seat
    try:
        moves = state.legal_moves()
        return any(state.points_of(m) > 0 and tile(m.play) in {tile(t) for t in tiles} for m in moves)
    finally:
        state.to_move = saved


def candidates(state: bw.BroadwayHand, seat: str, text: str, scores: bool) -> list[Play]:
    want = tile(text)
    return [m for m in state.legal_moves()
            if isinstance(m, Play) and tile(m.play) is want and (state.points_of(m) > 0) == scores
            and state.points_of(m) <= 1]


def search(rng: random.Random, budget: int, width: int = 4) -> list[Play] | None:
    """Depth-first, trying at most ``width`` placements of each play (restarts give variety)."""
    match = bw.BroadwayMatch()
    hand = Hand(leader="E", deal=Deal(hands={s: tuple(t) for s, t in DEAL.items()}))
    start = match.start_hand(hand)
    nodes = 0

    def dfs(state: bw.BroadwayHand, i: int, path: list[Play]) -> list[Play] | None:
        nonlocal nodes
        if i == len(PLAYS):
            return list(path)
        seat, text, scores = PLAYS[i]
        hint = HINTS.get(i, {})
        if "could_score" in hint and not could_score(state, seat, hint["could_score"]):
            return None
        moves = candidates(state, seat, text, scores)
        # Prefer compact tableaux (the source's pictures are blob-like), with some randomness.
        rng.shuffle(moves)
        moves.sort(key=lambda m: sum(abs(c[0]) + abs(c[1]) for c in m.at) + rng.random() * 3)
        tried = 0
        for move in moves:
            if tried >= width:
                return None
            nodes += 1
            if nodes > budget:
                return None
            nxt = clone(state)
            points = nxt.apply(move)
            assert points == (1 if scores else 0)
            if "matched" in hint and not set(hint["matched"]) <= matched_tiles(nxt):
                continue
            tried += 1
            found = dfs(nxt, i + 1, path + [move])
            if found is not None:
                return found
        return None

    return dfs(start, 0, [])


def build_record(moves: list[Play]) -> dict:
    hand = Hand(leader="E", deal=Deal(hands={s: tuple(DEAL[s]) for s in ("N", "E", "S", "W")}),
                moves=tuple(Play(seat=m.seat, play=m.play, at=m.at, score=1 if scores else 0)
                            for m, (_, _, scores) in zip(moves, PLAYS)),
                result=HandResult(scores={"NS": 4, "EW": 6}, end="out"))
    record = Record(game="broadway", event={"name": "Broadway v1.1.4, the sample hand of the rule text"},
                    players=tuple(Player(seat=s, name=n) for s, n in
                                  zip("NESW", ("North", "East", "South", "West"))),
                    hands=(hand,))
    return rec.unstructure(record)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget", type=int, default=1_000_000, help="placements tried per attempt")
    ap.add_argument("--attempts", type=int, default=20)
    ap.add_argument("--width", type=int, default=1000, help="placements tried per play")
    ap.add_argument("--out", default="samples/valid/broadway/sample-hand.json")
    args = ap.parse_args()
    for attempt in range(args.attempts):
        rng = random.Random(f"broadway-sample:{args.seed}:{attempt}")
        moves = search(rng, args.budget, args.width)
        if moves is not None:
            doc = build_record(moves)
            load_dict(doc)  # shape check
            Path(args.out).parent.mkdir(parents=True, exist_ok=True)
            Path(args.out).write_text(rec.pretty(doc) + "\n", encoding="utf-8")
            print(f"found on attempt {attempt + 1}; written to {args.out}")
            return
        print(f"attempt {attempt + 1}: no solution within {args.budget} placements", file=sys.stderr)
    raise SystemExit("no solution found")


if __name__ == "__main__":
    main()

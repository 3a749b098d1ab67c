"""Search for the hand-checkable Competitive samples in samples/valid/competitive.

The samples are static files; this script documents how they were found
(seeded random play through the real engine until a hand has the wanted
property) and can regenerate them:  python tools/competitive_samples.py
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import attrs

from domrec.games import competitive
from domrec.record import Deal, GameResult, Hand, HandResult, Record, Redeal, Rules, pretty, unstructure
from domrec.simulate import make_record, play_game

OUT = Path(__file__).resolve().parent.parent / "samples" / "valid" / "competitive"
T = competitive.T


def one_hand(rng: random.Random, leader: str, hands: dict, policy) -> tuple[Hand, object] | None:
    template = make_record("competitive")
    match = competitive.ENGINE.start(template)
    hand = Hand(leader=leader, deal=Deal(hands={s: tuple(hands[s]) for s in "NESW"}))
    state = match.start_hand(hand)
    moves = []
    while not state.over:
        move = policy(state, state.legal_moves(), rng)
        if move is None:
            return None
        state.apply(move)
        moves.append(move)
    outcome = match.finish_hand(state)
    return attrs.evolve(hand, moves=tuple(moves), result=HandResult(scores=outcome.scores, end=outcome.end)), outcome


def save(name: str, record: Record) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / name).write_text(pretty(unstructure(record)) + "\n")


def search_35() -> None:
    """The source's example: N goes out holding W 6-3 6-0, S 2-2, E 5-4 4-3 -> 35."""
    keep = {"W": {"6-3", "6-0"}, "S": {"2-2"}, "E": {"5-4", "4-3"}}
    kept = {T.tile(t) for ts in keep.values() for t in ts}
    rest = [t for t in T.DOUBLE_SIX if t not in kept]
    for attempt in range(200000):
        rng = random.Random(attempt)
        rng.shuffle(rest)
        hands = {"N": [str(t) for t in rest[:7]], "W": sorted(keep["W"]) + [str(t) for t in rest[7:12]],
                 "S": sorted(keep["S"]) + [str(t) for t in rest[12:18]],
                 "E": sorted(keep["E"]) + [str(t) for t in rest[18:23]]}

        def policy(state, legal, rng):
            ok = [m for m in legal if getattr(m, "play", None) is None or T.tile(m.play) not in kept]
            return rng.choice(ok) if ok else None
        found = one_hand(rng, "N", hands, policy)
        if found and found[1].end == "out" and found[1].scores["NS"] == 35:
            rec = attrs.evolve(make_record("competitive"), hands=(found[0],),
                               event={"name": "The 35-point example of the rule text"})
            save("domino-35.json", rec)
            print("35-point example found at attempt", attempt)
            return
    raise SystemExit("no 35-point hand found")


def search_hand(name: str, want) -> None:
    for attempt in range(100000):
        rng = random.Random(attempt)
        tiles = list(T.DOUBLE_SIX)
        rng.shuffle(tiles)
        hands = {s: [str(t) for t in tiles[i * 7:(i + 1) * 7]] for i, s in enumerate("NESW")}
        found = one_hand(rng, "N", hands, lambda st, legal, r: r.choice(legal))
        if found and want(found[0], found[1]):
            save(name, attrs.evolve(make_record("competitive"), hands=(found[0],)))
            print(name, "found at attempt", attempt)
            return
    raise SystemExit(f"no hand for {name}")


def search_game() -> None:
    """The shortest full game to 200 among seeded simulations."""
    template = make_record("competitive")
    best = None
    for seed in range(400):
        rec = play_game(template, random.Random(f"sample:{seed}"))
        if best is None or len(rec.hands) < len(best.hands):
            best = rec
    save("game-to-200.json", attrs.evolve(best, event={"name": "Sample club night", "round": 1, "table": 1}))
    print("game to 200 with", len(best.hands), "hands")


def make_redeal() -> None:
    """A first hand played after W asked for a redeal holding five doubles."""
    base = json.loads((OUT / "domino.json").read_text())
    doubles = [f"{n}-{n}" for n in range(7)]
    others = [str(t) for t in T.DOUBLE_SIX if not t.is_double]
    old = {"N": others[0:6] + [doubles[5]], "E": others[6:13], "S": others[13:19] + [doubles[6]],
           "W": doubles[0:5] + others[19:21]}
    base["hands"][0]["deal"]["redeals"] = [{"seat": "W", "hands": old}]
    base["event"] = {"name": "W holds five doubles and asks for a redeal; the leader does not change"}
    (OUT / "redeal.json").write_text(pretty(base) + "\n")
    print("redeal written")


def make_double_six() -> None:
    """Option first_lead: double-six, with the lead draw of the default rules absent."""
    template = make_record("competitive", options={"first_lead": "double-six"})
    rec = play_game(template, random.Random("sample:double-six"))
    save("first-lead-double-six.json", rec)
    print("double-six game with", len(rec.hands), "hands")


BAD = OUT.parent.parent / "invalid" / "competitive"


def bad(name: str, doc, expect: dict, raw: str | None = None) -> None:
    BAD.mkdir(parents=True, exist_ok=True)
    (BAD / f"{name}.json").write_text(raw if raw is not None else pretty(doc) + "\n")
    (BAD / f"{name}.expect").write_text(json.dumps(expect) + "\n")


def make_invalid() -> None:
    """One mistake a sample, each with the verdict the validator must give."""
    import copy

    good = json.loads((OUT / "domino.json").read_text())
    moves = good["hands"][0]["moves"]

    def variant(fn):
        doc = copy.deepcopy(good)
        fn(doc)
        return doc

    first_pass = next(i for i, m in enumerate(moves) if m.get("pass"))
    seat = moves[first_pass]["seat"]
    # A pass while able: the seat that passed is given a tile that fits, swapped with its partner's.
    def pass_while_able(doc):
        doc["hands"][0]["moves"][first_pass + 0] = {"seat": seat, "pass": True}
        doc["hands"][0]["moves"][1] = {"seat": moves[1]["seat"], "pass": True}
    bad("pass-while-able", variant(pass_while_able),
        {"status": "invalid", "pointer": "/hands/0/moves/1", "rule": "competitive: must play if able"})
    bad("tile-not-in-hand", variant(lambda d: d["hands"][0]["moves"][2].update(play=moves[1]["play"])),
        {"status": "invalid", "pointer": "/hands/0/moves/2", "rule": "competitive: playing from hand"})
    bad("wrong-turn", variant(lambda d: d["hands"][0]["moves"][1].update(seat="E")),
        {"status": "invalid", "pointer": "/hands/0/moves/1", "rule": "competitive: turn order (to the right)"})
    bad("wrong-hand-score", variant(lambda d: d["hands"][0]["result"]["scores"].update(NS=30)),
        {"status": "invalid", "pointer": "/hands/0/result/scores/NS", "rule": "hand scoring"})
    game = json.loads((OUT / "game-to-200.json").read_text())
    game["result"]["winner"] = "NS"
    bad("wrong-winner", game, {"status": "invalid", "pointer": "/result/winner", "rule": "winning"})
    three = variant(lambda d: d["players"].pop())
    bad("three-players", three, {"status": "invalid", "pointer": "/players", "rule": "competitive: four players"})
    bad("duplicate-tile", variant(lambda d: d["hands"][0]["deal"]["hands"]["E"].__setitem__(0, d["hands"][0]["deal"]["hands"]["N"][0])),
        {"status": "invalid", "pointer": "/hands/0/deal/hands/E/0"})
    bad("tile-outside-set", variant(lambda d: d["hands"][0]["deal"]["hands"]["E"].__setitem__(0, "7-3")),
        {"status": "invalid", "pointer": "/hands/0/deal/hands/E/0", "rule": "competitive: the deal"})
    bad("short-hand", variant(lambda d: d["hands"][0]["deal"]["hands"]["E"].pop()),
        {"status": "invalid", "pointer": "/hands/0/deal/hands/E", "rule": "competitive: the deal"})
    bad("unknown-seat", variant(lambda d: d["hands"][0]["moves"][3].update(seat="X")),
        {"status": "invalid", "pointer": "/hands/0/moves/3"})
    redeal = json.loads((OUT / "redeal.json").read_text())
    old = redeal["hands"][0]["deal"]["redeals"][0]["hands"]
    old["W"][4], old["N"][0] = old["N"][0], old["W"][4]  # W now holds four doubles
    bad("redeal-four-doubles", redeal,
        {"status": "invalid", "pointer": "/hands/0/deal/redeals/0/seat", "rule": "competitive: redeal"})
    later = json.loads((OUT / "game-to-200.json").read_text())
    later["hands"][1]["leader"] = "S" if later["hands"][1]["leader"] != "S" else "N"
    bad("wrong-leader", later, {"status": "invalid", "pointer": "/hands/1/leader", "rule": "competitive: next leader"})
    bad("unknown-option", variant(lambda d: d.update(rules={"options": {"first_lead": "any", "target": 150}})),
        {"status": "unusable", "pointer": "/rules/options/target"})
    bad("version-2", variant(lambda d: d.update(version="2.0")), {"status": "unusable", "pointer": "/version"})
    bad("unknown-game", variant(lambda d: d.update(game="mexican-train")), {"status": "unusable", "pointer": "/game"})
    bad("missing-moves", variant(lambda d: d["hands"][0].pop("moves")), {"status": "unusable", "pointer": "/hands/0"})
    bad("truncated", None, {"status": "unusable", "pointer": ""},
        raw=pretty(good)[:300])
    bad("array-not-record", [good], {"status": "unusable", "pointer": ""})
    print("invalid samples written")


if __name__ == "__main__":
    search_35()
    search_hand("domino.json", lambda h, o: o.end == "out" and len(h.moves) <= 26)
    search_hand("blocked.json", lambda h, o: o.end == "blocked" and any(o.scores.values()) and len(h.moves) < 20)
    search_hand("tied-block.json", lambda h, o: o.end == "blocked" and not any(o.scores.values()))
    search_game()
    make_redeal()
    make_double_six()
    make_invalid()

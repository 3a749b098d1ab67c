"""A fixed corpus of bad requests, sent to table sessions of all five games: what the venue's
table page can show a player, collected so that a test can check each sentence is listed in
:mod:`domrec.phrases` (and so has its Spanish).

Simulated games (fixed seeds) are replayed as a table's phone sends them, with the deal and
without it; before each request (or every few, for the long games), the session is sent a set
of wrong ones: tiles not held or that do not fit, a move out of turn or claiming a wrong score,
a pass or a draw where the rules forbid it, hand part lines out of place, wrong ``left`` and
``end`` lines, words of other games' notation and plain garbage.  Every refusal is collected,
and so is what the session says of the moves it takes (the moves' labels and the recorder's
lines), which the page shows too.  Nothing here is random at run time: the same sentences come
out on every run.
"""

from __future__ import annotations

import io
import pickle
import random
import types
from typing import Iterator

import attrs

from domrec import notation
from domrec.record import Record
from domrec.session import PARTS, RequestRefused, Session
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

#: The games and options the corpus plays: every game, its seat counts and main options.
CONFIGS = [
    ("competitive", None, {"first_lead": "any"}, None),
    ("competitive", None, {"first_lead": "double-six"}, None),
    ("horse-race", 2, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 3, {"chain_draw": False}, None),
    ("horse-race", 4, None, "celko"),
    ("broadway", None, None, None),
    ("castle-rock", 2, None, None),
    ("castle-rock", 4, None, None),
    ("castle-rock", 4, {"set": "double-nine"}, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, {"block_match": "sum"}, None),
]

#: Words no game takes, or takes only in some games, or only at some moments.
GARBAGE = ["zz", "6-", "9-9", "6-4@", "6-4@9-9", "6-4=x", "6-4=999", "x", "-=5", "+9-9", "=3", "@", "66-4",
           "7-7", "13-13", "x1-1", "x2-4,4-4,1-4", "!4-4", "*4-4@2,1", "5-3@2,1", "r3+4", "r9+9", "reuse",
           "s3-4@NS1/4", "5-6@NS1", "b0-0@NS1/2/6+NS2/1/4", "#3-3@NS1", "y", "quit", "time", ";", "N",
           "N E", "N N 6-6", "{a comment", "6-6@6-6@6-6", "1.", "6-4@1-1", "0-0@0-0"]
#: Hand part lines at any moment: most are refused somewhere.
PART_LINES = ["hand 1", "hand 99", "hand 2 lead Q", "hand", "deal N 6-6", "deal N 6-6 6-6", "deal Q 1-1",
              "row 1-1", "boneyard 9-9", "pile N 1-1", "leaddraw N 6-6", "redeal N", "left N 0-0",
              "left N 0-0; E 3-1", "left Q 1-1", "left", "end", "end NS 5", "end out NS 1 EW 0",
              "end blocked NS 3", "end NS 9999 EW 0", "end sideways", "end out", "end blocked",
              "end NS -5", "end ZZ 4"]

SEEDS = (1, 2)


@attrs.frozen
class Seen:
    """A sentence the session gave, what made it, and where: ``kind`` is ``refused``, ``said``
    (a line said of a request taken) or ``label`` (a move in words, on the page's buttons)."""

    kind: str
    text: str
    request: str
    game: str


def _game(config: tuple, seed: int) -> Record:
    game, players, options, variant = config
    return next(made_once.simulate(game, 1, seed, players, options, variant, accidents=True))


def _requests(record: Record, keep_deal: bool, hands: int) -> list[str]:
    """The first ``hands`` hands as a phone sends them (a refused request costs a replay of the
    accepted ones, so the corpus stays in the first hands, where every kind of move is made)."""
    out: list[str] = []
    for line in notation.dumps_typed(record, keep_deal=keep_deal).splitlines():
        if not line or line.startswith("["):
            continue
        words = line.split()
        if words[0] == "hand" and sum(1 for x in out if x.startswith("hand ")) == hands:
            break
        out.extend([line] if words[0] in PARTS else words)
    return out


def _wrong(session: Session, real: str, rng: random.Random, budget: int | None = None) -> list[str]:
    """The wrong requests tried before ``real`` is taken (``budget`` of them, drawn at random from
    all the kinds, where given)."""
    g = session.game
    tiles = [str(t) for t in dict.fromkeys(g.tile_set())]
    out = rng.sample(tiles, min(6, len(tiles)))
    seats = list(g.seats)
    word = real.split()[-1] if real.split() else real
    if real.split() and real.split()[0] not in PARTS:
        others = [s for s in seats if s != g.to_move]
        if others:
            out.append(f"{rng.choice(others)} {word}")
        out += [f"{word}=77", f"{word}@{rng.choice(tiles)}", f"{word}@9-9", f"{rng.choice(seats)} -",
                f"{rng.choice(seats)} +"]
    for legal in session.legal()[:3]:
        out.append(f"{legal['text']}=55")
        if "@" in legal["text"]:
            out.append(legal["text"].split("@")[0] + "@" + rng.choice(tiles))
    out += ["-", "+", "+" + rng.choice(tiles), "undo\nundo\nundo\nundo\nundo\nundo\nundo\nundo\nundo\nundo\n6-6"]
    out += rng.sample(GARBAGE, 6) + rng.sample(PART_LINES, 5)
    if g.in_hand and g.hand_over:
        held = ", ".join(rng.sample(tiles, 2))
        out += [f"left {seats[0]} {held}", f"left {seats[-1]} {rng.choice(tiles)}", "end blocked NS 8 EW 0",
                f"end out {seats[0]} 12", "end " + " ".join(f"{s} 3" for s in (list(g.totals) or seats)), "y\n6-6"]
    return out if budget is None or budget >= len(out) else rng.sample(out, budget)


def collect(configs: list = CONFIGS, seeds: tuple = SEEDS, every: int = 1, hands: int = 2,
            budget: int | None = None) -> Iterator[Seen]:
    """Every sentence the corpus draws out of the sessions (duplicates included): ``every`` how
    often a position is tried, ``hands`` how many hands of each game, ``budget`` how many wrong
    requests at a position (None: all of them)."""
    for config in configs:
        game = config[0]
        for seed in seeds:
            record = _game(config, seed)
            template = attrs.evolve(record, hands=(), result=None)
            for keep_deal in (True, False):
                rng = random.Random(f"{config}:{seed}:{keep_deal}")
                session = Session(template)
                requests = _requests(record, keep_deal, hands) + ["y", "6-6", "end NS 1", "hand 1", "undo", "y"]
                for k, real in enumerate(requests):
                    if k % every == 0:
                        snapshot = _snapshot(session)  # (the session as it stands, copied for each wrong request)
                        for wrong in _wrong(session, real, rng, budget):
                            yield from _try(session, template, wrong, game, keep=False, snapshot=snapshot)
                    yield from _try(session, template, real, game, keep=True)
                    for m in session.legal():
                        yield Seen("label", m["label"], "", game)


class _Pickler(pickle.Pickler):
    """A pickler that leaves functions as they are, as ``copy.deepcopy`` does (a hand's outcome
    keeps a local lambda, which pickle cannot write): each is kept aside and the copy given the
    same one."""

    def __init__(self, file: io.BytesIO, kept: list) -> None:
        super().__init__(file, pickle.HIGHEST_PROTOCOL)
        self.kept = kept

    def persistent_id(self, obj: object) -> int | None:
        if isinstance(obj, types.FunctionType):
            self.kept.append(obj)
            return len(self.kept) - 1
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: io.BytesIO, kept: list) -> None:
        super().__init__(file)
        self.kept = kept

    def persistent_load(self, pid: int) -> object:
        return self.kept[pid]


def _snapshot(session: Session) -> tuple[bytes, list]:
    """``session`` written once, to be copied for each wrong request sent at this position."""
    buffer, kept = io.BytesIO(), []
    _Pickler(buffer, kept).dump(session)
    return buffer.getvalue(), kept


def _probe(snapshot: tuple[bytes, list]) -> Session:
    """A copy of the session of ``snapshot`` to send a wrong request to (the session's own way
    back after a refusal, replaying every accepted request, would make the corpus far slower).
    The copy is a pickle's round trip, written once a position and read once a request: as deep
    and as independent as ``copy.deepcopy``'s (functions shared, as deepcopy shares them), made
    in C, in a fraction of its time (the copy, deepcopy's, was half of the corpus's CPU)."""
    data, kept = snapshot
    probe = _Unpickler(io.BytesIO(data), kept).load()
    probe._undo_request = lambda: None  # type: ignore[method-assign]
    probe._recorder.refuse_out = probe._refusals.append
    probe._recorder.say = probe._said.append
    return probe


def _try(session: Session, template: Record, text: str, game: str, keep: bool,
         snapshot: tuple[bytes, list] | None = None) -> Iterator[Seen]:
    target = session if keep else _probe(snapshot if snapshot is not None else _snapshot(session))
    try:
        said = target.take(text)
    except RequestRefused as e:
        yield Seen("refused", e.refusal.message, text, game)
        return
    for line in said:
        yield Seen("said", line, text, game)

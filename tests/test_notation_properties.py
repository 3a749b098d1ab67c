"""DGN properties over simulated games of every game and option set.

* JSON -> DGN -> JSON is exact, and canonical DGN -> JSON -> DGN is the identity;
* the short form people type (:func:`notation.dumps_typed`, with or without the deal) reads
  back to a record that validates with the same moves, totals and winner;
* a single corruption of the text is reported where it is: a move replaced by a tile its
  player does not hold at the line and column of that token, a bad token inserted at its
  own place, a tile deleted from a deal at that hand's deal.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from domrec import games, notation
from domrec import tiles as T
from domrec.record import unstructure
from domrec.validate import validate

from tests.conftest import CONFIGS, IDS, comparable_moves as _comparable, examples, state_before, without_claims
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

SEEDS = st.integers(min_value=0, max_value=10**9)
# (Fixed examples under CI come from the profile: tests/conftest.py; elsewhere --hypothesis-seed applies.
# The default run draws one seed of each configuration (and the explicit examples), two or three
# of each game, the same games and corruptions again; pytest --long draws the full count.)
SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def simulated(config, seed):
    game, players, options, variant = config
    return next(made_once.simulate(game, 1, seed, players, options, variant))


def plain(record) -> dict:
    return json.loads(json.dumps(unstructure(record)))


# --- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 5), **SETTINGS)
@given(seed=SEEDS)
def test_json_dgn_json_is_exact_and_dgn_json_dgn_is_the_identity(config, seed):
    assert_round_trips(simulated(config, seed))


def assert_round_trips(record) -> None:
    """JSON -> DGN -> JSON is exact, DGN -> JSON -> DGN the identity, and the DGN validates
    (also used by tests/test_simulate.py on games with accidents)."""
    text = notation.dumps(record)
    back = notation.loads(text)
    assert unstructure(back) == unstructure(record)
    assert plain(back) == plain(record)
    assert notation.dumps(back) == text
    game = next(notation.read_games(text))
    assert game.complete and game.report.status == "valid" and game.report.finished
    assert game.report.problems == ()


# A tile's hyphen, where a tile is written (not a cell's minus sign, a pass, or a road named P1-1): ``6-3``, ``12-11``.
_TILE_HYPHEN = re.compile(r"(?<![0-9A-Za-z-])([0-9]{1,2})-([0-9]{1,2})(?![0-9])")
#: Every way the reader takes a tile's two numbers joined, each a club's document may hold.
_JOINS = [":", "|", "\u2010", "\u2011", "\u2012", "\u2013", "\u2014", "\u2212"]


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 3), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_tile_joined_by_any_dash_reads_as_the_same_record(config, seed, pick):
    # A canonical text whose tiles are joined by ':' or '|' or a dash other than the hyphen (a
    # document's en dash, a phone's non-breaking hyphen), each tile its own at random: the same
    # record as the canonical text, written back with the hyphen.
    record = simulated(config, seed)
    text = notation.dumps(record)
    head, cut, body = text.partition("\nhand 1")
    typed = head + cut + _TILE_HYPHEN.sub(lambda m: m[1] + pick.choice(_JOINS) + m[2], body)
    assert typed != text
    back = notation.loads(typed)
    assert unstructure(back) == unstructure(record)
    assert notation.dumps(back) == text


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 4), **SETTINGS)
@given(seed=SEEDS)
@example(seed=107)  # horse-race-3-chain_draw=False: a seat the turn gave but the chain may not have
def test_typed_form_reads_back_to_the_same_game(config, seed):
    assert_typed_form_reads_back(simulated(config, seed))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 3), **SETTINGS)
@given(seed=SEEDS)
@example(seed=2526)  # horse-race-4-std: hand 7's readings give the same scores, one ending "out", the
#                     one played "target" (the end line's claim): the set of positions chose "out"
def test_a_score_sheet_with_each_hands_scores_reads_as_scored(config, seed):
    """A club's score sheet (no ends, no seats, no deal), each hand's ``end`` line claiming its
    scores: every hand reads to the scores it claims, whichever readings give them; or, where a
    hand leaves more readings than the reader's limit, the reader asks for an end or a seat."""
    record = simulated(config, seed)
    truth = validate(record)
    text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False, scores=True)
    (game,) = notation.read_games(text, "sheet.dgn")
    if game.report.status != "valid":
        (problem,) = game.report.problems
        assert problem.rule == "DGN: what may be left out" and "fit what is typed" in problem.message, \
            problem.text()
        return
    assert (game.report.scores, game.report.winner) == (truth.scores, truth.winner)
    assert [h.result.scores for h in game.record.hands] == [h.result.scores for h in record.hands]


def test_a_sheets_hand_ended_at_the_target_is_not_read_as_gone_out_with_the_same_scores():
    """Partnership Horse Race counting the partner's hand, a score sheet (no ends, no seats, no
    deal) whose hand 6 ends ``target`` with NS 8, EW 9: too many positions for the set of
    positions, so the general reading reads it, and one of its readings gives the same scores but
    ends the hand ``out`` (W's last tile not reaching the target).  The general reading took the
    claimed scores alone and chose that reading first, and the sheet was judged invalid ("claimed
    to end 'target', but it ended 'out'"); a reading that ends the hand otherwise than its end
    line is no reading of it, as the straight reading already held (found by the property test
    above, seed 95797)."""
    config = CONFIGS[IDS.index("horse-race-4-partnerships=True-count_partner=True")]
    record = simulated(config, 95797)
    truth = validate(record)
    assert [h.result.end for h in record.hands][5] == "target"
    text = notation.dumps_typed(record, keep_deal=False, ends=False, seats=False, scores=True)
    (game,) = notation.read_games(text, "sheet.dgn")
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert (game.report.scores, game.report.winner) == (truth.scores, truth.winner)
    assert [h.result.end for h in game.record.hands] == [h.result.end for h in record.hands]


def test_typed_writer_writes_a_seat_where_the_chain_may_have_ended_unwritten():
    """Horse Race under ``chain_draw: false``, typed without the deal: after P3 leads 5-5 in
    hand 5 the chain is P3's if P3 can play, but without the deal the reader also tries P1
    (the engine's ``movers``), and both readings stay legal with different scores.  The writer
    once left P3's seat out because the turn (``to_move``) was P3's, and the reader refused its
    text ("may be P3's or P1's ... write its seat"); it now leaves a seat out only where the
    engine names that seat alone, as the reader asks it."""
    record = simulated(("horse-race", 3, {"chain_draw": False}, None), 107)
    text = notation.dumps_typed(record, keep_deal=False)
    hand5 = text.split("\nhand 5 ")[1].split("\n")
    assert hand5[2].startswith("5-5 P3 5-2@5-5 "), hand5
    game = next(notation.read_games(text, "typed.dgn"))
    assert game.report.status == "valid", [p.text() for p in game.report.problems]
    assert_typed_form_reads_back(record)


def assert_typed_form_reads_back(record) -> None:
    """The typed short form, with and without the deal, reads back to the same game."""
    truth = validate(record)
    assert truth.status == "valid" and truth.finished
    original = plain(record)
    for keep_deal in (True, False):
        text = notation.dumps_typed(record, keep_deal=keep_deal)
        found = list(notation.read_games(text, "typed.dgn"))
        assert len(found) == 1
        game = found[0]
        assert game.complete
        assert game.report.status == "valid", (keep_deal, [p.text() for p in game.report.problems])
        assert game.report.finished
        assert (game.report.scores, game.report.winner) == (truth.scores, truth.winner)
        again = validate(game.record)
        assert (again.status, again.scores, again.winner) == ("valid", truth.scores, truth.winner)
        back = plain(game.record)
        assert len(back["hands"]) == len(original["hands"])
        for mine, theirs in zip(back["hands"], original["hands"]):
            # every move with its seat, forced passes put back (or written), claims left out
            assert without_claims(mine["moves"]) == _comparable(theirs, mine, keep_deal)
            if keep_deal:
                assert mine["deal"] == theirs["deal"]
            else:  # the deal worked out from the moves and left: the same tiles for every seat
                for seat, tiles in theirs["deal"]["hands"].items():
                    # (a Broadway tile is written with its halves as it was laid)
                    assert _as_tiles(mine["deal"]["hands"][seat]) == _as_tiles(tiles), seat
                for key in ("row", "piles"):
                    assert mine["deal"].get(key) == theirs["deal"].get(key)


def _as_tiles(texts: list[str]) -> list:
    return sorted((T.tile(x) for x in texts), key=lambda t: (t.high, t.low))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_archive_of_games_reads_back_game_by_game(config):
    game, players, options, variant = config
    records = list(made_once.simulate(game, 3, 7, players, options, variant))
    text = "\n".join(notation.dumps(r) for r in records)
    found = list(notation.read_games(text, "a.dgn"))
    assert [unstructure(g.record) for g in found] == [unstructure(r) for r in records]
    starts = [1]
    for r in records[:-1]:
        starts.append(starts[-1] + notation.dumps(r).count("\n") + 1)
    assert [g.report.source for g in found] == [f"a.dgn:{n}" for n in starts]


# --- corruptions ----------------------------------------------------------------------------

_PARTS = ("hand", "deal", "boneyard", "row", "pile", "leaddraw", "redeal", "left", "end")


def move_tokens(text: str) -> list[list[tuple[str, int, int, int]]]:
    """Per hand, each move of a canonical text as (token, offset, line, column); seats are skipped."""
    hands: list[list[tuple[str, int, int, int]]] = []
    offset = 0
    for number, line in enumerate(text.split("\n"), 1):
        words = line.split(" ")
        if words[0] == "hand":
            hands.append([])
        elif hands and line and words[0] not in _PARTS:
            col = 0
            for k, w in enumerate(words):
                if k % 2 == 1:
                    hands[-1].append((w, offset + col, number, col + 1))
                col += len(w) + 1
        offset += len(line) + 1
    return hands


def _replaceable(move) -> str | None:
    """The tile of a move played from its mover's hand, or None."""
    kind = type(move).__name__
    if kind == "Play" and not move.penalty:
        return move.play
    return {"Span": getattr(move, "span", None), "Starter": getattr(move, "starter", None),
            "Block": getattr(move, "block", None)}.get(kind)


GAMES = sorted({c[0] for c in CONFIGS})


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 4), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_move_replaced_by_a_tile_not_held_is_reported_at_its_token(config, seed, pick):
    record = simulated(config, seed)
    text = notation.dumps(record)
    tokens = move_tokens(text)
    assert [len(h) for h in tokens] == [len(h.moves) for h in record.hands]
    candidates = [(i, j) for i, h in enumerate(record.hands) for j, m in enumerate(h.moves) if _replaceable(m)]
    i, j = pick.choice(candidates)
    move = record.hands[i].moves[j]
    state = state_before(plain(record), i, j)
    held = {t for t in state.holdings()[move.seat]}
    match = games.engine(record.game).start(record)
    others = sorted({t for t in match.tile_set() if t not in held}, key=str)
    new = str(pick.choice(others))
    token, offset, line, column = tokens[i][j]
    old = _replaceable(move)
    k = token.index(old)
    corrupted = text[:offset] + token[:k] + new + token[k + len(old):] + text[offset + len(token):]
    game = next(notation.read_games(corrupted, "c.dgn"))
    assert game.report.status == "invalid", (token, new)
    p = game.report.problems[0]
    assert p.kind == "illegal" and (p.hand, p.move, p.seat) == (i + 1, j + 1, move.seat), p.text()
    # At the tile within the move's token (a seat before it, a @place after it, are not blamed).
    field = {"Play": "/play", "Span": "/span", "Starter": "/starter", "Block": "/block"}[type(move).__name__]
    assert (p.line, p.column) == (line, column + k), (token, new, p.text())
    # said in words for the person who typed it; the pointer is kept for --json and -v
    assert p.text().startswith(f"{line}:{column + k}: hand {i + 1}, move {j + 1}, {move.seat}: "), p.text()
    assert p.pointer == f"/hands/{i}/moves/{j}{field}"


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(3, 10), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False), bad=st.sampled_from(["zz", "6-x", "@@", "{oops", "}"]))
def test_an_unreadable_token_inserted_is_unusable_at_its_place(name, seed, pick, bad):
    record = next(made_once.simulate(name, 1, seed))
    for keep_deal, text in ((None, notation.dumps(record)), (True, notation.dumps_typed(record))):
        lines = text.split("\n")
        movelines = [n for n, line in enumerate(lines) if line and line.split(" ")[0] not in _PARTS
                     and not line.startswith("[") and n > 0]
        n = pick.choice(movelines)
        spaces = [0] + [k + 1 for k, ch in enumerate(lines[n]) if ch == " "]
        col = pick.choice(spaces)
        lines[n] = lines[n][:col] + bad + " " + lines[n][col:]
        game = next(notation.read_games("\n".join(lines)))
        assert game.report.status == "unusable"
        p = game.report.problems[0]
        assert (p.line, p.column) == (n + 1, col + 1), (bad, lines[n], p.text())


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(2, 8), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_tile_no_hand_holds_inserted_as_a_move_is_reported_at_its_token(name, seed, pick):
    record = next(made_once.simulate(name, 1, seed))
    text = notation.dumps_typed(record)  # seats from the turn: the tile is someone's move
    tokens = [(n, k) for n, line in enumerate(text.split("\n"))
              if line and line.split(" ")[0] not in _PARTS and not line.startswith("[")
              for k in [0] + [m + 1 for m, ch in enumerate(line) if ch == " "]]
    n, col = pick.choice(tokens)
    lines = text.split("\n")
    tile = "13-13@1,1" if name == "broadway" else "13-13@NS1" if name == "domino-roads" else "13-13"
    before = lines[n][:col].split(" ")[-2] if col else None  # the word the tile now follows
    lines[n] = lines[n][:col] + tile + " " + lines[n][col:]
    game = next(notation.read_games("\n".join(lines)))
    assert game.report.status == "invalid"
    p = game.report.problems[0]
    if before in {pl.seat for pl in record.players} and p.pointer.endswith("/seat"):
        # Put right after a seat word, the tile is that seat's move (``W 13-13@NS1``), and where
        # the seat may not move now the first rule it breaks is the turn's ("it is S's turn ...
        # not W's"), whose field is the seat: reported at the seat, where that move starts, as a
        # seat out of turn is anywhere (the tile is never reached).  That is what the scorer must
        # look at: the seat now heads a move it did not make.
        col -= len(before) + 1
    assert (p.line, p.column) == (n + 1, col + 1), (lines[n], p.text())


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(2, 8), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_tile_deleted_from_a_deal_is_reported_at_that_hands_deal(name, seed, pick):
    record = next(made_once.simulate(name, 1, seed))
    lines = notation.dumps(record).split("\n")
    deal_lines = [n for n, line in enumerate(lines) if line.startswith("deal ") and len(line.split()) > 2]
    n = pick.choice(deal_lines)
    words = lines[n].split(" ")
    del words[pick.randrange(2, len(words))]
    lines[n] = " ".join(words)
    hand = sum(1 for line in lines[:n] if line.startswith("hand "))
    game = next(notation.read_games("\n".join(lines)))
    assert game.report.status == "invalid"
    p = game.report.problems[0]
    assert p.kind == "deal" and p.hand == hand, p.text()
    first, last = n, n
    while lines[first - 1].startswith("deal "):
        first -= 1
    while lines[last + 1].startswith("deal "):
        last += 1
    assert first + 1 <= p.line <= last + 1, (n + 1, p.text())
    assert p.line == n + 1 or p.pointer.endswith("/deal"), p.text()


def test_corruption_helpers_find_every_move():
    record = next(made_once.simulate("broadway", 1, 0))
    tokens = move_tokens(notation.dumps(record))
    assert [len(h) for h in tokens] == [len(h.moves) for h in record.hands]
    rng = random.Random(0)
    i = rng.randrange(len(tokens))
    token, offset, line, column = tokens[i][0]
    assert notation.dumps(record).split("\n")[line - 1][column - 1:].startswith(token)
    assert T.tile(_replaceable(record.hands[i].moves[0])) is not None


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(2, 8), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_move_token_deleted_leaving_its_seat_is_unusable_at_that_seat(name, seed, pick):
    record = next(made_once.simulate(name, 1, seed))
    text = notation.dumps(record)
    tokens = move_tokens(text)
    i, j = pick.choice([(i, j) for i, h in enumerate(tokens) for j in range(len(h))])
    token, offset, line, column = tokens[i][j]
    corrupted = text[:offset - 1] + text[offset + len(token):]  # "N 6-5@5-2 W" -> "N W"
    game = next(notation.read_games(corrupted))
    assert game.report.status == "unusable"
    p = game.report.problems[0]
    # the seat left without its move is on this line; when the move ended its line the reader
    # now reports the next line's first word (see test_seat_followed_by_a_seat_is_a_seat_without_a_move)
    assert p.line in (line, line + 1), (token, p.text())
    if p.line == line:
        assert p.column <= column, (token, p.text())


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=examples(2, 8), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_whole_move_deleted_is_caught_at_or_after_it_unless_the_game_stays_legal(name, seed, pick):
    """Deleting a move with its seat is usually illegal at once or later; it can stay legal (a
    Horse Race player who chained a 0-0 could have played the next tile instead, and 0-0 counts
    nothing), so a valid reading must then be a consistent game of its own."""
    record = next(made_once.simulate(name, 1, seed))
    text = notation.dumps(record)
    tokens = move_tokens(text)
    candidates = [(i, j) for i, h in enumerate(record.hands) for j, m in enumerate(h.moves)
                  if type(m).__name__ != "Pass"]  # a forced pass left out is put back by the reader
    i, j = pick.choice(candidates)
    token, offset, line, column = tokens[i][j]
    seat = record.hands[i].moves[j].seat
    start, end = offset - len(seat) - 1, offset + len(token)  # the seat written before the move goes too
    assert text[start:offset] == seat + " "
    if text[end] == " ":
        end += 1
    elif text[start - 1] == " ":
        start -= 1
    corrupted = text[:start] + text[end:]
    game = next(notation.read_games(corrupted))
    assert game.report.status in ("valid", "invalid"), game.report.problems
    if game.report.status == "valid":
        assert sum(len(h.moves) for h in game.record.hands) == sum(len(h.moves) for h in record.hands) - 1
        assert validate(game.record).status == "valid"
        return
    p = game.report.problems[0]
    assert p.line is not None and p.line >= line or p.hand is None or p.hand > i, (line, p.text())


# --- a corrupted field is reported at its text ------------------------------------------------


def _field_corruptions(doc: dict, i: int, j: int) -> list[tuple[dict, str, str]]:
    """Ways to break one field of move j of hand i, each as (new move, the pointer's field, the
    text of that field in the move's canonical DGN token, or "SEAT" for the seat word before it)."""
    move = doc["hands"][i]["moves"][j]
    seats = [p["seat"] for p in doc["players"]]
    state = state_before(doc, i, j)
    if "exposed" in move:
        # A Broadway exposure is out of turn by nature: no turn gives its seat, so another seat
        # breaks no rule about whose turn it is, but one about the tile shown: the new seat does
        # not hold it ("N does not hold 3-2 (it is in E's hand)"), or is the player to move, who
        # simply plays a tile ("it is N's own turn ...", at /exposed in tests/games/test_broadway.py).
        # The engine points at the exposed tile, as for any tile not held; its message names the
        # real holder, which is what a scorer who wrote the wrong seat needs to read.
        out = [({**move, "seat": s}, "/exposed", "!" + move["exposed"]) for s in seats if s != move["seat"]][:1]
    else:
        out = [({**move, "seat": s}, "/seat", "SEAT") for s in seats if s != move["seat"]][:1]
    held = [str(t) for t in state.holdings()[move["seat"]]] if hasattr(state, "holdings") else []
    if doc["game"] in ("competitive", "horse-race") and move.get("on") is not None:
        others = [t for t in held if t != move["play"] and T.tile(t) is not T.tile(move["on"])]
        if others:  # a tile still in the mover's hand is nowhere on the table
            out.append(({**move, "on": others[0]}, "/on", "@" + others[0]))
    if "capture" in move:
        row = {str(t) for t in state.row}
        outside = next(str(t) for t in T.SETS[state.set_name] if str(t) not in row)
        k = len(move["capture"]) - 1
        capture = list(move["capture"])
        capture[k] = outside
        out.append(({**move, "capture": capture}, f"/capture/{k}", "," + outside if k else "x" + outside))
    if "starter" in move:
        t = T.tile(move["starter"])
        facing = next(n for n in range(7) if n not in (t.high, t.low))
        out.append(({**move, "facing": facing}, "/facing", f"/{facing}"))
    if "span" in move:
        out.append(({**move, "road": "Nowhere"}, "/road", "@Nowhere"))
    if "bridge" in move:
        join = json.loads(json.dumps(move["join"]))
        join[1]["span"] = 99
        out.append(({**move, "join": join}, "/join/1/span", "/99/"))
    return out


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@settings(max_examples=examples(1, 4), **SETTINGS)
@given(seed=SEEDS, pick=st.randoms(use_true_random=False))
def test_a_corrupted_field_is_reported_at_its_text_as_in_json(config, seed, pick):
    """The pointer names the field (docs/format.md, "Where problems point"); DGN gives the same
    pointer and the line:column of that field's text within the move (the seat: its own word)."""
    record = simulated(config, seed)
    doc = plain(record)
    fields = [(i, j) for i, h in enumerate(doc["hands"]) for j, m in enumerate(h["moves"])
              if any(m.get(k) is not None for k in ("on", "capture", "starter", "span", "bridge"))]
    if fields and pick.random() < 0.8:
        i, j = pick.choice(fields)
    else:
        i = pick.randrange(len(doc["hands"]))
        j = pick.randrange(len(doc["hands"][i]["moves"]))
    options = _field_corruptions(doc, i, j)
    bad, field, text_of = pick.choice(options[1:] if len(options) > 1 and pick.random() < 0.8 else options)
    doc["hands"][i]["moves"][j] = bad
    report = validate(_load(doc))
    if text_of == "SEAT" and _legal_at(doc, i, j):
        # Another seat that may make this move there (Domino Roads: the roller's partner may
        # play in the roller's turn): nothing is wrong at this move, and what the validator
        # finds later (or nothing) is no field of it.  DGN must still say what JSON says.
        game = next(notation.read_games(notation.dumps(_load(doc)), "c.dgn"))
        assert [p.pointer for p in game.report.problems] == [p.pointer for p in report.problems]
        return
    first = report.problems[0]
    tile = next((k for k in ("play", "starter", "span", "block", "bridge") if k in bad), None)
    if text_of == "SEAT" and tile is not None and first.pointer == f"/hands/{i}/moves/{j}/{tile}":
        # The new seat may move there, so no turn is broken, but not with this tile: it does not
        # hold it (Domino Roads, the roller's partner: "N does not hold 3-0: it is in S's
        # stock"), or it is the player to move and may not place again (Castle Rock, the
        # boneyard empty: the placer keeps the turn for its captures, "P2 has already placed a
        # tile this turn").  The move is refused for its tile, at the tile, naming the seat, as
        # a Broadway exposure given another seat is (above).
        field, text_of = f"/{tile}", bad[tile]
    assert first.pointer == f"/hands/{i}/moves/{j}{field}", first.text()
    assert (first.hand, first.move) == (i + 1, j + 1)
    text = notation.dumps(_load(doc))
    token, offset, line, column = move_tokens(text)[i][j]
    if text_of == "SEAT":
        column -= len(bad["seat"]) + 1
    else:
        column += token.index(text_of) + (1 if text_of[0] in "@,/x!" else 0)
    game = next(notation.read_games(text, "c.dgn"))
    p = game.report.problems[0]
    assert p.pointer == first.pointer and (p.line, p.column) == (line, column), (token, p.text())


def _legal_at(doc: dict, i: int, j: int) -> bool:
    """Whether move j of hand i of ``doc``, as it stands, is accepted where it is."""
    try:
        state_before(doc, i, j).apply(_load(doc).hands[i].moves[j])
    except Exception:
        return False
    return True


def _load(doc: dict):
    from domrec.reader import load_dict

    return load_dict(doc)


def test_a_tile_put_after_a_seat_out_of_turn_is_reported_at_the_seat():
    """The case of test_a_tile_no_hand_holds_inserted_as_a_move_is_reported_at_its_token that
    hypothesis found (domino-roads, seed 62): ``W r1+6`` becomes ``W 13-13@NS1 r1+6``, a play
    of W's while only S may play; the turn is refused at the seat, where that move starts."""
    record = next(made_once.simulate("domino-roads", 1, 62))
    text = notation.dumps_typed(record)
    assert "3-0@NS2 W r1+6" in text
    line = text[:text.index("3-0@NS2 W r1+6")].count("\n") + 1
    column = len(text[:text.index("3-0@NS2 W r1+6")].rsplit("\n", 1)[-1]) + len("3-0@NS2 ") + 1
    game = next(notation.read_games(text.replace("3-0@NS2 W r1+6", "3-0@NS2 W 13-13@NS1 r1+6")))
    p = game.report.problems[0]
    assert p.pointer.endswith("/seat") and (p.line, p.column) == (line, column), p.text()
    assert "it is S's turn" in p.text() and "not W" in p.text()


def test_an_exposure_given_another_seat_is_reported_at_its_tile():
    """The case of test_a_corrupted_field_is_reported_at_its_text_as_in_json that hypothesis found
    (broadway, seed 14411): E's exposure of 3-2 given to N.  Nobody's turn gives an exposure's
    seat, so the rule broken is the tile's (N does not hold it): at /exposed in JSON, at the tile
    in DGN, naming its holder."""
    doc = plain(simulated(("broadway", None, None, None), 14411))
    move = doc["hands"][2]["moves"][7]
    assert move["seat"] == "E" and move["exposed"] == "3-2"
    doc["hands"][2]["moves"][7] = {**move, "seat": "N"}
    first = validate(_load(doc)).problems[0]
    assert first.pointer == "/hands/2/moves/7/exposed" and "(it is in E's hand)" in first.message
    text = notation.dumps(_load(doc))
    token, offset, line, column = move_tokens(text)[2][7]
    p = next(notation.read_games(text, "c.dgn")).report.problems[0]
    assert p.pointer == first.pointer and (p.line, p.column) == (line, column + 1), p.text()

"""Every problem of a typed sheet in one pass (issue #26, point 3).

After a notation error or a broken rule, the rest of that hand is read for further notation
errors and its tiles, and every later hand is replayed through the engine from its own start
(the broken hand counted by the scores its ``end`` line claims), so a secretary fixes a sheet
in one go (docs/notation.md, "Errors").
"""

from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks.dgn_verdicts import corruptions
from domrec import notation
from domrec.validate import validate
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

GAMES = ("competitive", "broadway", "horse-race", "castle-rock", "domino-roads")
SETTINGS = dict(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow], max_examples=40)

#: A word that lays a tile (a Broadway placement, a Roads starter, span, bridge or block…).
_LAYS = re.compile(r"[s#b*]?([0-9])-([0-9])(@\S*)?\Z")
_PARTS = ("deal", "boneyard", "row", "pile", "leaddraw", "redeal", "left", "end", "{")


class _Outcomes:
    """Each hand's computed scores, from the validator's own replay."""

    def __init__(self) -> None:
        self.scores: dict[int, dict[str, int]] = {}

    def hand_started(self, *args: object) -> None:
        pass

    def moved(self, *args: object) -> None:
        pass

    def hand_finished(self, index: int, outcome, match) -> None:  # noqa: ANN001
        self.scores[index] = dict(outcome.scores)


def typed_sheet(game: str, seed: int = 4) -> tuple[list[str], object]:
    """A simulated game as a scorer types it (no seats the turn gives, no deal: ``left``), each
    hand's leader on its hand line and each finished hand's scores on its ``end`` line: the
    lines (a fresh list), and the record."""
    lines, record = _typed_sheet(game, seed)
    return list(lines), record


@functools.lru_cache(maxsize=None)
def _typed_sheet(game: str, seed: int) -> tuple[tuple[str, ...], object]:
    record = next(made_once.simulate(game, 1, seed, None, None, None, accidents=False))
    seen = _Outcomes()
    validate(record, observer=seen)
    lines = notation.dumps_typed(record, keep_deal=False, seats=False).split("\n")
    hand = -1
    for k, line in enumerate(lines):
        if line.startswith("hand "):
            hand += 1
            first = next((m for m in record.hands[hand].moves), None)
            leader = record.hands[hand].leader or (first.seat if first is not None else None)
            if " lead " not in line and leader is not None:
                lines[k] = f"{line} lead {leader}"
        elif line == "end" and hand in seen.scores:
            lines[k] = "end " + " ".join(f"{side} {n}" for side, n in seen.scores[hand].items())
    return tuple(lines), record


def _move_lines(lines: list[str], number: int) -> list[int]:
    """The indexes of the move lines of hand ``number``."""
    start = lines.index(next(x for x in lines if re.match(rf"hand {number}\b", x)))
    out = []
    for k in range(start + 1, len(lines)):
        if not lines[k].strip() or lines[k].startswith("hand "):
            break
        if not lines[k].split()[0].lower().startswith(_PARTS):
            out.append(k)
    return out


def _insert_after(lines: list[str], k: int, index: int, word: str) -> tuple[int, int]:
    """Put ``word`` after the ``index``-th word of line ``k``; its line and column (from 1)."""
    words = lines[k].split(" ")
    words.insert(index + 1, word)
    lines[k] = " ".join(words)
    return k + 1, len(" ".join(words[:index + 1])) + 2


def _laying_word(lines: list[str], ks: list[int], once: set[str], last: bool = False) -> tuple[int, int, str]:
    """The first (or last) word of these lines that lays a tile the set holds once."""
    found = []
    for k in ks:
        for i, word in enumerate(lines[k].split(" ")):
            m = _LAYS.match(word)
            if m is not None and f"{m.group(1)}-{m.group(2)}" in once:
                found.append((k, i, word))
    return found[-1] if last else found[0]


def _once(record) -> set[str]:  # noqa: ANN001
    from domrec.game import Game

    rules = record.rules
    g = Game(record.game, record.players, variant=rules.variant if rules else None, options=record.options or None)
    tiles = [str(t) for t in g.tile_set()]
    return {t for t in tiles if tiles.count(t) == 1} | {f"{t[2]}-{t[0]}" for t in tiles if tiles.count(t) == 1}


#: The worked example of docs/notation.md ("a sheet with no ends and no seats"): valid.
SHEET = """\
[Game "competitive"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]

hand 1 lead N
5-2 6-5 4-2 6-4 6-6 - 6-0 6-2 4-0
2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -
5-3 3-2 4-3 4-1 3-1 3-0 5-5
left E 3-3; S 2-2
"""


def read1(text: str) -> notation.DgnGame:
    found = list(notation.read_games(text, "t.dgn"))
    assert len(found) == 1
    return found[0]


@pytest.mark.parametrize("game", GAMES)
def test_three_problems_in_three_hands_are_all_reported_in_one_run(game: str) -> None:
    lines, record = typed_sheet(game)
    assert read1("\n".join(lines)).report.valid
    once = _once(record)
    # Hand 1: a word that is no move (a notation error).
    k1 = _move_lines(lines, 1)[0]
    garbled = _insert_after(lines, k1, 0, "7-x")
    # Hand 2: a tile laid again just after it was laid (a rule the engine judges).
    k, i, word = _laying_word(lines, _move_lines(lines, 2), once)
    broken = _insert_after(lines, k, i, word)
    # Hand 3: a tile laid a second time at the end of the hand.
    k, i, word = _laying_word(lines, _move_lines(lines, 3), once, last=True)
    twice = _insert_after(lines, k, i, word)
    text = "\n".join(lines)
    report = read1(text).report
    spots = [(p.line, p.column) for p in report.problems]
    assert report.status == "unusable"
    assert spots[0] == garbled and "'7-x' is not a move" in report.problems[0].message
    assert broken in spots, [p.text() for p in report.problems]
    assert twice in spots, [p.text() for p in report.problems]
    at_broken = report.problems[spots.index(broken)]
    assert at_broken.hand == 2 and at_broken.rule not in ("the set", "the deal", ""), at_broken  # the engine's
    assert "hand 1 was counted by the scores its end line claims" in report.note
    as_json = report.to_dict()["problems"]
    assert {(p["line"], p["column"]) for p in as_json} >= {garbled, broken, twice}
    assert all("pointer" in p for p in as_json)


@pytest.mark.parametrize("game", GAMES)
def test_a_later_hand_is_not_replayed_when_the_broken_hand_claims_no_scores(game: str) -> None:
    lines, record = typed_sheet(game)
    k1 = _move_lines(lines, 1)[0]
    _insert_after(lines, k1, 0, "7-x")
    end = next(k for k in range(k1, len(lines)) if lines[k].startswith("end"))
    lines[end] = "end"
    k, i, word = _laying_word(lines, _move_lines(lines, 2), _once(record))
    twice = _insert_after(lines, k, i, word)
    report = read1("\n".join(lines)).report
    spots = [(p.line, p.column) for p in report.problems]
    assert twice in spots  # still found, by its tiles alone
    assert report.problems[spots.index(twice)].rule == "the set"
    assert "hand 1's scores are not known (its end line claims none)" in report.note


def test_a_notation_error_in_an_end_line_leaves_the_hand_judged() -> None:
    lines, _ = typed_sheet("competitive")
    end = next(k for k, x in enumerate(lines) if x.startswith("end"))
    lines[end] = "end NS x"
    report = read1("\n".join(lines)).report
    assert report.status == "unusable" and len(report.problems) == 1, [p.text() for p in report.problems]
    assert report.note is None or "counted by the scores" not in report.note


def test_a_bad_hand_line_still_starts_its_hand_and_the_rest_is_read() -> None:
    lines, record = typed_sheet("competitive")
    k = lines.index(next(x for x in lines if x.startswith("hand 2")))
    lines[k] = "hand 2 lead Q"
    k, i, word = _laying_word(lines, _move_lines(lines, 3), _once(record))
    twice = _insert_after(lines, k, i, word)
    report = read1("\n".join(lines)).report
    assert "'Q' is not a seat of this game" in report.problems[0].message
    assert twice in [(p.line, p.column) for p in report.problems]


def test_notation_errors_are_kept_up_to_a_limit() -> None:
    lines, _ = typed_sheet("competitive")
    k = _move_lines(lines, 1)[0]
    lines[k] += " ?" * 500
    report = read1("\n".join(lines)).report
    assert report.status == "unusable" and len(report.problems) == 100
    assert "reading stopped after 100 notation errors" in report.note


@settings(**SETTINGS)
@given(game=st.sampled_from(GAMES), seed=st.sampled_from([4, 7]), where=st.integers(0, 10_000),
       junk=st.sampled_from(["7-x", "05-2", "@", "=", "hand", "zz", "6-6@", "[Tag]", "}", "{", '"', "N;",
                             "end NS", "@6-6", "x"]))
def test_one_garbled_token_hides_no_problem_of_a_later_hand_and_never_crashes(game: str, seed: int, where: int,
                                                                               junk: str) -> None:
    lines, record = typed_sheet(game, seed)
    # A tile laid twice in the last hand: found with or without the garbled token.
    last = max(int(x.split()[1]) for x in lines if x.startswith("hand "))
    k, i, word = _laying_word(lines, _move_lines(lines, last), _once(record), last=True)
    _insert_after(lines, k, i, word)
    before = read1("\n".join(lines)).report
    later = {(p.line, p.column) for p in before.problems if p.hand == last}
    assert later
    # One garbled token somewhere among the moves of an earlier hand.
    hand = 1 + where % (last - 1)
    ks = _move_lines(lines, hand)
    k = ks[where % len(ks)]
    _insert_after(lines, k, (where // 7) % len(lines[k].split(" ")), junk)
    after = read1("\n".join(lines)).report
    assert after.status != "valid"
    spots = {(p.line, p.column) for p in after.problems}
    assert later <= spots, ([p.text() for p in before.problems], [p.text() for p in after.problems])


def test_validate_lists_every_problem_at_its_line_and_column_and_json_gives_each_pointer(tmp_path) -> None:  # noqa: ANN001
    import json

    from typer.testing import CliRunner

    from domrec.cli import app

    lines, record = typed_sheet("competitive")
    garbled = _insert_after(lines, _move_lines(lines, 1)[0], 0, "6-x")
    k, i, word = _laying_word(lines, _move_lines(lines, 2), _once(record))
    broken = _insert_after(lines, k, i, word)
    path = tmp_path / "sheet.dgn"
    path.write_text("\n".join(lines), encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 2, r.output  # a notation error: the text could not be read in full
    assert f"  {garbled[0]}:{garbled[1]}: hand 1, move 2: '6-x' is not a move" in r.output  # (after the first)
    assert f"  {broken[0]}:{broken[1]}: hand 2, move " in r.output
    assert "UNUSABLE (2 problems)" in r.output and "note: " in r.output
    r = CliRunner().invoke(app, ["validate", "--json", str(path)])
    report = json.loads(r.output.splitlines()[0])
    assert [(p["line"], p["column"]) for p in report["problems"]] == [garbled, broken]
    assert report["problems"][1]["pointer"].startswith("/hands/1/moves/")
    # Without the notation error the same sheet is invalid (exit 1), its rule problem the first.
    lines[garbled[0] - 1] = lines[garbled[0] - 1].replace(" 6-x", "", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    r = CliRunner().invoke(app, ["validate", str(path)])
    assert r.exit_code == 1 and "INVALID (1 problem)" in r.output, r.output


@pytest.mark.parametrize("game", ["horse-race", "castle-rock"])
def test_a_hand_whose_leader_follows_from_a_broken_hand_is_read_with_each_seat_leading(game: str) -> None:
    lines, record = typed_sheet(game)
    for k, line in enumerate(lines):  # no hand after the first names its leader
        if line.startswith("hand ") and not line.startswith("hand 1 "):
            lines[k] = re.sub(r" lead \S+$", "", line)
    _insert_after(lines, _move_lines(lines, 1)[0], 0, "7-x")
    k, i, word = _laying_word(lines, _move_lines(lines, 3), _once(record))
    broken = _insert_after(lines, k, i, word)
    report = read1("\n".join(lines)).report
    at = [p for p in report.problems if (p.line, p.column) == broken]
    assert at and at[0].rule not in ("the set", "the deal"), [p.text() for p in report.problems]  # the engine's
    assert len(report.problems) == 2, [p.text() for p in report.problems]


def test_a_setup_problem_keeps_the_notation_errors_first() -> None:
    text = '[Game "competitive"]\n[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n\nhand 1 lead N\n6-6 zz 6-5\n'
    report = read1(text).report
    assert report.status == "unusable"
    assert [p.kind for p in report.problems] == ["input", "setup"]
    assert (report.problems[0].line, report.problems[0].column) == (7, 5)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("bad", ['[Event "Club night', '[Dtae "2026-11-28"]', '[Date "2026-11-28" extra]',
                                 '[Site {not closed'])
def test_a_header_line_the_rules_do_not_need_is_listed_and_the_hands_are_judged(game: str, bad: str) -> None:
    lines, record = typed_sheet(game)
    k, i, word = _laying_word(lines, _move_lines(lines, 2), _once(record))
    broken = _insert_after(lines, k, i, word)
    lines.insert(1, bad)  # after [Game]: every later line moves down one
    broken = (broken[0] + 1, broken[1])
    report = read1("\n".join(lines)).report
    assert report.status == "unusable"
    first = report.problems[0]
    assert (first.line, first.kind, first.hand) == (2, "input", None), first.text()
    at = [p for p in report.problems if (p.line, p.column) == broken]
    assert at and at[0].hand == 2 and at[0].rule not in ("the set", "the deal", ""), \
        [p.text() for p in report.problems]  # judged by the engine


@pytest.mark.parametrize("bad, says", [
    ('[Option "chain_draw=false', "a tag is not closed"),   # a rule: nothing can be judged without it
    ('[Optoin "chain_draw=false"]', "did you mean [Option]"),  # a rule, mistyped
    ('[Variant x y]', None),
    ('[N "Ana', "a tag is not closed"),                       # a player
])
def test_a_header_line_the_rules_need_stops_the_game_there(bad: str, says: str | None) -> None:
    lines, _ = typed_sheet("competitive")
    lines = [x for x in lines if not x.startswith(("[N ", "[Variant", "[Option"))] if bad.startswith("[N ") else lines
    lines.insert(1, bad)
    report = read1("\n".join(lines)).report
    assert report.status == "unusable"
    assert all(p.hand is None for p in report.problems), [p.text() for p in report.problems]
    if says is not None:
        assert says in report.problems[0].message, report.problems[0].text()


def test_a_notation_error_names_its_hand_and_the_move_it_stands_for() -> None:
    lines, _ = typed_sheet("horse-race")
    k = _move_lines(lines, 2)[1]
    before = sum(len(lines[j].split()) for j in _move_lines(lines, 2) if j < k)
    spot = _insert_after(lines, k, 2, "9-x")
    k3 = lines.index(next(x for x in lines if x.startswith("hand 3")))
    lines[k3] += " zz"
    report = read1("\n".join(lines)).report
    said = {(p.line, p.column): p for p in report.problems}
    assert said[spot].text().startswith(f"{spot[0]}:{spot[1]}: hand 2, move {before + 4}: '9-x'"), said[spot].text()
    on_hand_line = [p for p in report.problems if p.line == k3 + 1]
    assert on_hand_line and on_hand_line[0].hand == 3 and on_hand_line[0].move is None, \
        [p.text() for p in report.problems]
    assert report.to_dict()["problems"][0]["hand"] == 2


@pytest.mark.parametrize("game", GAMES)
def test_each_word_that_cannot_be_read_counts_as_a_move_for_the_next_error(game: str) -> None:
    # Two garbled words side by side: the second is the move after the first, as the typist
    # counts, not the first's number again (every unread word used to be left out of the count).
    lines, record = typed_sheet(game)
    seats = set(record.players and [p.seat for p in record.players])
    k, i = next((k, i) for k in _move_lines(lines, 2) for i, w in enumerate(lines[k].split(" ")[:-1])
                if i > 0 and not {w, lines[k].split(" ")[i + 1], lines[k].split(" ")[i - 1]} & seats)
    words = lines[k].split(" ")
    words[i], words[i + 1] = "9-x", "8-y"
    lines[k] = " ".join(words)
    problems = read1("\n".join(lines)).report.to_dict()["problems"]
    first, second = (next(p for p in problems if p["message"].startswith(f"'{w}'")) for w in ("9-x", "8-y"))
    assert (first["hand"], second["hand"]) == (2, 2)
    assert second["move"] == first["move"] + 1, problems


def test_the_move_numbers_of_several_errors_in_a_line_of_the_worked_example() -> None:
    text = SHEET.replace("2-0 1-0 1-1 6-1 5-4 5-1", "2-0 1x0 1-1 6-1 5-4 5y1")
    said = [p.text() for p in read1(text).report.problems]
    assert said[:2] == ["9:5: hand 1, move 11: '1x0' is not a move of competitive (see docs/notation.md)",
                        "9:21: hand 1, move 15: '5y1' is not a move of competitive (see docs/notation.md)"], said


def _docs_example(game: str) -> str:
    """The worked example of ``game`` in docs/notation.md typed without its deal (Competitive's:
    the sheet with no ends and no seats)."""
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "docs" / "notation.md").read_text(encoding="utf-8")
    found = [b for b in re.findall(r"```dgn\n(.*?)```", page, re.S)
             if f'[Game "{game}"]' in b and "deal " not in b and "end out" not in b]
    return found[-1]


#: What the reader adds where the seats before the move were left out (notation.seat_hints).
_LEFT_OUT = ("(was a seat or a pass left out? the seats of this hand's moves from {} on are not written, so the "
             "turn gave them)")


@pytest.mark.parametrize(("game", "word", "says"), [
    ("competitive", "3-3", f"the hand is already over: N went out {_LEFT_OUT.format('8:1')} "
                           "[competitive: end of hand]"),
    ("broadway", "4-4@9,9", f"the hand is already over: every tile has been played {_LEFT_OUT.format('11:19')} "
                            "[broadway: end of hand]"),
    ("horse-race", "4-1", f"the hand is already over: P1 dominoed {_LEFT_OUT.format('7:8')} "
                          "[horse-race: hand end]"),
    # (Castle Rock's refusals name the seat, which is not typed: the reader says it without one)
    ("castle-rock", "4-4", "the hand is already over: nobody may make this move [castle-rock: hand end]"),
    ("domino-roads", "3-3@NS1", "the hand is already over: E played the last tile of their stock, so no move "
                                "may follow [domino-roads: hand end]"),
])
def test_a_move_typed_after_the_hand_is_over_gets_the_engines_words_and_rule_once(game: str, word: str,
                                                                                   says: str) -> None:
    # Without its seat, it was "whose move is this? the hand is over" with no rule, and its tile
    # was then said again among the tiles checked after it ("… but left E also lists it").
    lines = _docs_example(game).split("\n")
    k = max(i for i, x in enumerate(lines) if x and not x.startswith(("[", "hand", "left", "end", "row")))
    lines[k] += " " + word
    report = read1("\n".join(lines)).report
    assert [p.text() for p in report.problems] == [f"{k + 1}:{len(lines[k]) - len(word) + 1}: hand 1, move "
                                                   f"{report.problems[0].move}: {says}"]
    assert report.to_dict()["problems"][0]["rule"] == says[says.rindex("[") + 1:-1]


def _canonical_lines(game: str, seed: int = 4) -> tuple[list[str], object]:
    record = next(made_once.simulate(game, 1, seed, None, None, None, accidents=False))
    return notation.dumps(record).split("\n"), record


def _pair_again(lines: list[str], number: int, once: set[str]) -> tuple[int, int]:
    """In hand ``number`` of a canonical text, a ``SEAT word`` pair that lays a tile the set holds
    once, written a second time right after it: where the copy's word is (line, column)."""
    for k in _move_lines(lines, number):
        words = lines[k].split(" ")
        for i in range(1, len(words), 2):
            m = _LAYS.match(words[i])
            if m is not None and f"{m.group(1)}-{m.group(2)}" in once:
                words[i + 1:i + 1] = [words[i - 1], words[i]]
                lines[k] = " ".join(words)
                return k + 1, len(" ".join(words[:i + 2])) + 2
    raise AssertionError(f"hand {number} lays no such tile")


@pytest.mark.parametrize("game", GAMES)
def test_a_text_typed_in_full_lists_the_broken_rules_of_later_hands_too(game: str) -> None:
    lines, record = _canonical_lines(game)
    once = _once(record)
    first = _pair_again(lines, 1, once)
    third = _pair_again(lines, 3, once)
    found = read1("\n".join(lines))
    report = found.report
    said = [p.text() for p in report.problems]
    # (placed on the pair copied: its seat's word for a turn, its tile for a tile)
    assert report.status == "invalid" and (report.problems[0].line, report.problems[0].hand) == (first[0], 1), said
    at = [p for p in report.problems if p.line == third[0]]
    assert at and at[0].hand == 3 and at[0].rule not in ("the set", "the deal", ""), said  # by the engine
    assert "hand 1 was counted by the scores its end line claims" in report.note
    assert found.complete and found.record is not None  # the record as written, whole


#: docs/notation.md's Competitive club sheet (hand 1 led by E; EW went out for 34, NS for 38).
_CLUB = """[Game "competitive"]
[Event "Noche del club — Peña Dominó"]
[N "José Núñez"]
[E "Begoña"]
[S "Çağla"]
[W "Đorđe"]

hand 1 lead E
2-0 4-0 2-2 3-2  3-0 1-0 4-1 -
4-4 5-4 5-3 3-3  - 6-4 6-2 2-1
1-1 3-1 6-3 6-5  5-1 - 4-3 6-1
- 4-2 6-0
left N 5-5; E 5-2 0-0
end out EW 34

hand 2
5-2 5-4 4-1 1-1 2-1 1-0 5-1 6-0 6-4 5-3 4-3 - 3-0 3-1 - 6-1 4-0 6-6 6-2 4-2 2-0 0-0 3-2 5-0 5-5
left E 4-4 2-2; S 6-5 6-3
end out NS 38
"""


def test_the_problems_of_a_broken_hand_come_in_the_order_of_the_text():
    # Hand 2's 6-6 typed 6-5: it is laid (17:65), though left S lists it, and the 6-2 after it then
    # fits neither end (17:69), where replay stops.  The tiles checked after that move found the
    # 6-5 and were listed after it: the first problem, in the order of the text, is the 6-5.
    text = _CLUB.replace("4-0 6-6 6-2", "4-0 6-5 6-2")
    (game,) = notation.read_games(text, "c2.dgn")
    assert [p.text() for p in game.report.problems] == [
        "17:65: hand 2: 6-5 at 17:65 is laid in hand 2, but left S also lists it [the deal]",
        "17:69: hand 2, move 19, S: 6-2 fits neither end of the line (5 on 6-5, 4 on 4-0) "
        "[competitive: matching an end]"]
    assert game.report.status == "invalid"
    assert (game.report.hands, game.report.moves) == (2, 33)  # (counted as before: to the move that stopped replay)


def test_an_earlier_hands_wrong_claim_comes_before_a_later_hands_problems():
    # Hand 1's claim, judged once the hands after hand 2's broken one were read, was listed last.
    text = _CLUB.replace("4-0 6-6 6-2", "4-0 6-5 6-2").replace("end out EW 34", "end out EW 30")
    (game,) = notation.read_games(text, "c2.dgn")
    assert [(p.line, p.column) for p in game.report.problems] == [(14, 12), (17, 65), (17, 69)]
    assert game.report.problems[0].message == "EW is claimed 30 for hand 1, but scores 34"


@pytest.mark.parametrize("game", GAMES)
def test_a_games_problems_are_listed_hand_by_hand_in_the_order_of_the_text(game: str) -> None:
    # Every corruption of a typed sheet (a tile changed, a word dropped, a number changed, two
    # words swapped): notation errors first, then the rules' problems by hand and line:column.
    rng = random.Random(f"text order {game}")
    for record in made_once.simulate(game, 3, 6):
        text = notation.dumps_typed(record, keep_deal=False, seats=False)
        for bad in corruptions(text, rng):
            (found,) = notation.read_games(bad, "t.dgn")
            kinds = [p.kind == "input" for p in found.report.problems]
            assert kinds == sorted(kinds, reverse=True)
            placed = [(p.hand, p.line, p.column) for p in found.report.problems
                      if p.kind != "input" and p.hand is not None and p.line is not None]
            assert placed == sorted(placed), [p.text() for p in found.report.problems]

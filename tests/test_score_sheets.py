"""Score-sheet hands (format 1.1: a hand recorded by its result alone) and hands whose deal is
not known, for every game: built from simulated games by replacing played hands with their
results, checked by their arithmetic, reported as "scores only", in JSON and in DGN."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from domrec import notation, reader
from domrec.cli import app
from domrec.record import unstructure
from domrec.validate import validate

from tests.test_notation import COMP_HEAD, COMP_OPEN_MOVES, where
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

runner = CliRunner()

CONFIGS = [
    ("competitive", None, None, None),
    ("competitive", None, {"first_lead": "double-six"}, None),
    ("horse-race", 2, None, None),
    ("horse-race", 3, None, None),
    ("horse-race", 4, {"partnerships": True}, None),
    ("horse-race", 4, {"win_check": "end_of_hand"}, None),
    ("horse-race", 4, None, "celko"),
    ("broadway", None, None, None),
    ("castle-rock", 2, None, None),
    ("castle-rock", 6, None, None),
    ("castle-rock", 4, {"set": "double-nine"}, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
    ("domino-roads", 4, {"block_match": "sum"}, None),
]
IDS = [f"{g}-{n}-{'-'.join(f'{k}={v}' for k, v in (o or {}).items()) or 'std'}{'-' + v if v else ''}"
       for g, n, o, v in CONFIGS]
GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]


def plain(record) -> dict:
    return json.loads(json.dumps(unstructure(record)))


def simulated(config, seed=1) -> dict:
    game, players, options, variant = config
    return plain(next(made_once.simulate(game, 1, seed, players, options, variant)))


def sheets(doc: dict, which=None) -> dict:
    """``doc`` with the hands ``which`` (all when None) replaced by their results (and leaders)."""
    out = json.loads(json.dumps(doc))
    out["version"] = "1.1"
    out["hands"] = [({"leader": h["leader"]} if "leader" in h else {}) | {"result": h["result"]}
                    if which is None or i in which else h for i, h in enumerate(out["hands"])]
    return out


def check(doc: dict, source: str = "<record>"):
    return validate(reader.load_dict(doc), source)


def texts(report) -> list[str]:
    return [p.text() for p in report.problems]


def cli_validate(tmp_path, doc: dict, *args, name="game.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path, runner.invoke(app, ["validate", *args, str(path)])


# --- every game: all hands from the score sheet --------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_game_of_score_sheet_hands_is_valid_with_the_same_result(config, tmp_path):
    doc = simulated(config)
    truth = check(doc)
    sheet = sheets(doc)
    assert all("deal" not in h and "moves" not in h for h in sheet["hands"])
    report = check(sheet)
    assert report.status == "valid", texts(report)
    assert (report.scores, report.winner, report.finished) == (truth.scores, truth.winner, True)
    n = len(doc["hands"])
    assert report.sheet_hands == tuple(range(1, n + 1)) and report.hands == n and report.moves == 0
    assert report.scores_only == "scores only: play was not replayed"
    path, r = cli_validate(tmp_path, sheet)
    assert r.exit_code == 0
    assert r.stdout.startswith(f"{path}: valid {doc['game']} (scores only: play was not replayed), {n} hands, ")
    path, r = cli_validate(tmp_path, sheet, "--json", name="again.json")
    out = json.loads(r.stdout)
    assert out["scores_only"] is True and out["not_replayed"] == list(range(1, n + 1))
    assert out["status"] == "valid" and out["finished"] is True and out["winner"] == truth.winner


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_score_sheet_hands_mixed_with_played_hands(config, tmp_path):
    doc = simulated(config)
    truth = check(doc)
    n = len(doc["hands"])
    odd = {i for i in range(n) if i % 2}
    mixed = sheets(doc, odd)
    report = check(mixed)
    assert report.status == "valid", texts(report)
    assert (report.scores, report.winner, report.finished) == (truth.scores, truth.winner, True)
    numbers = tuple(i + 1 for i in sorted(odd))
    assert report.sheet_hands == numbers
    assert report.moves == sum(len(h["moves"]) for i, h in enumerate(doc["hands"]) if i not in odd)
    listed = (f"hand {numbers[0]}" if len(numbers) == 1 else
              "hands " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}")
    its = "its" if len(numbers) == 1 else "their"
    assert report.scores_only == f"scores only for {listed}: {its} play was not replayed"
    path, r = cli_validate(tmp_path, mixed, "--json")
    out = json.loads(r.stdout)
    assert out["scores_only"] is True and out["not_replayed"] == list(numbers)
    # a record without sheet hands says nothing of the kind
    plain_report = json.loads(cli_validate(tmp_path, doc, "--json", name="plain.json")[1].stdout)
    assert plain_report["scores_only"] is False and plain_report["not_replayed"] == []
    assert "scores only" not in cli_validate(tmp_path, doc, name="plain2.json")[1].stdout


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_score_sheet_records_through_dgn(config):
    doc = sheets(simulated(config), {0, 2})
    record = reader.load_dict(doc)
    text = notation.dumps(record)
    assert "\nhand 1" in text and "[Format" not in text  # sheet hands need 1.1: no tag for it
    first = text[text.index("\nhand 1") + 1:text.index("\n\nhand 2")]
    lines = first.split("\n")
    assert lines[0].startswith("hand 1") and lines[-1].startswith("end ") and len(lines) == 2
    back = notation.loads(text)
    assert plain(back) == doc
    game = next(notation.read_games(text))
    assert game.report.status == "valid" and game.report.sheet_hands == (1, 3)
    # typed without seats, claims or forced passes, the sheet hands kept as written
    typed = notation.dumps_typed(record)
    found = next(notation.read_games(typed))
    assert found.report.status == "valid", texts(found.report)
    assert found.report.sheet_hands == (1, 3)
    assert (found.report.scores, found.report.winner) == (game.report.scores, game.report.winner)


def test_score_sheet_hand_typed_in_dgn():
    text = COMP_HEAD + "end out NS 23 EW 0\n\nhand 2\nend blocked EW 12\n\nhand 3 lead S\nend NS 30\n"
    game = next(notation.read_games(text))
    assert game.report.status == "valid", texts(game.report)
    d = plain(game.record)
    assert d["version"] == "1.1"
    assert d["hands"] == [{"leader": "N", "result": {"scores": {"NS": 23, "EW": 0}, "end": "out"}},
                          {"result": {"scores": {"EW": 12}, "end": "blocked"}},
                          {"leader": "S", "result": {"scores": {"NS": 30}}}]
    assert game.report.scores == {"NS": 53, "EW": 12} and game.report.sheet_hands == (1, 2, 3)
    assert game.report.summary().startswith("<dgn>: valid competitive (scores only: play was not replayed), "
                                            "3 hands, NS 53, EW 12; game not finished")


# --- wrong arithmetic ------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_a_claimed_total_that_is_not_the_sum(name, tmp_path):
    doc = sheets(simulated((name, None, None, None)))
    side = list(doc["result"]["scores"])[0]
    real = doc["result"]["scores"][side]
    doc["result"]["scores"][side] = real + 1
    report = check(doc)
    assert report.status == "invalid"
    (p,) = report.problems
    assert p.pointer == f"/result/scores/{side}" and (p.claimed, p.computed) == (real + 1, real)
    assert f"{side} is claimed to finish with {real + 1}, but has {real}" in p.message and p.rule == "game scoring"
    # in DGN the problem is at the side's number in the [Scores] tag (was the tag's first column),
    # as an end line's wrong claim is at its number
    text = notation.dumps(reader.load_dict(doc))
    game = next(notation.read_games(text))
    q = game.report.problems[0]
    tag = text[text.index("[Scores"):]
    line, col = where(text, "[Scores")
    number_at = tag.index(f"{side} {real + 1}") + len(side) + 1
    assert (q.line, q.column) == (line, col + number_at)
    path, r = cli_validate(tmp_path, doc)
    assert r.exit_code == 1 and f"/result/scores/{side}: {side} is claimed to finish" in r.stdout


def test_a_wrong_total_in_the_scores_tag_is_placed_at_its_number():
    # the tester's sheet: 7:1 before, the line's first column; the 130 is at column 20
    text = SCORES_SHEET
    (p,) = next(notation.read_games(text)).report.problems
    assert p.text() == "7:20: EW is claimed to finish with 130, but has 103 [game scoring]"
    # a value whose words hide behind a JSON escape: that side stays at the tag, the others are found
    text = SCORES_SHEET.replace('"NS 204 EW 130"', '"NS 240 EW\\u0020130"')
    said = [q.text() for q in next(notation.read_games(text)).report.problems]
    assert said == ["7:13: NS is claimed to finish with 240, but has 204 [game scoring]",
                    "7:1: EW is claimed to finish with 130, but has 103 [game scoring]"], said


SCORES_SHEET = """\
[Game "competitive"]
[Event "Thursday league, paper score sheet"]
[N "Ana"]
[E "Bo"]
[S "Cy"]
[W "Di"]
[Scores "NS 204 EW 130"]
[Winner "NS"]

hand 1 lead N
end out NS 35 EW 0

hand 2 lead W
end blocked NS 0 EW 42

hand 3 lead S
end out NS 0 EW 61

hand 4 lead E
end out NS 57 EW 0

hand 5 lead N
end blocked NS 0 EW 0

hand 6 lead N
end out NS 88 EW 0

hand 7 lead W
end blocked NS 24 EW 0
"""


@pytest.mark.parametrize("name", GAMES)
def test_a_hand_total_that_is_not_what_the_hands_give_is_carried_into_the_game(name):
    doc = sheets(simulated((name, None, None, None)))
    first = doc["hands"][0]["result"]["scores"]
    side = next(s for s, v in first.items() if v)  # a side that scored in hand 1
    first[side] += 1  # the sheet says one more: the game's claimed total is then one short
    report = check(doc)
    assert report.status == "invalid"
    assert any(p.pointer == f"/result/scores/{side}" for p in report.problems) or report.problems[0].hand == 1


@pytest.mark.parametrize("name", GAMES)
def test_a_winner_claimed_wrongly(name):
    doc = sheets(simulated((name, None, None, None)))
    real = doc["result"]["winner"]
    other = next(s for s in doc["result"]["scores"] if s != real)
    doc["result"]["winner"] = other
    (p,) = check(doc).problems
    assert p.pointer == "/result/winner" and p.rule == "winning" and (p.claimed, p.computed) == (other, real)
    assert f"the winner is claimed to be {other}, but it is {real}" in p.message
    doc["result"]["winner"] = None
    (p,) = check(doc).problems
    assert "the winner is claimed to be a draw" in p.message
    text = notation.dumps(reader.load_dict(doc))
    assert '[Winner "draw"]' in text
    q = next(notation.read_games(text)).report.problems[0]
    assert (q.line, q.column) == where(text, "[Winner")


@pytest.mark.parametrize("name", GAMES)
def test_a_hand_after_the_game_is_over(name):
    doc = sheets(simulated((name, None, None, None)))
    n = len(doc["hands"])
    doc["hands"].append({"result": doc["hands"][-1]["result"]})
    report = check(doc)
    assert report.status == "invalid"
    (p,) = report.problems
    assert p.pointer == f"/hands/{n}" and p.hand == n + 1 and p.rule == "end of game"
    assert f"the game was already over after hand {n}" in p.message
    assert report.note == f"hand {n + 1} was not checked"
    # also when the extra hand is played, not a sheet
    played = simulated((name, None, None, None))
    played["hands"].append(played["hands"][-1])
    (p,) = check(played).problems
    assert p.pointer == f"/hands/{n}" and "already over" in p.message


@pytest.mark.parametrize("name", GAMES)
def test_a_game_claimed_over_before_its_target(name, tmp_path):
    doc = sheets(simulated((name, None, None, None)))
    doc["hands"].pop()
    report = check(doc)
    assert report.status == "invalid" and not report.finished
    (p,) = report.problems
    assert p.pointer == "/result" and p.kind == "unfinished"
    assert "a final result is claimed but the game is not over" in p.message
    path, r = cli_validate(tmp_path, doc)
    assert r.exit_code == 1 and "/result: a final result is claimed but the game is not over" in r.stdout


@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_hand_naming_no_side_of_the_game(name):
    doc = sheets(simulated((name, None, None, None)))
    doc["hands"][0]["result"]["scores"] = {"XX": 3}
    report = check(doc)
    assert report.status == "invalid"
    p = report.problems[0]
    assert p.pointer == "/hands/0/result/scores/XX" and p.hand == 1 and p.kind == "score"
    assert "XX" in p.message and ("side" in p.message or "seat" in p.message)
    assert report.note.startswith("replay stopped here in hand 1")


def test_a_competitive_sheet_hand_where_both_sides_score(tmp_path):
    text = COMP_HEAD + "end out NS 30 EW 5\n"
    game = next(notation.read_games(text))
    assert game.report.status == "invalid"
    p = game.report.problems[0]
    assert "only one side scores a hand" in p.message and (p.line, p.column) == where(text, "end out")


def test_a_refused_sheet_hand_after_a_typed_hand_is_reported_at_its_line(tmp_path):
    text = COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2; W 5-0 4-4 0-0\nend\n\nhand 2\nend out NS 30 EW 5\n"
    path = tmp_path / "sheet.dgn"
    path.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 1, r.stdout
    line, col = where(text, "end out NS 30")
    assert f"  {line}:{col}: hand 2: both sides are claimed points" in r.stdout


def test_a_refused_sheet_hand_after_a_typed_hand_is_never_a_traceback(tmp_path):
    text = COMP_HEAD + COMP_OPEN_MOVES + "left E 3-3; S 2-2; W 5-0 4-4 0-0\nend\n\nhand 2\nend out NS 30 EW 5\n"
    path = tmp_path / "sheet.dgn"
    path.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code in (1, 2) and "Traceback" not in r.output
    assert r.stdout.splitlines()[0].startswith(f"{path}: ")


# --- hands with moves but no deal ------------------------------------------------------------------


def _open(hand: dict) -> dict:
    """A played hand without its deal (its public parts kept: Castle Rock's row, Roads piles)."""
    out = dict(hand)
    public = {k: v for k, v in out.pop("deal").items() if k in ("row", "piles", "boneyard")}
    if public:
        out = {**out, "deal": {"hands": {}, **public}}
        out = {k: out[k] for k in ("leader", "deal", "moves", "result") if k in out}
    return out


@pytest.mark.parametrize("name", GAMES)
def test_a_hand_with_moves_but_no_deal_in_the_middle_is_a_problem(name, tmp_path):
    doc = simulated((name, None, None, None))
    doc["version"] = "1.1"
    doc["hands"][1] = _open(doc["hands"][1])
    report = check(doc)
    assert report.status == "invalid" and not report.finished
    (p,) = report.problems
    assert p.pointer == "/hands/1/deal" and p.hand == 2 and p.kind == "deal" and p.rule == "the deal"
    assert "hand 2 has moves but no deal, so its scores cannot be worked out" in p.message
    assert report.note.startswith("replay stopped here in hand 2")
    path, r = cli_validate(tmp_path, doc)
    assert r.exit_code == 1 and "/hands/1/deal (hand 2): hand 2 has moves but no deal" in r.stdout


@pytest.mark.parametrize("name", GAMES)
def test_a_finished_last_hand_without_deal_is_a_problem(name):
    doc = simulated((name, None, None, None))
    doc["version"] = "1.1"
    doc["hands"] = doc["hands"][:2]
    doc.pop("result")
    doc["hands"][1] = _open(doc["hands"][1])
    doc["hands"][1].pop("result")
    report = check(doc)
    assert report.status == "invalid"
    assert "hand 2 is over but its deal is not known" in report.problems[0].message


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("cut", [1, 5])
def test_the_last_hand_of_an_unfinished_game_without_deal_is_valid_unfinished(name, cut, tmp_path):
    doc = simulated((name, None, None, None))
    doc["version"] = "1.1"
    doc.pop("result")
    doc["hands"] = doc["hands"][:2]
    last = _open(doc["hands"][1])
    last.pop("result")
    last["moves"] = last["moves"][:cut]
    doc["hands"][1] = last
    report = check(doc)
    assert report.status == "valid", texts(report)
    assert not report.finished and report.winner is None and report.hands == 2
    assert report.moves == len(doc["hands"][0]["moves"]) + cut
    assert "hand 2 is still being played" in report.note
    assert "its deal is not known yet, so its moves were checked only as far as the tiles shown allow" in report.note
    path, r = cli_validate(tmp_path, doc)
    assert r.exit_code == 0
    out = r.stdout.splitlines()
    assert out[0].endswith("game not finished")
    assert out[1].startswith("  note: hand 2 is still being played")


@pytest.mark.parametrize("name", GAMES)
def test_a_sheet_hand_before_an_open_last_hand(name):
    doc = simulated((name, None, None, None))
    doc["version"] = "1.1"
    doc.pop("result")
    doc = sheets(doc, {0})
    doc["hands"] = doc["hands"][:2]
    last = _open(doc["hands"][1])
    last.pop("result")
    last["moves"] = last["moves"][:3]
    doc["hands"][1] = last
    report = check(doc)
    assert report.status == "valid", texts(report)
    assert report.sheet_hands == (1,) and not report.finished
    assert report.scores_only == "scores only for hand 1: its play was not replayed"


def test_open_hand_in_the_middle_through_dgn_asks_for_left():
    text = COMP_HEAD + COMP_OPEN_MOVES + "end\n\nhand 2\nend NS 10\n"
    game = next(notation.read_games(text))
    assert game.report.status == "invalid"
    p = game.report.problems[0]
    assert "the deal is not written, so give the tiles" in p.message and p.hand == 1
    assert p.line == where(text, "end\n")[0]


def test_open_last_hand_through_dgn_is_valid_unfinished(tmp_path):
    text = COMP_HEAD + "5-2 6-5@5-2 4-2@5-2\n"
    path = tmp_path / "live.dgn"
    path.write_text(text, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code == 0
    assert r.stdout == (f"{path}: valid competitive, 1 hand, NS 0, EW 0; game not finished\n"
                        "  note: hand 1 is still being played (E to move); its deal is not known yet, so its moves "
                        "were checked only as far as the tiles shown allow\n")


def test_a_last_hand_started_without_moves_is_valid_unfinished():
    game = next(notation.read_games(COMP_HEAD))
    assert game.report.status == "valid" and not game.report.finished


def test_a_last_hand_started_without_moves_is_not_a_traceback(tmp_path):
    path = tmp_path / "new.dgn"
    path.write_text(COMP_HEAD, encoding="utf-8")
    r = runner.invoke(app, ["validate", str(path)])
    assert r.exit_code in (0, 2) and "Traceback" not in r.output

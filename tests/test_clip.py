"""Issue 13: a record's values are clipped where messages show them (a road named with a million
characters, a number of thousands of digits), by one helper, domrec.errors.shown."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from domrec.errors import SHOWN_TEXT, shown
from domrec.validate import validate_text

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "valid"


def test_shown_clips_text_and_long_numbers() -> None:
    assert shown("Ana") == "Ana"
    assert shown("x" * 1_000_000) == "x" * SHOWN_TEXT + "…"
    assert shown("a\nb") == "a\\nb"
    assert shown(12345) == "12345" and shown(-7) == "-7" and shown(10 ** 19) == str(10 ** 19)
    assert shown(10 ** 30) == "1000000000…0000 (31 digits)"
    assert len(shown(7 * 10 ** 4000)) < 40 and "4001 digits" in shown(7 * 10 ** 4000)
    assert shown(1e308) == "1e+308" and shown(2.5) == "2.5"


def roads_record() -> dict:
    path = next(iter(sorted((SAMPLES / "domino-roads").glob("*.json"))))
    return json.loads(path.read_text(encoding="utf-8"))


def problem_lines(text: str) -> list[str]:
    report = validate_text(text, "r.json")
    return [p.text() for p in report.problems]


@pytest.mark.parametrize("move", [3, 4])
def test_a_million_character_road_name_makes_a_short_message(move: int) -> None:
    doc = roads_record()
    moves = doc["hands"][0]["moves"]
    assert "road" in moves[move]
    moves[move]["road"] = "R" * 1_000_000
    lines = problem_lines(json.dumps(doc))
    assert lines and all(len(line) < 400 for line in lines), [len(x) for x in lines]
    assert any("R" * SHOWN_TEXT + "…" in line for line in lines)


def test_a_number_of_thousands_of_digits_makes_a_short_message() -> None:
    doc = json.loads((SAMPLES / "competitive" / "blocked.json").read_text(encoding="utf-8"))
    doc["hands"][0]["result"]["scores"]["NS"] = "@BIG@"
    text = json.dumps(doc).replace('"@BIG@"', "7" * 4000)
    lines = problem_lines(text)
    assert lines and all(len(line) < 300 for line in lines)
    assert any("4000 digits" in line or "4001 digits" in line for line in lines), lines


def test_a_huge_die_is_shown_short() -> None:
    doc = roads_record()
    roll = next(m for m in doc["hands"][0]["moves"] if "roll" in m)
    roll["roll"][0] = "@BIG@"
    lines = problem_lines(json.dumps(doc).replace('"@BIG@"', "1e308"))
    assert lines and all(len(line) < 200 for line in lines), lines


def test_tournament_messages_clip_record_values(tmp_path: Path) -> None:
    from tournament import add_players, create_event, enter_record, make_settings, pair_next_round
    from tournament.errors import ResultRefused

    from tests.tournament.conftest import play_table

    store = create_event(tmp_path / "ev.db", make_settings("x", "competitive", "rotating", seed=1))
    try:
        add_players(store, ["Ana", "Bo", "Cy", "Di"])
        pair_next_round(store)
        doc = json.loads(play_table(store, store.tables(1)[0], seed=1))
        for change in ({"event": {"round": "9" * 100_000}}, {"event": {"table": "T" * 100_000}}):
            bad = {**doc, **change}
            with pytest.raises(ResultRefused) as info:
                enter_record(store, json.dumps(bad), round_no=1)
            assert len(str(info.value)) < 300
        bad = json.loads(json.dumps(doc))
        bad["players"][0]["name"] = "N" * 1_000_000
        with pytest.raises(ResultRefused) as info:
            enter_record(store, json.dumps(bad))
        assert len(str(info.value)) < 400
        bad["players"][0]["id"] = None
        del bad["players"][0]["id"]
        with pytest.raises(ResultRefused) as info:
            enter_record(store, json.dumps(bad))
        assert len(str(info.value)) < 400
    finally:
        store.close()


def test_a_dgn_token_of_a_million_characters_makes_a_short_message() -> None:
    from domrec import notation

    text = ('[Game "domino-roads"]\n[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\nhand 1 lead N\nN ' + "Q" * 1_000_000
            + "\n")
    lines = [p.text() for game in notation.read_games(text, "t.dgn") for p in game.report.problems]
    assert lines and all(len(line) < 300 for line in lines), [len(x) for x in lines]

"""Fuzz the two commands with mutated records of all five games (issue 13, Tests).

Every valid sample (``samples/valid/<game>/*``), and a valid record of a table
of a small event of its game, is mutated the way files get damaged or forged:
bytes flipped, the text cut short, a field deleted or written twice, a value
of another JSON type, huge or odd numbers, deep nesting, bytes that are not
UTF-8, a lone surrogate.  Each mutant goes through ``domrec validate`` (text
and ``--json``), ``domrec convert --to dgn`` and ``tournament result``; the
exit code must be 0, 1 or 2 and the output must never hold a traceback or an
"internal error" (the commands' wording for a crash they caught).

The mutations come from one seeded generator, so a failure names the seed
and mutation that reproduce it.  The default run takes a few mutants a
sample; the slow-marked run takes many.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any, Iterator

import pytest
from typer.testing import CliRunner

from domrec import games
from domrec.cli import app as domrec_app
from tournament.cli import app as tournament_app

from tests.conftest import SAMPLES
from tests.tournament.conftest import play_table

runner = CliRunner()
GAMES = sorted(p.name for p in (SAMPLES / "valid").iterdir() if p.is_dir())
FORBIDDEN = re.compile(r"internal error|Traceback|RecursionError|MemoryError", re.IGNORECASE)
HUGE = [10 ** 30, -10 ** 30, 2 ** 63, -1, 1e308, 0.5, 99999999999999999999]


# --- mutations --------------------------------------------------------------------------------------

def _paths(node: Any, path: tuple = ()) -> Iterator[tuple]:
    """Every place in a JSON document (the root excluded)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield path + (k,)
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield path + (i,)
            yield from _paths(v, path + (i,))


def _parent(doc: Any, path: tuple) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _other_type(value: Any, rng: random.Random) -> Any:
    choices = [None, True, 0, -3, "", "6-6", [], {}, [value], {"x": value}, str(value), 1.5]
    return rng.choice([c for c in choices if type(c) is not type(value)] or choices)


def _structural(text: bytes, rng: random.Random) -> bytes:
    """A JSON mutation: delete, duplicate, retype, enlarge or nest one value."""
    try:
        doc = json.loads(text)
    except ValueError:
        return _bytewise(text, rng)
    places = list(_paths(doc))
    if not places:
        return _bytewise(text, rng)
    kind = rng.randrange(7)
    if kind == 5:  # odd text in a string (a name, a tile, a seat…)
        strings = [p for p in places if isinstance(_parent(doc, p)[p[-1]], str)] or places
        places = strings
    elif kind == 6:  # a new member holding something deeply nested, in any object
        places = [p for p in places if isinstance(_parent(doc, p)[p[-1]], dict)] or places
    path = rng.choice(places)
    parent, key = _parent(doc, path), path[-1]
    if kind == 6 and isinstance(parent[key], dict):
        parent = parent[key]
        parent["x"], key, kind = 0, "x", 3
    if kind == 0:  # delete a field or an item
        del parent[key]
    elif kind == 1:  # another JSON type
        parent[key] = _other_type(parent[key], rng)
    elif kind == 2:  # a huge or odd number
        parent[key] = rng.choice(HUGE)
    elif kind == 3:  # deep nesting, written as text (json.dumps itself would recurse too deep)
        depth, inner = rng.choice([50, 400, 3000]), json.dumps(parent[key])
        parent[key] = "\u0000nest"
        out = json.dumps(doc).replace('"\\u0000nest"', "[" * depth + inner + "]" * depth, 1)
        return out.encode("utf-8", "surrogatepass")
    elif kind == 4 and isinstance(parent, list):  # an item twice
        parent.insert(key, json.loads(json.dumps(parent[key])))
    elif kind == 4:  # a key written twice in the text (json.dumps cannot)
        out = json.dumps(doc, ensure_ascii=False)
        pair = json.dumps({key: parent[key]}, ensure_ascii=False)[1:-1]
        at = out.find(pair)
        if at >= 0:
            return (out[:at] + pair + ", " + out[at:]).encode("utf-8")
    else:  # kind 5 (or 6 where there is no object)
        parent[key] = rng.choice(["\ud800", "\u202e", "a" * 100_000, "\n\r\t", "-", "6-6" * 1000, "\x00"])
    return json.dumps(doc, ensure_ascii=rng.random() < 0.5).encode("utf-8", "surrogatepass")


def _bytewise(text: bytes, rng: random.Random) -> bytes:
    """A byte-level mutation: flip, cut, splice, bytes that are not UTF-8."""
    data = bytearray(text)
    kind = rng.randrange(5)
    at = rng.randrange(len(data) + 1)
    if kind == 0 and data:
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif kind == 1:
        del data[at:]
    elif kind == 2:
        data[at:at] = rng.choice([b"\xff\xfe", b"\xed\xa0\x80", b"\xc0", b"\x00", b"\xef\xbb\xbf"])
    elif kind == 3 and data:  # a line repeated or dropped
        lines = bytes(data).split(b"\n")
        i = rng.randrange(len(lines))
        if rng.random() < 0.5:
            lines.insert(i, lines[i])
        else:
            del lines[i]
        data = bytearray(b"\n".join(lines))
    else:  # a number made huge
        digits = [m.start() for m in re.finditer(rb"[0-9]+", bytes(data))]
        if digits:
            i = rng.choice(digits)
            data[i:i] = b"99999999999999999999"
    return bytes(data)


def mutate(text: bytes, rng: random.Random) -> bytes:
    if text.lstrip().startswith(b"{") and rng.random() < 0.6:
        return _structural(text, rng)
    return _bytewise(text, rng)


# --- the commands -------------------------------------------------------------------------------------

def _check(app: Any, args: list[str], what: str) -> int:
    result = runner.invoke(app, args)
    said = result.stdout + (result.stderr if result.stderr_bytes else "")
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{what}: {args} raised {result.exception!r}"
    assert result.exit_code in (0, 1, 2), f"{what}: {args} exited {result.exit_code}\n{said[-2000:]}"
    found = FORBIDDEN.search(said)
    assert not found, f"{what}: {args} said {found.group(0)!r}:\n{said[-2000:]}"
    return result.exit_code


def _event(folder: Path, game: str) -> tuple[Path, bytes]:
    """A small event of ``game`` with its first round paired, and a valid record of table 1."""
    from tournament import open_event
    from tournament.event import rounds
    from tournament.event.simulate import simulate_event

    path = folder / f"{game}.db"
    last: Exception | None = None
    for fmt in ("individual", "rotating", "pairs"):
        try:
            simulate_event(path, game, fmt, 12, 0, seed=3)
            break
        except Exception as e:  # a format this game does not have: the next
            last = e
            path.unlink(missing_ok=True)
    else:
        raise AssertionError(f"no event format for {game}: {last}")
    store = open_event(path)
    try:
        rounds.pair_next_round(store)
        record = play_table(store, store.tables(1)[0], seed=5).encode("utf-8")
    finally:
        store.close()
    return path, record


def _fuzz(tmp_path: Path, game: str, per_sample: int, seed: int) -> None:
    assert game in games.available()
    event, table_record = _event(tmp_path, game)
    sources = [(p.name, p.suffix, p.read_bytes()) for p in sorted((SAMPLES / "valid" / game).iterdir())
               if p.suffix in (".json", ".dgn", ".jsonl")]
    sources.append(("table-1.json", ".json", table_record))
    assert len(sources) > 1
    # The untouched table record is entered first, so that later mutants meet a table with a result.
    first = tmp_path / "table-1.json"
    first.write_bytes(table_record)
    assert _check(tournament_app, ["result", str(event), str(first)], "untouched table record") == 0
    rng = random.Random(f"cli-fuzz:{game}:{seed}")
    mutants = [(f"{name} mutant {k}", suffix, mutate(text, rng))
               for name, suffix, text in sources for k in range(per_sample)]
    mutants += [(what, ".json", text) for what, text in _pinned(table_record)]
    for k, (what, suffix, mutant) in enumerate(mutants):
        what = f"{game}/{what} (seed {seed})"
        path = tmp_path / f"mutant{suffix}"
        path.write_bytes(mutant)
        for app, args in ((domrec_app, ["validate", str(path)]), (domrec_app, ["validate", "--json", str(path)]),
                          (domrec_app, ["convert", str(path), "--to", "dgn", "-o", "-"]),
                          (tournament_app, ["result", str(event), str(path), *(["--replace"] if k % 2 else [])])):
            _check(app, args, what)


def _pinned(record: bytes) -> list[tuple[str, bytes]]:
    """The damage issue 13 names, every run: a lone surrogate in a name (as a JSON escape and as
    the bytes ED A0 80), and deep nesting inside ``event``."""
    doc = json.loads(record)
    name = json.dumps(doc["players"][0]["name"], ensure_ascii=False)
    text = json.dumps(doc, ensure_ascii=False)
    out = [("escaped surrogate in a name", text.replace(name, '"A\\ud800"', 1).encode("utf-8")),
           ("raw surrogate bytes in a name", text.replace(name, '"A@@"', 1).encode("utf-8")
            .replace(b"A@@", b"A\xed\xa0\x80"))]
    for depth in (400, 3000):
        deep = "[" * depth + "]" * depth
        out.append((f"{depth} deep inside event", text.replace('"event": {', f'"event": {{"x": {deep}, ', 1)
                    .encode("utf-8")))
    assert all(mutant != text.encode("utf-8") for _, mutant in out), "a pinned mutation changed nothing"
    return out


@pytest.mark.parametrize("game", GAMES)
def test_mutated_records_never_crash_the_commands(tmp_path, game):
    _fuzz(tmp_path, game, per_sample=2, seed=0)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "per_sample"), [(0, 5), pytest.param(1, 25, marks=pytest.mark.long),
                                                 pytest.param(2, 25, marks=pytest.mark.long)])
@pytest.mark.parametrize("game", GAMES)
def test_many_mutated_records_never_crash_the_commands(tmp_path, game, seed, per_sample):
    """Five mutants a sample in the default run (the suite stays within its ten minutes); the
    thorough 25 a sample, on two more seeds, under ``pytest --long``."""
    _fuzz(tmp_path, game, per_sample=per_sample, seed=seed + 1)


def test_the_mutations_do_damage():
    """The fuzzer is worth running only if its mutants are mostly not valid records."""
    from domrec.validate import validate_text

    rng = random.Random("cli-fuzz:damage")
    texts = [p.read_bytes() for p in sorted((SAMPLES / "valid").rglob("*.json"))]
    verdicts = [validate_text(mutate(rng.choice(texts), rng), "m").status for _ in range(200)]
    assert verdicts.count("valid") < 100 and verdicts.count("unusable") > 20 and verdicts.count("invalid") > 10

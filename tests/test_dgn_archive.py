"""A DGN archive cut into games from a stream (domrec.dgn_archive.iter_games) cuts exactly where
the whole text is cut (split_games), whatever the size of the blocks it is read in, and the
reader gives each game of a ``.dgn`` file as a source of its own, with the labels and line
numbers the whole text's reading gives (so ``validate -j`` spreads an archive's games over its
workers and prints what one process prints)."""

from __future__ import annotations

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import examples
from domrec import notation, reader
from domrec.dgn_archive import iter_games, split_games
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

#: Pieces a DGN text is made of, and some that are not: blank lines, tags, hand lines, moves,
#: stray brackets, carriage returns, a byte-order mark in the middle.
PIECES = [b"\n", b" ", b"\t", b"\r", b"[", b"x", b'[Game "competitive"]', b"hand 1 lead N", b"N 6-6 E 6-5",
          b"\xef\xbb\xbf", b"\n\n", b"{a comment}"]
texts = st.lists(st.sampled_from(PIECES), max_size=120).map(b"".join)


@settings(max_examples=examples(400, 4000))
@given(texts, st.sampled_from([1, 2, 3, 8, 64, 4096]))
def test_a_stream_is_cut_where_the_whole_text_is(text, block):
    whole = split_games(text)
    assert list(iter_games(io.BytesIO(text), 1 << 30, block)) == whole
    for chunk in whole:  # each game's text is where its offset says (a file is cut there for --dask)
        assert text[chunk.offset:chunk.offset + len(chunk.data)] == chunk.data
        assert text[:chunk.offset].count(b"\n") + 1 == chunk.first_line or not chunk.data.strip()


@settings(max_examples=examples(400, 4000))
@given(texts, st.sampled_from([1, 10, 40, 200]), st.sampled_from([8, 16, 32]))
def test_a_game_over_the_limit_is_let_go_and_the_next_one_read(text, limit, block):
    whole = split_games(text)
    got = list(iter_games(io.BytesIO(text), limit, block))
    assert [c.first_line for c in got] == [c.first_line for c in whole]
    assert [c.offset for c in got] == [c.offset for c in whole]
    for mine, theirs in zip(got, whole):
        if mine.dropped:  # let go only once over the limit, with its size said in full
            assert len(theirs.data) > limit and mine.dropped == len(theirs.data) and not mine.data
        else:
            assert mine.data == theirs.data


def test_runaway_games_stop_the_reading_and_say_so():
    text = (b'[Game "competitive"]\nhand 1\n' + b"x" * 5000 + b"\n\n") * 20
    got = list(iter_games(io.BytesIO(text), 100, block=64, give_up=12_000))
    assert got[-1].gave_up and all(c.dropped for c in got) and len(got) < 20


def test_each_game_of_a_dgn_file_is_a_source_with_the_whole_texts_verdict(tmp_path):
    records = [r for game in ("competitive", "horse-race", "domino-roads") for r in made_once.simulate(game, 2, 1)]
    text = "\n".join(notation.dumps(r) for r in records).encode()
    text = text.replace(b"hand 2", b"hand 2 lead Q", 1)  # one game the reader refuses, at its line
    path = tmp_path / "club.dgn"
    path.write_bytes(text)
    sources = list(reader.iter_sources([str(path)]))
    assert len(sources) == len(split_games(text)) == len(records)
    by_source = [g.report for s in sources for g in notation.read_source(s)]
    label = reader.display_name(path)
    whole = [g.report for g in notation.read_games(text, label)]
    assert by_source == whole
    assert [r.source for r in whole] == [f"{label}:{c.first_line}" for c in split_games(text)]
    one = tmp_path / "one.dgn"
    one.write_bytes(notation.dumps(records[0]).encode())
    assert [s.label for s in reader.iter_sources([str(one)])] == [reader.display_name(one)]


def test_a_game_too_long_is_reported_at_its_line_and_the_archive_goes_on(tmp_path, monkeypatch):
    games = sorted((notation.dumps(r).encode() for r in made_once.simulate("competitive", 6, 3)), key=len)
    small, big = games[0], games[-1]
    limit = (len(small) + len(big)) // 2
    monkeypatch.setattr(reader, "MAX_DGN_GAME_BYTES", limit)
    path = tmp_path / "mixed.dgn"
    path.write_bytes(small + b"\n" + big + b"\n" + small)
    sources = list(reader.iter_sources([str(path)]))
    assert [s.error is None for s in sources] == [True, False, True]
    assert f"is {len(big):,} bytes" in sources[1].error.message
    assert "the limit for one game of DGN" in sources[1].error.message
    assert sources[1].error.line == small.count(b"\n") + 2
    assert sources[1].label == f"{reader.display_name(path)}:{sources[1].error.line}"
    reports = [g.report for s in sources if not s.error for g in notation.read_source(s)]
    assert [r.status for r in reports] == ["valid", "valid"]

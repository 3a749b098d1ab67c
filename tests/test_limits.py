"""Input at and past domrec's limits (docs/format.md, "Limits"): a clear verdict, never a crash.

Each case here once ended in an internal error, a traceback or a MemoryError: a record nested
hundreds of levels deep, text that is not valid Unicode (a lone surrogate, from the escape
"\\ud800" or from the bytes ED A0 80), endless input (/dev/zero), a number of players that
reached ``range()``.  Each must now be exit 2 with the problem said on one line, where it is.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from domrec import reader, simulate
from domrec.cli import app
from domrec.errors import NotUnicodeError, TooLargeError
from domrec.validate import validate_text

from tests.conftest import SAMPLES, TYPED_HAND

runner = CliRunner()
GAME = SAMPLES / "valid" / "competitive" / "game-to-200.json"
DGN = TYPED_HAND.encode()


def run(*args, input=None):
    result = runner.invoke(app, [str(a) for a in args], input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    return result


def problem_lines(result) -> list[str]:
    """The problem lines of a text report (indented under the record's summary line)."""
    return [line for line in result.stdout.splitlines() if line.startswith("  ")]


def assert_clean_refusal(result, *words: str) -> str:
    """Exit 2, exactly one problem line holding ``words``, and nothing a user should never see."""
    everything = result.output + (result.stderr or "")
    assert result.exit_code == 2, everything
    assert "Traceback" not in everything and "internal error" not in everything, everything
    lines = problem_lines(result)
    assert len(lines) == 1, everything
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def doc() -> dict:
    return json.loads(GAME.read_text())


def nested(levels: int) -> object:
    value: object = "x"
    for _ in range(levels):
        value = [value]
    return value


def write(tmp_path: Path, data: dict | bytes, name: str = "r.json") -> Path:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return path


# --- nesting --------------------------------------------------------------------------------


def test_a_record_may_nest_64_levels_and_no_more(tmp_path):
    # The record is level 1, event level 2, event.x level 3: 62 lists there reach level 64.
    ok, deep = doc(), doc()
    ok["event"] = {**ok.get("event", {}), "x": nested(reader.MAX_DEPTH - 2)}
    deep["event"] = {**deep.get("event", {}), "x": nested(reader.MAX_DEPTH - 1)}
    assert run("validate", write(tmp_path, ok, "ok.json")).exit_code == 0
    line = assert_clean_refusal(run("validate", write(tmp_path, deep, "deep.json")), "/event/x", "64 levels")
    assert len(line) < 300


@pytest.mark.parametrize("levels", [400, 5000])
def test_a_record_nested_hundreds_or_thousands_deep_is_unusable(tmp_path, levels):
    d = doc()
    d["event"] = {"x": "HERE"}
    text = json.dumps(d).replace('"HERE"', "[" * levels + "1" + "]" * levels)  # json.dumps itself would recurse
    assert_clean_refusal(run("validate", write(tmp_path, text.encode())), "nest")


@pytest.mark.parametrize("levels", [400, 5000])
def test_deep_nesting_in_a_dgn_tag_is_refused_at_its_line(tmp_path, levels):
    deep = b"[Extra " + b"[" * levels + b"1" + b"]" * levels + b"]\n"
    text = DGN.replace(b"[W \"Di\"]\n", b"[W \"Di\"]\n" + deep)
    assert_clean_refusal(run("validate", write(tmp_path, text, "g.dgn")), "6:", "64 levels")
    r = run("convert", write(tmp_path, text, "g.dgn"), "-o", tmp_path / "g.json")
    assert r.exit_code == 2 and "Traceback" not in r.output and not (tmp_path / "g.json").exists()


def test_a_record_within_the_limits_converts_both_ways(tmp_path):
    d = doc()
    d["event"] = {**d.get("event", {}), "x": nested(reader.MAX_DEPTH - 2)}
    r = run("convert", write(tmp_path, d), "-o", tmp_path / "g.dgn")
    assert r.exit_code == 0, r.output
    assert run("validate", tmp_path / "g.dgn").exit_code == 0


# --- valid Unicode --------------------------------------------------------------------------


def test_a_lone_surrogate_escape_is_refused_at_its_pointer(tmp_path):
    text = GAME.read_text().replace('"Ana"', '"Ana\\ud800"', 1)
    assert '\\ud800' in text
    assert_clean_refusal(run("validate", write(tmp_path, text.encode())), "/players/", "/name", "U+D800")


def test_a_lone_surrogate_in_a_key_is_refused(tmp_path):
    d = doc()
    d["event"] = {"x\ud800": 1}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(d))  # ensure_ascii: the key is written as the escape "x\ud800"
    assert_clean_refusal(run("validate", path), "/event", "U+D800")


def test_a_surrogate_written_as_utf8_bytes_is_refused_at_its_line_and_column(tmp_path):
    text = json.dumps(doc(), indent=1).replace('"Ana"', '"AnaXX"', 1).encode()
    line = text[:text.index(b"XX")].count(b"\n") + 1
    path = write(tmp_path, text.replace(b"XX", b"\xed\xa0\x80"))
    assert_clean_refusal(run("validate", path), f"  {line}:", "not UTF-8", "0xED")


def test_a_whole_surrogate_pair_is_a_character_and_is_accepted(tmp_path):
    text = GAME.read_text().replace('"Ana"', '"Ana \\ud83c\\udc31"', 1)
    assert run("validate", write(tmp_path, text.encode())).exit_code == 0


def test_surrogates_in_dgn_are_refused_at_their_line(tmp_path):
    escaped = DGN.replace(b'[N "Ana"]', b'[N "Ana\\ud800"]')
    assert_clean_refusal(run("validate", write(tmp_path, escaped, "a.dgn")), "2:", "U+D800")
    raw = DGN.replace(b'[N "Ana"]', b'[N "Ana\xed\xa0\x80"]')
    assert_clean_refusal(run("validate", write(tmp_path, raw, "b.dgn")), "2:", "not UTF-8")
    r = run("convert", tmp_path / "a.dgn", "-o", tmp_path / "a.json")
    assert r.exit_code == 2 and not (tmp_path / "a.json").exists()


def test_the_one_unicode_check():
    """unicode_text is the check every reader uses: strict bytes, no lone surrogate in text."""
    assert reader.unicode_text("Ana \U0001F031") == "Ana \U0001F031"
    assert reader.unicode_text("Añá".encode()) == "Añá"
    with pytest.raises(NotUnicodeError) as e:
        reader.unicode_text("ab\ncd\ud800")
    assert (e.value.line, e.value.column) == (2, 3)
    with pytest.raises(NotUnicodeError) as e:
        reader.unicode_text(b"ab\ncd\xed\xa0\x80")
    assert (e.value.line, e.value.column) == (2, 3)
    with pytest.raises(NotUnicodeError):
        reader.check_value({"a": ["b", {"c": "\udc00"}]})
    reader.check_value({"a": ["b", {"c": "\U0001F031"}]})


def test_validate_text_refuses_what_could_not_be_stored():
    """A library caller gets the same verdict as the command line."""
    report = validate_text(GAME.read_text().replace('"Ana"', '"\\udfff"', 1))
    assert report.status == "unusable" and "U+DFFF" in report.problems[0].message


# --- size -----------------------------------------------------------------------------------


def _cli(*args: str, stdin=None) -> subprocess.CompletedProcess:
    """The real command, on real devices: a hang here would fail by the timeout, not pass."""
    return subprocess.run([sys.executable, "-m", "domrec.cli", *args], stdin=stdin, capture_output=True,
                          timeout=120)


def _assert_refused_cleanly(proc: subprocess.CompletedProcess, *words: str) -> None:
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 2, out + err
    assert "Traceback" not in out + err and "MemoryError" not in out + err and "internal error" not in out + err
    lines = [line for line in out.splitlines() if line.startswith("  ")]
    assert len(lines) == 1, out
    for word in words:
        assert word in lines[0], lines[0]


def _assert_gave_up_cleanly(proc: subprocess.CompletedProcess, label: str) -> None:
    out, err = proc.stdout.decode(), proc.stderr.decode()
    assert proc.returncode == 2, out + err
    assert "Traceback" not in out + err and "MemoryError" not in out + err and "internal error" not in out + err
    lines = [line for line in out.splitlines() if line.startswith("  ")]
    assert any("more than 1 MiB, the limit for one game of DGN" in x for x in lines[:-1]), out
    assert "came to more than 64 MiB" in lines[-1] and "rest of the text was not read" in lines[-1], lines[-1]
    assert label in out


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_endless_input_is_refused_after_the_limit(tmp_path):
    _assert_refused_cleanly(_cli("validate", "/dev/zero"), "larger than 64 MiB")
    with open("/dev/zero", "rb") as zero:
        _assert_refused_cleanly(_cli("validate", "-", stdin=zero), "larger than 64 MiB")
    # DGN is read a game at a time (an archive has no limit on its size): noise is cut into
    # "games" too long to read, each reported, until they come to 64 MiB; then reading stops.
    with open("/dev/urandom", "rb") as noise:
        _assert_gave_up_cleanly(_cli("validate", "--from", "dgn", "-", stdin=noise), "<stdin>")
    endless_dgn = tmp_path / "endless.dgn"
    endless_dgn.symlink_to("/dev/zero")
    _assert_gave_up_cleanly(_cli("validate", str(endless_dgn)), "endless.dgn")
    archive = tmp_path / "endless.jsonl"
    archive.symlink_to("/dev/zero")
    _assert_refused_cleanly(_cli("validate", str(archive)), "endless.jsonl:1", "rest of the archive")
    proc = _cli("convert", "/dev/zero", "-o", str(tmp_path / "x.dgn"))  # convert reports on stderr
    err = proc.stderr.decode()
    assert proc.returncode == 2 and "larger than 64 MiB" in err and "Traceback" not in err
    assert not (tmp_path / "x.dgn").exists()


@pytest.fixture
def small_limit(monkeypatch):
    """The limit made small, to test its edges without writing 64 MiB."""
    monkeypatch.setattr(reader, "MAX_RECORD_BYTES", 20_000)
    return 20_000


def test_a_record_at_the_limit_is_read_and_one_past_it_is_not(tmp_path, small_limit):
    text = json.dumps(doc(), separators=(",", ":")).encode()
    assert len(text) < small_limit
    at = write(tmp_path, text + b" " * (small_limit - len(text)), "at.json")
    past = write(tmp_path, text + b" " * (small_limit - len(text) + 1), "past.json")
    assert run("validate", at).exit_code == 0
    assert_clean_refusal(run("validate", past), "past.json is larger than 20,000 bytes")
    assert run("validate", "-", input=at.read_bytes()).exit_code == 0
    assert_clean_refusal(run("validate", "-", input=past.read_bytes()), "larger than 20,000 bytes")


def test_an_archive_has_no_total_limit_but_each_line_has(tmp_path, small_limit):
    line = json.dumps(doc(), separators=(",", ":")).encode() + b"\n"
    archive = write(tmp_path, line * 10, "a.jsonl")  # 10 records, more than the limit in all
    assert archive.stat().st_size > small_limit
    r = run("validate", archive)
    assert r.exit_code == 0 and r.stdout.count("valid competitive") == 10
    long_line = line[:-1] + b" " * small_limit + b"\n"
    archive = write(tmp_path, line + long_line + line, "b.jsonl")
    r = run("validate", archive)
    assert r.exit_code == 2 and r.stdout.count("valid competitive") == 1
    assert "b.jsonl:2: this line is longer than 20,000 bytes" in r.stdout and "rest of the archive" in r.stdout


def test_read_stream_reads_at_most_one_byte_past_the_limit():
    class Endless:
        asked: list[int] = []

        def read(self, n: int) -> bytes:
            self.asked.append(n)
            return b"\0" * n

    stream = Endless()
    with pytest.raises(TooLargeError):
        reader.read_stream(stream, "endless", 1000)
    assert stream.asked == [1001]


# --- memory ---------------------------------------------------------------------------------


def _long_game() -> bytes:
    """A valid record of some thousands of hands (a Horse Race to 5,000 points), about 1.3 MB."""
    template = simulate.make_record("horse-race", 4, {"target": 5000}, None)
    old = simulate.MAX_HANDS
    simulate.MAX_HANDS = 10_000
    try:
        record = simulate.play_game(template, random.Random(5))
    finally:
        simulate.MAX_HANDS = old
    return simulate.dumps(record).encode()


@pytest.mark.slow
def test_peak_memory_is_a_small_multiple_of_a_large_record():
    """docs/format.md: a record of many hands peaks at about 7 times its size (tracemalloc); this
    bound is generous (12) and is a bound on memory, not on time."""
    data = _long_game()
    assert len(data) > 1024 * 1024  # read the way large records are read
    tracemalloc.start()
    try:
        report = validate_text(data, "long")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.valid, report.problems[:1]
    assert peak < 12 * len(data), (peak, len(data))


# --- whole-number options -------------------------------------------------------------------


@pytest.mark.parametrize("args", [["simulate", "competitive", "--players", "99999999999999999999"],
                                  ["record", "competitive", "--players", "99999999999999999999"]])
def test_huge_player_counts_are_usage_errors(args):
    r = run(*args)
    assert r.exit_code == 2 and "Traceback" not in r.output and "Invalid value" in r.output


# --- any text -------------------------------------------------------------------------------

from hypothesis import given, strategies as st  # noqa: E402

from domrec.errors import RECORD_CONTROLS  # noqa: E402


@given(st.binary(max_size=200))
def test_any_bytes_are_text_without_surrogates_or_refused_with_a_place(data):
    try:
        text = reader.unicode_text(data)
    except NotUnicodeError as e:
        assert e.line >= 1 and e.column >= 1 and "\n" not in e.message
    else:
        assert not any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


@given(st.text(alphabet=st.characters(max_codepoint=0xE000), max_size=50))
def test_any_json_name_is_accepted_exactly_when_it_is_valid_unicode_without_controls(name):
    """Valid Unicode, and no control character but the tab, line feed and carriage return
    (``RECORD_CONTROLS``, refused at the name's pointer)."""
    text = GAME.read_text().replace('"Ana"', json.dumps("Ana " + name), 1)  # surrogates as escapes
    report = validate_text(text.encode())
    lone = any(0xD800 <= ord(ch) <= 0xDFFF for ch in name)
    control = RECORD_CONTROLS.search(name) is not None
    assert (report.status == "unusable") == (lone or control), report.problems[:1]
    if control and not lone:
        assert report.problems[0].pointer == "/players/0/name" and "U+" in report.problems[0].message


def _peak_mib(*args: str) -> tuple[float, subprocess.CompletedProcess]:
    """A domrec command's peak memory (resident, MiB), run in a process of its own.

    Measured by tools/peak.py (VmHWM: the program's own high-water mark; Linux carries
    ``ru_maxrss`` over an exec, so a child of a big test worker would report the worker's peak)."""
    peak_program = Path(__file__).resolve().parent.parent / "tools" / "peak.py"
    r = subprocess.run([sys.executable, str(peak_program), "domrec.cli", *args], capture_output=True, text=True, timeout=600)
    peak = int(r.stderr.rsplit("PEAK ", 1)[1].split()[0]) / 1024
    return peak, r


def _comment_lines(n: int) -> str:
    head, body = TYPED_HAND.split("\n\n", 1)
    return head + "\n" + "{c}\n" * n + "\n" + body


def test_a_dgn_game_over_its_limit_is_refused_in_one_line_before_it_is_read(tmp_path):
    """Issue 27: 2,000,000 comment lines (8 MB) took 516 MB to validate; an 18 MB game 655 MB.
    One game of DGN over 1 MiB is refused before its tokens are made, in one line."""
    path = tmp_path / "long.dgn"
    path.write_text(_comment_lines(300_000), encoding="utf-8")  # 1.2 MB
    peak, r = _peak_mib("validate", str(path))
    assert r.returncode == 2
    assert "more than 1 MiB, the limit for one game of DGN; not read" in r.stdout
    assert peak < 10 * 1.2 + 100


def test_a_dgn_game_under_its_limit_keeps_within_ten_times_its_size_and_100_mb(tmp_path):
    path = tmp_path / "long.dgn"
    path.write_text(_comment_lines(250_000), encoding="utf-8")  # just under 1 MiB: the worst case read
    size = path.stat().st_size
    assert size <= reader.MAX_DGN_GAME_BYTES
    peak, r = _peak_mib("validate", str(path))
    assert r.returncode in (0, 1), r.stdout + r.stderr
    assert peak < 10 * size / 2**20 + 100, peak

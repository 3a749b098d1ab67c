"""Issue 13 review: hostile inputs that still ended in an internal error or a file no other
JSON reader takes (a DGN number of thousands of digits; NaN, Infinity and 1e400 in a record)."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from domrec import notation, record_cli
from domrec.cli import app

from tests.conftest import SAMPLES

runner = CliRunner()
RECORD = SAMPLES / "valid" / "competitive" / "blocked.json"


def _dgn() -> str:
    from domrec import reader
    return notation.dumps(reader.load(RECORD))


def _validate(tmp_path, name: str, text: str | bytes):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return runner.invoke(app, ["validate", str(path)])


@pytest.mark.parametrize("old, new", [
    ("hand 1 ", "hand 1" + "9" * 5000 + " "),           # the hand number
    ("EW 84", "EW 8" + "4" * 5000),                     # a claimed score
])
def test_a_dgn_number_of_thousands_of_digits_is_refused_at_its_line_and_column(tmp_path, old, new):
    text = _dgn()
    assert old in text
    bad = text.replace(old, new, 1)
    r = _validate(tmp_path, "long.dgn", bad)
    assert r.exit_code == 2, r.output
    assert "internal error" not in r.output
    line = bad[:bad.index("9" * 100 if "9" * 100 in bad else "4" * 100)].count("\n") + 1
    assert f"  {line}:" in r.output and "digits is too long to be read (at most 4300)" in r.output


def test_the_recorder_refuses_a_number_of_thousands_of_digits_as_a_token(tmp_path):
    for line in ("hand 1" + "9" * 5000 + " lead N\n", "end blocked NS 0 EW 8" + "4" * 5000 + "\n"):
        code = record_cli.run("competitive", str(tmp_path / f"g{len(line)}.dgn"), [], None, [], None,
                              stdin=io.StringIO(line), interactive=False)
        assert code == 1  # the token is refused, the recording goes on


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_nan_infinity_and_float_overflow_are_refused_not_written_back(tmp_path, value):
    text = RECORD.read_text().replace('"version": "1.0",', f'"version": "1.0", "event": {{"x": {value}}},', 1)
    assert value in text
    r = _validate(tmp_path, "nan.json", text)
    assert r.exit_code == 2, r.output
    assert value.lstrip("-") in r.output
    r = runner.invoke(app, ["convert", str(tmp_path / "nan.json"), "-o", "-", "--to", "json"])
    assert r.exit_code == 2 and "NaN" not in r.stdout and "Infinity" not in r.stdout


def test_a_bare_dgn_tag_value_that_is_no_json_number_is_text(tmp_path):
    text = _dgn().replace("\n\n", '\n[x -Infinity]\n[y 1e999]\n[z NaN]\n\n', 1)
    r = runner.invoke(app, ["convert", "-", "--from", "dgn", "--to", "json"], input=text)
    assert r.exit_code == 0, r.output
    event = json.loads(r.stdout)["event"]
    assert event == {"x": "-Infinity", "y": "1e999", "z": "NaN"}


def test_validate_at_a_terminal_leaves_no_bar_glued_to_the_first_verdict(tmp_path):
    """Verdicts and bar on one terminal: the bar's line was left in front of the first verdict
    (``checking ━━━ 0 records -:--:--c.json: INVALID``).  With the verdicts in a file, the
    bar is still shown on the terminal."""
    from tests.test_cli_conventions import _run

    sample = SAMPLES / "invalid" / "competitive" / "pass-while-able.json"
    code, out, _ = _run("domrec.cli", ["validate", sample, RECORD], tty=("stdout", "stderr"))
    assert code == 1 and "checking" not in out
    assert out.splitlines()[0].lstrip("\x1b[1;31m").startswith(str(sample))
    code, _, err = _run("domrec.cli", ["validate", sample, RECORD], tty=("stderr",))
    assert code == 1 and "checking" in err


def test_a_wrong_hand_score_on_an_end_line_is_placed_at_its_number(tmp_path):
    """``end out NS 397 EW 67``: the claim's pointer names NS's score, so the column is that of
    ``397`` (was the line's first column), for a played hand and for a score-sheet hand."""
    for sample in sorted((SAMPLES / "invalid").glob("*/wrong-hand-score-claim.dgn")) + sorted(
            (SAMPLES / "invalid").glob("*/impossible-score-sheet-after-typed-hand.dgn")):
        r = runner.invoke(app, ["validate", "-v", str(sample)])  # -v: each problem with its pointer
        line_no, col = next((int(a), int(b)) for a, b in
                            (l.strip().split(":")[:2] for l in r.output.splitlines() if "/result/scores/" in l))
        line = sample.read_text().splitlines()[line_no - 1]
        side = next(l for l in r.output.splitlines() if "/result/scores/" in l).split("/result/scores/")[1].split()[0]
        number = line.split()[line.split().index(side) + 1]
        assert line[col - 1:].startswith(number + " ") or line[col - 1:] == number, (line, col)


def _record_piped(tmp_path, data: bytes) -> tuple[int, str]:
    import subprocess
    import sys

    out = tmp_path / "piped.dgn"
    proc = subprocess.run([sys.executable, "-m", "domrec.cli", "record", "competitive", "-o", str(out)],
                          input=data, capture_output=True)
    return proc.returncode, proc.stderr.decode(), out


def test_record_from_a_pipe_refuses_an_endless_line_and_keeps_the_moves_before_it(tmp_path, monkeypatch):
    """``domrec record … < /dev/zero`` filled the memory (MemoryError traceback); the limit is
    that of a DGN text, lowered here so that the test reads little."""
    from domrec import piped

    monkeypatch.setattr(piped, "MAX_RECORD_BYTES", 1000)  # (the piped text's reading: domrec.piped)
    out = tmp_path / "endless.dgn"
    stdin = io.StringIO("N 3-1\n" + "\0" * 5000)
    code = record_cli.run("competitive", str(out), [], None, [], None, stdin=stdin, interactive=False)
    assert code == 2
    assert "N 3-1" in out.read_text()


def test_record_from_a_pipe_says_not_utf8_not_a_surrogate_escape(tmp_path):
    code, err, out = _record_piped(tmp_path, b'N 3-1\nW \xed\xa0\x80\nS 6-3\n')
    assert code == 2, err
    assert "not UTF-8 (byte 0xED" in err and "escape" not in err and "Traceback" not in err
    assert "N 3-1" in out.read_text() and "6-3" not in out.read_text()


@pytest.mark.parametrize(("data", "where"), [
    (b'[Game "competitive"]\n[N "A\xf1a"]\n', "line 2, column 6"),
    (b'\xef\xbb\xbf[Game "competitive"]\n[N "A\xf1a"]\n', "line 2, column 6"),
    (b'\xef\xbb\xbf[N "A\xf1a"]\n', "line 1, column 6"),  # (the byte-order mark is no column)
    (b'N 3-1\nW 1-0\nS 6-3 \xff\n', "line 3, column 7"),
    (b'N 3-1\rW 1-0\nS 6-3 \xff\n', "line 3, column 7"),  # (a carriage return alone ends a line too)
    (b'N 3-1\rW 1-0\rS 6-3 \xff\n', "line 3, column 7"),
])
def test_record_from_a_pipe_places_text_that_is_not_utf8_as_validate_does(tmp_path, data, where):
    """A piped line that is not UTF-8 was refused with a piece of the line before it ("in the line
    '[N "A'…"), where every other problem of a piped text is placed by line and column, and
    ``domrec validate`` places this one so: now at its line and column, validate's."""
    code, err, out = _record_piped(tmp_path, data)
    assert code == 2, err
    assert f"error: {where}: the text is not UTF-8 (byte 0x" in err, err
    path = tmp_path / "typed.dgn"
    path.write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "domrec.cli", "validate", str(path)], capture_output=True, text=True)
    row, column = where.removeprefix("line ").split(", column ")
    assert f"{row}:{column}: the text is not UTF-8" in proc.stdout + proc.stderr, proc.stdout


def _simulating(target, default_signals, ignored_signals=()):
    """``domrec simulate -n 1000000 -o TARGET --force``, started with the given signals at their
    default action, or ignored: what the test run itself inherited must not decide (a run
    under ``nohup`` ignores SIGHUP, and its children inherit that)."""
    import signal
    import subprocess
    import sys

    def dispositions() -> None:
        for number in default_signals:
            signal.signal(number, signal.SIG_DFL)
        for number in ignored_signals:
            signal.signal(number, signal.SIG_IGN)

    return subprocess.Popen([sys.executable, "-m", "domrec.cli", "simulate", "competitive", "-n", "1000000",
                             "-o", str(target), "--force"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            preexec_fn=dispositions)


def _wait_for_records(folder, proc) -> None:
    """Until records are being written to the temporary file; the limit only turns a hang into a
    failure."""
    import time

    deadline = time.monotonic() + 300
    while not any(p.stat().st_size for p in folder.glob(".games.jsonl.*.tmp")):
        assert proc.poll() is None, f"simulate ended: {proc.stderr.read().decode()}"
        assert time.monotonic() < deadline, "the temporary file never appeared"
        time.sleep(0.1)


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_killed_write_leaves_no_temporary_file_and_the_old_file_intact(tmp_path, signame):
    """``kill`` or ``timeout`` (SIGTERM), a closed terminal (SIGHUP) during ``simulate -o``:
    their default action ended the process at once and left ``.NAME.xxxx.tmp`` behind."""
    import signal
    import subprocess
    import sys
    import time

    target = tmp_path / "games.jsonl"
    target.write_text("an earlier file\n")
    proc = _simulating(target, [signal.SIGHUP, signal.SIGTERM])
    try:
        _wait_for_records(tmp_path, proc)
        proc.send_signal(getattr(signal, signame))
        proc.wait(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + getattr(signal, signame)
    assert b"Traceback" not in proc.stderr.read()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert target.read_text() == "an earlier file\n"


def test_a_write_under_nohup_keeps_ignoring_sighup(tmp_path):
    """``nohup domrec simulate ... &``: a program started with SIGHUP ignored is asked to outlive
    its terminal, and keeps ignoring it (only signals at their default action are caught to
    remove the temporary file).  After SIGHUP it goes on writing records; SIGTERM then stops
    it as usual."""
    import signal
    import time

    target = tmp_path / "games.jsonl"
    target.write_text("an earlier file\n")
    proc = _simulating(target, [signal.SIGTERM], [signal.SIGHUP])
    try:
        _wait_for_records(tmp_path, proc)
        proc.send_signal(signal.SIGHUP)
        written = lambda: sum(p.stat().st_size for p in tmp_path.glob(".games.jsonl.*.tmp"))  # noqa: E731
        before = written()
        deadline = time.monotonic() + 300
        while written() < before + 200_000:  # hundreds of records more: the SIGHUP did not stop it
            assert proc.poll() is None, "SIGHUP stopped a program started under nohup"
            assert time.monotonic() < deadline
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=300)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM
    assert b"Traceback" not in proc.stderr.read()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]
    assert target.read_text() == "an earlier file\n"

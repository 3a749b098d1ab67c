"""``domrec record`` at a real terminal: prompt_toolkit inside tmux.

Each test starts its own tmux server (a socket of its own, no user configuration, panes kept
after their program exits so that its last words can be read), types into the pane with
``send-keys`` and reads it with ``capture-pane``, polling with a timeout rather than sleeping.
The games are the simulator's, typed as a scorer types them (:func:`notation.dumps_typed`).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import attrs
import pytest

from domrec import notation
from domrec import tiles as T
from domrec.recorder import read_record
from domrec.validate import validate
from tests.in_memory import tmp_path  # noqa: E402,F401  (files and databases written move by move: in memory)
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"^(hand \d+[^>]*|confirm \(y/n\))>( |$)")
PARTS = ("hand", "deal", "row", "boneyard", "pile", "leaddraw", "redeal", "left", "end")


class Terminal:
    """One tmux server with one 120x40 pane running ``domrec record …``."""

    def __init__(self, folder: Path) -> None:
        self.socket = f"domrec-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.conf = folder / "tmux.conf"
        self.conf.write_text("set -g remain-on-exit on\nset -g history-limit 20000\n")
        self.folder = folder
        self.started = False
        self.runs = 0
        self.status = folder / "status0"

    def tmux(self, *args: str, check: bool = True) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, "-f", str(self.conf), *args],
                              capture_output=True, text=True, timeout=120)
        if check and done.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)}: {done.stderr}")
        return done.stdout

    def start(self, *args: str, width: int = 120, stdin: Path | None = None) -> None:
        """Run ``domrec record ARGS`` in the pane (``width`` columns; its input from ``stdin``, a
        file, when given: the pipe mode); a shell around it writes its exit status to a file
        (tmux sometimes leaves the dead program unreaped, without its status)."""
        if self.started:
            # A new tmux server for each run: after its last session is killed a server exits,
            # and a session asked of it meanwhile fails with "server exited unexpectedly".
            self.close()
            self.socket = f"domrec-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.runs += 1
        self.status = self.folder / f"status{self.runs}"
        # The program asks the pane for its width: a COLUMNS or LINES the pane's shell may have
        # exported (80 and 24, seen when the shell started before tmux sized the pane) would be
        # honoured first and wrap the text at another width than the pane's.
        command = (shlex.join(["env", "-u", "COLUMNS", "-u", "LINES", sys.executable, "-m", "domrec.cli", "record",
                               *args])
                   + (f" < {shlex.quote(str(stdin))}" if stdin is not None else "")
                   + f"; echo $? > {shlex.quote(str(self.status))}")
        self.tmux("new-session", "-d", "-s", "main", "-x", str(width), "-y", "40", "-c", str(ROOT), command)
        self.started = True

    def close(self) -> None:
        self.tmux("kill-server", check=False)

    # --- reading ---------------------------------------------------------------------------

    def screen(self, joined: bool = True) -> str:
        """Everything the pane has shown (scroll-back too), wrapped lines joined (or, with
        ``joined=False``, as the terminal wrapped them)."""
        return self.tmux("capture-pane", "-p", *(("-J",) if joined else ()), "-S", "-", "-t", "main")

    def said(self) -> str:
        """The pane's text with every run of spaces and line ends made one space: a message the
        recorder wrapped between words at the terminal's width reads as one line again."""
        return " ".join(self.screen().split())

    def lines(self) -> list[str]:
        return [line.rstrip() for line in self.screen().splitlines() if line.strip()]

    def prompts(self) -> list[str]:
        return [line for line in self.lines() if PROMPT.match(line)]

    def dead(self) -> str | None:
        """``None`` while the program runs; then its exit status."""
        try:
            text = self.status.read_text()
        except FileNotFoundError:
            return None
        return text.strip() if text.endswith("\n") else None

    def wait(self, what, timeout: float = 120.0) -> str:
        """Poll until ``what`` (a text, or a function of the screen) holds; the screen then."""
        test = (lambda s: what in s) if isinstance(what, str) else what
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if test(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {timeout}s for {what!r}; the pane ({self.tmux('display', '-p', '-t', 'main', '#{pane_width}x#{pane_height}')}) shows:\n{screen}")
            time.sleep(0.03)

    def wait_prompt(self, text: str, timeout: float = 120.0) -> None:
        """Until the pane's last line is the prompt ``text`` (with nothing typed after it)."""
        # (read from the screen the poll captured: one capture-pane a poll, not two)
        self.wait(lambda s: ([x.rstrip() for x in s.splitlines() if x.strip()] or [""])[-1] == text.rstrip(), timeout)

    def wait_dead(self, timeout: float = 120.0) -> str:
        """Until the program has stopped; its exit status."""
        deadline = time.monotonic() + timeout
        while (status := self.dead()) is None:
            if time.monotonic() > deadline:
                raise AssertionError(f"the program did not stop:\n{self.screen()}")
            time.sleep(0.03)
        return status

    # --- typing ----------------------------------------------------------------------------

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "main", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "main", "-l", text)

    def line(self, text: str, timeout: float = 120.0) -> None:
        """Type a line and Enter, and wait for the next prompt.  The screen before, the line and its
        Enter in one tmux command sequence (run in that order by the server: the prompts counted are
        those shown before the keys reach the pane), rather than three tmux processes a line."""
        assert not text.endswith(";"), text  # (tmux would read a last ";" as the end of a command)
        before = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "main", ";",
                           "send-keys", "-t", "main", "-l", text, ";", "send-keys", "-t", "main", "Enter")
        n = len([x for x in before.splitlines() if x.strip() and PROMPT.match(x.rstrip())])
        self.wait(lambda s: len([x for x in s.splitlines() if PROMPT.match(x)]) > n, timeout)

    def after_last_prompt(self, screen: str) -> list[str]:
        lines = [x.rstrip() for x in screen.splitlines() if x.strip()]
        last = max(k for k, x in enumerate(lines) if PROMPT.match(x))
        return lines[last:]


@pytest.fixture
def term(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    t = Terminal(tmp_path)
    yield t
    t.close()


def typed_hand(record, index: int, keep_deal: bool = True) -> tuple[list[str], list[str]]:
    """Hand ``index`` as a scorer types it: its part lines, and its moves one word at a time
    (a seat and its move together)."""
    hand = notation.dumps_typed(record, keep_deal=keep_deal).split("\n\n")[index + 1].splitlines()
    parts = [x for x in hand if x.split(" ")[0] in PARTS and not x.startswith(("left", "end"))]
    words: list[str] = []
    for x in hand:
        if x.split(" ")[0] in PARTS:
            continue
        pending = None
        for w in x.split(" "):
            if w in record.seats:
                pending = w
                continue
            words.append(f"{pending} {w}" if pending else w)
            pending = None
    return parts, words


def competitive():
    return next(made_once.simulate("competitive", 1, 1))


def test_a_competitive_game_at_the_terminal(term, tmp_path):
    record = competitive()
    parts, words = typed_hand(record, 0)
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out))

    # the players are asked for
    for seat, name in ((p.seat, p.name) for p in record.players):
        term.wait(lambda s, seat=seat: s.rstrip().endswith(f"player at {seat}:"))
        term.type(name)
        term.keys("Enter")
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    assert "type moves (help for the forms" in term.screen()
    for line in parts:
        term.line(line)
    term.line(words[0])
    term.wait_prompt("hand 1, E to play>")  # the prompt names the player to move

    # tab completion shows the legal moves (E holds 3-2 and 2-1 for the 2-2) and the commands
    term.keys("Tab")
    screen = term.wait(lambda s: "3-2@2-2" in "\n".join(term.after_last_prompt(s)))
    menu = "\n".join(term.after_last_prompt(screen))
    assert "2-1@2-2" in menu and "undo" in menu
    assert "6-6" not in menu and "4-0@" not in menu
    term.keys("C-u")

    # a refused move shows its rule, and the same player is still to play
    term.line("6-6")
    screen = term.screen()
    assert "6-6 fits neither end of the line" in screen and "[competitive: matching an end]" in screen
    term.wait_prompt("hand 1, E to play>")

    # moves up to W's 6-2, after which S can only pass: the pass is made, shown, E is named
    k = words.index("6-2@6-5")
    for w in words[1:k + 1]:
        term.line(w)
    assert "S passes (forced)" in term.screen()
    term.wait_prompt("hand 1, E to play>")

    # undo takes back the last move typed
    term.line(words[k + 1])  # E 4-1@5-1
    term.wait_prompt("hand 1, N to play>")
    term.line("undo")
    assert "took back E plays 4-1 on 5-1" in term.screen()
    term.wait_prompt("hand 1, E to play>")
    for w in words[k + 1:]:
        term.line(w)
    assert term.screen().count("W passes (forced)") == 2

    # the end of the hand waits for the other side: n takes the last move back, y confirms
    term.wait_prompt("confirm (y/n)>")
    over = "hand 1 over: out, NS 0, EW 43. Confirm (y), or n to take back the last move"
    assert term.screen().count(over) == 1
    term.line("n")
    assert "took back E plays 6-6 on 6-1" in term.screen()
    term.wait_prompt("hand 1, E to play>")
    term.line(words[-1])
    term.wait_prompt("confirm (y/n)>")
    assert term.screen().count(over) == 2
    term.line("y")
    screen = term.screen()
    assert "hand 1 ends out: NS 0, EW 43" in screen and "totals: NS 0, EW 43" in screen
    term.wait_prompt("hand 2 (deal lines, or the first move)>")

    # hand 2: its deal and three moves, then Ctrl-C
    parts2, words2 = typed_hand(record, 1)
    for line in parts2:
        term.line(line)
    for w in words2[:3]:
        term.line(w)
    term.keys("C-c")  # a first Ctrl-C on an empty line only says how to leave
    term.wait("nothing typed; Ctrl-C again (or quit) stops the recording")
    term.keys("C-c")
    assert term.wait_dead() == "0"
    assert f"stopped; everything entered is saved in {out} (domrec record {out} continues it)" in term.said()
    got = read_record(out)
    assert len(got.hands) == 2
    assert got.hands[0].moves == tuple(m for m in record.hands[0].moves)
    assert got.hands[1].deal == record.hands[1].deal
    assert got.hands[1].moves == record.hands[1].moves[:3]
    assert validate(got).status == "valid"

    # resume from the file: the hand goes on where it stopped
    term.start(str(out))
    term.wait(f"continuing {out}: competitive, hand 2")
    to_move = record.hands[1].moves[3].seat
    term.wait_prompt(f"hand 2, {to_move} to play>")
    term.line(words2[3])
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    assert f"saved in {out} (domrec record {out} continues it)" in term.said()
    got = read_record(out)
    assert got.hands[1].moves == record.hands[1].moves[:4]


def test_a_hand_without_the_deal_ends_with_left(term, tmp_path):
    record = competitive()
    parts, words = typed_hand(record, 0, keep_deal=False)
    hand = notation.dumps_typed(record, keep_deal=False).split("\n\n")[1].splitlines()
    left = next(x for x in hand if x.startswith("left "))
    out = tmp_path / "g.json"
    term.start("competitive", "-o", str(out), *[f"--player={p.seat}={p.name}" for p in record.players])
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    for w in words[:3]:
        term.line(w)
    # without the deal nothing can be completed but the commands
    term.keys("Tab")
    screen = term.wait(lambda s: "undo" in "\n".join(term.after_last_prompt(s)[1:]))
    assert "@" not in "\n".join(term.after_last_prompt(screen)[1:])
    term.keys("C-u")
    for w in words[3:]:
        term.line(w)
    assert "give the tiles still held, e.g. left N …; S …; W …" in term.screen()
    term.line(left)
    screen = term.screen()
    assert "hand 1 ends out: NS 0, EW 43" in screen
    # (an end line now is still hand 1's claim: the prompt says so before hand 2's start)
    term.wait_prompt("hand 1's end line, or hand 2 (deal lines, or the first move)>")
    term.keys("C-d")
    assert term.wait_dead() == "0"
    got = read_record(out)
    assert validate(got).status == "valid" and validate(got).scores == {"NS": 0, "EW": 43}
    assert got.hands[0].moves == record.hands[0].moves
    for seat, tiles in record.hands[0].deal.hands.items():
        assert sorted(map(T.tile, got.hands[0].deal.hands[seat]), key=str) == sorted(map(T.tile, tiles), key=str)


def test_a_broadway_tile_named_alone_then_a_number(term, tmp_path):
    record = next(made_once.simulate("broadway", 1, 0))
    parts, words = typed_hand(record, 0)
    move = record.hands[0].moves[4]
    out = tmp_path / "b.dgn"
    term.start("broadway", "-o", str(out), *[f"--player={p.seat}={p.name}" for p in record.players])
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    for w in words[:4]:
        term.line(w)
    term.wait_prompt(f"hand 1, {move.seat} to play>")
    term.line(move.play, timeout=120)
    screen = term.wait(f"{move.play} can go:", timeout=120)
    options = [x.strip() for x in screen.splitlines() if re.match(r"^\s+\d+\. ", x)]
    (x1, y1), (x2, y2) = move.at
    pick = next(int(x.split(".")[0]) for x in options if f" at ({x1},{y1})-({x2},{y2}), scores {move.score}" in x)
    term.line(str(len(options) + 1))
    assert f"pick a number from 1 to {len(options)}" in term.screen()
    term.line(str(pick))
    assert f"{move.seat} plays {move.play} at ({x1},{y1})-({x2},{y2})" in term.screen()
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    assert read_record(out).hands[0].moves[-1].at == move.at


def _players(record) -> list[str]:
    return [f"--player={p.seat}={p.name}" for p in record.players]


def test_ctrl_c_clears_the_line_and_a_second_one_leaves(term, tmp_path):
    record = competitive()
    parts, words = typed_hand(record, 0)
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    term.line(words[0])
    term.wait_prompt("hand 1, E to play>")
    term.type("6-6 zz")  # typed, never entered: Ctrl-C throws it away, as in a shell
    term.wait("E to play> 6-6 zz")
    n = len(term.prompts())
    term.keys("C-c")
    term.wait("line cleared; Ctrl-C again (or quit) stops the recording")
    term.wait(lambda s: len([x for x in s.splitlines() if PROMPT.match(x)]) > n)
    term.wait_prompt("hand 1, E to play>")
    assert term.dead() is None
    term.line(words[1])  # the next move is taken as if nothing had been typed before it
    assert "fits neither end" not in term.screen() and "zz" not in "".join(term.prompts()[-1:])
    assert read_record(out).hands[0].moves == record.hands[0].moves[:2]
    term.type("3-3")
    term.keys("C-c")  # clears 3-3 …
    term.wait("line cleared")
    term.wait_prompt(f"hand 1, {record.hands[0].moves[2].seat} to play>")
    term.keys("C-c")  # … and a second Ctrl-C in a row leaves
    assert term.wait_dead() == "0"
    assert f"stopped; everything entered is saved in {out}" in term.said()
    assert read_record(out).hands[0].moves == record.hands[0].moves[:2]


def test_an_end_line_at_a_hand_prompt_records_that_hands_score(term, tmp_path):
    record = competitive()
    parts, words = typed_hand(record, 0)
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    for w in words:
        term.line(w)
    term.wait_prompt("confirm (y/n)>")
    term.line("y")
    term.wait_prompt("hand 2 (deal lines, or the first move)>")
    term.line("end out EW 20")
    screen = term.screen()
    assert "hand 2: NS 0, EW 20 (score sheet); totals NS 0, EW 63" in screen
    assert "end:" not in screen  # not taken for a claim about hand 1
    term.wait_prompt("hand 3 (deal lines, or the first move)>")
    term.line("end blocked NS 6")
    term.wait_prompt("hand 4 (deal lines, or the first move)>")
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    got = read_record(out)
    assert [h.score_sheet for h in got.hands] == [False, True, True]
    assert validate(got).scores == {"NS": 6, "EW": 63}


def test_from_a_pipe_a_refused_line_stops_the_recording(term, tmp_path):
    record = competitive()
    lines = notation.dumps(attrs.evolve(record, result=None)).splitlines()
    first = next(k for k, x in enumerate(lines) if x.startswith(("N ", "E ", "S ", "W ")))
    text = [*lines[:first + 1], "W 7-7", *lines[first + 1:]]
    source = tmp_path / "typed.dgn"
    source.write_text("\n".join(text) + "\n")
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), stdin=source)
    assert term.wait_dead() == "1"
    screen = term.screen()
    assert f"line {first + 2}, column 3: W plays 7-7: " in screen  # (at the tile, after its seat)
    assert f"the recording stops at line {first + 2}: nothing from it on was recorded" in screen
    before = tmp_path / "before.dgn"
    before_text = tmp_path / "before-typed.dgn"
    before_text.write_text("\n".join(text[:first + 1]) + "\n")
    term.start("competitive", "-o", str(before), stdin=before_text)
    assert term.wait_dead() == "0"
    assert out.read_bytes() == before.read_bytes()  # exactly the lines before the refused one
    assert validate(read_record(out)).status == "valid"


@pytest.mark.parametrize("width", [40, 80])
def test_the_table_wraps_between_tiles_at_the_terminal_width(term, tmp_path, width):
    record = competitive()
    parts, words = typed_hand(record, 0)
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), *_players(record), width=width)
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    for w in words[:-2]:
        term.line(w)
    term.line("show")

    def table(joined: bool) -> list[str]:
        lines = [x.rstrip() for x in term.screen(joined).splitlines() if x.strip()]
        start = max(k for k, x in enumerate(lines) if x.endswith("> show"))
        return lines[start + 1:-1]

    shown = table(True)
    assert any(x.lstrip().startswith("line: [") for x in shown) and any("in hand:" in x for x in shown)
    assert table(False) == shown  # the terminal wrapped no line of it: the recorder did, between tiles
    assert all(len(x) < width for x in shown)
    tiles = [t for x in shown for t in re.findall(r"\[?\d-\d\]?", x)]
    assert all(t[0] != "[" or t[-1] == "]" for t in tiles)  # every tile whole on its line
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"


def test_a_long_refusal_wraps_between_words_at_80_columns(term, tmp_path):
    """A refusal wider than the terminal is wrapped by the recorder between words: the terminal's
    own wrap would cut "order" into "or" and "der"."""
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), "--player", "N=Ana", "--player", "E=Bo", "--player", "S=Cy",
               "--player", "W=Di", width=80)
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    term.line("N 6-6")
    term.line("E 6-5")
    term.line("show")
    lines = [x.rstrip() for x in term.screen(True).splitlines() if x.strip()]
    start = max(k for k, x in enumerate(lines) if x.endswith("> E 6-5"))
    refusal = lines[start + 1:start + 3]
    assert refusal[0].startswith("E plays 6-5: it is W's turn") and refusal[1].startswith("  [competitive: turn")
    assert [x.rstrip() for x in term.screen(False).splitlines() if x.strip()][start + 1:start + 3] == refusal
    assert all(len(x) < 80 for x in refusal)
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"


def test_a_wrong_move_score_at_the_terminal_says_what_was_counted(term, tmp_path):
    """Issue #26 point 4: the refusal tells what the rules counted, in the validator's words."""
    record = next(made_once.simulate("horse-race", 1, 0, 2))
    lines = notation.dumps(attrs.evolve(record, result=None)).split("\n\n")[1].splitlines()
    parts = [x for x in lines if x.split(" ")[0] in PARTS and not x.startswith(("left", "end"))]
    words = lines[len(parts)].split(" ")
    first, second = f"{words[0]} {words[1]}", f"{words[2]} {words[3]}"
    assert (first, second) == ("P2 5-0=1", "P2 0-0@5-0=1")  # the simulator's game, seed 0
    out = tmp_path / "h.dgn"
    term.start("horse-race", "-o", str(out), "--players", "2", *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in [*parts, first]:
        term.line(line)
    term.line("P2 0-0@5-0=3")
    assert ("P2 plays 0-0 on 5-0: P2 is credited 3, but the open ends are 5 (5-0) + 0 (0-0 spinner) = 5: 1 point "
            "(one point per five) [scoring]; type it again (the claim is optional: the recorder works the points out)"
            in term.said())
    term.wait_prompt("hand 1, P2 to play>")
    term.line(second)
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    assert read_record(out).hands[0].moves == record.hands[0].moves[:2]


def _lead_ruled_out_later():
    """A Broadway game, its first hand's deal lines, the seat that leads it, and another seat: a
    ``hand 1 lead`` of that one is ruled out by the deal typed after it."""
    record = next(made_once.simulate("broadway", 1, 0))
    parts, _ = typed_hand(record, 0)
    right = record.hands[0].moves[0].seat
    return (record, [p for p in parts if p.startswith("deal ")], right,
            next(p.seat for p in record.players if p.seat != right))


def test_a_lead_the_deal_rules_out_is_placed_at_the_lead(term, tmp_path):
    """Broadway's ``hand 1 lead X`` typed before the deal that shows another seat holds the
    double: at the prompt the deal line that shows it is refused, saying how many lines before it
    the hand line was typed; from a pipe (one text) the refusal is placed at the lead itself,
    line and column, and the recording stops there.  The old recorder named neither (at the
    prompt) or the last deal line (from a pipe)."""
    record, deals, right, wrong = _lead_ruled_out_later()
    out = tmp_path / "b.dgn"
    term.start("broadway", "-o", str(out), *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    term.line(f"hand 1 lead {wrong}")
    for line in deals:
        term.line(line)
    said = term.said()
    assert (f"hand 1 lead {wrong}, typed {len(deals)} lines before this one, cannot be: {wrong} cannot lead" in said
            ), said
    term.line("hand 1")
    term.line(deals[-1])
    term.wait_prompt(f"hand 1, {right} to play>")
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"

    head = notation.dumps(attrs.evolve(record, hands=(), result=None)).rstrip("\n").splitlines()
    source = tmp_path / "typed.dgn"
    source.write_text("\n".join([*head, "", f"hand 1   lead {wrong}", *deals]) + "\n")
    piped = tmp_path / "p.dgn"
    term.start("broadway", "-o", str(piped), stdin=source)
    assert term.wait_dead() == "1"
    said = term.said()
    number = len(head) + 2
    assert f"line {number}, column 15: hand 1 lead {wrong}, typed before the deal, cannot be" in said, said
    assert f"the recording stops at line {number}: nothing from it on was recorded" in said, said


def test_the_terminal_counts_back_to_the_hand_line_since_the_file_has_no_line_for_it(term, tmp_path):
    """Why the prompt says "typed N lines before this one" and not a line number (docs/recording.md,
    "Entering the deal, or not"): N counts the prompts up to the hand line, a command among them,
    and at that moment the saved file holds its tags alone, no line of the hand line or the deals
    (each save rewrites the file whole, canonically), so no line number of the file could name it."""
    record, deals, right, wrong = _lead_ruled_out_later()
    out = tmp_path / "b.dgn"
    term.start("broadway", "-o", str(out), *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    term.line(f"hand 1 lead {wrong}")
    term.line("show")
    for line in deals:
        term.line(line)
    said = term.said()
    assert f"hand 1 lead {wrong}, typed {len(deals) + 1} lines before this one, cannot be" in said, said
    saved = out.read_text(encoding="utf-8").splitlines()
    assert saved and all(line.startswith("[") for line in saved), saved
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"


def test_a_stop_before_the_first_move_names_the_lines_not_saved(term, tmp_path):
    """Lines typed before a hand's first move are saved when the hand starts (its first move, or
    its deal made whole); a recording stopped before that cannot save a deal not yet whole (a
    DGN deal gives every seat or none), and says so, naming those lines, instead of "everything
    entered is saved".  Typed again after the file is continued, they give the same game."""
    record = competitive()
    parts, words = typed_hand(record, 0)
    assert parts[0] == "hand 1 lead S" and parts[-1].startswith("deal W")
    out = tmp_path / "g.dgn"
    term.start("competitive", "-o", str(out), *_players(record))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts[:-1]:  # every line but the last seat's deal
        term.line(line)
    term.keys("C-c")
    term.wait("nothing typed; Ctrl-C again (or quit) stops the recording")
    term.keys("C-c")
    assert term.wait_dead() == "0"
    said = term.said()
    assert "everything entered is saved" not in said
    assert f"stopped; saved in {out} (domrec record {out} continues it), all but these lines of hand 1" in said
    listed = said.split("type them again when you continue ", 1)[1].split(" Pane is dead")[0]
    assert listed == " ".join(parts[:-1]), said  # those lines, as typed
    shown = [x.strip() for x in term.lines() if not x.startswith("Pane is dead")]
    assert shown[1 - len(parts):] == parts[:-1]  # one a line
    assert read_record(out).hands == ()

    # continued: the same lines typed again, then the last seat's, and the hand is the same
    term.start(str(out))
    term.wait_prompt("hand 1 (deal lines, or the first move)>")
    for line in parts:
        term.line(line)
    term.wait_prompt(f"hand 1, {record.hands[0].moves[0].seat} to play>")
    term.type("quit")
    term.keys("Enter")
    assert term.wait_dead() == "0"
    # nothing named as not saved: the hand started with its whole deal
    assert f"quit saved in {out} (domrec record {out} continues it)" in term.said()
    assert "all but these lines" not in term.said()
    got = read_record(out).hands[0]
    assert (got.deal, got.leader, got.moves) == (record.hands[0].deal, record.hands[0].leader, ())

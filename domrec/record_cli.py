"""``domrec record``: the terminal around :class:`domrec.recorder.Recorder`.

At a terminal the line editor is prompt_toolkit's (history, and completion of
the legal moves where the deal is known); from a pipe the same recorder reads
the text line by line.  Either way every accepted move is already on disk, so
a closed terminal or a killed process loses at most the line being typed.  At
the terminal Ctrl-C clears that line, as in a shell, and a second one leaves.
From a pipe a refused line stops the recording: the file keeps the lines before
it (exit 1), so the saved game is never a different game from the one typed.
"""

from __future__ import annotations

import functools
import shutil
import sys
from pathlib import Path
from typing import Any, Iterable

from domrec import console, games, notation, output as outputs, piped, shape
from domrec.errors import (RECORD_CONTROLS, DomrecError, InputError, RuleViolation, control_said, one_line,
                           plain_direction)
from domrec.recorder import (Recorder, RecorderError, first_problem, for_options, new_game, read_whole,
                             said_in_text)

EXIT_OK, EXIT_INVALID, EXIT_UNUSABLE = 0, 1, 2


def _err(text: str) -> None:
    _write(sys.stderr, text)


def _out(text: str) -> None:
    _write(sys.stdout, text)


def _write(stream: Any, text: str) -> None:
    """A line on ``stream``: at a terminal wrapped between words to its width (the terminal's own
    wrap would cut "order" into "or" and "der"), in a pipe or a file on one line, as written."""
    shown = _shown(text)
    width = console.line_width(stream)
    stream.write("\n".join(console.fit_line(shown, width - 1) if width else [shown]) + "\n")
    stream.flush()


def _shown(text: str) -> str:
    """A line the recorder prints: on one line, and without direction controls, so that a player
    named ``\u202e1 reyalP`` reads as written (the file keeps the name as typed)."""
    return plain_direction(one_line(text))


def run(target: str, output: str | None, player: list[str], players: int | None, option: list[str],
        variant: str | None, stdin: Any = None, interactive: bool | None = None) -> int:
    """The command's work; returns its exit code."""
    stdin = stdin if stdin is not None else sys.stdin
    if interactive is None:
        interactive = stdin.isatty() and sys.stdout.isatty()
    # From a pipe only the header (the tags) is read before recording starts; the moves are
    # then taken line by line as they come, each saved at once.
    try:
        if not interactive:
            stdin = piped.Piped(stdin)
        text, count, first = ("", 0, None) if interactive else piped.read_header(stdin)
    except piped.Unreadable as e:
        _err(f"error: {e}")
        return EXIT_UNUSABLE
    try:
        rec = _recorder(target, output, player, players, option, variant, text, interactive)
    except (DomrecError, RecorderError) as e:
        if isinstance(e, notation.NotationError):  # (the piped text's tags: said where, as its moves are)
            _err(f"error: line {e.line}, column {e.column}: {e.message}")
        else:
            _err(f"error: {e.message if isinstance(e, InputError) else e}")
        return EXIT_UNUSABLE
    if interactive:
        return _interactive(rec)
    header = _header(text, rec.game.game)
    too_long = None
    number = count
    if first is not None:
        # A refused line stops the recording there: the file keeps the lines before it, so the
        # saved game is never a different game from the one typed (a move skipped would make one).
        rec.stop_at_refusal = True
        refusals: list[str] = []
        rec.refuse_out = refusals.append
        start, fed = rec.game.record(), []
        # Hand lines (and deal parts) that announced a hand which had not started when a later
        # line was refused: they are not in the file, and the scorer is told to type them again.
        announced: list[int] = []
        was = _where(rec.game)
        hand_before = start
        last = (number, "")  # the last line that says something (where the end of the text is refused)
        try:
            for line in piped.lines(first, stdin):
                number += 1
                if line.strip():
                    last = (number, line)
                before = rec.game.record()
                if _where(rec.game) != was:  # (the game moved on: what was announced has started)
                    announced, was = [], _where(rec.game)
                if line.split(None, 1)[:1] and line.split(None, 1)[0].lower() == "hand":
                    hand_before = before  # (what a lead on this line, refused later, goes back to)
                rec.feed_line(line)
                if not rec.refused and line.split(" ", 1)[0].lower() in _ANNOUNCING:
                    announced.append(number)
                fed.append(line)
                later = None
                if rec.refused and not rec.unsaved and said_in_text(line, rec.game.seats):
                    rest = piped.rest(stdin)
                    if rest is not None and _read_whole(rec, start, fed, rest, number, refusals, count + 1):
                        refusals.clear()  # (what the whole text's end refuses is said at its last line)
                        said_lines = [(number + k, text) for k, text in enumerate(rest, 1) if text.strip()]
                        last = said_lines[-1] if said_lines else last
                        break
                    if rest is not None and _moves_line(line):  # (the whole text refuses it too: where?)
                        later = _later_fault(start, fed + rest, count + 1, number - rec.refused_back)
                if rec.refused:
                    # (a lead refused by a deal line after it is refused at the lead's own line: the
                    # text is recorded up to the line before that one)
                    number -= rec.refused_back
                    where = f"line {number}, column {(rec.refused_at or 0) + _indent(fed[-1 - rec.refused_back]) + 1}"
                    if later is not None:
                        # The refused line only left a choice, which the lines after it would settle
                        # but for a fault further on: that fault is told, where it is, in validate's
                        # words (as the venue tells a post), and the recording stops at the choice: the
                        # refused line is not skipped, nor the choice guessed (docs/recording.md).
                        _err(f"line {later[0]}, column {later[1]}: {later[2]}")
                        _err(f"the recording stops at line {number}, which leaves a choice that only the lines "
                             f"after it settle, and they are refused at line {later[0]}: nothing from line "
                             f"{number} on was recorded (a refused line is never skipped, nor a choice guessed); "
                             f"{_held(rec.path, number - 1, count, start, [k for k in announced if k < number])}"
                             f"; put line {later[0]} right and "
                             f"continue the file with lines {min([k for k in announced if k < number] + [number])} on")
                        rec.restore(before if not rec.refused_back else hand_before)
                        _out(rec.game.report(str(rec.path)).summary())
                        return EXIT_INVALID
                    for said in refusals:
                        _err(f"{where}: {said}")
                    rec.restore(before if not rec.refused_back else hand_before)
                    _err(f"the recording stops at line {number}: nothing from it on was recorded; "
                         f"{_held(rec.path, number - 1, count, start, [k for k in announced if k < number])}")
                    _out(rec.game.report(str(rec.path)).summary())
                    return EXIT_INVALID
        except piped.Unreadable as e:  # what came before it is recorded and saved
            too_long = e
    before = rec.refused
    rec.finish()
    if rec.refused > before and first is not None:
        # Refused at the end of the text (a hand over whose left line never came, a seat not
        # followed by a move): said at the last word of the last line that says something, where
        # the text ends (as validate places a missing left line).
        words = last[1].rstrip()
        where = f"line {last[0]}, column {len(words) - len(words.split()[-1]) + 1 if words else 1}"
        for said in refusals:
            _err(f"{where}: {said}")
    if too_long is not None:
        _err(f"error: {too_long}")
        return EXIT_UNUSABLE
    if header is not None and header.get("result"):
        before = rec.refused
        _check_result(rec, header["result"])
        if first is not None and rec.refused > before:  # (said at the tag, as a refused line is said)
            for said in refusals[before - rec.refused:]:
                _err(f"line {header['result_at'][0]}, column {header['result_at'][1]}: {said}")
    report = rec.game.report(str(rec.path) if rec.path else "<record>")
    _out(report.summary())
    for problem in report.problems:
        _out(f"  {problem.text()}")
    if rec.refused:
        return EXIT_INVALID
    return EXIT_OK if report.valid else EXIT_INVALID


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _held(path: object, last: int, header_lines: int, before: Any, announced: list[int]) -> str:
    """What the file holds after a refusal at line ``last + 1`` of the piped text.

    ``before``: the record the file held when the text began (a game continued from its file
    keeps its hands and moves: a refused first line leaves them all, not "the header alone", as
    this once said).  ``announced``: the text's lines before the refused one that announced a
    hand which had not started; they are not in the file, so the lines held end before the first
    of them, and the scorer is told to type them again (this once read "up to line 1 (but not
    line 1, …)")."""
    kept = min(announced) - 1 if announced else last
    gap = ""
    if announced:
        lines = (f"line {announced[0]}" if len(announced) == 1
                 else f"lines {', '.join(map(str, announced[:-1]))} and {announced[-1]}")
        gap = (f"; {lines} announced a hand that had not started: type "
               f"{'it' if len(announced) == 1 else 'them'} again")
    if before.hands:
        was = _as_it_was(before)
        if kept <= header_lines:
            return f"{path} holds the game as it was: {was}{gap}"
        return f"{path} holds the game as it was ({was}) and this text up to line {kept}{gap}"
    if kept <= header_lines:  # (the text's tags: the header, nothing of the play)
        return f"{path} holds the game's header alone{gap}"
    return f"{path} holds the game up to line {kept}{gap}"


def _as_it_was(record: Any) -> str:
    """A continued game's recorded play, as its file holds it: ``hand 1, 7 moves`` while a hand is
    in play (moves counted as the file writes them, a pass one), ``3 hands`` between hands."""
    hand = record.hands[-1]
    count = len(record.hands)
    if hand.result is None:
        moves = len(hand.moves)
        return f"hand {count}, {moves} move{'s' if moves != 1 else ''}"
    return f"{count} hand{'s' if count != 1 else ''}"


def _moves_line(line: str) -> bool:
    """A line of moves: only such a line may leave a choice (a tile's end, a move's seat) that
    the lines after it settle; a refused ``end`` claim or ``left`` line is wrong as it stands."""
    word = next(iter(line.split()), "").lower()
    return word not in _ANNOUNCING and word not in ("end", "left")


def _later_fault(start: Any, lines: list[str], first_line: int, refused: int) -> tuple[int, int, str] | None:
    """Where and what ``domrec validate`` finds wrong first in the text read whole (``lines``, the
    first of them the text's line ``first_line``), when that is after the ``refused`` line: a
    line left a choice that the rest would settle, and the fault is further on (the venue's
    session tells a post the same, :func:`domrec.recorder.first_problem`)."""
    found = first_problem(start, lines, first_line)
    if found is None or first_line + found[0] <= refused:
        return None
    return first_line + found[0], found[1], found[2]


def _read_whole(rec: Recorder, start: Any, fed: list[str], rest: list[str], number: int, refusals: list[str],
                first_line: int) -> bool:
    """A line refused as it came may only leave a choice that the rest of its hand decides (a
    tile that fits both ends, a seat left out): the whole text is then read as ``domrec
    validate`` reads it, and recorded if that reading is valid.  True when it was.
    ``first_line``: the number of ``fed[0]`` in the text, so that the reader's note names the
    text's own lines."""
    whole = read_whole(start, fed + rest, first_line)
    if whole is None:
        return False
    record, note = whole
    rec.refused, rec.refused_at = 0, None
    rec.restore(record)
    _out(f"line {number} leaves a choice ({refusals[0]}); the text is read whole, as domrec validate reads it")
    if note:
        _out(note)
    return True


@functools.lru_cache(maxsize=1)
def _header(text: str, game: str | None = None) -> dict | None:
    """The text's tags (:func:`notation.parse_header`), read once though the setup and the end
    of a recording both ask: reading them keeps a token a tag or comment, with its place.
    ``game``: the game the command names (``domrec record competitive``), which tags without
    ``[Game]`` are of; a ``[Game]`` tag naming another is refused by the caller."""
    return notation.parse_header(text, game) if text.strip() else None


def _check_result(rec: Recorder, claim: dict) -> None:
    """A game result written in the text's tags ([Scores], [Winner]) is checked like any claim:
    kept when right, refused when wrong."""
    from domrec.record import UNSET, GameResult
    from domrec.validate import LEFT_OUT_OF_FINAL

    g = rec.game
    if not g.over:
        rec._refuse("the text claims the game's result ([Scores]/[Winner]), but the game is not over "
                    f"({', '.join(f'{k} {v}' for k, v in g.totals.items())})")
        return
    result = GameResult(scores=claim.get("scores"), winner=claim.get("winner", UNSET))
    # (a side left out of [Scores] finished with 0, checked like a number written: docs/format.md)
    wrong = [f"{side} finished with {g.totals.get(side)}, not {n}{'' if side in claim['scores'] else LEFT_OUT_OF_FINAL}"
             for side, n in (result.claimed_scores(g.totals) or {}).items() if g.totals.get(side) != n]
    if "winner" in claim and claim["winner"] != g.winner:
        real = "a draw" if g.winner is None else g.winner
        wrong.append(f"the winner is {real}, not {'a draw' if claim['winner'] is None else claim['winner']}")
    if wrong:
        rec._refuse("[Scores]/[Winner]: " + "; ".join(wrong))
        return
    g.set_result(result)
    rec._save()


def _looked_at(path: Path, question: str) -> bool:
    """``path.exists()`` or ``path.is_dir()``; a path inside a folder that may not be searched
    cannot even be looked at, which is said in one line, not a traceback."""
    try:
        return getattr(path, question)()
    except OSError as e:
        raise RecorderError(f"{path}: cannot read: {e.strerror}") from None


def _recorder(target: str, output: str | None, player: list[str], players: int | None, option: list[str],
              variant: str | None, text: str, interactive: bool) -> Recorder:
    say = _out
    refuse = _out if interactive else _err
    path = Path(target)
    if target not in games.MODULES and (path.suffix in (".dgn", ".json") or _looked_at(path, "exists")):
        if output is not None and Path(output) != path:
            raise RecorderError("to continue a file, give just the file (the moves go on being saved there)")
        if not _looked_at(path, "exists"):
            raise RecorderError(f"{target}: no such file")
        try:  # every save replaces the file: refuse now what a save would refuse (a link, a FIFO)
            outputs.check(path, outputs.RECORDS, force=True, has_force=False)
        except outputs.OutputError as e:
            raise RecorderError(f"{e.message}; a game is continued in the .dgn or .json file it was saved "
                                f"to") from None
        rec = Recorder.resume(path, interactive=interactive, say=say, refuse_out=refuse)
        header = _header(text, rec.game.game)
        if header is not None and header["game"] != rec.game.game:
            raise RecorderError(f"{target} records {rec.game.game}, but the text is a {header['game']} game")
        if header is not None and header["players"]:  # (tags naming no player say nothing of the file's)
            mine = [(p.seat, p.name) for p in rec.game.record().players]
            if header["players"] != mine:
                shown = " ".join(f"{s}={n}" for s, n in header["players"])
                raise RecorderError(f"{target} is the game of {' '.join(f'{s}={n}' for s, n in mine)}, but the "
                                    f"text names {shown}: is it the right file?")
        g = rec.game
        where = (f"hand {g.hand_number} in play" if g.in_hand else
                 f"{g.hand_number} hand{'s' if g.hand_number != 1 else ''} recorded, hand {g.hand_number + 1} next")
        say(f"continuing {target}: {g.game}, {where}")
        return rec
    if target not in games.MODULES:
        near = shape.closest_game(target)  # (a slip in a game's name: the game it is likely a slip for)
        raise RecorderError(f"{target!r} is neither a game ({', '.join(games.MODULES)}) nor a record file"
                            + (f'; did you mean "{near}"?' if near is not None else ""))
    if output is None:
        raise RecorderError("say where to save the game: -o game.dgn (or game.json)")
    out = Path(output)
    if out.suffix not in (".dgn", ".json"):
        raise RecorderError(f"{output}: the recorder saves .dgn or .json files")
    if _looked_at(out, "is_dir"):
        raise RecorderError(f"{output} is a folder: name the file to save the game in (-o {out / ('game' + out.suffix)})")
    if _looked_at(out, "exists") or out.is_symlink():
        raise RecorderError(f"{output} already exists: not replaced (to continue it: domrec record {output})")
    for text in option:  # a name the game has no option of is said before anything about its value
        name = text.partition("=")[0]
        if name and "=" in text and name not in shape.GAME_RULES[target][1]:
            shape.check_rules({"options": {name: None}}, target)
    options = cli_options = games.parse_options(option) or None
    variant_given = variant is not None
    # The variant and options given on the command line held to the record's shape at once, before
    # the players are asked for (the text's tags are, as it is read: notation.parse_header).
    shape.check_rules({k: v for k, v in (("variant", variant), ("options", options)) if v}, target)
    header = _header(text, target)
    event = None
    if header is not None:
        if header["game"] != target:
            raise RecorderError(f"the text is a {header['game']} game, not {target}")
        options = {**(header["options"] or {}), **(options or {})} or None
        variant = variant or header["variant"]
        event = header["event"] or None
    seats_names = _players(target, player, players, options, variant, header, interactive)
    try:
        game = new_game(target, seats_names, variant, options, event)
    except DomrecError as e:  # a rule tag the players make wrong (start_tiles=99 for four): said at the tag
        at = (header or {}).get("rules_at", {}).get(getattr(e, "pointer", ""))
        if at is None or e.pointer.rpartition("/")[2] in (cli_options or {}) or (variant_given and "variant" in e.pointer):
            raise
        said = f"{e.message} [{e.rule}]" if isinstance(e, RuleViolation) else str(getattr(e, "message", e))
        raise notation.NotationError(said, at[0], at[1], e.pointer) from None
    rec = Recorder(game, out, "json" if out.suffix == ".json" else "dgn", interactive, say, refuse)
    try:  # (the first save: nothing typed yet to take back, so said as the file's problem alone)
        rec.write()
    except InputError as e:
        raise RecorderError(e.message) from None
    return rec


def _where(game: Any) -> tuple[int, bool, int]:
    """Where the game stands, cheaply: a hand started or closed, or a move made, moves it."""
    return game.hand_number, game.in_hand, len(game.moves) if game.in_hand else 0


#: The first words of the lines that prepare a hand (it may wait for more before it starts).
_ANNOUNCING = frozenset({"hand", "deal", "row", "boneyard", "pile", "leaddraw", "redeal"})


def _players(game: str, given: list[str], count: int | None, options: dict | None, variant: str | None,
             header: dict | None, interactive: bool) -> list[tuple[str, str]]:
    from domrec.games.base import effective_options

    engine = games.engine(game)
    named: dict[str, str] = {}
    for item in given:
        seat, eq, name = item.partition("=")
        if not eq or not seat or not name:
            raise InputError(f"write a player as SEAT=Name, not {item!r}")
        if seat in named:
            raise InputError(f"seat {seat} is given twice")
        _name_checked(seat, name)
        named[seat] = name
    if header is not None and header["players"]:  # (tags naming no player: as without tags)
        from_tags = dict(header["players"])
        for seat, name in named.items():
            if seat in from_tags and from_tags[seat] != name:
                raise InputError(f"the text names {from_tags[seat]!r} at {seat}, --player says {name!r}")
        return [(s, named.get(s, n)) for s, n in header["players"]]
    opts = effective_options(engine, variant, options)
    allowed = engine.player_counts(opts)
    n = count or (len(named) if named and len(named) in allowed else allowed[-1])
    if n not in allowed:
        raise InputError(f"{game}{for_options(engine, variant, options, n)} is played by "
                         f"{', '.join(map(str, allowed))} players, not {n}")
    seats = engine.seats_for(n, opts)
    unknown = [s for s in named if s not in seats]
    if unknown:
        raise InputError(f"{unknown[0]} is not a seat of {game} with {n} players (seats: {' '.join(seats)})")
    out = []
    for seat in seats:
        name = named.get(seat)
        while name is None and interactive:
            name = _ask(f"player at {seat}: ").strip() or seat
            try:
                _name_checked(seat, name)
            except InputError as e:
                _out(e.message)
                name = None
        out.append((seat, name or seat))
    return out


def _name_checked(seat: str, name: str) -> None:
    """Refuse a player's name holding a control character (ESC, NUL…), as the saved file
    would be refused by every reader (:data:`domrec.errors.RECORD_CONTROLS`)."""
    bad = RECORD_CONTROLS.search(name)
    if bad is not None:
        raise InputError(f"the name of the player at {seat}: {control_said(bad.group())}")


def _ask(prompt: str) -> str:
    from prompt_toolkit import prompt as ask

    return ask(prompt)


def _interactive(rec: Recorder) -> int:
    from prompt_toolkit import PromptSession
    from prompt_toolkit.completion import WordCompleter
    from prompt_toolkit.history import InMemoryHistory

    session: PromptSession = PromptSession(history=InMemoryHistory())
    rec.width = lambda: shutil.get_terminal_size().columns
    _out("type moves (help for the forms, quit to stop; every accepted move is saved at once)")
    interrupted = False  # the last prompt ended with Ctrl-C
    rec._show_table() if rec.game.in_hand else None
    while True:
        g = rec.game
        if g.over and not g.in_hand:
            _out(f"the game is over: {'a draw' if g.winner is None else g.winner + ' wins'}; saved in {rec.path}")
            return EXIT_OK
        prompting = False
        try:
            # (inside the try: a Ctrl-C typed while the next prompt is made ready, the second of two
            # typed quickly, is a Ctrl-C at an empty line, not an interruption of the program)
            where = rec.prompt
            words = list(_completions(rec))
            prompting = True
            line = session.prompt(where, completer=WordCompleter(words, sentence=True, match_middle=False),
                                  key_bindings=_tab_keys())
        except KeyboardInterrupt:
            # As in a shell, Ctrl-C throws away the line being typed; a second Ctrl-C in a row,
            # with nothing typed since, leaves (so does quit).
            typed = session.default_buffer.text.strip() if prompting else ""
            if interrupted and not typed:
                _stopped(rec)
                return EXIT_OK
            interrupted = True
            try:
                _out(("line cleared" if typed else "nothing typed") + "; Ctrl-C again (or quit) stops the recording")
            except KeyboardInterrupt:  # the second Ctrl-C came while this was said
                _stopped(rec)
                return EXIT_OK
            continue
        except EOFError:
            _stopped(rec)
            return EXIT_OK
        interrupted = False
        try:
            rec.feed_line(line)
        except KeyboardInterrupt:  # the quit command
            _stopped(rec, quit=True)
            return EXIT_OK


def _tab_keys() -> Any:
    """Tab at the recorder's prompt: a single completion is inserted at once.

    prompt_toolkit lists the completions as the scorer types, in the background; a Tab that
    came with the keys before it (a quick typist, a paste) found that listing under way and only
    showed the menu, so that a second Tab was needed to insert the one move offered, and Enter
    after one Tab sent the bare prefix (``5``: "not a move").  Here Tab asks the completer itself,
    at once: one completion is inserted; several insert what they share, or go on through the
    menu shown (docs/recording.md, "Completion")."""
    from prompt_toolkit.completion import CompleteEvent, get_common_complete_suffix
    from prompt_toolkit.key_binding import KeyBindings

    keys = KeyBindings()

    @keys.add("tab")
    def _tab(event: Any) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.complete_index is not None:  # (the scorer is going through the menu)
            buffer.complete_next()
            return
        found = list(buffer.completer.get_completions(buffer.document, CompleteEvent(completion_requested=True)))
        if len(found) == 1:
            buffer.apply_completion(found[0])
            return
        shared = get_common_complete_suffix(buffer.document, found) if found else ""
        if shared:
            buffer.insert_text(shared)
        elif state is not None:
            buffer.complete_next()
        else:
            buffer.start_completion(select_first=False)

    return keys


def _stopped(rec: Recorder, quit: bool = False) -> None:
    """The last words of a recording stopped at the terminal: where the game is saved and, when
    the next hand's lines typed before its first move are not saved yet (a deal not yet whole:
    the file holds a hand from its start), exactly those lines, to be typed again."""
    again = f"domrec record {rec.path} continues it"
    unsaved = rec.unsaved_lines()
    if not unsaved:
        _out(f"saved in {rec.path} ({again})" if quit else f"stopped; everything entered is saved in {rec.path} ({again})")
        return
    number = rec.game.hand_number + 1
    _out(f"{'' if quit else 'stopped; '}saved in {rec.path} ({again}), all but these lines of hand {number}, "
         f"typed before its first move: a hand is saved once it starts (its first move, or its whole deal); "
         f"type them again when you continue")
    for line in unsaved:
        _out(f"  {line}")


def _completions(rec: Recorder) -> Iterable[str]:
    """What a tab may complete: the legal moves (where the deal is known) and the commands."""
    from domrec.notation.writer import _move_text
    from domrec.record import move_to_dict

    g = rec.game
    seen = set()
    for move in g.legal_moves():
        d = move_to_dict(move)
        text = _move_text(d, g.game)
        if move.seat != g.to_move:
            text = f"{move.seat} {text}"
        if text not in seen:
            seen.add(text)
            yield text
    yield from ("undo", "show", "scores", "help", "quit")
    if rec._confirming:
        yield from ("y", "n")

"""A hand's own lines, whichever order they come in: the deal typed before its ``hand N`` line
is kept by that line (the same hand), a lead the rules refuse is refused on the hand line
itself, a hand that cannot start yet says what it waits for, and a text (a pipe, a page's post)
that gives several hands' deal lines at once is refused at the first line of the second.

Each through the three ways in: the recorder fed line by line, a page's session (a request a
line, or one request), and ``domrec record`` from a pipe.  Every test fails on the recorder
that dropped the deal at the hand line, took a refused lead and blamed the next move, answered
Castle Rock's bare ``hand 1`` with silence, and let the last hand's deal lines win."""

from __future__ import annotations

import functools

import attrs
import pytest

from domrec import notation
from domrec import simulate as sim
from domrec.game import Game
from domrec.reader import loads
from domrec.record import Record
from domrec.recorder import Recorder, read_record
from domrec.session import PARTS, RequestRefused, Session, requests_for

from tests.in_memory import tmp_path  # noqa: F401  (the pipe's record saved, and fsynced, at every move: in memory)
from tests.test_recorder import cli_players, header, pipe

#: (game, players, options, variant): each of the five games (Domino Roads with three players,
#: whose first hand's lead the record names, and with four, where S leads it).
CONFIGS = [
    ("competitive", None, None, None),
    ("horse-race", 3, None, None),
    ("broadway", None, None, None),
    ("castle-rock", 5, None, None),
    ("domino-roads", 3, None, None),
    ("domino-roads", 4, None, None),
]
IDS = [f"{g}-{n or 'std'}" for g, n, _, _ in CONFIGS]
DEAL_PARTS = ("deal", "row", "boneyard", "pile", "leaddraw", "redeal")


@functools.lru_cache(maxsize=None)
def simulated(config, seed: int = 3) -> Record:
    """The seeded game of ``config`` (simulated once for the module's tests, which only read it)."""
    game, players, options, variant = config
    return next(sim.simulate(game, 1, seed, players, options, variant))


def template(record: Record) -> Record:
    return attrs.evolve(record, hands=(), result=None)


_TYPED: dict[int, tuple[Record, tuple[str, ...]]] = {}


def typed(record: Record) -> list[str]:
    """The game as a table's phone sends it: each hand part line whole, each move alone (worked
    out once per record, the same object from :func:`simulated`'s cache; a new list each time)."""
    kept = _TYPED.get(id(record))
    if kept is None or kept[0] is not record:
        kept = _TYPED[id(record)] = (record, tuple(requests_for(record, keep_deal=True)))
    return list(kept[1])


def deal_first(texts: list[str]) -> tuple[list[str], str, list[str]]:
    """Hand 1's deal lines, its hand line, and the rest: the deal is typed before the hand line."""
    assert texts[0].startswith("hand 1"), texts[0]
    k = 1
    while texts[k].split()[0] in DEAL_PARTS:
        k += 1
    return texts[1:k], texts[0], texts[k:]


def deals(record: Record) -> list:
    return [h.deal for h in record.hands]


def recorder(record: Record) -> tuple[Recorder, list[str], list[str]]:
    said: list[str] = []
    refused: list[str] = []
    rec = Recorder(Game.from_record(template(record)), None, say=said.append, refuse_out=refused.append)
    return rec, said, refused


def piped(tmp_path, record: Record, lines: list[str]):
    """``domrec record`` from a pipe: its run, the file, and how many lines come before ``lines``."""
    out = tmp_path / "g.dgn"
    out.unlink(missing_ok=True)
    head = header(record) + "\n\n"
    run = pipe(record.game, out, head + "\n".join(lines) + "\n", cli_players(record))
    return run, out, head.count("\n")


def hand_span(texts: list[str], number: int) -> tuple[int, int]:
    """Where hand ``number``'s line is among the typed requests, and where its deal's lines end."""
    start = next(k for k, t in enumerate(texts) if t.startswith(f"hand {number}"))
    end = start + 1
    while texts[end].split()[0] in DEAL_PARTS:
        end += 1
    return start, end


_WRONG_LEADS: dict[tuple[int, int], tuple[Record, tuple[str, ...]]] = {}


def wrong_leads(record: Record, number: int) -> tuple[str, ...]:
    """The seats the rules refuse as hand ``number``'s leader, as the validator says (worked out
    once per record, the same object from :func:`simulated`'s cache: the tests only read it)."""
    kept = _WRONG_LEADS.get((id(record), number))
    if kept is not None and kept[0] is record:
        return kept[1]
    from domrec.validate import validate

    out = []
    for seat in (p.seat for p in record.players):
        hands = list(record.hands)
        hands[number - 1] = attrs.evolve(hands[number - 1], leader=seat)
        report = validate(attrs.evolve(record, hands=tuple(hands)))
        if any(p.pointer == f"/hands/{number - 1}/leader" for p in report.problems):
            out.append(seat)
    _WRONG_LEADS[id(record), number] = (record, tuple(out))
    return tuple(out)


# --- 1. the hand line after the deal lines: the same hand, its deal kept -----------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_hand_line_after_its_deal_keeps_the_deal(config, tmp_path):
    """Deal lines, then ``hand 1`` (the lead as the rules say), then ``hand 1 lead X`` (the lead
    the record names), then the moves: the same game as the record, every deal kept.  The old
    recorder threw the deal away at the hand line (and then could not end the hand)."""
    record = simulated(config)
    parts, line, rest = deal_first(typed(record))
    bare = line.split(" lead ")[0]
    lines = [*parts, bare, line, *rest]

    rec, _, refused = recorder(record)
    for text in lines:
        rec.feed_line(text)
    rec.finish()
    assert refused == [] and deals(rec.game.record()) == deals(record)
    assert rec.game.totals == Game.from_record(record).totals

    session = Session(template(record))
    for k, text in enumerate(lines):
        session.take(text)
        if k in (len(parts), len(parts) + 1) and config[0] != "domino-roads":  # the deal stays known
            assert session.state()["deal_known"], text
    assert deals(session.record()) == deals(record)
    whole = Session(template(record), ["\n".join(lines[:len(parts) + 2])])  # the deal and both lines in one post
    assert whole.record().hands[0].deal == record.hands[0].deal or not whole.game.in_hand
    for text in rest:
        whole.take(text)
    assert deals(whole.record()) == deals(record)

    run, out, _ = piped(tmp_path, record, lines)
    assert run.code == 0, run.err
    assert deals(read_record(out)) == deals(record)

    said: list[str] = []  # at the terminal's prompt, line by line: the same
    term = Recorder(Game.from_record(template(record)), None, interactive=True, say=said.append,
                    refuse_out=refused.append)
    for text in [*parts, bare, line]:
        term.feed_line(text)
    assert refused == [] and term.game.in_hand and term.game.record().hands[0].deal == record.hands[0].deal


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_lead_the_rules_refuse_is_refused_on_its_hand_line(config, tmp_path):
    """``hand 1 lead X`` (with or without the deal typed first) and ``hand 2 lead X`` where the
    rules give the lead to another seat: refused at once, naming that line, and nothing of it
    kept (the deal typed before stays, the right hand line and the game are taken next).  The
    old recorder took the line and refused the moves after it."""
    record = simulated(config)
    texts = typed(record)
    parts, line, rest = deal_first(texts)
    checked = 0
    for number in (1, 2):
        if len(record.hands) < number:
            continue
        start, end = hand_span(texts, number)
        forms = [(texts[:start], texts[start:]),  # the hand line first, then its deal (if typed)
                 ([*texts[:start], *texts[start + 1:end]], [texts[start], *texts[end:]])]  # the deal first
        for seat in wrong_leads(record, number):
            checked += 1
            bad = f"hand {number} lead {seat}"
            for before, after in forms:
                if after[0] == texts[start] and config[0] == "broadway" or not before and config[0] == "competitive":
                    continue  # who leads follows from the deal (the lead draw, a double), not typed yet
                rec, _, refused = recorder(record)
                for text in before:
                    rec.feed_line(text)
                assert refused == []
                rec.feed_line(bad)
                assert len(refused) == 1 and f"hand {number}" in refused[0], (bad, refused)
                for text in after:
                    rec.feed_line(text)
                rec.finish()
                assert len(refused) == 1, refused[1:]  # the right hand line, then the game, taken whole
                assert deals(rec.game.record()) == deals(record)

                session = Session(template(record))
                for text in before:
                    session.take(text)
                with pytest.raises(RequestRefused) as e:
                    session.take(bad)
                assert e.value.refusal.line == 1 and len(session.accepted) == len(before)
                for text in after:
                    session.take(text)
                assert deals(session.record()) == deals(record)

                run, out, head = piped(tmp_path, record, [*before, bad, *after])
                at = f"line {head + len(before) + 1}, column {len(bad) - len(seat) + 1}"  # (at the seat)
                assert run.code != 0 and f"{at}: hand {number}" in run.err, run.err
                assert len(read_record(out).hands) == number - 1 or deals(read_record(out))[0] == record.hands[0].deal
    if config[0] in ("competitive", "broadway") or config[:2] == ("domino-roads", 4):
        assert checked, "a game whose first lead the rules give: some lead of hand 1 is refused"


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_lead_typed_before_the_deal_that_rules_it_out_is_refused_at_once(config, tmp_path):
    """``hand N lead X`` typed first, then the deal lines, where the deal gives the lead to
    another seat (Competitive's lead draw, Broadway's double; elsewhere the rules say it
    without the deal): refused at once, in one line naming ``hand N lead X``, at the hand line
    itself or at the deal line that rules the lead out (nothing of it kept); the right hand
    line, that deal line again and the rest then give the game.  The old recorder took the
    deal and refused the first move instead ("hand 1 cannot start"), one line too late.

    Within one text (a post, a pipe) the refusal is placed at the lead itself, the hand line's
    line and the seat's column, not at the deal line that showed it (which is right): the old
    session and pipe named the deal line."""
    record = simulated(config)
    texts = typed(record)
    checked = 0
    for number in (1, 2):
        if len(record.hands) < number:
            continue
        start, end = hand_span(texts, number)
        right, parts, before, rest = texts[start], texts[start + 1:end], texts[:start], texts[end:]
        for seat in wrong_leads(record, number):
            if config[0] == "competitive" and number == 1 and not any(p.startswith("leaddraw") for p in parts):
                continue  # (no lead draw typed: the rules leave hand 1's lead to the record)
            checked += 1
            bad = f"hand {number} lead {seat}"
            lines = [*before, bad, *parts, *rest]
            where = len(before)  # the line refused: the hand line, or one of its deal lines

            rec, _, refused = recorder(record)
            for k, text in enumerate(lines):
                rec.feed_line(text)
                if refused:
                    where = k
                    break
            assert len(refused) == 1 and refused[0].startswith(f"hand {number}"), (bad, refused)
            assert where <= len(before) + len(parts), (bad, lines[where], refused)  # before any move
            assert refused[0].startswith(bad) or refused[0].startswith(f"hand {number}: {seat} "), refused
            again = [right, *lines[where + 1:]] if where == len(before) else [right, *lines[where:]]
            for text in again:
                rec.feed_line(text)
            rec.finish()
            assert len(refused) == 1, refused[1:]
            assert deals(rec.game.record()) == deals(record) and rec.game.totals == Game.from_record(record).totals

            session = Session(template(record))
            for text in lines[:where]:
                session.take(text)
            with pytest.raises(RequestRefused) as e:
                session.take(lines[where])
            at = 1 if where > len(before) else len(bad) - len(seat) + 1  # (a deal line, or the lead's seat)
            assert e.value.refusal.line == 1 and e.value.refusal.text().startswith(f"1:{at}: hand {number}")
            assert len(session.accepted) == where
            for text in again:
                session.take(text)
            assert deals(session.record()) == deals(record)
            seat_column = len(f"hand {number} lead ") + 1
            whole = Session(template(record))  # the same lines in one post: refused at the lead
            with pytest.raises(RequestRefused) as e:
                whole.take("\n".join(lines[:where + 1]))
            assert (e.value.refusal.line, e.value.refusal.column) == (len(before) + 1, seat_column), e.value
            said = e.value.refusal.message
            assert (said.startswith(bad) or said.startswith(f"hand {number}: {seat} ")) and whole.accepted == []

            run, out, head = piped(tmp_path, record, lines)
            at = f"line {head + len(before) + 1}, column {seat_column}"
            assert run.code != 0 and f"{at}: hand {number}" in run.err, run.err
            assert f"the recording stops at line {head + len(before) + 1}:" in run.err, run.err
            assert len(read_record(out).hands) == number - 1, run.err  # nothing of the hand line on
    if config[0] in ("competitive", "broadway"):
        assert checked, "a game whose lead the deal gives: a lead typed before it is refused"


# --- 2. a hand line that cannot start its hand says what it waits for --------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_hand_line_alone_says_what_the_hand_still_needs(config):
    """Castle Rock's ``hand 1`` with no row: the hand cannot start without its starting row, and
    the line says so (the old recorder said nothing, and the next move was refused for it).  A
    hand that can start as it stands says nothing of the kind."""
    record = simulated(config)
    session = Session(template(record))
    said = session.take("hand 1")
    waits = [s for s in said if "cannot start yet" in s]
    if config[0] == "castle-rock":
        assert len(waits) == 1 and "row" in waits[0], said
        assert session.state()["waiting"] == waits[0]  # and the table's state says it, for every phone
        assert Session(template(record), session.accepted).state()["waiting"] == waits[0]
        parts, _, rest = deal_first(typed(record))
        row = [p for p in parts if p.startswith("row")]
        session.take(row[0])  # the row given: the first move is taken
        assert session.state()["announced"] == 1 and session.state()["waiting"] is None
        rec, said, refused = recorder(record)
        rec.feed_line("hand 1")
        assert refused == [] and any("row" in s for s in said)
    else:
        assert waits == [] and session.state()["waiting"] is None, said


# --- 3. several hands' deal lines in one text ---------------------------------------------------


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_two_hands_deal_lines_in_one_post_are_refused(config, tmp_path):
    """Hand 1's and hand 2's deal lines in one post: refused at the first line of the second
    deal, naming it, nothing stored (the old recorder let hand 2's deal replace hand 1's).
    A seat's line sent again on its own still replaces it: how a mistyped line is put right."""
    record = simulated(config)
    if len(record.hands) < 2:
        record = simulated(config, seed=5)
    assert len(record.hands) >= 2
    texts = typed(record)
    first = [t for t in deal_first(texts)[0]]
    start = texts.index(next(t for t in texts if t.startswith("hand 2")))
    second = []
    for t in texts[start + 1:]:
        if t.split()[0] not in DEAL_PARTS:
            break
        second.append(t)
    post = [*first, *second]
    repeated = next(k for k, t in enumerate(second) if any(
        t.split()[:2] == f.split()[:2] or (t.split()[0] in ("row", "boneyard") and t.split()[0] == f.split()[0])
        for f in first))

    session = Session(template(record))
    with pytest.raises(RequestRefused) as e:
        session.take("\n".join(post))
    assert e.value.refusal.line == len(first) + repeated + 1 and "given already" in e.value.refusal.message
    assert session.accepted == [] and session.game.hand_number == 0

    rec, _, refused = recorder(record)
    for text in post:
        rec.feed_line(text)
    assert refused and all("given already" in r for r in refused)  # (each of hand 2's lines: not a pipe, it goes on)
    assert rec.game.record().hands == () or rec.game.record().hands[0].deal == record.hands[0].deal

    run, _, head = piped(tmp_path, record, post)
    assert run.code != 0 and f"line {head + len(first) + repeated + 1}:" in run.err, run.err

    # A line sent again on its own replaces the one before (request by request), and the game goes on.
    again = Session(template(record))
    parts, line, rest = deal_first(texts)
    for text in parts:
        again.take(text)
    again.take(next(t for t in parts if t.startswith("deal")))
    for text in [line, *rest]:
        again.take(text)
    assert deals(again.record()) == deals(record)


def test_a_file_continued_before_its_hands_first_move_keeps_its_deal(tmp_path):
    """A file saved with hand 1's deal and no move yet, continued: its ``hand 1`` line is that
    hand, the deal kept (the recorder that continues it never saw the deal lines)."""
    record = simulated(CONFIGS[0])
    parts, line, rest = deal_first(typed(record))
    run, out, _ = piped(tmp_path, record, parts)
    assert run.code == 0, run.err
    said: list[str] = []
    refused: list[str] = []
    rec = Recorder.resume(out, say=said.append, refuse_out=refused.append)
    assert rec.game.in_hand and rec.game.deal_known
    for text in [line, *rest]:
        rec.feed_line(text)
    rec.finish()
    assert refused == [] and deals(rec.game.record()) == deals(record)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_validate_places_a_refused_lead_at_its_seat(config):
    """``domrec validate`` of a .dgn whose ``hand N lead X`` the rules refuse (the deal typed
    after it, or the rotation): the problem is at that line and the column of ``X`` (with
    ``--json``, its pointer ``/hands/N-1/leader``), not at the hand line's first column, where
    the old reader placed it."""
    from domrec.notation import read_games

    record = simulated(config)
    texts = typed(record)
    checked = 0
    for number in (1, 2):
        if len(record.hands) < number:
            continue
        start, end = hand_span(texts, number)
        for seat in wrong_leads(record, number):
            bad = f"hand {number}  lead\t{seat}"
            lines = [*texts[:start], bad, *texts[start + 1:]]  # (DGN: the deal after the hand line)
            head = header(record) + "\n\n"
            game, = read_games(head + "\n".join(lines) + "\n", "t.dgn")
            problem = game.report.problems[0]
            line = head.count("\n") + lines.index(bad) + 1
            assert problem.pointer == f"/hands/{number - 1}/leader", problem.text()
            assert (problem.line, problem.column) == (line, len(bad) - len(seat) + 1), problem.text()
            checked += 1
    if config[0] in ("competitive", "broadway") or config[:2] == ("domino-roads", 4):
        assert checked

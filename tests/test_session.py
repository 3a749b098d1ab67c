"""A game recorded request by request (domrec.session, under the venue's table pages): every
game and option set, whole texts or a word at a time, with or without the deal; a request is
taken whole or not at all, its refusal names line:column, and the accepted requests replay."""

from __future__ import annotations

import re

import attrs
import pytest
from hypothesis import given, settings, strategies as st

from domrec import notation
from domrec.record import Record
from domrec.session import MAX_REQUEST_LINES, RequestRefused, Session, since
from domrec.validate import validate

from tests.conftest import CONFIGS, IDS, examples, first_of_each_game
from tests import simulated as made_once  # (the same games as domrec.simulate's, made once a process)

PARTS = ("hand", "deal", "row", "boneyard", "pile", "leaddraw", "redeal", "left", "end")


#: The games simulated in this module's process, by (configuration, seed): most tests of every
#: configuration ask for the same few, which were simulated again at each (a tenth of the module's
#: time).  A record is frozen: each test reads it, none changes it.
_GAMES: dict[tuple[str, int], Record] = {}


def _game(config, seed: int) -> Record:
    key = (repr(config), seed)
    if key not in _GAMES:
        game, players, options, variant = config
        _GAMES[key] = next(made_once.simulate(game, 1, seed, players, options, variant, accidents=False))
    return _GAMES[key]


def _template(record: Record) -> Record:
    return attrs.evolve(record, hands=(), result=None)


def _body(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("[")]


def _requests(text: str) -> list[str]:
    """A typed text as a scorer taps it: a hand part line whole, each move on its own."""
    out = []
    for line in _body(text):
        out.extend([line] if line.split()[0] in PARTS else line.split())
    return out


def _seated_requests(record: Record) -> list[str]:
    """The game typed without its deal, a request a move, a seat written before its move kept
    with the move (one request, as the page sends it)."""
    requests: list[str] = []
    for text in _requests(notation.dumps_typed(record, keep_deal=False)):
        if requests and requests[-1] in record.seats:
            requests[-1] += " " + text
        else:
            requests.append(text)
    return requests


def _same_game(session: Session, record: Record) -> None:
    if session.game.in_hand:
        session.take("y")  # close the last hand, as the page's button does
    mine, theirs = validate(session.record()), validate(record)
    assert mine.status == theirs.status == "valid", [p.text() for p in mine.problems]
    assert mine.scores == theirs.scores
    assert len(session.record().hands) == len(record.hands)
    assert session.over


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_whole_text_in_one_request(config):
    record = _game(config, 1)
    session = Session(_template(record))
    session.take("\n".join(_body(notation.dumps(record))))
    _same_game(session, record)


@settings(max_examples=examples(12, 40))  # (pytest --long: 40)
@given(k=st.integers(0, len(CONFIGS) - 1), seed=st.integers(0, 10_000), keep_deal=st.booleans())
def test_tapped_a_move_at_a_time_gives_the_same_game(k, seed, keep_deal):
    """Every engine through the one recorder: the typed form (forced passes left out, with the
    deal or with the tiles left at each hand's end), one request a move."""
    record = _game(CONFIGS[k], seed)
    session = Session(_template(record))
    for text in _requests(notation.dumps_typed(record, keep_deal=keep_deal)):
        session.take(text)
    _same_game(session, record)
    again = Session(_template(record), session.accepted)  # what the venue stores replays
    assert notation.dumps(again.record()) == notation.dumps(session.record())


def _competitive() -> tuple[Record, Session]:
    record = _game(CONFIGS[0], 4)
    session = Session(_template(record))
    for text in _requests(notation.dumps_typed(record, keep_deal=True)):
        if text.split()[0] not in PARTS:
            break
        session.take(text)  # the hand line, the lead draw, the deal seat by seat
    return record, session


def test_a_refused_request_takes_nothing_and_names_line_and_column():
    record, session = _competitive()
    legal = session.legal()
    assert legal and all(m["seat"] == session.game.to_move for m in legal)
    before = notation.dumps(session.record())
    accepted = list(session.accepted)
    probe = Session(session.template, session.accepted)
    probe.take(legal[0]["text"])
    seat = probe.game.to_move  # who moves after the first move: given a tile somebody else holds
    other = next(t for s, ts in probe.game.state.holdings().items() if s != seat for t in ts)
    text = f"{legal[0]['text']}\n  {seat} {other}"
    with pytest.raises(RequestRefused) as e:
        session.take(text)
    refusal = e.value.refusal
    assert (refusal.line, refusal.column) == (2, 3 + len(seat) + 1)
    assert f"{seat} does not hold {other}" in refusal.message
    assert notation.dumps(session.record()) == before and session.accepted == accepted
    session.take(legal[0]["text"])  # and the table goes on from where it was
    assert notation.dumps(session.record()) == notation.dumps(probe.record())


def test_undo_is_a_request_and_replays():
    record, session = _competitive()
    first = session.legal()[0]["text"]
    session.take(first)
    session.take("undo")
    assert session.game.moves == ()
    replayed = Session(session.template, session.accepted)
    assert replayed.game.moves == () and replayed.accepted == session.accepted


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_refused_request_after_undos_keeps_what_the_undos_took_back(config):
    """Found by fuzzing a table: at a hand's end, two undos, then a request refused. A refusal goes
    back to the accepted requests replayed; the replay once read ``undo`` as one move back where
    the table's undo also takes the forced passes after it, so the refusal brought back moves the
    undos had taken away, and the stored requests then no longer replayed at all.  Tried at the
    end of the first three hands of a game typed without its deal."""
    record = _game(config, 0)
    requests = _requests(notation.dumps_typed(record, keep_deal=False))
    for i in [k for k, text in enumerate(requests) if text.split()[0] == "left"][:3]:
        session = Session(_template(record), requests[:i + 1])
        for _ in range(2):
            session.take("undo")
        shown = notation.dumps(session.record())
        with pytest.raises(RequestRefused):
            session.take("6-6 6-6")
        assert notation.dumps(session.record()) == shown
        for text in requests[i - 2:i + 3]:  # the table types again what it took back (some of it is refused), and plays on
            try:
                session.take(text)
            except RequestRefused:
                pass
        assert notation.dumps(Session(_template(record), session.accepted).record()) == notation.dumps(session.record())


@pytest.mark.parametrize("keep_deal", [False, True], ids=["no-deal", "deal"])
@pytest.mark.parametrize("config", first_of_each_game())
def test_a_refusal_leaves_the_table_as_it_was_made_from_the_last_hands_close(config, keep_deal):
    """A refused request makes the table again from the requests accepted, from the last hand's
    close that left nothing waiting (a copy of the table kept then), not from the first request:
    after each refusal (one every few requests, and one after each undo that opens a closed hand
    again) the table is what it was, and what a session made afresh from the same requests shows.
    The first three hands of a game typed a move at a time."""
    record = _game(config, 5)
    requests = _requests(notation.dumps_typed(record, keep_deal=keep_deal))
    ends = [k for k, text in enumerate(requests) if text.split()[0] == "end"]
    requests = requests[:ends[2] + 1] if len(ends) > 2 else requests
    session = Session(_template(record))
    bases = set()
    for k, text in enumerate(requests):
        session.take(text)
        if session._base is not None:
            bases.add(session._base[0])
        if k % 5 == 4 or k in ends:
            shown = session.state()
            with pytest.raises(RequestRefused):
                session.take("9-9 9-9")
            assert session.state() == shown, k
        if k in ends and not session.over:  # the hand opened again by an undo, its close behind it
            opened = Session(_template(record), session.accepted)
            opened.take("undo")
            shown = opened.state()
            with pytest.raises(RequestRefused):
                opened.take("9-9 9-9")
            assert opened.state() == shown == Session(_template(record), opened.accepted).state(), k
    assert bases and session._base is not None  # (the hands' closes were kept, and refusals went on from them)
    fresh = Session(_template(record), session.accepted)
    assert fresh.state() == session.state()
    assert notation.dumps(fresh.record()) == notation.dumps(session.record())


@pytest.mark.parametrize("text,words", [
    ("", "empty"),
    ("quit", "quit is for the terminal"),
    ("6-6 {a comment", "not closed"),
    ("hand 3", "the next hand is hand 1"),
])
def test_refusals_are_one_line_in_the_recorders_words(text, words):
    record = _game(CONFIGS[0], 4)
    session = Session(_template(record))
    with pytest.raises(RequestRefused) as e:
        session.take(text)
    assert words in e.value.refusal.message and "\n" not in e.value.refusal.text()
    assert session.accepted == []


def test_a_request_has_a_bounded_number_of_lines():
    session = Session(_template(_game(CONFIGS[0], 4)))
    with pytest.raises(RequestRefused) as e:
        session.take("\n" * MAX_REQUEST_LINES + "hand 1")
    assert e.value.refusal.line == MAX_REQUEST_LINES + 1


def test_a_request_has_a_bounded_number_of_characters():
    """A request of more than MAX_REQUEST_CHARS characters (20,000) is refused unread, at the line and column
    of the first character past the bound, nothing taken: reading costs time in proportion to the
    text, and the venue judges one table's request at a time (a post of 60 KB of passes on one line
    held every table for seconds).  A request of exactly that many is read as any other."""
    limit = 20_000  # (domrec.session.MAX_REQUEST_CHARS)
    session = Session(_template(_game(CONFIGS[0], 4)))
    for text, where in (("- " * limit, (1, limit + 1)),
                        ("{x}\n" * 4999 + "[" * limit, (5000, limit - 4 * 4999 + 1))):
        with pytest.raises(RequestRefused) as e:
            session.take(text)
        refusal = e.value.refusal
        assert (refusal.line, refusal.column) == where
        assert refusal.message == f"a request holds at most {limit} characters: send the rest in another"
        assert session.accepted == []
    from domrec import phrases

    assert phrases.translate(refusal.text(), "es").endswith("una petición tiene como máximo 20000 caracteres: envíe "
                                                               "el resto en otra")
    comment = "{" + "a" * (limit - 2) + "}"
    session.take(comment)  # (a comment alone: taken, at the bound)
    assert session.accepted == [comment]


#: Each game's deal rule, as the Spanish catalog names it.
ES_DEAL_RULE = {"competitive": "competitivo: el reparto", "horse-race": "Horse Race: el reparto",
                "broadway": "Broadway: partida (el reparto)", "castle-rock": "Castle Rock: el reparto"}


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_deal_line_with_a_tile_not_of_the_set_or_dealt_twice_is_refused_at_the_tile(config):
    """A deal line was taken whatever tiles it named (``deal N 9-9`` in a double-six game, ``6-6``
    twice): the deal was checked only once every seat's line was in, at the hand's first move,
    and then said "the deal has nothing for seat S".  What a part line shows with the parts
    before it is now refused at once, at the tile, in the words a validation gives: a tile not
    of the game's set, a tile dealt twice (in the line, or to a seat, the boneyard or the row
    before it), nothing taken.  Domino Roads' set holds tiles twice: its deal is counted when the
    hand starts, as before."""
    from domrec import phrases

    record = _game(config, 4)
    session = Session(_template(record))
    first, second = record.seats[0], record.seats[1]
    top = max(t.high for t in session.game.tile_set())
    wrong = f"{top + 1}-{top + 1}"
    if config[0] == "domino-roads":
        session.take(f"hand 1\ndeal {first} {wrong} 6-6 6-6")  # (taken: said at the hand's start)
        return
    with pytest.raises(RequestRefused) as e:
        session.take(f"hand 1\ndeal {first} 1-0 {wrong}")
    name = {6: "double-six", 9: "double-nine", 12: "double-twelve"}[top]
    # (the game's own deal rule, the one a validation names for the same slip)
    rule = {"competitive": "competitive: the deal", "horse-race": "horse-race: the deal",
            "broadway": "broadway: game (the deal)", "castle-rock": "castle-rock: the deal"}[config[0]]
    assert e.value.refusal.text() == (f"2:{len(first) + 11}: hand 1: {wrong} is not a tile of the {name} set "
                                      f"[{rule}]")
    assert session.accepted == []
    with pytest.raises(RequestRefused) as e:
        session.take(f"hand 1\ndeal {first} 6-6 1-0 6-6")
    assert e.value.refusal.text() == (f"2:{len(first) + 15}: hand 1: 6-6 is dealt twice ({first} has it twice); "
                                      f"the set has one of each tile [{rule}]")
    session.take(f"hand 1\ndeal {first} 6-6 1-0")
    with pytest.raises(RequestRefused) as e:
        session.take(f"deal {second} 2-2 0-1")  # (1-0 written the other way round)
    assert e.value.refusal.text() == (f"1:{len(second) + 11}: hand 1: 0-1 is dealt twice ({first} has it too); the "
                                      f"set has one of each tile [{rule}]")
    assert phrases.translate(e.value.refusal.text(), "es").endswith(
        f"mano 1: 0-1 se reparte dos veces ({first} también la tiene); el juego tiene una ficha de cada "
        f"[{ES_DEAL_RULE[config[0]]}]")
    session.take(f"deal {first} 6-5 1-1")  # (the seat's line typed again replaces it: 1-0 is free again)
    session.take(f"deal {second} 2-2 0-1")


def test_a_games_requests_are_bounded_in_characters_and_in_number(monkeypatch):
    """A phone sending comment after comment made each new request (read with the rest of its hand
    whole where the line by line reading cannot place it) and each replay of the table slower
    without end, every table of the venue waiting, and its log grew by a gigabyte an hour.  A new
    request that would take the game past MAX_GAME_CHARS (100,000) characters, or past
    MAX_GAME_REQUESTS requests, is refused (``room_for``), nothing taken, in English and Spanish;
    a game accepted before the bound still replays as it was."""
    from domrec import phrases, session as sessions

    session = Session(_template(_game(CONFIGS[0], 4)))
    comment = "{" + "a" * 19_998 + "}"
    for _ in range(5):  # 100,000 characters: at the bound, taken
        session.room_for(comment)
        session.take(comment)
    with pytest.raises(RequestRefused) as e:
        session.room_for("{b}")
    said = ("this table's game has been sent the most text a game may be sent (100000 characters in 10000 "
            "requests at most): call the director, who can correct the game as a whole")
    assert (e.value.refusal.line, e.value.refusal.column, e.value.refusal.message) == (1, 1, said)
    assert phrases.translate(e.value.refusal.text(), "es").endswith(
        "esta mesa ya ha enviado todo el texto que admite una partida (como máximo 100000 caracteres en 10000 "
        "peticiones): llame al director, que puede corregir la partida entera")
    assert len(session.accepted) == 5
    again = Session(session.template, [*session.accepted, "{b}"])  # (a log past the bound replays)
    assert len(again.accepted) == 6
    monkeypatch.setattr(sessions, "MAX_GAME_REQUESTS", 2)
    few = Session(session.template)
    for text in ("{a}", "{b}"):
        few.room_for(text)
        few.take(text)
    with pytest.raises(RequestRefused):
        few.room_for("{c}")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_state_a_page_shows(config):
    record = _game(config, 2)
    session = Session(_template(record))
    typed = _requests(notation.dumps_typed(record, keep_deal=True))
    for text in typed[:12]:
        session.take(text)
    state = session.state()
    assert state["game"] == record.game and state["seats"] == list(record.seats)
    assert state["players"] == {p.seat: p.name for p in record.players}
    assert set(state["totals"]) and state["hands"][0]["number"] == 1
    assert all(m["text"] and m["label"] for h in state["hands"] for m in h["moves"])
    if state["in_hand"] and state["deal_known"] and not state["hand_over"]:
        assert state["legal"], "the deal is known: the legal moves are listed"
        for move in state["legal"]:
            probe = Session(session.template, session.accepted)
            probe.take(move["text"])  # each listed move is taken as written


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] in ("competitive", "horse-race", "broadway")],
                         ids=[i for c, i in zip(CONFIGS, IDS) if c[0] in ("competitive", "horse-race", "broadway")])
def test_where_a_tile_may_go_without_the_deal_is_what_the_engine_accepts(config):
    """Each move of a game recorded without its deal: the options offered for its tile include the
    move as the game made it, and each option is taken as written."""
    record = _game(config, 3)
    session = Session(_template(record))
    offered = 0
    requests = _seated_requests(record)
    for text in requests:
        if text.startswith("hand ") and text.split()[1] != "1":
            break  # the first hand is enough: every kind of place a tile can go comes up in it
        if text.split()[0] in record.seats:
            session.take(text)  # a move the turn does not give: not offered
            continue
        word = text.split()[-1] if text.split()[0] not in PARTS else ""
        tile = word.split("@")[0].lstrip("*!+") if word and word[0].isdigit() else ""
        if tile and session.game.to_move is not None and not session.game.hand_over:
            options = session.options(tile)
            if options:
                offered += 1
                assert len({o["text"] for o in options}) == len(options)
                for option in options:
                    Session(session.template, session.accepted).take(option["text"])
        session.take(text)
    assert offered


_LISTED = [c for c in CONFIGS if c[0] in ("castle-rock", "domino-roads")]


@pytest.mark.parametrize("config", _LISTED, ids=[i for c, i in zip(CONFIGS, IDS) if c in _LISTED])
def test_without_the_deal_the_possible_moves_hold_every_move_made(config):
    """Castle Rock and Domino Roads without their deal: before each move of a whole game, the
    moves the page offers (captures, draws, dice, places of any tile the mover may hold) include
    the move the game made, with its seat; each offer is taken as written (the first hand's)."""
    record = _game(config, 5)
    session = Session(_template(record))
    requests = _seated_requests(record)
    checked = 0
    for text in requests:
        if text.split()[0] not in PARTS and text != "y" and session.game.in_hand:
            offered = {m["text"] for m in session.state()["legal"]}
            if text.split()[0] in record.seats:
                assert text in offered, (text, sorted(offered)[:12])
            else:
                assert any(o.split(" ", 1)[1] == text for o in offered), (text, sorted(offered)[:12])
            if checked < 40:  # every offer is a move the engine takes as written
                for option in sorted(offered)[:8]:
                    Session(session.template, session.accepted).take(option)
            checked += 1
        session.take(text)
    assert checked
    _same_game(session, record)


@pytest.mark.parametrize("keep_deal", [True, False], ids=["deal", "no-deal"])
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_an_announced_hand_read_again_and_again_shows_what_a_fresh_session_shows(config, keep_deal):
    """Between ``hand N`` and its first move the page offers that move from a started copy,
    made once and kept while the accepted requests stay the same: reading the state and asking
    where tiles may go (each place tried and taken back on the copy) many times changes nothing,
    and a request taken afterwards (or undone) is shown as a session made afresh shows it."""
    record = _game(config, 3)
    session = Session(_template(record))
    typed = _requests(notation.dumps_typed(record, keep_deal=keep_deal))
    announced = [k for k, text in enumerate(typed) if text.startswith("hand ") and k > 0]
    if not announced:
        pytest.skip("a one-hand game: no hand announced after a closed one")
    k = announced[0]
    for text in typed[:k + 1]:
        session.take(text)
    fresh = Session(session.template, session.accepted)
    first = session.state()
    for _ in range(3):
        for tile in first["tiles"][:6]:
            assert session.options(tile) == fresh.options(tile)
        assert session.state() == fresh.state() == first
    following = typed[k + 1] if k + 1 < len(typed) else None
    if following is not None:
        session.take(following)
        assert session.state() == Session(session.template, session.accepted).state()
        session.take("undo")
        assert session.state() == Session(session.template, session.accepted).state()


def test_a_refused_look_at_the_table_is_refused_not_read_whole_without_it():
    """A line that leaves a choice may be settled by reading the text whole; ``y`` with no hand
    result to confirm is no such line: it stays refused (read whole, it would simply be dropped)."""
    import attrs

    from domrec.session import RequestRefused, Session
    from domrec.simulate import simulate

    record = list(simulate("competitive", 1, 1))[0]
    session = Session(attrs.evolve(record, hands=(), result=None))
    session.take("hand 1 lead N")
    for text in ("y", "legal"):
        with pytest.raises(RequestRefused):
            session.take(text)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("keep_deal", [True, False], ids=["deal", "no-deal"])
def test_the_state_is_made_once_a_change_and_is_what_a_fresh_session_shows(config, keep_deal, monkeypatch):
    """A table's page is read many times between two moves: the state is made again only when a
    request is taken (or refused, the game made again), and at every point it is what a session
    made afresh from the same requests shows; changing the answer a reader got changes nothing."""
    record = _game(config, 4)
    session = Session(_template(record))
    typed = _requests(notation.dumps_typed(record, keep_deal=keep_deal))
    made = []
    real = Session._state

    def counted(self):
        made.append(1)
        return real(self)

    monkeypatch.setattr(Session, "_state", counted)
    for k, text in enumerate(typed[:40]):
        session.take(text)
        before = len(made)
        first = session.state()
        first["hands"] = None  # a reader's own copy: the next reader gets the state whole
        again = session.state()
        assert len(made) == before + 1
        if k == 10:
            with pytest.raises(RequestRefused):
                session.take("quit")
            assert session.state() == again and len(made) == before + 2  # made again after a refusal
        assert again == Session(session.template, session.accepted).state()
        assert [h["number"] for h in again["hands"]] == list(range(1, len(session.record().hands) + 1))


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_games_hands_are_the_records(config):
    record = _game(config, 5)
    session = Session(_template(record))
    for text in _requests(notation.dumps_typed(record, keep_deal=True))[:30]:
        session.take(text)
        assert session.game.hands() == session.game.record().hands


def _page_merge(held: dict | None, sent: dict) -> dict:
    """What the table's page does with a state sent without the hands it held (table.js whole)."""
    if "hands_from" not in sent:
        return sent
    n = sent["hands_from"]
    assert held is not None and n <= len(held["hands_keys"])
    out = {k: v for k, v in sent.items() if k != "hands_from"}
    out["hands"] = held["hands"][:n] + sent["hands"]
    out["hands_keys"] = held["hands_keys"][:n] + sent["hands_keys"]
    return out


def _known(held: dict | None) -> str | None:
    keys = held["hands_keys"] if held else []
    return f"{keys[-1]}.{len(keys)}" if keys else None


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_page_sent_only_the_hands_it_lacks_holds_the_whole_state(config):
    """A page that sends back the key of the closed hands it holds gets only the hands after
    them; put together, what it holds is the whole state at every request, undo and refusal of
    the game; a key it does not hold (an undo took a closed hand back, a tampered key, a count too
    large) gets the whole state; the same hands give the same keys in a session made afresh."""
    record = _game(config, 7)
    session = Session(_template(record))
    typed = _requests(notation.dumps_typed(record, keep_deal=True))
    held = None
    trimmed = 0
    for k, text in enumerate(typed):
        session.take(text)
        closed_by_it = text.split()[0] not in PARTS and not session.game.in_hand and session.game.hands()
        if closed_by_it and k % 3 == 0:
            session.take("undo")  # takes the closing move back: the last closed hand reopens
            full = session.state()
            sent = since(full, _known(held))
            assert "hands_from" not in sent or sent["hands_from"] <= len(full["hands_keys"])
            held = _page_merge(held, sent)
            assert held == full
            session.take(text)
        full = session.state()
        sent = since(full, _known(held))
        mine = held["hands_keys"] if held else []
        # Left out exactly when the page's last closed hand is, by its key, the game's there.
        assert ("hands_from" in sent) == bool(mine and len(full["hands_keys"]) >= len(mine)
                                               and full["hands_keys"][len(mine) - 1] == mine[-1])
        trimmed += "hands_from" in sent
        held = _page_merge(held, sent)
        assert held == full
        assert len(full["hands_keys"]) == len(full["hands"]) - (1 if full["in_hand"] else 0)
    assert trimmed > 0 or len(record.hands) == 1
    assert Session(session.template, session.accepted).state()["hands_keys"] == held["hands_keys"]
    keys = held["hands_keys"]
    assert since(held, f"{keys[-1]}.{len(keys)}")["hands"] == held["hands"][len(keys):]
    for wrong in (f"{keys[0]}.{len(keys)}", f"{keys[-1]}.{len(keys) + 1}", f"{'0' * 16}.1", f"{keys[0]}.0",
                  "x", ".", f"{keys[0]}.-1", f"{keys[0]}.１", None, ""):
        if wrong == f"{keys[0]}.{len(keys)}" and len(keys) == 1:
            continue
        assert since(held, wrong) is held


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("keep_deal", [True, False], ids=["deal", "no-deal"])
def test_offers_kept_by_move_are_a_fresh_sessions_after_undos(config, keep_deal):
    """Each legal move's offer is made once and kept by the move (a frozen value): after an undo
    takes moves back and the table types them again, the page is offered what a session made
    afresh from the same requests offers (its moves, its words, where they go)."""
    record = _game(config, 6)
    session = Session(_template(record))
    for k, text in enumerate(_requests(notation.dumps_typed(record, keep_deal=keep_deal))[:36]):
        session.take(text)
        if k % 5 == 4 and text.split()[0] not in PARTS:  # a move taken back, and typed again
            session.take("undo")
            fresh = Session(session.template, session.accepted).state()
            assert (session.state()["legal"], session.state()["plain"]) == (fresh["legal"], fresh["plain"])
            try:
                session.take(text)
            except RequestRefused:  # the undo took more than the move (a turn's dice, forced passes)
                break
        fresh = Session(session.template, session.accepted).state()
        assert (session.state()["legal"], session.state()["plain"]) == (fresh["legal"], fresh["plain"])


#: The seeds of :func:`test_undo_after_the_last_hand_leaves_a_game_in_play_not_over` in the default
#: run: for each configuration whose last hand may end before its optional last capture (Castle
#: Rock), the first seed among 0-11 where the undo leaves the moves reaching the hand's end
#: (``hand_over``) and the first where they do not, with the deal and without it alike; seed 0
#: elsewhere (no other configuration, Broadway included, has a hand over after the undo in seeds
#: 0-11).  The other seeds of 0-11 are the same paths again: ``pytest --long`` runs them
#: (:func:`test_undo_after_the_last_hand_more_seeds`).
UNDO_SEEDS = {"castle-rock-2-std": (0, 3), "castle-rock-3-std": (0, 2), "castle-rock-4-std": (0, 2),
              "castle-rock-5-std": (0, 3), "castle-rock-6-std": (0, 1), "castle-rock-4-set=double-nine": (0, 2),
              "castle-rock-6-set=double-twelve": (0, 3), "castle-rock-3-start_tiles=3": (0, 5)}


def _undo_after_the_last_hand(config, keep_deal: bool, seed: int) -> bool:
    """The game of ``config`` and ``seed`` typed whole, its last hand reopened by an undo; whether
    the moves left reach that hand's end (``hand_over``)."""
    record = _game(config, seed)
    session = Session(_template(record))
    for text in _requests(notation.dumps_typed(record, keep_deal=keep_deal)):
        session.take(text)
    if session.game.in_hand:
        session.take("y")
    assert session.over
    session.take("undo")
    game = session.game
    assert game.in_hand
    assert not session.over and game.winner is None, (seed, game.hand_over)
    state = session.state()
    assert state["in_hand"] and not state["over"] and state["winner"] is None
    # as the same moves made one by one leave it
    again = Session(_template(record), session.accepted)
    assert (again.over, again.game.totals) == (session.over, game.totals)
    return game.hand_over


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("keep_deal", [True, False], ids=["deal", "left"])
def test_undo_after_the_last_hand_leaves_a_game_in_play_not_over(config, keep_deal):
    """An undo after the game's last hand closed reopens that hand, its last move taken back: a
    hand is in play, so the game is not over (nor won), whether or not the moves left reach the
    hand's end (a Castle Rock or Broadway hand may end before its optional last capture).  The
    Game made again from its record had replayed the reopened hand to its end and took the
    match that replay finished, so the game read as over with a hand in play; the table's page
    then asked to confirm a game still being played (found by random table sessions).  The
    default run takes the seeds of :data:`UNDO_SEEDS`; ``pytest --long`` the rest of 0-11."""
    seeds = UNDO_SEEDS.get(IDS[CONFIGS.index(config)], (0,))
    over = [_undo_after_the_last_hand(config, keep_deal, seed) for seed in seeds]
    if len(seeds) > 1:  # both ways round: a hand in play whose moves reach its end, and one whose do not
        assert sorted(over) == [False, True], f"seeds {seeds} no longer give both: choose UNDO_SEEDS again ({over})"


@pytest.mark.long
@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
@pytest.mark.parametrize("keep_deal", [True, False], ids=["deal", "left"])
def test_undo_after_the_last_hand_more_seeds(config, keep_deal):
    default = UNDO_SEEDS.get(IDS[CONFIGS.index(config)], (0,))
    for seed in range(12):
        if seed not in default:
            _undo_after_the_last_hand(config, keep_deal, seed)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_undo_takes_back_a_typed_hand_line_before_the_hand_before(config):
    """Hand 1 closed, *Start hand 2* (its hand line), hand 2's first move, then two undos: the
    first takes back the move, the second the hand line, and the game is as hand 1 left it.  A
    hand line without a lead or a deal (a game whose lead the rules give) was skipped as if the
    first move had started the hand: the second undo took back the last move of hand 1 with its
    ``left`` line and its close, and the table had to type them again (found at the venue)."""
    record = _game(config, 4)
    requests = _requests(notation.dumps_typed(record, keep_deal=False))
    session = Session(_template(record))
    k = 0
    while not (requests[k].split()[0] == "hand" and session.record().hands):
        session.take(requests[k])
        k += 1
    if session.game.in_hand:
        session.take("y")
    closed = notation.dumps(session.record())
    line = requests[k]  # the hand line: as the page's Start hand 2 sends it, without the lead where the rules give it
    k += 1
    for typed in (line.split(" lead ")[0], line):
        trial = Session(session.template, session.accepted)
        try:
            trial.take(typed)
            j = k
            while not (trial.game.in_hand and trial.game.moves):  # (what else of the hand was typed, its first move)
                trial.take(requests[j])
                j += 1
        except RequestRefused:
            continue  # (a lead the rules do not give: typed on the line)
        session = trial
        break
    assert session.game.hand_number == 2 and len(session.game.moves) == 1
    session.take("undo")
    assert session.game.in_hand and not session.game.moves
    said = session.take("undo")
    assert any("took back what was typed of hand 2" in x for x in said), said
    assert not session.game.in_hand and notation.dumps(session.record()) == closed
    said = session.take("undo")  # and then the last move of hand 1
    assert session.game.in_hand and session.game.hand_number == 1 and any("took back" in x for x in said), said


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_no_hand_after_a_hand_stopped_before_its_end(config):
    """A hand closed before it was over (``end`` typed mid-hand: kept as it is) is the game's last:
    a next hand, played or recorded by its score alone, is refused as a record's reader refuses
    it ("hand 1 is not over, so the next hand cannot start").  With hand 2 announced, then hand
    1 reopened by an undo and stopped, hand 2's score alone had been taken, and the table's lines
    view (which reads the game back as text) was then refused (found by random table sessions)."""
    record = _game(config, 2)
    session = Session(_template(record))
    for text in _requests(notation.dumps_typed(record, keep_deal=True)):
        if text.split()[0] == "hand" and session.record().hands:
            break
        session.take(text)
    if session.game.in_hand:
        session.take("y")
    session.take("hand 2")
    session.take("undo")  # hand 2's line (docs/recording.md: what was typed of a hand comes back first)
    assert not session.game.in_hand and session.game.hand_number == 1
    session.take("undo")  # then hand 1's last move
    while session.game.hand_over:  # (a hand may be over before its last, optional, capture)
        session.take("undo")
    session.take("end")
    assert not session.game.in_hand and not session.over
    assert session.state()["hands"][0]["result"] is None  # kept as it is, not over
    side = next(iter(session.game.totals))
    with pytest.raises(RequestRefused, match="end closes a hand being played"):
        session.take(f"end {side} 10")  # (no hand line: a claim for hand 1, which is not over)
    for text in ("hand 2", f"hand 2\nend {side} 10"):
        with pytest.raises(RequestRefused, match="hand 1 is not over, so the next hand cannot start"):
            session.take(text)
    assert len(session.record().hands) == 1


def test_a_blocked_hand_tapped_without_its_deal_is_closed_by_its_left_line():
    # Competitive, simulated seed 3, hand 1: tapped move by move without the deal, it ends with
    # both ends 6 and every six out: nobody can play, but the engine without the deal cannot know
    # it and offers N's pass.  The left line gives the deal: the hand is over (blocked), and is
    # closed at once, as at the terminal.  It was taken in silence and the hand left in play,
    # still offering N's pass, which was then refused ("N cannot lead this hand"), and its 44
    # points came only with the next hand.
    record = next(made_once.simulate("competitive", 1, 3))
    session = Session(attrs.evolve(record, hands=(), result=None))
    session.take("hand 1 lead W")
    for word in ("W 3-2|S 3-3@3-2|E 3-0@3-3|N 6-0@3-0|W 5-2@3-2|S 5-5@5-2|E 6-5@5-5|N 6-4@6-5|W 6-2@6-0|"
                 "S 4-4@6-4|E -|N 2-1@6-2|W 5-4@4-4|S 5-3@5-4|E 1-1@2-1|N 6-1@1-1|W -|S 6-3@5-3|E 6-6@6-3").split("|"):
        session.take(word)
    said = session.take("left N 4-3 4-2 5-1; E 1-0 3-1 5-0; S 4-1 0-0")
    assert said[0] == "hand 1 ends blocked: NS 0, EW 44", said
    state = session.state()
    assert not state["in_hand"] and state["totals"] == {"NS": 0, "EW": 44} and state["plain"] == []
    assert validate(attrs.evolve(record, hands=record.hands[:1], result=None)).scores == {"NS": 0, "EW": 44}


def test_a_broadway_domino_is_offered_once_with_every_placement_both_ways_round():
    # (Broadway, the deal entered: the engine lists 1-6 and 6-1 placements; the page groups its
    # buttons by tile, so one domino made two buttons, and options for it gave half its places)
    record = next(made_once.simulate("broadway", 1, 4))
    session = Session(attrs.evolve(record, hands=(), result=None))
    deal = record.hands[0].deal
    session.take("\n".join(["hand 1 lead E", *(f"deal {seat} " + " ".join(tiles) for seat, tiles in deal.hands.items()),
                            *(["boneyard " + " ".join(deal.boneyard)] if deal.boneyard else [])]))
    session.take("E 6-6@0,0")
    session.take("S 6-5@1,1")
    offers = session.state()["legal"]
    by_tile: dict[str, list[str]] = {}
    for m in offers:
        by_tile.setdefault(m["tile"], []).append(m["text"])
    assert "1-6" not in by_tile and len(by_tile["6-1"]) == 8, by_tile
    assert {w.split()[1].split("@")[0] for w in by_tile["6-1"]} == {"1-6", "6-1"}
    for asked in ("6-1", "1-6"):
        assert sorted(m["text"] for m in session.options(asked)) == sorted(by_tile["6-1"])
    session.take(next(w for w in by_tile["6-1"] if " 1-6@" in w))  # laid as 1-6: seen as the domino 6-1
    assert "6-1" in session.state()["seen"] and "1-6" not in session.state()["seen"]


def test_a_hands_start_is_said_once_when_its_boneyard_follows_its_deal():
    # (Horse Race: the last seat's deal line starts the hand; the boneyard line after it starts it
    # again with more: "hand 2, P2 to play" was said twice)
    record = next(made_once.simulate("horse-race", 1, 2, 3))
    session = Session(attrs.evolve(record, hands=(), result=None))
    lines = [line for line in notation.dumps(attrs.evolve(record, hands=record.hands[:2])).splitlines()
             if line and not line.startswith("[")]
    k = next(i for i, line in enumerate(lines) if line.startswith("hand 2"))
    session.take("\n".join(lines[:k]))
    if session.game.in_hand:
        session.take("y")
    session.take(lines[k].split(" lead")[0])
    parts = [line for line in lines[k + 1:] if line.split()[0] in ("deal", "boneyard")]
    assert parts[-1].startswith("boneyard")
    said = session.take("\n".join(parts))
    assert sum(s.startswith("hand 2,") for s in said) == 1, said



def _claim_raised(lines: list[str]) -> tuple[list[str], int, str]:
    """``lines`` with the last hand score their ``end`` lines claim raised by 5: the lines, the
    changed line's index, and the claim's new text."""
    k = max(i for i, line in enumerate(lines) if line.split()[0] == "end" and re.search(r"-?[0-9]+$", line))
    head, number = lines[k].rsplit(" ", 1)
    lines = [*lines[:k], f"{head} {int(number) + 5}", *lines[k + 1:]]
    return lines, k, str(int(number) + 5)


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_a_sheet_sent_whole_is_refused_where_validate_finds_its_fault(config):
    """A club's score sheet (no ends, no seats, each hand's scores) posted as one request, its
    last claimed score wrong: the table is pointed where ``domrec validate`` points in the same
    text, in its words, never at an earlier line the rest of the text settles (a tile that fits
    two ends, which the recorder alone cannot place)."""
    record = _game(config, 1)
    text = notation.dumps_typed(record, keep_deal=False, seats=False, ends=False, scores=True)
    tags = [line for line in text.splitlines() if line.startswith("[")]
    head = len(tags) + 1  # (the tags, then a blank line)
    lines, _, _ = _claim_raised(_body(text))
    (read,) = notation.read_games("\n".join([*tags, "", *lines]) + "\n", "<sheet>")
    first = read.report.problems[0]
    session = Session(_template(record))
    with pytest.raises(RequestRefused) as e:
        session.take("\n".join(lines))
    refusal = e.value.refusal
    assert refusal.line == first.line - head, (refusal.text(), first.text())
    if refusal.column == first.column:  # validate's words
        assert re.sub(r" at [0-9]+:[0-9]+", "", first.message).removeprefix(f"hand {first.hand}: ") in refusal.message
    else:  # the end line itself refused by the recorder, which checks its claim as it closes the hand
        assert re.fullmatch(r"end: \S+ scores -?[0-9]+ for hand [0-9]+, not -?[0-9]+ \[hand scoring\]",
                            refusal.message), refusal.text()
    assert not session.accepted


def test_a_sheet_sent_whole_names_the_claim_validate_refuses():
    """The case that showed it: Competitive, the recorder stopping at hand 1's 1-0 (it fits both
    ends, and the rest of the hand says which); validate reads hand 1 and refuses hand 9's claim."""
    record = next(made_once.simulate("competitive", 1, 1, accidents=False))
    lines, k, claim = _claim_raised(_body(notation.dumps_typed(record, keep_deal=False, seats=True, ends=False,
                                                               scores=True)))
    with pytest.raises(RequestRefused) as e:
        Session(_template(record)).take("\n".join(lines))
    refusal = e.value.refusal
    assert refusal.line == k + 1 and refusal.column == len(lines[k]) - len(claim) + 1, refusal.text()
    assert f"is claimed {claim} for hand" in refusal.message and "[hand scoring]" in refusal.message


@pytest.mark.parametrize("text", ["", "  ", "{}", "{ }", "{}\n{  }", " {} "])
def test_a_request_that_says_nothing_is_refused(text):
    """An empty comment was taken: nothing of the game changed, but the table's revision moved
    on, so any phone of the table could take back the other side's confirmation at will."""
    record = _game(CONFIGS[0], 1)
    session = Session(_template(record))
    with pytest.raises(RequestRefused, match="nothing to record: the request is empty"):
        session.take(text)
    assert not session.accepted
    session.take("hand 1 {a comment}")  # a comment that says something is taken
    assert session.accepted == ["hand 1 {a comment}"]


#: Hand lines that cannot be read, each somewhere past its first word.
_UNREADABLE = ("hand 1 lead Q", "hand 1 lead", "hand 1 follow N", "hand 1 lead N N", "hand x")


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_an_unreadable_hand_line_is_refused_where_validate_places_it(config):
    # The reader says where in the line it stopped (``lead Q``: at the Q); the table is pointed
    # there too, as ``domrec validate`` points in the same line, not at the line's start.
    record = _game(config, 1)
    tags = [line for line in notation.dumps(record).splitlines() if line.startswith("[")]
    for bad in _UNREADABLE:
        for pre in ("", "  "):
            (read,) = notation.read_games("\n".join([*tags, "", pre + bad]) + "\n", "<line>")
            first = read.report.problems[0]
            with pytest.raises(RequestRefused) as e:
                Session(_template(record)).take(pre + bad)
            refusal = e.value.refusal
            assert (refusal.line, refusal.column) == (1, first.column), (bad, refusal.text(), first.text())
            assert refusal.message == first.message, (refusal.text(), first.text())


@pytest.mark.parametrize("config", first_of_each_game())
@pytest.mark.parametrize("word", ["9-9", "x"], ids=["refused-move", "not-a-move"])
def test_a_line_refused_late_in_a_game_reads_again_only_the_hand_in_play(config, word, monkeypatch):
    """A refused line that leaves out a seat or an end is read with the rest of its hand whole, in
    case the rest settles it.  That reading went through the general reading for every hand of the
    game, because the hand in play (no end line yet) kept the whole text off the straight path:
    20 to 40 ms a refusal at the end of a long game, on the venue's one thread.  Now the closed
    hands are read straight and only the hand in play by the general reading; the refusal, and
    the game taken afterwards, are as before."""
    from domrec.notation import through_game
    from domrec.session import requests_for

    record = next(r for seed in range(1, 40)
                  if len((r := _game(config, seed)).hands) >= 3 and len(r.hands[-1].moves) >= 3)
    typed = requests_for(record)
    last = max(k for k, text in enumerate(typed) if text.startswith("hand "))
    first_move = next(k for k in range(last + 1, len(typed)) if typed[k].split()[0] not in PARTS)
    session = Session(_template(record))
    for text in typed[:first_move + 1]:
        session.take(text)
    read: list[int] = []
    original = through_game._read_hand
    monkeypatch.setattr(through_game, "_read_hand", lambda *a, **k: read.append(1) or original(*a, **k))
    try:
        session.take(word)
    except RequestRefused as e:
        assert e.refusal.line == 1 and word in e.refusal.text()
    else:  # (a double-nine set's 9-9, held by the player to move)
        pytest.skip(f"{word} is a legal move here")
    assert len(read) <= 1, f"the general reading read {len(read)} hands of {len(record.hands)}"
    monkeypatch.undo()
    for text in typed[first_move + 1:]:
        session.take(text)
    _same_game(session, record)


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] == "competitive"],
                         ids=[i for c, i in zip(CONFIGS, IDS) if c[0] == "competitive"])
def test_a_score_sheet_typed_move_by_move_feeds_again_only_the_hand_in_play(config, monkeypatch):
    """A hand read whole at each request (a Competitive score sheet typed without ends or seats,
    move by move: a tile that fits both ends is read with the rest of its hand) was fed again
    into a fresh recorder from the game's first line at each request: the closed hands fed again
    and again (about 12 ms a move late in a 17-hand game).  Now the recorder kept at the last
    hand's close takes the hand's lines alone, and the game is the same as before.  (The other
    games' sheets are read line by line, or wait for a hand's end line, in these games.)"""
    from domrec.recorder import Recorder

    record = next(r for seed in range(1, 40) if len((r := _game(config, seed)).hands) >= 3)
    typed = _requests(notation.dumps_typed(record, keep_deal=False, seats=False, ends=False))
    session = Session(_template(record))
    fed: list[int] = []
    original = Recorder.feed_line
    monkeypatch.setattr(Recorder, "feed_line", lambda self, line: fed.append(1) or original(self, line))
    most = 0
    for text in typed:
        before = len(fed)
        try:
            session.take(text)
        except RequestRefused as e:  # (a sheet whose readings part waits for its end line, as validate asks)
            assert "end line" in e.refusal.message or "leaves" in e.refusal.message, e.refusal.text()
            return
        if session.game.hand_number > 2:
            most = max(most, len(fed) - before)
    canonical = [line for line in notation.dumps(record).splitlines() if line and not line.startswith("[")]
    assert most < len(canonical) // 2, (most, len(canonical))
    _same_game(session, record)


@pytest.mark.parametrize(("typed", "kept"), [(" {a} { } {b}", "a\n \nb"), (" {a} {b}", "a\nb")],
                         ids=["blank-between", "two"])
def test_comments_on_a_move_of_a_sheet_read_whole_are_kept_and_the_sheet_goes_on(typed, kept, monkeypatch):
    """The comments typed on one move are kept as one comment, joined by line breaks, which the
    canonical text writes across lines.  Fed again line by line to make the table's recorder
    after a hand read whole, such a comment was refused as not closed: the hand was no longer read
    whole, and a later tile that fits both ends was refused ("say which it is played on"); with a
    blank line in the comment, the feed from the recorder kept at the last hand's close even
    raised IndexError.  Now the sheet is taken to its end, the comment kept as typed."""
    record = next(r for seed in range(1, 40) if len((r := _game(CONFIGS[0], seed)).hands) >= 3)
    sheet = _requests(notation.dumps_typed(record, keep_deal=False, seats=False, ends=False))
    k = next(k for k, t in enumerate(sheet) if t.startswith("hand 2")) + 4
    session = Session(_template(record))
    for text in [*sheet[:k], sheet[k] + typed, *sheet[k + 1:]]:
        session.take(text)
    _same_game(session, record)
    comments = [m.comment for h in session.record().hands for m in h.moves if m.comment is not None]
    assert comments == [kept]

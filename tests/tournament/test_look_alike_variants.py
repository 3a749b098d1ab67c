"""Issue 35, point 6: look-alike names that still passed (``A  na`` beside ``Ana``, ``Player１``
beside ``Player1``, ``꒮na`` beside ``Ana``), and the properties the rule keeps: whatever name is
accepted, its variants with more spaces, full-width forms, letters drawn alike or letters of
another script planted in it are refused, naming it; ordinary names that differ by a letter, an
accent or case are all entered (docs/tournament.md, "Players")."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, strategies as st
from typer.testing import CliRunner

from tournament import add_pairs, add_players, create_event, make_settings, open_event
from tournament.cli import app
from tournament.errors import PlayerInputError, Refused
from tournament.event import roster
from tournament.names import LookAlikes, _prototypes, name_key, script, stands_in

runner = CliRunner()

#: The letters of the ordinary names generated: Latin, with the accents of a Spanish club, and
#: without the few that Unicode draws like another (I and l, 0 and O, m and rn).
LETTERS = "abcdefghijknopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZáéíóúñüç"
SPACES = [" ", "\u00a0", "\u2003", "\u202f", "\u3000"]  # space, no-break, em, narrow no-break, ideographic
#: Letters of other scripts, none of them drawn like a Latin letter by Unicode's table: planted in
#: a Latin name, each makes it a look-alike of the name it copies.
PLANTED = ["\ua4ae", "\u0416", "\u03a9", "\u05e9", "\u10d0", "\u0b95", "\u304b", "\u0e01"]


words = st.text(st.sampled_from(LETTERS), min_size=2, max_size=8)
ordinary_names = st.lists(words, min_size=1, max_size=3).map(" ".join)


def _usable(ch: str) -> bool:
    import unicodedata

    from domrec.errors import BIDI_CONTROLS
    return (unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")
            and ch not in BIDI_CONTROLS and not ch.isspace())


def _drawn_like() -> dict[str, list[str]]:
    """Each letter of LETTERS and the characters Unicode's table says are drawn like it."""
    out: dict[str, list[str]] = {}
    for source, prototype in _prototypes().items():
        if prototype in LETTERS and len(prototype) == 1 and _usable(source):
            out.setdefault(prototype, []).append(source)
    return {k: sorted(v) for k, v in out.items()}


DRAWN_LIKE = _drawn_like()


@st.composite
def spaced(draw, name: str) -> str:
    """``name`` with a run of spaces (of any kind, one or more) put between two of its letters, or
    a space of its own doubled."""
    at = draw(st.integers(1, len(name) - 1))
    run = "".join(draw(st.lists(st.sampled_from(SPACES), min_size=1, max_size=3)))
    return name[:at] + run + name[at:]


@st.composite
def full_width(draw, name: str) -> str:
    places = [k for k, ch in enumerate(name) if "!" <= ch <= "~"]
    assume(places)
    chosen = set(draw(st.lists(st.sampled_from(places), min_size=1, unique=True)))
    return "".join(chr(ord(ch) + 0xFEE0) if k in chosen else ch for k, ch in enumerate(name))


@st.composite
def confused(draw, name: str) -> str:
    places = [k for k, ch in enumerate(name) if ch in DRAWN_LIKE]
    assume(places)
    chosen = set(draw(st.lists(st.sampled_from(places), min_size=1, unique=True)))
    return "".join(draw(st.sampled_from(DRAWN_LIKE[ch])) if k in chosen else ch for k, ch in enumerate(name))


@st.composite
def planted(draw, name: str) -> str:
    """One letter of ``name`` replaced by a letter of another script."""
    places = [k for k, ch in enumerate(name) if not ch.isspace()]
    k = draw(st.sampled_from(places))
    return name[:k] + draw(st.sampled_from(PLANTED)) + name[k + 1:]


@st.composite
def variant(draw) -> tuple[str, str]:
    name = draw(ordinary_names)
    how = draw(st.sampled_from([spaced, full_width, confused, planted]))
    return name, draw(how(name))


# --- the issue's three names, at the command line ----------------------------------------------


def run(*args: object):
    result = runner.invoke(app, [str(a) for a in args])
    assert "Traceback" not in result.output
    return result


@pytest.mark.parametrize("look_alike, existing", [("A  na", "#1 'Ana'"), ("A na", "#1 'Ana'"),
                                                   ("A\u3000na", "#1 'Ana'"), ("Player\uff11", "#2 'Player1'"),
                                                   ("\ua4aena", "#1 'Ana'"), ("A\u3164na", "#1 'Ana'")])
def test_the_issues_look_alikes_are_refused_naming_the_player(tmp_path: Path, look_alike, existing):
    path = tmp_path / "ev.db"
    assert run("new", path, "--name", "x", "--game", "competitive", "--format", "rotating").exit_code == 0
    assert run("add", path, "Ana", "Player1", "Bo").exit_code == 0
    r = run("add", path, look_alike)
    assert r.exit_code == 1, r.output
    assert existing in r.output and "looks the same as" in r.output and len(r.output.strip().splitlines()) == 1
    store = open_event(path)
    try:
        assert [p.name for p in store.players()] == ["Ana", "Player1", "Bo"]
    finally:
        store.close()


def test_a_planted_letter_is_found_against_every_name_and_either_way_round(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("N", "competitive", "rotating", seed=1))
    try:
        add_players(store, ["Bo", "Cy", "Di", "Ana", "Ed"])
        with pytest.raises(Refused, match=r"#4 'Ana'"):
            add_players(store, ["\ua4aena"])
        add_players(store, ["Bo\u0416a"])  # a Cyrillic Zhe planted where nobody's name has a letter
        with pytest.raises(Refused, match="looks the same as the player #6 'Bo\u0416a'"):
            add_players(store, ["Boya"])  # the plain name, entered after its look-alike
        with pytest.raises(PlayerInputError, match="'F\ua4ae' and 'Fe' look the same: one name listed twice"):
            add_players(store, ["Fe", "F\ua4ae"])
        with pytest.raises(Refused, match="#4 'Ana'"):
            roster.rename(store, "Bo", "\ua4aena")
        assert roster.rename(store, "Cy", "Cyd") == ("Cy", "Cyd")  # an ordinary rename still goes
    finally:
        store.close()


def test_pair_names_and_partners_are_compared_so_too(tmp_path: Path):
    store = create_event(tmp_path / "ev.db", make_settings("N", "competitive", "pairs", seed=1))
    try:
        add_pairs(store, [("Ana", "Bo", "Los Primos")])
        with pytest.raises(Refused, match="partnership 'Los Primos'"):
            add_pairs(store, [("Cy", "Di", "Los  Pri\ua4aeos")])
        with pytest.raises(PlayerInputError, match="cannot partner themselves"):
            add_pairs(store, [("Cy", "C y", None)])
    finally:
        store.close()


def test_an_older_event_holding_two_names_now_one_finds_each_by_its_own(tmp_path: Path):
    """An event made when a space still counted may hold "Li Na" and "LiNa" (one name now: spaces
    do not count): each is still the player its own name finds."""
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("N", "competitive", "rotating", seed=1))
    add_players(store, ["Li Na", "Bo"])
    store.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE players SET name = 'LiNa' WHERE name = 'Bo'")
    db.commit()
    db.close()
    store = open_event(path)
    try:
        assert store.find_player("LiNa").id == 2 and store.find_player("Li Na").id == 1
        assert store.find_player("Li  Na").id == 1
    finally:
        store.close()


# --- what counts, as properties ----------------------------------------------------------------


def test_the_rule_in_examples():
    same = [("A  na", "Ana"), ("Player\uff11", "Player1"), ("\ua4aena", "Ana"), ("\ua4eena", "Ana"),
            ("\u017foo", "foo"), ("\ufb01lo", "filo"), ("Ana\u200bMar\u00eda", "Ana Mar\u00eda")]
    for a, b in same:
        assert LookAlikes([b]).find(a) == b and LookAlikes([a]).find(b) == a, (a, b)
    different = ["Ana", "Ann", "Anna", "Ama", "ana", "Jos\u00e9", "Jose", "Pe\u00f1a", "Pena", "Bo", "Bob",
                 "\u0418\u0440\u0430", "\u05e9\u05e8\u05d4", "\u7530\u4e2d", "\u5c71\u4e2d", "\u7530\u4e2d Ana",
                 "\u5c71\u4e2d Ana", "O\u02bcNeill", "ONeil"]
    taken = LookAlikes()
    for name in different:
        assert taken.find(name) is None, name
        taken.add(name)
    assert script("\ua4ae") == "YI" and script("\u2605") is None and script("\u02bc") is None
    assert not stands_in("\u0418\u0440\u0430", "Ana")  # a name of one script is nobody's look-alike


def test_ordinary_names_that_differ_are_all_entered(tmp_path: Path):
    names = ["Ana", "Ann", "Anna", "Ama", "ana", "Jos\u00e9", "Jose", "Pe\u00f1a", "Pena", "Bo", "Bob",
             "\u0418\u0440\u0430", "\u05e9\u05e8\u05d4", "\u7530\u4e2d", "\u5c71\u4e2d", "O\u02bcNeill",
             "Ana Mar\u00eda"]
    store = create_event(tmp_path / "ev.db", make_settings("N", "competitive", "rotating", seed=1))
    try:
        assert [p.name for p in add_players(store, names)] == names
    finally:
        store.close()


@settings(max_examples=300, deadline=None)
@given(variant())
def test_every_variant_of_a_name_looks_like_it(pair):
    name, other = pair
    assume(other != name)
    assert LookAlikes([name]).find(other) == name
    assert LookAlikes([other]).find(name) == other  # whichever was entered first


@settings(max_examples=300, deadline=None)
@given(ordinary_names, ordinary_names)
def test_ordinary_names_that_differ_by_a_letter_do_not_look_alike(a, b):
    assume(a.replace(" ", "") != b.replace(" ", ""))
    assert LookAlikes([a]).find(b) is None
    assert name_key(a) != name_key(b)


@settings(max_examples=40, deadline=None)
@given(variant())
def test_variants_are_refused_when_entered(pair):
    """The same, through the operation a director's ``add`` runs: the name is entered, then its
    variant is refused in one line that names it, and nothing is written."""
    name, other = pair
    assume(other != name)
    with tempfile.TemporaryDirectory() as folder:
        store = create_event(Path(folder) / "ev.db", make_settings("N", "competitive", "rotating", seed=1))
        try:
            (added,) = add_players(store, ["Bo Cy", name])[1:]
            with pytest.raises(Refused) as refused:
                add_players(store, [other])
            said = str(refused.value)
            assert f"#{added.id} {name!r}" in said or f"named {name!r} is already entered" in said
            assert "\n" not in said
            assert [p.name for p in store.players()] == ["Bo Cy", name]
        finally:
            store.close()


def test_the_venue_scripts_draw_text_as_text():
    """The venue's scripts put names (and every other value) into the page as text nodes, never as
    markup: no innerHTML, outerHTML, insertAdjacentHTML or document.write, but for the one place
    that swaps in a part of a page the server made, every value escaped there (live.js)."""
    import re

    import tournament.web

    folder = Path(tournament.web.__file__).parent / "static"
    found = {}
    for script_file in sorted(folder.glob("*.js")):
        uses = re.findall(r"\.(innerHTML|outerHTML|insertAdjacentHTML)\b|document\.write", script_file.read_text())
        if uses:
            found[script_file.name] = len(uses)
    assert found == {"live.js": 1}


def test_near_identical_names_are_entered_and_flagged(tmp_path: Path):
    """``Li Na`` and ``Lina`` differ only by a capital once spaces are left out: two names (case is
    seen), both entered, and the second flagged in one line on stderr, as a rename to one is."""
    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    path = tmp_path / "n.db"
    assert runner.invoke(app, ["new", str(path), "--name", "N", "--game", "competitive", "--format", "rotating"]
                         ).exit_code == 0
    assert runner.invoke(app, ["add", str(path), "Li Na", "Bo"]).stderr == ""
    r = runner.invoke(app, ["add", str(path), "Lina"])
    assert r.exit_code == 0 and r.stdout == "added #3 Lina (from round 1)\n"
    assert r.stderr == ("warning: 'Lina' is near-identical to #1 'Li Na' (they differ only by capitals and spaces); "
                        "to tell them apart, rename one (tournament rename)\n")
    r = runner.invoke(app, ["rename", str(path), "Bo", "bo"])
    assert r.exit_code == 0 and r.stderr == ""
    r = runner.invoke(app, ["rename", str(path), "bo", "LINA X"])
    assert r.exit_code == 0 and r.stderr == ""
    r = runner.invoke(app, ["rename", str(path), "LINA X", "LI NA"])
    assert r.exit_code == 0 and "warning: 'LI NA' is near-identical to #1 'Li Na'" in r.stderr


def test_two_near_identical_names_added_together_are_told_once(tmp_path: Path):
    """``Ana`` and ``ana`` in one ``add``: one warning for the pair, not one from each side; a
    third name near both is told against the first of them."""
    from typer.testing import CliRunner

    from tournament.cli import app

    runner = CliRunner()
    path = tmp_path / "n.db"
    assert runner.invoke(app, ["new", str(path), "--name", "N", "--game", "competitive", "--format", "rotating"]
                         ).exit_code == 0
    r = runner.invoke(app, ["add", str(path), "Ana", "ana", "Bo", "Li Na", "Lina"])
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [
        "warning: 'Ana' is near-identical to #2 'ana' (they differ only by capitals and spaces); "
        "to tell them apart, rename one (tournament rename)",
        "warning: 'Li Na' is near-identical to #5 'Lina' (they differ only by capitals and spaces); "
        "to tell them apart, rename one (tournament rename)"]
    r = runner.invoke(app, ["add", str(path), "ANA"])
    assert r.stderr.count("warning:") == 1 and "'ANA' is near-identical to #1 'Ana'" in r.stderr

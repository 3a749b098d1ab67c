"""Spanish and English: the catalogs hold a Spanish for everything the code asks for, the
engines' and the recorder's sentences that a player can see are listed (a fixed corpus of wrong
moves of all five games), the patterns give back what they took, and a browser's language is
read as browsers send it."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domrec import i18n, phrases
from domrec.i18n import UnknownLanguage, known, language, negotiate, translations
from tests.conftest import examples

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import catalogs  # noqa: E402  (tools/catalogs.py: the check a translator runs)

from tests import refusal_corpus  # noqa: E402

# --- the catalogs --------------------------------------------------------------------------------


#: Each package's extraction (``catalogs.extract``: every template, script and module it has read,
#: a second of a core for ``tournament``), by its domain and folder, made once for this module's
#: tests that read the package as it is; each reads it, none changes it.
_EXTRACTED: dict[tuple[str, Path], object] = {}


@pytest.fixture
def extracted_once(monkeypatch):
    """``catalogs.extract`` of a domain made once a module (the check itself, ``problems``, asks
    for it: the same catalog as a fresh extraction of the same folder gives)."""
    real = catalogs.extract

    def extract(domain):
        key = (domain, catalogs.DOMAINS[domain])
        if key not in _EXTRACTED:
            _EXTRACTED[key] = real(domain)
        return _EXTRACTED[key]

    monkeypatch.setattr(catalogs, "extract", extract)


@pytest.mark.parametrize("domain", sorted(catalogs.DOMAINS))
def test_every_msgid_the_code_asks_for_has_its_spanish(domain, extracted_once):
    """Templates, scripts (``t("…")``), sheets, report, replay page and every listed sentence: a
    msgid without its Spanish, a Spanish with other placeholders, or an entry nothing asks for
    fails here, with the file that asks for it (``python tools/catalogs.py check`` says the same)."""
    wrong = list(catalogs.problems(domain, "es"))
    assert not wrong, "\n".join(wrong)


def test_the_extraction_finds_each_kind_of_file(extracted_once):
    """The check is only as good as what it extracts: templates, Python and the pages' scripts."""
    tournament = {loc for m in catalogs.extract("tournament") for loc, _ in m.locations}
    domrec = {loc for m in catalogs.extract("domrec") for loc, _ in m.locations}
    assert {"tournament/web/templates/table.html.j2", "tournament/web/static/table.js",
            "tournament/pages/sheets.py", "tournament/pages/public.py", "tournament/pages/words.py",
            "tournament/pages/templates/index.html.j2", "tournament/event/venue.py"} <= tournament
    assert {"domrec/phrases.py", "domrec/templates/replay.html.j2", "domrec/replay_page.py"} <= domrec


def test_the_checker_finds_a_missing_and_a_wrong_entry(tmp_path, monkeypatch):
    """A made-up package: one msgid translated, one not, one with the wrong placeholder."""
    pkg = tmp_path / "pkg"
    (pkg / "static").mkdir(parents=True)
    (pkg / "mod.py").write_text('_("Undo")\nN_("%(seat)s passes")\n_("Left out")\n', encoding="utf-8")
    (pkg / "static" / "page.js").write_text('el("b", {}, t("Send"));\n', encoding="utf-8")
    po = pkg / "locale" / "es" / "LC_MESSAGES" / "pkg.po"
    po.parent.mkdir(parents=True)
    po.write_text('msgid "Undo"\nmsgstr "Deshacer"\n\nmsgid "%(seat)s passes"\nmsgstr "%(asiento)s pasa"\n\n'
                  'msgid "Send"\nmsgstr "Enviar"\n\nmsgid "Gone"\nmsgstr "Ido"\n', encoding="utf-8")
    monkeypatch.setattr(catalogs, "ROOT", tmp_path)
    monkeypatch.setitem(catalogs.DOMAINS, "pkg", pkg)
    found = list(catalogs.problems("pkg", "es"))
    assert len(found) == 3, found
    assert any("no es for 'Left out'" in line for line in found)
    assert any("'%(seat)s passes' has the placeholders ['asiento']" in line for line in found)
    assert any("'Gone' is asked for nowhere" in line for line in found)


def test_the_catalogs_are_read_from_the_package_as_installed():
    """The ``.po`` files are the package data: read at run time, no compile step."""
    es = translations("es")
    assert es.gettext("%(seat)s passes") == "%(seat)s pasa"
    assert translations("en").gettext("%(seat)s passes") == "%(seat)s passes"
    assert i18n.catalog_paths("es") == [i18n.LOCALE / "es" / "LC_MESSAGES" / "domrec.po"]


# --- a browser's language ------------------------------------------------------------------------


@pytest.mark.parametrize("header, default, expected", [
    ("es-ES,es;q=0.9,en;q=0.8", "en", "es"),
    ("es-419", "en", "es"),
    ("en-US,en;q=0.9,es;q=0.8", "es", "en"),
    ("fr-FR,fr;q=0.9", "es", "es"),  # nothing the pages have: the event's language
    ("fr;q=0.9,es;q=0.5,en;q=0.7", "es", "en"),  # by weight, not by order
    ("es;q=0,en", "es", "en"),  # q=0: not wanted
    ("*", "es", "es"),
    ("", "en", "en"),
    (None, "es", "es"),
    ("es_MX", "en", "es"),
    ("x" * 600, "es", "es"),  # too long to read: the default
    ("es;q=abc", "en", "en"),
])
def test_accept_language(header, default, expected):
    assert negotiate(header, default) == expected


@given(st.text(max_size=80))
def test_any_accept_language_gives_a_language_of_the_pages(header):
    assert negotiate(header, "en") in i18n.LANGUAGES


def test_language_codes():
    assert language("es") == language("ES") == language("es-MX") == language("es_AR") == "es"
    assert known("fr") is None and known(None) is None and known("") is None and known("e" * 99) is None
    with pytest.raises(UnknownLanguage, match="no pages in 'fr': the languages are en, es"):
        language("fr")


# --- the sentences a player sees -----------------------------------------------------------------


#: The corpus the test sends (tests/refusal_corpus.py): every game but one of two sets of Castle
#: Rock (the other set's sentences are the same but for its name), its first hand, every other
#: position, six wrong requests at each (a dozen under --long: the default's six draw every one of
#: the dozen's patterns, and one sentence the dozen did not, now listed).
CORPUS = {"configs": [c for c in refusal_corpus.CONFIGS if c[2] != {"set": "double-nine"}],
          "seeds": (1,), "every": 2, "hands": 1, "budget": examples(6, 12)}


@pytest.mark.slow
def test_every_sentence_of_the_corpus_is_listed():
    """Wrong moves of all five games (illegal tiles, wrong ends, out of turn, wrong scores and
    claims, bad notation, parts out of place) sent to table sessions, with and without the deal:
    every refusal, every line said of a move taken and every move's label is matched by a listed
    pattern, each sentence nested in it too, so a page in Spanish shows none of them in English."""
    seen: dict[str, refusal_corpus.Seen] = {}
    for s in refusal_corpus.collect(**CORPUS):
        seen.setdefault(s.text, s)
    kinds = {s.kind for s in seen.values()}
    assert kinds == {"refused", "said", "label"} and len(seen) > 2000  # the corpus is not empty
    unlisted = [s for s in seen.values() if not phrases.listed(s.text)]
    assert not unlisted, "not listed in domrec/phrases.py:\n" + "\n".join(
        f"{s.game} {s.kind} {s.request!r}: {s.text}" for s in unlisted[:40])
    for text in list(seen)[:300]:  # and each of them comes out in Spanish, placeholders filled
        out = phrases.translate(text, "es")
        assert out != text or not re.search(r"[a-z]{4}", text), text
        assert "%(" not in out


def test_a_refusal_in_spanish():
    text = ("3:1: W plays 6-4 on 4-2: W does not hold 6-4: it has already been played "
            "[competitive: playing from hand]")
    assert phrases.translate(text, "es") == ("3:1: W juega 6-4 sobre 4-2: W no tiene 6-4: ya se jugó "
                                             "[competitivo: jugar de la mano]")
    assert phrases.translate(text, "en") == text
    assert phrases.pattern_of("N passes") == "%(seat)s passes"


def test_a_left_line_naming_a_tile_played_in_the_hand_in_spanish():
    """A sentence the corpus drew only on other seeds (a hand typed without its deal whose left
    line names a tile its moves laid): listed, and in Spanish on a Spanish page."""
    text = "hand 1: left N lists 0-0, but it was played in this hand [the deal]"
    assert phrases.listed(text)
    out = phrases.translate(text, "es")
    assert out.startswith("mano 1: left N da 0-0, pero esa ficha se jugó en esta mano ["), out


def test_an_unlisted_sentence_stays_as_it_is():
    text = "W plays 6-4: a reason nobody listed [competitive: matching an end]"
    assert not phrases.listed(text)
    assert phrases.translate(text, "es") == "W juega 6-4: a reason nobody listed [competitivo: casar con un extremo]"
    assert phrases.translate("something else entirely", "es") == "something else entirely"


_VALUES = {
    "tile": st.tuples(st.integers(0, 12), st.integers(0, 12)).map(lambda t: f"{t[0]}-{t[1]}"),
    "on": st.tuples(st.integers(0, 6), st.integers(0, 6)).map(lambda t: f"{t[0]}-{t[1]}"),
    "tiles": st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)), min_size=1, max_size=3).map(
        lambda ts: " ".join(f"{a}-{b}" for a, b in ts)),
    "seat": st.sampled_from(["N", "E", "S", "W", "P1", "P2", "P3"]),
    "side": st.sampled_from(["NS", "EW", "N", "P2"]),
    "road": st.sampled_from(["NS1", "EW2", "P1-1", "E-3"]),
    "n": st.integers(-50, 500).map(str),
    "cell": st.tuples(st.integers(-5, 5), st.integers(-5, 5)).map(lambda c: f"({c[0]},{c[1]})"),
    "game": st.sampled_from(["competitive", "horse-race", "broadway"]),
    "word": st.sampled_from(["deal", "row", "W1-3", "x"]),
    "scores": st.sampled_from(["NS 10, EW 0", "P1 3", "N 1, E 2, S 3"]),
}
_PLAIN = [p for p in phrases.PHRASES
          if not {n.rstrip("0123456789") for n in re.findall(r"%\((\w+)\)s", p)} & phrases.NESTED]


@settings(max_examples=300)
@given(st.data())
def test_a_pattern_gives_back_the_values_it_was_filled_with(data):
    """Any listed sentence without nested ones, filled with values of its placeholders' kinds, is
    matched again, and its Spanish holds every value (a pattern tried before it cannot take it)."""
    msgid = data.draw(st.sampled_from(_PLAIN))
    names = dict.fromkeys(re.findall(r"%\((\w+)\)s", msgid))
    values = {}
    for name in names:
        kind = name.rstrip("0123456789")
        strategy = _VALUES.get(kind, st.sampled_from(["N E S W", "6, 4", "the lead draw", "3 + 4"]))
        values[name] = data.draw(strategy, label=name)
    text = msgid % values
    out = phrases.translate(text, "es")
    if phrases.pattern_of(text) == msgid:
        # A game's id is given by its name in the language (competitive: competitivo).
        shown = {k: translations("es").gettext(phrases.GAME_NAMES[v])
                 if k.rstrip("0123456789") == "game" and v in phrases.GAME_NAMES else v for k, v in values.items()}
        assert out == translations("es").gettext(msgid) % shown
    else:  # another pattern takes the same words: it must be a sentence that reads the same
        assert phrases.listed(text), (msgid, text)


def test_every_listed_pattern_compiles_and_has_kinds_it_knows():
    for msgid in phrases.PHRASES:
        for name in re.findall(r"%\((\w+)\)s", msgid):
            assert re.fullmatch(r"[a-z]+\d?", name), (msgid, name)
    assert len(set(phrases.PHRASES)) == len(phrases.PHRASES)


#: A field of the JSON form as a path (``deal.boneyard``, ``result.end``), and a JSON value in
#: brackets (``("out")``): words of the file format, not of the game.
_JSON_FIELD = re.compile(r"\b(?:deal|result|hands|moves|options|players|sides)\.[a-z_]+\b|\(\"[a-z-]+\"\)")


def test_no_sentence_a_player_reads_names_a_json_field():
    """A club player reads these refusals: they say what is wrong in the game's words (the
    boneyard's order given with the deal, a player going out), and leave where it is to the
    pointer that ``--json`` gives beside the message."""
    named = [p for p in phrases.PHRASES if _JSON_FIELD.search(p)]
    assert not named, "\n".join(named)
    for msgid, msgstr in i18n._read_catalog(i18n.LOCALE / "es" / "LC_MESSAGES" / "domrec.po").items():
        assert not _JSON_FIELD.search(msgstr) or _JSON_FIELD.search(msgid), msgstr


def test_a_broadway_wrong_score_names_the_matched_halves_in_spanish():
    """A table claiming a wrong score for a Broadway placement is told what the tile matched
    ("4-2 matches only the 2 of 5-2 and the 4 of 4-1"): every part of it, the halves too, in
    Spanish (each of the 1 to 6 halves a tile can match is a listed pattern)."""
    import random

    import attrs

    from domrec.session import RequestRefused, Session, requests_for
    from domrec.simulate import simulate

    record = next(simulate("broadway", 1, 3, None, None, None, accidents=False))
    session = Session(attrs.evolve(record, hands=(), result=None))
    rng = random.Random(5)
    refused = []
    for text in requests_for(record):
        if text[0].isdigit() and "@" in text:
            try:
                session.take(f"{text}={rng.choice([7, 9, 11])}")  # no placement scores these
            except RequestRefused as e:
                if " of " in e.refusal.message:  # (not the lead's "it matches nothing")
                    refused.append(e.refusal.message)
                    break
        session.take(text)
    assert refused and " matches " in refused[0] and " of " in refused[0], refused
    said = refused[0]
    assert phrases.listed(said), said
    out = phrases.translate(said, "es")
    assert " de " in out and "coincide con" in out and " of " not in out and "matches" not in out, out
    for k in range(1, 7):
        halves = [f"the {n} of {n}-{k}" for n in range(k)]
        text = ", ".join(halves[:-1]) + " and " + halves[-1] if k > 1 else halves[0]
        for only in ("", "only "):
            full = f"6-1 matches {only}{text}: {k} segments, 1 point (2 segments earn 1, 3 earn 5, 4 or more 10)"
            assert phrases.listed(full), full
            assert " of " not in phrases.translate(full, "es"), full


@pytest.mark.parametrize("typed, english", [
    ("hand 1 lead N\n5-2 6-5 4-2 6-4@4-2 6-6@6-4 6-0@6-6 6-2 4-0\n2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
     "5-3 3-2 4-3 4-1 3-1 3-0 5-5\nleft E 3-3; S 2-2\n", "is a move missing"),
    ("hand 1 lead N\n5-2 6-5 4-2 6-4@4-2 6-6@6-4 - 6-0@6-6 6-2 4-0\n2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
     "5-3 3-2 4-3 4-1 3-1 3-0 5-5\nleft Е 3-3; S 2-2\n", "looks like E"),
    ("hand 1 lead N\n5-2 6-5 4-2 6-4@4-2 6-6@6-4 - 6-0@6-6 6-2 4-0\n2-0 1-0 1-1 6-1 5-4 5-1 2-1 6-3 -\n"
     "5-3 3-2 4-3 4-1 3-1 3-0 ５-５\nleft E 3-3; S 2-2\n", "looks like 5"),
])
def test_the_readers_newer_refusals_are_listed_in_spanish(typed: str, english: str) -> None:
    """A left line that leaves out seats still holding tiles, and a word typed with a look-alike
    character: each refusal is listed, so a Spanish page shows it in Spanish."""
    from domrec import notation

    header = '[Game "competitive"]\n[N "Ana"]\n[E "Bo"]\n[S "Cy"]\n[W "Di"]\n\n'
    game, = notation.read_games(header + typed, "sheet.dgn")
    said = [p.message for p in game.report.problems]
    found = [m for m in said if english in m]
    assert found, said
    text = found[0].split(": ", 1)[1] if found[0].startswith("hand ") else found[0]
    assert phrases.listed(text), text
    assert english not in phrases.translate(text, "es"), text

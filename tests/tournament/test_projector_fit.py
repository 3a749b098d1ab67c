"""The projector fitted to the hall's screen (issue 39): the longest names whole at 1280x720, 1280x800,
1366x768 and 1920x1080 (fewer columns, smaller type down to a floor, more screens); the final
standings once an event with no final is over; ``?seconds=`` and ``?size=`` as settings, a bad
value the default and never an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournament import add_players, create_event, make_settings, open_event, pair_next_round
from tournament.event.public import public_data
from tournament.event.results import enter_manual
from tournament.pages import public as pages

#: Names as a Spanish club's list has them: long, with accents and hyphens.
LONG = ["María Fernanda Hernández-Villalobos", "José Guadalupe Rodríguez Montenegro", "Ana", "Bo",
        "Maximiliano Bartolomé Echeverría", "Cy", "Guillermina Altagracia Peña-Santamaría", "Di",
        "Wenceslao Domínguez Wolfenstein", "Flo", "Gus", "Hal"]


def _event(tmp_path: Path, rounds: int | None = None) -> Path:
    path = tmp_path / "club.db"
    store = create_event(path, make_settings("Club night", "competitive", "rotating", seed=4, rounds=rounds,
                                                   schedule="balanced" if rounds else None))
    add_players(store, LONG)
    pair_next_round(store)
    store.close()
    return path


def _screens(path: Path, size: str = "normal") -> list[dict]:
    store = open_event(path)
    try:
        return pages.projector_screens(public_data(store), "en", size)
    finally:
        store.close()


def test_the_settings_are_clamped_or_the_default_never_refused():
    assert pages.projector_settings("12", "large") == (12, "large")
    assert pages.projector_settings("1", "small") == (3, "small")
    assert pages.projector_settings("100000", "normal") == (pages.SCREEN_SECONDS, "normal")
    assert pages.projector_settings("999", None) == (120, "normal")
    for bad in ("abc", "-5", "", "١٢", "1e3", None):
        assert pages.projector_settings(bad, "huge") == (pages.SCREEN_SECONDS, "normal")


def test_long_names_take_fewer_columns_and_large_type_more_screens(tmp_path):
    path = _event(tmp_path)
    normal = _screens(path)
    find = [s for s in normal if s["kind"] == "find"]
    # Twelve players fit on a screen, but not two columns of the longest names with their partners.
    widest = max(pages.text_em(n) for n in LONG)
    for s in find:
        width = (pages.STAGE_WIDTH - pages.COLUMN_GAP * (s["fit"].columns - 1)) / s["fit"].columns
        assert widest * s["fit"].font < width
        assert s["fit"].font >= pages.TYPE_FLOOR
    large = [s for s in _screens(path, "large") if s["kind"] == "find"]
    # (the normal size grows into the room a screen has, pages.GROW: here as far as the longest name
    # lets it, which is the large size's own type)
    assert large[0]["fit"].font >= max(find[0]["fit"].font, 36 * pages.SIZES["large"])
    assert sum(len(c) for s in large for c in s["columns"]) == len(LONG)


def test_after_the_last_round_of_an_event_with_no_final_the_final_standings(tmp_path):
    path = _event(tmp_path, rounds=1)
    assert any(s["kind"] == "find" for s in _screens(path))
    store = open_event(path)
    for t in store.tables(1):
        enter_manual(store, t.number, {"NS": 150, "EW": 90})
    store.close()
    screens = _screens(path)
    assert [s["kind"] for s in screens] == ["standings"] and screens[0]["final"]
    store = open_event(path)
    try:
        for lang, words in (("en", "Final standings"), ("es", "Clasificación final")):
            html = pages.projector_html(public_data(store), pages.Site(served=False, has_pages=False), lang=lang)
            assert words in html and "find your table" not in html and "busca tu mesa" not in html.lower()
    finally:
        store.close()


def test_the_report_gives_its_time_through_babel_and_its_game_in_the_pages_language(tmp_path):
    """The report's time as people of the language write it (never raw ISO 8601), its game named
    in Spanish on a Spanish page (issue 39)."""
    import re

    path = _event(tmp_path)
    store = open_event(path)
    try:
        data = public_data(store)
    finally:
        store.close()
    data = {**data, "generated_at": "2026-12-02T15:17:04+00:00"}
    site = pages.Site(served=False, has_pages=False)
    for lang, when, game in (("en", "Dec 2, 2026, 3:17:04\u202fPM UTC", "competitive"),
                             ("es", "2 dic 2026, 15:17:04 UTC", "competitivo")):
        html = pages.report_html(data, site, lang)
        assert when in html, lang
        assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", html), lang
        meta = re.search(r'<p class="meta">(.*?)</p>', html).group(1)
        assert meta.startswith(game), meta


#: A name wider than the screen even alone at the floor's type (the browser test's, 82 characters).
LONGEST = "Maximiliano Alejandro de la Santísima Trinidad Fernández-Villaverde y Montenegro"


def _field(tmp_path: Path, names: list[str], results: bool) -> dict:
    store = create_event(tmp_path / f"field-{len(list(tmp_path.glob('field-*.db')))}.db",
                         make_settings("Club night", "competitive", "rotating", seed=4))
    try:
        add_players(store, names)
        pair_next_round(store)
        if results:
            for k, t in enumerate(store.tables(1)):
                if k % 5:  # (some tables still playing: the round's "find your table" stays)
                    enter_manual(store, t.number, {"NS": 150 + k, "EW": 90})
        return public_data(store)
    finally:
        store.close()


def _shape(screens: list[dict], kind: str) -> list[tuple[int, float, bool, int]]:
    """Each screen of ``kind``: its columns, type, whether its rows wrap, and how many rows it shows."""
    return [(s["fit"].columns, s["fit"].font, s["fit"].wraps, sum(len(c) for c in s["columns"]))
            for s in screens if s["kind"] == kind]


@pytest.mark.parametrize("where", [0, 117, 199])
def test_one_name_too_long_for_the_screen_costs_its_own_screen_never_the_others(tmp_path, where):
    """200 players, one of them named longer than the screen: only the screen that shows that name
    is one column of rows that wrap; every other screen keeps the columns and type of the same event
    without it (one fit for all put all 50 screens in two-line mode), and the name costs at most a
    screen more, in "find your table" and in the standings alike."""
    names = [f"Jugador {i:03d} Pérez" for i in range(199)]
    plain = pages.projector_screens(_field(tmp_path, [*names, "Jugador 199 Pérez"], True))
    names.insert(where, LONGEST)
    screens = pages.projector_screens(_field(tmp_path, names, True))
    for kind in ("find", "standings"):
        before, after = _shape(plain, kind), _shape(screens, kind)
        assert before and not any(wraps for _, _, wraps, _ in before)
        assert len(after) <= len(before) + 1, (kind, after)
        assert sum(n for *_, n in after) == 200
        long = [s for s in screens if s["kind"] == kind and any(LONGEST in (r.values() if isinstance(r, dict) else r)
                                                                for c in s["columns"] for r in c)]
        assert len(long) == 1 and long[0]["fit"].wraps
        others = {shape[:3] for shape, s in zip(after, [s for s in screens if s["kind"] == kind]) if s is not long[0]}
        # (type as big or bigger: "find your table"'s screens, holding fewer rows each for the screen
        # more, are set in the bigger type their room allows, pages.GROW)
        assert {(c, w) for c, _, w in others} == {(before[0][0], before[0][2])}, (kind, after)
        assert min(f for _, f, _ in others) >= before[0][1], (kind, after)


def test_one_long_team_name_costs_at_most_a_screen_of_the_team_standings(tmp_path):
    """A team event's standings are one table across the screen: one team name too long for it put
    every screen in two-line mode (30 teams: 4 screens, not 2)."""
    import copy

    from tests.tournament.test_team_pages import _data, _team_event

    data = _data(_team_event(tmp_path, teams=5, rounds=1))
    teams = data["standings"]["teams"]
    many = [{**copy.deepcopy(teams[k % len(teams)]), "team": f"Equipo {k:02d} de Santo Domingo", "id": 100 + k,
             "rank": k + 1} for k in range(30)]
    plain = _shape(pages.projector_screens({**data, "standings": {**data["standings"], "teams": many}}), "standings")
    many[12]["team"] = LONGEST + " del Caribe"
    screens = pages.projector_screens({**data, "standings": {**data["standings"], "teams": many}})
    after = _shape(screens, "standings")
    assert len(plain) == 2 and not any(wraps for _, _, wraps, _ in plain)
    assert len(after) <= len(plain) + 1 and sum(n for *_, n in after) == 30, after
    assert [wraps for _, _, wraps, _ in after].count(True) == 1, after


@pytest.mark.parametrize("where", [0, 199])
def test_the_screens_share_the_rows_evenly_and_none_is_left_nearly_empty(tmp_path, where):
    """The fewest screens, the rows spread over them: filled from the first on, the one very long
    name sorting last (find your table is in the names' order) held the last screen alone, one row
    on a screen of 1,080 px.  Now that screen holds as many rows as it can up to an even share, and
    the screens of one fit hold as many rows as each other, give or take one, as do 200 short names."""
    names = [f"Jugador {i:03d} Pérez" for i in range(199)]
    plain = _shape(pages.projector_screens(_field(tmp_path, [*names, "Jugador 199 Pérez"], True)), "find")
    names.insert(where, LONGEST)
    for kind in ("find", "standings"):
        after = _shape(pages.projector_screens(_field(tmp_path, names, True)), kind)
        even = 200 / len(after)
        assert min(n for *_, n in after) >= even / 2, (kind, after)
        for shape in {s[:3] for s in after}:
            counts = [n for *s, n in after if tuple(s) == shape]
            assert max(counts) - min(counts) <= 1, (kind, after)
    find = _shape(pages.projector_screens(_field(tmp_path, names, True)), "find")
    # the fewest screens: the long name's one more; find your table is in the names' order, so it is the last
    assert len(find) == len(plain) + 1 and find[-1][2] and find[-1][3] > 10, find
    assert len(plain) > 2 and max(n for *_, n in plain) - min(n for *_, n in plain) <= 1, plain


def test_a_range_of_names_too_long_for_the_heading_is_shown_by_the_words_that_tell_them_apart():
    heading = "Ronda 3: busque su mesa"
    assert pages._range_ends("Ana", "Wenceslao", heading) == ("Ana", "Wenceslao")
    long_a, long_b = "Guillermina Altagracia Peña-Santamaría", "Wenceslao Domínguez Wolfenstein Montenegro"
    assert pages._range_ends(long_a, long_b, heading) == ("Guillermina", "Wenceslao")
    assert pages._range_ends(long_a + " de la Santísima Trinidad", long_a + " y Montenegro de la Vega",
                             heading) == (long_a + " de", long_a + " y")
    assert pages._range_ends("Maximiliano", "Maximiliano Alejandro de la Santísima Trinidad Fernández-Villaverde",
                             heading) == ("Maximiliano", "Maximiliano Alejandro")

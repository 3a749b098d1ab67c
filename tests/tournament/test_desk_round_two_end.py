"""The director's desk, round two, its last points (issue 39): a ratings file matched by federation
id, the director's page seeding round 1 as the command line does, one pair numbering on every
screen and slip of a pairs event, and the two forms of a result sharing what they start from."""

from __future__ import annotations

from types import SimpleNamespace

from tournament.cli import rounds as cli_rounds


# --- the long and the short form of a result start from one place -------------------------------

def test_both_forms_of_a_result_share_who_was_absent_and_the_sides_order() -> None:
    """``tables`` (the long form) and a round's one-line form (the short one) take who did not come
    and the sides' seating order from one helper, so they cannot drift apart."""
    played = SimpleNamespace(scores={"EW": 40, "NS": 214}, winner="NS", kind="play", verified=True,
                             absent_players=(), note=None)
    assert cli_rounds._absent_and_order(played, ["NS", "EW", "NS"], None) == (None, ["NS", "EW"])
    gone = SimpleNamespace(scores={"EW": 0, "NS": 200}, winner="NS", kind="forfeit", verified=False,
                           absent_players=(7, 9), note=None)
    assert cli_rounds._absent_and_order(gone, ["NS", "EW"], {7: "Ana"}) == ("Ana, #9", [])
    assert cli_rounds._result_text(gone, ["NS", "EW"], people={7: "Ana"}).startswith("forfeit: Ana, #9 did not")
    assert cli_rounds._score_text(gone, ["NS", "EW"], {7: "Ana"}) == "forfeit: Ana, #9 absent"
    assert cli_rounds._score_text(played, ["NS", "EW"]) == "214–40 NS won"


# --- pair --seed ratings:FILE finds a player by federation id -----------------------------------

def test_a_ratings_file_seeds_by_federation_id_and_by_name_only_without_one(tmp_path) -> None:
    """Each player of last month's event had a federation id; this month the names are spelt
    otherwise (each id now goes with another player's old name): the seeding follows the ids.  A
    player without an id is found by name; one whose id the file does not know is unrated, even
    with a name the file knows."""
    from tournament import add_players, create_event, make_settings, open_event
    from tournament.event.ratings import import_and_rate
    from tournament.event.roster import set_id
    from tournament.event.simulate import simulate_event

    from .test_pages import run

    played = tmp_path / "last-month.db"
    simulate_event(played, "competitive", "rotating", 8, 3, seed=11)
    store = open_event(played)
    ids = {p.name: f"F{p.id}" for p in store.players()}
    for name, fid in ids.items():
        set_id(store, name, fid)
    store.close()
    rated, _ = import_and_rate(tmp_path / "ratings.db", [played], [])
    assert {r.fed_id for r in rated} == set(ids.values())
    best = sorted(rated, key=lambda r: -r.ordinal)
    names = [r.name for r in best]
    # This month: the best seven by id, under the next one's name; the eighth without an id, under
    # their own name; and a newcomer whose id is unknown, under the best player's name.
    path = tmp_path / "ev.db"
    store = create_event(path, make_settings("Next", "competitive", "rotating", seed=1))
    entrants = [(names[i + 1], best[i].fed_id) for i in range(6)] + [(names[7], None), (names[0], "NEW1")]
    add_players(store, [n for n, _ in entrants], ids=[i for _, i in entrants])
    store.close()
    r = run("pair", path, "--seed", f"ratings:{tmp_path / 'ratings.db'}", "-q")
    assert r.exit_code == 0, r.output
    store = open_event(path)
    kept = store.standings_used(1)
    entrant = {p.id: (p.name, dict(entrants)[p.name]) for p in store.players()}
    order = [entrant[u] for u, _ in sorted(kept.items(), key=lambda item: item[1][0])]
    store.close()
    assert order == entrants[:7] + [(names[0], "NEW1")]

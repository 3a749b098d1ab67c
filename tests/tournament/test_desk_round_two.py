"""The director's desk, round two (issue 39, "Wrong or inconsistent today"): a typed score checked
against the range its game's engine declares, one result for a forfeit by one player everywhere,
head-to-head's two conventions, a requested sit-out, a result cleared, a report's folder made,
``--best`` paired with its ``--by``, and the desk's words (history, tables, pair numbers, brackets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from domrec import games
from tournament import add_players, create_event, enter_manual, make_settings, open_event, pair_next_round
from tournament.errors import UnusableInput

from tests.tournament.test_desk_gaps import run


# --- 1. a typed score within the range the game's engine declares --------------------------------

#: game, variant, whether its final totals can be below zero (docs/rules/).
SIGNS = [("competitive", None, False), ("domino-roads", None, False), ("horse-race", None, False),
         ("horse-race", "celko", True), ("castle-rock", None, True), ("broadway", None, True)]


@pytest.mark.parametrize("game, variant, below", SIGNS)
def test_each_engine_declares_the_range_of_its_final_scores(game, variant, below) -> None:
    span = games.engine(game).final_scores(variant or "standard", {})
    assert (span.refusal(-31) is None) is below
    assert span.refusal(53) is None


def test_castle_rock_takes_a_typed_score_below_zero_at_the_desk(tmp_path: Path) -> None:
    """What a verified Castle Rock record of the table gives, typed in: P2 ended at -31."""
    path = tmp_path / "cr.db"
    store = create_event(path, make_settings("CR", "castle-rock", "individual", 2, seed=3))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    store.close()
    run("result", path, "--round", 1, "--table", 1, "--score", "P1=53,P2=-31")
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id).scores == {"P1": 53, "P2": -31}


@pytest.mark.parametrize("game, variant, below", SIGNS)
def test_a_score_below_zero_is_refused_only_where_the_game_cannot_end_so(tmp_path: Path, game, variant,
                                                                          below) -> None:
    fmt, size = {"competitive": ("rotating", 4), "broadway": ("rotating", 4),
                 "domino-roads": ("individual", 3)}.get(game, ("individual", 2))
    store = create_event(tmp_path / "ev.db", make_settings("E", game, fmt, size, seed=1, variant=variant))
    try:
        add_players(store, ["Ana", "Bo", "Cy", "Di"][:size] if size == 3 else ["Ana", "Bo", "Cy", "Di"])
        pair_next_round(store)
        sides = store.tables(1)[0].sides()
        scores = {side: 60 - 90 * (i == 1) for i, side in enumerate(sides)}
        if below:
            assert enter_manual(store, 1, scores).status == "stored"
        else:
            with pytest.raises(UnusableInput, match=f"below zero, which no game of {game} can end with"):
                enter_manual(store, 1, scores)
    finally:
        store.close()


# --- 2. a forfeit by one player: one result everywhere, labelled forfeit -------------------------


def test_a_forfeit_by_one_player_reads_one_way_everywhere(tmp_path: Path) -> None:
    """Ana did not come; her partner Bo did: Bo won 200-0 in the standings, on his page, in the
    crosstable, and the report's table says forfeit (not "NS won (manual)")."""
    from tournament.event import public
    from tournament.event.results import enter_player_forfeit
    from tournament.event.standings import from_store

    path = tmp_path / "rot.db"
    store = create_event(path, make_settings("R", "competitive", "rotating", 4, seed=2, forfeit_score=200))
    add_players(store, ["Ana", "Bo", "Cy", "Di"])
    pair_next_round(store)
    table = store.tables(1)[0]
    ids = {p.name: p.id for p in store.players()}
    side_of = {s.player: s.side for s in table.seats}
    partner = next(p for p in table.players if p != ids["Ana"] and side_of[p] == side_of[ids["Ana"]])
    enter_player_forfeit(store, 1, ("Ana",))
    row = {r.unit: r for r in from_store(store).rows}[partner]
    assert (row.won, row.lost, row.points_for, row.points_against) == (1, 0, 200, 0)
    data = public.public_data(store)
    game = public.player_view(data, partner)["games"][0]
    assert (game["outcome"], game["for"], game["against"], game.get("forfeit")) == ("won", 200, 0, True)
    absent_game = public.player_view(data, ids["Ana"])["games"][0]
    assert (absent_game["outcome"], absent_game["for"], absent_game["against"]) == ("lost", 0, 200)
    cells = {r["id"]: r["cells"][0] for r in public.crosstable(data)["rows"]}
    assert (cells[partner]["outcome"], cells[partner]["for"], cells[partner]["against"]) == ("W", 200, 0)
    assert (cells[ids["Ana"]]["outcome"], cells[ids["Ana"]]["against"]) == ("L", 200)
    store.close()
    out = tmp_path / "rep" / "index.html"
    out.parent.mkdir()
    run("report", path, "-o", out)
    page = out.read_text()
    assert "forfeit: Ana did not play" in page and "(manual)" not in page
    shown = run("tables", path, "--round", 1).output
    assert "forfeit: Ana did not play; the others won 200-0" in shown and "won (forfeit)" not in shown


# --- 3. head-to-head: between exactly two tied (the default) or a mini-league --------------------


def test_head_to_head_between_two_by_default_and_a_mini_league_by_name(tmp_path: Path) -> None:
    """Pairs 1, 2, 3 all on one win: 1 beat 2 narrowly, then lost heavily to 4 (-596 in all), 3 is at
    -33.  In a mini-league of the three, 1's one win among them lifts it over both; between
    "exactly two" nothing among three counts, and efectividad decides them."""
    from tests.tournament.test_federation import _pairs_event
    from tournament.settings import HEAD_TO_HEAD_LEAGUE, HEAD_TO_HEAD_TWO, Settings

    games = [(1, 2, 200, 190), (4, 1, 800, 194), (3, 6, 200, 167), (4, 3, 266, 200), (2, 6, 200, 0)]
    keys = ("wins", "head-to-head", "efectividad")
    two = _pairs_event(games, keys)
    assert two.rows[0].unit == 4
    tied = [r for r in two.rows if r.won == 1]
    assert {r.unit for r in tied} == {1, 2, 3}
    assert all(r.head_to_head == 0 for r in tied)  # three tied: head-to-head falls to efectividad
    assert [r.unit for r in tied] == [2, 3, 1]
    league = _pairs_event(games, keys, HEAD_TO_HEAD_LEAGUE)
    assert [r.unit for r in league.rows if r.won == 1] == [1, 2, 3]  # its one win among the three
    # An event made before the two conventions keeps its mini-league; a new one says "two".
    made = make_settings("H", "competitive", "pairs", tiebreaks=keys)
    assert made.head_to_head == HEAD_TO_HEAD_TWO
    assert Settings.from_json(made.to_json()).head_to_head == HEAD_TO_HEAD_TWO
    legacy = made.to_json().replace('"head_to_head": "two", ', "")
    assert Settings.from_json(legacy).head_to_head == HEAD_TO_HEAD_LEAGUE
    path = tmp_path / "h.db"
    run("new", path, "--name", "H", "--game", "competitive", "--format", "pairs",
        "--tiebreak", "wins,head-to-head,efectividad", "--head-to-head", "mini-league")
    assert "head-to-head: mini-league" in run("info", path).output
    assert run("new", tmp_path / "x.db", "--name", "X", "--game", "competitive", "--format", "pairs",
               "--head-to-head", "three", code=2).output.count("\n") == 1


# --- 4. a sit-out asked for scores nothing by default; games played beside the score; average ------


def _four_pairs_paired(path: Path) -> Path:
    """A Competitive pairs event of four pairs, round 1 paired."""
    run("new", path, "--name", path.stem.upper(), "--game", "competitive", "--format", "pairs", "--seed", 1)
    for a, b in (("Ana", "Bo"), ("Cy", "Di"), ("Ed", "Flo"), ("Gus", "Hal")):
        run("add", path, a, b)
    run("pair", path)
    return path


def _rotating_with_a_sit_out(tmp_path: Path, *extra: str) -> Path:
    """Ten players rotating: Ana asked to sit round 1 out, and of the nine left the pairing leaves
    one over: two byes; every table's NS wins 120-80."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "so.db"
    run("new", path, "--name", "S", "--game", "competitive", "--format", "rotating", "--seed", 4, *extra)
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo", "Jo"]:
        run("add", path, name)
    run("sit-out", path, "Ana")
    run("pair", path)
    with open_event(path) as store:
        for t in store.tables(1):
            enter_manual(store, t.number, {"NS": 120, "EW": 80}, 1)
    return path


def test_a_sit_out_scores_nothing_unless_the_event_says_so(tmp_path: Path) -> None:
    from tournament.event.standings import from_store
    from tournament.pages import display

    path = _rotating_with_a_sit_out(tmp_path)
    with open_event(path) as store:
        rows = {r.name: r for r in from_store(store).rows}
        bye = next(r for r in rows.values() if r.byes and r.name != "Ana")
        assert (rows["Ana"].byes, rows["Ana"].wins, rows["Ana"].played) == (1, 0, 0)
        assert bye.wins == 1  # the pairing's bye keeps --bye: a game won
        # The games played beside the score: right after the keys that rank.
        table = from_store(store)
        assert display.display_columns(table.columns(), table.tiebreaks)[:6] == \
            ["rank", "name", "wins", "diff", "for", "played"]
    head = run("standings", path).output.split("wins", 1)[1].splitlines()[0]
    assert head.split()[:6:2] == ["diff", "for", "played"] or head.replace("┃", " ").split()[:3] == \
        ["diff", "for", "played"]
    assert "a sit-out asked for scores: against=0, for=0, wins=0" in run("info", path).output
    other = _rotating_with_a_sit_out(tmp_path / "b", "--sit-out-score", "wins=0.5")
    with open_event(other) as store:
        assert {r.name: r for r in from_store(store).rows}["Ana"].wins == 0.5


def test_a_field_of_uneven_games_may_rank_by_average(tmp_path: Path) -> None:
    from tournament.event.standings import from_store

    path = _rotating_with_a_sit_out(tmp_path, "--tiebreak", "average,wins,diff")
    with open_event(path) as store:
        table = from_store(store)
        rows = {r.name: r for r in table.rows}
        assert rows["Ana"].average == 0 and table.rows[0].average == 1.0
        assert all(r.average == (r.won + r.drawn / 2) / r.played for r in table.rows if r.played)
        assert "average" in table.columns() and "average (a game played" in table.ranked_by()
        # The bye counts for nothing in an average: the pairing's bye ranks below every winner.
        bye = next(r for r in table.rows if r.byes and r.name != "Ana")
        assert all(r.rank < bye.rank for r in table.rows if r.won)


# --- 5. a result taken back; --reason on forfeits and withdrawals ---------------------------------


def test_a_result_entered_by_mistake_is_cleared_and_the_round_unpaired(tmp_path: Path) -> None:
    path = _four_pairs_paired(tmp_path / "c.db")
    run("result", path, "--table", 1, "--score", "NS=200,EW=100")
    # Without a reason: refused, nothing changed (exit 2, one line).
    bare = run("clear", path, "--round", 1, "--table", 1, code=2)
    assert len(bare.output.strip().splitlines()) == 1 and "--reason" in bare.output
    done = run("clear", path, "--round", 1, "--table", 1, "--reason", "typed at the wrong table", "--by", "Eva")
    # The old scores in the table's seating order (NS before EW), as every other line says them.
    assert "the result (NS 200, EW 100; manual) is cleared" in done.output
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id) is None
        kinds = [r[0] for r in store.db.execute("SELECT kind FROM changes ORDER BY seq")]
        assert kinds[-1] == "result_deleted"
    shown = run("history", path).output
    assert "by Eva" in shown and "cleared (no result)" in shown and "typed at the wrong table" in shown
    assert run("clear", path, "--round", 1, "--table", 1, "--reason", "again", code=2).exit_code == 2
    run("unpair", path)  # no result left in the round: it can be un-paired
    with open_event(path) as store:
        assert store.last_round() == 0
        assert run("check", path).exit_code == 0


def test_forfeits_and_withdrawals_take_a_reason(tmp_path: Path) -> None:
    path = tmp_path / "f.db"
    run("new", path, "--name", "F", "--game", "competitive", "--format", "pairs", "--seed", 1)
    for a, b in (("Ana", "Bo"), ("Cy", "Di")):
        run("add", path, a, b)
    run("pair", path)
    run("result", path, "--table", 1, "--forfeit", "EW", "--reason", "stuck in traffic", "--by", "Eva")
    run("withdraw", path, "Ana", "--reason", "a family matter")
    shown = run("history", path).output
    assert "stuck in traffic" in shown and "a family matter" in shown
    assert run("result", path, "--table", 1, "--score", "NS=1,EW=2", "--reason", "x", code=2).exit_code == 2


def test_the_directors_page_takes_a_result_back(tmp_path: Path) -> None:
    import starlette.testclient

    from tests.tournament.test_venue import _auth, _event, _key, _server

    path = _event(tmp_path)
    server = _server(path)
    try:
        client = starlette.testclient.TestClient(server.asgi)
        director = _key(server.call(server.venue.links, "http://testserver")["director"])
        url = "/api/v1/tables/1/1/result"
        assert client.post(url, json={"scores": {"NS": 150, "EW": 90}}, headers=_auth(director)).status_code == 200
        refused = client.post(url + "/clear", json={}, headers=_auth(director))
        assert refused.status_code == 422 and "reason" in refused.json()["error"]
        done = client.post(url + "/clear", json={"reason": "wrong table"}, headers=_auth(director))
        assert done.status_code == 200 and "cleared" in " ".join(done.json()["said"])
    finally:
        server.close()
    with open_event(path) as store:
        assert store.result_for(store.tables(1)[0].id) is None


# --- 6. report -o report/x.html makes the folder -------------------------------------------------


def test_the_report_makes_its_missing_folder(tmp_path: Path, monkeypatch) -> None:
    path = tmp_path / "r.db"
    run("new", path, "--name", "R", "--game", "competitive", "--format", "pairs")
    for a, b in (("Ana", "Bo"), ("Cy", "Di")):
        run("add", path, a, b)
    run("pair", path)
    monkeypatch.chdir(tmp_path)
    run("report", path, "-o", "report/x.html")
    assert (tmp_path / "report" / "x.html").is_file() and (tmp_path / "report" / "x-pages").is_dir()
    run("export", path, "-o", "export/x.json")
    assert (tmp_path / "export" / "x.json").is_file()
    far = run("report", path, "-o", "a/b/x.html", code=2).output
    assert "cannot make a/b: folder a does not exist" in far and not (tmp_path / "a").exists()


# --- 7. --best pairs with its --by; withdrawn players marked in prize lists -----------------------


def test_best_pairs_with_its_by_and_withdrawn_players_are_marked(tmp_path: Path) -> None:
    import json

    from tests.tournament.test_prizes import PLAYERS

    (tmp_path / "p.csv").write_text(PLAYERS, encoding="utf-8")
    path = tmp_path / "ev.db"
    run("new", path, "--name", "Club", "--game", "competitive", "--format", "rotating", "--seed", "3")
    run("add", path, "--csv", tmp_path / "p.csv")
    with open_event(path) as store:
        for r in range(2):
            pair_next_round(store)
            for t in store.tables(store.last_round()):
                sides = t.sides()
                enter_manual(store, t.number, {sides[0]: 100 + 10 * t.number + r, sides[1]: 80}, t.round)
    run("withdraw", path, "Ana")
    out = tmp_path / "x.json"
    run("export", path, "-o", out, "--by", "club", "--best", "2", "--by", "sex")
    prizes = json.loads(out.read_text(encoding="utf-8"))["prizes"]
    assert "groups" in prizes["club"] and "groups" not in prizes["sex"]  # no "sex: the sum of the best 2"
    run("export", path, "-o", out, "--by", "sex", "--best", "1", "--by", "club", "--best", "3", "--force")
    prizes = json.loads(out.read_text(encoding="utf-8"))["prizes"]
    assert (prizes["sex"]["groups"]["best"], prizes["club"]["groups"]["best"]) == (1, 3)
    assert run("export", path, "-o", out, "--by", "club", "--best", "2", "--best", "3", "--force",
               code=2).output.count("\n") == 1
    # Ana withdrew: still on the lists with her games, marked so.
    groups = {r["club"]: r for r in prizes["club"]["groups"]["rows"]}
    assert "Ana (withdrawn)" in groups["Norte"]["players"]
    page = tmp_path / "r.html"
    run("report", path, "-o", page, "--by", "club", "--best", "2", "--by", "sex")
    text = page.read_text(encoding="utf-8")
    assert "sex: the sum of the best" not in text and "club: the sum of the best 2" in text
    assert "Ana (withdrawn)" in text and "withdrawn" in text.split("sex: F", 1)[1].split("</table>", 1)[0]


# --- 8. the desk's words --------------------------------------------------------------------------


def test_tables_csv_gives_the_score_and_each_seats_result(tmp_path: Path) -> None:
    import csv

    path = _four_pairs_paired(tmp_path / "t.db")
    run("result", path, "--table", 1, "--score", "NS=200,EW=120")
    run("result", path, "--table", 2, "--forfeit", "NS")
    rows = list(csv.DictReader(run("tables", path, "--csv").output.splitlines()))
    assert "in" not in {r["result"] for r in rows}
    one = {r["side"]: r for r in rows if r["table"] == "1"}
    assert one["NS"]["score"] == "NS=200,EW=120" and (one["NS"]["result"], one["EW"]["result"]) == ("won", "lost")
    two = {r["side"]: r["result"] for r in rows if r["table"] == "2"}
    assert two == {"NS": "lost (forfeit)", "EW": "won (forfeit)"}


def test_history_tells_the_desks_changes_in_sentences(tmp_path: Path) -> None:
    path = tmp_path / "h.db"
    run("new", path, "--name", "H", "--game", "competitive", "--format", "rotating", "--seed", 1)
    for name in ["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivo", "Jo", "Kim"]:
        run("add", path, name)
    run("apart", path, "Ana", "Kim")
    run("pin", path, "Bo", "--table", "2")
    run("pair", path)
    run("swap", path, "Cy", "Di")
    shown = run("history", path).output
    assert "kept Ana (#1) and Kim (#11) apart for the rest of the event" in shown
    assert "pinned Bo (#2) to table 2" in shown and "changed seats: Cy (#3) with Di (#4)" in shown
    assert "null" not in shown and "players [" not in shown

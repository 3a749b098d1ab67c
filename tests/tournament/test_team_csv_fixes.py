"""A team event's players CSV read as any players CSV is, its pairs named within their team, and a
team's withdrawal kept in the desk's trail as a pair's is (a tester's findings 1, 4, 5, 6, 11, 12, 18)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tournament.cli import app
from tournament.errors import PlayerInputError
from tournament.event.teams import read_teams_csv

runner = CliRunner()


def run(*args: object, code: int = 0) -> str:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == code, result.output
    assert "Traceback" not in result.output
    return result.output


def new_event(tmp_path: Path, size: int = 4) -> Path:
    event = tmp_path / "copa.db"
    run("new", event, "--name", "Copa", "--game", "competitive", "--format", "teams", "--team-size", size)
    return event


def _listed(event: Path) -> dict[str, dict[str, str]]:
    """Team name -> its row of ``players --csv`` grouped: the pairs and reserves of each team."""
    out: dict[str, dict[str, list[str]]] = {}
    for r in csv.DictReader(run("players", event, "--csv").splitlines()):
        mine = out.setdefault(r["team"], {"pairs": [], "reserves": []})
        if r["pair"]:
            if r["pair"] not in mine["pairs"]:
                mine["pairs"].append(r["pair"])
        else:
            mine["reserves"].append(r["name"])
    return out  # type: ignore[return-value]


EQUIPOS = ("name,team,pair,club\n"
           "Ana Ortiz,Los Primos,Primos 1,Norte\nBo Lindqvist,Los Primos,Primos 1,Norte\n"
           "Cruz Vega,Los Primos,Primos 2,Norte\nDani Soto,Los Primos,Primos 2,Norte\n"
           "Juan Gil,Capicúa,Capi A,Este\nKike Sanz,Capicúa,Capi A,Este\n"
           "Lola Diaz,Capicúa,Capi B,Este\nMemo Cano,Capicúa,Capi B,Este,oops\n")


# --- 1. a row with a cell no column heads ---------------------------------------------------------


def test_a_row_with_an_extra_cell_is_refused_at_its_line_and_nothing_is_added(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "equipos.csv"
    path.write_text(EQUIPOS)
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 9: 5 cells where the header names 4 columns; nothing was added" in said, said
    assert _listed(event) == {}


def test_an_extra_cell_without_a_pair_column_and_a_comma_in_a_name_are_refused(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team,club\nUrsu Paz,Zorros,Norte\nVic Dal,Zorros,Norte\nWen Yu,Zorros,Norte,sobra\n"
                    "Xavi Gomez,Zorros,Norte\n")
    assert f"{path}, line 4: 4 cells where the header names 3 columns" in run("add", event, "--csv", path, code=2)
    path.write_text("name,team\nUrsu Paz,Zorros\nVic Dal,Zorros\nGomez, Xavi,Zorros\nYoli Mar,Zorros\n")
    assert f"{path}, line 4: 3 cells where the header names 2 columns" in run("add", event, "--csv", path, code=2)
    assert _listed(event) == {}


def test_an_empty_cell_past_the_header_loses_nothing_and_is_let_be(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team\nA,Azul,\nB,Azul\nC,Azul, \nD,Azul\n")
    assert "Azul: 2 pairs, 0 reserves" in run("add", event, "--csv", path)


# --- 4. reserves without a pair column --------------------------------------------------------------


@pytest.mark.parametrize("size, rows, pairs, reserves", [(4, 6, 2, 2), (4, 5, 2, 1), (6, 8, 3, 2), (6, 6, 3, 0)])
def test_rows_beyond_the_teams_pairs_are_its_reserves_up_to_two(tmp_path: Path, size: int, rows: int, pairs: int,
                                                                reserves: int) -> None:
    event = new_event(tmp_path, size)
    path = tmp_path / "p.csv"
    path.write_text("name,team\n" + "".join(f"P{i},Azul\n" for i in range(rows)))
    out = run("add", event, "--csv", path)
    assert f"Azul: {pairs} pairs, {reserves} reserve{'s' if reserves != 1 else ''}" in out, out
    assert len(_listed(event)["Azul"]["reserves"]) == reserves


def test_a_third_reserve_or_a_team_short_of_rows_is_refused_at_its_line(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team\n" + "".join(f"P{i},Azul\n" for i in range(7)))
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 8: team 'Azul' has 3 reserves; a team registers at most 2" in said, said
    path.write_text("name,team\nA,Azul\nB,Azul\nC,Azul\n")
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 4: team 'Azul' has 3 players; a team of 4 plays 2 pairs" in said, said


def test_the_reader_splits_a_team_by_the_events_pairs(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("name,team\n" + "".join(f"P{i},Azul\n" for i in range(6)))
    (team, pairs, reserves), = read_teams_csv(path, 2)[0]
    assert [p[:2] for p in pairs] == [("P0", "P1"), ("P2", "P3")] and reserves == ["P4", "P5"]
    (team, pairs, reserves), = read_teams_csv(path, 3)[0]
    assert len(pairs) == 3 and reserves == []


# --- 5. pairs numbered within their team ------------------------------------------------------------


def test_pairs_numbered_1_and_2_in_each_team_are_named_after_their_team(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team,pair\nFede,La Dupla,1\nGema,La Dupla,1\nHugo,La Dupla,2\nInes,La Dupla,2\n"
                    "Nora,Tranque,2\nOmar,Tranque,2\nPepa,Tranque,1\nQuique,Tranque,1\nRita,Tranque,reserve\n")
    out = run("add", event, "--csv", path)
    assert "La Dupla: 2 pairs, 0 reserves" in out and "Tranque: 2 pairs, 1 reserve" in out, out
    listed = _listed(event)
    assert listed["La Dupla"]["pairs"] == ["La Dupla 1", "La Dupla 2"]
    assert listed["Tranque"]["pairs"] == ["Tranque 2", "Tranque 1"]
    # The captain names them by the team's own numbers too.
    out = run("team", event, "lineup", "Tranque", "1", "2")
    assert "table 1 of the match: Tranque 1, table 2 of the match: Tranque 2" in out, out
    # And so does a team entered on the command line.
    run("team", event, "add", "Nuevo", "--pair", "Q1,Q2,1", "--pair", "Q3,Q4,2")
    assert _listed(event)["Nuevo"]["pairs"] == ["Nuevo 1", "Nuevo 2"]


def test_a_pair_name_of_two_teams_is_refused_with_the_file_the_line_and_both_teams(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team,pair\nA,Leones,X\nB,Leones,X\nC,Leones,Y\nD,Leones,Y\n"
                    "E,Tigres,X\nF,Tigres,X\nG,Tigres,Z\nH,Tigres,Z\n")
    said = run("add", event, "--csv", path, code=2)
    assert re.search(rf"{re.escape(str(path))}, line 6: the pair 'X' of team 'Tigres' is named as a pair of team "
                     r"'Leones' \(line 2\); pair names are unique in the event \(number each team's pairs 1, 2",
                     said), said
    assert "listed twice" not in said and _listed(event) == {}


# --- 6. a semicolon-separated CSV ------------------------------------------------------------------


def test_a_semicolon_separated_team_csv_is_read(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "semi.csv"
    path.write_text("name;team;club\nAna;Rojo;1,5\nBo;Rojo;N\nCy;Rojo;N\nDi;Rojo;N\nEd;Verde;S\nFe;Verde;S\n"
                    "Gi;Verde;S\nHo;Verde;S\n")
    out = run("add", event, "--csv", path)
    assert "Rojo: 2 pairs, 0 reserves" in out and "Verde: 2 pairs, 0 reserves" in out, out
    rows = {r["name"]: r for r in csv.DictReader(run("players", event, "--csv").splitlines())}
    assert rows["Ana"]["club"] == "1,5" and rows["Ana"]["pair"] == "Ana & Bo"


# --- 12. a pair of one row ------------------------------------------------------------------------


def test_a_pair_of_one_player_is_said_in_the_singular_at_its_line(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team,pair\nZoe,Pollona,1\nAlba,Pollona,1\nBruno,Pollona,3\nCarla,Pollona,2\n"
                    "Dora,Pollona,2\n")
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 4: the pair '3' of team 'Pollona' has 1 player, not 2" in said, said
    path.write_text("name,team,pair\nZoe,Pollona,1\nAlba,Pollona,1\nBruno,Pollona,1\n")
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 4: the pair '1' of team 'Pollona' has 3 players, not 2" in said, said
    path.write_text("name,team,pair\nA,P,1\nB,P,1\nC,P,2\nD,P,2\nE,P,3\nF,P,3\n")
    said = run("add", event, "--csv", path, code=2)
    assert f"{path}, line 6: team 'P' names 3 pairs in the 'pair' column; a team of 4 plays 2 pairs" in said, said


def test_the_reader_refuses_in_one_line_naming_the_file(tmp_path: Path) -> None:
    path = tmp_path / "p.csv"
    path.write_text("name,team,pair\nZoe,Pollona,1\n")
    with pytest.raises(PlayerInputError) as e:
        read_teams_csv(path, 2)
    assert e.value.message.startswith(f"{path}, line 2: ") and "\n" not in e.value.message


# --- 11. a team's withdrawal in the desk's trail ------------------------------------------------------


def test_a_team_withdrawal_takes_a_reason_and_who_and_is_in_the_history(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team\n" + "".join(f"A{i},Azul\n" for i in range(4)) + "".join(f"R{i},Rojo\n"
                                                                                        for i in range(4)))
    run("add", event, "--csv", path)
    out = run("team", event, "withdraw", "Azul", "--reason", "the bus broke down", "--by", "Marta")
    assert "withdrew team Azul from round 1 on" in out
    history = run("history", event)
    assert re.search(r"round 1  by Marta: withdrew the team Azul from round 1 on — the bus broke down", history), \
        history
    said = run("team", event, "withdraw", "Azul", code=1)
    assert said.count("\n") == 1 and "team Azul has already withdrawn (from round 1)" in said
    assert "--reason and --by are for withdraw" in run("team", event, "rename", "Rojo", "Roja", "--reason", "x",
                                                       code=2)
    run("team", event, "withdraw", "Rojo")  # no --by: the login name, no reason
    assert re.search(r"by \S+: withdrew the team Rojo from round 1 on\n", run("history", event))


def test_a_reason_with_a_line_break_is_refused_and_nothing_written(tmp_path: Path) -> None:
    event = new_event(tmp_path)
    path = tmp_path / "p.csv"
    path.write_text("name,team\n" + "".join(f"A{i},Azul\n" for i in range(4)))
    run("add", event, "--csv", path)
    said = run("team", event, "withdraw", "Azul", "--reason", "one\ntwo", code=2)
    assert "the reason contains a line break" in said and said.count("\n") == 1, said
    assert "withdrew" not in run("history", event)
    assert "withdrew team Azul" in run("team", event, "withdraw", "Azul")


# --- 18. the docs ---------------------------------------------------------------------------------


def test_the_team_events_docs_do_not_say_groups_and_a_knockout_of_teams_are_refused() -> None:
    docs = (Path(__file__).parents[2] / "docs" / "tournament.md").read_text()
    section = docs[docs.index("## Team events"):docs.index("## Duplicate dominoes")]
    assert "**Groups, then a knockout of teams.**" in section
    not_yet = section[section.index("**Not yet.**"):]
    assert "knockout" not in not_yet.split("\n\n")[0] and "still to come" not in not_yet.split("\n\n")[0]

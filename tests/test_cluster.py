"""The Dask entry point (domrec/cluster.py): the same verdicts, labels and summary as one core."""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path

import pytest

from domrec import cli, cluster, reader, simulate
from domrec.summary import Writer

distributed = pytest.importorskip("distributed")

GAMES = ["competitive", "horse-race", "broadway", "castle-rock", "domino-roads"]


def _bump_first_score(doc: dict) -> bool:
    """A claimed score one point off in the first hand's result: the record breaks the rules."""
    scores = doc["hands"][0]["result"]["scores"]
    side = next(iter(scores))
    scores[side] += 1
    return True


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """Five shards, one per game, each with an invalid record, a broken line and a blank line;
    the last in a sub-folder."""
    root = tmp_path_factory.mktemp("shards")
    (root / "more").mkdir()
    for i, game in enumerate(GAMES):
        docs = [json.loads(simulate.dumps(r)) for r in simulate.simulate(game, 5, seed=i + 1, accidents=False)]
        assert _bump_first_score(docs[3])
        lines = [json.dumps(d) for d in docs]
        lines.insert(1, '{"game": "competitive", "broken')
        lines.insert(3, "")
        (root / ("more" if i == 4 else ".") / f"{game}.jsonl").write_text("\n".join(lines) + "\n")
    return root


def _single(paths: list[str]) -> list:
    return [r for src in reader.iter_sources(paths) for r in cli._reports(src)]


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as local, distributed.Client(local) as c:
        yield c


def test_the_archive_has_every_kind_of_verdict(archive):
    statuses = {r.status for r in _single([str(archive)])}
    assert statuses == {"valid", "invalid", "unusable"}


@pytest.mark.parametrize("block_bytes", [cluster.BLOCK_BYTES, 5000])
def test_verdicts_identical_to_one_core(archive, client, block_bytes):
    paths = [str(archive), str(archive / "missing.jsonl")]
    expected = _single(paths)
    got = list(cluster.validate_shards(paths, client=client, block_bytes=block_bytes))
    assert [r.to_dict() for r in got] == [r.to_dict() for r in expected]
    assert any(r.source.endswith("competitive.jsonl:2") and r.status == "unusable" for r in got)


def test_blocks_number_lines_as_the_shard_does(archive):
    shard = archive / "competitive.jsonl"
    parts = cluster.tasks([str(shard)], block_bytes=3000)
    assert len(parts) > 2
    text = shard.read_bytes()
    for part in parts:
        assert text[:part.start].count(b"\n") + 1 == part.first
        assert part.start == 0 or text[part.start - 1:part.start] == b"\n"
        assert text[:part.end].count(b"\n") == part.last
    assert parts[-1].end == len(text)


@pytest.mark.parametrize("suffix", ["csv", "jsonl"])
def test_summary_identical_to_one_core(archive, client, tmp_path, suffix):
    paths = [str(archive)]
    expected = tmp_path / f"one.{suffix}"
    with expected.open("w", encoding="utf-8", newline="\n") as f:
        Writer(f, suffix).write_all(_single(paths))
    got = tmp_path / f"dask.{suffix}"
    list(cluster.validate_shards(paths, summary=str(got), client=client, block_bytes=5000))
    assert got.read_bytes() == expected.read_bytes()


def test_a_summary_domrec_did_not_write_is_kept(archive, client, tmp_path):
    theirs = tmp_path / "theirs.csv"
    theirs.write_text("somebody's table\n")
    with pytest.raises(Exception) as e:
        list(cluster.validate_shards([str(archive)], summary=str(theirs), client=client))
    assert "force" in str(e.value)
    assert theirs.read_text() == "somebody's table\n"


def test_without_a_client_the_local_processes_give_the_same_verdicts(archive):
    expected = _single([str(archive)])
    got = list(cluster.validate_shards([str(archive)], block_bytes=5000))
    assert [r.to_dict() for r in got] == [r.to_dict() for r in expected]


def test_a_failed_task_names_its_records_unchecked():
    task = cluster.Task("a.jsonl", "a.jsonl", 100, 200, 7, 9)
    report = cluster.unchecked(task, "the workers checking them died")
    assert report.status == "unusable"
    assert report.source == "a.jsonl:7-9"
    assert "the records on lines 7 to 9 of a.jsonl were not checked" in report.problems[0].message
    assert "not checked" in report.problems[0].message


@pytest.mark.slow
def test_a_killed_worker_loses_no_record(tmp_path):
    """kill -9 one worker of two mid-run: distributed runs its tasks again; every record's verdict
    (or an unchecked verdict naming its lines) comes back, none is dropped."""
    shard = tmp_path / "big.jsonl"
    lines = [simulate.dumps(r) for r in simulate.simulate("broadway", 120, seed=3, accidents=False)]
    shard.write_text("\n".join(lines) + "\n")
    expected = _single([str(shard)])
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0") as local, distributed.Client(local) as c:
        pids = list(c.run(os.getpid).values())
        verdicts = cluster.validate_shards([str(shard)], client=c, block_bytes=20_000)
        got = [next(verdicts)]  # the run is under way: the other blocks are on the workers
        os.kill(pids[0], signal.SIGKILL)
        got.extend(verdicts)
    with pytest.raises(ProcessLookupError):
        os.kill(pids[0], 0)
    # one death is within distributed's allowed failures: the dead worker's blocks were run again
    assert [r.to_dict() for r in got] == [r.to_dict() for r in expected]


@pytest.mark.slow
def test_a_block_that_keeps_killing_workers_is_named_unchecked(tmp_path):
    """With no death allowed, the killed worker's blocks come back as unchecked verdicts naming
    their lines; every other record has its verdict, and no line is missing from both."""
    import dask

    shard = tmp_path / "big.jsonl"
    lines = [simulate.dumps(r) for r in simulate.simulate("broadway", 120, seed=3, accidents=False)]
    shard.write_text("\n".join(lines) + "\n")
    expected = {r.source: r.to_dict() for r in _single([str(shard)])}
    with dask.config.set({"distributed.scheduler.allowed-failures": 0}), \
            distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                     dashboard_address=":0") as local, distributed.Client(local) as c:
        pids = list(c.run(os.getpid).values())
        verdicts = cluster.validate_shards([str(shard)], client=c, block_bytes=20_000)
        got = [next(verdicts)]
        os.kill(pids[0], signal.SIGKILL)
        got.extend(verdicts)
    unchecked = [r for r in got if r.problems and "were not checked" in r.problems[0].message]
    assert unchecked, "the killed worker held blocks"
    covered = set()
    for r in unchecked:
        first, last = map(int, r.source.rsplit(":", 1)[1].split("-"))
        covered.update(f"{shard}:{n}" for n in range(first, last + 1))
    checked = {r.source: r.to_dict() for r in got if r not in unchecked}
    assert all(checked[s] == expected[s] for s in checked)
    assert set(expected) <= set(checked) | covered


def test_cli_without_dask_says_how_to_install(monkeypatch, archive):
    from typer.testing import CliRunner

    monkeypatch.setitem(sys.modules, "distributed", None)
    result = CliRunner().invoke(cli.app, ["validate", "--dask", "local", str(archive)])
    assert result.exit_code == 2
    assert "pip install 'domrec[dask]'" in result.output


def test_cli_dask_prints_what_one_core_prints(archive, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    monkeypatch.setattr(cluster.os, "cpu_count", lambda: 2)
    runner = CliRunner()
    one = runner.invoke(cli.app, ["validate", "--json", str(archive), "--summary", str(tmp_path / "one.csv")])
    many = runner.invoke(cli.app, ["validate", "--json", "--dask", "local", str(archive),
                                   "--summary", str(tmp_path / "dask.csv")])
    assert one.exit_code == many.exit_code == 2
    assert one.stdout == many.stdout
    assert (tmp_path / "one.csv").read_bytes() == (tmp_path / "dask.csv").read_bytes()



def test_cli_dask_does_not_read_its_summary_in_a_folder_it_checks(archive, tmp_path, monkeypatch):
    """The summary written inside a folder validated was read as records on the next run, and a
    folder holding only it (searched again by a worker) too."""
    from typer.testing import CliRunner

    monkeypatch.setattr(cluster.os, "cpu_count", lambda: 2)
    runner = CliRunner()
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "a.jsonl").write_text(simulate.dumps(next(iter(simulate.simulate("competitive", 1, seed=3)))) + "\n")
    for _ in range(2):
        r = runner.invoke(cli.app, ["validate", "--dask", "local", str(sub), "--summary", str(sub / "s.jsonl")])
        assert r.exit_code == 0 and "s.jsonl" not in r.stdout, r.output
    assert len((sub / "s.jsonl").read_text().splitlines()) == 1
    only = tmp_path / "only"
    only.mkdir()
    (only / "s.jsonl").write_bytes((sub / "s.jsonl").read_bytes())
    r = runner.invoke(cli.app, ["validate", "--dask", "local", str(only), "--summary", str(only / "s.jsonl")])
    assert r.exit_code == 2 and "in this folder but the one this command writes" in r.stdout, r.output

# --- DGN archives: cut between games -------------------------------------------------------

@pytest.fixture(scope="module")
def dgn_archive(tmp_path_factory) -> Path:
    """A DGN archive of every game in the forms clubs write, with a game breaking the rules, a
    game the reader refuses, a byte-order mark and no line break at its end."""
    from domrec import notation

    texts = []
    for i, game in enumerate(GAMES):
        for k, record in enumerate(simulate.simulate(game, 4, seed=i + 7, accidents=False)):
            if k == 0:  # a claimed score one point off: the game breaks the rules
                doc = json.loads(simulate.dumps(record))
                assert _bump_first_score(doc)
                texts.append(notation.dumps(reader.loads(json.dumps(doc))))
            elif k == 1:  # a game the reader refuses
                texts.append(notation.dumps(record).replace("hand 2", "hand 2 lead Q", 1))
            else:
                texts.append(notation.dumps_typed(record, keep_deal=False, seats=k == 2, ends=True))
    path = tmp_path_factory.mktemp("dgn") / "club.dgn"
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(t.rstrip("\n") + "\n" for t in texts).rstrip("\n").encode())
    return path


def _by_tasks(paths: list[str], block_bytes: int) -> list[dict]:
    return [r.to_dict() for t in cluster.tasks(paths, block_bytes) for r in cluster.check_task(t)]


@pytest.mark.parametrize("block_bytes", [1, 700, 20_000, cluster.BLOCK_BYTES])
def test_a_dgn_archive_cut_in_blocks_gives_one_cores_verdicts(dgn_archive, block_bytes):
    expected = [r.to_dict() for r in _single([str(dgn_archive)])]
    assert {r["status"] for r in expected} == {"valid", "invalid", "unusable"}
    parts = cluster.tasks([str(dgn_archive)], block_bytes)
    assert (len(parts) > 1) == (block_bytes < dgn_archive.stat().st_size)
    assert _by_tasks([str(dgn_archive)], block_bytes) == expected


def test_dgn_blocks_start_where_games_start_and_number_lines_as_the_file(dgn_archive):
    from domrec.dgn_archive import split_games

    text = dgn_archive.read_bytes()
    starts = {(c.offset, c.first_line) for c in split_games(text)}
    parts = cluster.tasks([str(dgn_archive)], block_bytes=2000)
    assert len(parts) > 2
    for part in parts:
        assert (part.start, part.first) in starts or part.start == 0
        assert text[:part.end].count(b"\n") + (part.end == len(text) and not text.endswith(b"\n")) == part.last
    assert parts[-1].end == len(text)


def test_a_dgn_game_too_long_in_a_block_is_reported_at_its_line(tmp_path, monkeypatch):
    from domrec import notation

    games = sorted((notation.dumps(r).encode() for r in simulate.simulate("competitive", 8, 3)), key=len)
    small, big = games[0], games[-1]
    monkeypatch.setattr(reader, "MAX_DGN_GAME_BYTES", (len(small) + len(big)) // 2)
    path = tmp_path / "mixed.dgn"
    path.write_bytes(b"\n".join([small, big, small, big, small]))
    expected = [r.to_dict() for r in _single([str(path)])]
    assert [r["status"] for r in expected] == ["valid", "unusable", "valid", "unusable", "valid"]
    for block_bytes in (1, len(small) + 1, 3 * len(big)):
        assert _by_tasks([str(path)], block_bytes) == expected


def test_dask_checks_a_dgn_archive_in_blocks_as_one_core_does(dgn_archive, client):
    expected = [r.to_dict() for r in _single([str(dgn_archive)])]
    got = list(cluster.validate_shards([str(dgn_archive)], client=client, block_bytes=3000))
    assert [r.to_dict() for r in got] == expected

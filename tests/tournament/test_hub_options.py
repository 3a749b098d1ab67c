"""The hub's and the archive's refusals of a NATS address or credentials name their own options
(``--nats``, ``--creds``), not ``serve``'s (``--upstream``, ``--upstream-creds``); one line, exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tournament.errors import UnusableInput
from tournament.web.upstream import connect_options

pytest.importorskip("nats", reason="the NATS client is not installed (pip install nats-py)")

ROOT = Path(__file__).resolve().parents[2]


def _refusal(*args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "tournament.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    return done.stderr.strip()


@pytest.mark.parametrize("command", [["hub", "--port", "8931"], ["archive", "-o", "NEVER"]])
def test_the_hub_and_the_archive_name_their_own_options(tmp_path: Path, command: list[str]) -> None:
    command = [str(tmp_path / "never.jsonl") if a == "NEVER" else a for a in command]
    said = _refusal(*command, "--nats", "http://x")
    assert said.startswith("error: --nats 'http://x': ") and "--upstream" not in said
    missing = tmp_path / "nonexist"
    said = _refusal(*command, "--nats", "nats://127.0.0.1:4333", "--creds", str(missing))
    assert said.startswith(f"error: --creds {missing}: cannot be read") and "--upstream" not in said
    bad = tmp_path / "bad.creds"
    bad.write_text("no colon here\n")
    said = _refusal(*command, "--nats", "nats://127.0.0.1:4333", "--creds", str(bad))
    assert said.startswith(f"error: --creds {bad}: neither") and "--upstream" not in said
    assert not (tmp_path / "never.jsonl").exists()


def test_serve_still_names_its_own() -> None:
    with pytest.raises(UnusableInput, match=r"^--upstream 'http://x': "):
        connect_options("http://x", None)
    with pytest.raises(UnusableInput, match=r"^--upstream-creds nonexist: cannot be read"):
        connect_options("nats://127.0.0.1:4333", Path("nonexist"))


@pytest.mark.parametrize("url", ["nats://[::1", "nats://127.0.0.1:99999", "nats://127.0.0.1:x", "nats://:4222",
                                 "nats://", "nats://127.0.0.1 :4222"])
def test_an_address_nats_cannot_connect_to_is_refused_at_once(url: str) -> None:
    """A bracket left open, a port past 65535 or not a number, no host: nats-py refuses them only
    when it connects, so the hub and serve --upstream started and retried them every second for
    ever ("invalid connect url option"); refused in one line at start-up, as ``http://x`` is."""
    for option in ("--upstream", "--nats"):
        with pytest.raises(UnusableInput) as e:
            connect_options(url, None, option)
        assert str(e.value) == f"{option} {url!r}: a NATS server's address is nats://HOST:PORT (or tls://HOST:PORT)"
    assert connect_options("nats://[::1]:4222", None) == {"servers": ["nats://[::1]:4222"]}


def test_an_archive_over_an_existing_file_is_refused_before_the_streams_are_read(tmp_path: Path) -> None:
    """The archive is refused at once where its file exists (reading every stream first took a while,
    only to be refused then): here no NATS server answers at the address, and the refusal is still
    the file's.  The file is as it was, and nothing is left beside it."""
    kept = tmp_path / "season.jsonl"
    kept.write_text("a club's own file\n")
    said = _refusal("archive", "--nats", "nats://127.0.0.1:9", "-o", str(kept))
    assert said == f"error: {kept} exists: give a new file (-o)"
    assert kept.read_text() == "a club's own file\n" and sorted(tmp_path.iterdir()) == [kept]


def test_an_archive_stopped_while_written_leaves_no_half_file(tmp_path: Path, monkeypatch) -> None:
    """The archive is written beside its name and renamed into place once whole: a run stopped in
    the middle (Ctrl-C, a full disk) leaves neither a half archive nor the file it was written in."""
    from typer.testing import CliRunner

    import tournament.web.hub as hub
    from tournament.cli import app

    async def read_all(url, options):
        return ["an event"]

    def archive_lines(events):
        yield '{"record": 1}'
        raise KeyboardInterrupt

    monkeypatch.setattr(hub, "read_all", read_all)
    monkeypatch.setattr(hub, "archive_lines", archive_lines)
    out = tmp_path / "season.jsonl"
    done = CliRunner().invoke(app, ["archive", "--nats", "nats://127.0.0.1:9", "-o", str(out)])
    assert done.exit_code != 0
    assert list(tmp_path.iterdir()) == []

"""`domrec simulate`'s refusals of what was typed on its command line are said at the option typed
(``--players``, ``--option NAME``, ``--variant``), never at a JSON Pointer into a record nobody
gave (``/players:``, ``/rules/options/bogus:``); exit 2, one line."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _simulate(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "domrec.cli", "simulate", *args, "-n", "1"],
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("args, said", [
    (("competitive", "-p", "3"), "error: --players: Competitive dominoes needs exactly four players"),
    (("castle-rock", "--players", "9"), "error: --players: Castle Rock is played by two to six players"),
    (("competitive", "--option", "bogus=1"), 'error: --option bogus: competitive has no rule option "bogus"'),
    (("competitive", "--option", "first_lead=zz"), "error: --option first_lead: rule option first_lead must be"),
    (("competitive", "--variant", "celkoo"), 'error: --variant: competitive has no variant "celkoo"'),
])
def test_a_slip_is_said_at_the_option_typed(args, said):
    done = _simulate(*args)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(said), lines
    assert "/players" not in done.stderr and "/rules/" not in done.stderr


def test_a_good_command_is_untouched():
    done = _simulate("competitive", "-p", "4", "--seed", "3")
    assert done.returncode == 0 and done.stdout.count("\n") == 1 and done.stderr == ""

"""Run one command in this process and write its own peak memory on stderr as it ends.

    python tools/peak.py TARGET [ARGS...]

``TARGET`` is a module run as ``__main__`` (``domrec.cli``) or a ``module:function``
(``tournament.cli.app:main``); the command sees ``ARGS`` as its arguments.  Whatever way it
ends (an exit code, an exception), the last line on stderr is ``PEAK <kB>``: this process's
own high-water mark of resident memory.

Why a program of its own rather than ``ru_maxrss`` of a child: Linux carries ``ru_maxrss``
over an exec, so a child of a big test worker reports the worker's peak (399 MB seen in CI)
instead of its own.  ``VmHWM`` in ``/proc/self/status`` is the process's own; where there is
no ``/proc``, ``ru_maxrss`` is the best there is.  The memory tests
(``tests/test_limits*.py``) and ``benchmarks/bench_memory.py`` all measure through this one
program, so their figures are comparable."""

from __future__ import annotations

import re
import resource
import runpy
import sys
from pathlib import Path

#: This file, for the tests and the benchmark to run.
PROGRAM = Path(__file__).resolve()


def own_peak_kb() -> int:
    """This process's own peak resident memory, in kB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            return int(re.search(r"VmHWM:\s+(\d+)", status.read()).group(1))
    except (OSError, AttributeError):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main() -> None:
    target, sys.argv = sys.argv[1], sys.argv[1:]
    try:
        if ":" in target:
            module, function = target.split(":")
            getattr(__import__(module, fromlist=[function]), function)()
        else:
            runpy.run_module(target, run_name="__main__")
    finally:
        sys.stderr.write("PEAK %d\n" % own_peak_kb())


if __name__ == "__main__":
    main()

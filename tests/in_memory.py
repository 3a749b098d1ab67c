"""``tmp_path`` in memory, for the test modules that import it (``from tests.in_memory import
tmp_path``): a folder under /dev/shm where the platform has one, else pytest's own.

Records are saved whole, and fsynced, at every move (domrec/output.py), and an event's database
commits (fsyncs) at every change: on a disk that other processes keep busy, a test that records a
game or enters results waits seconds on the disk for each, its CPU idle.  Where a file is kept is
no part of what those tests check (the same code writes it, fsync included); the tests that are
about a disk (a full one, a file that cannot be made) make their case themselves."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

SHM = Path("/dev/shm")


@pytest.fixture
def tmp_path(tmp_path: Path):
    """A new empty folder in memory for the test (pytest's ``tmp_path`` where there is no /dev/shm)."""
    if not (SHM.is_dir() and os.access(SHM, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(prefix="domrec-test-", dir=SHM))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)

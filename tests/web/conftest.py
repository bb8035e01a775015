"""Fixtures of the tests of the commands that start servers."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from yatzy_site import serving


@pytest.fixture
def claims(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[list[int]]:
    """The lock descriptors taken in this test, released after it (a server's exit). The
    lock is a file of this test's, as beside an SQLite database, whatever this run's
    database (tests/deploy/test_serving_alone.py: the real one)."""
    monkeypatch.setattr(serving, "lock_path", lambda: tmp_path / "db.sqlite3.serving")
    taken: list[int] = []
    claim = serving.claim

    def recorded(address: str) -> int | None:
        fd = claim(address)
        taken.append(fd)
        return fd

    monkeypatch.setattr(serving, "claim", recorded)
    yield taken
    for fd in taken:
        if fd is not None:
            os.close(fd)


@pytest.fixture
def daphne(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """The command lines ``serve`` would have become."""
    started: list[list[str]] = []
    monkeypatch.setattr(os, "execv", lambda path, argv: started.append([path, *argv]))
    yield started
    serving.release_names()  # which daphne would have held (PostgreSQL)

"""How long a test waits for what must come: a page, a socket's message, a server.
Every such wait is for a condition, bounded by YATZY_E2E_TIMEOUT_S (30 s unless set):
on a busy 2-core CI machine a page or a socket can take seconds."""

from __future__ import annotations

import os
import time
from collections.abc import Callable


def seconds_from_environment(variable: str, default: float) -> float:
    value = os.environ.get(variable, "")
    if not value:
        return default
    try:
        seconds = float(value)
    except ValueError:
        raise ValueError(f"{variable}={value!r} is not a number of seconds") from None
    if seconds <= 0:
        raise ValueError(f"{variable}={value!r} must be more than 0 seconds")
    return seconds


WAIT_S = seconds_from_environment("YATZY_E2E_TIMEOUT_S", 30)


def eventually(condition: Callable[[], bool], what: str) -> None:
    """Wait for ``condition()`` to hold, asking again every 20 ms, for up to WAIT_S: for
    what another process does in its own time (PostgreSQL ending a closed session)."""
    deadline = time.monotonic() + WAIT_S
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not within {WAIT_S:g} s: {what}")
        time.sleep(0.02)

"""Run actions at the same moment in threads, each on its own database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection


def race(actions: Sequence[Callable[[], Any]], timeout: float = 30) -> list[Any]:
    """Start every action at once; return each one's result or the exception it raised."""
    barrier = threading.Barrier(len(actions))
    outcomes: list[Any] = [None] * len(actions)

    def run(index: int, action: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            outcomes[index] = action()
        except Exception as error:  # the outcome under test, kept for the assertions
            outcomes[index] = error
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=(index, action)) for index, action in enumerate(actions)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
        if thread.is_alive():
            raise TimeoutError("a racing action did not finish")
    return outcomes

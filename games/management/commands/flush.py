"""Django's ``flush``, which tries again when PostgreSQL chose it to break a deadlock.

Its one statement truncates every table, taking their locks one after another; a
statement of a server still at work on the database (a socket's goodbye, a computer
player's step, a list pushed) that holds one of those tables and asks for another is a
deadlock, and PostgreSQL aborts one side. The test suite flushes the database after
each browser test while its live server may be doing just that: one failed run in CI
(a browser test's teardown) was this. The flush is rolled back whole when it is
aborted, so it is tried again, a few times.

An app's command of the same name takes the place of Django's (Django's "Overriding
commands"); this one adds nothing else.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import CommandError
from django.core.management.commands import flush

ATTEMPTS = 3
DEADLOCK = "40P01"  # PostgreSQL's SQLSTATE for "deadlock detected"


def is_deadlock(error: BaseException) -> bool:
    """Whether ``error`` (Django's wrapping of the driver's error, or the driver's own)
    was PostgreSQL breaking a deadlock."""
    while error is not None:
        if getattr(error, "sqlstate", None) == DEADLOCK:
            return True
        error = error.__cause__  # type: ignore[assignment]
    return False


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        attempts = 1 if options.get("interactive") else ATTEMPTS
        for attempt in range(1, attempts + 1):
            try:
                super().handle(**options)
                return
            except CommandError as error:
                if attempt == attempts or not is_deadlock(error):
                    raise
                self.stderr.write(f"The flush met a deadlock; trying again ({attempt}).")
                time.sleep(0.1 * attempt)

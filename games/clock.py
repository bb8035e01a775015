"""The site's clock, where what it shows turns on the date: which day's challenge is
on (a day runs midnight to midnight UTC) and whether its seed may be revealed.

It is the machine's time shifted by ``YATZY_CLOCK_SHIFT_S`` (0 unless set): the one
way to try a day's end without waiting for it, in tests and by hand.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone


def now() -> dt.datetime:
    """The time it is for the site (aware, UTC)."""
    return timezone.now() + settings.YATZY_CLOCK_SHIFT


def day_of(moment: dt.datetime) -> dt.date:
    """The UTC day ``moment`` falls on."""
    return moment.astimezone(dt.UTC).date()


def today() -> dt.date:
    return day_of(now())


def start_of(day: dt.date) -> dt.datetime:
    """Midnight UTC at the start of ``day``."""
    return dt.datetime.combine(day, dt.time(), tzinfo=dt.UTC)


def end_of(day: dt.date) -> dt.datetime:
    """Midnight UTC at the end of ``day``: the start of the next."""
    return start_of(day + dt.timedelta(days=1))

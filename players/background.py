"""Work done after a request, on one thread of the process's own: a game's records and
ratings are worked out there, not in the move that ended it (nor in a page's view).

A process that stops before its queue is done leaves records unmade or unrated:
``manage.py rate`` makes and rates whatever is missing, and any game of a player's is
recorded again as they next log in.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connections

logger = logging.getLogger(__name__)

_worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="records")


def run(job: Callable[..., Any], *args: Any) -> None:
    """Run ``job(*args)`` after this request, on the records' thread (at once under
    ``YATZY_RECORDS_RUNNER=inline``)."""
    if settings.YATZY_RECORDS_RUNNER == "inline":
        job(*args)
    else:
        _worker.submit(_in_the_background, job, *args)


def _in_the_background(job: Callable[..., Any], *args: Any) -> None:
    close_old_connections()
    try:
        job(*args)
    except Exception:
        logger.exception("a player's records could not be made: manage.py rate makes them")
    finally:
        connections.close_all()

"""``manage.py tidy``: delete the abandoned lobbies and unfinished games and the expired
sessions (``games.retention``); finished games stay in the history.

Once, or with ``--every SECONDS`` again and again until stopped: Compose runs it so as
a service of its own. ``manage.py serve`` starts it so beside the server
(``YATZY_TIDY_EVERY_S``), with ``--with-parent``: it then ends when the server does.
"""

from __future__ import annotations

import logging
import os
import time

from django.conf import settings
from django.db import DatabaseError, connection
from django.utils import timezone

from games import retention
from games.management.telling import TellingCommand

logger = logging.getLogger(__name__)


class Command(TellingCommand):
    help = (
        "Delete lobbies nobody has touched for YATZY_KEEP_LOBBY_H hours, unfinished games"
        " nobody has moved in for YATZY_KEEP_UNFINISHED_DAYS days, and expired sessions."
        " Finished games stay."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--every",
            type=float,
            default=0,
            metavar="SECONDS",
            help="tidy again every so many seconds, until stopped",
        )
        parser.add_argument(
            "--with-parent",
            action="store_true",
            help="stop when the process that started this one ends (manage.py serve's)",
        )

    def handle(self, *args, every: float, with_parent: bool, **options) -> None:
        parent = os.getppid()
        try:
            while True:
                self.tidy_once(every)
                if not every:
                    return
                connection.close()  # not held between rounds
                deadline = time.monotonic() + every
                while time.monotonic() < deadline:
                    if with_parent and os.getppid() != parent:
                        return  # the server is gone, and this one was its helper
                    time.sleep(min(1.0, max(0.0, deadline - time.monotonic())))
        except KeyboardInterrupt:  # Ctrl+C on `make run` reaches the whole group
            return

    def tidy_once(self, every: float) -> None:
        try:
            done = retention.tidy(timezone.now())
        except DatabaseError:
            if not every:
                raise
            # the database is away for now (a restart): the next round tries again
            logger.exception("tidy failed; it tries again in %s s", every)
            return
        self.say(
            f"Tidied: deleted {done.lobbies} abandoned lobby(ies), {done.unfinished} unfinished"
            f" game(s) nobody moved in for {settings.YATZY_KEEP_UNFINISHED_DAYS} days and"
            f" {done.sessions} expired session(s)."
        )

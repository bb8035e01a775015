"""Computer players at the table: their moves, one step at a time, at a watchable pace.

The computer players hear that a table changed as its sockets do (``broadcast``'s
``table_changed``, sent as the move's transaction commits); where one of them is to
move, they ask for a step. Each process runs one timer thread that makes the step
after ``YATZY_BOT_DELAY`` seconds through ``services.bot_move``, which
locks the game and checks its version like any move: if a human, another process
or a repeated wake-up got there first, the step is dropped. A step leaves the next
one scheduled the same way, so a bot's turn plays itself out: hold, roll, ..., score.

If the process that owned the next step dies, the next browser to load or reconnect
to the table wakes the bot again (``nudge``).

Settings: ``YATZY_BOT_RUNNER`` "thread" (default) or "manual" (nothing runs by itself;
tests step bots with ``services.bot_move``), ``YATZY_BOT_DELAY`` in seconds.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections
from django.dispatch import receiver

from games import services
from games.broadcast import table_changed
from games.models import Game
from games.seating import bot_to_move

log = logging.getLogger(__name__)


class Runner:
    """A timer thread with a queue of (when, game code, version) steps to make."""

    def __init__(self) -> None:
        self._queue: list[tuple[float, str, int]] = []
        self._ready = threading.Condition()
        self._thread: threading.Thread | None = None

    def add(self, code: str, version: int, delay: float) -> None:
        with self._ready:
            heapq.heappush(self._queue, (time.monotonic() + delay, code, version))
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="bots", daemon=True)
                self._thread.start()
            self._ready.notify()

    def pending(self) -> int:
        with self._ready:
            return len(self._queue)

    def _run(self) -> None:
        while True:
            with self._ready:
                while not self._queue or self._queue[0][0] > time.monotonic():
                    timeout = self._queue[0][0] - time.monotonic() if self._queue else None
                    self._ready.wait(timeout)
                _, code, version = heapq.heappop(self._queue)
            self._step(code, version)

    @staticmethod
    def _step(code: str, version: int) -> None:
        try:
            services.bot_move(code, version)
        except Exception:  # a bot must never take the thread down with it
            log.exception("computer player's move in game %s at version %s failed", code, version)
        finally:
            close_old_connections()


runner = Runner()


def schedule(code: str, version: int, delay: float | None = None) -> None:
    """Have the computer player to move in ``code`` make its step from ``version``."""
    if settings.YATZY_BOT_RUNNER != "thread":
        return
    runner.add(code, version, settings.YATZY_BOT_DELAY if delay is None else delay)


@receiver(table_changed)
def heard(sender: object, code: str, version: int, game: Game | None, **kwargs: object) -> None:
    """A table changed: if a computer player is to move there, have it step."""
    if game is not None and game.version == version and bot_to_move(game):
        schedule(code, version)


def nudge(game: Game) -> None:
    """Wake a computer player whose step was lost (its process restarted): called when a
    browser loads or reconnects to the table. A step that is only late is harmless to
    ask twice: the version check lets one of them through."""
    if bot_to_move(game):
        last = game.events.order_by("-id").values_list("created_at", flat=True).first()
        idle = time.time() - last.timestamp() if last else 0
        if idle > 2 * settings.YATZY_BOT_DELAY + 1:
            schedule(game.code, game.version, delay=0)

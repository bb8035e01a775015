"""Computer players at the table: their moves, one step at a time, at a watchable pace.

The computer players hear that a table changed as its sockets do (``broadcast``'s
``table_changed``, sent as the move's transaction commits); where one of them is to
move, they ask for a step. The server's event loop makes the step after
``YATZY_BOT_DELAY`` seconds through ``services.bot_move``, which
locks the game and checks its version like any move: if a human, another process
or a repeated wake-up got there first, the step is dropped. A step leaves the next
one scheduled the same way, so a bot's turn plays itself out: hold, roll, ..., score.

If the process that owned the next step dies, or the step was asked for outside a
server (a management command), the next browser to load or reconnect to the table
wakes the bot again (``nudge``).

Settings: ``YATZY_BOT_RUNNER`` "thread" (default: the server runs the steps) or
"manual" (nothing runs by itself; tests step bots with ``services.bot_move``),
``YATZY_BOT_DELAY`` in seconds.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Callable
from datetime import datetime

from channels.db import database_sync_to_async
from django.conf import settings
from django.dispatch import receiver

from games import broadcast, clock, services
from games.broadcast import table_changed
from games.errors import GameNotFound
from games.models import Game
from games.seating import bot_to_move

log = logging.getLogger(__name__)

# a versioned action of the server's own at a table: a computer player's step, the
# skip of a turn whose time ran out
Action = Callable[[str, int], bool]


class Runner:
    """Steps to make, each ``delay`` seconds after it was asked for, on the event loop
    serving this process. The step itself runs through ``database_sync_to_async``, in
    asgiref's sync thread like a request's database work, so its notice is sent as a
    request's is (``broadcast``)."""

    def __init__(self) -> None:
        self._steps: set[asyncio.Task] = set()  # under way, kept from the collector

    def add(
        self, code: str, version: int, delay: float, action: Action = services.bot_move
    ) -> None:
        loop = broadcast.server_loop()
        if loop is None:  # not a server: the next browser at the table wakes it (``nudge``)
            return
        loop.call_soon_threadsafe(loop.call_later, delay, self._start, code, version, action)

    def _start(self, code: str, version: int, action: Action) -> None:
        # A context of its own: not the one of the step or request that asked for it
        # (asgiref's, which that sync thread's work left behind, or its answered page).
        step = database_sync_to_async(self._step)(code, version, action)
        task = asyncio.get_running_loop().create_task(step, context=contextvars.Context())
        self._steps.add(task)
        task.add_done_callback(self._steps.discard)

    @staticmethod
    def _step(code: str, version: int, action: Action) -> None:
        try:
            action(code, version)
        except GameNotFound:  # deleted since it was asked for (tidied away): nothing to do
            log.info(
                "%s in game %s at version %s: the game is gone", action.__name__, code, version
            )
        except Exception:  # a failed step must not go unseen
            log.exception("%s in game %s at version %s failed", action.__name__, code, version)


runner = Runner()


def schedule(code: str, version: int, delay: float | None = None) -> None:
    """Have the computer player to move in ``code`` make its step from ``version``."""
    if settings.YATZY_BOT_RUNNER != "thread":
        return
    runner.add(code, version, settings.YATZY_BOT_DELAY if delay is None else delay)


@receiver(table_changed)
def heard(sender: object, code: str, version: int, game: Game | None, **kwargs: object) -> None:
    """A table changed: if a computer player is to move there, have it step."""
    if game is None or game.version != version:
        return
    if bot_to_move(game):
        schedule(code, version, step_delay(game))
    elif game.turn_deadline is not None and game.status == Game.Status.PLAYING:
        expire_at(code, version, game.turn_deadline)


def expire_at(code: str, version: int, deadline: datetime) -> None:
    """Skip the turn of ``code`` at ``version`` when its time runs out (``deadline``,
    by the site's clock), unless the game has moved on by then. If the process dies
    first, the next browser to load the table skips it (``nudge``)."""
    if settings.YATZY_BOT_RUNNER != "thread":
        return
    delay = max(0.0, (deadline - clock.now()).total_seconds())
    runner.add(code, version, delay, services.expire_turn)


def step_delay(game: Game) -> float:
    """Seconds between two steps of a computer player at ``game``'s table, at its pace:
    relaxed (``YATZY_BOT_DELAY``, a move at a time a player can follow) or fast
    (``YATZY_BOT_FAST_DELAY``, a whole turn of up to six steps in about a second)."""
    if game.computer_pace == "fast":
        return min(settings.YATZY_BOT_FAST_DELAY, settings.YATZY_BOT_DELAY)
    return settings.YATZY_BOT_DELAY


def nudge(game: Game) -> bool:
    """Wake a computer player whose step was lost (its process restarted): called when a
    browser loads or reconnects to the table. A step that is only late is harmless to
    ask twice: the version check lets one of them through. A turn whose time ran out
    is skipped here and now; returns whether it was (the game read is then old)."""
    if game.turn_deadline is not None and clock.now() >= game.turn_deadline:
        # the turn's time ran out and its skip was lost: skipped now, and said so
        return services.expire_turn(game.code, game.version)
    if bot_to_move(game):
        last = game.events.order_by("-id").values_list("created_at", flat=True).first()
        idle = time.time() - last.timestamp() if last else 0
        if idle > 2 * settings.YATZY_BOT_DELAY + 1:
            schedule(game.code, game.version, delay=0)
    return False

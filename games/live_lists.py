"""A list of games that every page showing it follows live: the Watch page's games being
played (``games.watching``) and the Open tables page's rooms waiting for players
(``games.open_tables``).

A change to a listed game (a move, a seat taken, a room opened or closed, its host
gone) calls ``changed``. The process that committed it reads and renders the list, once
per language, at once and then at most once a ``PUSH_EVERY`` whatever the number of
changes, and sends those bytes to every page's socket of that list, in every process
(``LiveList.group``): each socket sends its page's language and neither reads nor
renders. A change that leaves every language's list as it was is not sent.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from channels.db import database_sync_to_async
from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from games import broadcast
from games.models import Game

PUSH_EVERY = 0.5  # seconds: at most one push in this long, the first change at once
# A push scheduled on a loop that no longer runs (a server stopping, a test's loop
# closed), or longer ago than this, was lost: the next change schedules another.
LOST_AFTER = 10.0

log = logging.getLogger(__name__)


@dataclass
class Pushes:
    """One process's pushes of a list: when the push now scheduled was, and on which
    loop (None: none is; the changes meanwhile wait for it), when the last began, and
    the lists it sent (a page that connects is sent its own, read then)."""

    pending: tuple[float, asyncio.AbstractEventLoop | None] | None = None
    last_push: float = -PUSH_EVERY
    last_lists: dict[str, str] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    tasks: set[asyncio.Task] = field(default_factory=set)  # kept from the collector


@dataclass
class LiveList:
    """A list of games, its page's part that shows it (``template``, a partial given
    ``rows``), and its socket's group and message key (``{key: html}``)."""

    name: str  # for the logs: "the list of games to watch"
    group: str
    key: str
    template: str
    games: Callable[[], list[Game]]
    rows: Callable[[list[Game]], list[dict]]
    pushes: Pushes = field(default_factory=Pushes)

    def render(self, games: list[Game] | None = None) -> str:
        """The list (of ``games``, else as it is now), in the active language."""
        found = self.games() if games is None else games
        return render_to_string(self.template, {"rows": self.rows(found)})

    def message(self, html: str) -> str:
        """What a page's socket sends of the list ``html``."""
        return json.dumps({self.key: html})

    def rendered(self) -> dict[str, str]:
        """The list as it is now in every language of the site, each as the message a
        page's socket sends, encoded once for all of them."""
        games = self.games()
        lists = {}
        for language, _name in settings.LANGUAGES:
            with translation.override(language):
                lists[language] = self.message(self.render(games))
        return lists

    def push(self) -> None:
        """Read and render the list, and send it to every page showing it (from a
        thread)."""
        pushes = self.pushes
        with pushes.lock:
            pushes.pending = None  # a change from now on is read by the next push
            pushes.last_push = time.monotonic()
        try:
            lists = self.rendered()
        except Exception:  # the next change pushes again
            log.exception("%s was not rendered", self.name)
            return
        with pushes.lock:
            if lists == pushes.last_lists:
                return
            pushes.last_lists = lists
        broadcast.send_to_group(self.group, {"type": "list.update", "lists": lists}, self.name)

    def changed(self) -> None:
        """A listed game changed, or one came or went: push the list, now if none was
        pushed in the last ``PUSH_EVERY``, else once that has passed, once for all the
        changes meanwhile. On a server, from its loop; elsewhere (a command, a test
        without a server), now."""
        pushes = self.pushes
        now = time.monotonic()
        loop = broadcast.server_loop()
        with pushes.lock:
            if pushes.pending is not None:
                at, on = pushes.pending
                if now - at < LOST_AFTER and (on is None or on.is_running()):
                    return  # a push is on its way, and will read this change
            pushes.pending = (now, loop)
            wait = max(0.0, pushes.last_push + PUSH_EVERY - now)
        if loop is None:
            self.push()
            return
        # in a context of its own, as broadcast.presence_changed's: the calling thread's
        # asgiref markers would make the push's trip to the thread look nested in its own
        later = functools.partial(
            loop.call_later, wait, self._push_from_loop, context=contextvars.Context()
        )
        try:
            loop.call_soon_threadsafe(later)
        except RuntimeError:  # the loop closed meanwhile: the server is stopping
            with pushes.lock:
                pushes.pending = None

    def _push_from_loop(self) -> None:
        task = asyncio.get_running_loop().create_task(database_sync_to_async(self.push)())
        self.pushes.tasks.add(task)
        task.add_done_callback(self.pushes.tasks.discard)

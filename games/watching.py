"""The games anyone may watch: which (``listed``), as the Watch page lists them (``rows``),
and the list pushed to every Watch page as it changes (``changed``).

Listed are the games being played that their players made open to anyone: quick play's
(strangers paired by the site) and those whose host chose "Anyone may watch"
(``Game.watchable``, off by default). The "public" option is another thing: whether a
finished game shows in the history.

A move at a listed table changes the list (its leading score, its round; a game that
starts or ends comes or goes). The process that committed it renders the list, once per
language, at once and then at most once a ``PUSH_EVERY`` whatever the number of moves,
and sends those
bytes to every Watch page's socket, in every process (``LIST_GROUP``): each socket sends
its page's language and neither reads nor renders.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import json
import logging
import threading
import time

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import Q, QuerySet
from django.dispatch import receiver
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from games import broadcast
from games.models import Game
from games.scorecard import column_heads
from games.tableview import RULESET_NAMES, seat_names

LIST_GROUP = "watch.list"
MOST = 50  # games a list shows, the latest started first
PUSH_EVERY = 0.5  # seconds: at most one push in this long, the first change at once

log = logging.getLogger(__name__)
# When the push now scheduled was scheduled, and on which loop (None: none is): the
# changes meanwhile wait for it. One whose loop no longer runs (a server stopping, a
# test's loop closed), or older than LOST_AFTER, was lost, and is scheduled again.
_pending: list[tuple[float, asyncio.AbstractEventLoop | None] | None] = [None]
_last_push = [-PUSH_EVERY]  # when the last push began (time.monotonic)
# The lists this process pushed last: a change that leaves every list as it was (a roll:
# the list shows scores and rounds) is not pushed. A page that connects is sent its
# own, read then.
_last_lists: list[dict[str, str] | None] = [None]
_pending_lock = threading.Lock()
LOST_AFTER = 10.0
_tasks: set[asyncio.Task] = set()  # pushes under way, kept from the collector


def open_to_anyone() -> Q:
    return Q(quick_play=True) | Q(watchable=True)


def listed() -> QuerySet[Game]:
    """The games being played that anyone may watch, the latest started first."""
    games = Game.objects.filter(open_to_anyone(), status=Game.Status.PLAYING)
    return games.order_by("-started_at", "-id").prefetch_related("seats")[:MOST]


def rows(games: list[Game]) -> list[dict]:
    """What the list says of each game, in the active language: its rules, its
    scorecards with their totals, the leader first, its round, and the way in."""
    found = []
    for game in games:
        state = game.started_state()
        heads = column_heads(state, seat_names(game))
        ranking = state.ranking()
        found.append(
            {
                "url": reverse("table", args=[game.code]),
                "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
                "scores": [
                    {"name": heads[index], "total": total, "leads": rank == 1}
                    for rank, index, total in ranking
                ],
                "round": min(state.round + 1, state.rounds),
                "rounds": state.rounds,
            }
        )
    return found


def render_list(games: list[Game]) -> str:
    """The list of ``games`` (``templates/games/watch.html#games``), in the active language."""
    return render_to_string("games/watch.html#games", {"rows": rows(games)})


def rendered() -> dict[str, str]:
    """The list as it is now, in every language of the site, each as the message a
    Watch page's socket sends (``{"games": html}``, encoded once for all of them)."""
    games = list(listed())
    lists = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            lists[language] = json.dumps({"games": render_list(games)})
    return lists


def push() -> None:
    """Read and render the list, and send it to every Watch page (from a thread)."""
    with _pending_lock:
        _pending[0] = None  # a change from now on is read by the next push
        _last_push[0] = time.monotonic()
    try:
        lists = rendered()
    except Exception:  # the next change pushes again
        log.exception("the list of games to watch was not rendered")
        return
    with _pending_lock:
        if lists == _last_lists[0]:
            return
        _last_lists[0] = lists
    message = {"type": "watch.list", "lists": lists}
    broadcast.send_to_group(LIST_GROUP, message, "the list of games to watch")


def changed() -> None:
    """A listed game changed: push the list, now if none was pushed in the last
    ``PUSH_EVERY``, else once that has passed, once for all the changes meanwhile. On a
    server, from its loop; elsewhere (a command, a test without a server), now."""
    now = time.monotonic()
    loop = broadcast.server_loop()
    with _pending_lock:
        scheduled = _pending[0]
        if scheduled is not None:
            at, on = scheduled
            if now - at < LOST_AFTER and (on is None or on.is_running()):
                return  # a push is on its way, and will read this change
        _pending[0] = (now, loop)
        wait = max(0.0, _last_push[0] + PUSH_EVERY - now)
    if loop is None:
        push()
        return
    # in a context of its own, as broadcast.presence_changed's: the calling thread's
    # asgiref markers would make the push's trip to the thread look nested in its own
    later = functools.partial(loop.call_later, wait, _push_from_loop, context=contextvars.Context())
    try:
        loop.call_soon_threadsafe(later)
    except RuntimeError:  # the loop closed meanwhile: the server is stopping
        with _pending_lock:
            _pending[0] = None


def _push_from_loop() -> None:
    task = asyncio.get_running_loop().create_task(database_sync_to_async(push)())
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


@receiver(broadcast.table_changed)
def on_table_changed(sender: object, code: str, version: int, game: Game | None, **kwargs) -> None:
    """A move committed: a listed game's changes the list."""
    if game is not None and (game.quick_play or game.watchable):
        changed()

"""Quick play's waiting page's WebSocket: server-to-browser only.

It connects (joins the groups of its browser's seek and of the counts, and is counted
as a page that keeps its browser waiting, or waits again: ``services.quick.arrive``),
says how many wait for each rule set whenever that changes, tells the page once a
stranger's press has seated its browser or it stopped waiting (the page then loads
the waiting page again, which takes it to the table or says so), beats every
``HEARTBEAT`` (a server that died leaves no one waiting for ever), and closes: the
browser's last waiting page gone, it waits no more.

Each message is JSON: ``{"counts": html}`` (the list of rule sets, rendered in the
page's language), or ``{"go": url}``: the page to load now (a table, or the waiting
page again when what this browser waits for changed).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from redis.exceptions import RedisError

from games import readers
from games.consumers import CLOSE_TRY_AGAIN_LATER, closed_for_limits, language_of
from games.errors import ActionError
from games.services import quick
from games.tableview import quick_counts
from games.viewer import NAME_KEY, Viewer, peek_viewer

logger = logging.getLogger(__name__)
# the page is sent elsewhere ({"go": url}) and its socket closed: it does not reconnect
CLOSE_GONE = 4000


class WaitingConsumer(AsyncWebsocketConsumer):
    browser_id = ""  # the browser waiting, once its seek is found
    ruleset = ""  # what it waits for: its own line in the counts
    counted: str | None = None  # whose open sockets this one is counted among
    arrived = False
    beat: asyncio.Task | None = None
    last_counts: dict[str, int] | None = None

    async def connect(self) -> None:
        await self.accept()
        if await closed_for_limits(self):
            return
        self.language = language_of(self.scope)
        self.ruleset = self.scope["url_route"]["kwargs"]["ruleset"]
        viewer, name = await database_sync_to_async(self._viewer)()
        self.browser_id = viewer.browser_id
        counted = readers.browser_of(self.browser_id, self.scope)
        if counted is not None:
            if not readers.OPEN.take(counted, settings.YATZY_SOCKETS_PER_BROWSER):
                await self.close(code=readers.CLOSE_TOO_MANY_SOCKETS, reason="too many sockets")
                return
            self.counted = counted
        if not self.browser_id or self.ruleset not in quick.TABLE_OPTIONS:
            await self.go(reverse("quick_wait"))  # a page the site did not make
            return
        # the groups first: a seat found or a count changed after the seek is read below
        # is told to this socket, one before it is in what the seek says
        await self.channel_layer.group_add(quick.COUNTS_GROUP, self.channel_name)
        await self.channel_layer.group_add(quick.seated_group(self.browser_id), self.channel_name)
        try:
            arrived = await database_sync_to_async(quick.arrive)(viewer, self.ruleset, name)
        except ActionError:  # no name to wait under (the session lost it)
            await self.go(reverse("quick_wait"))
            return
        if isinstance(arrived, quick.Pressed):
            if arrived.game is not None:  # someone was waiting: to the table
                await self.go(reverse("table", args=[arrived.game.code]))
                return
        elif arrived.game_id is not None or arrived.ruleset != self.ruleset:
            self.arrived = True  # counted among the seek's sockets
            await self.go(reverse("quick_wait"))  # seated, or another tab chose other rules
            return
        self.arrived = True
        await self.send_counts(await database_sync_to_async(quick.counts)())
        self.beat = asyncio.get_running_loop().create_task(self._beat())

    async def go(self, url: str) -> None:
        await self.send_json({"go": url})
        await self.close(code=CLOSE_GONE, reason="go")

    def _viewer(self) -> tuple[Viewer, str]:
        """The browser, and the name it last played under. The session loads lazily,
        from the database: read off the event loop."""
        session = self.scope.get("session") or {}
        return peek_viewer(session), session.get(NAME_KEY, "")

    async def disconnect(self, code: int) -> None:
        if self.beat is not None:
            self.beat.cancel()
        with contextlib.suppress(Exception):  # a layer that is down has forgotten it anyway
            await self.channel_layer.group_discard(quick.COUNTS_GROUP, self.channel_name)
            if self.browser_id:
                await self.channel_layer.group_discard(
                    quick.seated_group(self.browser_id), self.channel_name
                )
        if self.arrived:
            self.arrived = False
            await database_sync_to_async(quick.depart)(self.browser_id)

    def ended(self) -> None:
        if self.counted is not None:
            readers.OPEN.give_back(self.counted)
            self.counted = None

    async def _beat(self) -> None:
        """Every ``HEARTBEAT``: still here; and the counts, if they changed unannounced
        (a browser whose server died stops being counted without a word)."""
        while True:
            await asyncio.sleep(quick.HEARTBEAT.total_seconds())
            try:
                await database_sync_to_async(quick.heartbeat)(self.browser_id)
                await self.send_counts(await database_sync_to_async(quick.counts)())
            except Exception:  # the next beat tries again
                logger.warning("a waiting page's heartbeat failed", exc_info=True)

    async def quick_counts(self, event: dict) -> None:
        await self.send_counts(event["counts"])

    async def quick_go(self, event: dict) -> None:
        """Seated, or stopped waiting (in another tab): the waiting page says which."""
        await self.go(reverse("quick_wait"))

    async def send_counts(self, counts: dict[str, int]) -> None:
        if counts == self.last_counts:
            return
        self.last_counts = counts
        with translation.override(self.language):
            html = render_to_string(
                "games/quick.html#counts", {"counts": quick_counts(counts, self.ruleset)}
            )
        await self.send_json({"counts": html})

    async def send_json(self, message: dict) -> None:
        """Sent, unless the page has gone meanwhile (its close is the next message)."""
        with contextlib.suppress(Disconnected):
            await self.send(text_data=json.dumps(message))


async def quick_socket(scope: dict, receive, send) -> None:
    """The waiting page's socket, as the router runs it (as ``as_asgi`` would), with
    what it holds given back however it ends; a layer without Redis tells the page to
    try again later (4503), as the table's does."""
    consumer = WaitingConsumer()
    try:
        await consumer(scope, receive, send)
    except RedisError:
        logger.warning("a waiting page's socket lost the channel layer", exc_info=True)
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
        await consumer.disconnect(CLOSE_TRY_AGAIN_LATER)
    finally:
        consumer.ended()

"""The WebSockets of the pages that show a live list (``games.live_lists``): the Watch
page's games being played, the Open tables page's rooms. Server-to-browser only. One
connects (joins its list's group, counted against the limits as every socket is), is
sent the list as it is, then each list pushed, in its page's language, as JSON
``{key: html}``; it neither reads nor renders for a push."""

from __future__ import annotations

import contextlib

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games.consumers import closed_for_limits, language_of
from games.live_lists import LiveList
from games.open_tables import OPEN
from games.watching import WATCH


class ListConsumer(AsyncWebsocketConsumer):
    live: LiveList
    joined = False

    async def connect(self) -> None:
        await self.accept()
        if await closed_for_limits(self):
            return
        self.language = language_of(self.scope)
        # the group first: a list pushed after the read below comes, one before is in it
        await self.channel_layer.group_add(self.live.group, self.channel_name)
        self.joined = True
        await self.send_text(await database_sync_to_async(self._now)())

    def _now(self) -> str:
        with translation.override(self.language):
            return self.live.message(self.live.render())

    async def disconnect(self, code: int) -> None:
        if self.joined:
            with contextlib.suppress(Exception):  # a layer that is down has forgotten it
                await self.channel_layer.group_discard(self.live.group, self.channel_name)

    async def list_update(self, event: dict) -> None:
        message = event["lists"].get(self.language)
        if message is not None:
            await self.send_text(message)

    async def send_text(self, text: str) -> None:
        """Sent, unless the page has gone meanwhile (its close is the next message)."""
        with contextlib.suppress(Disconnected):
            await self.send(text_data=text)


class WatchConsumer(ListConsumer):
    live = WATCH


class OpenTablesConsumer(ListConsumer):
    live = OPEN

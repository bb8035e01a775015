"""The Watch page's WebSocket: server-to-browser only. It connects (joins the list's
group, counted against the limits as every socket is), is sent the list as it is, then
each list ``games.watching`` pushes, in its page's language, as JSON ``{"games": html}``;
it neither reads nor renders for a push."""

from __future__ import annotations

import contextlib
import json

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils import translation

from games import watching
from games.consumers import closed_for_limits, language_of


class WatchConsumer(AsyncWebsocketConsumer):
    joined = False

    async def connect(self) -> None:
        await self.accept()
        if await closed_for_limits(self):
            return
        self.language = language_of(self.scope)
        # the group first: a list pushed after the read below comes, one before is in it
        await self.channel_layer.group_add(watching.LIST_GROUP, self.channel_name)
        self.joined = True
        await self.send_games(await database_sync_to_async(self._now)())

    def _now(self) -> str:
        with translation.override(self.language):
            return watching.render_list(list(watching.listed()))

    async def disconnect(self, code: int) -> None:
        if self.joined:
            with contextlib.suppress(Exception):  # a layer that is down has forgotten it
                await self.channel_layer.group_discard(watching.LIST_GROUP, self.channel_name)

    async def watch_list(self, event: dict) -> None:
        message = event["lists"].get(self.language)
        if message is not None:
            await self.send_text(message)

    async def send_games(self, games: str) -> None:
        await self.send_text(json.dumps({"games": games}))

    async def send_text(self, text: str) -> None:
        """Sent, unless the page has gone meanwhile (its close is the next message)."""
        with contextlib.suppress(Disconnected):
            await self.send(text_data=text)

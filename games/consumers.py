"""The table's WebSocket: server-to-browser updates only.

A browser joins its table's group; on every "game changed" notice, and once on
connect, it is sent the table rendered for its own viewer. Moves never travel over
the socket: they are HTTP POSTs with CSRF and the seat check.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import bots, presence
from games.broadcast import group_name
from games.models import Game
from games.rendering import render_live
from games.viewer import peek_viewer

CLOSE_UNKNOWN_GAME = 4404
CLOSE_NO_MESSAGES = 4400


class TableConsumer(AsyncWebsocketConsumer):
    seats: list[int]
    game_id: int | None = None
    sent_version = -1

    async def connect(self) -> None:
        code = self.scope["url_route"]["kwargs"]["code"]
        game = await database_sync_to_async(self._arrive)(code)
        await self.accept()
        if game is None:
            await self.close(code=CLOSE_UNKNOWN_GAME, reason="unknown game")
            return
        self.code = code
        self.game_id = game.id
        await self.channel_layer.group_add(group_name(code), self.channel_name)
        if self.seats:  # a player arrived: everyone's presence list changes
            await self.channel_layer.group_send(group_name(code), {"type": "game.changed"})
        else:  # a spectator: only they need the table now
            await self.game_changed({})

    async def disconnect(self, code: int) -> None:
        if self.game_id is None:
            return
        await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        await database_sync_to_async(presence.leave)(self.game_id, self.seats)
        if self.seats:
            await self.channel_layer.group_send(group_name(self.code), {"type": "game.changed"})

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.close(code=CLOSE_NO_MESSAGES, reason="moves are sent over HTTP")

    async def game_changed(self, event: dict) -> None:
        """Send the table as it is now. A notice of a version this browser already
        has (it was sent the newer table while the notice queued) is skipped; a
        notice without a version is a presence change and always sent."""
        version = event.get("version")
        if version is not None and version <= self.sent_version:
            return
        html, current = await database_sync_to_async(self._render)()
        if html and not (version is not None and current <= self.sent_version):
            self.sent_version = max(self.sent_version, current)
            await self.send(text_data=html)

    def _arrive(self, code: str) -> Game | None:
        # The session loads lazily from the database, so it is read here too.
        self.viewer = peek_viewer(self.scope.get("session") or {})
        game = Game.objects.filter(code=code).first()
        if game is not None:
            self.seats = presence.arrive(game, self.viewer)
            bots.nudge(game)
        return game

    def _render(self) -> tuple[str, int]:
        game = Game.objects.filter(id=self.game_id).select_related("next_game").first()
        return (render_live(game, self.viewer), game.version) if game else ("", -1)

"""The table's WebSocket: server-to-browser updates only.

A browser joins its table's group; on every "game changed" notice, and once on
connect, it is sent the table rendered for its own viewer. Moves never travel over
the socket: they are HTTP POSTs with CSRF and the seat check.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from games import bots, presence
from games.broadcast import group_name
from games.models import Game
from games.rendering import render_live
from games.viewer import peek_viewer

CLOSE_UNKNOWN_GAME = 4404
CLOSE_NO_MESSAGES = 4400


class Snapshots:
    """The game as the browsers of one process last read it, per notice.

    Every browser at a table answers the same notice, so the first to handle it
    reads the game (with its seats) and the others in this process reuse that
    read: one database read per notice and process instead of one per browser.
    A notice is identified by its stamp: ``v<version>`` for a move, a random
    token for a presence change. A read made after the notice arrived is at
    least as new as the notice, which is all a consumer needs: it sends the
    version it read and skips versions it has already sent.
    """

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._games: OrderedDict[tuple[int, str, str], Game | None] = OrderedDict()

    def get(self, game_id: int, code: str, stamp: str | None) -> Game | None:
        # The code is in the key because ids are reused (a test database rolls back).
        key = (game_id, code, stamp or "")
        if stamp and key in self._games:
            return self._games[key]
        game = (
            Game.objects.filter(id=game_id)
            .select_related("next_game")
            .prefetch_related("seats")
            .first()
        )
        if stamp:
            self._games[key] = game
            while len(self._games) > self.size:
                self._games.popitem(last=False)
        return game


SNAPSHOTS = Snapshots()


def presence_notice() -> dict:
    return {"type": "game.changed", "stamp": secrets.token_hex(8)}


class TableConsumer(AsyncWebsocketConsumer):
    seats: list[int]
    game_id: int | None = None
    sent_version = -1
    sent_html = ""

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
            await self.channel_layer.group_send(group_name(code), presence_notice())
        else:  # a spectator: only they need the table now
            await self.game_changed({})

    async def disconnect(self, code: int) -> None:
        if self.game_id is None:
            return
        await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        await database_sync_to_async(presence.leave)(self.game_id, self.seats)
        if self.seats:
            await self.channel_layer.group_send(group_name(self.code), presence_notice())

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.close(code=CLOSE_NO_MESSAGES, reason="moves are sent over HTTP")

    async def game_changed(self, event: dict) -> None:
        """Send the table as it is now. A notice of a version this browser already
        has (it was sent the newer table while the notice queued) is skipped; a
        notice without a version is a presence change, sent if this browser's
        table looks different for it. A browser is never sent an older table."""
        version = event.get("version")
        if version is not None and version <= self.sent_version:
            return
        stamp = f"v{version}" if version is not None else event.get("stamp")
        html, current = await database_sync_to_async(self._render)(stamp)
        if version is None and html and current < self.sent_version:
            # this process read the game for the notice before this browser's last
            # update: read it again rather than send an older table
            html, current = await database_sync_to_async(self._render)(None)
        if not html or current < self.sent_version:
            return
        if version is not None and current == self.sent_version:
            return
        if html == self.sent_html:
            return  # nothing this browser sees has changed
        self.sent_version = max(self.sent_version, current)
        self.sent_html = html
        await self.send(text_data=html)

    def _arrive(self, code: str) -> Game | None:
        # The session loads lazily from the database, so it is read here too.
        self.viewer = peek_viewer(self.scope.get("session") or {})
        game = Game.objects.filter(code=code).first()
        if game is not None:
            self.seats = presence.arrive(game, self.viewer)
            bots.nudge(game)
        return game

    def _render(self, stamp: str | None) -> tuple[str, int]:
        game = SNAPSHOTS.get(self.game_id, self.code, stamp)
        return (render_live(game, self.viewer), game.version) if game else ("", -1)

"""The bare stack: the same group fan-out as the site, with no database and no rendering.

``POST /act/<table>/<version>`` sends "version V" to the table's group, and every
WebSocket at ``/ws/<table>/`` receives it: what the site does for a move, minus
the work of the site itself. Served by daphne like the site:

    DJANGO_SETTINGS_MODULE=bench.bare_settings daphne bench.bare:application
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.bare_settings")
django.setup()

from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import path  # noqa: E402


def _update(version: int) -> str:
    return f'<div id="table" data-version="{version}"></div>'


class BareConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        self.group = f"bare.{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data=_update(0))

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def game_changed(self, event: dict) -> None:
        await self.send(text_data=_update(event["version"]))


async def http_app(scope: dict, receive, send) -> None:
    body_done = False
    while not body_done:
        message = await receive()
        body_done = not message.get("more_body", False)
    parts = scope["path"].strip("/").split("/")
    status, body = 404, b"not found"
    if scope["method"] == "POST" and len(parts) == 3 and parts[0] == "act":
        await get_channel_layer().group_send(
            f"bare.{parts[1]}", {"type": "game.changed", "version": int(parts[2])}
        )
        status, body = 200, _update(int(parts[2])).encode()
    elif parts == ["healthz"]:
        status, body = 200, b"ok"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"text/html")],
        }
    )
    await send({"type": "http.response.body", "body": body})


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": URLRouter([path("ws/<str:table>/", BareConsumer.as_asgi())]),
    }
)

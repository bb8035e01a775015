from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.urls import re_path

from games.consumers import CLOSE_UNKNOWN_GAME, table_socket
from games.list_socket import OpenTablesConsumer, WatchConsumer
from games.quick_socket import quick_socket


class NoTable(AsyncWebsocketConsumer):
    """A socket at an address no table has (a code no game could have, a path of
    nothing): closed as for an unknown game, rather than the router's error."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_UNKNOWN_GAME, reason="unknown game")


# an ASGI application, which Django's typing of ``re_path`` does not know of (Channels'
# ``as_asgi`` is untyped, so its applications pass)
table: Any = table_socket
waiting: Any = quick_socket
CODE = r"(?P<code>[A-Za-z0-9_-]{1,16})"  # as games.models.new_game_code makes them
# the table page's socket names its page (``broadcast.new_page_id``); a bare one is a
# page without a name, every update pushed to it
websocket_urlpatterns = [
    re_path(rf"^ws/g/{CODE}/$", table),
    re_path(rf"^ws/g/{CODE}/(?P<page>[^/]+)/$", table),
    re_path(r"^ws/quick/(?P<ruleset>[a-z_]{1,20})/$", waiting),  # quick play's waiting page
    re_path(r"^ws/watch/$", WatchConsumer.as_asgi()),  # the Watch page's list
    re_path(r"^ws/tables/$", OpenTablesConsumer.as_asgi()),  # the Open tables page's list
    re_path(r"", NoTable.as_asgi()),
]

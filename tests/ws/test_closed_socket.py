"""A browser that leaves while its table is on the way: an ordinary end, not an error."""

from __future__ import annotations

import asyncio
import logging

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from django.test import Client

from games import broadcast
from tests.conftest import create_game, version
from tests.sockets import Socket
from tests.ws.test_consumer import ORIGIN, next_version, post, settled
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


class ClosingServer:
    """The site as daphne serves it, for one socket: once the browser has closed it,
    and before the server has told the site so, a send raises as daphne's does."""

    def __init__(self) -> None:
        self.closed = False
        self.refused = asyncio.Event()

    async def __call__(self, scope: dict, receive, send) -> None:
        async def send_unless_closed(message: dict) -> None:
            if self.closed and message["type"] == "websocket.send":
                self.refused.set()
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_unless_closed)


async def test_a_push_to_a_socket_closed_meanwhile_is_dropped_quietly(
    alice: Client, spectator: Client, dice: object, caplog: pytest.LogCaptureFixture
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    server = ClosingServer()
    watcher = Socket(server, f"/ws/g/{game.code}/{broadcast.new_page_id()}/", headers=[ORIGIN])
    assert (await watcher.connect())[0]
    await next_version(watcher)
    await settled(watcher)

    server.closed = True  # the spectator's phone leaves the table
    rolled = await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))
    assert rolled.status_code == 200
    await asyncio.wait_for(server.refused.wait(), timeout=30)  # the roll's push found it closed

    with caplog.at_level(logging.DEBUG):
        await watcher.disconnect()  # the server's word that it closed: the end
    assert [record for record in caplog.records if record.levelno >= logging.ERROR] == []

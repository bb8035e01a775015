"""The sockets on /metrics: how many are open, from which page, and how many tables
they were pushed, as an operator reads them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.models import Game
from tests.conftest import create_game, version
from tests.metrics import Samples, figures, value
from tests.ws.test_consumer import joined, next_version, post, settled

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def read(operator: Client) -> Samples:
    return await sync_to_async(figures)(operator)


def sockets(samples: Samples, page: str) -> float:
    return value(samples, "yatzy_open_sockets", page=page)


def pushes(samples: Samples, page: str) -> float:
    return value(samples, "yatzy_pushes_total", page=page)


async def test_open_sockets_go_up_as_pages_connect_and_down_as_they_close(
    operator: Client, alice: Client, bob: Client, dice: object
) -> None:
    lobby: Game = await sync_to_async(create_game)(alice, invites="1")
    before = await read(operator)

    at_lobby = await joined(lobby.code, alice, lobby_page=True)
    at_table = await joined(lobby.code, bob)

    opened = await read(operator)
    assert sockets(opened, "lobby") == sockets(before, "lobby") + 1
    assert sockets(opened, "table") == sockets(before, "table") + 1

    await at_lobby.disconnect()
    await at_table.disconnect()

    closed = await read(operator)
    assert sockets(closed, "lobby") == sockets(before, "lobby")
    assert sockets(closed, "table") == sockets(before, "table")


async def test_each_table_sent_to_a_socket_is_counted_as_a_push(
    operator: Client, alice: Client, dice: object
) -> None:
    game: Game = await sync_to_async(create_game)(alice, players="Bob")
    before = await read(operator)

    watching = await joined(game.code)  # sent the table as it connects
    await settled(watching)
    connected = await read(operator)
    at = await sync_to_async(version)(game)
    response = await post(alice, f"/g/{game.code}/roll/", version=at)
    assert response.status_code == 200
    await next_version(watching)  # and again after the roll

    after = await read(operator)
    assert pushes(connected, "table") >= pushes(before, "table") + 1
    assert pushes(after, "table") == pushes(connected, "table") + 1
    await watching.disconnect()

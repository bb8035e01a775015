"""A socket whose channel layer fails after it arrived (Redis gone) is closed with
4503, its page tries again later, and it is no longer counted at its seat: the seat
is away in time, as after any lost socket, not held present for good."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.test import Client
from redis.exceptions import ConnectionError as RedisConnectionError

from games.consumers import CLOSE_TRY_AGAIN_LATER
from games.models import Seat
from tests.conftest import create_game
from tests.ws.test_consumer import joined

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_socket_that_loses_the_layer_is_closed_and_no_longer_counted_at_its_seat(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    redis_gone = asyncio.Event()

    async def receive(channel: str) -> dict:
        await redis_gone.wait()
        raise RedisConnectionError("Connection closed by server.")

    monkeypatch.setattr(get_channel_layer(), "receive", receive)  # the sockets' own
    ws = await joined(game.code, alice)
    seat = Seat.objects.filter(game=game, position=0)
    assert await seat.values_list("connections", flat=True).aget() == 1

    redis_gone.set()

    assert await ws.close_code() == CLOSE_TRY_AGAIN_LATER
    assert await seat.values_list("connections", flat=True).aget() == 0

"""Sockets connecting too often from one browser or address are closed with a code of
their own (4429), which the table's page says, instead of reconnecting."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.consumers import CLOSE_TOO_MANY
from tests.conftest import LimitsClock, create_game
from tests.sockets import Socket
from tests.ws.test_consumer import joined, socket
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def closed_with(ws: Socket) -> int:
    await ws.connect()
    return await ws.close_code()


async def test_a_browser_over_its_limit_of_sockets_is_closed_with_its_own_code(
    alice: Client, settings, limits_on: LimitsClock
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    settings.YATZY_RATES["socket"]["browser"] = (2, 60)
    first, second = await joined(game.code, alice), await joined(game.code, alice)

    assert await closed_with(socket(game.code, alice)) == CLOSE_TOO_MANY == 4429
    spectator = await joined(game.code)  # another browser (no cookie) is let in
    limits_on.advance(60)  # the next window
    again = await joined(game.code, alice)

    for ws in (first, second, spectator, again):
        await ws.disconnect()


async def test_an_address_over_its_limit_is_closed_whatever_the_browser(
    alice: Client, bob: Client, settings, limits_on: LimitsClock
) -> None:
    game = await sync_to_async(create_game)(alice, invites="1")
    settings.YATZY_RATES["socket"]["address"] = (1, 60)
    here = Socket(application, f"/ws/g/{game.code}/", headers=socket(game.code).scope["headers"])
    here.scope["client"] = ("203.0.113.5", 50000)
    elsewhere = Socket(application, f"/ws/g/{game.code}/", headers=here.scope["headers"])
    elsewhere.scope["client"] = ("198.51.100.7", 50000)
    again = Socket(application, f"/ws/g/{game.code}/", headers=here.scope["headers"])
    again.scope["client"] = ("203.0.113.5", 50001)
    await here.connect()
    await here.receive_from()

    assert await closed_with(again) == CLOSE_TOO_MANY
    await elsewhere.connect()
    assert "lobby" in await elsewhere.receive_from()

    await here.disconnect()
    await elsewhere.disconnect()


@pytest.mark.parametrize("path", ["/ws/watch/", "/ws/tables/", "/ws/quick/yatzy/"])
async def test_the_lists_and_quick_plays_waiting_page_count_against_the_same_limit(
    db: None, settings, limits_on: LimitsClock, path: str
) -> None:
    settings.YATZY_RATES["socket"]["address"] = (1, 60)
    headers = socket("nosuch").scope["headers"]
    first, second = Socket(application, path, headers), Socket(application, path, headers)
    for ws in (first, second):
        ws.scope["client"] = ("203.0.113.9", 50000)
    await first.connect()
    assert await first.receive_from()  # its list, or where to go: let in

    assert await closed_with(second) == CLOSE_TOO_MANY

    await first.disconnect()

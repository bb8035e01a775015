"""The dice seed is in no push before the game ends, and in the push that ends it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.models import Game
from tests.conftest import create_game, fresh, version
from tests.ws.test_consumer import joined, next_version, post, settled

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_the_seed_is_pushed_only_with_the_end_of_the_game(alice: Client) -> None:
    game = await sync_to_async(create_game)(alice, upper_only="on")
    seed = game.dice_seed
    ws = await joined(game.code, alice)
    await settled(ws)
    pushed = []

    for category in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        for path, data in (("roll", {}), ("score", {"category": category, "confirm": "1"})):
            now = await sync_to_async(version)(game)
            response = await post(alice, f"/g/{game.code}/{path}/", version=now, **data)
            assert response.status_code == 200
            pushed.append((await next_version(ws))[1])

    assert (await sync_to_async(fresh)(game)).status == Game.Status.FINISHED
    assert game.dice_commitment in pushed[0]
    assert not [html for html in pushed[:-1] if seed in html]
    assert seed in pushed[-1]
    await ws.disconnect()

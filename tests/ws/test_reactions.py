"""Quick reactions: a seated player's reaches every page at the table; a spectator's
is refused, as is a reaction not on the list."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.conftest import create_game, unisolated
from tests.ws.test_consumer import joined, post, settled

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def test_a_players_reaction_reaches_every_page_at_the_table(
    alice: Client, spectator: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    await sync_to_async(spectator.get)(f"/g/{game.code}/")
    mine = await joined(game.code, alice)
    watching = await joined(game.code, spectator)
    await settled(mine, watching)

    answer = await post(alice, f"/g/{game.code}/react/", reaction="nice")

    assert answer.status_code == 204
    said = unisolated(await mine.receive_from())
    assert 'id="reactions" hx-swap-oob="beforeend"' in said
    assert "Alice: Nice throw!" in said
    assert "Alice:" in unisolated(await watching.receive_from())
    await mine.disconnect()
    await watching.disconnect()


async def test_a_spectator_cannot_react(alice: Client, spectator: Client, dice: object) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")
    watching = await joined(game.code, spectator)
    await settled(watching)

    answer = await post(spectator, f"/g/{game.code}/react/", reaction="nice")

    assert answer.status_code == 403
    assert "Only the players at this table can react." in answer.content.decode()
    assert await watching.receive_nothing(timeout=0.3)
    await watching.disconnect()


async def test_an_unknown_reaction_is_refused_in_words(alice: Client, dice: object) -> None:
    game = await sync_to_async(create_game)(alice, players="Bob")

    answer = await post(alice, f"/g/{game.code}/react/", reaction="<script>")

    assert answer.status_code == 400
    assert "There is no such reaction." in answer.content.decode()

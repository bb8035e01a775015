"""Browsers arriving at a table: the handshake answered at once, spectators sent the
table the process last published without a rendering of their own, and counted in
batches. This is what carries a reconnect storm."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import rendering
from games.consumers import TableConsumer
from games.models import Game
from tests.conftest import create_game, fresh, version
from tests.ws.test_consumer import next_version, post, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.asyncio
async def test_the_handshake_is_answered_while_the_sync_thread_is_busy(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    # In a reconnect storm the thread is busy for seconds; a handshake that waited
    # for it would time out and the browser would come back again, and again.
    game = await sync_to_async(create_game)(alice)
    thread_free = threading.Event()
    real_arrive = TableConsumer._arrive

    def busy_arrive(consumer: TableConsumer):
        thread_free.wait(5)
        return real_arrive(consumer)

    monkeypatch.setattr(TableConsumer, "_arrive", busy_arrive)
    ws = socket(game.code, alice)

    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_nothing(timeout=0.2)
    thread_free.set()
    got, _html = await next_version(ws)
    assert got == game.version
    await ws.disconnect()


@pytest.mark.asyncio
async def test_arriving_spectators_are_counted_on_the_next_table(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    player = socket(game.code, alice)
    await player.connect()
    await next_version(player)
    watchers = [socket(game.code) for _ in range(3)]
    for watcher in watchers:
        await watcher.connect()
        await next_version(watcher)
    await counted_in_database(game, 3)

    await post(alice, f"/g/{game.code}/roll/", version=await sync_to_async(version)(game))

    _version, pushed = await next_version(watchers[0])
    assert '<li class="watching">3 watching</li>' in pushed
    for ws in (player, *watchers):
        await ws.disconnect()


@pytest.mark.asyncio
async def test_an_arriving_spectator_is_sent_the_last_table_without_a_rendering(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await sync_to_async(create_game)(alice)
    player = socket(game.code, alice)
    await player.connect()
    _version, first = await next_version(player)  # published as the player arrived
    renders: list[int] = []
    real_render = rendering.render_table

    def counted(game: Game) -> str:
        renders.append(game.version)
        return real_render(game)

    monkeypatch.setattr("games.consumers.render_table", counted)
    watcher = socket(game.code)
    await watcher.connect()

    _version, sent = await next_version(watcher)
    assert sent == first and renders == []
    for ws in (player, watcher):
        await ws.disconnect()


@pytest.mark.asyncio
async def test_spectators_are_counted_in_the_database_in_batches(alice: Client) -> None:
    game = await sync_to_async(create_game)(alice)
    watchers = [socket(game.code) for _ in range(5)]
    for watcher in watchers:
        await watcher.connect()
        await next_version(watcher)
    await watchers[0].disconnect()

    assert await counted_in_database(game, 4) == 4
    for watcher in watchers[1:]:
        await watcher.disconnect()
    assert await counted_in_database(game, 0) == 0


async def counted_in_database(game: Game, expected: int) -> int:
    """The spectators the database counts, waiting up to 30 s for ``expected``."""
    deadline = time.monotonic() + 30
    spectators = (await sync_to_async(fresh)(game)).spectators
    while spectators != expected and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
        spectators = (await sync_to_async(fresh)(game)).spectators
    return spectators

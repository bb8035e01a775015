"""Browsers arriving at a table: the handshake answered at once, one read and one
rendering shared by those arriving together, spectators counted in batches. This is
what carries a reconnect storm."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.consumers import TableConsumer
from games.models import Game
from games.snapshots import ArrivalReads
from tests.conftest import create_game, fresh
from tests.ws.test_consumer import next_version, socket

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

    def busy_arrive(consumer: TableConsumer, joined_at: float):
        thread_free.wait(5)
        return real_arrive(consumer, joined_at)

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
async def test_arriving_spectators_are_each_counted_on_the_table(
    alice: Client, dice: object
) -> None:
    game = await sync_to_async(create_game)(alice)
    watchers = [socket(game.code) for _ in range(3)]
    firsts = []
    for watcher in watchers:
        await watcher.connect()
        firsts.append((await next_version(watcher))[1])

    assert '<li class="watching">1 watching</li>' in firsts[0]
    assert '<li class="watching">3 watching</li>' in firsts[2]
    for watcher in watchers:
        await watcher.disconnect()


def test_spectators_arriving_together_share_one_read(
    alice: Client, dice: object, django_assert_num_queries
) -> None:
    game = create_game(alice)
    reads = ArrivalReads()
    joined = time.monotonic()  # three joined the table's group, then queued

    with django_assert_num_queries(2):  # the game with its seats, once for all three
        games = [reads.get(game.code, joined) for _ in range(3)]
    with django_assert_num_queries(2):  # one that joined after that read reads again
        reads.get(game.code, time.monotonic())

    assert [read.version for read in games] == [game.version] * 3


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

"""What a socket may hold of the server (games/readers.py): a page that does not say
it read what it was sent is closed, in size or in time, and its page's next socket
is sent the table as it is; a browser keeps only so many sockets open at once."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import broadcast, readers
from games.models import Game
from tests.conftest import create_game, fresh, version
from tests.ws.test_consumer import joined, next_version, post, socket

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def a_move(alice: Client, game: Game) -> None:
    """Alice holds or lets go of the first die: a new version, pushed to every socket."""
    state = await sync_to_async(lambda: fresh(game).engine_state())()
    at = await sync_to_async(version)(game)
    if state.roll_number == 0:
        await post(alice, f"/g/{game.code}/roll/", version=at)
    else:
        await post(alice, f"/g/{game.code}/hold/", version=at, die="0")


@pytest.fixture
def game(alice: Client, spectator: Client, dice: object) -> Game:
    game = create_game(alice, players="Bob")
    spectator.get(f"/g/{game.code}/")  # a table page: the spectator's browser has a session
    return game


async def test_a_socket_whose_unread_data_passes_the_limit_is_closed_and_its_page_resyncs(
    alice: Client, spectator: Client, game: Game, settings
) -> None:
    settings.YATZY_SOCKET_UNREAD_KB = 1  # less than two tables
    page = broadcast.new_page_id()
    stalled = await joined(game.code, spectator, page=page)  # and never says it read it

    await a_move(alice, game)
    await a_move(alice, game)

    assert await stalled.close_code() == readers.CLOSE_SLOW_READER
    again = socket(game.code, spectator, page=page)
    await again.connect()
    got, _html = await next_version(again)
    assert got == (await sync_to_async(fresh)(game)).version
    await again.disconnect()


async def test_a_page_that_says_what_it_read_keeps_its_socket(
    alice: Client, spectator: Client, game: Game, settings
) -> None:
    settings.YATZY_SOCKET_UNREAD_KB = 1
    ws = await joined(game.code, spectator)
    await ws.send_to(text_data="ack 1")

    for _ in range(4):
        await a_move(alice, game)
        got, _html = await next_version(ws)
        await ws.send_to(text_data="ack 1")

    assert got == (await sync_to_async(fresh)(game)).version
    assert await ws.receive_nothing(timeout=0.5)
    await ws.disconnect()


async def test_a_socket_that_does_not_say_it_read_in_time_is_closed(
    spectator: Client, game: Game, settings
) -> None:
    settings.YATZY_SOCKET_READ_TIMEOUT_S = 1
    silent = await joined(game.code, spectator)
    answering = await joined(game.code, spectator)
    await answering.send_to(text_data="ack 1")

    assert await silent.close_code() == readers.CLOSE_SLOW_READER
    assert await answering.receive_nothing(timeout=1.5)  # past its time: nothing unread
    await answering.disconnect()


async def test_an_answer_for_more_than_was_sent_counts_what_was_sent(
    alice: Client, spectator: Client, game: Game, settings
) -> None:
    settings.YATZY_SOCKET_UNREAD_KB = 1
    ws = await joined(game.code, spectator)

    await ws.send_to(text_data="ack 50")  # a stray answer, meant for the page's last socket
    await a_move(alice, game)
    await next_version(ws)  # the table is still sent
    await a_move(alice, game)

    assert await ws.close_code() == readers.CLOSE_SLOW_READER  # not counted for later ones


async def test_a_browser_may_keep_only_so_many_sockets_open(
    spectator: Client, game: Game, settings
) -> None:
    settings.YATZY_SOCKETS_PER_BROWSER = 2
    first, second = await joined(game.code, spectator), await joined(game.code, spectator)
    third = socket(game.code, spectator)

    await third.connect()

    assert await third.close_code() == readers.CLOSE_TOO_MANY_SOCKETS
    await first.disconnect()
    fourth = await joined(game.code, spectator)  # one closed, one more may open
    another_browser = await joined(game.code, Client())  # each browser has its own count
    for ws in (second, fourth, another_browser):
        await ws.disconnect()

"""The Open tables page's socket: the list as it is on connect, then each change in
the page's language: a seat taken, the room full, started, closed by its host, or its
host gone; a room not open to anyone changes nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import seating
from games.models import Game
from tests.conftest import create_game, unisolated, version
from tests.sockets import Socket, list_page
from tests.ws.test_consumer import joined

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def tables_socket(language: str = "en") -> Socket:
    return list_page("/ws/tables/", language)


async def tables_from(socket: Socket) -> str:
    return unisolated(json.loads(await socket.receive_from())["tables"])


async def until(socket: Socket, says) -> str:
    """The next list that ``says`` is true of (a push may come for a change before)."""
    while not says(listed := await tables_from(socket)):
        pass
    return listed


def open_room(host: Client, invites: str = "2") -> Game:
    return create_game(host, invites=invites, open_to_anyone="on")


def take_a_seat(client: Client, game: Game, name: str) -> None:
    client.post("/tables/join/", {"name": name, "code": game.code})


async def test_a_page_sees_seats_taken_and_the_full_room_leave(
    alice: Client, bob: Client, spectator: Client
) -> None:
    game = await sync_to_async(open_room)(alice)
    page = tables_socket()
    await page.connect()
    assert "2 of 3 seats free" in await tables_from(page)

    await sync_to_async(take_a_seat)(bob, game, "Bob")
    assert "1 of 3 seats free" in await until(page, lambda listed: "2 of 3" not in listed)

    await sync_to_async(take_a_seat)(spectator, game, "Carl")
    assert "No open table just now" in await until(page, lambda listed: game.code not in listed)
    await page.disconnect()


async def test_a_room_closed_by_its_host_or_started_leaves_the_list(
    alice: Client, bob: Client
) -> None:
    closed = await sync_to_async(open_room)(alice)
    started = await sync_to_async(open_room)(alice)
    await sync_to_async(take_a_seat)(bob, started, "Bob")
    page = tables_socket()
    await page.connect()
    listed = await tables_from(page)
    assert closed.code in listed and started.code in listed

    await sync_to_async(alice.post)(
        f"/g/{closed.code}/open/", {"version": await sync_to_async(version)(closed), "open": "0"}
    )
    assert started.code in await until(page, lambda listed: closed.code not in listed)

    await sync_to_async(alice.post)(
        f"/g/{started.code}/start/", {"version": await sync_to_async(version)(started)}
    )
    await until(page, lambda listed: started.code not in listed)
    await page.disconnect()


async def test_a_room_opened_in_its_lobby_comes(alice: Client) -> None:
    game = await sync_to_async(create_game)(alice, invites="1")
    page = tables_socket()
    await page.connect()
    assert game.code not in await tables_from(page)

    await sync_to_async(alice.post)(
        f"/g/{game.code}/open/", {"version": await sync_to_async(version)(game), "open": "1"}
    )

    assert "Host: Alice" in await until(page, lambda listed: game.code in listed)
    await page.disconnect()


async def test_a_room_leaves_the_list_once_its_host_has_gone_long_enough(
    alice: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(seconds=0.5))
    game = await sync_to_async(open_room)(alice)
    host = await joined(game.code, alice, lobby_page=True)
    page = tables_socket()
    await page.connect()
    assert game.code in await until(page, lambda listed: game.code in listed)

    await host.disconnect()  # her lobby page closed, and none opened again

    await until(page, lambda listed: game.code not in listed)
    await page.disconnect()


async def test_the_list_comes_in_the_pages_language(alice: Client) -> None:
    await sync_to_async(open_room)(alice)
    page = tables_socket("de")
    await page.connect()

    listed = await tables_from(page)

    assert "2 von 3 Plätzen frei" in listed and "Gastgeber: Alice" in listed
    await page.disconnect()


async def test_a_room_not_open_to_anyone_changes_no_list(alice: Client, bob: Client) -> None:
    page = tables_socket()
    await page.connect()
    await tables_from(page)
    game = await sync_to_async(create_game)(alice, invites="1")
    await sync_to_async(bob.post)(f"/g/{game.code}/join/", {"name": "Bob"})

    assert await page.receive_nothing(timeout=1.5)
    await page.disconnect()

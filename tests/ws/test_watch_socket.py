"""The Watch page's socket: the list as it is on connect, then each list a move at a
listed table changes, in the page's language, within a second; a game not open to
anyone changes nothing."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from tests.conftest import create_game, version
from tests.sockets import Socket, list_page

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


def watch_socket(language: str = "en") -> Socket:
    return list_page("/ws/watch/", language)


async def games_from(socket: Socket) -> str:
    return json.loads(await socket.receive_from())["games"]


async def test_a_watch_page_sees_a_listed_game_come_and_its_score_change(alice: Client) -> None:
    page = watch_socket()
    await page.connect()
    assert "No game to watch just now" in await games_from(page)

    game = await sync_to_async(create_game)(alice, players="Bob", watchable="on")
    listed = await games_from(page)
    assert f"/g/{game.code}/" in listed and "Round 1 of 15" in listed

    seen = await sync_to_async(version)(game)
    await sync_to_async(alice.post)(f"/g/{game.code}/roll/", {"version": seen})
    await sync_to_async(alice.post)(
        f"/g/{game.code}/score/",
        {"version": await sync_to_async(version)(game), "category": "chance", "confirm": "1"},
    )
    changed = await games_from(page)
    while "Round 1 of 15" in changed and '<span class="leads"><bdi>Bob</bdi> 0' in changed:
        changed = await games_from(page)
    assert '<span class="leads"><bdi>Alice</bdi>' in changed  # her chance leads
    await page.disconnect()


async def test_the_list_comes_in_the_pages_language(alice: Client) -> None:
    await sync_to_async(create_game)(alice, players="Bob", watchable="on")
    page = watch_socket("fi")
    await page.connect()
    assert "Kierros 1/15" in await games_from(page)
    await page.disconnect()


async def test_a_game_not_open_to_anyone_changes_no_list(alice: Client) -> None:
    page = watch_socket()
    await page.connect()
    await games_from(page)
    await sync_to_async(create_game)(alice, players="Bob")
    assert await page.receive_nothing(timeout=1.5)
    await page.disconnect()

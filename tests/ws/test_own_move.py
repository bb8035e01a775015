"""The page that made a move has its table in the answer: its own socket is not sent it
again. Every other page, the same browser's other tabs included, is."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import broadcast
from games.models import Game
from tests.conftest import create_game, version
from tests.sockets import Socket
from tests.ws.test_consumer import ORIGIN, next_version, settled
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def tab(code: str, client: Client, page: str = "") -> Socket:
    """A page's socket at the table (``page``: the id in its address, else a new one),
    past its first table."""
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    ws = Socket(
        application,
        f"/ws/g/{code}/{page or broadcast.new_page_id()}/",
        headers=[ORIGIN, (b"cookie", cookie)],
    )
    await ws.connect()
    await next_version(ws)
    return ws


async def roll(client: Client, game: Game, htmx: bool = True, **headers: str):
    extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return await sync_to_async(client.post)(
        f"/g/{game.code}/roll/",
        {"version": await sync_to_async(version)(game)},
        **extra,
        **{f"HTTP_{name}": value for name, value in headers.items()},
    )


@pytest.fixture
def game(alice: Client, dice: object) -> Game:
    return create_game(alice, players="Bob")  # a hot-seat table: Alice moves for both


async def test_the_page_that_moved_gets_its_table_in_the_answer_only(
    alice: Client, game: Game
) -> None:
    page = broadcast.new_page_id()
    this_page = await tab(game.code, alice, page)
    other_tab = await tab(game.code, alice)  # the same browser's other tab
    await settled(this_page, other_tab)

    answer = await roll(alice, game, X_YATZY_PAGE=page)

    assert answer.status_code == 200
    made = int(re.search(r'data-version="(\d+)"', answer.content.decode()).group(1))
    assert (await next_version(other_tab))[0] == made
    assert await this_page.receive_nothing(timeout=0.3)
    # a move this page did not make (here: a form posted without htmx) reaches it
    assert (await roll(alice, game, htmx=False, X_YATZY_PAGE=page)).status_code == 302
    assert (await next_version(this_page))[0] == made + 1
    assert (await next_version(other_tab))[0] == made + 1
    await this_page.disconnect()
    await other_tab.disconnect()


@pytest.mark.parametrize(
    ("socket_page", "header"),
    [
        ("short", "short"),  # not a page id as the site makes them: ignored on both sides
        (broadcast.new_page_id(), broadcast.new_page_id()),  # another page's id
        ("x" * 16 + "<>", "x" * 16 + "<>"),
    ],
    ids=["too short", "another page", "not url-safe"],
)
async def test_a_page_id_that_is_not_this_pages_changes_nothing(
    alice: Client, game: Game, socket_page: str, header: str
) -> None:
    this_page = await tab(game.code, alice, socket_page)
    await settled(this_page)

    answer = await roll(alice, game, X_YATZY_PAGE=header)

    assert answer.status_code == 200
    made = int(re.search(r'data-version="(\d+)"', answer.content.decode()).group(1))
    assert (await next_version(this_page))[0] == made
    await this_page.disconnect()


async def test_each_table_page_names_itself_in_its_socket_and_its_moves(
    alice: Client, game: Game
) -> None:
    pages = []
    for _ in range(2):
        html = (await sync_to_async(alice.get)(f"/g/{game.code}/")).content.decode()
        in_socket = re.search(r'ws-connect="/ws/g/[^/]+/([^/"]+)/"', html).group(1)
        in_moves = re.search(r"hx-headers='\{\"X-Yatzy-Page\": \"([^\"]+)\"\}'", html).group(1)
        assert in_socket == in_moves == broadcast.page_id(in_socket)
        pages.append(in_socket)

    assert pages[0] != pages[1]  # two tabs are two pages

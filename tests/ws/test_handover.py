"""A seat handed to the computer while its player was away, and taken back: the pages
of that player's browser learn it over their sockets, not only on a reload."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import broadcast
from games.models import Game, Seat
from tests.conftest import create_game, fresh, play_to_the_end, version
from tests.web.test_room import bobs_turn
from tests.ws.test_arrivals import counted_in_database
from tests.ws.test_consumer import ORIGIN, settled
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
OFFER = "Take Bob's seat back"


def page_socket(code: str, client: Client) -> WebsocketCommunicator:
    """The socket of one of ``client``'s table pages."""
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return WebsocketCommunicator(
        application,
        f"/ws/g/{code}/{broadcast.new_page_id()}/",
        headers=[ORIGIN, (b"cookie", cookie)],
    )


def handed_over(alice: Client, bob: Client) -> Game:
    """Bob's turn; his phone was gone a minute, and Alice gave his seat to the computer."""
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Seat.objects.filter(name="Bob").update(away_since=timezone.now() - timedelta(minutes=1))
    alice.post(f"/g/{game.code}/handover/", {"version": version(game)})
    assert Seat.objects.get(name="Bob").kind == Seat.Kind.BOT
    return game


async def hosts_page_after_handover(
    alice: Client, bob: Client
) -> tuple[Game, WebsocketCommunicator]:
    game = await sync_to_async(handed_over)(alice, bob)
    hosts_page = page_socket(game.code, alice)
    await hosts_page.connect()
    return game, hosts_page


async def received_until(ws: WebsocketCommunicator, text: str) -> str:
    """What ``ws`` is sent, up to and including the first message with ``text``."""
    got = ""
    while text not in got:
        got += await ws.receive_from(timeout=5)
    return got


async def test_a_page_whose_socket_comes_back_is_offered_its_seat_back(
    alice: Client, bob: Client, dice: object
) -> None:
    game, hosts_page = await hosts_page_after_handover(alice, bob)
    bobs_page = page_socket(game.code, bob)  # his phone back online: the socket reconnects

    await bobs_page.connect()
    first = await bobs_page.receive_from(timeout=5)

    assert first.startswith('<div id="handed-over" hx-swap-oob="true">')
    assert "While you were away, the host let a computer player play for Bob." in first
    assert OFFER in first and 'hx-post="/g/' in first  # sent with htmx's CSRF header
    bob_seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert f'name="seat" value="{bob_seat.position}"' in first  # the button names its seat
    assert 'id="table"' in first
    assert OFFER not in await hosts_page.receive_from(timeout=5)  # hers is hers
    await hosts_page.disconnect()
    await bobs_page.disconnect()


async def test_a_seat_taken_back_in_one_page_is_the_players_in_the_browsers_other_pages(
    alice: Client, bob: Client, dice: object
) -> None:
    game, hosts_page = await hosts_page_after_handover(alice, bob)
    other_page = page_socket(game.code, bob)  # a second tab Bob opened meanwhile
    await other_page.connect()
    assert OFFER in await other_page.receive_from(timeout=5)
    await settled(hosts_page, other_page)
    assert await counted_in_database(game, 0) == 0  # no spectator: a player's page
    seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert seat.connections == 1  # counted at his seat while the computer plays it

    taken = await sync_to_async(bob.post)(  # in his first tab
        f"/g/{game.code}/takeback/", {"seat": seat.position}
    )
    assert taken.status_code == 302

    pushed = await received_until(other_page, 'id="table"')
    assert '<div id="handed-over" hx-swap-oob="true"></div>' in pushed  # offer gone
    seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert (seat.connections, seat.away_since) == (1, None)  # counted at his seat again
    assert await counted_in_database(game, 0) == 0
    assert "Bob: connected" in await received_until(hosts_page, "Bob: connected")

    await other_page.disconnect()  # and when that tab goes, Bob is away again
    await asyncio.sleep(0.1)
    seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert seat.connections == 0 and seat.away_since is not None
    assert (await sync_to_async(fresh)(game)).status == Game.Status.PLAYING
    await hosts_page.disconnect()


async def test_a_player_whose_seat_the_computer_plays_is_not_counted_as_watching(
    alice: Client, bob: Client, dice: object
) -> None:
    game = await sync_to_async(handed_over)(alice, bob)
    bobs_page = page_socket(game.code, bob)  # the only browser at the table: a player's

    await bobs_page.connect()
    first = await received_until(bobs_page, 'id="table"')
    assert "watching" not in first
    await settled(bobs_page)
    assert await counted_in_database(game, 0) == 0
    seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert seat.connections == 1  # his page is counted at his seat, the computer's meanwhile

    await sync_to_async(play_to_the_end)(alice, game)

    at_the_end = await received_until(bobs_page, "Play again")
    assert "watching" not in at_the_end
    assert await counted_in_database(game, 0) == 0
    hosts_page = page_socket(game.code, alice)
    await hosts_page.connect()
    assert "watching" not in await received_until(hosts_page, 'id="table"')
    await hosts_page.disconnect()
    await bobs_page.disconnect()
    await asyncio.sleep(0.1)
    seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert seat.connections == 0

"""A seat handed to the computer while its player was away, and taken back: the pages
of that player's browser learn it over their sockets, not only on a reload."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from games import broadcast, services
from games.models import Game, Seat
from tests.conftest import create_game, fresh, play_a_turn, version
from tests.seen import seen
from tests.sockets import Socket
from tests.web.test_room import HTMX, bobs_turn, join
from tests.ws.test_arrivals import counted_in_database
from tests.ws.test_consumer import ORIGIN, settled
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
OFFER = "Take <bdi>Bob</bdi>'s seat back"


def page_socket(code: str, client: Client) -> Socket:
    """The socket of one of ``client``'s table pages."""
    cookie = f"sessionid={client.cookies['sessionid'].value}".encode()
    return Socket(
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


async def seat_once(name: str, condition: Callable[[Seat], bool]) -> Seat:
    """``name``'s seat once ``condition`` holds of it (a socket's departure is counted a
    moment after it closes), or as it is after 30 s."""
    deadline = time.monotonic() + 30
    seat = await sync_to_async(Seat.objects.get)(name=name)
    while not condition(seat) and time.monotonic() < deadline:
        await asyncio.sleep(0.02)
        seat = await sync_to_async(Seat.objects.get)(name=name)
    return seat


async def hosts_page_after_handover(
    alice: Client, bob: Client
) -> tuple[Game, WebsocketCommunicator]:
    game = await sync_to_async(handed_over)(alice, bob)
    hosts_page = page_socket(game.code, alice)
    await hosts_page.connect()
    return game, hosts_page


async def received_until(ws: WebsocketCommunicator, text: str) -> str:
    """What ``ws`` is sent, up to and including the first message with ``text``, each
    message acknowledged as a page does (a page that reads nothing is closed)."""
    got = ""
    while text not in got:
        got += await ws.receive_from()
        await ws.send_to(text_data="ack 1")
    return got


async def test_a_page_whose_socket_comes_back_is_offered_its_seat_back(
    alice: Client, bob: Client, dice: object
) -> None:
    game, hosts_page = await hosts_page_after_handover(alice, bob)
    bobs_page = page_socket(game.code, bob)  # his phone back online: the socket reconnects

    await bobs_page.connect()
    first = await bobs_page.receive_from()

    assert first.startswith('<div id="handed-over" hx-swap-oob="true">')
    assert "the host let a computer player play for <bdi>Bob</bdi>." in first
    assert OFFER in first and 'hx-post="/g/' in first  # sent with htmx's CSRF header
    bob_seat = await sync_to_async(Seat.objects.get)(name="Bob")
    assert f'name="seat" value="{bob_seat.position}"' in first  # the button names its seat
    assert 'id="table"' in first
    assert OFFER not in await hosts_page.receive_from()  # hers is hers
    await hosts_page.disconnect()
    await bobs_page.disconnect()


async def test_a_seat_taken_back_in_one_page_is_the_players_in_the_browsers_other_pages(
    alice: Client, bob: Client, dice: object
) -> None:
    game, hosts_page = await hosts_page_after_handover(alice, bob)
    other_page = page_socket(game.code, bob)  # a second tab Bob opened meanwhile
    await other_page.connect()
    assert OFFER in await other_page.receive_from()
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
    connected = "<bdi>Bob</bdi>: connected"
    assert connected in await received_until(hosts_page, connected)

    await other_page.disconnect()  # and when that tab goes, Bob is away again
    seat = await seat_once("Bob", lambda seat: seat.connections == 0)
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

    async def play_to_the_end() -> None:
        # turn by turn, each in a trip of its own to the sync thread, which the socket's
        # dispatch needs too: it keeps up, and its page reads (and answers) meanwhile
        while await sync_to_async(play_a_turn)(alice, game):
            pass

    at_the_end, _ = await asyncio.gather(received_until(bobs_page, "Play again"), play_to_the_end())
    assert "watching" not in at_the_end
    assert await counted_in_database(game, 0) == 0
    hosts_page = page_socket(game.code, alice)
    await hosts_page.connect()
    assert "watching" not in await received_until(hosts_page, 'id="table"')
    await hosts_page.disconnect()
    await bobs_page.disconnect()
    seat = await seat_once("Bob", lambda seat: seat.connections == 0)
    assert seat.connections == 0


def carols_turn_with_the_hosts_seat_handed_over(alice: Client, bob: Client) -> Game:
    """Alice hosts Bob and Carol. At her turn she had gone, and Bob, who could then act
    for the table, gave her seat to the computer, which played her turn; Bob played his.
    Now it is Carol's turn, and she has gone too: the table is Bob's to keep going."""
    carol = Client()
    game = create_game(alice, invites="2")
    join(bob, game, "Bob")
    join(carol, game, "Carol")
    alice.post(f"/g/{game.code}/start/", {"version": version(game)})
    gone = timezone.now() - timedelta(minutes=1)
    Seat.objects.filter(game=game, name__in=["Alice", "Carol"]).update(away_since=gone)
    assert bob.post(f"/g/{game.code}/handover/", {"version": version(game)}).status_code == 302
    while services.bot_move(game.code, fresh(game).version):  # Alice's turn, by the computer
        pass
    bob.post(f"/g/{game.code}/roll/", {"version": version(game)})
    chance = {"version": version(game), "category": "chance", "confirm": "1"}
    assert bob.post(f"/g/{game.code}/score/", chance).status_code == 302
    assert fresh(game).engine_state().current_player == 2  # Carol's
    assert Seat.objects.get(game=game, name="Alice").kind == Seat.Kind.BOT
    return game


def bob_may_skip_carol(bob: Client, game: Game) -> bool:
    """Whether Bob is offered Carol's skip; if he is, he takes it (and it must be taken)."""
    offered = "Skip <bdi>Carol</bdi>'s turn" in seen(bob.get(f"/g/{game.code}/").content.decode())
    skipped = bob.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)
    assert (skipped.status_code == 204) == offered, skipped.content.decode()[:300]
    return offered


async def test_friends_act_for_an_away_host_whose_seat_the_computer_plays(
    alice: Client, bob: Client, dice: object
) -> None:
    """The host's absence is her browser's, whatever kind her seats are: a table whose
    away host's seat was handed to the computer went on waiting for her for ever."""
    game = await sync_to_async(carols_turn_with_the_hosts_seat_handed_over)(alice, bob)

    assert await sync_to_async(bob_may_skip_carol)(bob, game)

    assert (await sync_to_async(fresh)(game)).engine_state().scorecards[2].entries == (("ones", 0),)


async def test_friends_may_not_act_for_a_host_whose_page_is_back(
    alice: Client, bob: Client, dice: object
) -> None:
    """Her page's socket is counted at the seat the computer plays for her: she is at
    the table, and only she may skip; once it has been closed long enough, Bob may."""
    game = await sync_to_async(carols_turn_with_the_hosts_seat_handed_over)(alice, bob)
    hosts_page = page_socket(game.code, alice)
    await hosts_page.connect()
    await settled(hosts_page)

    assert not await sync_to_async(bob_may_skip_carol)(bob, game)
    hosts_table = await sync_to_async(alice.get)(f"/g/{game.code}/")
    assert "Skip <bdi>Carol</bdi>'s turn" in hosts_table.content.decode()  # hers to skip

    await hosts_page.disconnect()
    await seat_once("Alice", lambda seat: seat.away_since is not None)
    assert not await sync_to_async(bob_may_skip_carol)(bob, game)  # not gone long enough yet
    hers = Seat.objects.filter(game=game, name="Alice")
    await sync_to_async(hers.update)(away_since=timezone.now() - timedelta(minutes=1))
    assert await sync_to_async(bob_may_skip_carol)(bob, game)


async def test_friends_may_not_act_for_a_host_who_took_her_seat_back(
    alice: Client, bob: Client, dice: object
) -> None:
    """Taken back from a page without a socket (no JavaScript), her seat is at her
    screen again, and she is at the table from then: only she may skip, for now."""
    game = await sync_to_async(carols_turn_with_the_hosts_seat_handed_over)(alice, bob)
    hers = await sync_to_async(Seat.objects.get)(game=game, name="Alice")

    taken = await sync_to_async(alice.post)(f"/g/{game.code}/takeback/", {"seat": hers.position})

    assert taken.status_code == 302
    assert not await sync_to_async(bob_may_skip_carol)(bob, game)

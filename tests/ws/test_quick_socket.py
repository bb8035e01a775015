"""Quick play's waiting page's socket: it says how many wait for each rule set as that
changes, sends the page on once a stranger has pressed, and its closing (the page left)
takes the browser out of the queue."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games.models import Seat, Seek
from tests.sockets import Socket
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]
ORIGIN = (b"origin", b"http://127.0.0.1")


def waiting_socket(client: Client, ruleset: str = "yatzy", language: str = "en") -> Socket:
    """The socket of a waiting page of ``client``'s, waiting for ``ruleset``."""
    headers = [ORIGIN, (b"accept-language", language.encode())]
    if "sessionid" in client.cookies:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return Socket(application, f"/ws/quick/{ruleset}/", headers=headers)


async def sent_on(socket: Socket) -> str:
    """Where the page is sent next (the counts that change meanwhile passed over)."""
    message = await socket.receive_json_from()
    while "counts" in message:
        message = await socket.receive_json_from()
    return message["go"]


async def waited_and_left(client: Client) -> None:
    """Ann pressed, her waiting page connected, and she closed it."""
    await press(client, "Ann")
    ann = waiting_socket(client)
    await ann.connect()
    await ann.receive_json_from()
    await ann.disconnect()


async def press(client: Client, name: str, ruleset: str = "yatzy"):
    await sync_to_async(client.get)("/")
    return await sync_to_async(client.post)("/quick/play/", {"name": name, "ruleset": ruleset})


async def test_the_waiting_page_hears_how_many_wait_and_goes_to_the_table(
    alice: Client, bob: Client, spectator: Client
) -> None:
    await press(alice, "Ann", "yatzy")
    ann = waiting_socket(alice)
    assert (await ann.connect())[0]
    first = (await ann.receive_json_from())["counts"]
    assert "Scandinavian Yatzy" in first and "you are one of them" in first

    await press(spectator, "Cy", "maxi_yatzy")  # someone waits for other rules
    counts = (await ann.receive_json_from())["counts"]
    assert "Maxi Yatzy" in counts and "Play Maxi Yatzy with them" in counts

    seated = await press(bob, "Ben", "yatzy")
    code = seated["Location"].split("/")[2]
    assert await sent_on(ann) == "/quick/"
    assert await ann.close_code() == 4000  # sent on: the page does not connect again
    # the waiting page, loaded again, is the table
    assert (await sync_to_async(alice.get)("/quick/"))["Location"] == f"/g/{code}/"
    # Cy still waits for Maxi Yatzy; Ann's page leaving did not touch that
    waiting = Seek.objects.filter(game=None).values_list("name", flat=True)
    assert await sync_to_async(list)(waiting) == ["Cy"]


async def test_the_counts_come_in_the_pages_language(alice: Client) -> None:
    await press(alice, "Ann", "yatzy")
    ann = waiting_socket(alice, language="fi")
    await ann.connect()
    counts = (await ann.receive_json_from())["counts"]
    assert "1 pelaaja" in counts, counts
    await ann.disconnect()


async def test_leaving_the_page_leaves_the_queue(alice: Client, bob: Client) -> None:
    await waited_and_left(alice)

    assert not await sync_to_async(Seek.objects.exists)()
    answer = await press(bob, "Ben")
    assert answer["Location"] == "/quick/"  # nobody to play: Ben waits


async def test_a_page_whose_socket_opens_again_waits_again(alice: Client, bob: Client) -> None:
    """A reload (or a connection lost and back): the old socket closes, the browser
    waits no more, and the page's new socket asks again, as the page's press did."""
    await waited_and_left(alice)
    assert not await sync_to_async(Seek.objects.exists)()

    again = waiting_socket(alice)
    await again.connect()
    assert "you are one of them" in (await again.receive_json_from())["counts"]
    seated = await press(bob, "Ben")  # and is found by the next press
    assert seated["Location"].startswith("/g/")
    assert await sent_on(again) == "/quick/"


async def test_a_page_whose_socket_opens_again_when_someone_waits_goes_to_the_table(
    alice: Client, bob: Client
) -> None:
    await press(alice, "Ann")
    ann = waiting_socket(alice)
    await ann.connect()
    await ann.receive_json_from()
    await ann.disconnect()  # Ann's connection drops: she waits no more
    await press(bob, "Ben")  # Ben comes meanwhile, and waits

    back = waiting_socket(alice)  # Ann's page, back online
    await back.connect()
    message = await back.receive_json_from()
    assert message["go"].startswith("/g/"), message
    code = message["go"].split("/")[2]
    names = await sync_to_async(list)(
        Seat.objects.filter(game__code=code).values_list("name", flat=True)
    )
    assert names == ["Ben", "Ann"]


async def test_a_page_of_other_rules_than_the_browser_now_waits_for_looks_again(
    alice: Client,
) -> None:
    await press(alice, "Ann", "yatzy")
    await press(alice, "Ann", "maxi_yatzy")  # in another tab
    old_tab = waiting_socket(alice, "yatzy")
    await old_tab.connect()
    assert await old_tab.receive_json_from() == {"go": "/quick/"}


async def test_two_tabs_wait_once_and_the_last_one_closed_leaves(alice: Client) -> None:
    await press(alice, "Ann")
    tabs = [waiting_socket(alice), waiting_socket(alice)]
    for tab in tabs:
        await tab.connect()
        assert "1 player" in (await tab.receive_json_from())["counts"]
    await tabs[0].disconnect()
    assert await sync_to_async(Seek.objects.count)() == 1  # the other tab still waits
    await tabs[1].disconnect()
    assert not await sync_to_async(Seek.objects.exists)()


async def test_a_socket_of_a_browser_that_never_pressed_is_sent_to_the_waiting_page(
    alice: Client,
) -> None:
    await sync_to_async(alice.get)("/")  # no name played under yet
    ann = waiting_socket(alice)
    await ann.connect()
    assert await ann.receive_json_from() == {"go": "/quick/"}
    assert await ann.close_code() == 4000
    assert not await sync_to_async(Seek.objects.exists)()


async def test_stopping_in_one_tab_sends_the_others_to_say_so(alice: Client) -> None:
    await press(alice, "Ann")
    other_tab = waiting_socket(alice)
    await other_tab.connect()
    await other_tab.receive_json_from()
    await sync_to_async(alice.post)("/quick/stop/")
    assert await sent_on(other_tab) == "/quick/"

"""Quick play across two real server processes on one PostgreSQL and one Redis: a
waiting page on one process is sent to the table when a stranger presses on the other,
and presses at the same moment on both processes seat everyone once, in twos."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest
import websockets
from asgiref.sync import sync_to_async

from bench.clients import Browser
from games.models import Game, Seat, Seek
from tests.postgres_redis.race import race
from tests.servers import Server, two_processes
from tests.waits import WAIT_S

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def servers(postgres: None, redis_layer: None) -> list[Server]:
    with two_processes() as started:
        yield started


async def press(browser: Browser, name: str, ruleset: str = "yatzy") -> str:
    """Where a press sends its browser: its table, or the waiting page."""
    await browser.get("/")  # the home page: the CSRF cookie
    answer = await browser.post("/quick/play/", {"name": name, "ruleset": ruleset})
    assert answer.status_code == 302, answer.text[:500]
    return answer.headers["location"]


async def waiting_socket(browser: Browser, ruleset: str = "yatzy"):
    cookies = "; ".join(f"{k}={v}" for k, v in browser.http.cookies.items())
    return await websockets.connect(
        f"{browser.ws_url}/ws/quick/{ruleset}/",
        additional_headers={"Origin": browser.base_url, "Cookie": cookies},
        open_timeout=WAIT_S,
    )


async def sent_on(socket) -> str:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), WAIT_S))
        if "go" in message:
            return message["go"]


@pytest.mark.asyncio
async def test_a_waiter_on_one_process_is_seated_by_a_press_on_the_other(
    servers: list[Server],
) -> None:
    ann = Browser(servers[0].url, servers[0].ws_url)
    ben = Browser(servers[1].url, servers[1].ws_url)
    assert await press(ann, "Ann") == "/quick/"
    socket = await waiting_socket(ann)
    counts = json.loads(await asyncio.wait_for(socket.recv(), WAIT_S))["counts"]
    assert "you are one of them" in counts

    table = await press(ben, "Ben")  # on the other process
    assert table.startswith("/g/")
    assert await sent_on(socket) == "/quick/"  # through Redis
    seated = await ann.http.get("/quick/")
    assert seated.headers["location"] == table
    page = await ann.get(table)
    assert 'class="table-page my-turn host player"' in page.text
    await socket.close()
    await asyncio.gather(ann.close(), ben.close())


@pytest.mark.asyncio
async def test_presses_at_once_on_two_processes_seat_everyone_once_in_twos(
    servers: list[Server],
) -> None:
    """Ten browsers, five on each process, press at the same moment: five tables of two,
    nobody at two; the five who waited are each sent to their table."""
    browsers = [Browser(servers[n % 2].url, servers[n % 2].ws_url) for n in range(10)]
    await asyncio.gather(*(browser.get("/") for browser in browsers))
    places = await asyncio.gather(
        *(
            browser.post("/quick/play/", {"name": f"P{n}", "ruleset": "yatzy"})
            for n, browser in enumerate(browsers)
        )
    )
    assert [answer.status_code for answer in places] == [302] * 10
    places = [answer.headers["location"] for answer in places]
    assert sorted(place == "/quick/" for place in places) == [False] * 5 + [True] * 5

    def seated() -> tuple[int, Counter, bool]:
        seats = Seat.objects.filter(game__quick_play=True).values_list("browser_id", flat=True)
        return (
            Game.objects.filter(quick_play=True).count(),
            Counter(seats),
            Seek.objects.filter(game=None).exists(),
        )

    tables, seats, anyone_waiting = await sync_to_async(seated)()
    assert tables == 5 and len(seats) == 10 and set(seats.values()) == {1}
    assert not anyone_waiting
    followed = set()
    for browser, place in zip(browsers, places, strict=True):
        if place == "/quick/":
            followed.add((await browser.http.get("/quick/")).headers["location"])
    assert followed == {place for place in places if place != "/quick/"}
    await asyncio.gather(*(browser.close() for browser in browsers))


def test_the_queue_is_locked_per_rule_set_on_postgresql(postgres: None) -> None:
    """Without a server: presses in threads, each on its own PostgreSQL connection."""
    from django.test import Client

    clients = [Client() for _ in range(6)]
    for client in clients:
        client.post("/quick/stop/")  # a session with a browser id
    answers = race(
        [
            lambda client=client, n=n: client.post(
                "/quick/play/", {"name": f"P{n}", "ruleset": "maxi_yatzy"}
            )
            for n, client in enumerate(clients)
        ]
    )
    assert [answer.status_code for answer in answers] == [302] * 6
    assert Game.objects.filter(quick_play=True, ruleset="maxi_yatzy").count() == 3

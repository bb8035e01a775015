"""Two real server processes on one PostgreSQL and one Redis, as docker-compose runs them
(named web1 and web2, each started by ``manage.py serve``).

A browser on each process sees the other's moves live; a process killed mid-game
and restarted loses nothing, and its browsers reconnect and resynchronise; the
sockets it left counted are taken off as it comes back, and the other process's
browsers are told; Redis dropping the layer's connections is healed the same way.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
import redis
from asgiref.sync import sync_to_async

from bench.clients import Browser
from games.models import Seat
from tests.deploy.test_settings import manage
from tests.servers import Server, database_url_of_this_run, free_port, new_game, two_processes

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True), pytest.mark.services]
VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture
def servers(postgres: None, redis_layer: None) -> list[Server]:
    with two_processes() as started:
        yield started


async def seat(browser: Browser, code: str, name: str) -> None:
    await browser.get(f"/g/{code}/join/")
    response = await browser.post(f"/g/{code}/join/", {"name": name})
    assert response.status_code < 400, response.text[:500]


async def move(browser: Browser, code: str, action: str, version: int, **data: str) -> int:
    response = await browser.post(f"/g/{code}/{action}/", {"version": str(version), **data})
    assert response.status_code == 200, response.text[:500]
    return int(VERSION.search(response.text).group(1))


@pytest_asyncio.fixture
async def table(servers: list[Server]) -> AsyncIterator[tuple[str, Browser, Browser]]:
    """Alice on the first process, Bob on the second, game started, both connected."""
    alice = Browser(servers[0].url, servers[0].ws_url)
    bob = Browser(servers[1].url, servers[1].ws_url)
    await alice.get("/")
    code = await new_game(alice, invites=1, upper_only="on")
    await seat(bob, code, "Bob")
    lobby = await alice.get(f"/g/{code}/lobby/")
    version = int(VERSION.search(lobby.text).group(1))
    started = await alice.post(f"/g/{code}/start/", {"version": str(version)})
    assert started.status_code in (204, 302)
    for browser in (alice, bob):
        await browser.connect(browser.table_socket(code))
        await asyncio.wait_for(browser.connected.wait(), 10)
    yield code, alice, bob
    await asyncio.gather(alice.close(), bob.close())


def latest(browser: Browser) -> int:
    return max(browser.arrivals)


async def test_each_process_pushes_the_other_processes_moves(table) -> None:
    code, alice, bob = table
    version = latest(alice)

    version = await move(alice, code, "roll", version)  # on process 1
    assert await bob.wait_for(version) is not None  # seen through process 2
    version = await move(alice, code, "score", version, category="ones", confirm="1")
    assert await bob.wait_for(version) is not None
    version = await move(bob, code, "roll", version)  # on process 2
    assert await alice.wait_for(version) is not None  # seen through process 1


async def test_a_killed_process_loses_nothing_and_its_browsers_resynchronise(
    table, servers: list[Server]
) -> None:
    code, alice, bob = table
    version = await move(alice, code, "roll", latest(alice))
    await bob.wait_for(version)

    await asyncio.to_thread(servers[0].kill)
    await asyncio.to_thread(servers[0].start)
    await alice.drop()
    await alice.connect(alice.table_socket(code))  # the page's reconnect with backoff
    await asyncio.wait_for(alice.connected.wait(), 10)

    assert latest(alice) == version  # the roll survived the crash
    version = await move(alice, code, "score", version, category="twos", confirm="1")
    assert await bob.wait_for(version) is not None


@sync_to_async
def connections(code: str) -> dict[str, int]:
    return {seat.name: seat.connections for seat in Seat.objects.filter(game__code=code)}


async def shows(browser: Browser, text: bytes, timeout: float = 10) -> bool:
    deadline = asyncio.get_running_loop().time() + timeout
    while text not in browser.table:
        if asyncio.get_running_loop().time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def test_a_process_back_from_a_crash_takes_off_the_sockets_it_left_counted(
    table, servers: list[Server]
) -> None:
    """Bob's socket dies with web2, without a goodbye; when web2 comes back Bob is
    away, Alice (counted by web1, which served on) is not, and her table says so."""
    code, alice, _ = table
    assert await shows(alice, b"<bdi>Bob</bdi>: connected")

    await asyncio.to_thread(servers[1].kill)
    assert await connections(code) == {"Alice": 1, "Bob": 1}  # left counted
    await asyncio.to_thread(servers[1].start)

    assert await connections(code) == {"Alice": 1, "Bob": 0}
    assert await shows(alice, b"<bdi>Bob</bdi>: away")


async def test_a_process_under_a_name_in_use_stops_and_changes_nothing(
    table, servers: list[Server]
) -> None:
    """A second web2 (``docker compose up --scale``, a copy started by hand) would take
    off the live web2's sockets as it starts: it stops first. Nor may they be taken off
    by hand while web2 serves; once it is gone, they may."""
    code, _, _ = table
    named = {"DATABASE_URL": database_url_of_this_run(), "YATZY_PROCESS": "web2"}

    second = await asyncio.to_thread(manage, "serve", "--port", str(free_port()), **named)
    by_hand = await asyncio.to_thread(manage, "reset_presence", "--process", "web2", **named)
    forced = await asyncio.to_thread(manage, "reset_presence", "--force", **named)

    assert second.returncode == 1
    holder = re.search(
        r"A process named web2 is already serving this database \(PostgreSQL session (\d+) ",
        second.stderr,
    )
    assert holder, second.stderr
    assert f"SELECT pg_terminate_backend({holder.group(1)});" in second.stderr
    assert by_hand.returncode == 1
    assert "The process named web2 is serving this database (PostgreSQL session" in by_hand.stderr
    assert forced.returncode == 1
    assert "The processes named web1, web2 are serving this database" in forced.stderr
    assert await connections(code) == {"Alice": 1, "Bob": 1}

    await asyncio.to_thread(servers[1].kill)
    by_hand = await asyncio.to_thread(manage, "reset_presence", "--process", "web2", **named)
    assert by_hand.returncode == 0, by_hand.stderr
    assert await connections(code) == {"Alice": 1, "Bob": 0}


async def test_lost_layer_connections_are_healed_by_the_next_update(table) -> None:
    code, alice, bob = table
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.client_kill_filter(_type="pubsub")  # what a Redis restart does to the layer

    version = await move(alice, code, "roll", latest(alice))
    seen = await bob.wait_for(version, timeout=3)
    if seen is None:  # the notice was lost with the connection: the next one heals it
        version = await move(alice, code, "roll", version)
        seen = await bob.wait_for(version, timeout=5)
    assert seen is not None


@sync_to_async
def seats_of(code: str) -> list[tuple[str, str]]:
    return list(
        Seat.objects.filter(game__code=code, kind=Seat.Kind.REMOTE)
        .exclude(claimed_at=None)
        .values_list("name", "browser_id")
    )


async def press_join(tab: Browser, code: str, after_ms: int):
    await asyncio.sleep(after_ms / 1000)
    return await tab.post(f"/g/{code}/join/", {"name": "Bob"})


async def test_join_pressed_at_once_on_both_processes_takes_one_seat(
    servers: list[Server],
) -> None:
    """One browser (one session cookie) presses Join in six tabs at once, three served
    by each process, at ten tables: at each it is seated once, every press is answered
    without an error, and the other invitations stay open. The presses come a few
    milliseconds apart: a press that finds the first one's seat taken, before the
    browser's session holds it, took the next invitation (issue 34)."""
    alice = Browser(servers[0].url, servers[0].ws_url)
    await alice.get("/")
    for _table in range(10):
        code = await new_game(alice, invites=3)
        bob = Browser(servers[0].url, servers[0].ws_url)
        await bob.get(f"/g/{code}/join/")  # his session and CSRF cookie, as the page has them
        tabs = [Browser(servers[n % 2].url, servers[n % 2].ws_url) for n in range(6)]
        for tab in tabs:
            tab.http.cookies = dict(bob.http.cookies)
            await tab.http.get("/healthz")  # each tab's connection open before the race

        answers = await asyncio.gather(
            *(press_join(tab, code, after_ms=5 * n) for n, tab in enumerate(tabs))
        )

        assert all(answer.status_code < 400 for answer in answers), [
            (answer.status_code, answer.text[:200]) for answer in answers
        ]
        taken = await seats_of(code)
        assert [name for name, _browser in taken] == ["Bob"], taken
        await asyncio.gather(*(browser.close() for browser in [bob, *tabs]))
    await alice.close()

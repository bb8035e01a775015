"""Open tables across two real server processes on one PostgreSQL and one Redis: a list
page on one process sees a room opened on the other, and sees it go the moment a
stranger on the other fills it."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
import websockets

from bench.clients import Browser
from bench.watchers import new_game
from tests.servers import Server, two_processes
from tests.waits import WAIT_S

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


@pytest.fixture
def servers(postgres: None, redis_layer: None) -> list[Server]:
    with two_processes() as started:
        yield started


async def until_listed(socket, code: str, listed: bool) -> None:
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), WAIT_S))
        if (code in message["tables"]) == listed:
            return


@pytest.mark.asyncio
async def test_a_room_opened_and_filled_on_one_process_comes_and_goes_on_the_other(
    servers: list[Server],
) -> None:
    host = Browser(servers[0].url, servers[0].ws_url)
    stranger = Browser(servers[0].url, servers[0].ws_url)
    code = await new_game(host, invites="1")
    lobby = await host.get(f"/g/{code}/lobby/")
    version = re.search(r'name="version" value="(\d+)"', lobby.text).group(1)
    async with websockets.connect(
        servers[1].ws_url + "/ws/tables/",
        additional_headers={"Origin": servers[1].url},
        open_timeout=WAIT_S,
    ) as page:
        await until_listed(page, code, listed=False)

        await host.post(f"/g/{code}/open/", {"version": version, "open": "1"})
        await until_listed(page, code, listed=True)

        await stranger.get("/tables/")
        answer = await stranger.post("/tables/join/", {"name": "Ben", "code": code})
        assert answer.status_code == 302 and answer.headers["location"] == f"/g/{code}/lobby/"
        await until_listed(page, code, listed=False)
    await host.close()
    await stranger.close()

"""A server told to stop (SIGTERM, as ``docker compose stop`` or a deploy sends it) stops
by itself at once, even when its players' sockets have just closed.

A socket's goodbye publishes the table from a worker thread (who is at it changed);
that thread sent its message with ``async_to_sync``, which waits for the server's
event loop without a bound. Once the loop had stopped, the thread waited for ever, and
Python's exit waits for its threads: the server hung until it was killed (10 s in the
tests; docker kills it after its own 10 s). ``broadcast.run_on_server_loop`` does not
wait for a loop that has stopped.
"""

from __future__ import annotations

import asyncio
import re
import signal
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.clients import Browser
from bench.servers import Server
from games import broadcast
from tests.deploy.test_settings import manage
from tests.servers import new_game

pytestmark = pytest.mark.slow

VERSION = re.compile(r'data-version="(\d+)"')


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    var = tmp_path / "var"
    var.mkdir()
    assert manage("migrate", "--noinput", YATZY_VAR_DIR=str(var)).returncode == 0
    with pytest.MonkeyPatch.context() as env:  # the embedded default, whatever the run's
        env.delenv("DATABASE_URL", raising=False)
        env.delenv("REDIS_URL", raising=False)
        server = Server({"YATZY_VAR_DIR": str(var), "LOG_LEVEL": "WARNING"}).start()
    yield server
    server.stop()


async def _two_players_at_the_table(server: Server) -> list[Browser]:
    """Alice and Bob at a started table, each with the table's socket open."""
    alice = Browser(server.url, server.ws_url)
    bob = Browser(server.url, server.ws_url)
    await alice.get("/")
    code = await new_game(alice, invites=1)
    await bob.get(f"/g/{code}/join/")
    joined = await bob.post(f"/g/{code}/join/", {"name": "Bob"})
    assert joined.status_code < 400, joined.text[:300]
    lobby = await alice.get(f"/g/{code}/lobby/")
    version = VERSION.search(lobby.text)
    assert version is not None
    started = await alice.post(f"/g/{code}/start/", {"version": version.group(1)})
    assert started.status_code in (204, 302), started.text[:300]
    for browser in (alice, bob):
        await browser.connect(browser.table_socket(code))
        await asyncio.wait_for(browser.connected.wait(), 30)
    return [alice, bob]


@pytest.mark.parametrize("who_closes", ["the players", "the server"])
def test_a_server_stops_at_once_as_its_players_leave(server: Server, who_closes: str) -> None:
    """The players close their pages just before the server is told to stop, or the
    server closes their sockets as it stops: either way their goodbyes are published
    as the server's loop stops."""
    assert server.process is not None
    process = server.process

    async def play() -> None:
        players = await _two_players_at_the_table(server)
        if who_closes == "the players":
            await asyncio.gather(*(player.close() for player in players))
            process.send_signal(signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
            await asyncio.gather(*(player.close() for player in players))

    asyncio.run(play())
    try:
        code = process.wait(8)
    except subprocess.TimeoutExpired:
        pytest.fail("the server did not stop by itself within 8 s of SIGTERM")
    assert code != -signal.SIGKILL


def test_a_message_for_a_stopped_server_loop_is_given_up_at_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What a worker thread meets as the server stops: the serving loop has stopped,
    and a table's message for it is given up (and logged), not waited for."""
    loop = asyncio.new_event_loop()

    async def serve() -> None:
        broadcast.served_here()

    try:
        loop.run_until_complete(serve())  # the loop served, then stopped
        assert not loop.is_running()
        done = threading.Event()
        sent: list[object] = []

        async def work() -> None:
            sent.append("sent")

        def worker() -> None:
            try:
                broadcast.run_on_server_loop(work)
            except TimeoutError as gave_up:
                sent.append(gave_up)
            done.set()

        threading.Thread(target=worker, daemon=True).start()
        assert done.wait(5), "the worker waited for a loop that had stopped"
        assert len(sent) == 1 and isinstance(sent[0], TimeoutError)
    finally:
        loop.close()

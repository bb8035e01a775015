"""Where the site's synchronous work runs: on the event loop's own thread on SQLite
(yatzy_site/inline.py), on the one sync thread otherwise; either way every request on
one thread and one database connection, and Django's guard against the ORM on an
event loop still standing everywhere else."""

from __future__ import annotations

import asyncio
import threading
import warnings
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer
from channels.testing import HttpCommunicator
from django.core import signals
from django.core.exceptions import SynchronousOnlyOperation
from django.db import connection
from django.db.backends.signals import connection_created
from django.test import Client

from games import broadcast
from games.consumers import TableConsumer
from games.models import Game
from tests.conftest import create_game
from tests.ws.test_consumer import next_version, socket
from yatzy_site import inline
from yatzy_site.asgi import application

HOST = [(b"host", b"testserver")]


async def get(path: str) -> tuple[int, bytes]:
    status, messages = await get_messages(path)
    return status, b"".join(messages)


async def browser_request(
    client: Client, method: str, path: str, body: str = ""
) -> HttpCommunicator:
    """A request through the ASGI site as ``client``'s browser makes it with htmx: its
    cookies, its CSRF token in a header (the token fetched first)."""
    await sync_to_async(client.get)("/")  # the CSRF cookie
    cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in client.cookies.items())
    headers = [
        *HOST,
        (b"cookie", cookies.encode()),
        (b"hx-request", b"true"),
        (b"x-csrftoken", client.cookies["csrftoken"].value.encode()),
    ]
    if body:
        headers.append((b"content-type", b"application/x-www-form-urlencoded"))
    return HttpCommunicator(application, method, path, body=body.encode(), headers=headers)


async def get_messages(path: str) -> tuple[int, list[bytes]]:
    """The status and the body's messages, as the server sent them."""
    page = HttpCommunicator(application, "GET", path, headers=HOST)
    await page.send_input({"type": "http.request", "body": b""})
    start = await page.receive_output(5)
    messages, more = [], True
    while more:
        chunk = await page.receive_output(5)
        messages.append(chunk.get("body", b""))
        more = chunk.get("more_body", False)
    await page.wait(5)
    return start["status"], messages


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_loop", [True, False], ids=["on the loop", "on the sync thread"])
async def test_every_request_runs_on_one_thread_with_one_connection(
    on_loop: bool, settings
) -> None:
    # Django's stock handler starts a thread per request, and with it a database
    # connection per request.
    settings.YATZY_SYNC_ON_LOOP = on_loop
    assert (await get("/healthz"))[0] == 200  # it reads the database: the connection opens
    seen: list[tuple[str, int]] = []
    opened: list[int] = []

    def started(**kwargs) -> None:
        seen.append(("started", threading.get_ident()))

    def finished(**kwargs) -> None:
        seen.append(("finished", threading.get_ident()))

    def counted(sender, connection, **kwargs) -> None:
        opened.append(threading.get_ident())

    signals.request_started.connect(started)
    signals.request_finished.connect(finished)
    connection_created.connect(counted)
    try:
        for path in ("/healthz", "/", "/static/js/table.js"):  # the last one streams
            status, body = await get(path)
            assert status == 200 and body, path
    finally:
        signals.request_started.disconnect(started)
        signals.request_finished.disconnect(finished)
        connection_created.disconnect(counted)

    assert [event for event, _thread in seen] == ["started", "finished"] * 3
    threads = {thread for _event, thread in seen}
    assert len(threads) == 1
    assert (threading.get_ident() in threads) == on_loop
    assert opened == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_loop", [True, False], ids=["on the loop", "on the sync thread"])
async def test_a_static_file_is_sent_in_blocks_without_a_warning(on_loop: bool, settings) -> None:
    # Django's own handler reads a whole file into memory on another thread first, and
    # warns that it does.
    settings.YATZY_SYNC_ON_LOOP = on_loop
    import django_htmx

    script = Path(django_htmx.__file__).parent / "static/django_htmx/htmx-2.js"
    with warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        status, messages = await get_messages("/static/django_htmx/htmx-2.js")
    assert status == 200
    assert b"".join(messages) == script.read_bytes()
    assert [len(m) for m in messages[:-1]] == [65536, 65536, script.stat().st_size - 131072]
    assert messages[-1] == b""
    assert not [w for w in warned if "StreamingHttpResponse" in str(w.message)]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_sockets_and_requests_on_the_loop_share_its_one_connection(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    settings.YATZY_SYNC_ON_LOOP = True  # as on SQLite, whatever this run's database
    game = await sync_to_async(create_game)(alice)
    inline.call(lambda: connection.ensure_connection())  # looked up inside the call
    opened: list[int] = []
    arrived_on: list[int] = []
    real_arrive = TableConsumer._arrive

    def arrive(consumer: TableConsumer, joined_at: float):
        arrived_on.append(threading.get_ident())
        return real_arrive(consumer, joined_at)

    def counted(sender, connection, **kwargs) -> None:
        opened.append(threading.get_ident())

    monkeypatch.setattr(TableConsumer, "_arrive", arrive)
    connection_created.connect(counted)
    try:
        ws = socket(game.code, alice)
        await ws.connect()
        await next_version(ws)
        assert (await get("/"))[0] == 200
        await ws.disconnect()
    finally:
        connection_created.disconnect(counted)

    assert arrived_on == [threading.get_ident()]
    assert opened == []


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_orm_is_still_refused_on_the_loop_outside_a_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DJANGO_ALLOW_ASYNC_UNSAFE", raising=False)  # the browser tests' own
    with pytest.raises(SynchronousOnlyOperation):
        Game.objects.count()

    assert inline.call(Game.objects.count) == 0
    with pytest.raises(SynchronousOnlyOperation):
        Game.objects.count()


@pytest.mark.asyncio
async def test_a_call_gives_the_loop_back_even_when_it_fails() -> None:
    loop = asyncio.get_running_loop()
    seen = []

    def fails() -> None:
        seen.append(inline.serving_loop())
        raise ValueError("refused")

    with pytest.raises(ValueError, match="refused"):
        inline.call(fails)

    assert seen == [loop]
    assert asyncio.get_running_loop() is loop
    assert inline.serving_loop() is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("on_loop", [True, False], ids=["on the loop", "on the sync thread"])
async def test_a_socket_is_accepted_before_its_arrival_reads_the_game(
    on_loop: bool, alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    settings.YATZY_SYNC_ON_LOOP = on_loop
    game = await sync_to_async(create_game)(alice)
    steps: list[str] = []
    real_accept, real_arrive = TableConsumer.accept, TableConsumer._arrive

    async def accept(consumer: TableConsumer, *args, **kwargs) -> None:
        steps.append("accepted")
        await real_accept(consumer, *args, **kwargs)

    def arrive(consumer: TableConsumer, joined_at: float):
        steps.append("read")
        return real_arrive(consumer, joined_at)

    monkeypatch.setattr(TableConsumer, "accept", accept)
    monkeypatch.setattr(TableConsumer, "_arrive", arrive)
    ws = socket(game.code, alice)
    connected, _ = await ws.connect()
    got, _html = await next_version(ws)

    assert connected and got == game.version
    assert steps == ["accepted", "read"]
    await ws.disconnect()


class StalledLayer(BaseChannelLayer):
    """A channel layer that never answers a send (Redis stalled)."""

    extensions = ["groups"]

    async def group_send(self, group: str, message: dict) -> None:
        await asyncio.Event().wait()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_stalled_channel_layer_holds_no_request_up(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, settings
) -> None:
    # Every request first waits for the notices already queued to go out.
    settings.YATZY_SYNC_ON_LOOP = True
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "tests.ws.test_inline.StalledLayer"}}
    monkeypatch.setattr(broadcast, "SEND_TIMEOUT", 1.0)
    game = await sync_to_async(create_game)(alice)
    roll = await browser_request(alice, "POST", f"/g/{game.code}/roll/", f"version={game.version}")
    assert (await roll.get_response(timeout=5))["status"] == 200
    assert len(broadcast._pending) == 1  # its notice, stalled

    assert (await asyncio.wait_for(get("/healthz"), 2))[0] == 200
    (stalled,) = broadcast._pending.values()
    await asyncio.wait_for(asyncio.shield(stalled), 5)  # its SEND_TIMEOUT runs out
    assert not broadcast._pending  # given up on, and logged

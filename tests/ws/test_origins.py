"""Whose pages may open a table's socket: the site's own origin (scheme, host and port
as the handshake reached the site) and CSRF_TRUSTED_ORIGINS, nothing else."""

from __future__ import annotations

import pytest
from django.test import Client

from games import broadcast
from tests.conftest import create_game
from tests.sockets import Socket
from tests.waits import WAIT_S
from yatzy_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connects(code: str, host: str, origin: str | None, *extra: tuple[bytes, bytes]) -> bool:
    headers = [(b"host", host.encode()), *extra]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    ws = Socket(application, f"/ws/g/{code}/{broadcast.new_page_id()}/", headers=headers)
    connected, _ = await ws.connect()
    if connected:
        assert 'id="table"' in await ws.receive_from()  # and it is sent the table
        await ws.disconnect()
    return connected


@pytest.fixture
def code(alice: Client, dice: object) -> str:
    return create_game(alice).code


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("localhost:8000", "http://localhost:8000"),
        ("localhost", "http://localhost"),
        ("localhost:80", "http://localhost"),
        ("LOCALHOST:8000", "http://localhost:8000"),
        ("127.0.0.1:8123", "http://127.0.0.1:8123"),
        ("[::1]:8000", "http://[::1]:8000"),
    ],
)
async def test_the_sites_own_pages_get_a_socket(code: str, host: str, origin: str) -> None:
    assert await connects(code, host, origin)


@pytest.mark.parametrize(
    ("host", "origin"),
    [
        ("localhost:8000", "http://localhost:9999"),  # another port: another site
        ("localhost:8000", "http://localhost"),
        ("localhost", "http://localhost:8080"),
        ("localhost:8000", "https://localhost:8000"),  # another scheme
        ("localhost:8000", "http://127.0.0.1:8000"),  # another host
        ("localhost:8000", "http://evil.example"),
        ("localhost:8000", "http://localhost.evil.example:8000"),
        ("localhost:8000", "null"),
        ("localhost:8000", ""),
        ("localhost:8000", None),
        ("localhost:8000", "http://localhost:8000/page"),
        ("localhost:8000", "http://user@localhost:8000"),
        ("localhost:8000", "http://localhost:99999999"),
        ("localhost:8000", "ws://localhost:8000"),
        ("evil.example", "http://evil.example"),  # a Host the site does not serve
        ("localhost\x00:8000", "http://localhost:8000"),
    ],
)
async def test_any_other_origin_is_refused(code: str, host: str, origin: str | None) -> None:
    assert not await connects(code, host, origin)


async def test_a_trusted_origin_gets_a_socket(code: str, settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://yatzy.example.org", "https://*.friends.example"]

    assert await connects(code, "localhost:8000", "https://yatzy.example.org")
    assert await connects(code, "localhost:8000", "https://table.friends.example")
    assert not await connects(code, "localhost:8000", "http://yatzy.example.org")
    assert not await connects(code, "localhost:8000", "https://yatzy.example.org:8443")
    assert not await connects(code, "localhost:8000", "https://evilfriends.example")


async def test_behind_a_tls_proxy_the_origin_is_https(code: str, settings) -> None:
    """The proxy says the browser's connection was secure (X-Forwarded-Proto), as
    Django reads it for a request: the page's origin is then https."""
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["yatzy.example.org"]
    proxied = (b"x-forwarded-proto", b"https")

    assert await connects(code, "yatzy.example.org", "https://yatzy.example.org", proxied)
    assert not await connects(code, "yatzy.example.org", "http://yatzy.example.org", proxied)
    assert not await connects(code, "yatzy.example.org", "https://yatzy.example.org")


async def test_a_refused_socket_is_closed_at_the_handshake(code: str) -> None:
    ws = Socket(
        application,
        f"/ws/g/{code}/",
        headers=[(b"host", b"localhost:8000"), (b"origin", b"http://localhost:9999")],
    )

    connected, close_code = await ws.connect(WAIT_S)

    assert not connected
    assert close_code == 1000 or close_code is None

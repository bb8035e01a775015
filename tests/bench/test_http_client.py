"""The benchmark's HTTP client does what a browser does for the site: keeps its
connection, sends back the cookies it was given, follows a GET's redirects and reads
every response whole, however it is framed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest

from bench.http import HttpSession

Handler = Callable[[bytes, bytes], bytes]  # (request line and headers, body) -> response


@asynccontextmanager
async def server(handler: Handler, close_after: int = 0) -> AsyncIterator[tuple[str, list]]:
    """A one-connection-at-a-time HTTP/1.1 server on a free port; ``close_after`` > 0
    closes each connection after that many responses. Yields its URL and the list of
    (connection number, request head) it received."""
    seen: list[tuple[int, bytes]] = []
    connections = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal connections
        connections += 1
        number, answered = connections, 0
        while True:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = await reader.readexactly(length)
            seen.append((number, head))
            writer.write(handler(head, body))
            await writer.drain()
            answered += 1
            if close_after and answered >= close_after:
                break
        writer.close()

    listener = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    async with listener:
        yield f"http://127.0.0.1:{port}", seen


def respond(status: str, body: bytes = b"", headers: tuple[str, ...] = ()) -> bytes:
    lines = [f"HTTP/1.1 {status}", *headers]
    if not any(h.lower().startswith("transfer-encoding") for h in headers):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


@pytest.mark.asyncio
async def test_it_sends_back_the_cookies_the_site_set_and_posts_a_form() -> None:
    def handler(head: bytes, body: bytes) -> bytes:
        if head.startswith(b"GET"):
            return respond(
                "200 OK",
                b"page",
                ("Set-Cookie: csrftoken=abc; Path=/; SameSite=Lax", "Set-Cookie: sessionid=s1"),
            )
        return respond("200 OK", body)

    async with server(handler) as (url, seen):
        browser = HttpSession(url)
        await browser.get("/")
        answer = await browser.post("/g/x/roll/", {"version": "3", "name": "Ann & Ben"})
        await browser.aclose()

    assert answer.status_code == 200
    assert answer.content == b"version=3&name=Ann+%26+Ben"
    post_head = seen[1][1]
    assert b"Cookie: csrftoken=abc; sessionid=s1\r\n" in post_head
    assert b"Content-Type: application/x-www-form-urlencoded\r\n" in post_head
    assert [number for number, _ in seen] == [1, 1]  # one kept-alive connection


@pytest.mark.asyncio
async def test_it_reads_a_chunked_body_whole() -> None:
    chunked = b"4\r\nWiki\r\n6\r\npedia \r\n3\r\nin \r\n0\r\n\r\n"

    def handler(head: bytes, body: bytes) -> bytes:
        return respond("200 OK", chunked, ("Transfer-Encoding: chunked",))

    async with server(handler) as (url, _seen):
        browser = HttpSession(url)
        first = await browser.get("/")
        second = await browser.get("/")  # the connection is still in step
        await browser.aclose()

    assert first.content == second.content == b"Wikipedia in "


@pytest.mark.asyncio
async def test_it_follows_a_get_redirect_when_asked() -> None:
    def handler(head: bytes, body: bytes) -> bytes:
        if head.startswith(b"GET /join/"):
            return respond("302 Found", headers=("Location: /table/?from=join",))
        return respond("200 OK", head.split(b" ")[1])

    async with server(handler) as (url, _seen):
        browser = HttpSession(url)
        followed = await browser.get("/join/", follow_redirects=True)
        not_followed = await browser.get("/join/")
        await browser.aclose()

    assert followed.status_code == 200 and followed.content == b"/table/?from=join"
    assert not_followed.status_code == 302


@pytest.mark.asyncio
async def test_it_opens_a_new_connection_when_the_server_closed_the_last() -> None:
    def handler(head: bytes, body: bytes) -> bytes:
        return respond("200 OK", b"ok")

    async with server(handler, close_after=1) as (url, seen):
        browser = HttpSession(url)
        answers = [await browser.get("/") for _ in range(3)]
        await browser.aclose()

    assert [a.content for a in answers] == [b"ok"] * 3
    assert [number for number, _ in seen] == [1, 2, 3]

"""A browser's HTTP/1.1 connection to the site, lean enough not to be what is measured.

The benchmark's browsers first used httpx, whose own work per request (building the
request and response models, its connection pool, its cookie jar's locking) cost
this machine's client ~2 ms a request: the bare stack's move took 6.1 ms at p50 with
it and 3.7 ms with this (docs/performance.md, round 7). A browser's network stack is
native code; the figures are meant to be the server's.

What a browser does and the site relies on is kept: one kept-alive connection, the
cookies the site sets (the session, the CSRF cookie) sent back on every request,
form bodies urlencoded, redirects of a GET followed, every response read whole
(Content-Length or chunked). What the site never asks for is left out: TLS, HTTP/2,
compression, cookie paths and expiry (every cookie here is the site's own).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from urllib.parse import urlencode, urlsplit

MAX_REDIRECTS = 5


class HttpError(Exception):
    """The server's answer could not be read as HTTP/1.1."""


@dataclass
class Response:
    status_code: int
    headers: dict[str, str]  # lowercased names; the last of a repeated header
    content: bytes
    cookies: list[tuple[str, str]] = field(default_factory=list)

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class HttpSession:
    """One browser's connection and cookies, for requests made one at a time."""

    def __init__(self, base_url: str, timeout: float = 30) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.base_url = base_url
        self.timeout = timeout
        self.cookies: dict[str, str] = {}
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, follow_redirects: bool = False) -> Response:
        response = await self.request("GET", path)
        for _ in range(MAX_REDIRECTS):
            if not (follow_redirects and response.status_code in (301, 302, 303, 307, 308)):
                break
            location = urlsplit(response.headers["location"])
            path = location.path + (f"?{location.query}" if location.query else "")
            response = await self.request("GET", path)
        return response

    async def post(
        self, path: str, data: dict[str, str], headers: dict[str, str] | None = None
    ) -> Response:
        body = urlencode(data).encode()
        form = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return await self.request("POST", path, body, form)

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> Response:
        """Send one request and read its whole response; a connection the server has
        closed since the last one is opened again (as a browser does)."""
        head = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        head += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if self.cookies:
            head.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        if body or method == "POST":
            head.append(f"Content-Length: {len(body)}")
        message = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body
        for attempt in range(2):
            fresh = self._writer is None
            if fresh:
                self._reader, self._writer = await asyncio.open_connection(self.host, self.port)
            try:
                self._writer.write(message)
                response = await asyncio.wait_for(self._read_response(), self.timeout)
                break
            except (ConnectionError, asyncio.IncompleteReadError):
                await self.aclose()
                if fresh or attempt:
                    raise
        for name, value in response.cookies:
            self.cookies[name] = value
        if response.headers.get("connection", "").lower() == "close":
            await self.aclose()
        return response

    async def _read_response(self) -> Response:
        reader = self._reader
        assert reader is not None
        status_line = await reader.readuntil(b"\r\n")
        try:
            status = int(status_line.split(b" ", 2)[1])
        except (IndexError, ValueError):
            raise HttpError(f"not an HTTP status line: {status_line!r}") from None
        headers: dict[str, str] = {}
        cookies: list[tuple[str, str]] = []
        while True:
            line = await reader.readuntil(b"\r\n")
            if line == b"\r\n":
                break
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            headers[name] = value
            if name == "set-cookie":
                cookie = value.split(";", 1)[0]
                key, _, cookie_value = cookie.partition("=")
                cookies.append((key.strip(), cookie_value.strip()))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            content = await self._read_chunked()
        elif "content-length" in headers:
            content = await reader.readexactly(int(headers["content-length"]))
        elif status in (204, 304) or 100 <= status < 200:
            content = b""
        else:  # the body runs to the end of the connection
            content = await reader.read()
            await self.aclose()
        return Response(status, headers, content, cookies)

    async def _read_chunked(self) -> bytes:
        reader = self._reader
        assert reader is not None
        chunks = []
        while True:
            size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
            if size == 0:
                while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
                    pass
                return b"".join(chunks)
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)

    async def aclose(self) -> None:
        writer, self._reader, self._writer = self._writer, None, None
        if writer is not None:
            writer.close()
            with contextlib.suppress(ConnectionError):
                await writer.wait_closed()

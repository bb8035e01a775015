"""Simulated browsers: an HTTP session with cookies and CSRF, and a table WebSocket.

A browser records when each game version reaches it over its socket; the drivers
post moves at the chosen rate and wait until every other browser at the table
has the new version (or gives up on it and counts it lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import websockets

from bench.http import HttpSession, Response

VERSION = re.compile(rb'data-version="(\d+)"')
UPDATE_TIMEOUT = 5.0
ACK_AFTER_S = 0.5  # as table.js: one "ack N" for the messages of half a second
# What Chromium adds to an htmx POST: the server parses all of it, so the browsers here
# send it too.
BROWSER_HEADERS = {
    "User-Agent": (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)"
        " Chrome/156.0.0.0 Safari/537.36"
    ),
    "Accept": "*/*",
    "Accept-Encoding": "gzip, deflate, br, zstd",
    "Accept-Language": "en-GB,en;q=0.9",
    "Sec-Fetch-Site": "same-origin",
    "Sec-Fetch-Mode": "cors",
    "Sec-Fetch-Dest": "empty",
}
CONNECT_ATTEMPTS = 8


@dataclass
class Counters:
    response: list[float] = field(default_factory=list)
    others: list[float] = field(default_factory=list)
    actions: int = 0
    refused: int = 0
    lost: int = 0
    duplicated: int = 0
    first_sent: float | None = None  # the span of the play, seating the tables excluded
    last_done: float = 0.0
    # once a second while the tables play (``bench.stats.Sample``)
    samples: list[tuple[float, int, float]] = field(default_factory=list)

    @property
    def playing_seconds(self) -> float:
        return self.last_done - self.first_sent if self.first_sent is not None else 0.0


class Browser:
    def __init__(self, base_url: str, ws_url: str, http: bool = True) -> None:
        self.base_url = base_url
        self.ws_url = ws_url
        self._http: HttpSession | None = None
        if http:
            self._http = self._new_http()  # made now, not inside the first timed action
        self.arrivals: dict[int, float] = {}
        self.table = b""  # the last table received, as it came
        self.duplicates = 0
        self.connect_version = -1
        self._seen: dict[int, int] = {}  # version: hash of the last table received at it
        self.retries = 0
        self._waiters: dict[int, asyncio.Future[float]] = {}
        self._socket: websockets.ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._handled = 0  # messages read and not yet answered for (games/readers.py)
        self._answer: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()
        self.connected_at = 0.0
        # the code the server closed the last socket with (4408: a page that reads too
        # slowly, games/readers.py); None while it is open or after this side closed it
        self.closed_by_server: int | None = None
        # what a table page names itself by (its socket's address, its moves' header):
        # the table a move makes reaches this page in the answer, not again on its socket
        self.page = secrets.token_urlsafe(16)

    # -- HTTP ---------------------------------------------------------------------------

    @property
    def http(self) -> HttpSession:
        # The thousands of watchers of the connection test, made with ``http=False``,
        # have no HTTP session unless they use it.
        if self._http is None:
            self._http = self._new_http()
        return self._http

    def _new_http(self) -> HttpSession:
        return HttpSession(self.base_url, timeout=30)

    async def get(self, path: str) -> Response:
        return await self.http.get(path, follow_redirects=True)

    async def post(self, path: str, data: dict[str, str]) -> Response:
        token = self.http.cookies.get("csrftoken", "")
        page = self.base_url + path.rsplit("/", 2)[0] + "/"  # the table the form is on
        return await self.http.post(
            path,
            data={**data, "csrfmiddlewaretoken": token},
            headers={
                "HX-Request": "true",
                "HX-Target": "table",
                "HX-Current-URL": page,
                "X-CSRFToken": token,
                "X-Yatzy-Page": self.page,
                "Origin": self.base_url,
                "Referer": page,
                **BROWSER_HEADERS,
            },
        )

    # -- WebSocket ------------------------------------------------------------------------

    def table_socket(self, code: str) -> str:
        """The path of the table's socket, named for this page as the table page does."""
        return f"/ws/g/{code}/{self.page}/"

    async def connect(self, path: str) -> None:
        jar = self._http.cookies if self._http is not None else {}
        cookies = "; ".join(f"{k}={v}" for k, v in jar.items())
        headers = {"Origin": self.base_url}
        if cookies:
            headers["Cookie"] = cookies
        self.connected.clear()
        # Like the page's socket: when the server turns a handshake away under load,
        # try again after a growing, jittered pause.
        delay = 0.1
        for attempt in range(CONNECT_ATTEMPTS):
            try:
                self._socket = await websockets.connect(
                    self.ws_url + path,
                    additional_headers=headers,
                    max_size=None,
                    open_timeout=60,
                )
                break
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                if attempt == CONNECT_ATTEMPTS - 1:
                    raise
                self.retries += 1
                await asyncio.sleep(delay * (0.5 + random.random()))
                delay = min(delay * 2, 5.0)
        if self._answer is not None:  # an answer due on the last socket is not this one's
            self._answer.cancel()
        self._handled = 0
        self.closed_by_server = None
        self._reader = asyncio.create_task(self._read(self._socket))

    async def _read(self, socket: websockets.ClientConnection) -> None:
        try:
            while True:
                # the frame's bytes as they came: a table is only searched, not read
                data = await socket.recv(decode=False)
                now = time.perf_counter()
                self._read_one(socket)
                match = VERSION.search(data)
                if match is None:
                    continue
                version = int(match.group(1))
                self.table = data
                if not self.connected.is_set():
                    self.connect_version = version  # the full table sent on connect
                    self.connected_at = now
                    self._seen[version] = hash(data)
                    self.connected.set()
                elif version in self.arrivals:
                    # A table re-sent at a version this browser has is a presence
                    # change (someone arrived or left) when it looks different; the
                    # same table twice is a duplicated update.
                    if self._seen.get(version) == hash(data):
                        self.duplicates += 1
                    self._seen[version] = hash(data)
                    continue
                self._seen[version] = hash(data)
                self.arrivals[version] = now
                waiter = self._waiters.pop(version, None)
                if waiter and not waiter.done():
                    waiter.set_result(now)
        except websockets.ConnectionClosed as closed:
            server_first = closed.sent is None or bool(closed.rcvd_then_sent)
            if closed.rcvd is not None and server_first:
                self.closed_by_server = closed.rcvd.code
            # nothing more comes on this socket: nobody waits the timeout out for it
            for waiter in self._waiters.values():
                if not waiter.done():
                    waiter.set_result(-1.0)
            self._waiters.clear()

    def _read_one(self, socket: websockets.ClientConnection) -> None:
        """Say what was read, as the page does: a socket that does not is closed."""
        self._handled += 1
        if self._answer is None or self._answer.done():
            self._answer = asyncio.create_task(self._say_read(socket))

    async def _say_read(self, socket: websockets.ClientConnection) -> None:
        await asyncio.sleep(ACK_AFTER_S)
        handled, self._handled = self._handled, 0
        with contextlib.suppress(websockets.ConnectionClosed):
            await socket.send(f"ack {handled}")

    async def wait_for(self, version: int, timeout: float = UPDATE_TIMEOUT) -> float | None:
        if version in self.arrivals:
            return self.arrivals[version]
        if self._reader is not None and self._reader.done():
            return None  # its socket is closed: the update will not come
        waiter = self._waiters.setdefault(version, asyncio.get_running_loop().create_future())
        try:
            arrival = await asyncio.wait_for(asyncio.shield(waiter), timeout)
        except TimeoutError:
            return None
        return None if arrival < 0 else arrival

    async def drop(self) -> None:
        """Lose the socket, as a phone going out of coverage does; HTTP stays."""
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)

    async def close(self) -> None:
        if self._socket is not None:
            await self._socket.close()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)
        if self._http is not None:
            await self._http.aclose()


class RateLimiter:
    """Hands out action slots at ``rate`` per second across all tables."""

    def __init__(self, rate: float) -> None:
        self.interval = 1.0 / rate
        self.next_slot = time.perf_counter()
        self.lock = asyncio.Lock()

    async def slot(self) -> None:
        async with self.lock:
            self.next_slot = max(self.next_slot + self.interval, time.perf_counter())
            delay = self.next_slot - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)


async def timed_action(
    actor: Browser,
    others: list[Browser],
    send: Callable[[], Awaitable[Response]],
    version: int,
    counters: Counters,
) -> bool:
    """Send one move; record the actor's response time and the others' update times."""
    started = time.perf_counter()
    if counters.first_sent is None:
        counters.first_sent = started
    response = await send()
    counters.response.append(time.perf_counter() - started)
    counters.actions += 1
    if response.status_code >= 400:
        counters.refused += 1
        return False
    arrivals = await asyncio.gather(*(other.wait_for(version) for other in others))
    counters.last_done = time.perf_counter()
    counters.lost += sum(1 for arrival in arrivals if arrival is None)
    if arrivals and all(arrival is not None for arrival in arrivals):
        counters.others.append(max(arrivals) - started)
    return True

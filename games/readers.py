"""What a table's sockets may hold of the server: bounds on slow readers, and on the
sockets one browser keeps open.

A socket's messages are written to daphne's transport, which buffers whatever the
peer has not read yet, without limit (django/daphne#170), and the application is
told nothing of it: ASGI's ``websocket.send`` returns at once, and neither daphne nor
autobahn nor twisted lets an ASGI application see its transport's buffer through a
public API. So the page says what it has read: ``table.js`` answers the messages it
has handled with ``ack N`` (N messages since its last answer), and the server counts
what it sent and has not heard back about (``Unread``). A socket whose unread
messages pass ``YATZY_SOCKET_UNREAD_KB``, or whose oldest has waited longer than
``YATZY_SOCKET_READ_TIMEOUT_S``, is closed with ``CLOSE_SLOW_READER``; the page
connects again as after any lost socket, and is sent the table as it is then. What
the server buffers for a socket is at most its unread messages, so this bounds it.

A browser (by the id its session holds; a socket without one, by its address) may
keep ``YATZY_SOCKETS_PER_BROWSER`` sockets open at once in each server process
(``OpenSockets``); the next is closed with ``CLOSE_TOO_MANY_SOCKETS``, and its page
says so instead of trying again.
"""

from __future__ import annotations

import threading
from collections import Counter, deque

CLOSE_SLOW_READER = 4408  # the page did not read what it was sent: reconnect
CLOSE_TOO_MANY_SOCKETS = 4409  # this browser has too many sockets open: do not retry
ACK = "ack"  # what a page answers: "ack N", N messages handled since its last answer
MAX_ACK = 10_000  # more messages than any socket is sent between two of its answers


def parse_ack(text: str | None) -> int | None:
    """How many messages ``text`` says the page has handled, if it is an answer
    ``table.js`` sends (``ack 3``); else None."""
    if text is None:
        return None
    word, _, count = text.partition(" ")
    if word != ACK or not count.isascii() or not count.isdigit() or len(count) > 5:
        return None
    number = int(count)
    return number if 0 < number <= MAX_ACK else None


def size_of(text: str) -> int:
    """The bytes ``text`` takes on the wire (UTF-8), counted without a copy when it is
    ASCII, as a table mostly is."""
    return len(text) if text.isascii() else len(text.encode())


class Unread:
    """The messages a socket was sent that its page has not said it handled, oldest
    first: each one's size and when it was sent."""

    def __init__(self, limit: int, timeout: float) -> None:
        self.limit = limit  # bytes
        self.timeout = timeout  # seconds
        self.sent: deque[tuple[int, float]] = deque()
        self.size = 0

    def fits(self, size: int) -> bool:
        """Whether a message of ``size`` bytes may be sent without passing the limit
        (the first one always may: a table is far smaller than any sensible limit)."""
        return not self.sent or self.size + size <= self.limit

    def add(self, size: int, now: float) -> None:
        self.sent.append((size, now))
        self.size += size

    def read(self, count: int) -> None:
        """The page handled the ``count`` oldest messages. More than it was sent counts
        as all of them: a page's answer may come on its next socket when the one the
        messages came by closes as it sends it."""
        for _ in range(min(count, len(self.sent))):
            self.size -= self.sent.popleft()[0]

    def due(self) -> float | None:
        """When the oldest unread message will have waited too long; None if none is
        unread."""
        return self.sent[0][1] + self.timeout if self.sent else None


class OpenSockets:
    """How many sockets each browser has open to this process. Taken as a socket
    arrives (in the server's sync thread, where the session is read) and given back
    as it ends (on the event loop): a lock keeps the counts whole."""

    def __init__(self) -> None:
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def take(self, browser: str, most: int) -> bool:
        """Count one more socket of ``browser``, unless it has ``most`` open already."""
        with self._lock:
            if self._open[browser] >= most:
                return False
            self._open[browser] += 1
            return True

    def give_back(self, browser: str) -> None:
        with self._lock:
            self._open[browser] -= 1
            if self._open[browser] <= 0:
                del self._open[browser]


OPEN = OpenSockets()


def browser_of(browser_id: str, scope: dict) -> str | None:
    """Whose sockets a socket counts among: its browser's, by the id the site gave it
    in its session; a socket without one (no session, or one the site never made) is
    counted with the others of its address. None where neither is known (a test's
    socket), which is not counted."""
    if browser_id:
        return f"browser {browser_id}"
    client = scope.get("client")
    return f"address {client[0]}" if client else None

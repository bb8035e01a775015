"""Django's synchronous work done on the event loop's own thread (the embedded default).

On SQLite in one process the site's database work is one queue: a single thread did
all of it, in arrival order (``handlers``), and the event loop only moved bytes. The
two threads then handed every request over twice and fought for the GIL in between:
a thread that wants the GIL waits for the other's switch interval (5 ms) to force a
hand-over, so a push ready on the loop waited behind a move being rendered on the
thread. Done here, on the loop's thread, the same work runs in the same order with
no hand-overs; the loop is busy for the length of a request (SQLite answers in
microseconds and never waits on a network), which is what the GIL allowed anyway
(docs/performance.md, round 7).

Django refuses to run the ORM where ``asyncio.get_running_loop()`` finds a loop: it
would block the loop (here the point) and might share a connection between tasks
(calls that never await cannot interleave). So the running loop is set aside for
the length of a call, and stays reachable through ``serving_loop()`` for the code
that hands work back to it (``broadcast``). Outside these calls the guard stands.
Setting the loop aside also gives the calls one database connection: Django keeps
connections per thread, but where a loop runs asgiref keeps them per asyncio task,
which would be a new connection for every request and socket.

With PostgreSQL every query is a round trip on the network, during which the
thread lets the loop run: there the work stays on the sync thread
(``YATZY_SYNC_ON_LOOP``, on by default only on SQLite).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections

P = ParamSpec("P")
R = TypeVar("R")

_thread: threading.local = threading.local()  # .loop: the loop set aside, during a call


def enabled() -> bool:
    return settings.YATZY_SYNC_ON_LOOP


def call(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``func(*args, **kwargs)`` on this thread, whose event loop is running, as if on
    the site's one sync thread (see the module's docstring)."""
    loop = asyncio.get_running_loop()
    asyncio._set_running_loop(None)
    _thread.loop = loop
    try:
        return func(*args, **kwargs)
    finally:
        _thread.loop = None
        asyncio._set_running_loop(loop)


async def database(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """``func`` with database work, from async code: on the loop when enabled, else on
    the sync thread (Channels' ``database_sync_to_async``). Either way stale
    connections are closed before and after, as Channels does."""
    if not enabled():
        return await database_sync_to_async(func)(*args, **kwargs)
    return call(_with_fresh_connections, func, *args, **kwargs)


def _with_fresh_connections(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


def serving_loop() -> asyncio.AbstractEventLoop | None:
    """The loop set aside by ``call``, while its work runs; else ``None``."""
    return getattr(_thread, "loop", None)

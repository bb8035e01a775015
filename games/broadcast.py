"""Tells every browser at a table that the game changed: "game X is now at version V".

Called from ``transaction.on_commit``: a message is only sent for a change that
is in the database. Consumers answer it by rendering each viewer's partials.

Inside the server the move does not wait for the send: the message is handed to
the server's event loop (queued at once when the move runs on the loop's own thread,
``yatzy_site/inline.py``), which sends it after the game's previous message (so a
table's versions go out in order), and the move answers the player at once. A
computer player's move, made on its timer thread, is handed to the loop serving the
table sockets. Outside a server (management commands, sync tests) the send is made
and awaited in place. ``delivered`` lets a request wait until the updates already
queued are out.

A move answered by htmx carries the table it made to the page that asked; that page's
own socket need not be sent it again. The page names itself (``X-Yatzy-Page``, a
random id, also the last part of its socket's address), the move's notice says which
page was answered, and that page's socket only notes the version
(``games/consumers.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import secrets
from collections.abc import Callable, Iterator
from contextvars import ContextVar

from asgiref.sync import SyncToAsync, async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer
from django.dispatch import Signal

from games.models import Game
from games.snapshots import SNAPSHOTS
from yatzy_site import inline
from yatzy_site.layers import ThrottledInMemoryChannelLayer

log = logging.getLogger(__name__)

# Per game, the send that is queued or under way on the server's loop; only
# touched from that loop.
_pending: dict[str, asyncio.Future] = {}
# The loop serving this process's table sockets, once one has connected.
_sockets_loop: asyncio.AbstractEventLoop | None = None
_POLL = 1e-6  # seconds: a timer due at once (``delivered``)
STALLED_AFTER = 0.25  # seconds: a notice not sent by then holds no request up (``delivered``)
SEND_TIMEOUT = 10.0  # seconds: a notice the channel layer has not taken by then is lost
# The page whose request is making the move, if its answer carries the table.
_answering: ContextVar[str] = ContextVar("answering", default="")
_PAGE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")

# "Game ``code`` is at ``version``", for listeners in this process (the computer
# players), sent with the notice; ``game`` is the game as the move committed it, or None.
table_changed = Signal()


def group_name(code: str) -> str:
    return f"game.{code}"


def presence_notice() -> dict:
    """The message that who is at a table changed: each of its sockets is sent the
    table again if it looks different to that socket's browser."""
    return {"type": "game.changed", "stamp": secrets.token_hex(8)}


def presence_changed(codes: list[str], after: float = 0.0) -> None:
    """Tell the browsers at these tables, in every server process, that who is at them
    changed; or will have ``after`` seconds from now, when a player who has no socket
    open becomes away: half a second later than that, so that the seat is away by
    the clock of whoever renders it (only from a server, whose loop keeps the time: a
    command has no loop to wait on)."""
    for code in codes:
        if not after:
            _notify(code, presence_notice())
        elif (loop := _loop_here()) is not None:
            loop.call_soon_threadsafe(loop.call_later, after + 0.5, _notify_later, loop, code)


def _notify_later(loop: asyncio.AbstractEventLoop, code: str) -> None:
    layer = get_channel_layer()
    if layer is not None:
        _queue(loop, layer, code, presence_notice())


def game_changed(
    code: str, version: int, game: Game | None = None, seats_changed: bool = False
) -> None:
    """Notify the table, and this process's listeners (``table_changed``); ``game``, if
    given, is the game as this move committed it, kept for this process's browsers so
    that they need not read it again.
    ``seats_changed``: a seat changed hands, so each socket of a browser that holds
    seats looks again at which it holds."""
    if game is not None and game.version == version:
        SNAPSHOTS.put(game)
    message = {"type": "game.changed", "version": version}
    if page := _answering.get():
        message["answered"] = page
    if seats_changed:
        message["seats"] = True
    _notify(code, message)
    table_changed.send(sender=Game, code=code, version=version, game=game)


def _notify(code: str, message: dict) -> None:
    """Send ``message`` to the table ``code``, after the notices queued before it."""
    layer = get_channel_layer()
    if layer is None:
        return
    loop = inline.serving_loop()
    if loop is not None:  # this is the loop's own thread: queued before the move ends
        _queue(loop, layer, code, message)
        return
    loop = _loop_here()
    if loop is not None:
        loop.call_soon_threadsafe(_queue, loop, layer, code, message)
        return
    try:
        async_to_sync(layer.group_send)(group_name(code), message)
    except ChannelFull:
        _lost(code, message)


def _loop_here() -> asyncio.AbstractEventLoop | None:
    """The event loop of this server process, if this is one: the loop of this thread
    (set aside, ``inline``), the one this sync thread works for, or the one serving
    the table sockets (for a computer player's timer thread)."""
    return inline.serving_loop() or _server_loop() or _running(_sockets_loop)


def new_page_id() -> str:
    """A page's name for itself: in its socket's address and its moves' headers."""
    return secrets.token_urlsafe(16)


def page_id(value: str | None) -> str:
    """``value`` if it is a page id as ``new_page_id`` makes them, else ''."""
    return value if value and _PAGE_ID.fullmatch(value) else ""


@contextlib.contextmanager
def answering(page: str) -> Iterator[None]:
    """Within: the notices of the moves made say that ``page`` (if any) has their table
    already, in the answer to its request."""
    token = _answering.set(page)
    try:
        yield
    finally:
        _answering.reset(token)


def sockets_served_here() -> None:
    """Remember the running loop as the one serving this process's table sockets (a
    socket calls this as it connects): a notice from a thread that is neither that
    loop's nor its sync thread, a computer player's timer, is handed to it."""
    global _sockets_loop
    _sockets_loop = asyncio.get_running_loop()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop this sync thread works for, if it is one."""
    if getattr(SyncToAsync.threadlocal, "main_event_loop_pid", None) != os.getpid():
        return None
    return _running(getattr(SyncToAsync.threadlocal, "main_event_loop", None))


def _running(loop: asyncio.AbstractEventLoop | None) -> asyncio.AbstractEventLoop | None:
    return loop if loop is not None and not loop.is_closed() and loop.is_running() else None


def _queue(
    loop: asyncio.AbstractEventLoop, layer: BaseChannelLayer, code: str, message: dict
) -> None:
    previous = _pending.get(code)
    # The in-memory layer's sockets are this loop's: their queues can be filled now. (Not
    # ``getattr``: the Redis layer's proxy looks for its loop, hidden on this thread.)
    if previous is None and isinstance(layer, ThrottledInMemoryChannelLayer):
        _send_now(layer.send_to_group, code, message)
        # what ``delivered`` waits for: the sockets it woke take their turns after this
        task = loop.create_future()
        loop.call_soon(task.set_result, None)
    else:
        task = loop.create_task(_send(layer, code, message, previous))
    _pending[code] = task
    task.add_done_callback(
        lambda done: _pending.pop(code, None) if _pending.get(code) is done else None
    )


async def _send(
    layer: BaseChannelLayer, code: str, message: dict, previous: asyncio.Future | None
) -> None:
    if previous is not None:
        await asyncio.wait([previous])
    try:
        # bounded: the game's next notices wait for this one
        await asyncio.wait_for(layer.group_send(group_name(code), message), SEND_TIMEOUT)
    except (ChannelFull, TimeoutError):
        _lost(code, message)
    except Exception:  # the move is committed; a lost notice must not go unseen
        log.exception("%s of game %s not sent", _what(message), code)


def _send_now(send: Callable[[str, dict], None], code: str, message: dict) -> None:
    try:
        send(group_name(code), message)
    except Exception:  # the move is committed; a lost notice must not go unseen
        log.exception("%s of game %s not sent", _what(message), code)


def _lost(code: str, message: dict) -> None:
    # The action is already committed; a browser that misses this update sees
    # the version gap on the next one and resynchronises.
    log.warning("channel full or stalled: %s of game %s not sent", _what(message), code)


def _what(message: dict) -> str:
    version = message.get("version")
    return "a presence notice" if version is None else f"update {version}"


async def delivered() -> None:
    """Wait until the updates of the moves made so far are on their way to the browsers
    of this process: their notices handed to the channel layer, the sockets they woke
    given their turn to send, and the loop's sockets polled once, so that what they
    sent is written out. Returns at once, without yielding, when none is pending.

    The request handler waits for this before a request's synchronous work, which
    holds the loop: otherwise a move's pushes wait behind the next requests that are
    ready, each a few milliseconds of work (at 100 moves a second the others' p99
    was 68-95 ms against 15-18 ms with the wait; docs/performance.md, round 7). A
    channel layer that does not answer (Redis stalled) holds no request up for more
    than ``STALLED_AFTER``: every page of the process would wait on it."""
    while _pending:
        _, stalled = await asyncio.wait(list(_pending.values()), timeout=STALLED_AFTER)
        if stalled:
            return
        # A socket woken by a notice sends in one step of its task; the second pass is
        # for sockets woken by a notice queued behind another.
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        # Twisted writes what a socket sends once the loop next polls: a timer, unlike
        # sleep(0), runs after that poll's callbacks. Meanwhile other requests may have
        # made moves: their notices are waited for too.
        await asyncio.sleep(_POLL)

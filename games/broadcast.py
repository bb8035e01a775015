"""Tells every browser at a table that the game changed: "game X is now at version V".

Called from ``transaction.on_commit``: a message is only sent for a change that
is in the database. Consumers answer it by rendering each viewer's partials.

The notice is sent with ``async_to_sync(layer.group_send)``. Under the server a
move runs in asgiref's sync thread (a request, or a computer player's step run by
``database_sync_to_async``), and the send runs on the server's event loop, where the
in-memory layer's queues live. Outside a server (management commands, sync tests)
it runs on an event loop of its own. A notice the layer refuses or does not take
within ``SEND_TIMEOUT`` is logged, never raised: the move is committed, and a
browser that missed an update heals on the next one.

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
import re
import secrets
from collections.abc import Iterator
from contextvars import ContextVar

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer
from django.dispatch import Signal

from games.models import Game

log = logging.getLogger(__name__)

SEND_TIMEOUT = 2.0  # seconds: a notice the channel layer has not taken by then is lost
# The page whose request is making the move, if its answer carries the table.
_answering: ContextVar[str] = ContextVar("answering", default="")
_PAGE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The event loop serving this process, once it has served a connection (``served_here``).
_server_loop: asyncio.AbstractEventLoop | None = None
_later: set[asyncio.Task] = set()  # delayed notices under way, kept from the collector

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
        elif (loop := server_loop()) is not None:
            loop.call_soon_threadsafe(loop.call_later, after + 0.5, _notify_later, code)


def _notify_later(code: str) -> None:
    """On the server's loop: send a presence notice to the table ``code``."""
    layer = get_channel_layer()
    if layer is not None:
        task = asyncio.get_running_loop().create_task(_send(layer, code, presence_notice()))
        _later.add(task)
        task.add_done_callback(_later.discard)


def game_changed(
    code: str, version: int, game: Game | None = None, seats_changed: bool = False
) -> None:
    """Notify the table, and this process's listeners (``table_changed``); ``game``, if
    given, is the game as the move committed it, for the listeners to read no further.
    ``seats_changed``: a seat changed hands, so each socket of a browser that holds
    seats looks again at which it holds."""
    message = {"type": "game.changed", "version": version}
    if page := _answering.get():
        message["answered"] = page
    if seats_changed:
        message["seats"] = True
    _notify(code, message)
    table_changed.send(sender=Game, code=code, version=version, game=game)


def reaction(code: str, name: str, key: str) -> None:
    """Tell the table ``code`` that the player ``name`` reacted (``reactions``)."""
    _notify(code, {"type": "table.reaction", "name": name, "reaction": key})


def _notify(code: str, message: dict) -> None:
    """Send ``message`` to the table ``code``, from synchronous code."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(_send)(layer, code, message)
    except Exception:  # the move is committed; a lost notice must not go unseen
        log.exception("%s of game %s not sent", _what(message), code)


async def _send(layer: BaseChannelLayer, code: str, message: dict) -> None:
    try:
        await asyncio.wait_for(layer.group_send(group_name(code), message), SEND_TIMEOUT)
    except (ChannelFull, TimeoutError):
        # The action is already committed; a browser that misses this update sees
        # the version gap on the next one and resynchronises.
        log.warning("channel full or stalled: %s of game %s not sent", _what(message), code)
    except Exception:  # the move is committed; a lost notice must not go unseen
        log.exception("%s of game %s not sent", _what(message), code)


def _what(message: dict) -> str:
    if message.get("type") == "table.reaction":
        return "a reaction"
    version = message.get("version")
    return "a presence notice" if version is None else f"update {version}"


def served_here() -> None:
    """Remember the running loop as the one serving this process (called as each
    connection comes in): delayed notices and computer players' steps are scheduled
    on it."""
    global _server_loop
    _server_loop = asyncio.get_running_loop()


def server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop serving this process, if it is running (a server's); else
    ``None`` (a management command, a test without a server)."""
    loop = _server_loop
    return loop if loop is not None and loop.is_running() else None


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

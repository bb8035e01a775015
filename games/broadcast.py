"""Sends every browser at a table the table as it now is: rendered once, the same bytes
for all (``games.rendering.published``), over the channel layer.

A move publishes from ``transaction.on_commit``: nobody is sent a change that rolled
back. Its table is rendered there, in the request (or the computer player's step)
that made it, from the state it committed, once per language in use at the table;
the mover's answer is the same bytes (``answer_of``). A change of who is at the table
(``presence_changed``) renders the same version again, from a fresh read: each
message says when its game was read, and a socket never sends an older reading than
the one it sent last. A socket forwards what the layer brings, and neither reads the
database nor renders (``games/consumers.py``).

Under the server a move runs in a sync thread (a request, or a computer player's step
run by ``database_sync_to_async``), and the message is sent on the server's event loop,
where the in-memory layer's queues live (``run_on_server_loop``). Outside a server
(management commands, sync tests) it is sent with ``async_to_sync``, on an event loop
of its own. A message the layer refuses or does not take within ``SEND_TIMEOUT`` is
logged, never raised: the move is committed, and a browser that missed an update
heals on the next one.

A move answered by htmx carries the table it made to the page that asked; that page's
own socket need not be sent it again. The page names itself (``X-Yatzy-Page``, a
random id, also the last part of its socket's address), the message says which page
was answered, and that page's socket only notes the version.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import logging
import re
import secrets
from collections.abc import Callable, Coroutine, Iterator
from contextvars import ContextVar
from typing import Any

from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer, get_channel_layer
from django.dispatch import Signal
from django.utils.translation import get_language

from games.bounded import Bounded
from games.models import Game, read_game
from games.rendering import Published, published

log = logging.getLogger(__name__)

SEND_TIMEOUT = 2.0  # seconds: a notice the channel layer has not taken by then is lost
# The page whose request is making the move, if its answer carries the table.
_answering: ContextVar[str] = ContextVar("answering", default="")
_PAGE_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
# The event loop serving this process, once it has served a connection (``served_here``).
_server_loop: asyncio.AbstractEventLoop | None = None
_later: set[asyncio.Task] = set()  # delayed notices under way, kept from the collector

# "Game ``code`` is at ``version``", for listeners in this process (the computer
# players, the live lists), sent with the notice; ``game`` is the game as the move
# committed it, or None; ``kind`` the move's (``GameEvent.Kind``), or "".
table_changed = Signal()
# "Who is in the lobby of game ``code`` changed" (a page came or went, a player is
# away now), for listeners in this process (the open tables' list)
lobby_presence = Signal()


def group_name(code: str) -> str:
    return f"game.{code}"


def presence_changed(codes: list[str], after: float = 0.0) -> None:
    """Tell the browsers at these tables, in every server process, that who is at them
    changed; or will have ``after`` seconds from now, when a player who has no socket
    open becomes away: half a second later than that, so that the seat is away by
    the clock of whoever renders it (only from a server, whose loop keeps the time: a
    command has no loop to wait on)."""
    for code in codes:
        if not after:
            publish_presence(code)
        elif (loop := server_loop()) is not None:
            # in a context of its own: not the calling thread's, whose asgiref markers
            # would make the later thread hop look nested in this one
            later = functools.partial(
                loop.call_later, after + 0.5, _notify_later, code, context=contextvars.Context()
            )
            loop.call_soon_threadsafe(later)


def _notify_later(code: str) -> None:
    """On the server's loop: publish the table ``code`` as it is now, from a thread."""
    task = asyncio.get_running_loop().create_task(database_sync_to_async(publish_presence)(code))
    _later.add(task)
    task.add_done_callback(_later.discard)


def publish_presence(code: str) -> None:
    """Read the game ``code`` and publish its table as it is now: who is at it changed,
    not its version (a lobby's pages are told to look again)."""
    game = read_game(code=code)
    if game is None:
        return
    if game.status == Game.Status.LOBBY:
        lobby_changed(code)
    elif game.table_languages:  # else no page has a socket open to be sent it
        publish(game)


def lobby_changed(code: str) -> None:
    """Tell the lobby's pages that who is in it changed: each renders its own (a lobby
    has a handful of pages, and what each shows depends on who looks)."""
    _notify(code, {"type": "lobby.changed"})
    lobby_presence.send(sender=Game, code=code)


def publish(game: Game) -> Published:
    """Publish the table of ``game`` as it was read, in the languages of its pages."""
    table = published(game, game.table_languages)
    _publish(game, table, {})
    return table


def game_changed(
    code: str, version: int, game: Game, seats_changed: bool = False, kind: str = ""
) -> None:
    """Publish the table ``game`` (as its move committed it) is at, ``version``, and tell
    this process's listeners (``table_changed``). ``seats_changed``: a seat changed
    hands, so each socket of a browser that holds seats looks again at which it holds.
    The table published is kept on ``game`` for the answer to the move
    (``answer_of``)."""
    extra: dict = {}
    if page := _answering.get():
        extra["answered"] = page
    if seats_changed:
        extra["seats"] = True
    if game.status == Game.Status.LOBBY:
        _notify(code, {"type": "lobby.changed", "version": version, **extra})
    else:
        # the pages' languages, and the mover's for its answer (a page that moves has
        # its socket's language among them, unless it came before the socket did)
        languages = [*game.table_languages, *([get_language()] if page else [])]
        if languages:  # else no page has a socket, nor asked for the table back
            game.__dict__["published"] = table = published(game, languages)
            _publish(game, table, extra)
    table_changed.send(sender=Game, code=code, version=version, game=game, kind=kind)


def answer_of(game: Game) -> str | None:
    """The table the move that left ``game`` as it is published, in the active language,
    for the move's answer: the bytes every browser at the table was sent."""
    table: Published | None = game.__dict__.get("published")
    return None if table is None else table.tables.get(get_language())


def _publish(game: Game, table: Published, extra: dict) -> None:
    LATEST.keep(game.code, table)
    message = {
        "type": "table.update",
        "version": table.version,
        "read": table.read,
        "tables": table.tables,
        **extra,
    }
    _notify(game.code, message)


class Latest:
    """The last table of each game this process published or was sent, for a socket
    arriving at the table: a spectator is sent it as it is, without a rendering of its
    own (when thousands come back to a table at once, as after a server restart, each
    would otherwise render it). Written from request threads and the event loop:
    ``Bounded`` locks its writes, and an entry is replaced whole, never changed."""

    def __init__(self, size: int = 1024) -> None:
        self._tables: Bounded[str, Published] = Bounded(size)

    def keep(self, code: str, table: Published) -> None:
        kept = self._tables.get(code)  # (every socket at a table keeps each table it is sent)
        if kept is None or (kept.version, kept.read) < (table.version, table.read):
            self._tables[code] = table

    def get(self, code: str, version: int, language: str) -> str | None:
        """The table of ``code`` at ``version`` in ``language``, if this process has it."""
        kept = self._tables.get(code)
        if kept is None or kept.version != version:
            return None
        return kept.tables.get(language)


LATEST = Latest()


def reaction(code: str, name: str, key: str) -> None:
    """Tell the table ``code`` that the player ``name`` reacted (``reactions``)."""
    _notify(code, {"type": "table.reaction", "name": name, "reaction": key})


def _notify(code: str, message: dict) -> None:
    """Send ``message`` to the table ``code``, from synchronous code."""
    send_to_group(group_name(code), message, f"{_what(message)} of game {code}")


def send_to_group(group: str, message: dict, what: str) -> None:
    """Send ``message`` to the channel layer's ``group`` in every server process, from
    synchronous code (after a commit: what it says has happened). A layer that refuses
    it or does not take it in time is logged, never raised; ``what`` names it there."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        run_on_server_loop(_send, layer, group, message, what)
    except TimeoutError:  # the server is stopping, or its loop is stalled
        log.warning("server loop gone or stalled: %s not sent", what)
    except Exception:  # the change is committed; a lost notice must not go unseen
        log.exception("%s not sent", what)


def run_on_server_loop(
    work: Callable[..., Coroutine[Any, Any, None]], *args: Any, timeout: float = SEND_TIMEOUT + 1
) -> None:
    """Run ``work(*args)`` from synchronous code and wait for it: on the server's loop
    when called from another thread of a server, at most ``timeout`` seconds, and not
    at all once that loop has stopped (``TimeoutError`` for both); elsewhere (no server
    loop, or one a test has closed) with ``async_to_sync``.

    Not ``async_to_sync`` under the server: it waits for the loop without a bound, and
    a loop that has stopped (the server stops as a socket's goodbye or a request is
    still sending) then holds the thread for ever, and with it the process's exit, as
    Python waits for its threads: the server took 10 s to stop, and was killed."""
    loop = _server_loop
    if loop is None or loop.is_closed() or _on_loop(loop):
        async_to_sync(work)(*args)
        return
    if not loop.is_running():
        raise TimeoutError("the server's event loop has stopped: the server is stopping")
    future = asyncio.run_coroutine_threadsafe(work(*args), loop)
    try:
        future.result(timeout)
    except TimeoutError:
        future.cancel()
        raise


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


async def _send(layer: BaseChannelLayer, group: str, message: dict, what: str) -> None:
    try:
        await asyncio.wait_for(layer.group_send(group, message), SEND_TIMEOUT)
    except (ChannelFull, TimeoutError):
        # The action is already committed; a browser that misses this update sees
        # the version gap on the next one and resynchronises.
        log.warning("channel full or stalled: %s not sent", what)
    except Exception:  # the change is committed; a lost notice must not go unseen
        log.exception("%s not sent", what)


def _what(message: dict) -> str:
    if message.get("type") == "table.reaction":
        return "a reaction"
    version = message.get("version")
    return "a lobby notice" if version is None else f"update {version}"


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

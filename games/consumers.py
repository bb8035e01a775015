"""The table's WebSocket: server-to-browser updates only.

Its life, top to bottom: it connects (joins its table's group, is counted at the
table, and is sent the table as it is), forwards what the channel layer brings (a
move's table, the same bytes for every browser at the table, in its page's language:
it neither reads the database nor renders for it), says who is at the table as it
comes and goes (presence), and closes. Moves never travel over the socket: they are
HTTP POSTs with CSRF and the seat check. The lobby's few pages are each sent their
own lobby, read and rendered per page, as who is in it changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math

from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils import translation
from redis.exceptions import RedisError

from games import bots, broadcast, limits, metrics, presence, readers, seating
from games.broadcast import group_name
from games.models import Game, read_game
from games.reactions import REACTIONS
from games.rendering import (
    handed_over_offer,
    me_marker,
    render_lobby,
    render_table,
    to_the_table,
)
from games.tableview import handed_over, me
from games.viewer import peek_viewer

CLOSE_UNKNOWN_GAME = 4404
CLOSE_NO_MESSAGES = 4400
# Over the limit of sockets connecting from one browser or address (games/limits.py):
# the page says so and does not try again by itself (static/js/table.js).
CLOSE_TOO_MANY = 4429
# The channel layer cannot be reached (Redis is down): the page tries again later. Not
# the standard 1013, which autobahn lets no application send (1000 or 3000-4999 only).
CLOSE_TRY_AGAIN_LATER = 4503
TOO_MANY = "too many"  # ``_arrive``'s answer when the browser has too many sockets open

logger = logging.getLogger(__name__)


class TableConsumer(AsyncWebsocketConsumer):
    seats: list[int]
    game_id = 0  # the table's game, once this socket has arrived at it (ids start at 1)
    sent: tuple[int, float] = (-1, 0.0)  # the version and reading of the last table sent
    sent_hash = 0  # of the last table sent (a socket keeps no copy of it)
    redirected = False  # a lobby page sent where its game went
    page = ""  # the table page's id (none for the lobby page, or if not one the site made)
    lobby_page = False  # the lobby page's socket names no page: it is sent only the lobby
    offered: tuple[tuple[int, str], ...] = ()  # the seats this page is offered to take back
    browser: str | None = None  # whose open sockets this one is counted among, once it is
    closing = False  # closed by the server: nothing more is sent
    reading_check: asyncio.TimerHandle | None = None  # when its page must have read more
    accepted = False

    async def connect(self) -> None:
        self.code = self.scope["url_route"]["kwargs"]["code"]
        self.language = language_of(self.scope)
        named = self.scope["url_route"]["kwargs"].get("page")
        self.page = broadcast.page_id(named)
        kind = kind_of(self.scope)
        self.lobby_page = kind == "lobby"
        self.pushed = metrics.PUSHED[kind]
        self.unread = readers.Unread(
            settings.YATZY_SOCKET_UNREAD_KB * 1024, settings.YATZY_SOCKET_READ_TIMEOUT_S
        )
        # The handshake is answered at once, before any database work: when many
        # browsers come back together it must not time out waiting for the thread.
        await self.accept()
        self.accepted = True
        if await closed_for_limits(self):
            return
        # Join before reading the game: a move committed after that read is
        # announced to this socket, one committed before it is in what it is sent.
        await self.channel_layer.group_add(group_name(self.code), self.channel_name)
        arrival = await database_sync_to_async(self._arrive)()
        if arrival is None or isinstance(arrival, str):
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
            if arrival is None:
                await self.close(code=CLOSE_UNKNOWN_GAME, reason="unknown game")
            else:
                await self._close(readers.CLOSE_TOO_MANY_SOCKETS, "too many sockets")
            return
        html, away_in = arrival
        await self.send(text_data=html)
        if away_in is not None:  # a player gone before this socket came (or the server)
            tell_when_away(self.code, away_in)
        if not self.seats:
            presence.SPECTATORS.change(self.game_id, self.code, +1)

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None:
        """As Channels' send, except to a socket the browser closed while its message
        was on the way (as a page goes on to the next game): daphne refuses the send
        (autobahn's ``Disconnected``), and the message is dropped. The close itself is
        the next message this consumer handles, and ends it. A message that would take
        the socket's unread data past its limit closes the socket instead
        (``games/readers.py``), and once closed nothing more is sent."""
        if self.closing:
            return
        size = 0 if text_data is None else readers.size_of(text_data)
        if not self.unread.fits(size):
            await self._close(readers.CLOSE_SLOW_READER, "did not read its messages")
            return
        try:
            await super().send(text_data=text_data, bytes_data=bytes_data, close=close)
        except Disconnected:
            logger.debug("a socket of table %s closed before a message to it was sent", self.code)
        else:
            if text_data is not None or bytes_data is not None:
                self.pushed.inc()
            if text_data is not None:
                self._sent(size)

    def _sent(self, size: int) -> None:
        """Count a message as unread until the page says it handled it, and watch for
        the time by which it must have: one timer at a time, which the page's answers
        do not cancel (at every move a timer made and cancelled again, for each
        socket); when it comes, it looks again at what is unread then."""
        loop = asyncio.get_running_loop()
        self.unread.add(size, loop.time())
        if self.reading_check is None:
            self.reading_check = loop.call_at(self.unread.due() or 0.0, self._check_reading)

    def _check_reading(self) -> None:
        """On the loop, when the oldest unread message may have waited too long: close
        the socket if it has, else look again when the next one will have."""
        loop = asyncio.get_running_loop()
        self.reading_check = None
        due = self.unread.due()
        if due is None:
            return
        if due > loop.time():
            self.reading_check = loop.call_at(due, self._check_reading)
            return
        task = loop.create_task(self._close(readers.CLOSE_SLOW_READER, "did not read in time"))
        _closing.add(task)
        task.add_done_callback(_closing.discard)

    async def _close(self, code: int, reason: str) -> None:
        """Close the socket on the server's own account, once, and count why."""
        if self.closing:
            return
        self.closing = True
        metrics.SOCKETS_CLOSED[code].inc()
        await self.close(code=code, reason=reason)

    async def disconnect(self, code: int) -> None:
        if not self.game_id:
            return
        with contextlib.suppress(Exception):  # a layer that is down has forgotten it anyway
            await self.channel_layer.group_discard(group_name(self.code), self.channel_name)
        if self.seats:
            await database_sync_to_async(self._leave)()
            tell_when_away(self.code, seating.AWAY_BEFORE_SKIP.total_seconds())
        else:
            presence.SPECTATORS.change(self.game_id, self.code, -1)

    def ended(self) -> None:
        """However the socket ended: what it held is given back."""
        if self.browser is not None:
            readers.OPEN.give_back(self.browser)
        if self.reading_check is not None:
            self.reading_check.cancel()

    def _leave(self) -> None:
        """This page's players are one socket fewer at the table: everyone's presence
        list changes (or will, once the last has gone for long enough)."""
        presence.leave(self.seats)
        _published_quietly(self.code)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page says how many messages it has handled (``games/readers.py``); it
        sends nothing else: moves are HTTP POSTs."""
        count = readers.parse_ack(text_data)
        if count is None:
            await self.close(code=CLOSE_NO_MESSAGES, reason="moves are sent over HTTP")
            return
        self.unread.read(count)

    async def table_update(self, event: dict) -> None:
        """Forward the table a move (or a change of who is at the table) published, in
        this page's language. Never an older table than the last sent, nor the same
        bytes again, nor the table of this page's own move, which the answer to its
        request carried. A lobby page is sent where to go instead (its game started), once."""
        if self.lobby_page:
            if not self.redirected:
                self.redirected = True
                if html := await database_sync_to_async(self._lobby)():
                    await self.send(text_data=html)
            return
        if event.get("seats") and self.viewer.tokens:
            await self._seats_changed()
        tables = event["tables"]
        broadcast.LATEST.keep(
            self.code, broadcast.Published(event["version"], event["read"], tables)
        )
        stamp = (event["version"], event["read"])
        html = tables.get(self.language)
        if html is None:  # this page's language was added as the table was rendered
            html = next(iter(tables.values()))
        if stamp <= self.sent or hash(html) == self.sent_hash:
            return
        self.sent = stamp
        self.sent_hash = hash(html)
        if event.get("answered") != self.page:  # never "" when set
            await self.send(text_data=html)

    async def lobby_changed(self, event: dict) -> None:
        """Who is in the lobby changed: this page is sent the lobby as its viewer sees it
        (the host's page may remove seats, a friend's names theirs)."""
        html = await database_sync_to_async(self._lobby)()
        if html:
            await self.send(text_data=html)

    def _lobby(self) -> str:
        """The lobby as this page's viewer sees it; once its game has started, where a
        lobby page is to go (a table page has no place for either)."""
        game = read_game(id=self.game_id)
        if game is None:
            return ""
        with translation.override(self.language):
            if game.status == Game.Status.LOBBY:
                return render_lobby(game, self.viewer)
            return to_the_table(game) if self.lobby_page else ""

    async def table_reaction(self, event: dict) -> None:
        """A player's quick reaction (``games.reactions``), said in this page's
        language; the page shows it for a moment (reactions.js). Not to a lobby."""
        words = REACTIONS.get(event.get("reaction", ""))
        if words is None or self.lobby_page:
            return
        with translation.override(self.language):
            html = render_to_string(
                "games/table.html#reaction", {"name": event.get("name", ""), "words": words}
            )
        await self.send(text_data=html)

    def _arrive(self) -> tuple[str, float | None] | str | None:
        """Count this socket at its table; what it is to be sent first, and in how many
        seconds a player who has no socket open may be skipped. A player's arrival
        changes everyone's presence list: the table is published again, and this page
        is sent its part of it. None for an unknown game; ``TOO_MANY`` when the browser
        has as many sockets open as it may."""
        # The session loads lazily from the database, so it is read here too.
        self.viewer = peek_viewer(self.scope.get("session") or {})
        browser = readers.browser_of(self.viewer.browser_id, self.scope)
        if browser is not None:
            if not readers.OPEN.take(browser, settings.YATZY_SOCKETS_PER_BROWSER):
                return TOO_MANY
            self.browser = browser
        game = read_game(code=self.code)
        if game is not None and self.language not in game.table_languages:
            game = add_language(self.code, self.language)
        if game is None:
            return None
        self.game_id = game.id
        self.seats = presence.arrive(game, self.viewer)
        bots.nudge(game)
        with translation.override(self.language):
            html = self._first_table(game)
            if not self.lobby_page and self.viewer.tokens and game.status != Game.Status.LOBBY:
                html = self._new_offer(game) + html  # a player's, after a handover?
        return html, seating.seconds_until_away(game)

    def _first_table(self, game: Game) -> str:
        """What this page is sent as its socket arrives, in the active language."""
        if game.status == Game.Status.LOBBY:
            if self.seats:  # a player came: the others' lobbies say so
                broadcast.lobby_changed(self.code)
            return render_lobby(game, self.viewer)
        if self.lobby_page:
            self.redirected = True
            return to_the_table(game)
        if self.seats:
            table = broadcast.publish(game)
            html, self.sent = table.tables[self.language], (table.version, table.read)
        else:  # a spectator changes nobody's table: sent the last one, if it is here
            kept = broadcast.LATEST.get(self.code, game.version, self.language)
            html, self.sent = kept or render_table(game), (game.version, game.read_at)
        self.sent_hash = hash(html)
        return html

    def _new_offer(self, game: Game) -> str:
        """The take-back offer ``game`` makes this page and the players it plays now
        (``#me``), if the offer differs from the one the page was last sent (none on
        arrival); else ''."""
        offered = handed_over(game, self.viewer)
        if offered == self.offered:
            return ""
        self.offered = offered
        return handed_over_offer(self.code, offered) + me_marker(me(game, self.viewer))

    async def _seats_changed(self) -> None:
        """A seat at the table changed hands (the host gave it to the computer, its
        player took it back): this page shows what it may take back now, and plays
        what it plays now, in every tab of the player's browser, not only the one that
        acted. Its socket is counted at the seats its browser has now, as if it had
        just come (the seat a player was handed from stays theirs:
        ``seating.players_seats``)."""
        held = self.seats
        offer = await database_sync_to_async(self._reseat)()
        if bool(held) != bool(self.seats):
            presence.SPECTATORS.change(self.game_id, self.code, -1 if self.seats else +1)
        if offer:
            await self.send(text_data=offer)

    def _reseat(self) -> str:
        game = read_game(id=self.game_id)
        if game is None:
            return ""
        mine = [seat.id for seat in seating.players_seats(game, self.viewer)]
        if mine != self.seats:
            if self.seats:
                presence.leave(self.seats)
            self.seats = presence.arrive(game, self.viewer) if mine else []
            _published_quietly(self.code)
        with translation.override(self.language):
            return self._new_offer(game)


async def table_socket(scope: dict, receive, send) -> None:
    """The table's socket, as the router runs it: a ``TableConsumer`` for the
    connection (as ``as_asgi`` would make it), counted on /metrics from its handshake
    to its end, however it ends (a close, a lost connection, an error).

    When the channel layer loses Redis the socket would hear of no move: its page is
    told to try again later (4503), and does, until Redis is back. Its seats are left
    as by any socket that ends, though Channels calls no ``disconnect`` for it."""
    kind = kind_of(scope)
    consumer = TableConsumer()
    metrics.SOCKETS_OPEN[kind].inc()
    try:
        await consumer(scope, receive, send)
    except RedisError:
        logger.warning("a socket of a table lost the channel layer", exc_info=True)
        if not consumer.accepted:
            await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN_LATER})
        await consumer.disconnect(CLOSE_TRY_AGAIN_LATER)
    finally:
        metrics.SOCKETS_OPEN[kind].dec()
        consumer.ended()


def kind_of(scope: dict) -> str:
    """A lobby page's socket (it names no page) or a table page's: "lobby" or "table"."""
    return "lobby" if scope["url_route"]["kwargs"].get("page") is None else "table"


def add_language(code: str, language: str) -> Game | None:
    """Add ``language`` to the languages the table ``code`` is rendered in, and read the
    game again. Its row is locked as a move locks it: a move committed before is in
    the game read, and one after is rendered in ``language`` too."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(code=code).first()
        if game is not None and language not in game.table_languages:
            languages = " ".join([*game.table_languages, language])
            Game.objects.filter(id=game.id).update(languages=languages)
        return read_game(code=code)


def _published_quietly(code: str) -> None:
    """Publish the table ``code`` as it is now (who is at it changed); a layer or
    database that fails is logged, not raised: the next change heals the table."""
    try:
        broadcast.publish_presence(code)
    except Exception:
        logger.warning("the table of game %s was not published again", code, exc_info=True)


_told_later: set[asyncio.Task] = set()  # presence notices under way, kept from the collector
_closing: set[asyncio.Task] = set()  # slow readers' closes under way, kept likewise
_due: set[tuple[str, int]] = set()  # (table, second of the loop's clock) of notices to come


def tell_when_away(code: str, seconds: float) -> None:
    """Publish the table ``code`` again once ``seconds`` have passed, when a player who
    has no socket open becomes away. The host's table then changes with time alone (it
    offers to skip them), and no move or arrival would tell it. At least half a second
    later than that, so that the seat is away by the clock of whoever renders it: at
    the next whole second of the loop's clock, where one publication serves every
    socket that asks for it (a table's sockets close together, as a server stops or a
    network fails)."""
    loop = asyncio.get_running_loop()
    due = (code, math.ceil(loop.time() + seconds + 0.5))
    if due not in _due:
        _due.add(due)
        loop.call_at(due[1], _tell, due)


def _tell(due: tuple[str, int]) -> None:
    _due.discard(due)
    task = asyncio.get_running_loop().create_task(
        database_sync_to_async(_published_quietly)(due[0])
    )
    _told_later.add(task)
    task.add_done_callback(_told_later.discard)


async def closed_for_limits(consumer: AsyncWebsocketConsumer) -> bool:
    """Whether the socket of ``consumer`` (accepted) is over the limits of sockets; if it
    is, it is closed with ``CLOSE_TOO_MANY``, and the page tries no more."""
    limited = settings.YATZY_LIMITS
    if limited and await sync_to_async(socket_refusal, thread_sensitive=False)(consumer.scope):
        await consumer.close(code=CLOSE_TOO_MANY, reason="too many connections")
        return True
    return False


def socket_refusal(scope: dict) -> limits.Refusal | None:
    """Count a socket connecting against the limits of its browser (its session cookie)
    and address. Off the event loop: the counts may be in Redis."""
    client = scope.get("client") or ("", 0)
    browser = scope.get("cookies", {}).get(settings.SESSION_COOKIE_NAME)
    return limits.check("socket", browser, client[0])


def language_of(scope: dict) -> str:
    """The language the browser's pages are in (its language cookie, else what it
    accepts), for the tables pushed to it."""
    headers = dict(scope.get("headers", []))
    request = HttpRequest()
    request.COOKIES = scope.get("cookies", {})
    request.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
    return translation.get_language_from_request(request)

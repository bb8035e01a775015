"""Who is at the table: open sockets per seat and spectators, counted in the database
so that every server process sees the same numbers.

A seat's sockets are counted as they come and go. Spectators are counted in batches
(``SPECTATORS``): when thousands of browsers come back to a table at once, their
comings and goings are one write a tenth of a second per table, not one each
queueing on the sync thread behind the players' moves.

A server that dies leaves its sockets counted. Alone (the embedded default), it
forgets every count as it starts again (``forget_all_sockets``). One of several, each
named (``YATZY_PROCESS``), books its sockets under its name as it counts them, and its
successor under that name takes off just those (``forget_process``).
"""

from __future__ import annotations

import asyncio
import logging
from contextlib import nullcontext
from typing import NamedTuple

from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Case, F, Value, When
from django.db.models.functions import Greatest
from django.utils import timezone

from games.channel_layer import LocalChannelLayer
from games.models import CountedSockets, Game, Seat
from games.seating import is_away, players_seats
from games.viewer import Viewer

log = logging.getLogger(__name__)


def arrive(game: Game, viewer: Viewer) -> list[int]:
    """Count a new socket of ``viewer`` at its seats (``players_seats``) and return
    their ids; none for a spectator, counted by ``SPECTATORS``. The seats of ``game``
    (best read with it) are counted too, as the arrival sees them."""
    mine = players_seats(game, viewer)
    if mine:
        seats = [seat.id for seat in mine]
        with _booking():
            Seat.objects.filter(id__in=seats).update(
                connections=F("connections") + 1, away_since=None
            )
            _book("seat", seats, +1)
        for seat in mine:
            seat.connections += 1
            seat.away_since = None
        return seats
    return []


class Seen(NamedTuple):
    """What a browser's request for its table changed (``seen``)."""

    counted: bool  # its players are at the table from now, their away time started again
    back: bool  # and one of them was away until now


def seen(game: Game, viewer: Viewer) -> Seen:
    """``viewer``'s browser asked for the table of ``game``, running: its players are at
    the table now, even with no socket open (a page without JavaScript has none, and
    learns of the moves by loading the table again), and away once it has asked for
    nothing for ``AWAY_BEFORE_SKIP``, as after a move. The others' tables change as a
    player comes back, and as they are away again."""
    if game.status != Game.Status.PLAYING or not viewer.tokens:
        return Seen(False, False)
    quiet = [seat for seat in players_seats(game, viewer) if seat.connections == 0]
    if not quiet:
        return Seen(False, False)
    back = any(is_away(seat) for seat in quiet)
    here_now(quiet)
    return Seen(True, back)


def here_now(seats: list[Seat]) -> None:
    """The players of ``seats``, with no socket open, are at the table now (their
    browser asked for it, or moved): away from now only. Not where a socket has come
    since the seats were read: its arrival says it is there for good."""
    now = timezone.now()
    Seat.objects.filter(id__in=[seat.id for seat in seats], connections=0).update(away_since=now)
    for seat in seats:
        seat.away_since = now


def leave(seats: list[int]) -> None:
    with _booking():
        _count_down(seats, 1)
        _book("seat", seats, -1)


def _count_down(seats: list[int], sockets: int) -> None:
    """Take ``sockets`` off each seat's count; a seat left with none is away from now.
    One statement: its SET reads the row as it was."""
    Seat.objects.filter(id__in=seats).update(
        connections=Greatest(F("connections") - sockets, 0),
        away_since=Case(
            When(connections__lte=sockets, then=Value(timezone.now())), default=F("away_since")
        ),
    )


def counted_here_alone() -> bool:
    """Whether this process's sockets are all the sockets counted: its channel layer is
    one in memory, which no other process could share."""
    return isinstance(get_channel_layer(), (LocalChannelLayer, InMemoryChannelLayer))


def forget_all_sockets() -> tuple[int, int]:
    """Count no socket anywhere: for a server that serves the site alone, as it starts
    after stopping without its sockets' goodbyes (killed, crashed, the machine lost).
    Its counts would otherwise stay up for good, and a player who never came back
    could never be skipped. The seats that were counted connected are away from now,
    so that their players have the usual time to come back. What named processes
    booked goes too: taken off again later, by a process of that name as it starts,
    it would count down sockets that other processes have counted since. Returns how
    many seats and games it changed."""
    with transaction.atomic():
        seats = Seat.objects.filter(connections__gt=0).update(
            connections=0, away_since=timezone.now()
        )
        games = Game.objects.filter(spectators__gt=0).update(spectators=0)
        CountedSockets.objects.all().delete()
    return seats, games


def forget_process(process: str) -> tuple[list[str], int]:
    """Take off the counts the server process named ``process`` booked (see
    ``CountedSockets``): for its successor under that name as it starts, or for a
    process that will not come back. Only for a process that has stopped: a live one
    would go on counting its sockets down. Seats left with no socket are away from now.
    Returns the codes of the games whose tables changed, and how many sockets it took
    off.

    A game at a time, its row locked first as a move locks it, then its seats: the
    other processes go on counting at the same tables meanwhile, and one transaction
    holding every table's rows could deadlock with theirs. Only the bookings read are
    deleted: one committed since (by a predecessor's last commit, landing late) is left
    for the next start under the name, not deleted uncounted."""
    codes: set[str] = set()
    taken = 0
    tables: dict[int, list[int]] = {}  # game id: its bookings' ids
    rows = CountedSockets.objects.filter(process=process)
    for booking, seat_game, game in rows.values_list("id", "seat__game_id", "game_id"):
        tables.setdefault(seat_game or game, []).append(booking)
    for game_id, bookings in sorted(tables.items()):
        with transaction.atomic():
            table = Game.objects.select_for_update().filter(id=game_id)
            code = table.values_list("code", flat=True).first()
            if code is None:  # the game is gone, and its bookings with it
                continue
            booked = CountedSockets.objects.filter(id__in=bookings)
            for row in booked.select_for_update().filter(sockets__gt=0).order_by("seat_id"):
                if row.seat_id is not None:
                    _count_down([row.seat_id], row.sockets)
                else:
                    table.update(spectators=Greatest(F("spectators") - row.sockets, 0))
                codes.add(code)
                taken += row.sockets
            booked.delete()
    return sorted(codes), taken


def _booking():
    """Where this process books its sockets, a count and its booking commit together:
    a process killed between them would otherwise leave them apart for good."""
    return transaction.atomic() if settings.YATZY_PROCESS else nullcontext()


def _book(to: str, ids: list[int], delta: int) -> None:
    """Book ``delta`` sockets of this process at each seat or game (``to``) of ``ids``
    that is still there (the host may have just removed a seat with a socket open):
    one statement, an insert that adds to the row where there is one. Rows that come
    down to zero stay until the process next starts under its name, which deletes
    them all (``forget_process``): deleting them here would cost a statement more
    per socket that closes."""
    process = settings.YATZY_PROCESS
    if not process or not delta:
        return
    quote = connection.ops.quote_name
    table = quote(CountedSockets._meta.db_table)
    counted = quote((Seat if to == "seat" else Game)._meta.db_table)
    column = f"{to}_id"
    with connection.cursor() as cursor:
        cursor.execute(
            # the names are the models' own; every value is a parameter
            f"INSERT INTO {table} (process, {column}, sockets)"
            f" SELECT %s, id, %s FROM {counted} WHERE id IN ({', '.join(['%s'] * len(ids))})"
            f" ON CONFLICT (process, {column})"
            f" DO UPDATE SET sockets = {table}.sockets + excluded.sockets",
            [process, delta, *ids],
        )


class Spectators:
    """Spectators' arrivals and departures in this process, written together.

    ``change`` is called on the event loop; a write follows within ``interval``.
    Until then ``pending`` tells what the database does not show yet."""

    interval = 0.1  # seconds
    retry = 2.0  # seconds: after the database refused a write

    def __init__(self) -> None:
        self._pending: dict[tuple[int, str], int] = {}  # (game id, code): change
        self._writer: asyncio.Task | None = None

    def pending(self, game: Game) -> int:
        return self._pending.get((game.id, game.code), 0)

    def change(self, game_id: int, code: str, delta: int) -> None:
        key = (game_id, code)
        self._pending[key] = self._pending.get(key, 0) + delta
        loop = asyncio.get_running_loop()
        if self._writer is None or self._writer.done() or self._writer.get_loop() is not loop:
            self._writer = loop.create_task(self._write_soon())

    async def _write_soon(self) -> None:
        wait = self.interval
        while self._pending:
            await asyncio.sleep(wait)
            changes, self._pending = self._pending, {}
            unwritten = await database_sync_to_async(write_spectators)(changes)
            for key, delta in unwritten.items():  # tried again, with what came since
                self._pending[key] = self._pending.get(key, 0) + delta
            wait = self.retry if unwritten else self.interval


def write_spectators(changes: dict[tuple[int, str], int]) -> dict[tuple[int, str], int]:
    """Write the spectators' changes; returns those the database refused (it is away,
    or ended a transaction), to be tried again: lost, a count would stay wrong."""
    unwritten = {}
    for (game_id, code), delta in changes.items():
        # a game at a time: another process's batch may lock the same games in another
        # order, and a batch holding them all could deadlock with it
        try:
            with _booking():
                if delta and Game.objects.filter(id=game_id, code=code).update(
                    spectators=Greatest(F("spectators") + delta, 0)
                ):
                    _book("game", [game_id], delta)
        except DatabaseError:
            log.warning("spectators of game %s not written, to be tried again", code, exc_info=True)
            unwritten[game_id, code] = delta
    return unwritten


SPECTATORS = Spectators()

"""Seat and turn policy, pure: whose seats a browser holds, who may act, who is away,
who may skip the player to move. It reads the seats it is given and writes nothing,
so the actions, the presence counts and the rendering all ask it the same questions.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.utils import timezone

from games.models import Game, Seat
from games.viewer import Viewer

# How long the player to move may be gone before the host may skip their turn.
AWAY_BEFORE_SKIP = timedelta(seconds=settings.YATZY_AWAY_BEFORE_SKIP)


def seat_of(game: Game, player_index: int) -> Seat:
    """The seat playing ``player_index``, from the seats already read if they were."""
    for seat in game.all_seats():
        if seat.player_index == player_index:
            return seat
    raise Seat.DoesNotExist(f"no seat plays player {player_index}")


def host_seats(game: Game, seats: Iterable[Seat] | None = None) -> list[Seat]:
    """The seats of the players at the host's own screen, of ``seats`` if given (read
    already), else of the game's."""
    return [
        s
        for s in (game.all_seats() if seats is None else seats)
        if s.kind == Seat.Kind.LOCAL and s.browser_id == game.host_browser
    ]


def browsers_seat(seats: Iterable[Seat], viewer: Viewer) -> Seat | None:
    """The seat of ``seats`` that ``viewer``'s browser has already: one its session
    holds, or one taken by the browser whose session does not hold it yet (Join
    pressed twice at once: the second press, under the table's lock after the first,
    finds the first one's seat by the browser)."""
    return next(
        (
            s
            for s in seats
            if s.token in viewer.tokens or (viewer.browser_id and s.browser_id == viewer.browser_id)
        ),
        None,
    )


def player_tokens(game: Game) -> frozenset[str]:
    """The tokens of the game's players: of a seat the computer played for a player
    who went away, the player's (``handed_from``). At the end, these may ask for the
    next game: the computer finished this one for them, the next is theirs."""
    return frozenset(seat.player_token for seat in game.all_seats())


def players_of(game: Game, viewer: Viewer) -> set[int]:
    """The players (engine indexes) ``viewer`` may act for."""
    return {
        seat.player_index
        for seat in game.all_seats()
        if seat.token in viewer.tokens and seat.player_index is not None
    }


def players_seats(game: Game, viewer: Viewer) -> list[Seat]:
    """The seats of ``game`` at which ``viewer``'s sockets are counted: those it holds,
    and those the computer plays for it while it is away (``Seat.handed_from``). A
    player whose seat was handed over is still a player of the table, theirs to take
    back and to play again at the end, not one of its spectators."""
    return [seat for seat in game.all_seats() if seat.player_token in viewer.tokens]


def handed_from(game: Game, viewer: Viewer) -> list[Seat]:
    """The seats of ``game`` handed to a computer player from ``viewer``'s seats (only a
    computer's seat has ``handed_from``: taking it back clears it)."""
    return [s for s in game.all_seats() if s.handed_from and s.handed_from in viewer.tokens]


def handed_over(game: Game, viewer: Viewer) -> list[Seat]:
    """The seats of ``game`` a computer plays that ``viewer`` may take back (while it is
    played: at the end, the next game gives them back, ``play_again``)."""
    return handed_from(game, viewer) if game.status == Game.Status.PLAYING else []


def away_from(seat: Seat) -> datetime | None:
    """When the player of ``seat`` (a friend's, or one at the host's screen) is, or
    will be, away: long enough without a socket open that their turn may be skipped.
    ``None`` while a socket is open, and for a computer player of the table's own,
    never away. One playing for a player who went away (``Seat.handed_from``) is away
    while that player is: their browser's sockets are counted at it."""
    if (seat.kind == Seat.Kind.BOT and not seat.handed_from) or seat.connections > 0:
        return None
    since = seat.away_since or seat.claimed_at
    return None if since is None else since + AWAY_BEFORE_SKIP


def is_away(seat: Seat) -> bool:
    away = away_from(seat)
    return away is not None and timezone.now() >= away


def hosts_players(game: Game, seats: list[Seat]) -> list[Seat]:
    """The seats of ``seats`` whose players are at the host's browser: at its screen,
    and those handed over from there to the computer, at which its sockets are still
    counted. The host is away when all of them are, whoever plays them meanwhile."""
    handed = [s for s in seats if s.handed_from and s.handed_kind == Seat.Kind.LOCAL]
    return host_seats(game, seats) + handed


class Skippers(NamedTuple):
    """Who may skip the player to move (or let the computer play their turn)."""

    host: str | None  # the host's browser, once the player to move is away
    players: frozenset[str]  # the players' seats, once the host is away as well

    def include(self, viewer: Viewer) -> bool:
        return self.host == viewer.browser_id or bool(self.players & viewer.tokens)


NOBODY_SKIPS = Skippers(None, frozenset())


def skippers(game: Game, seats: list[Seat], to_move: int | None) -> Skippers:
    """Who may skip the player ``to_move`` of ``game``: nobody while they are there, or
    while the computer plays for them; the host once they are away; and once the host
    is away too (``hosts_players``), any player, or a table whose host has gone could
    not go on."""
    moving = next((s for s in seats if to_move is not None and s.player_index == to_move), None)
    if moving is None or moving.kind == Seat.Kind.BOT or not is_away(moving):
        return Skippers(None, frozenset())
    hosts = hosts_players(game, seats)
    if not hosts or not all(is_away(s) for s in hosts):
        return Skippers(game.host_browser, frozenset())
    players = frozenset(s.token for s in seats if s.player_index is not None)
    return Skippers(game.host_browser, players)


def seconds_until_away(game: Game) -> float | None:
    """How long until the first player's seat of a running ``game`` that is not away
    yet, and has no socket open, is away (its turn may then be skipped); ``None`` if
    there is none. The seats of ``game`` must be at hand."""
    if game.status != Game.Status.PLAYING:
        return None
    now = timezone.now()
    waits = [
        (away - now).total_seconds()
        for seat in game.all_seats()
        if (away := away_from(seat)) is not None
    ]
    return min((wait for wait in waits if wait > 0), default=None)


def bot_to_move(game: Game) -> bool:
    """Whether a computer player is to move in ``game`` (its seats at hand)."""
    if game.status != Game.Status.PLAYING or not game.state:
        return False
    to_move = game.started_state().current_player
    return any(
        seat.player_index == to_move and seat.kind == Seat.Kind.BOT for seat in game.all_seats()
    )

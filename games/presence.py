"""Who is at the table: open sockets per seat and spectators, counted in the database
so that every server process sees the same numbers."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import F
from django.utils import timezone

from games.models import Game, Seat
from games.services import Viewer

# How long the player to move may be gone before the host may skip their turn.
AWAY_BEFORE_SKIP = timedelta(seconds=30)


def arrive(game: Game, viewer: Viewer) -> list[int]:
    """Count a new socket of ``viewer``; returns the seat ids it counts for. ``game``
    (with its seats, best read with them) is counted too, as the arrival sees it."""
    mine = [seat for seat in game.seats.all() if seat.token in viewer.tokens]
    if mine:
        seats = [seat.id for seat in mine]
        Seat.objects.filter(id__in=seats).update(connections=F("connections") + 1, away_since=None)
        for seat in mine:
            seat.connections += 1
            seat.away_since = None
        return seats
    Game.objects.filter(id=game.id).update(spectators=F("spectators") + 1)
    game.spectators += 1
    return []


def leave(game_id: int, seats: list[int]) -> None:
    if seats:
        Seat.objects.filter(id__in=seats).update(connections=F("connections") - 1)
        Seat.objects.filter(id__in=seats, connections__lte=0).update(
            connections=0, away_since=timezone.now()
        )
    else:
        Game.objects.filter(id=game_id, spectators__gt=0).update(spectators=F("spectators") - 1)


def is_away(seat: Seat) -> bool:
    """A remote seat whose browser has had no socket open for a while."""
    if seat.kind != Seat.Kind.REMOTE or seat.connections > 0:
        return False
    since = seat.away_since or seat.claimed_at
    return since is not None and timezone.now() - since >= AWAY_BEFORE_SKIP

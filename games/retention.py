"""What the site keeps, and for how long (docs/security.md, "Retention").

Finished games stay: they are the history. A lobby nobody has touched for
``YATZY_KEEP_LOBBY_HOURS`` and a game nobody has moved in for
``YATZY_KEEP_UNFINISHED_DAYS`` are abandoned, unless a page is open at them (a socket
counted at one of their seats, or a spectator's): ``tidy`` deletes them, with their
seats, scores and log. Sessions unused for ``SESSION_COOKIE_AGE`` have expired and go
too. ``manage.py tidy`` runs it; ``manage.py serve`` runs that on a schedule
(``YATZY_TIDY_EVERY_S``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Exists, OuterRef, QuerySet

from games.models import Game, GameEvent, Seat

BATCH = 200  # rows deleted per transaction: SQLite's writers wait no longer than that


@dataclass(frozen=True)
class Tidied:
    lobbies: int
    unfinished: int
    sessions: int


def abandoned(status: str, since: datetime) -> QuerySet[Game]:
    """The games of ``status`` made before ``since`` with nothing logged since (no seat
    taken or left, no move), and no page open at them now."""
    return (
        Game.objects.filter(status=status, created_at__lt=since)
        .exclude(Exists(GameEvent.objects.filter(game=OuterRef("pk"), created_at__gte=since)))
        .exclude(Exists(Seat.objects.filter(game=OuterRef("pk"), connections__gt=0)))
        .exclude(spectators__gt=0)
    )


def abandoned_lobbies(now: datetime) -> QuerySet[Game]:
    return abandoned(Game.Status.LOBBY, now - timedelta(hours=settings.YATZY_KEEP_LOBBY_HOURS))


def abandoned_games(now: datetime) -> QuerySet[Game]:
    since = now - timedelta(days=settings.YATZY_KEEP_UNFINISHED_DAYS)
    return abandoned(Game.Status.PLAYING, since)


def expired_sessions(now: datetime) -> QuerySet[Session]:
    return Session.objects.filter(expire_date__lt=now)


def tidy(now: datetime) -> Tidied:
    """Delete the abandoned lobbies and games, and the expired sessions, as of ``now``."""
    return Tidied(
        lobbies=_delete(abandoned_lobbies, now),
        unfinished=_delete(abandoned_games, now),
        sessions=_delete(expired_sessions, now),
    )


def _delete(selection: Callable[[datetime], QuerySet], now: datetime) -> int:
    """Delete what ``selection(now)`` selects, ``BATCH`` rows a transaction, each batch
    selected again and locked inside its transaction (a move may have come since the
    last one); the number of rows deleted."""
    deleted = 0
    while True:
        with transaction.atomic():
            chosen = selection(now).select_for_update()
            batch = list(chosen.values_list("pk", flat=True)[:BATCH])
            if not batch:
                return deleted
            chosen.model.objects.filter(pk__in=batch).delete()
        deleted += len(batch)

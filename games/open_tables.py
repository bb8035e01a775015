"""The rooms open to anyone (``Game.open_to_anyone``): which wait for players
(``listed``), as the Open tables page lists them (``rows``), pushed live to every such
page as they change (``OPEN``, a ``games.live_lists.LiveList``).

Listed is a room that its host opened to anyone, that waits in its lobby with an
invitation nobody has taken, and whose host is here: a page of theirs open at it, or
closed for less than ``seating.AWAY_BEFORE_SKIP`` (a reload, a phone that dropped its
connection). A room whose host has gone would keep a stranger waiting for nobody.

A room leaves the list as it fills (its last invitation taken), starts, is closed by its
host, loses its invitations, or its host goes: each is a change at the room (a version,
or who is in its lobby), and each pushes the list.
"""

from __future__ import annotations

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.dispatch import receiver
from django.utils import timezone
from django.utils.translation import gettext

from games import broadcast, seating
from games.live_lists import LiveList
from games.models import Game, GameEvent, Seat
from games.tableview import RULESET_NAMES, host_name, options_text

MOST = 50  # rooms a list shows, the latest made first


def listed() -> QuerySet[Game]:
    """The rooms open to anyone with a seat free and their host here, the latest first."""
    free = Seat.objects.filter(game=OuterRef("pk"), kind=Seat.Kind.REMOTE, claimed_at=None)
    # the host's own seats (at the host's screen: ``seating.host_seats``), one of them
    # with a page open, or with none for less than the time to be away
    since = timezone.now() - seating.AWAY_BEFORE_SKIP
    host_here = (
        Seat.objects.filter(
            game=OuterRef("pk"), kind=Seat.Kind.LOCAL, browser_id=OuterRef("host_browser")
        )
        .alias(since=Coalesce("away_since", "claimed_at"))
        .filter(Q(connections__gt=0) | Q(since__gt=since))
    )
    games = Game.objects.filter(open_to_anyone=True, status=Game.Status.LOBBY)
    games = games.filter(Exists(free), Exists(host_here))
    return games.order_by("-created_at", "-id").prefetch_related("seats")[:MOST]


def rows(games: list[Game]) -> list[dict]:
    """What the list says of each room, in the active language: its rules and options,
    its host, how many seats it has and how many are free, and its code to join by."""
    found = []
    for game in games:
        seats = game.all_seats()
        free = sum(1 for seat in seats if seat.is_open)
        found.append(
            {
                "code": game.code,
                "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
                "options": options_text(game) or gettext("No extra options"),
                "host": host_name(game),
                "seats": len(seats),
                "free": free,
            }
        )
    return found


OPEN = LiveList(
    name="the list of open tables",
    group="open.list",
    key="tables",
    template="games/open_tables.html#tables",
    games=lambda: list(listed()),
    rows=rows,
)


# what changes a room on the list: a seat taken, given up or removed, its start; and a
# room opened or closed by its host
ROOM_CHANGES = frozenset(
    (
        GameEvent.Kind.JOIN,
        GameEvent.Kind.LEAVE,
        GameEvent.Kind.REMOVE,
        GameEvent.Kind.START,
        GameEvent.Kind.OPEN,
    )
)


@receiver(broadcast.table_changed)
def on_table_changed(
    sender: object, code: str, version: int, game: Game | None, kind: str = "", **kwargs
) -> None:
    if game is not None and kind in ROOM_CHANGES and (game.open_to_anyone or kind == "open"):
        OPEN.changed()


@receiver(broadcast.lobby_presence)
def on_lobby_presence(sender: object, code: str, **kwargs) -> None:
    """Someone came to a lobby or left it: if it was its host, an open room comes or goes."""
    OPEN.changed()

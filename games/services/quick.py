"""Quick play: a browser asks for a stranger to play, under a name, for a rule set
(``press``), and waits on its waiting page (a ``Seek``) until another browser asks for
the same rule set; that press seats both at a new table, which starts at once.

Who waits: a browser whose waiting page is open, by its socket (``sockets``, its life
kept by the socket's heartbeat: ``seen_at``), or whose page was loaded moments ago (a
page without JavaScript, which reloads itself; a page whose socket has not opened
yet). A browser that closes its last waiting page leaves the queue (``depart``); a
waiting page whose socket opens again (the page reloaded, the connection back) waits
again, as a press of its own (``arrive``). One browser waits once: its tabs share its
seek, a press from another rule set moves it there, and its tabs are never paired
with each other. A browser logged in to an
account has the account's browser id on every device (``players.accounts``): an
account waits once too.

A press locks its rule set's queue (``QuickQueue``) for its transaction: two presses
at once, in any processes, are serialised there, the second finds the first waiting,
and a seek is seated once. The waiting pages are told over the channel layer: each
browser's, that it has a table (``seated_group``), and all of them, how many wait for
each rule set (``COUNTS_GROUP``).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games import broadcast, rules
from games.errors import ActionError
from games.models import Game, GameEvent, QuickQueue, Seat, Seek, bot_name
from games.names import same_name
from games.services import core
from games.services.rooms import SeatSpec, create_game, player_name, start_table
from games.viewer import Viewer

# quick play's rule sets, each as the home page's form starts it by default
TABLE_OPTIONS = {
    "yatzy": rules.TableOptions(upper_bonus=50),
    "yahtzee": rules.TableOptions(),
    "maxi_yatzy": rules.TableOptions(),
}
# A stranger who walks away would hold the other at the table: each turn has a
# minute, then it is skipped (as a host's turn timer does), and a player gone is
# handled as at every table (away, skipped, played by the computer).
TURN_SECONDS = 60
# A page with its socket open tells the server every HEARTBEAT that it is still there;
# one not heard of for HEARTBEAT_LOST (its server went down) waits no more. A page
# just loaded (or without JavaScript: it reloads every few seconds) waits PAGE_GRACE.
HEARTBEAT = timedelta(seconds=15)
HEARTBEAT_LOST = timedelta(seconds=45)
PAGE_GRACE = timedelta(seconds=8)
# A browser's table found is where its presses and waiting pages go for this long (a
# double click, two tabs, a page told late); then its seek is forgotten.
SEATED_KEPT = timedelta(seconds=60)

COUNTS_GROUP = "quick.counts"


def seated_group(browser_id: str) -> str:
    """The channel layer's group of one browser's waiting pages (a browser id is a
    secret of its session: the group is named by a hash of it)."""
    return "quick." + hashlib.sha256(browser_id.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class Pressed:
    """What a press did: seated the browser at ``game`` (a stranger was waiting), or
    put it in the queue (``game`` None)."""

    game: Game | None


def ruleset_of(ruleset: str) -> str:
    if ruleset not in TABLE_OPTIONS:
        raise ActionError(_("Choose one of the site's rule sets."), code="bad_ruleset")
    return ruleset


def press(viewer: Viewer, name: str, ruleset: str, socket: bool = False) -> Pressed:
    """``viewer`` asks for a stranger to play ``ruleset`` with, as ``name``: seated at
    once with the one who has waited longest for it, if anyone waits; else waiting
    (counted with one waiting page's socket open, if ``socket``). Locks the rule
    set's queue."""
    name = player_name(name)
    ruleset = ruleset_of(ruleset)
    now = timezone.now()
    with transaction.atomic():
        QuickQueue.objects.get_or_create(ruleset=ruleset)
        QuickQueue.objects.select_for_update().get(ruleset=ruleset)
        mine = Seek.objects.select_for_update().filter(browser_id=viewer.browser_id).first()
        if mine is not None and mine.game is not None:
            if mine.seated_at and mine.seated_at >= now - SEATED_KEPT:
                return Pressed(mine.game)  # seated just now: a double click, another tab
            mine.delete()  # a table found a while ago: this press asks for a new one
            mine = None
        forget_the_gone(ruleset, now)
        other = (
            waiting(now)
            .select_for_update()
            .filter(ruleset=ruleset)
            .exclude(browser_id=viewer.browser_id)
            .order_by("waiting_since", "id")
            .first()
        )
        if other is None:
            if mine is None:
                mine = Seek(browser_id=viewer.browser_id, sockets=0)
            if mine.ruleset != ruleset or mine.name != name:
                mine.waiting_since = now
            mine.ruleset, mine.name, mine.seen_at = ruleset, name, now
            mine.sockets += socket
            mine.save()
            tell_the_counts(now)
            return Pressed(None)
        game = _seat(other, viewer, name, now)
        if mine is None:
            mine = Seek(browser_id=viewer.browser_id, ruleset=ruleset, name=name)
            mine.waiting_since = mine.seen_at = now
        for seek in (other, mine):
            seek.game, seek.seated_at = game, now
            seek.save()
        # every waiting page of both browsers goes to the table
        for browser in (other.browser_id, viewer.browser_id):
            _tell(seated_group(browser), {"type": "quick.go"})
        tell_the_counts(now)
    return Pressed(game)


def _seat(other: Seek, viewer: Viewer, name: str, now: datetime) -> Game:
    """A new table of ``other``'s rule set, started, with ``other`` (who waited: first,
    and the host) and ``viewer`` at it. A second name like the first is told apart."""
    if same_name(name, other.name):
        name = f"{name} 2"
    game = Game.objects.create(
        ruleset=other.ruleset,
        options=TABLE_OPTIONS[other.ruleset].to_dict(),
        host_browser=other.browser_id,
        turn_seconds=TURN_SECONDS,
        quick_play=True,
        **core.committed_dice(),
    )
    for position, (browser, seat_name) in enumerate(
        [(other.browser_id, other.name), (viewer.browser_id, name)]
    ):
        Seat.objects.create(
            game=game,
            position=position,
            name=seat_name,
            kind=Seat.Kind.REMOTE,
            browser_id=browser,
            claimed_at=now,
        )
    core.log(game, [(GameEvent.Kind.CREATE, None, {"quick_play": True})])
    start_table(game)
    return game


def play_the_computer(viewer: Viewer, ruleset: str) -> Game:
    """Leave the queue and play a Good computer player instead, under the name the
    browser waited with (or, having waited for nothing, ``ruleset``'s own table)."""
    ruleset = ruleset_of(ruleset)
    seek = Seek.objects.filter(browser_id=viewer.browser_id, game=None).first()
    if seek is None:
        raise ActionError(
            _("This browser is not waiting for a game: start one from the home page."),
            code="not_waiting",
            status=409,
        )
    seats = [
        SeatSpec(Seat.Kind.LOCAL, seek.name),
        SeatSpec(Seat.Kind.BOT, bot_name(1, "good"), bot_level="good", bot_number=1),
    ]
    game = create_game(
        viewer, ruleset=ruleset, options=TABLE_OPTIONS[ruleset], seats=seats, public=True
    )
    leave(viewer)
    return game


def leave(viewer: Viewer) -> None:
    """The browser stops waiting (its Stop waiting button, or the computer instead):
    its other waiting pages are told, and say so."""
    with transaction.atomic():
        gone = Seek.objects.filter(browser_id=viewer.browser_id, game=None).delete()[0]
        if gone:
            _tell(seated_group(viewer.browser_id), {"type": "quick.go"})
            tell_the_counts(timezone.now())


def seek_of(viewer: Viewer) -> Seek | None:
    """The browser's seek, waiting or seated, if it has one; a page loaded is a sign
    of life."""
    if not viewer.browser_id:
        return None
    now = timezone.now()
    Seek.objects.filter(browser_id=viewer.browser_id).update(seen_at=now)
    return Seek.objects.select_related("game").filter(browser_id=viewer.browser_id).first()


def table_found(seek: Seek, now: datetime) -> Game | None:
    """The table a stranger's press seated ``seek``'s browser at lately, if it was."""
    if seek.seated_at is None or seek.seated_at < now - SEATED_KEPT:
        return None
    return seek.game


def arrive(viewer: Viewer, ruleset: str, name: str) -> Seek | Pressed:
    """A waiting page's socket opened, of a page waiting for ``ruleset``: one more of
    the browser's seek's, a sign of life. A browser that waits no more (the page was
    reloaded, or its connection lost, and its last socket closed meanwhile) asks again,
    under ``name``, as a press does: the page is open, so it waits (or is seated)."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(browser_id=viewer.browser_id).first()
        if seek is not None:
            seek.sockets += 1
            seek.seen_at = timezone.now()
            seek.save(update_fields=["sockets", "seen_at"])
            return seek
    return press(viewer, name, ruleset, socket=True)


def heartbeat(browser_id: str) -> None:
    Seek.objects.filter(browser_id=browser_id).update(seen_at=timezone.now())


def depart(browser_id: str) -> None:
    """A waiting page's socket closed: the browser's last one leaves the queue."""
    with transaction.atomic():
        seek = Seek.objects.select_for_update().filter(browser_id=browser_id).first()
        if seek is None:
            return
        seek.sockets = max(0, seek.sockets - 1)
        if seek.sockets == 0 and seek.game_id is None:
            seek.delete()
            tell_the_counts(timezone.now())
        else:
            seek.save(update_fields=["sockets"])


def waiting(now: datetime) -> QuerySet[Seek]:
    """The seeks still waiting at ``now``: not seated, and their page there."""
    alive = Q(sockets__gt=0, seen_at__gte=now - HEARTBEAT_LOST) | Q(seen_at__gte=now - PAGE_GRACE)
    return Seek.objects.filter(alive, game=None)


def counts(now: datetime | None = None) -> dict[str, int]:
    """How many browsers wait for each rule set."""
    now = now or timezone.now()
    found = dict.fromkeys(TABLE_OPTIONS, 0)
    for ruleset in waiting(now).values_list("ruleset", flat=True):
        found[ruleset] = found.get(ruleset, 0) + 1
    return found


def tell_the_counts(now: datetime) -> None:
    """Once the transaction commits, tell every waiting page how many wait now."""
    _tell(COUNTS_GROUP, {"type": "quick.counts", "counts": counts(now)})


def forget_the_gone(ruleset: str, now: datetime) -> None:
    """Delete the seeks for ``ruleset`` whose pages are gone (its queue is locked), and
    the tables found longer ago than ``SEATED_KEPT``."""
    gone = Seek.objects.filter(ruleset=ruleset, game=None)
    gone.exclude(pk__in=waiting(now).values("pk")).delete()
    Seek.objects.filter(seated_at__lt=now - SEATED_KEPT).delete()


def _tell(group: str, message: dict) -> None:
    what = f"quick play's {message['type']}"
    transaction.on_commit(lambda: broadcast.send_to_group(group, message, what))

"""What a browser did becomes its account's as it logs in (or signs up), and follows
the account to every device logged in to it.

The session of a device logged in carries the account's browser id (``Player``), so
that "My games", the games in progress, the seats to return to and the daily
challenge see the same on every device (``games.viewer``). Logging out flushes the
session: the device gets a new browser id, and what it did stays with the account.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.db.models import Q
from django.dispatch import receiver

from games.models import DailyAttempt, Game, Seat
from games.viewer import BROWSER_KEY, TOKENS_KEY
from players import background, records
from players.models import Player


def player_of(user: Any) -> Player:
    """The player of ``user``, made the first time for a user that has none (one made
    with ``manage.py createsuperuser``)."""
    player, _made = Player.objects.get_or_create(user=user)
    return player


@receiver(user_logged_in)
def _logged_in(sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None:
        player = player_of(user)
        join_browser(player, session)
        # its finished games, in its records (those its browser played before)
        player_id = player.pk
        transaction.on_commit(lambda: background.run(records.record_player, player_id))


def join_browser(player: Player, session: MutableMapping[str, Any]) -> None:
    """Give ``player`` what the browser of ``session`` holds, and the browser the
    account's id: the seats of its browser id and of the seat tokens in its session
    (a seat taken by a personal link), the games it hosts, its daily attempts. Of two
    results of one day's challenge that both counted, the first finished still does;
    the other becomes practice (one result a day per account)."""
    browser_id = session.get(BROWSER_KEY, "")
    session[BROWSER_KEY] = player.browser_id
    if not browser_id or browser_id == player.browser_id:
        return
    if Player.objects.filter(browser_id=browser_id).exists():
        return  # another account's (not this browser's to give)
    tokens = list(session.get(TOKENS_KEY, []))
    account = player.browser_id
    with transaction.atomic():
        # a seat taken by a personal link is another browser's: taken here unless it
        # is another account's
        accounts = Player.objects.values("browser_id")
        held = Q(browser_id=browser_id) | (
            Q(token__in=tokens) & ~Q(kind=Seat.Kind.BOT) & ~Q(browser_id__in=accounts)
        )
        Seat.objects.filter(held).update(browser_id=account)
        Game.objects.filter(host_browser=browser_id).update(host_browser=account)
        _join_daily_attempts(browser_id, account)


def _join_daily_attempts(browser_id: str, account: str) -> None:
    counted = DailyAttempt.Result.COUNTED
    attempts = DailyAttempt.objects.select_for_update().filter(browser_id__in=[browser_id, account])
    firsts: dict[int, DailyAttempt] = {}
    for attempt in attempts.filter(result=counted).order_by("finished_at", "id"):
        if attempt.challenge_id in firsts:
            attempt.result = DailyAttempt.Result.PRACTICE
            attempt.save(update_fields=["result"])
        else:
            firsts[attempt.challenge_id] = attempt
    DailyAttempt.objects.filter(browser_id=browser_id).update(browser_id=account)

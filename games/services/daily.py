"""Entering a daily challenge: one transaction, the day's challenge row locked."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from games import clock, daily
from games.errors import ActionError
from games.models import DailyAttempt, DailyChallenge, Game, Seat
from games.services.rooms import SeatSpec, create_game, player_name
from games.viewer import Viewer


class NoSuchChallenge(ActionError):
    status = 404
    code = "no_daily"

    def __init__(self) -> None:
        super().__init__(
            _(
                "There is a daily challenge of Scandinavian Yatzy and of American Yahtzee"
                " only: choose one of them."
            )
        )


def play_daily(viewer: Viewer, ruleset: str, name: str) -> Game:
    """Today's challenge of ``ruleset`` for this browser: the attempt it is still
    playing, if it has one (a reload, a second tab, the button pressed again), else a
    new game on the day's dice (practice, once the browser has a result that counts).

    Locks the day's challenge: a browser pressing the button in two tabs at once gets
    one game."""
    if ruleset not in daily.RULESETS:
        raise NoSuchChallenge
    name = player_name(name)
    day = clock.today()
    challenge = daily.challenge_of(day, ruleset)
    with transaction.atomic():
        DailyChallenge.objects.select_for_update().filter(pk=challenge.pk).first()
        going = (
            challenge.attempts.filter(
                browser_id=viewer.browser_id, result=DailyAttempt.Result.PLAYING
            )
            .select_related("game")
            .first()
        )
        if going is not None:
            return going.game
        game = create_game(
            viewer,
            ruleset=ruleset,
            options=daily.OPTIONS,
            seats=[SeatSpec(Seat.Kind.LOCAL, name)],
            public=False,  # its review shows the day's dice: it is on the day's table instead
            seed=challenge.seed,
            seed_secret_until=clock.end_of(day),
        )
        DailyAttempt.objects.create(
            challenge=challenge, game=game, browser_id=viewer.browser_id, name=name
        )
    return game

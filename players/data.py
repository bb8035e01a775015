"""A player's data is theirs: everything the site keeps about an account, as JSON, and
the account deleted, its finished games kept for the other players under another name.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from games.models import DailyAttempt, Game, GameEvent, Seat
from players.models import Player
from players.records import own_seat


def everything_about(player: Player) -> dict[str, Any]:
    """What the site keeps about ``player``: the account, the games at which their
    browser id holds a seat (each with its seats, their scores and whose they are),
    their records, ratings and daily challenge attempts."""
    user = player.user
    games = (
        Game.objects.filter(seats__browser_id=player.browser_id)
        .distinct()
        .order_by("created_at", "id")
        .prefetch_related("seats")
    )
    return {
        "account": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": _when(getattr(user, "date_joined", None)),
            "last_login": _when(user.last_login),
            "profile_public": player.public,
        },
        "games": [_game(game, player) for game in games],
        "records": [
            {
                "game": record.game.code,
                "ruleset": record.ruleset,
                "finished_at": _when(record.finished_at),
                "score": record.score,
                "won": record.won,
                "yatzy": record.yatzy,
                "upper_bonus": record.upper_bonus,
                "rated": record.rated,
                "lost_to_perfect_play": record.lost,
            }
            for record in player.records.select_related("game").order_by("finished_at", "id")
        ],
        "ratings": [
            {
                "ruleset": rating.ruleset,
                "games": rating.games,
                "mean_loss": rating.mean_loss,
                "standard_error": rating.standard_error,
                "trend": rating.trend,
            }
            for rating in player.ratings.order_by("ruleset")
        ],
        "daily_attempts": [
            {
                "day": attempt.challenge.day.isoformat(),
                "ruleset": attempt.challenge.ruleset,
                "game": attempt.game.code,
                "name": attempt.name,
                "result": attempt.result,
                "score": attempt.score,
                "lost_to_perfect_play": attempt.lost,
                "finished_at": _when(attempt.finished_at),
            }
            for attempt in DailyAttempt.objects.filter(browser_id=player.browser_id)
            .select_related("challenge", "game")
            .order_by("challenge__day", "id")
        ],
    }


def _when(moment: Any) -> str | None:
    return moment.isoformat() if moment else None


def _game(game: Game, player: Player) -> dict[str, Any]:
    seats = list(game.seats.all())
    state = game.engine_state()
    own = own_seat(seats, player.browser_id)
    return {
        "code": game.code,
        "ruleset": game.ruleset,
        "options": game.options,
        "status": game.status,
        "created_at": _when(game.created_at),
        "finished_at": _when(game.finished_at),
        "seats": [
            {
                "position": seat.position,
                "name": seat.shown_name,
                "yours": seat == own,
                "at_your_screen": seat.browser_id == player.browser_id and seat != own,
                "score": (
                    state.totals(state.scorecard_of(seat.player_index)).total
                    if state is not None and seat.player_index is not None
                    else None
                ),
            }
            for seat in seats
        ],
    }


def delete_account(user: User) -> None:
    """Delete ``user``'s account and what only they played; a game with other players
    stays for them, the player's seat renamed and held by no browser. A daily
    challenge's result stays on the day's table under that name too.

    Games where every seat a person played was the account's browser's (alone, with
    computer players, or friends at the player's own screen) are deleted with it."""
    player = Player.objects.filter(user=user).first()
    if player is None:
        user.delete()
        return
    browser_id = player.browser_id
    renamed = gettext("Deleted player")
    with transaction.atomic():
        games = Game.objects.filter(seats__browser_id=browser_id).distinct()
        for game in games.prefetch_related("seats"):
            seats = list(game.seats.all())
            own = own_seat(seats, browser_id)
            others = [
                seat
                for seat in seats
                if seat.kind in (Seat.Kind.LOCAL, Seat.Kind.REMOTE)
                and seat.browser_id not in ("", browser_id)
            ]
            if not others and game.seed_secret_until is None:
                game.delete()
                continue
            if own is not None:
                own.name = renamed
                own.save(update_fields=["name"])
                # the log's copy of the name, as the seat was taken
                game.events.filter(kind=GameEvent.Kind.JOIN, seat_position=own.position).update(
                    data={"name": renamed}
                )
        Seat.objects.filter(browser_id=browser_id).update(browser_id="")
        Game.objects.filter(host_browser=browser_id).update(host_browser="")
        # each attempt under an id of its own, no browser's (the day's table counts
        # one result per id)
        for attempt in DailyAttempt.objects.filter(browser_id=browser_id):
            attempt.name = renamed
            attempt.browser_id = f"deleted-{secrets.token_urlsafe(12)}"
            attempt.save(update_fields=["name", "browser_id"])
        user.delete()

"""The daily challenge as data: each UTC day has a challenge per solved rule set, a
solo game whose dice everyone that day draws from the day's committed seed.

Which attempt counts is settled as its game ends, in the move's transaction: a
browser's first attempt finished within the day counts on the day's table, its
others are practice, and one finished after the day (when the seed is out) is late.
"""

from __future__ import annotations

import datetime as dt

from django.urls import reverse

from games import clock
from games.models import DailyAttempt, DailyChallenge, Game
from games.rules import TableOptions, fairness

# The rule sets with a daily challenge: those the solver plays perfectly, for the par
RULESETS = ("yatzy", "yahtzee")
# The table every daily challenge is played at: the rule set's own rules
OPTIONS = TableOptions()


def challenge_of(day: dt.date, ruleset: str) -> DailyChallenge:
    """The challenge of ``day`` for ``ruleset``, with a fresh secret seed the first
    time anyone asks for it (two asking at once get the same one)."""
    seed = fairness.new_seed()
    challenge, _made = DailyChallenge.objects.get_or_create(
        day=day,
        ruleset=ruleset,
        defaults={"seed": seed, "commitment": fairness.commitment(seed)},
    )
    return challenge


def day_url(challenge: DailyChallenge) -> str:
    """The address of the day's table of ``challenge``."""
    return reverse("daily_day", args=[challenge.ruleset, challenge.day.isoformat()])


def settle(game: Game) -> None:
    """Give the attempt that ``game`` is, if it is one, its result as the game ends.

    Locks the day's challenge until the transaction ends: two attempts of one browser
    ending at once are settled one after the other, and only the first counts."""
    attempt = DailyAttempt.objects.filter(game=game).first()
    if attempt is None:
        return
    challenge = DailyChallenge.objects.select_for_update().get(pk=attempt.challenge_id)
    now = clock.now()
    if now >= clock.end_of(challenge.day):
        attempt.result = DailyAttempt.Result.LATE
    elif challenge.attempts.filter(
        browser_id=attempt.browser_id, result=DailyAttempt.Result.COUNTED
    ).exists():
        attempt.result = DailyAttempt.Result.PRACTICE
    else:
        attempt.result = DailyAttempt.Result.COUNTED
    attempt.score = game.started_state().totals(0).total
    attempt.finished_at = now
    attempt.save(update_fields=["result", "score", "finished_at"])


def attempt_of(game: Game) -> DailyAttempt | None:
    """The daily attempt ``game`` is, with its challenge; None for any other game."""
    if game.seed_secret_until is None:
        return None
    return DailyAttempt.objects.filter(game=game).select_related("challenge").first()


def is_practice(attempt: DailyAttempt) -> bool:
    """Whether ``attempt`` cannot count: its browser has a result that does, or it
    ended after its day."""
    if attempt.result in (DailyAttempt.Result.PRACTICE, DailyAttempt.Result.LATE):
        return True
    others = attempt.challenge.attempts.exclude(pk=attempt.pk)
    return others.filter(browser_id=attempt.browser_id, result=DailyAttempt.Result.COUNTED).exists()

"""The day's table of a daily challenge: its results ranked, the par, and what each
player lost against perfect play; and a result as a short text to share."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import formats
from django.utils.translation import gettext

from games import analysis, daily
from games.models import DailyAttempt, DailyChallenge
from games.rules import fairness
from games.strategy.par import perfect_total
from games.tableview import RULESET_NAMES


@dataclass(frozen=True)
class Entry:
    """One finished attempt on the day's table."""

    rank: int | None  # a result that counts; practice has none
    name: str
    score: int
    lost: float | None  # points lost against perfect play (None: not analysed)
    to_par: int | None  # score - par (None while the par is unknown)
    result: str  # DailyAttempt.Result
    code: str  # the game's, for its review once the day is over
    mine: bool  # this browser's
    browser: str = ""  # the browser id that played it (an account's, on every device)
    # an account's result: named by its username, with its rating in the rule set and
    # a link to its profile if public (``players.standing.named``)
    account: str = ""
    rating: float | None = None
    profile: str = ""


def par_of(challenge: DailyChallenge) -> int | None:
    """What the Perfect computer player scores on the day's dice, worked out the first
    time it is asked for and kept; None while the solver's tables are missing."""
    if challenge.par is None:
        dice = fairness.CommittedDice(challenge.seed)
        par = perfect_total(challenge.ruleset, daily.OPTIONS, dice)
        if par is not None:
            DailyChallenge.objects.filter(pk=challenge.pk, par__isnull=True).update(par=par)
            challenge.par = par
    return challenge.par


def lost_in(attempt: DailyAttempt) -> float | None:
    """The points ``attempt`` lost against perfect play over all its decisions (the
    review's figure), worked out once and kept; None while there are no tables."""
    if attempt.lost is None and attempt.finished_at is not None:
        result = analysis.analyse(attempt.game)
        if not result.unavailable:
            attempt.lost = round(result.cards[0].total_loss, 1)
            attempt.save(update_fields=["lost"])
    return attempt.lost


def standings(challenge: DailyChallenge, browser_id: str) -> tuple[list[Entry], list[Entry]]:
    """The results that count, ranked by score (equal scores share their place: 1, 1,
    3; among them the first finished comes first), and the practice and late ones,
    in the order they finished."""
    par = par_of(challenge)
    finished = (
        challenge.attempts.filter(finished_at__isnull=False)
        .select_related("game")
        .order_by("-score", "finished_at", "id")
    )
    counted: list[Entry] = []
    practice: list[tuple[dt.datetime | None, Entry]] = []
    for attempt in finished:
        score = attempt.score or 0
        counts = attempt.result == DailyAttempt.Result.COUNTED
        rank = None
        if counts:
            rank = counted[-1].rank if counted and counted[-1].score == score else len(counted) + 1
        entry = Entry(
            rank=rank,
            name=attempt.name,
            score=score,
            lost=lost_in(attempt),
            to_par=None if par is None else score - par,
            result=attempt.result,
            code=attempt.game.code,
            mine=attempt.browser_id == browser_id,
            browser=attempt.browser_id,
        )
        if counts:
            counted.append(entry)
        else:
            practice.append((attempt.finished_at, entry))
    practice.sort(key=lambda pair: pair[0] or dt.datetime.min.replace(tzinfo=dt.UTC))
    return counted, [entry for _finished, entry in practice]


def share_text(challenge: DailyChallenge, score: int, par: int | None, link: str) -> str:
    """A result as a short text with a link to the day's table, in the language active
    now: the score and the par, and nothing of the dice."""
    values = {
        "rules": RULESET_NAMES.get(challenge.ruleset, challenge.ruleset),
        "day": formats.date_format(challenge.day, "DATE_FORMAT"),
        "score": score,
        "par": par,
        "link": link,
    }
    if par is None:
        text = gettext("Daily %(rules)s challenge, %(day)s: %(score)s points. %(link)s")
    else:
        text = gettext(
            "Daily %(rules)s challenge, %(day)s: %(score)s points, par %(par)s. %(link)s"
        )
    return text % values


def last_day_before(challenge_day: dt.date, ruleset: str) -> dt.date | None:
    """The latest day before ``challenge_day`` that had a challenge of ``ruleset``."""
    earlier = DailyChallenge.objects.filter(ruleset=ruleset, day__lt=challenge_day)
    return earlier.order_by("-day").values_list("day", flat=True).first()


def first_day_after(challenge_day: dt.date, ruleset: str, today: dt.date) -> dt.date | None:
    """The first day after ``challenge_day`` that had a challenge of ``ruleset``, or
    today (which always has one to play)."""
    later = DailyChallenge.objects.filter(ruleset=ruleset, day__gt=challenge_day, day__lt=today)
    found = later.order_by("day").values_list("day", flat=True).first()
    return found or (today if challenge_day < today else None)

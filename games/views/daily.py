"""The daily challenge: entering today's from the home page, and each day's table."""

from __future__ import annotations

import datetime as dt
import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _

from games import clock, daily, leaderboard, names, services
from games.errors import ActionError
from games.models import DailyAttempt, DailyChallenge
from games.tableview import RULESET_NAMES
from games.viewer import NAME_KEY
from games.views.access import (
    error_page,
    remember,
    require_GET,
    require_POST,
    viewer_looking,
    viewer_of,
)
from players import standing
from players.accounts import player_of
from players.profile import day_streak

# The name a browser last played under, offered again (the home page's forms)
ISO_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")

UNKNOWN_DAY = _("That is not a day: a day's table is at /daily/RULES/YYYY-MM-DD/.")
FUTURE_DAY = _("That day has not come yet: its challenge starts at midnight UTC.")
NO_CHALLENGE = _("Nobody played that day's challenge: there is no table for it.")


def remember_name(request: HttpRequest, name: str) -> None:
    request.session[NAME_KEY] = names.seat_name(name)


def remembered_name(request: HttpRequest) -> str:
    return request.session.get(NAME_KEY, "")


def daily_choices(request: HttpRequest) -> dict:
    """What the home page's daily challenge form needs."""
    return {
        "daily_rulesets": [(key, RULESET_NAMES[key]) for key in daily.RULESETS],
        "daily_name": remembered_name(request),
        "daily_today": clock.today().isoformat(),
        "name_limits": names.FIELD_LIMITS,
    }


@require_POST
def play(request: HttpRequest) -> HttpResponse:
    """Today's challenge of the rule set pressed, for this browser (its game still
    being played, if it has one)."""
    viewer = viewer_of(request)
    name = request.POST.get("name", "")
    try:
        game = services.play_daily(viewer, request.POST.get("daily", ""), name)
    except ActionError as error:
        return error_page(request, error, back="/")
    remember_name(request, name)
    remember(request, services.local_tokens(game, viewer))
    return redirect("table", game.code)


@require_GET
def today(request: HttpRequest, ruleset: str) -> HttpResponse:
    if ruleset not in daily.RULESETS:
        return error_page(request, services.NoSuchChallenge())
    return redirect("daily_day", ruleset, clock.today().isoformat())


@require_GET
def day(request: HttpRequest, ruleset: str, day: str) -> HttpResponse:
    """The day's table: the results that count, ranked, with the points each lost
    against perfect play; the practice results; the par once this browser has
    finished an attempt (or the day is over); the seed once the day is over."""
    if ruleset not in daily.RULESETS:
        return error_page(request, services.NoSuchChallenge())
    try:
        when = dt.date.fromisoformat(day) if ISO_DAY.fullmatch(day) else None
    except ValueError:
        when = None
    if when is None:
        return error_page(request, ActionError(UNKNOWN_DAY, status=404))
    now = clock.today()
    if when > now:
        return error_page(request, ActionError(FUTURE_DAY, status=404))
    challenge = DailyChallenge.objects.filter(day=when, ruleset=ruleset).first()
    if challenge is None and when < now:
        return error_page(request, ActionError(NO_CHALLENGE, status=404))
    over = when < now
    context = {
        "ruleset": ruleset,
        "ruleset_name": RULESET_NAMES[ruleset],
        "day": when,
        "over": over,
        "challenge": challenge,
        "earlier": leaderboard.last_day_before(when, ruleset),
        "later": leaderboard.first_day_after(when, ruleset, now),
        "counted": [],
        "practice": [],
        **daily_choices(request),
        "streak": (
            day_streak(player_of(request.user), now) if request.user.is_authenticated else 0
        ),
    }
    if challenge is not None:
        # only looked at: a shared link's visitor gets no session
        browser_id = viewer_looking(request).browser_id
        counted, practice = leaderboard.standings(challenge, browser_id)
        counted, practice = standing.named(counted, ruleset), standing.named(practice, ruleset)
        # this browser's result: the one that counts, else its first practice
        mine = next((entry for entry in (*counted, *practice) if entry.mine), None)
        par = leaderboard.par_of(challenge)
        link = request.build_absolute_uri(daily.day_url(challenge))
        context.update(
            counted=counted,
            practice=practice,
            show_par=over or mine is not None,  # before, the par would tell what the dice allow
            par=par,
            seed=challenge.seed if over else "",
            share=leaderboard.share_text(challenge, mine.score, par, link) if mine else "",
            playing=challenge.attempts.filter(
                browser_id=browser_id, result=DailyAttempt.Result.PLAYING
            ).exists(),
        )
    return render(request, "games/daily.html", context)

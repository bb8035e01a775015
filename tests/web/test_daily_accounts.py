"""The daily challenge by person: one result a day per account (on every device), the
day's table naming accounts with their rating, and the streak of days played."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from games.models import DailyAttempt
from players.models import Player, Rating
from tests.conftest import play_to_the_end
from tests.web.test_accounts import log_in, sign_up
from tests.web.test_daily import DAY, NOON, at, attempt, day_page, enter


@pytest.fixture
def noon(settings) -> dt.datetime:
    return at(settings, NOON)


def test_one_result_a_day_counts_per_account_whichever_device(
    alice: Client, noon: dt.datetime
) -> None:
    sign_up(alice)
    phone = Client()
    log_in(phone)

    first = enter(alice)
    assert enter(phone) == first  # the game being played, on the other device too
    first = play_to_the_end(alice, first)
    second = play_to_the_end(phone, enter(phone))

    assert attempt(first).result == DailyAttempt.Result.COUNTED
    assert attempt(second).result == DailyAttempt.Result.PRACTICE
    page = day_page(phone)
    counted = page.split("Practice: later games")[0]
    assert counted.count('<tr class="mine">') == 1


def test_the_days_table_names_accounts_with_their_rating(
    alice: Client, bob: Client, noon: dt.datetime
) -> None:
    sign_up(alice)
    player = Player.objects.get()
    Rating.objects.create(
        player=player, ruleset="yatzy", games=7, mean_loss=23.46, standard_error=2.0
    )
    play_to_the_end(alice, enter(alice, name="Ally at the table"))
    play_to_the_end(bob, enter(bob, name="Bob"))

    page = day_page(bob)

    assert "<td>alice <small" in page and "Ally at the table" not in page
    assert "rating 23.5" in page
    assert "<td>Bob <small>(you)" in page  # without an account, by the name played under
    assert 'href="/players/alice/"' not in page  # a private profile is not linked
    player.public = True
    player.save()
    assert '<td><a href="/players/alice/">alice</a>' in day_page(bob)


def test_the_streak_counts_the_days_played_in_a_row(alice: Client, settings) -> None:
    sign_up(alice)
    for day in (DAY - dt.timedelta(days=3), DAY - dt.timedelta(days=1), DAY):
        at(settings, dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC))
        play_to_the_end(alice, enter(alice))

    page = day_page(alice)
    profile = alice.get("/players/alice/").content.decode()

    assert "Daily challenge streak: 2 days in a row." in page
    assert "Daily challenge streak: 2 days in a row." in profile
    at(settings, dt.datetime.combine(DAY + dt.timedelta(days=1), dt.time(8), tzinfo=dt.UTC))
    assert "2 days in a row" in alice.get("/players/alice/").content.decode()  # today is open
    at(settings, dt.datetime.combine(DAY + dt.timedelta(days=2), dt.time(8), tzinfo=dt.UTC))
    assert "streak" not in alice.get("/players/alice/").content.decode()

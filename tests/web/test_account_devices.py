"""What a browser did becomes its account's as it signs up or logs in, and follows the
account to every device logged in to it; logging out leaves it with the account."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from games.models import DailyAttempt, DailyChallenge, Game
from players.models import Player
from tests.conftest import create_game, play_to_the_end, version
from tests.web.test_accounts import log_in, sign_up

HTMX = {"HTTP_HX_REQUEST": "true"}


def my_games(client: Client) -> str:
    return client.get("/history/").content.decode()


def home(client: Client) -> str:
    return client.get("/").content.decode()


def test_a_browsers_games_are_the_accounts_on_another_device(alice: Client, dice: object) -> None:
    finished = play_to_the_end(alice, create_game(alice, players="Bob"))
    going = create_game(alice)
    sign_up(alice)

    phone = Client()
    assert f"/g/{finished.code}/review/" not in my_games(phone)
    log_in(phone)

    assert f"/g/{finished.code}/review/" in my_games(phone)
    assert f'href="/g/{going.code}/"' in home(phone)  # the game in progress, to go back to
    rolled = phone.post(f"/g/{going.code}/roll/", {"version": version(going)}, **HTMX)
    assert rolled.status_code == 200  # the seat is the phone's to play too


def test_logging_in_brings_what_this_browser_did_to_the_account(
    alice: Client, dice: object
) -> None:
    sign_up(alice)
    laptop = Client()
    played_there = play_to_the_end(laptop, create_game(laptop))

    log_in(laptop)

    assert f"/g/{played_there.code}/review/" in my_games(alice)
    assert f"/g/{played_there.code}/review/" in my_games(laptop)


def test_logging_out_leaves_the_games_with_the_account(alice: Client, dice: object) -> None:
    sign_up(alice)
    game = play_to_the_end(alice, create_game(alice))
    going = create_game(alice)

    alice.post("/accounts/logout/")

    assert f"/g/{game.code}/review/" not in my_games(alice)
    assert f'href="/g/{going.code}/"' not in home(alice)
    spectator = alice.post(f"/g/{going.code}/roll/", {"version": version(going)}, **HTMX)
    assert spectator.status_code == 403
    log_in(alice)
    assert f"/g/{game.code}/review/" in my_games(alice)


def test_one_result_a_day_counts_per_account(alice: Client) -> None:
    sign_up(alice)
    laptop = Client()
    challenge = DailyChallenge.objects.create(
        day=dt.date(2026, 6, 1), ruleset="yatzy", seed="s", commitment="c"
    )
    account = Player.objects.get(user__username="alice").browser_id
    laptops = "the-laptops-browser-id"
    early = timezone.now() - dt.timedelta(hours=1)
    for browser_id, finished in ((account, timezone.now()), (laptops, early)):
        DailyAttempt.objects.create(
            challenge=challenge,
            game=Game.objects.create(ruleset="yatzy", host_browser=browser_id),
            browser_id=browser_id,
            name="Alice",
            result=DailyAttempt.Result.COUNTED,
            score=100,
            finished_at=finished,
        )
    session = laptop.session
    session["browser_id"] = laptops
    session.save()

    log_in(laptop)

    results = dict(DailyAttempt.objects.values_list("finished_at", "result"))
    assert results[early] == DailyAttempt.Result.COUNTED  # the first finished
    assert sorted(results.values()) == [DailyAttempt.Result.COUNTED, DailyAttempt.Result.PRACTICE]
    assert set(DailyAttempt.objects.values_list("browser_id", flat=True)) == {account}


@pytest.mark.parametrize("path", ["/history/", "/"])
def test_pages_still_work_without_an_account(alice: Client, dice: object, path: str) -> None:
    game = play_to_the_end(alice, create_game(alice))

    assert alice.get(path).status_code == 200
    assert f"/g/{game.code}/review/" in my_games(alice)

"""A player's data is theirs: the download of everything kept about them, and the
account deleted, its games with others kept for them under another name."""

from __future__ import annotations

import json

from django.contrib.auth.models import User
from django.test import Client

from games.models import DailyAttempt, Game, GameEvent
from players.models import Player, Record
from tests.conftest import create_game, fresh, play_to_the_end
from tests.web.test_accounts import PASSWORD, sign_up
from tests.web.test_daily import NOON, at, enter


def game_with(alice: Client, bob: Client, capture) -> Game:
    """A finished game of alice's with bob, who joined by the invite link."""
    game = create_game(alice, invites="1")
    bob.post(f"/g/{game.code}/join/", {"name": "Bob"})
    alice.post(f"/g/{game.code}/start/", {"version": str(fresh(game).version)})
    players = {
        seat.player_index: client
        for seat, client in zip(fresh(game).seats.all(), (alice, bob), strict=True)
    }
    with capture(execute=True):
        return play_to_the_end(players, game)


def test_the_download_holds_the_account_its_games_records_and_attempts(
    alice: Client, bob: Client, dice: object, settings, django_capture_on_commit_callbacks
) -> None:
    sign_up(alice, email="alice@example.com")
    game = game_with(alice, bob, django_capture_on_commit_callbacks)
    at(settings, NOON)
    with django_capture_on_commit_callbacks(execute=True):
        daily = play_to_the_end(alice, enter(alice))

    response = alice.get("/accounts/data.json")

    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="yatzy-alice.json"'
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert data["account"]["email"] == "alice@example.com"
    assert data["account"]["profile_public"] is False
    codes = [g["code"] for g in data["games"]]
    assert game.code in codes and daily.code in codes
    seats = next(g for g in data["games"] if g["code"] == game.code)["seats"]
    assert [(s["name"], s["yours"]) for s in seats] == [("Alice", True), ("Bob", False)]
    assert [r["game"] for r in data["records"]] == [game.code, daily.code]
    assert data["daily_attempts"][0]["game"] == daily.code
    assert "browser_id" not in json.dumps(data)  # the key to the seats stays in the session


def test_the_download_is_for_the_account_only(bob: Client) -> None:
    response = bob.get("/accounts/data.json")

    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_deleting_asks_for_the_password(alice: Client) -> None:
    sign_up(alice)

    page = alice.post("/accounts/delete/", {"password": "not it"}).content.decode()

    assert "That is not your password." in page
    assert User.objects.filter(username="alice").exists()


def test_a_deleted_accounts_games_with_others_stay_under_another_name(
    alice: Client, bob: Client, dice: object, settings, django_capture_on_commit_callbacks
) -> None:
    sign_up(alice)
    shared = game_with(alice, bob, django_capture_on_commit_callbacks)
    alone = play_to_the_end(alice, create_game(alice))
    at(settings, NOON)
    daily = play_to_the_end(alice, enter(alice))

    response = alice.post("/accounts/delete/", {"password": PASSWORD})

    assert "Your account is deleted." in response.content.decode()
    assert not User.objects.exists() and not Player.objects.exists()
    assert not Record.objects.exists()
    assert not Game.objects.filter(pk=alone.pk).exists()  # nobody else's
    seats = list(fresh(shared).seats.all())
    assert [seat.name for seat in seats] == ["Deleted player", "Bob"]
    assert seats[0].browser_id == "" and fresh(shared).host_browser == ""
    assert "Alice" not in json.dumps(list(GameEvent.objects.filter(game=shared).values("data")))
    review = bob.get(f"/g/{shared.code}/review/").content.decode()
    assert "Deleted player" in review and "Alice" not in review
    attempt = DailyAttempt.objects.get(game=daily)  # still on the day's table
    assert attempt.name == "Deleted player" and attempt.browser_id.startswith("deleted-")
    assert "Logged in as" not in alice.get("/").content.decode()
    assert f"/g/{shared.code}/review/" not in alice.get("/history/").content.decode()


def test_a_deleted_account_is_logged_out_on_other_devices_too(alice: Client, dice: object) -> None:
    sign_up(alice)
    game = create_game(alice, invites="1")
    phone = Client()
    phone.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    alice.post("/accounts/delete/", {"password": PASSWORD})

    assert "Logged in as" not in phone.get("/").content.decode()
    assert not Game.objects.filter(pk=game.pk).exists()  # nobody else had come


def test_a_new_account_on_a_device_still_carrying_an_accounts_id_gets_its_own(
    alice: Client,
) -> None:
    sign_up(alice)
    User.objects.filter(username="alice").update(is_active=False)  # its sessions stay

    assert sign_up(alice, "alice2").status_code == 302

    assert Player.objects.count() == 2
    assert len(set(Player.objects.values_list("browser_id", flat=True))) == 2

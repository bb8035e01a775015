"""``manage.py tidy``: what it deletes (abandoned lobbies, games nobody moved in for long,
expired sessions) and what it keeps (finished games, anything touched lately or open
in a page), at the edges of each retention period."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from games import retention
from games.models import Game, GameEvent, Seat
from tests.conftest import create_game, play_to_the_end

pytestmark = pytest.mark.django_db
MINUTE = timedelta(minutes=1)
LOBBY = timedelta(hours=24)
UNFINISHED = timedelta(days=30)


@pytest.fixture(autouse=True)
def kept_for(settings) -> None:
    settings.YATZY_KEEP_LOBBY_HOURS = 24
    settings.YATZY_KEEP_UNFINISHED_DAYS = 30


def aged(game: Game, ago: timedelta, last_logged: timedelta | None = None) -> Game:
    """``game`` as if made ``ago``, its log written then too (or its last entry
    ``last_logged`` ago)."""
    then = timezone.now() - ago
    Game.objects.filter(pk=game.pk).update(created_at=then)
    GameEvent.objects.filter(game=game).update(created_at=then)
    if last_logged is not None:
        last = GameEvent.objects.filter(game=game).latest("id")
        GameEvent.objects.filter(pk=last.pk).update(created_at=timezone.now() - last_logged)
    return game


def tidy() -> str:
    out = io.StringIO()
    call_command("tidy", stdout=out)
    return out.getvalue()


def exists(game: Game) -> bool:
    return Game.objects.filter(pk=game.pk).exists()


def test_a_lobby_nobody_touched_for_a_day_goes_and_one_touched_since_stays(
    alice: Client, bob: Client
) -> None:
    abandoned = aged(create_game(alice, invites="1"), LOBBY + MINUTE)
    waiting = aged(create_game(alice, invites="1"), LOBBY - MINUTE)
    joined_lately = create_game(alice, invites="1")
    bob.post(f"/g/{joined_lately.code}/join/", {"name": "Bob"})
    aged(joined_lately, timedelta(days=3), last_logged=LOBBY - MINUTE)

    said = tidy()

    assert not exists(abandoned)
    assert not Seat.objects.filter(game_id=abandoned.pk).exists()
    assert exists(waiting) and exists(joined_lately)
    assert "deleted 1 abandoned lobby(ies), 0 unfinished game(s)" in said


def test_a_game_nobody_moved_in_for_thirty_days_goes(alice: Client, dice: object) -> None:
    abandoned = aged(create_game(alice, players="Bob"), UNFINISHED + MINUTE)
    resting = aged(create_game(alice, players="Bob"), UNFINISHED - MINUTE)
    moved_lately = create_game(alice, players="Bob")
    alice.post(f"/g/{moved_lately.code}/roll/", {"version": str(moved_lately.version)})
    aged(moved_lately, timedelta(days=90), last_logged=UNFINISHED - MINUTE)

    said = tidy()

    assert not exists(abandoned)
    assert not GameEvent.objects.filter(game_id=abandoned.pk).exists()
    assert exists(resting) and exists(moved_lately)
    assert "0 abandoned lobby(ies), 1 unfinished game(s)" in said


def test_finished_games_stay_however_old_and_so_does_the_game_before_a_deleted_one(
    alice: Client, dice: object
) -> None:
    finished = play_to_the_end(alice, create_game(alice, players="Bob"))
    alice.post(f"/g/{finished.code}/again/")
    next_game = Game.objects.get(pk=finished.pk).next_game
    aged(finished, timedelta(days=3650))
    aged(next_game, UNFINISHED + MINUTE)

    tidy()

    assert not exists(next_game)
    kept = Game.objects.get(pk=finished.pk)
    assert kept.status == Game.Status.FINISHED and kept.next_game is None
    assert alice.get(f"/g/{finished.code}/review/").status_code == 200


@pytest.mark.parametrize("open_page", ["player", "spectator"])
def test_a_game_open_in_a_page_stays(alice: Client, open_page: str) -> None:
    watched = aged(create_game(alice, invites="1"), timedelta(days=400))
    if open_page == "player":
        Seat.objects.filter(game=watched, position=0).update(connections=1)
    else:
        Game.objects.filter(pk=watched.pk).update(spectators=1)

    tidy()

    assert exists(watched)


def test_expired_sessions_go_and_live_ones_stay(alice: Client) -> None:
    create_game(alice)  # alice's session, live for a year
    expired = SessionStore()
    expired["browser_id"] = "gone"
    expired.set_expiry(-60)
    expired.create()

    said = tidy()

    assert list(Session.objects.values_list("session_key", flat=True)) == [
        alice.cookies["sessionid"].value
    ]
    assert "1 expired session(s)" in said


def test_many_abandoned_games_go_in_batches(alice: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    for _ in range(5):
        aged(create_game(alice, invites="1"), LOBBY + MINUTE)
    monkeypatch.setattr(retention, "BATCH", 2)

    assert "deleted 5 abandoned lobby(ies)" in tidy()
    assert not Game.objects.exists()

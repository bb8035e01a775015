"""``manage.py reset_presence``: a server that serves the site alone forgets, as it
starts, the sockets a crash left counted, so that a player who never comes back can
be skipped and no table shows spectators who are gone."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from games import presence
from games.models import Game, Seat
from tests.conftest import create_game, fresh, version
from tests.web.test_room import HTMX, bobs_turn

IN_MEMORY = {"default": {"BACKEND": "yatzy_site.layers.ThrottledInMemoryChannelLayer"}}
REDIS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:6379/0"]},
    }
}


@pytest.fixture
def bob_to_move_left_counted(alice: Client, bob: Client, dice: object) -> Game:
    """Bob's turn, his socket still counted by a server that was killed; two spectators
    counted too."""
    game = bobs_turn(alice, bob, create_game(alice, invites="1"))
    Seat.objects.filter(game=game, name="Bob").update(connections=1, away_since=None)
    Game.objects.filter(pk=game.pk).update(spectators=2)
    return game


def reset(*args: str) -> str:
    out = StringIO()
    call_command("reset_presence", *args, stdout=out)
    return out.getvalue()


def test_a_player_a_crash_left_counted_can_be_skipped_once_the_server_has_restarted(
    alice: Client, bob_to_move_left_counted: Game, settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = IN_MEMORY
    monkeypatch.setattr(presence, "AWAY_BEFORE_SKIP", timedelta(0))  # no waiting here
    refused = alice.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)
    assert "Bob is at the table: wait for their move." in refused.content.decode()
    before = timezone.now()

    assert (
        reset("--if-alone") == "Forgot the sockets of 1 seat(s) and the spectators of 1 game(s).\n"
    )

    bob = Seat.objects.get(game=game, name="Bob")
    assert bob.connections == 0 and bob.away_since >= before  # his time to come back starts now
    assert fresh(game).spectators == 0
    assert Seat.objects.get(game=game, name="Alice").away_since is None  # was not counted
    alice.post(f"/g/{game.code}/skip/", {"version": version(game)})
    assert fresh(game).engine_state().current_player == 0


def test_a_player_who_went_away_before_the_restart_keeps_the_time_he_left(
    bob_to_move_left_counted: Game, settings
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = IN_MEMORY
    left = timezone.now() - timedelta(minutes=5)
    Seat.objects.filter(game=game, name="Bob").update(connections=0, away_since=left)

    reset()

    assert Seat.objects.get(game=game, name="Bob").away_since == left


def test_where_processes_may_share_the_database_it_forgets_nothing_unless_forced(
    bob_to_move_left_counted: Game, settings
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = REDIS

    with pytest.raises(CommandError, match="Stop every server first and run this with --force"):
        reset()
    assert (
        reset("--if-alone") == "Several server processes may share this database: not forgotten.\n"
    )
    assert Seat.objects.get(game=game, name="Bob").connections == 1
    assert fresh(game).spectators == 2

    reset("--force")

    assert Seat.objects.get(game=game, name="Bob").connections == 0
    assert fresh(game).spectators == 0

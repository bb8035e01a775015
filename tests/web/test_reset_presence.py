"""``manage.py serve`` (``make run``) forgets, as it starts, the sockets a crash left
counted, so that a player who never comes back can be skipped and no table shows
spectators who are gone; a second one, while a server serves the same database,
stops before it changes anything. ``manage.py reset_presence`` does the forgetting
for servers started otherwise. (Real processes: tests/deploy/test_serve.py.)"""

from __future__ import annotations

import fcntl
import os
import sys
from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.utils import timezone

from games import seating
from games.models import Game, Seat
from tests.conftest import create_game, fresh, unisolated, version
from tests.web.test_room import HTMX, bobs_turn
from yatzy_site import serving

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
APP = "yatzy_site.asgi:application"
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


def counts(game: Game) -> tuple[int, int]:
    """Bob's sockets counted, and the game's spectators."""
    return Seat.objects.get(game=game, name="Bob").connections, fresh(game).spectators


def reset(*args: str) -> str:
    out = StringIO()
    call_command("reset_presence", *args, stdout=out)
    return out.getvalue()


def serve(*args: str) -> str:
    out = StringIO()
    call_command("serve", *args, stdout=out)
    return out.getvalue()


def test_a_player_a_crash_left_counted_can_be_skipped_once_the_server_has_restarted(
    alice: Client,
    bob_to_move_left_counted: Game,
    settings,
    monkeypatch: pytest.MonkeyPatch,
    claims: list[int],
    daphne: list[list[str]],
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = IN_MEMORY
    monkeypatch.setattr(seating, "AWAY_BEFORE_SKIP", timedelta(0))  # no waiting here
    refused = alice.post(f"/g/{game.code}/skip/", {"version": version(game)}, **HTMX)
    assert "Bob is at the table: wait for their move." in unisolated(refused.content.decode())
    before = timezone.now()

    assert serve("--port", "8123") == (
        "Forgot the sockets of 1 seat(s) and the spectators of 1 game(s) that an earlier"
        " server left counted.\n"
    )
    endpoint = "tcp:port=8123:interface=127.0.0.1:backlog=4096"
    daphne_argv = [sys.executable, "-m", "daphne", "-e", endpoint, "--verbosity", "0", APP]
    assert daphne == [[sys.executable, *daphne_argv]]
    assert os.get_inheritable(claims[0])  # daphne holds the claim until it exits
    assert serving.serving_at() == "http://127.0.0.1:8123/"

    bob = Seat.objects.get(game=game, name="Bob")
    assert bob.connections == 0 and bob.away_since >= before  # his time to come back starts now
    assert fresh(game).spectators == 0
    # Alice was not counted: the restart leaves her seat alone (her page, without a
    # socket here, was last seen at her move)
    assert Seat.objects.get(game=game, name="Alice").away_since < before
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
    assert counts(game) == (1, 2)

    reset("--force")

    assert counts(game) == (0, 0)


def test_a_server_started_on_another_processes_database_keeps_their_sockets(
    bob_to_move_left_counted: Game, settings, claims: list[int], daphne: list[list[str]]
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = REDIS

    assert serve() == (
        "Several server processes may share this database: the sockets they count are"
        " kept. Name each process (YATZY_PROCESS) so that it takes off what its"
        " predecessor left counted.\n"
    )

    assert len(daphne) == 1
    assert counts(game) == (1, 2)


def test_while_a_server_serves_the_database_neither_serve_nor_reset_forgets_anything(
    bob_to_move_left_counted: Game, settings, claims: list[int], daphne: list[list[str]]
) -> None:
    game = bob_to_move_left_counted
    settings.CHANNEL_LAYERS = IN_MEMORY
    serving.claim("http://127.0.0.1:8000/")  # the server of the first `make run`

    with pytest.raises(
        CommandError,
        match=r"A server is already serving this database at http://127.0.0.1:8000/: open that",
    ):
        serve("--port", "8001")
    for forced in ((), ("--force",), ("--process", "web1")):
        with pytest.raises(CommandError, match="A server is serving this database at http://"):
            reset(*forced)

    assert daphne == []  # the second one did not start
    assert counts(game) == (1, 2)
    os.close(claims.pop())  # the first server stops
    assert serving.serving_at() is None
    reset()
    assert Seat.objects.get(game=game, name="Bob").connections == 0


def test_a_server_caught_before_it_wrote_its_address_is_still_told_of(
    claims: list[int],
) -> None:
    fd = os.open(serving.lock_path(), os.O_RDWR | os.O_CREAT)  # locked, nothing written yet
    claims.append(fd)
    fcntl.flock(fd, fcntl.LOCK_EX)

    assert serving.serving_at() == "an address it has not written yet"
    with pytest.raises(CommandError, match="serving this database at an address it has not"):
        serve()

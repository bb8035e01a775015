"""The turn timer: a table's turns run out, and the server skips them as the host's
skip does; every browser is shown the turn's end. The site's clock is moved on
(``YATZY_CLOCK_SHIFT_S``) rather than waited for."""

from __future__ import annotations

from datetime import timedelta

from django.test import Client

from games import bots, services
from games.models import Game, GameEvent
from tests.conftest import NEW_GAME, create_game, fresh, play_to_the_end, unisolated, version


def later(settings, seconds: float) -> None:
    """The site's clock ``seconds`` on from now."""
    settings.YATZY_CLOCK_SHIFT = timedelta(seconds=seconds)


def timed_duel(alice: Client, seconds: str = "30") -> Game:
    return create_game(alice, players="Bob", turn_seconds=seconds)


def test_a_turn_not_over_in_time_is_skipped_when_the_table_is_next_loaded(
    alice: Client, spectator: Client, settings, dice: object
) -> None:
    game = timed_duel(alice)
    assert "Turn timer: 30 seconds a turn." in alice.get(f"/g/{game.code}/").content.decode()

    later(settings, 20)
    page = unisolated(spectator.get(f"/g/{game.code}/").content.decode())
    assert "Alice's turn." in page  # not yet

    later(settings, 31)
    page = unisolated(spectator.get(f"/g/{game.code}/").content.decode())

    assert "Alice's turn was skipped: 0 in" in page
    assert "Bob's turn." in page
    skip = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.SKIP).get()
    assert skip.seat_position == 0
    # and Bob's turn has its own 30 seconds, from the skip
    later(settings, 31 + 20)
    assert not services.expire_turn(game.code, fresh(game).version)
    later(settings, 31 + 31)
    assert services.expire_turn(game.code, fresh(game).version)


def test_a_move_in_time_starts_the_next_turns_time(alice: Client, settings, dice: object) -> None:
    game = timed_duel(alice, "60")
    first = fresh(game).turn_deadline
    later(settings, 50)
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    alice.post(
        f"/g/{game.code}/score/", {"version": version(game), "category": "chance", "confirm": "1"}
    )

    assert fresh(game).turn_deadline >= first + timedelta(seconds=49)
    later(settings, 61)  # past the first turn's end, not the second's
    assert not services.expire_turn(game.code, fresh(game).version)
    assert not GameEvent.objects.filter(game=game, kind=GameEvent.Kind.SKIP).exists()


def test_the_expiry_of_an_old_version_is_dropped(alice: Client, settings, dice: object) -> None:
    game = timed_duel(alice)
    old = fresh(game).version
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    later(settings, 31)

    assert not services.expire_turn(game.code, old)
    assert services.expire_turn(game.code, fresh(game).version)
    assert not bots.nudge(fresh(game))  # once


def test_a_table_without_a_timer_never_runs_out(alice: Client, settings, dice: object) -> None:
    game = create_game(alice, players="Bob")
    later(settings, 3600)

    assert fresh(game).turn_deadline is None
    assert not services.expire_turn(game.code, fresh(game).version)
    assert "Turn timer" not in alice.get(f"/g/{game.code}/").content.decode()


def test_the_timer_stops_at_the_end_and_goes_on_to_the_next_game(
    alice: Client, settings, dice: object
) -> None:
    game = create_game(alice, players="Bob", turn_seconds="120", upper_only="on")
    finished = play_to_the_end(alice, game)
    assert finished.turn_deadline is None
    alice.post(f"/g/{finished.code}/again/")
    following = fresh(finished).next_game
    assert following.turn_seconds == 120 and following.turn_deadline is not None


def test_a_timer_not_on_the_list_is_refused(alice: Client) -> None:
    response = alice.post("/games/new/", {**NEW_GAME, "turn_seconds": "5"})

    assert response.status_code == 400
    assert not Game.objects.exists()


def test_the_invite_and_the_lobby_say_the_turn_timer(alice: Client, bob: Client) -> None:
    """A friend learnt of the 30-second turns only at the table."""
    timed = create_game(alice, invites="1", turn_seconds="30", forced_order="on")
    untimed = create_game(alice, invites="1")

    invite = unisolated(bob.get(f"/g/{timed.code}/join/").content.decode())
    lobby = unisolated(alice.get(f"/g/{timed.code}/lobby/").content.decode())
    alice.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    finnish = unisolated(alice.get(f"/g/{timed.code}/lobby/").content.decode())

    assert "<small>Forced order, 30 seconds a turn</small>" in invite
    assert '<small class="house-rules">Forced order, 30 seconds a turn</small>' in lobby
    assert "30 sekuntia vuorossa" in finnish
    assert "a turn" not in bob.get(f"/g/{untimed.code}/join/").content.decode()


def test_only_a_test_server_offers_a_turn_timer_shorter_than_30_seconds(
    alice: Client, settings, dice: object
) -> None:
    """``YATZY_TEST_TURN_TIMER_S``: the browser tests' 10-second turns."""
    assert 'value="10"' not in alice.get("/").content.decode()
    refused = alice.post("/games/new/", {**NEW_GAME, "players": "Bob", "turn_seconds": "10"})
    assert refused.status_code == 400  # the form again, not a game
    assert not Game.objects.exists()

    settings.YATZY_TEST_TURN_TIMER = 10
    assert '<option value="10">10 seconds a turn</option>' in alice.get("/").content.decode()
    game = timed_duel(alice, "10")
    assert "Turn timer: 10 seconds a turn." in alice.get(f"/g/{game.code}/").content.decode()

"""Two tabs of one player, double clicks: exactly one of the racing moves applies.

Runs on the default database (SQLite, in a file, immediate transactions); the
same races on PostgreSQL are in tests/postgres_redis/.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, GameEvent, ScoreEntry, Seat
from tests.conftest import create_game, fresh, version
from tests.postgres_redis.race import race

pytestmark = pytest.mark.django_db(transaction=True)


def tabs(client: Client, count: int) -> list[Client]:
    """Browser tabs sharing ``client``'s session."""
    copies = []
    for _ in range(count):
        tab = Client()
        tab.cookies = client.cookies
        copies.append(tab)
    return copies


def test_two_tabs_scoring_at_once_score_once(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")
    alice.post(f"/g/{game.code}/roll/", {"version": version(game)})
    seen = version(game)

    responses = race(
        [
            lambda tab=tab, category=category: tab.post(
                f"/g/{game.code}/score/",
                {"version": seen, "category": category, "confirm": "1"},
                HTTP_HX_REQUEST="true",
            )
            for tab, category in zip(tabs(alice, 2), ["chance", "ones"], strict=True)
        ]
    )

    assert sorted(r.status_code for r in responses) == [200, 409]
    assert ScoreEntry.objects.filter(game=game).count() == 1
    assert fresh(game).version == int(seen) + 1


def test_a_double_clicked_roll_rolls_once(alice: Client, dice: object) -> None:
    game = create_game(alice)
    seen = version(game)

    responses = race(
        [
            lambda tab=tab: tab.post(
                f"/g/{game.code}/roll/", {"version": seen}, HTTP_HX_REQUEST="true"
            )
            for tab in tabs(alice, 3)
        ]
    )

    assert sorted(r.status_code for r in responses) == [200, 409, 409]
    assert fresh(game).engine_state().roll_number == 1
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.ROLL).count() == 1
    stale = next(r for r in responses if r.status_code == 409).content.decode()
    assert "The table has changed since your page was drawn" in stale
    assert Game.objects.get(pk=game.pk).status == Game.Status.PLAYING


def test_join_pressed_twice_at_once_takes_one_seat(
    alice: Client, bob: Client, dice: object
) -> None:
    """Both presses of one browser come before its session holds the seat's token: the
    second, under the table's lock after the first, finds the browser's seat and is
    sent to the lobby with it, and the other invitation stays open for someone else."""
    game = create_game(alice, invites="2")
    bob.get(f"/g/{game.code}/join/")  # the page with the Join button

    responses = race(
        [lambda tab=tab: tab.post(f"/g/{game.code}/join/", {"name": "Bob"}) for tab in tabs(bob, 2)]
    )

    assert [r.status_code for r in responses] == [302, 302]
    assert {r["Location"] for r in responses} == {f"/g/{game.code}/lobby/"}
    taken = Seat.objects.filter(game=game, kind=Seat.Kind.REMOTE, claimed_at__isnull=False)
    assert [seat.name for seat in taken] == ["Bob"]
    assert Seat.objects.filter(game=game, kind=Seat.Kind.REMOTE, claimed_at=None).count() == 1
    assert "Leave this table" in bob.get(f"/g/{game.code}/lobby/").content.decode()

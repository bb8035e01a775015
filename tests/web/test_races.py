"""Two tabs of one player, double clicks: exactly one of the racing moves applies.

Runs on the default database (SQLite, in a file, immediate transactions); the
same races on PostgreSQL are in tests/postgres_redis/.
"""

from __future__ import annotations

import pytest
from django.test import Client

from games.models import Game, GameEvent, ScoreEntry
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

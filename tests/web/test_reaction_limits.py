"""Quick reactions are limited per browser: a few a minute, then a translated 429."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.conftest import LimitsClock, create_game
from tests.site_client import AtTheDoor


@pytest.mark.django_db(transaction=True)  # the door's requests: a connection of their own
def test_reactions_past_the_rate_are_refused_until_the_window_ends(
    alice: Client, limits_on: LimitsClock, settings, dice: object
) -> None:
    settings.YATZY_RATES["react"]["browser"] = (3, 60)
    game = create_game(alice, players="Bob")
    react = f"/g/{game.code}/react/"

    answers = [AtTheDoor(alice).post(react, {"reaction": "gg"}).status_code for _ in range(4)]

    assert answers == [302, 302, 302, 429]
    limits_on.advance(61)
    assert AtTheDoor(alice).post(react, {"reaction": "gg"}).status_code == 302

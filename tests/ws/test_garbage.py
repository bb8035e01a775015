"""What keeps the garbage collector's full passes short under load: what the server
loaded at start is out of them altogether."""

from __future__ import annotations

import gc

from django.test import Client

from games.models import read_game
from tests.conftest import create_game


def test_the_seats_of_a_kept_game_still_answer_queries(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")
    read = read_game(id=game.id)

    assert read.seats.get(name="Bob").position == 1
    assert read.seats.filter(name="Nobody").count() == 0


def test_the_server_keeps_what_it_loaded_at_start_out_of_full_collections() -> None:
    import yatzy_site.asgi  # noqa: F401  (the server's entry point)

    assert gc.get_freeze_count() > 10_000

"""What keeps the garbage collector's full passes short under load: what the server
loaded at start is out of them altogether, and the scorecard cache holds nothing they
walk."""

from __future__ import annotations

import gc

import pytest
from django.test import Client

from games import rendering
from games.bounded import Bounded
from games.rendering import table_partial
from games.snapshots import read_game
from games.viewer import Viewer
from tests.conftest import create_game


def test_the_seats_of_a_kept_game_still_answer_queries(alice: Client, dice: object) -> None:
    game = create_game(alice, players="Bob")
    read = read_game(id=game.id)

    assert read.seats.get(name="Bob").position == 1
    assert read.seats.filter(name="Nobody").count() == 0


def test_the_server_keeps_what_it_loaded_at_start_out_of_full_collections() -> None:
    import yatzy_site.asgi  # noqa: F401  (the server's entry point)

    assert gc.get_freeze_count() > 10_000


def test_the_scorecard_cache_keeps_nothing_the_collector_walks(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rendering, "_SCORECARDS", Bounded(rendering._SCORECARDS.size))
    game = create_game(alice, players="Bob")
    table_partial(read_game(id=game.id), Viewer(""))

    assert len(rendering._SCORECARDS) == 1
    assert not any(gc.is_tracked(key) for key in rendering._SCORECARDS)

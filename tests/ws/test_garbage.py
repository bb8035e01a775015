"""What keeps the garbage collector from stopping the server under load: the games kept
for the browsers are freed as soon as they are dropped (no reference cycles for the
collector's full passes to find), and what the server loaded at start is out of those
passes altogether."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from games import broadcast, rendering, services
from games.bounded import Bounded
from games.rendering import table_partial
from games.services import Viewer
from games.snapshots import Snapshots, read_game, seats_at_hand
from games.viewer import peek_viewer
from tests.conftest import create_game
from tests.ws.test_inline import browser_request
from yatzy_site.handlers import OneHopASGIHandler


@pytest.fixture
def no_cyclic_collection() -> Iterator[None]:
    """Only reference counting frees objects while the test runs."""
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def test_a_game_read_with_its_seats_is_freed_when_dropped(
    alice: Client, dice: object, no_cyclic_collection: None
) -> None:
    game = create_game(alice, players="Bob")
    read = read_game(id=game.id)
    table_partial(read, Viewer(""))  # everything a push does with it
    assert seats_at_hand(read)
    names = [seat.name for seat in read.seats.all()]

    freed = weakref.ref(read)
    seat = weakref.ref(read.seats.all()[0])
    del read

    assert names == ["Alice", "Bob"]
    assert freed() is None and seat() is None


@pytest.mark.django_db(transaction=True)  # the move's notice runs as it commits
def test_a_game_a_move_leaves_for_the_browsers_is_freed_when_evicted(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, no_cyclic_collection: None
) -> None:
    game = create_game(alice, players="Bob")
    monkeypatch.setattr(broadcast, "SNAPSHOTS", Snapshots(size=1))
    viewer = peek_viewer(alice.session)
    moved = services.roll(game.code, viewer, game.version)
    assert broadcast.SNAPSHOTS.peek(game.id, game.code, f"v{moved.version}") is moved
    table_partial(moved, viewer)  # the mover's answer

    freed = weakref.ref(moved)
    del moved
    services.roll(game.code, viewer, game.version + 1)  # its notice evicts the first

    assert freed() is None


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


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_move_request_is_freed_as_it_ends(
    alice: Client, dice: object, monkeypatch: pytest.MonkeyPatch, no_cyclic_collection: None
) -> None:
    # django-htmx's details of a request hold the request: left alone, every request
    # (its session, its body, its form) waited for the collector.
    game = await sync_to_async(create_game)(alice)
    requests: list[weakref.ref] = []
    real_get_response = OneHopASGIHandler.get_response

    def get_response(handler, request):
        requests.append(weakref.ref(request))
        return real_get_response(handler, request)

    monkeypatch.setattr(OneHopASGIHandler, "get_response", get_response)
    roll = await browser_request(alice, "POST", f"/g/{game.code}/roll/", f"version={game.version}")

    answer = await roll.get_response()
    await roll.wait()

    assert answer["status"] == 200 and b"data-version" in answer["body"]
    assert len(requests) == 1 and requests[0]() is None

"""A test marked backend_free has no database, cache, channel layer nor their addresses
at hand, so it cannot run otherwise on PostgreSQL and Redis than on the embedded default
(tests/backend_free.py): CI's second run may leave it out."""

from __future__ import annotations

import os

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import caches

from games.models import Game


def test_a_test_that_asks_for_no_database_is_backend_free(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("backend_free") is not None


def test_a_backend_free_test_meets_no_backend(request: pytest.FixtureRequest) -> None:
    assert "DATABASE_URL" not in os.environ
    assert "REDIS_URL" not in os.environ
    with pytest.raises(RuntimeError, match="Database access not allowed"):
        Game.objects.count()
    for cache in ("default", "limits"):
        with pytest.raises(AssertionError, match="mark it backends"):
            caches[cache].get("a key")
    with pytest.raises(AssertionError, match="mark it backends"):
        async_to_sync(get_channel_layer().group_send)("table", {"type": "table.changed"})


@pytest.mark.django_db
def test_a_test_with_the_database_is_not_backend_free(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("backend_free") is None
    assert Game.objects.count() == 0


@pytest.mark.backends
def test_a_test_marked_backends_keeps_its_environment(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("backend_free") is None

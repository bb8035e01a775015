"""Tests that need PostgreSQL (DATABASE_URL) and Redis (REDIS_URL), the real services.

Without those variables they skip and say why. With YATZY_REQUIRE_SERVICES set
(as CI does), an unreachable service fails the run instead of skipping it.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlsplit

import pytest

REQUIRED = bool(os.environ.get("YATZY_REQUIRE_SERVICES"))


def _reachable(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or default_port), timeout=2):
            return True
    except OSError:
        return False


def _need(variable: str, default_port: int) -> None:
    url = os.environ.get(variable)
    if not url:
        if REQUIRED:
            pytest.fail(f"YATZY_REQUIRE_SERVICES is set but {variable} is not")
        pytest.skip(f"set {variable} to run the tests against the real service")
    if not _reachable(url, default_port):
        message = f"{variable}={url} is not reachable"
        if REQUIRED:
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def postgres() -> None:
    _need("DATABASE_URL", 5432)
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("DATABASE_URL does not point at PostgreSQL")


@pytest.fixture
def redis_layer() -> None:
    _need("REDIS_URL", 6379)
    from django.conf import settings

    backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
    if "channels_redis" not in backend:
        pytest.skip("the channel layer is not Redis")

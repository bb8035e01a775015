"""What ``/healthz`` checks: the services a server process needs, each asked once."""

from __future__ import annotations

import asyncio
import logging

from channels.layers import get_channel_layer
from django.db import connection

from games import broadcast

log = logging.getLogger(__name__)

WAIT_S = 1.0  # for the channel layer: within the health check's own 3 s


def down() -> list[str]:
    """The names of the services this process cannot reach now: "database", "channel
    layer"; none when all answer."""
    return [
        name for name, up in (("database", database_up), ("channel layer", layer_up)) if not up()
    ]


def database_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        log.warning("health check: the database does not answer", exc_info=True)
        return False
    return True


def layer_up() -> bool:
    """Whether the channel layer takes a message (Redis's, published to a group nobody
    is in; the in-memory one always does)."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        broadcast.run_on_server_loop(_send, layer, timeout=WAIT_S + 1)
    except Exception:
        log.warning("health check: the channel layer does not answer", exc_info=True)
        return False
    return True


async def _send(layer) -> None:
    await asyncio.wait_for(layer.group_send("healthz", {"type": "healthz"}), WAIT_S)

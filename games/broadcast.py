"""Tells every browser at a table that the game changed: "game X is now at version V".

Called from ``transaction.on_commit``: a message is only sent for a change that
is in the database. Consumers answer it by rendering each viewer's partials.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.exceptions import ChannelFull
from channels.layers import get_channel_layer

log = logging.getLogger(__name__)


def group_name(code: str) -> str:
    return f"game.{code}"


def game_changed(code: str, version: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            group_name(code), {"type": "game.changed", "version": version}
        )
    except ChannelFull:
        # The action is already committed; a browser that misses this update sees
        # the version gap on the next one and resynchronises.
        log.warning("channel full: update %s of game %s not sent", version, code)

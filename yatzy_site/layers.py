"""The embedded default's channel layer: Channels' in-memory layer, cleaned less often
and sending to a group without a task per member.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group
membership for expired entries on each ``receive`` and ``group_send``. Every open
socket waits in ``receive`` and calls it again after each message, so with
thousands of sockets each message cost a walk over thousands of entries: a
reconnect storm of 2,000 browsers at a table of 4,000 spent its time there. The
same cleaning, done at most once a second, keeps what it guarantees (messages
expire after ``expiry`` seconds, memberships after ``group_expiry``) at a
second's more slack.

Its ``group_send`` made a task for each member of the group, each of which put the
message in the member's queue, and waited for them with ``as_completed``: several
turns of the event loop, and four tasks for a 4-seat table, to do what takes none
(``send`` never waits; a full queue raises at once). A move's update reached its
sockets that many turns later; it is now in their queues when ``group_send``
returns (docs/performance.md, round 7).
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer


class ThrottledInMemoryChannelLayer(InMemoryChannelLayer):
    clean_every = 1.0  # seconds

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_every:
            return
        self._cleaned_at = now
        super()._clean_expired()

    async def group_send(self, group: str, message: dict) -> None:
        """As Channels' ``group_send``: the message to every member, a member whose queue
        is full skipped; with no task and no wait."""
        self.send_to_group(group, message)

    def send_to_group(self, group: str, message: dict) -> None:
        """``group_send`` from synchronous code on the loop's thread (the move that
        commits on it, ``games/broadcast.py``): every member has the message in its
        queue when this returns."""
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            with contextlib.suppress(ChannelFull):
                self._put(channel, message)

    async def send(self, channel: str, message: dict) -> None:
        self._put(channel, message)

    def _put(self, channel: str, message: dict) -> None:
        """Channels' ``send``, which never waits, as a plain function."""
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, _copy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None


_FLAT = (str, int, float, bool, type(None))


def _copy(message: dict) -> dict:
    """What ``send`` queues: a copy, so that no receiver sees another's changes. The
    site's notices hold only strings and numbers, for which a copy of the dict is a
    deep copy (``copy.deepcopy`` of one cost ~1 % of a move, once per socket)."""
    if all(type(value) in _FLAT for value in message.values()):
        return dict(message)
    return copy.deepcopy(message)

"""The channel layer of the embedded default: one process's channels and groups, in memory.

It keeps the contract of Channels' ``InMemoryChannelLayer`` (the channel layer
specification's ``send``/``receive``/``new_channel`` and its ``groups`` and ``flush``
extensions; a message not received within ``expiry`` seconds is dropped and its
channel leaves every group; a group membership older than ``group_expiry`` ends; a
full channel refuses ``send`` with ``ChannelFull`` and is passed over by
``group_send``), written so that what each call costs does not grow with the sockets
the process holds. That one walks every channel and every group member on each
``receive`` and ``group_send``, and sends to a group through a task per member: with
thousands of sockets at one table each push cost the square of their number, and a
reconnect storm of 2,000 of 4,000 watchers took two minutes to resync
(docs/performance.md, "Load").

Here a channel's expired messages are dropped when its queue is next touched, a
group's old memberships when the group is next sent to, and everything else once per
``expiry`` seconds, in one pass (the messages of channels whose consumers have ended).
A message is copied once per ``group_send``, not once per member: its receivers get a
dict of their own, whose values they share and must not change (the site's consumers
only read what they are sent).
"""

from __future__ import annotations

import asyncio
import copy
import secrets
import time
from collections import deque
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer


class Channel:
    """A channel's messages, oldest first, each with the time it expires; and the
    receivers waiting for the next one."""

    __slots__ = ("messages", "waiting")

    def __init__(self) -> None:
        self.messages: deque[tuple[float, dict[str, Any]]] = deque()
        self.waiting: deque[asyncio.Future[dict[str, Any]]] = deque()

    def drop_expired(self, now: float) -> bool:
        """Drop the messages expired by ``now``; whether there were any."""
        expired = False
        while self.messages and self.messages[0][0] < now:
            self.messages.popleft()
            expired = True
        return expired


class LocalChannelLayer(BaseChannelLayer):
    extensions = ["groups", "flush"]

    def __init__(
        self,
        expiry: int = 60,
        group_expiry: int = 86400,
        capacity: int = 100,
        channel_capacity: dict[str, int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            expiry=expiry, capacity=capacity, channel_capacity=channel_capacity, **kwargs
        )
        self.group_expiry = group_expiry
        self.channels: dict[str, Channel] = {}
        self.groups: dict[str, dict[str, float]] = {}  # group: {channel: when it joined}
        self.memberships: dict[str, set[str]] = {}  # channel: the groups it is in
        self.next_sweep = time.time() + expiry

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        now = time.time()
        self._sweep_if_due(now)
        if not self._deliver(channel, copy.deepcopy(message), now):
            raise ChannelFull(channel)

    async def receive(self, channel: str) -> dict[str, Any]:
        """The next message on ``channel``, once there is one."""
        self.require_valid_channel_name(channel)
        now = time.time()
        self._sweep_if_due(now)
        queue = self.channels.setdefault(channel, Channel())
        if queue.drop_expired(now):
            self._leave_groups(channel)
        if queue.messages:
            _expires, message = queue.messages.popleft()
            self._forget_if_idle(channel, queue)
            return message
        waiter: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        queue.waiting.append(waiter)
        try:
            return await waiter
        except asyncio.CancelledError:
            if waiter.done() and not waiter.cancelled():
                # handed a message as its consumer ended: the channel's next receiver has it
                queue.messages.appendleft((time.time() + self.expiry, waiter.result()))
            raise
        finally:
            if waiter in queue.waiting:
                queue.waiting.remove(waiter)
            if self.channels.get(channel) is queue:
                self._forget_if_idle(channel, queue)

    async def new_channel(self, prefix: str = "specific.") -> str:
        return f"{prefix}.inmemory!{secrets.token_urlsafe(9)}"

    async def group_add(self, group: str, channel: str) -> None:
        self.require_valid_group_name(group)
        self.require_valid_channel_name(channel)
        self.groups.setdefault(group, {})[channel] = time.time()
        self.memberships.setdefault(channel, set()).add(group)

    async def group_discard(self, group: str, channel: str) -> None:
        self.require_valid_channel_name(channel)
        self.require_valid_group_name(group)
        self._discard(group, channel)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        now = time.time()
        self._sweep_if_due(now)
        members = self.groups.get(group)
        if not members:
            return
        message = copy.deepcopy(message)
        joined_since = now - self.group_expiry
        for channel, joined in list(members.items()):
            if joined < joined_since:
                self._discard(group, channel)
                continue
            self._deliver(channel, dict(message), now)  # a full channel is passed over

    async def flush(self) -> None:
        for queue in self.channels.values():
            for waiter in queue.waiting:
                waiter.cancel()
        self.channels = {}
        self.groups = {}
        self.memberships = {}

    async def close(self) -> None:
        """Nothing to close: the layer is this process's memory."""

    def _deliver(self, channel: str, message: dict[str, Any], now: float) -> bool:
        """Hand ``message`` to a receiver waiting on ``channel``, else queue it; False
        if the channel is full."""
        queue = self.channels.setdefault(channel, Channel())
        if queue.drop_expired(now):
            self._leave_groups(channel)
        while queue.waiting:
            waiter = queue.waiting.popleft()
            if not waiter.done():
                waiter.set_result(message)
                return True
        if len(queue.messages) >= self.get_capacity(channel):
            return False
        queue.messages.append((now + self.expiry, message))
        return True

    def _forget_if_idle(self, channel: str, queue: Channel) -> None:
        if not queue.messages and not queue.waiting:
            self.channels.pop(channel, None)

    def _discard(self, group: str, channel: str) -> None:
        members = self.groups.get(group)
        if members is not None:
            members.pop(channel, None)
            if not members:
                del self.groups[group]
        groups = self.memberships.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self.memberships[channel]

    def _leave_groups(self, channel: str) -> None:
        """A message on ``channel`` expired unread: its receiver is gone, and the
        channel leaves its groups (as the specification has it)."""
        for group in list(self.memberships.get(channel, ())):
            self._discard(group, channel)

    def _sweep_if_due(self, now: float) -> None:
        """Once per ``expiry`` seconds: drop every expired message (those of channels
        whose receivers have ended are touched by nothing else), and the channels
        left with nothing."""
        if now < self.next_sweep:
            return
        self.next_sweep = now + self.expiry
        for channel, queue in list(self.channels.items()):
            if queue.drop_expired(now):
                self._leave_groups(channel)
            self._forget_if_idle(channel, queue)

"""The embedded default's channel layer: Channels' in-memory layer, cleaned less often.

Channels' ``InMemoryChannelLayer`` looks through every channel and every group
membership for expired entries on each ``receive`` and ``group_send``. Every open
socket waits in ``receive`` and calls it again after each message, so with
thousands of sockets each message cost a walk over thousands of entries: a
reconnect storm of 2,000 browsers at a table of 4,000 spent its time there. The
same cleaning, done at most once a second, keeps what it guarantees (messages
expire after ``expiry`` seconds, memberships after ``group_expiry``) at a
second's more slack.
"""

from __future__ import annotations

import time

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

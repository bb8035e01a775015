"""``Bounded``: a dict that keeps its most recently written entries, for the caches one
server process keeps (tables, scorecards, games read for its browsers)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(OrderedDict[K, V], Generic[K, V]):
    """At most ``size`` entries; writing one makes it the newest, and the oldest go."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def __setitem__(self, key: K, value: V) -> None:
        super().__setitem__(key, value)
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)

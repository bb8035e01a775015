"""``Bounded``: a dict that keeps its most recently written entries, for the caches one
server process keeps (the table's rendered parts, the last table of each game)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Bounded(OrderedDict[K, V], Generic[K, V]):
    """At most ``size`` entries; writing one makes it the newest, and the oldest go.
    Writes are locked: the threads of several requests write at once (a read is one
    step of the dict, whole under the interpreter's lock)."""

    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size
        self._lock = threading.Lock()

    def __setitem__(self, key: K, value: V) -> None:
        with self._lock:
            super().__setitem__(key, value)
            self.move_to_end(key)
            while len(self) > self.size:
                self.popitem(last=False)

    def made(self, key: K, make: Callable[[], V]) -> V:
        """``self[key]``, made by ``make`` and kept the first time it is asked for (two
        threads that both miss it make it both: the same value, one of them kept)."""
        value = self.get(key)
        if value is None:
            value = self[key] = make()
        return value

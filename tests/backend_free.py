"""What differs between the suite's two runs (SQLite and the in-memory channel layer,
then PostgreSQL and Redis) is the database, the caches, the channel layer and the
sessions on them, and the DATABASE_URL and REDIS_URL a process started by a test would
inherit. A test that asks for none of them (no ``db`` nor ``transactional_db``, no
``backends`` mark) is marked ``backend_free`` and runs with none at hand: pytest-django
refuses it the database, and ``no_backends`` takes the addresses out of its environment
and puts caches and a channel layer in place that fail on any use. It runs the same in
both runs, so CI's second run leaves it out (``-m "not backend_free"``, .ci/run).

A test that needs one of them without a database (a server started on its own, a
cache of its own) says so with ``@pytest.mark.backends``.
"""

from __future__ import annotations

from typing import Any, NoReturn

from channels.layers import BaseChannelLayer
from django.core.cache.backends.base import BaseCache

WHY = "a test marked backend_free used {what}: mark it backends (tests/backend_free.py)"


def refuse(what: str) -> NoReturn:
    raise AssertionError(WHY.format(what=what))


class RefusingCache(BaseCache):
    """A cache that fails on any use."""

    def __init__(self, location: str, params: dict[str, Any]) -> None:
        super().__init__(params)

    def add(self, *args: Any, **kwargs: Any) -> NoReturn:
        refuse("a cache")

    get = set = touch = delete = has_key = clear = get_many = set_many = delete_many = add
    incr = decr = add


class RefusingChannelLayer(BaseChannelLayer):
    """A channel layer that fails on any use."""

    async def send(self, *args: Any, **kwargs: Any) -> NoReturn:
        refuse("the channel layer")

    receive = new_channel = group_add = group_discard = group_send = flush = send


CACHES = {name: {"BACKEND": "tests.backend_free.RefusingCache"} for name in ("default", "limits")}
CHANNEL_LAYERS = {"default": {"BACKEND": "tests.backend_free.RefusingChannelLayer"}}

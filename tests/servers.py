"""Real server processes for tests, sharing the test run's database (and Redis)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

from bench.clients import Browser
from bench.servers import Server, free_port

__all__ = ["Server", "database_url_of_this_run", "free_port", "new_game", "two_processes"]


def database_url_of_this_run() -> str:
    """DATABASE_URL pointing at the database this test run created."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


@contextlib.contextmanager
def two_processes(**env: str) -> Iterator[list[Server]]:
    """The site as two named server processes (web1, web2) on this run's database, with
    ``env`` besides; stopped when done."""
    env = {"DATABASE_URL": database_url_of_this_run(), "LOG_LEVEL": "WARNING", **env}
    started = [
        Server({**env, "YATZY_PROCESS": name}, through_serve=True).start()
        for name in ("web1", "web2")
    ]
    try:
        yield started
    finally:
        for server in started:
            server.stop()


async def new_game(host: Browser, invites: int, **options: str) -> str:
    """A game ``host`` (who has loaded a page: the CSRF cookie) creates: its code."""
    created = await host.http.post(
        "/games/new/",
        data={
            "csrfmiddlewaretoken": host.http.cookies["csrftoken"],
            "name": "Alice",
            "ruleset": "yatzy",
            "invites": str(invites),
            "teams": "0",
            "upper_bonus": "50",
            **options,
        },
    )
    return created.headers["location"].split("/")[2]

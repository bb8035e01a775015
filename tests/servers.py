"""Real server processes for tests, sharing the test run's database (and Redis)."""

from __future__ import annotations

import os
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

from bench.servers import Server, free_port

__all__ = ["Server", "database_url_of_this_run", "free_port"]


def database_url_of_this_run() -> str:
    """DATABASE_URL pointing at the database this test run created."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))

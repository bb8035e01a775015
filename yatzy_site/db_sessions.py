"""The sessions' store with Redis: Django's database sessions, which take no session key
that Django could not have made (``yatzy_site.sessions``)."""

from __future__ import annotations

from django.contrib.sessions.backends.db import SessionStore as DbStore

from yatzy_site.sessions import checked


class SessionStore(DbStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(checked(session_key))

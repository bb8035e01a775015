"""The sessions' store: Django's cached database sessions (the embedded default), which
take no session key that Django could not have made; ``yatzy_site.db_sessions`` is the
same over the database alone (with Redis: sessions must not depend on it).

A cookie can carry any key, a NUL included (a quoted cookie's ``\\000`` is read as
one), and PostgreSQL refuses a query holding a NUL: the page answered 500. A key of
other characters than those Django makes its keys of, or longer than the table's
column, is no session, as an unknown key is: the browser is given a new one.
"""

from __future__ import annotations

from django.contrib.sessions.backends.base import VALID_KEY_CHARS
from django.contrib.sessions.backends.cached_db import SessionStore as CachedDbStore

KEY_CHARACTERS = frozenset(VALID_KEY_CHARS)
LONGEST_KEY = 40  # django_session.session_key


def checked(key: str | None) -> str | None:
    """``key``, or None (a new session) where Django could not have made it."""
    if key and len(key) <= LONGEST_KEY and KEY_CHARACTERS.issuperset(key):
        return key
    return None


class SessionStore(CachedDbStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(checked(session_key))

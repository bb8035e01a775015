"""Who is looking: a browser id and the seat tokens its session holds.

The browser id lives in the (year-long) session and marks the games this browser
took part in ("My games"); a seat's secret token in the session is what lets a
browser act for that seat. The same session reaches HTTP views and WebSockets.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Collection, Iterable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

BROWSER_KEY = "browser_id"
TOKENS_KEY = "seat_tokens"
NAME_KEY = "player_name"  # the name this browser last played under
# The most seat tokens a session keeps: a browser at more seats than that at once (a
# dozen full tables at its screen) gets the oldest back from the seats' own record of
# their browser, as it opens their table (``services.claim_seats_of_browser``).
MAX_SEAT_TOKENS = 200


@dataclass(frozen=True)
class Viewer:
    """Who is asking: their browser's id and the seat tokens their session holds."""

    browser_id: str
    tokens: frozenset[str] = field(default_factory=frozenset)


def viewer_from_session(session: MutableMapping[str, Any]) -> Viewer:
    """The viewer of ``session``, giving the browser an id on its first visit."""
    browser_id = session.get(BROWSER_KEY)
    if not browser_id:
        browser_id = secrets.token_urlsafe(16)
        session[BROWSER_KEY] = browser_id
    return Viewer(browser_id=browser_id, tokens=frozenset(session.get(TOKENS_KEY, [])))


def peek_viewer(session: MutableMapping[str, Any]) -> Viewer:
    """The viewer of ``session`` without writing to it (for WebSockets)."""
    return Viewer(
        browser_id=session.get(BROWSER_KEY, ""),
        tokens=frozenset(session.get(TOKENS_KEY, [])),
    )


def remember_seats(
    session: MutableMapping[str, Any],
    tokens: Iterable[str],
    in_play: Callable[[list[str]], Collection[str]],
) -> None:
    """Add ``tokens`` to the session's, which keeps of those it knew only the ones
    ``in_play`` still finds at a table, and at most ``MAX_SEAT_TOKENS``, the newest:
    a browser that played thousands of games made every page slower to read."""
    known = list(session.get(TOKENS_KEY, []))
    new = [token for token in dict.fromkeys(tokens) if token not in known]
    if not new:
        return
    playing = in_play(known) if known else ()
    session[TOKENS_KEY] = ([token for token in known if token in playing] + new)[-MAX_SEAT_TOKENS:]

"""Which requests count against the limits (``LIMITED``, by their view's URL name),
what they count as (``counted``: their browser's and their address's limits,
``games.limits``), and the 429 page of one over them (``too_many``). The door in
front of Django's handler (``yatzy_site.door``) asks these before any of the site's
work: no session read, no CSRF check, no view.

A new kind of request to limit is its views' URL names here, with the kind's rates in
``settings.YATZY_RATES``.
"""

from __future__ import annotations

import math

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse
from django.utils import translation
from django.utils.translation import ngettext

from games import language, limits
from games.views.access import in_place_of_the_page

POST = frozenset({"POST"})
LOOK = frozenset({"GET", "HEAD"})
# The requests limited, by their view's URL name: (kind, methods counted). Pages only
# looked at are not (the proxy limits those): joining is taking a seat, not its page.
LIMITED: dict[str, tuple[str, frozenset[str]]] = {
    "create_game": ("create", POST),
    "play_again": ("create", POST),
    "quick_play": ("create", POST),  # a press may make a table
    "quick_computer": ("create", POST),
    "join": ("join", POST),
    "take_open_seat": ("join", POST),  # a seat at an open table
    "rejoin": ("join", LOOK | POST),  # the page that asks, and the seat taken
    **{
        name: ("move", POST)
        for name in (
            *("roll", "hold", "declare", "score"),
            *("start", "open_room", "leave", "remove_seat"),
            *("skip_turn", "hand_to_bot", "take_back"),
        )
    },
    "hint": ("move", LOOK),  # the coach's advice is worked out anew each time
    "react": ("react", POST),  # a quick reaction, shown on every page at the table
    # an account made, a password reset mail sent (failed log-ins: players/views.py)
    "signup": ("account", POST),
    "password_reset": ("account", POST),
}


def kind_of(request: HttpRequest) -> str | None:
    """The kind of limit ``request`` counts against, if any."""
    if not settings.YATZY_LIMITS:
        return None
    try:
        match = resolve(request.path_info)
    except Resolver404:
        return None
    kind, methods = LIMITED.get(match.url_name or "", ("", frozenset()))
    if request.method not in methods:
        return None  # refused by the view as a method it does not take, or not limited
    request.resolver_match = match
    return kind


def counted(request: HttpRequest, kind: str) -> limits.Refusal | None:
    browser = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    return limits.check(kind, browser, request.META.get("REMOTE_ADDR"))


def too_many(request: HttpRequest, refusal: limits.Refusal) -> HttpResponse:
    """429, in the page's language, with when to try again (also in ``Retry-After``)
    and the way back to the table the request was about. A page of its own, with no
    form (no CSRF token to make) and no session: it costs next to nothing. An htmx
    request gets it in place of the page, as every refusal made before a view."""
    wait = refusal.retry_after
    code = request.resolver_match.kwargs.get("code") if request.resolver_match else None
    chosen = language.asked_for(request) or translation.get_language_from_request(request)
    with translation.override(chosen):
        context = {
            "message": wait_message(wait),
            "back": reverse("table", args=[code]) if code else "",
        }
        response = render(request, "games/too_many.html", context, status=429)
    response["Retry-After"] = str(wait)
    return in_place_of_the_page(request, response)


def wait_message(seconds: int) -> str:
    if seconds < 60:
        return ngettext(
            "Too many requests from your browser or your network just now:"
            " try again in %(count)s second.",
            "Too many requests from your browser or your network just now:"
            " try again in %(count)s seconds.",
            seconds,
        ) % {"count": seconds}
    minutes = math.ceil(seconds / 60)
    return ngettext(
        "Too many requests from your browser or your network just now:"
        " try again in %(count)s minute.",
        "Too many requests from your browser or your network just now:"
        " try again in %(count)s minutes.",
        minutes,
    ) % {"count": minutes}

"""Small helpers shared by the views: who is asking, which game, what they sent."""

from __future__ import annotations

import functools
import re
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.backends.utils import csrf_input
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext_lazy as _
from django.views import defaults
from django_htmx.middleware import HtmxDetails
from redis.exceptions import RedisError

from games import broadcast, services
from games.errors import ActionError
from games.models import Game
from games.rendering import page_context, render_answer, render_table
from games.tableview import me, rejoin_links
from games.viewer import Viewer, peek_viewer, remember_seats, viewer_from_session

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

# A version or a position: far below a billion, and below the database's integers
MAX_DIGITS = 9
SMALL_WHOLE_NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")


class HtmxHttpRequest(HttpRequest):
    """A request as the views see it: ``HtmxMiddleware`` has read htmx's headers into
    ``request.htmx`` (for the type checker; the request is Django's own)."""

    htmx: HtmxDetails


class BadForm(ActionError):
    status = 400
    code = "bad_form"


# Refusals made before any view looks at a game
WRONG_METHOD = _(
    "This address does not take that kind of request: use the site's links and buttons."
)
EXPIRED = _(
    "This page has expired (or your browser did not send its cookies): reload it and try again."
)
UNREADABLE = _(
    "Your browser sent something this site cannot read. Go back, reload the page and try again."
)
NOTHING_HERE = _("There is nothing at this address. Check the link, or start a new game.")
PAUSED = _(
    "Live updates are paused for a moment, and this could not be done meanwhile. Nothing"
    " was changed: try again in a few seconds."
)
RETRY_AFTER_S = 5


def allow(*methods: str) -> Callable:
    """Django's ``require_http_methods``, with a page that says what went wrong rather
    than an empty one."""

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def checked(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method not in methods:
                response = _refused(request, 405, WRONG_METHOD)
                response["Allow"] = ", ".join(methods)
                return response
            return view(request, *args, **kwargs)

        return checked

    return decorator


require_GET = allow("GET", "HEAD")
require_POST = allow("POST")


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """``CSRF_FAILURE_VIEW``: a form from a page older than the browser's session."""
    return _refused(request, 403, EXPIRED)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler400``: a request Django could not read (too many fields, too large)."""
    return _refused(request, 400, UNREADABLE)


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: an address that is none of the site's."""
    return _refused(request, 404, NOTHING_HERE)


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: an exception no view answered. One of Redis's (down, or out of
    reach: the live updates' service) is said as such, with 503 and when to try again;
    any other is Django's own 500 page."""
    if isinstance(sys.exc_info()[1], RedisError):
        response = _refused(request, 503, PAUSED)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
    return defaults.server_error(request)


def _refused(request: HttpRequest, status: int, message: StrOrPromise) -> HttpResponse:
    return error_page(request, ActionError(message, status=status))


def viewer_of(request: HttpRequest) -> Viewer:
    return viewer_from_session(request.session)


def viewer_looking(request: HttpRequest) -> Viewer:
    """The viewer of a page that only shows: a browser on its first visit gets no id,
    and no session is stored for it (every cookie-less page load made a session row,
    kept for a year)."""
    return peek_viewer(request.session)


def remember(request: HttpRequest, tokens: list[str]) -> None:
    """Put the seats of ``tokens`` in the browser's session, which forgets those of
    games long over (``services.tokens_in_play``)."""
    remember_seats(request.session, tokens, services.tokens_in_play)


def int_field(request: HttpRequest, name: str) -> int:
    """A small whole number from the POST (a version, a position), or a clear refusal.
    Only ASCII digits, at most ``MAX_DIGITS`` of them: ``int`` also reads a sign, spaces,
    underscores, the digits of other scripts and numbers too large for the database
    (``str.isdigit`` is no guard: it takes a superscript two, which ``int`` refuses)."""
    value = request.POST.get(name, "")
    if not SMALL_WHOLE_NUMBER.fullmatch(value):
        if name == "version":
            raise BadForm(
                _("This page is missing what it needs to act: reload the table and try again.")
            )
        raise BadForm(_("That request was malformed: reload the table and try again."))
    return int(value)


def viewer_at(request: HttpRequest, game: Game) -> Viewer:
    """The viewer, holding every seat of ``game`` that their browser owns."""
    viewer = viewer_of(request)
    missing = services.claim_seats_of_browser(game, viewer)
    if missing:
        remember(request, missing)
        viewer = viewer_of(request)
    return viewer


def table_response(
    request: HtmxHttpRequest, game: Game, viewer: Viewer, status: int = 200, **extra
) -> HttpResponse:
    """The table for ``viewer``: the partial for htmx, the whole page otherwise. A game
    still in its lobby has no table yet: a move there (a forged or very old page) is
    answered with its refusal on a page of its own."""
    if game.status == Game.Status.LOBBY:
        message = extra.get("message") or _("The game has not started yet.")
        return _refused(request, status if status >= 400 else 409, message)
    if request.htmx:
        if status == 200 and not any(extra.values()):
            # a move's answer is the table its commit published (the bytes every browser
            # at the table is sent); a table asked for again is rendered for the asking
            return HttpResponse(broadcast.answer_of(game) or render_table(game))
        return HttpResponse(render_answer(game, **extra), status=status)
    context = page_context(game, viewer, me(game, viewer), csrf_input(request), **extra)
    context["page"] = broadcast.new_page_id()
    context["server_now_ms"] = int(time.time() * 1000)  # timer.js: the browser's clock's error
    if game.status == Game.Status.PLAYING:  # to go on on another device
        context["rejoin_links"] = rejoin_links(game, viewer, request, game.all_seats())
    response = render(request, "games/table.html", context, status=status)
    # A page restored from the browser's cache (a duplicated tab, back and forward)
    # would carry the id of a page still open, whose moves its socket is not sent.
    add_never_cache_headers(response)
    return response


def error_page(request: HttpRequest, error: ActionError, back: str = "") -> HttpResponse:
    """The refusal on a page of its own, with the way ``back`` to the game if there is
    one. An htmx request gets it in place of the whole page, not of the part of it that
    asked (a table, a lobby), which it has no place in."""
    context = {"message": error.message, "back": back}
    return in_place_of_the_page(
        request, render(request, "games/error.html", context, status=error.status)
    )


def in_place_of_the_page(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response``, a page of its own, told to htmx to take the whole page's place
    when an htmx request asked. Read from the headers: some requests are refused
    (a Host Django does not serve, a limit passed) before the middleware that reads
    them into ``request.htmx`` has run."""
    if HtmxDetails(request):
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    return response

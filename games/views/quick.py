"""Quick play's pages: the home page's "Play someone now" (``press``), the waiting page
(``waiting``), and its ways out: the computer instead, or no game at all."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.errors import ActionError
from games.forms import NewGameForm
from games.services import local_tokens, quick
from games.tableview import RULESET_NAMES, quick_counts
from games.views import daily
from games.views.access import (
    error_page,
    remember,
    require_GET,
    require_POST,
    viewer_looking,
    viewer_of,
)
from games.views.home import home_context

# the waiting page offers the computer again after this long with nobody come
NOBODY_FOR_S = 30


@require_POST
def press(request: HttpRequest) -> HttpResponse:
    """The home page's "Play someone now" (or the waiting page's other rule set): to
    the table if a stranger was waiting, else to the waiting page. A refusal (no name,
    a rule set the site has not) is the home page again, saying why."""
    name, ruleset = request.POST.get("name", ""), request.POST.get("ruleset", "")
    try:
        pressed = quick.press(viewer_of(request), name, ruleset)
    except ActionError as error:
        form = NewGameForm(initial={"name": name, "ruleset": ruleset})
        context = {**home_context(request, form), "quick_refusal": error.message}
        return render(request, "games/home.html", context, status=error.status)
    daily.remember_name(request, name)
    if pressed.game is not None:
        return redirect("table", pressed.game.code)
    return redirect("quick_wait")


@require_GET
def waiting(request: HttpRequest) -> HttpResponse:
    """The waiting page: live (static/js/quick.js, over its socket), and reloading
    itself every few seconds without JavaScript. Once a stranger's press has seated
    this browser, the table."""
    viewer = viewer_looking(request)
    seek = quick.seek_of(viewer)
    if seek is not None and seek.game is not None:
        game = quick.table_found(seek, seek.seen_at)
        if game is not None:
            return redirect("table", game.code)
        seek = None  # a table found long ago: this browser waits for nothing now
    if seek is None:
        return render(request, "games/quick.html", {"seek": None}, status=200)
    waited = (seek.seen_at - seek.waiting_since).total_seconds()
    context = {
        "seek": seek,
        "ruleset_name": RULESET_NAMES.get(seek.ruleset, seek.ruleset),
        "counts": quick_counts(quick.counts(), seek.ruleset),
        "waited_s": int(waited),
        "nobody_for_s": NOBODY_FOR_S,
        "nobody_yet": waited >= NOBODY_FOR_S,
    }
    return render(request, "games/quick.html", context)


@require_POST
def play_the_computer(request: HttpRequest) -> HttpResponse:
    viewer = viewer_of(request)
    try:
        game = quick.play_the_computer(viewer, request.POST.get("ruleset", ""))
    except ActionError as error:
        return error_page(request, error)
    remember(request, local_tokens(game, viewer))
    return redirect("table", game.code)


@require_POST
def stop_waiting(request: HttpRequest) -> HttpResponse:
    quick.leave(viewer_of(request))
    return redirect("home")

"""The Open tables page: the rooms open to anyone that wait for players
(``games.open_tables``), live over its socket (``games.list_socket``,
static/js/live-list.js), and a seat at one in one click (``take_open_seat``)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import names, open_tables, services
from games.errors import ActionError
from games.views import daily
from games.views.access import remember, require_GET, require_POST, viewer_of


def page_context(name: str, message: str = "") -> dict:
    return {
        "rows": open_tables.rows(list(open_tables.listed())),
        "name": name,
        "name_limits": names.FIELD_LIMITS,
        "message": message,
    }


@require_GET
def tables(request: HttpRequest) -> HttpResponse:
    context = page_context(daily.remembered_name(request))
    return render(request, "games/open_tables.html", context)


@require_POST
def take_open_seat(request: HttpRequest) -> HttpResponse:
    """The page's form: a name, and the room whose Join was pressed (``code``). To the
    room's lobby; a refusal (the room filled, started or closed meanwhile, a name taken
    there, none given) is the page again, saying why, the name kept."""
    name, code = request.POST.get("name", ""), request.POST.get("code", "")
    try:
        seat = services.join(code, viewer_of(request), name, stranger=True)
    except ActionError as error:
        context = page_context(name, error.message)
        return render(request, "games/open_tables.html", context, status=error.status)
    daily.remember_name(request, name)
    remember(request, [seat.token])
    return redirect("lobby", code)

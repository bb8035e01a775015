"""The Watch page: the games being played that anyone may watch (``games.watching``),
live over its socket (``games.list_socket``, static/js/live-list.js)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from games import watching
from games.views.access import require_GET


@require_GET
def watch(request: HttpRequest) -> HttpResponse:
    return render(request, "games/watch.html", {"rows": watching.rows(list(watching.listed()))})

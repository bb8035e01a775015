from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games import services
from games.errors import ActionError
from games.forms import NewGameForm
from games.models import Game
from games.viewer import remember_seats
from games.views.access import require_GET, require_POST, viewer_of
from games.views.history import in_progress


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    context = {"form": NewGameForm(), "in_progress": in_progress(viewer_of(request))}
    return render(request, "games/home.html", context)


@require_POST
def create_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return render(request, "games/home.html", {"form": form}, status=400)
    viewer = viewer_of(request)
    data = form.cleaned_data
    try:
        game = services.create_game(
            viewer,
            ruleset=data["ruleset"],
            options=data["options"],
            seats=form.seat_specs(),
            public=data["public"],
            coach=data["coach"],
        )
    except ActionError as error:
        form.add_error(None, str(error.message))
        return render(request, "games/home.html", {"form": form}, status=error.status)
    remember_seats(request.session, services.local_tokens(game, viewer))
    game.refresh_from_db()
    if game.status == Game.Status.LOBBY:
        return redirect("lobby", game.code)
    return redirect("table", game.code)

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language_info, gettext
from django.views import i18n

from games import services
from games.errors import ActionError
from games.forms import NewGameForm
from games.models import Game
from games.views import daily
from games.views.access import (
    error_page,
    remember,
    require_GET,
    require_POST,
    viewer_looking,
    viewer_of,
)
from games.views.history import in_progress


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(initial={"name": daily.remembered_name(request)})
    context = {"form": form, "in_progress": in_progress(viewer_looking(request))}
    return render(request, "games/home.html", {**context, **daily.daily_choices(request)})


@require_POST
def create_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        context = {"form": form, **daily.daily_choices(request)}
        return render(request, "games/home.html", context, status=400)
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
            computer_pace=data["computer_pace"],
            turn_seconds=data["turn_seconds"],
        )
    except ActionError as error:
        form.add_error(None, str(error.message))
        context = {"form": form, **daily.daily_choices(request)}
        return render(request, "games/home.html", context, status=error.status)
    daily.remember_name(request, data["name"])
    remember(request, services.local_tokens(game, viewer))
    game.refresh_from_db()
    if game.status == Game.Status.LOBBY:
        return redirect("lobby", game.code)
    return redirect("table", game.code)


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's language switch, which says so when it is asked for a language the site
    does not speak, instead of carrying on in the old one without a word."""
    if request.POST.get("language") not in dict(settings.LANGUAGES):
        names = ", ".join(get_language_info(code)["name_local"] for code, _ in settings.LANGUAGES)
        message = gettext("This site is in %(languages)s only: choose one from the list.")
        return error_page(request, ActionError(message % {"languages": names}, status=400))
    return i18n.set_language(request)

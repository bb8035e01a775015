from __future__ import annotations

from dataclasses import replace

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import get_language_info, gettext
from django.views import i18n

from games import rules, services, watching
from games.errors import ActionError
from games.forms import RULESET_CHOICES, NewGameForm
from games.models import BOT_LEVELS, Game
from games.strategy.bots import perfect_plays_as_good
from games.strategy.variant import Variant
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

# The computer's strength last chosen in this browser, offered again on its next visit
BOT_LEVEL_KEY = "bot_level"


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    initial = {"name": daily.remembered_name(request)}
    if request.session.get(BOT_LEVEL_KEY) in BOT_LEVELS:
        initial["bot_level"] = request.session[BOT_LEVEL_KEY]
    return render(request, "games/home.html", home_context(request, NewGameForm(initial=initial)))


def home_context(request: HttpRequest, form: NewGameForm) -> dict:
    """The home page's, with ``form``: its form, the games this browser is playing,
    the daily challenge."""
    return {
        "form": form,
        "in_progress": in_progress(viewer_looking(request)),
        # one game being played that anyone may watch, the latest started
        "watch_one": watching.rows(list(watching.listed()[:1])),
        **_choices(request),
    }


def _choices(request: HttpRequest) -> dict:
    """What the home page offers besides its form: the daily challenge, and the rules
    without perfect play (``unsolved``)."""
    return {"unsolved": unsolved(), **daily.daily_choices(request)}


def unsolved() -> list[str]:
    """The solver's names (``Variant.name``) of the whole games the New game form can
    ask for whose perfect play this site has not worked out and will not by itself
    (``perfect_plays_as_good``: "not built"; whole Maxi Yatzy games unless built by
    hand): home.js offers no Perfect computer nor the coach for them, instead of a
    table that then plays without. Forced order and upper section only are solved
    on the spot when asked for: never among them."""
    plain = rules.TableOptions()
    choices = {
        "yatzy": [replace(plain, upper_bonus=50), replace(plain, upper_bonus=25)],
        "yahtzee": [plain, replace(plain, yahtzee_bonus=False)],
    }
    names = []
    for ruleset, _name in RULESET_CHOICES:
        for options in choices.get(ruleset, [plain]):
            for declared in (False, True):
                table = replace(options, declared_target=declared)
                if perfect_plays_as_good(ruleset, table) == "not built":
                    names.append(Variant.of(ruleset, table).name)
    return names


@require_POST
def create_game(request: HttpRequest) -> HttpResponse:
    form = NewGameForm(request.POST)
    if not form.is_valid():
        context = {"form": form, **_choices(request)}
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
            watchable=data["watchable"],
            open_to_anyone=data["open_to_anyone"],
        )
    except ActionError as error:
        form.add_error(None, str(error.message))
        context = {"form": form, **_choices(request)}
        return render(request, "games/home.html", context, status=error.status)
    daily.remember_name(request, data["name"])
    if data["bots"]:
        request.session[BOT_LEVEL_KEY] = data["bot_level"]
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

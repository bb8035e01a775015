"""The pages of accounts: signing up and logging in (Django's own auth views do the rest
under /accounts/: log out, change and reset a password), the profile and its
visibility, the rating's explanation, the data download and the account's deletion.

The log-in is Django's, counted: after too many failures for one username or from one
address it answers 429 until the window ends."""

from __future__ import annotations

import math
import re
from typing import Any

from django import forms
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.views import LoginView
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games import clock, limits
from games.errors import ActionError
from games.models import storable
from games.viewer import BROWSER_KEY
from games.views.access import allow, error_page, require_GET, require_POST
from players import data, rating
from players import profile as profile_data
from players.accounts import player_of
from players.forms import SignupForm
from players.models import Player, new_browser_id


@allow("GET", "HEAD", "POST")
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, which takes this browser's browser id as its own: the games,
    seats and daily attempts this browser holds are the account's at once."""
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(request.POST if request.method == "POST" else None)
    if form.is_valid():
        with transaction.atomic():
            user = form.save()
            browser_id = request.session.get(BROWSER_KEY, "")
            if not browser_id or Player.objects.filter(browser_id=browser_id).exists():
                browser_id = new_browser_id()  # a deactivated account's session kept its id
            Player.objects.create(user=user, browser_id=browser_id)
        login(request, user)
        return redirect("home")
    return render(request, "registration/signup.html", {"form": form})


class CountedLoginView(LoginView):
    """Django's log-in, refused with 429 past the failures allowed (``limits.failed``)."""

    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        refusal = limits.failures_over("login", self._who())
        if refusal is not None:
            return too_many_failures(request, refusal)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form) -> HttpResponse:
        limits.failed("login", self._who())
        return super().form_invalid(form)

    def _who(self) -> dict[str, str | None]:
        return {
            "username": self.request.POST.get("username", ""),
            "address": self.request.META.get("REMOTE_ADDR"),
        }


def too_many_failures(request: HttpRequest, refusal: limits.Refusal) -> HttpResponse:
    """429 with when to try again: the same answer whether or not the username is
    anyone's (it says nothing of which count was passed)."""
    minutes = math.ceil(refusal.retry_after / 60)
    message = ngettext(
        "Too many failed log-ins for this username or from your network: try again in"
        " %(count)s minute.",
        "Too many failed log-ins for this username or from your network: try again in"
        " %(count)s minutes.",
        minutes,
    ) % {"count": minutes}
    response = render(request, "games/error.html", {"message": message}, status=429)
    response["Retry-After"] = str(refusal.retry_after)
    return response


NO_PROFILE = _("There is no public profile at this address.")


@require_GET
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's numbers: to its owner always, to everyone else once made public. A
    private profile and a username nobody has get the same answer."""
    player = (
        Player.objects.filter(user__username=username, user__is_active=True)
        .select_related("user")
        .first()
        if storable(username)
        else None
    )
    own = player is not None and request.user.is_authenticated and player.user == request.user
    if player is None or not (own or player.public):
        return error_page(request, ActionError(NO_PROFILE, status=404))
    context = {
        "player": player,
        "username": player.user.get_username(),
        "own": own,
        "stats": profile_data.stats(player),
        "last_games": profile_data.last_games(player),
        "opponents": profile_data.head_to_head(player),
        "streak": profile_data.day_streak(player, clock.today()),
        "fewest": rating.FEWEST,
        "window": rating.WINDOW,
    }
    return render(request, "players/profile.html", context)


@login_required
@require_POST
def visibility(request: HttpRequest) -> HttpResponse:
    """Make the profile public, or private again (field ``public``: "1" or "0")."""
    player = player_of(request.user)
    player.public = request.POST.get("public") == "1"
    player.save(update_fields=["public"])
    return redirect("profile", request.user.get_username())


@require_GET
def rating_explained(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "players/rating.html",
        {"fewest": rating.FEWEST, "window": rating.WINDOW, "trend_from": rating.TREND_FROM},
    )


@login_required
@require_GET
def download(request: HttpRequest) -> HttpResponse:
    """Everything the site keeps about the account, as a JSON file."""
    player = player_of(request.user)
    response = JsonResponse(data.everything_about(player), json_dumps_params={"indent": 2})
    name = re.sub(r"[^A-Za-z0-9_.-]", "_", request.user.get_username())
    response["Content-Disposition"] = f'attachment; filename="yatzy-{name}.json"'
    return response


class DeleteForm(forms.Form):
    password = forms.CharField(label=_("Your password"), widget=forms.PasswordInput)

    def __init__(self, user: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."))
        return password


@login_required
@allow("GET", "HEAD", "POST")
def delete(request: HttpRequest) -> HttpResponse:
    """Delete the account, once its password is given again."""
    form = DeleteForm(request.user, request.POST if request.method == "POST" else None)
    if form.is_valid():
        user = User.objects.get(username=request.user.get_username())
        logout(request)
        data.delete_account(user)
        return render(request, "registration/deleted.html")
    return render(request, "registration/delete.html", {"form": form})

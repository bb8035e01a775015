"""Signing up and logging in. Django's own auth views do the rest under /accounts/
(log out, change and reset a password); the log-in is theirs, counted: after too many
failures for one username or from one address it answers 429 until the window ends."""

from __future__ import annotations

import math

from django.contrib.auth import login
from django.contrib.auth.views import LoginView
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import ngettext

from games import limits
from games.viewer import BROWSER_KEY
from games.views.access import allow
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
            browser_id = request.session.get(BROWSER_KEY) or new_browser_id()
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

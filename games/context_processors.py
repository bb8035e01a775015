"""What every full page's template may ask of its request."""

from __future__ import annotations

from functools import partial

from django.http import HttpRequest
from django.urls import Resolver404, resolve, reverse


def language_next(request: HttpRequest) -> dict:
    """``language_next``: where the language form sends the browser back to, worked out
    only if a page asks. A page shown for a GET is shown again; a page shown for a
    form's POST (the new-game form with an error, a refusal) is an address that takes
    only POSTs, so the browser goes to the game's table or, for no game, the home page,
    instead of to a page that says the address does not take that request."""
    return {"language_next": partial(_language_next, request)}


def _language_next(request: HttpRequest) -> str:
    if request.method in ("GET", "HEAD"):
        return request.get_full_path()
    try:
        code = resolve(request.path_info).kwargs.get("code")
    except Resolver404:
        code = None
    return reverse("table", args=[code]) if code else reverse("home")

"""A page of its own in place of the whole page, for htmx requests too.

Kept apart from ``games.views.access``, which reads games: the limits' middleware
(``games.views.limiting``) uses it, and a stack with the site's middleware and no
``games`` app (bench/stock.py) imports that middleware.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django_htmx.middleware import HtmxDetails


def in_place_of_the_page(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response``, a page of its own, told to htmx to take the whole page's place
    when an htmx request asked. Read from the headers: some requests are refused
    (a Host Django does not serve, a limit passed) before the middleware that reads
    them into ``request.htmx`` has run."""
    if HtmxDetails(request):
        response["HX-Retarget"] = "body"
        response["HX-Reswap"] = "innerHTML"
    return response

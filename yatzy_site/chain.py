"""The end of the site's middleware chain, where Django's handler switches mode once.

Under ASGI, Django runs each middleware in the mode it declares (``sync_capable`` /
``async_capable``) and adapts between neighbours that differ, each adaptation a trip
between the event loop and the sync thread. WhiteNoise's middleware is sync only, so
the chain cannot be async throughout; left to itself Django then runs the middleware
above WhiteNoise sync and those below it async, each hook of those (Django's own
middleware are each a ``MiddlewareMixin``) a trip of its own: a dozen trips a request.

``sync_chain``, last in ``MIDDLEWARE``, is sync only and does nothing else: every
middleware above it runs sync too, in one trip to the sync thread for the whole
chain, and the views are sync already (docs/performance.md).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


def sync_chain(
    get_response: Callable[[HttpRequest], HttpResponse],
) -> Callable[[HttpRequest], HttpResponse]:
    """The chain below (the view): Django has made it sync for this middleware."""
    return get_response

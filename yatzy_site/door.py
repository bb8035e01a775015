"""The limits at the door: an HTTP request over its limits (``games.views.limiting``)
is answered with the 429 page before Django's handler takes it, after a pause.

Before Django's handler, because the handler sends every request's
``request_started`` and ``request_finished`` signals, whose receivers (the database's
connection upkeep) are synchronous: each request, refused or not, took two trips to
the process's one sync thread, where every table's moves wait their turn. After a
pause (``YATZY_REFUSAL_DELAY_MS``, a second), because a client that asks again as soon
as it is answered is then held to a request a second per connection, instead of
taking the process's time from the tables. bench/flood.py measures both
(docs/performance.md).

The 429 is timed, counted and logged as every answer is (``monitoring.observe``), and
carries the security headers every answer does: Django's own middleware for them
(security, clickjacking, Content-Security-Policy) is run on it (``guarded``).
Sockets are counted where they connect (``games.consumers``), and refused with 4429.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Awaitable, Callable
from typing import Any

import django
from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.clickjacking import XFrameOptionsMiddleware
from django.middleware.security import SecurityMiddleware

from games.views.limiting import counted, kind_of, too_many
from yatzy_site import monitoring
from yatzy_site.origins import ASGIApp

Send = Callable[[dict[str, Any]], Awaitable[None]]


def at_the_door(app: ASGIApp) -> ASGIApp:
    """``app`` (Django's ASGI handler), each HTTP request counted against its limits
    first and refused there if it is over one."""

    async def door(scope: dict[str, Any], receive: Any, send: Send) -> None:
        if scope["type"] == "http" and settings.YATZY_LIMITS:
            refused = await refusal(scope)
            if refused is not None:
                await answer(send, refused)
                return
        await app(scope, receive, send)

    return door


async def refusal(scope: dict[str, Any]) -> HttpResponse | None:
    """The 429 page for a request over its limits; None for any other."""
    request = ASGIRequest(scope, io.BytesIO())  # its headers: the body is not read
    began = monitoring.started(request)
    kind = kind_of(request)
    if kind is None:
        return None
    if isinstance(caches["limits"], LocMemCache):  # counts in this process's memory
        over = counted(request, kind)
    else:  # Redis: off the event loop
        over = await sync_to_async(counted, thread_sensitive=False)(request, kind)
    if over is None:
        return None
    await asyncio.sleep(settings.YATZY_REFUSAL_DELAY_MS / 1000)
    response = guarded(request, too_many(request, over))
    monitoring.observe(request, response, began)
    return response


def guarded(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """``response`` with the headers Django's security, clickjacking and (Django 6)
    Content-Security-Policy middleware give every answer the handler makes: those
    middleware themselves, with ``response`` as what they wrap."""
    guards = [SecurityMiddleware, XFrameOptionsMiddleware]
    if django.VERSION >= (6, 0):
        from django.middleware.csp import ContentSecurityPolicyMiddleware

        guards.append(ContentSecurityPolicyMiddleware)
    chain: Any = lambda request: response  # noqa: E731
    for guard in guards:
        chain = guard(chain)
    return chain(request)


async def answer(send: Send, response: HttpResponse) -> None:
    headers = [
        (name.encode("latin-1"), value.encode("latin-1")) for name, value in response.items()
    ]
    await send({"type": "http.response.start", "status": response.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": response.content})

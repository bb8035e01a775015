"""Middleware that does something before a request and something after its response,
sync or async as the chain below it is (Django's ``sync_and_async_middleware``), so
that it costs an async chain no trip to a thread."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar, cast

from asgiref.sync import iscoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils.decorators import sync_and_async_middleware

Kept = TypeVar("Kept")
GetResponse = Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]


def around(
    before: Callable[[HttpRequest], Kept],
    after: Callable[[HttpRequest, HttpResponse, Kept], None],
) -> Callable[[GetResponse], Callable[[HttpRequest], object]]:
    """The middleware that calls ``before(request)``, then the chain below it, then
    ``after(request, response, what before returned)``."""

    @sync_and_async_middleware
    def middleware(get_response: GetResponse):
        if iscoroutinefunction(get_response):

            async def async_middleware(request: HttpRequest) -> HttpResponse:
                kept = before(request)
                response = await get_response(request)
                after(request, response, kept)
                return response

            return async_middleware

        # not a coroutine function: a plain response comes back
        sync_get_response = cast(Callable[[HttpRequest], HttpResponse], get_response)

        def sync_middleware(request: HttpRequest) -> HttpResponse:
            kept = before(request)
            response = sync_get_response(request)
            after(request, response, kept)
            return response

        return sync_middleware

    return middleware

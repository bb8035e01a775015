"""Django's ASGI handler with the whole request on one thread hop.

Django's stock ASGI handler builds an asynchronous middleware chain. Our
middleware and views are synchronous, so every middleware step of every request
crosses between the event loop and the request's thread: about sixteen hops a
request, each of which waits its turn on a busy event loop. Here the synchronous
chain (the one WSGI uses) runs in a single ``sync_to_async`` call: the loop
reads the request and writes the response, the thread does everything between.
"""

from __future__ import annotations

import django
from asgiref.sync import sync_to_async
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler
from django.http import HttpRequest, HttpResponseBase


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        return await sync_to_async(self.get_response, thread_sensitive=True)(request)


def get_asgi_application() -> OneHopASGIHandler:
    django.setup(set_prefix=False)
    return OneHopASGIHandler()

"""Django's ASGI handler with the whole request's synchronous work in one piece.

Django's stock ASGI handler builds an asynchronous middleware chain. Our
middleware and views are synchronous, so every middleware step of every request
crosses between the event loop and a thread: about sixteen hops a request, each
of which waits its turn on a busy event loop. It also gives every request its own
``ThreadSensitiveContext``, that is a new thread per request, and with it a new
database connection per request (connections belong to a thread).

Here the synchronous chain (the one WSGI uses), with the ``request_started`` and
``request_finished`` signals around it, runs in one piece where the process does its
synchronous work: on the event loop's own thread on SQLite (``inline``), or in a
single ``sync_to_async`` call on the process's one sync thread, the thread the
WebSocket consumers' database work runs on too. Either way one persistent
connection, no new threads, and the work of the process done in arrival order. The
loop reads the request and writes the response. Before a request starts, the
updates of the moves already made are sent (``broadcast.delivered``): on the loop a
request holds it until it ends. Streaming responses (static files) are read a block at
a time where the synchronous work is done, and closed after they are sent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import closing

import django
from asgiref.sync import sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse, HttpResponseBase
from django.urls import set_script_prefix

from yatzy_site import inline


class OneHopASGIHandler(ASGIHandler):
    def __init__(self) -> None:
        base.BaseHandler.__init__(self)
        self.load_middleware(is_async=False)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        with closing(body_file):
            set_script_prefix(get_script_prefix(scope))
            # The moves made before this request reach their browsers first.
            from games.broadcast import delivered  # an app's: importable once set up

            await delivered()
            response = await _sync(self._respond, scope, body_file)
            if response.streaming and not response.is_async:
                # Django would read it all in one go on another thread, with a warning.
                response.streaming_content = _in_blocks(response.streaming_content)
            await self.send_response(response, send)
            if response.streaming:
                await _sync(response.close)

    def _respond(self, scope: dict, body_file) -> HttpResponseBase:
        """Everything between reading the request and writing the response."""
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            response = self.get_response(request)
            # django-htmx's details hold their request: a reference cycle each request,
            # which took the request and all it held (session, body, forms) to the
            # garbage collector. Broken here, they are freed as the request ends.
            request.__dict__.pop("htmx", None)
        response._handler_class = self.__class__
        if isinstance(response, FileResponse):
            response.block_size = self.chunk_size
        if not response.streaming:
            response.close()  # sends request_finished; the content is already in memory
        return response


async def _sync(func, *args):
    """``func(*args)`` where the process does its synchronous work: on the loop's own
    thread (``inline``, the embedded default) or in one hop to the sync thread."""
    if inline.enabled():
        return inline.call(func, *args)
    return await sync_to_async(func, thread_sensitive=True)(*args)


async def _in_blocks(blocks: Iterator[bytes]) -> AsyncIterator[bytes]:
    """A synchronous iterator's blocks (a file's), each read by ``_sync``: a block in
    memory at a time."""
    while (block := await _sync(next, blocks, None)) is not None:
        yield block


def get_asgi_application() -> OneHopASGIHandler:
    django.setup(set_prefix=False)
    return OneHopASGIHandler()

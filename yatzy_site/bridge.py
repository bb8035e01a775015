"""Django's WSGI handler served over ASGI: asgiref's ``WsgiToAsgi``, with the length of
a request's body said to it.

A WSGI request reads as much of its body as ``CONTENT_LENGTH`` says, and
``WsgiToAsgi`` takes that from the request's Content-Length header. A request sent
without one (its body chunked) would reach Django empty: its form lost. Such a body is
read whole here first, at most ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a larger one is
answered 413, as Django would refuse it), and its length said.

Each request runs in a context of its own (``contextvars``): ``WsgiToAsgi`` sends the
response from the sync thread through ``AsyncToSync``, which marks the context its
send runs in as that thread's; a next request that daphne starts from within that
send (a connection kept alive) inherited the mark, and its own trip to the thread
failed once the first request's thread work was over ("CurrentThreadExecutor already
quit", a 500).
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.wsgi import WsgiToAsgi
from django.conf import settings
from django.core.wsgi import get_wsgi_application

Receive = Callable[[], Awaitable[dict[str, Any]]]
Send = Callable[[dict[str, Any]], Awaitable[None]]


def django_over_asgi() -> Callable[[dict[str, Any], Receive, Send], Awaitable[None]]:
    """Django's WSGI handler as an ASGI application for HTTP."""
    app = WsgiToAsgi(get_wsgi_application())

    async def bridge(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        await asyncio.create_task(whole(scope, receive, send), context=contextvars.Context())

    async def whole(scope: dict[str, Any], receive: Receive, send: Send) -> None:
        if any(name == b"content-length" for name, _value in scope["headers"]):
            await app(scope, receive, send)
            return
        parts: list[bytes] = []
        size, more = 0, True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            parts.append(message.get("body", b""))
            size += len(parts[-1])
            more = message.get("more_body", False)
            if size > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
                await send({"type": "http.response.start", "status": 413, "headers": []})
                await send({"type": "http.response.body", "body": b"Request body too large"})
                return
        length = (b"content-length", str(size).encode())
        whole = {"type": "http.request", "body": b"".join(parts)}
        replayed = False

        async def body_then_receive() -> dict[str, Any]:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return whole

        await app({**scope, "headers": [*scope["headers"], length]}, body_then_receive, send)

    return bridge

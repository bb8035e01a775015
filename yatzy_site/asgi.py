"""ASGI entry point: HTTP goes to Django, WebSockets to the table consumers.

HTTP runs through Django's WSGI handler behind asgiref's ``WsgiToAsgi``
(``yatzy_site/bridge.py``): a request's whole synchronous work (the middleware, the
view, the transaction, the one rendering of a move's table) in one trip to asgiref's
sync thread, where Django's ASGI handler made one per middleware hook and a thread of
its own per request (docs/performance.md measures both). Every request then shares
that one thread with the sockets' database work (``database_sync_to_async``): as a
WSGI worker process would, one request at a time.
"""

from __future__ import annotations

import gc
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yatzy_site.settings")

from yatzy_site.bridge import django_over_asgi

django_app = django_over_asgi()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games import broadcast  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from yatzy_site.door import at_the_door  # noqa: E402
from yatzy_site.origins import same_origin_only  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": at_the_door(django_app),  # the limits first (yatzy_site/door.py)
        # from the site's own pages only: scheme, host and port (yatzy_site/origins.py)
        "websocket": same_origin_only(SessionMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)


async def application(scope: dict, receive, send) -> None:
    """The site, on the event loop that serves this process: known to ``broadcast``,
    which schedules delayed notices and computer players' steps on it."""
    broadcast.served_here()
    await router(scope, receive, send)


# What is loaded by now lives as long as the process: keep it out of the garbage
# collector's full passes, which under load come every few seconds and stop the
# whole server while they walk every object (docs/performance.md, round 4).
gc.freeze()

"""ASGI entry point: HTTP goes to Django, WebSockets to the table consumers.

HTTP runs through Django's ASGI handler, which gives each request's synchronous work
(the middleware chain, in one trip: ``yatzy_site/chain.py``; the view) a thread of its
own, so a slow request (a review's analysis, a computer player's step) holds up no
other. Django's WSGI handler behind asgiref's ``WsgiToAsgi`` costs 7 % less a move, but
runs every request in asgiref's one sync thread, one at a time, and was taken out:
page loads waited 30 s behind it in the browser tests (docs/performance.md).
"""

from __future__ import annotations

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yatzy_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import SessionMiddlewareStack  # noqa: E402

from games import broadcast  # noqa: E402
from games.routing import websocket_urlpatterns  # noqa: E402
from yatzy_site.door import at_the_door  # noqa: E402
from yatzy_site.origins import same_origin_only  # noqa: E402

router = ProtocolTypeRouter(
    {
        "http": at_the_door(django_asgi_app),  # the limits first (yatzy_site/door.py)
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

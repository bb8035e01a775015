"""The stock Django stack: the bare stack's fan-out behind Django's own ASGI handler.

``POST /act/<table>/<version>`` goes through the site's middleware (sessions, CSRF,
locale, htmx...) to a view that sends "version V" to the table's group, as the bare
stack does, with no database and no rendering. What this costs over the bare stack is
the least any Django view of the site pays for a move; ``bench.servercost`` counts it
to show how much of the site's cost is the stack's own.

    DJANGO_SETTINGS_MODULE=bench.stock_settings daphne bench.stock:application
"""

from __future__ import annotations

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.stock_settings")
django.setup()

from asgiref.sync import async_to_sync  # noqa: E402
from channels.layers import get_channel_layer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.http import HttpRequest, HttpResponse  # noqa: E402
from django.middleware.csrf import get_token  # noqa: E402
from django.urls import path  # noqa: E402
from django.views.decorators.http import require_POST  # noqa: E402

from bench.bare import BareConsumer, _update  # noqa: E402


def healthz(request: HttpRequest) -> HttpResponse:
    get_token(request)  # the CSRF cookie a browser posts back
    return HttpResponse("ok")


@require_POST
def act(request: HttpRequest, table: str, version: int) -> HttpResponse:
    async_to_sync(get_channel_layer().group_send)(
        f"bare.{table}", {"type": "game.changed", "version": version}
    )
    return HttpResponse(_update(version))


urlpatterns = [
    path("healthz", healthz),
    path("act/<str:table>/<int:version>", act),
]

application = ProtocolTypeRouter(
    {
        "http": get_asgi_application(),
        "websocket": URLRouter([path("ws/<str:table>/", BareConsumer.as_asgi())]),
    }
)

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from games.views.home import set_language
from yatzy_site import health, monitoring


def healthz(request: HttpRequest) -> HttpResponse:
    """For the container health checks: the process answers, and reaches its database
    and its channel layer; else 503, naming what it cannot reach."""
    down = health.down()
    if down:
        return HttpResponse(f"down: {', '.join(down)}", status=503, content_type="text/plain")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", monitoring.metrics, name="metrics"),  # to whom the settings name
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("players.urls")),
    path("", include("games.urls")),
]

# Refused before any view: in the site's own pages, which htmx puts in place of the page
handler400 = "games.views.access.bad_request"
handler404 = "games.views.access.not_found"
# An error no view answered: a 503 "live updates are paused" when Redis is out of reach
handler500 = "games.views.access.server_error"

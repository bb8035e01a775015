from __future__ import annotations

from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.urls import include, path

from games.views.home import set_language
from yatzy_site import monitoring


def healthz(request: HttpRequest) -> HttpResponse:
    """For the proxy and container health checks: the process answers and reaches its DB."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("metrics", monitoring.metrics, name="metrics"),  # to whom the settings name
    path("i18n/setlang/", set_language, name="set_language"),
    path("", include("games.urls")),
]

# Refused before any view: in the site's own pages, which htmx puts in place of the page
handler400 = "games.views.access.bad_request"
handler404 = "games.views.access.not_found"

"""What makes the site installable on a phone's home screen and say so when the network
is gone: the web app manifest, the service worker and the offline page it shows.

The manifest and the offline page are each one per language, at an address that names
it (``/manifest/fi.webmanifest``, ``/offline/fi/``): the page links the manifest of its
own language. The service worker (``/sw.js``) is one for every language: it keeps the
offline page in each, with the CSS and the icons it shows, and nothing else (no table,
no move), and shows the one of the language of the last page the site sent. A change
of language installs no new worker: the script is the same in every language."""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation
from django.utils.translation import get_language_info, gettext

from games.views.access import require_GET

# The site's green (--felt in static/css/site.css) and its paper (--paper), which the
# phone shows around the app and behind it while it starts
THEME_COLOUR = "#1f6f50"
BACKGROUND_COLOUR = "#fbfaf7"

ICONS = [
    {"src": "img/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "img/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "img/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    {
        "src": "img/icon-maskable-192.png",
        "sizes": "192x192",
        "type": "image/png",
        "purpose": "maskable",
    },
    {
        "src": "img/icon-maskable-512.png",
        "sizes": "512x512",
        "type": "image/png",
        "purpose": "maskable",
    },
]

# What the offline page shows besides itself, kept by the service worker
OFFLINE_PAGE_NEEDS = ["css/site.css", "img/favicon.svg", "img/icon.svg"]


def speak(request: HttpRequest, language: str) -> None:
    """Answer this request in ``language`` (which its response then says it is in), or
    with the 404 page if the site does not speak it."""
    if language not in dict(settings.LANGUAGES):
        raise Http404(language)
    translation.activate(language)
    request.LANGUAGE_CODE = language


@require_GET
def manifest(request: HttpRequest, language: str) -> HttpResponse:
    speak(request, language)
    content = {
        "id": "/",
        "lang": language,
        "dir": "rtl" if get_language_info(language)["bidi"] else "ltr",
        "name": gettext("Yatzy with friends"),
        "short_name": gettext("Yatzy"),
        "description": gettext(
            "Play Yatzy, Yahtzee or Maxi Yatzy with friends: at this screen, by invite "
            "link, or both."
        ),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": BACKGROUND_COLOUR,
        "icons": [{**icon, "src": static(icon["src"])} for icon in ICONS],
    }
    return JsonResponse(
        content,
        content_type="application/manifest+json",
        json_dumps_params={"ensure_ascii": False},
    )


def offline_page(language: str) -> str:
    with translation.override(language):
        return render_to_string("offline.html")


@require_GET
def offline(request: HttpRequest, language: str) -> HttpResponse:
    speak(request, language)
    return HttpResponse(offline_page(language))


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker, the same script whatever language the request is in."""
    offline_pages = {code: reverse("offline", args=[code]) for code, _name in settings.LANGUAGES}
    kept = [*offline_pages.values(), *(static(name) for name in OFFLINE_PAGE_NEEDS)]
    context = {
        "cache": json.dumps(cache_name()),
        "offline_pages": json.dumps(offline_pages),
        "default_language": json.dumps(settings.LANGUAGE_CODE),
        "precached": json.dumps(kept),
    }
    response = render(request, "sw.js", context, content_type="application/javascript")
    # a deploy's new worker is found at the next page the browser loads
    response["Cache-Control"] = "no-cache"
    return response


@functools.cache
def cache_name() -> str:
    """The name of the service worker's cache: a digest of all it keeps (the offline
    page in every language, the files it shows), so that a deploy that changes any of
    it changes the worker, whose cache then takes the old one's place."""
    digest = hashlib.sha256()
    for language, _name in settings.LANGUAGES:
        digest.update(offline_page(language).encode())
    for name in OFFLINE_PAGE_NEEDS:
        path = finders.find(name)
        if path is None:
            raise FileNotFoundError(f"the offline page needs static/{name}, which is missing")
        digest.update(static(name).encode())
        digest.update(Path(path).read_bytes())
    return f"yatzy-offline-{digest.hexdigest()[:16]}"

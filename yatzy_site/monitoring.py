"""What an operator watches: every request timed and counted (``timed``, the first
middleware), and ``/metrics``, the figures of this process in Prometheus' format
(``games/metrics.py``), for the addresses and the token the settings name only.

Anyone else asking for ``/metrics`` is answered as for an address the site does not
have (404): nobody outside learns that it is there. The address is ``REMOTE_ADDR``:
behind a proxy, with daphne's ``--proxy-headers``, the first address of
X-Forwarded-For, which must then be one the proxy wrote (docs/deploy.md).

The same middleware writes each request's access line (logger ``yatzy_site.access``:
text, or JSON under ``YATZY_LOG_FORMAT=json``), in place of daphne's, without the
secret part of a personal link (``logged_path``).
"""

from __future__ import annotations

import hmac
import ipaddress
import logging
import time

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from prometheus_client import REGISTRY
from prometheus_client.exposition import choose_encoder

from games.around import around
from games.metrics import HTTP_ERRORS, REQUEST_SECONDS

METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

access = logging.getLogger("yatzy_site.access")


def started(request: HttpRequest) -> float:
    return time.perf_counter()


def observe(request: HttpRequest, response: HttpResponse, began: float) -> None:
    """Time and count the request on /metrics (and log it, under JSON logs)."""
    seconds = time.perf_counter() - began
    view = view_name(request)
    method = request.method if request.method in METHODS else "other"
    status = response.status_code
    REQUEST_SECONDS.labels(view, method, f"{status // 100}xx").observe(seconds)
    if status >= 400:
        HTTP_ERRORS.labels(view, method, str(status)).inc()
    path = logged_path(request)
    access.info(
        "%s %s %s",
        method,
        path,
        status,
        extra={
            "method": method,
            "path": path,
            "status_code": status,
            "view": view,
            "duration_ms": round(seconds * 1000, 2),
            "client": request.META.get("REMOTE_ADDR", ""),
        },
    )


def logged_path(request: HttpRequest) -> str:
    """The request's path as the access log writes it: a personal link's seat token
    (``/g/<code>/seat/<token>/``), which lets whoever holds it play that seat, is not
    written, so that reading the logs gives no seat away."""
    match = request.resolver_match
    token = match.kwargs.get("token") if match is not None else None
    if not token:
        return request.path
    return request.path.replace(f"/{token}/", "/…/")


# every request timed and counted: the site's first middleware. The site's chain is
# synchronous (WhiteNoise's middleware is), and Django runs it in the server's sync
# thread, this one included.
timed = around(started, observe)


def view_name(request: HttpRequest) -> str:
    """The name of the view that answered (a URL's name in ``urls.py``, else its view's
    dotted path), a label of few values whatever the addresses asked for."""
    match = request.resolver_match
    if match is not None:
        return match.view_name
    return "static" if request.path.startswith(settings.STATIC_URL) else "unmatched"


def metrics(request: HttpRequest) -> HttpResponse:
    """This process's figures, in the format the scraper asks for (Prometheus' text or
    OpenMetrics); a 404 to anyone the settings do not name."""
    if not may_read(request):
        raise Http404
    encoder, content_type = choose_encoder(request.headers.get("Accept", ""))
    return HttpResponse(encoder(REGISTRY), content_type=content_type)


def may_read(request: HttpRequest) -> bool:
    """Whether the request carries the metrics token, or comes from an address that
    ``YATZY_METRICS_ALLOW`` lists."""
    token = settings.YATZY_METRICS_TOKEN
    if token:
        scheme, _, credentials = request.headers.get("Authorization", "").partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(
            credentials.strip().encode(), token.encode()
        ):
            return True
    try:
        address = ipaddress.ip_address(request.META.get("REMOTE_ADDR", ""))
    except ValueError:  # none, or a Unix socket's
        return False
    if address.version == 6 and address.ipv4_mapped:
        address = address.ipv4_mapped
    return any(address in network for network in settings.YATZY_METRICS_ALLOW)

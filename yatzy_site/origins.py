"""Which pages may open the site's WebSockets: the site's own, by scheme, host and port.

A browser opens a WebSocket from any page with the site's cookies, and says which
page's origin asked (the Origin header); a socket carries the table as its browser
sees it, so a page of any other origin, another port of the same host included, must
not get one. A socket is accepted from exactly the origins a form's POST is (Django's
CSRF check): the site's own, the scheme, host and port that the handshake's Host
header and the connection name (the host one of ALLOWED_HOSTS, the scheme https where
Django takes a request as secure: ``SECURE_PROXY_SSL_HEADER`` behind a proxy), or one
of ``CSRF_TRUSTED_ORIGINS``. Any other, or none, is refused at the handshake.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}


class Origin(NamedTuple):
    scheme: str
    host: str  # lower case, an IPv6 address without its brackets
    port: int


def parse_origin(text: str) -> Origin | None:
    """``text`` as an origin (``https://example.org:8443``), or ``None`` if it is none."""
    try:
        parts = urlsplit(text.strip().lower())
        port = parts.port
    except ValueError:  # a port out of range, a bracket left open
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname or parts.path not in ("", "/"):
        return None
    if parts.query or parts.fragment or parts.username is not None:
        return None
    return Origin(parts.scheme, parts.hostname, port or DEFAULT_PORTS[parts.scheme])


def header(scope: dict[str, Any], name: bytes) -> str:
    """The first ``name`` header of the handshake, as text ("" if none)."""
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin-1")
    return ""


def own_origin(scope: dict[str, Any]) -> Origin | None:
    """The site's origin as this handshake reached it, if its Host is one of the site's."""
    domain, port = split_domain_port(header(scope, b"host"))
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:  # as Django's own Host check
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    if not domain or not validate_host(domain, allowed):
        return None
    secure = scope.get("scheme") == "wss"
    if settings.SECURE_PROXY_SSL_HEADER:
        name, value = settings.SECURE_PROXY_SSL_HEADER
        wire = name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        secure = header(scope, wire).split(",")[0].strip() == value
    scheme = "https" if secure else "http"
    return Origin(scheme, domain.strip("[]"), int(port) if port else DEFAULT_PORTS[scheme])


def trusted(origin: Origin, pattern: str) -> bool:
    """Whether ``origin`` is the one of ``CSRF_TRUSTED_ORIGINS``' ``pattern``, whose
    host may begin with ``*.``: any subdomain, as Django's CSRF check reads it."""
    wildcard = "://*." in pattern
    wanted = parse_origin(pattern.replace("://*.", "://", 1))
    if wanted is None or (origin.scheme, origin.port) != (wanted.scheme, wanted.port):
        return False
    if wildcard:
        return is_same_domain(origin.host, "." + wanted.host)
    return origin.host == wanted.host


def allowed_origin(scope: dict[str, Any]) -> bool:
    origin = parse_origin(header(scope, b"origin"))
    if origin is None:
        return False
    if origin == own_origin(scope):
        return True
    return any(trusted(origin, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS)


ASGIApp = Callable[[dict[str, Any], Any, Any], Awaitable[None]]


def same_origin_only(application: ASGIApp) -> ASGIApp:
    """``application``'s WebSockets, for the site's own pages: any other is denied."""

    async def checked(scope: dict[str, Any], receive: Any, send: Any) -> None:
        if allowed_origin(scope):
            await application(scope, receive, send)
        else:
            await WebsocketDenier()(scope, receive, send)

    return checked

"""Tiny typed readers for settings from environment variables.

Each fails loudly, naming the variable, when a value is malformed or a required
one is missing: a misconfigured server should not start.
"""

from __future__ import annotations

import ipaddress
import os
import re
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None) -> str:
    value = os.environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    return value


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    lowered = value.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}.")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}.") from None


RATE = re.compile(r"(\d+)/(\d*)([smhd]?)")
PERIODS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def env_rate(name: str, default: str) -> tuple[int, int] | None:
    """A rate as ``count/period``: ``30/m``, ``600/h``, ``200/10m``, ``5/30`` (seconds);
    ``off`` for none. The (count, seconds) it allows, or None when off."""
    value = os.environ.get(name) or default
    if value.strip().lower() == "off":
        return None
    match = RATE.fullmatch(value.strip())
    seconds = int(match.group(2) or 1) * PERIODS[match.group(3)] if match else 0
    if match is None or int(match.group(1)) < 1 or seconds < 1:
        raise ImproperlyConfigured(
            f"{name} must be a rate such as 30/m, 600/h or 200/10m (or off), not {value!r}."
        )
    return int(match.group(1)), seconds


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """Comma-separated values; required when ``default`` is None."""
    value = os.environ.get(name)
    if value is None:
        if default is None:
            raise ImproperlyConfigured(f"Set the environment variable {name}.")
        return default
    items = [item.strip() for item in value.split(",") if item.strip()]
    if not items:
        raise ImproperlyConfigured(f"{name} must list at least one value, comma-separated.")
    return items


def env_networks(name: str) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    """Comma-separated addresses and networks (``127.0.0.1``, ``10.0.0.0/8``, ``::1``);
    none when unset or empty."""
    networks = []
    for item in os.environ.get(name, "").split(","):
        if item.strip():
            try:
                networks.append(ipaddress.ip_network(item.strip(), strict=False))
            except ValueError:
                raise ImproperlyConfigured(
                    f"{name} must list IP addresses or networks (10.0.0.0/8), not {item!r}."
                ) from None
    return networks


def database_from_url(name: str, url: str) -> dict[str, object]:
    """A Django DATABASES entry from ``postgres://user:password@host:port/dbname`` (its
    query parameters, ``?sslmode=require``, become connection options) or
    ``sqlite:///relative/path`` (``sqlite:////absolute/path``), read by dj-database-url."""
    scheme = urlsplit(url).scheme
    if scheme not in {"postgres", "postgresql", "sqlite"}:
        raise ImproperlyConfigured(
            f"{name} must start with postgres:// or sqlite://, not {scheme or url!r}."
        )
    try:
        entry: dict[str, Any] = dict(dj_database_url.parse(url))
    except ValueError as malformed:  # dj-database-url's ParseError: a bad port, say
        raise ImproperlyConfigured(f"{name} is malformed: {malformed}") from None
    if scheme == "sqlite":
        return sqlite_database(entry["NAME"])
    if not entry["NAME"]:
        raise ImproperlyConfigured(f"{name} must name a database: postgres://host/dbname.")
    # Under ASGI every request runs in a thread of its own, so a connection kept per
    # thread is never reused: Django's docs ask for its pool instead.
    entry["OPTIONS"] = {**entry.get("OPTIONS", {}), "pool": True}
    return entry


SQLITE_ENGINE = "yatzy_site.pooled_sqlite"


def sqlite_database(path: object) -> dict[str, object]:
    return {
        # Django's backend, its connections kept for the next request (the module says why)
        "ENGINE": SQLITE_ENGINE,
        "NAME": path,
        # WAL lets readers run beside the one writer; IMMEDIATE takes the write lock
        # when a transaction starts, so two moves queue instead of failing halfway
        # with "database is locked".
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        },
    }


def redis_url(name: str, url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
        raise ImproperlyConfigured(f"{name} must look like redis://host:6379/0.")
    return url

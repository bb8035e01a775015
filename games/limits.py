"""How often one browser and one address may do each kind of thing.

Each kind (``settings.YATZY_RATES``: creating games, joining, moves, reactions,
sockets) allows a number of requests in a window of time, counted twice: per browser
(its session cookie, as sent: a browser without one has only its address counted)
and per address (an IPv6 address by its /64, which one household or phone holds
whole). A request over either count is refused until that window ends, and says how
long that is. The counts live in Django's ``limits`` cache: the process's own memory
on the embedded default, Redis where several processes serve (every process sees the
same counts). A count is a window's key incremented (fixed windows: at a window's edge a
browser may briefly do up to twice the rate, which the generous rates allow for).

A store that fails (Redis gone) lets every request through and says so in the log,
at most once a minute: the limits keep the site up, they must not take it down.

A new kind of request gets its rates in ``YATZY_RATES`` and its views' URL names in
``games.views.limiting.LIMITED``; a socket counts with ``consumers.socket_refusal``.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)

# The clock the windows are counted by (the tests move it).
clock = time.time
_store_failed_at = -math.inf  # when a failing store was last logged


@dataclass(frozen=True)
class Refusal:
    """Over the limit of ``kind``, counted by ``counted`` ("browser" or "address"),
    until ``retry_after`` seconds from now."""

    kind: str
    counted: str
    retry_after: int


def check(kind: str, browser: str | None, address: str | None) -> Refusal | None:
    """Count one request of ``kind`` from ``browser`` (its session cookie) at ``address``;
    the refusal if that passes a limit, else None."""
    if not settings.YATZY_LIMITS:
        return None
    rates = settings.YATZY_RATES[kind]
    now = clock()
    refusal = None
    for counted, who in (("browser", browser), ("address", network_of(address))):
        rate = rates[counted]
        if rate is None or not who:
            continue
        allowed, seconds = rate
        window = int(now // seconds)
        digest = hashlib.blake2b(who.encode(), digest_size=12).hexdigest()
        count = _count(f"{kind}:{counted}:{digest}:{window}", seconds)
        if count > allowed and refusal is None:
            retry_after = max(1, math.ceil((window + 1) * seconds - now))
            refusal = Refusal(kind, counted, retry_after)
    return refusal


def failed(kind: str, who: dict[str, str | None]) -> None:
    """Count one failure of ``kind`` (a log-in) for each of ``who`` (counted by: a
    username, an address), by ``settings.YATZY_FAILURE_RATES``."""
    if not settings.YATZY_LIMITS:
        return
    for _allowed, key, seconds in _failure_keys(kind, who):
        _count(key, seconds)


def failures_over(kind: str, who: dict[str, str | None]) -> Refusal | None:
    """The refusal if the failures of ``kind`` counted for any of ``who`` have passed
    their limit in the window now, else None. Counts nothing: a right answer after too
    many wrong ones is refused too, or trying on would cost nothing."""
    if not settings.YATZY_LIMITS:
        return None
    now = clock()
    for allowed, key, seconds in _failure_keys(kind, who):
        try:
            count = caches["limits"].get(key, 0)
        except (RedisError, OSError):
            _log_store_failure()
            return None
        if count >= allowed:
            window = int(now // seconds)
            return Refusal(kind, "failures", max(1, math.ceil((window + 1) * seconds - now)))
    return None


def _failure_keys(kind: str, who: dict[str, str | None]) -> list[tuple[int, str, int]]:
    """(the failures allowed, the key of its count in the window now, the window's seconds) for
    each of ``who`` with a rate and a value: a username counted whatever its case,
    an address by its network (``network_of``)."""
    now = clock()
    keys = []
    for counted, value in who.items():
        rate = settings.YATZY_FAILURE_RATES[kind][counted]
        value = network_of(value) if counted == "address" else (value or "").casefold()
        if rate is None or not value:
            continue
        seconds = rate[1]
        digest = hashlib.blake2b(value.encode(), digest_size=12).hexdigest()
        keys.append((rate[0], f"{kind}-failed:{counted}:{digest}:{int(now // seconds)}", seconds))
    return keys


def network_of(address: str | None) -> str:
    """What an address is counted as: itself, or for IPv6 its /64 (a household's or a
    phone's share, every address of which is theirs). '' when there is none."""
    if not address:
        return ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address  # a unix socket's or a test's name: counted as it is
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # an IPv4 client of a dual-stack socket
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _count(key: str, seconds: int) -> int:
    """Add one to ``key``'s count, which lives until its window ends; the new count (0 if
    the store failed: then nothing is limited)."""
    store = caches["limits"]
    try:
        try:
            return store.incr(key)
        except ValueError:  # the window's first request
            if store.add(key, 1, timeout=seconds + 1):
                return 1
            return store.incr(key)  # another request added it first
    except (RedisError, OSError):  # Redis gone or slow: all go through meanwhile
        _log_store_failure()
        return 0


def _log_store_failure() -> None:
    global _store_failed_at
    now = time.monotonic()
    if now - _store_failed_at >= 60:
        _store_failed_at = now
        logger.warning("the limits' store fails: nothing is limited meanwhile", exc_info=True)

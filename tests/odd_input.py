"""What an attacker, a broken client or a fuzzer sends, as hypothesis strategies, and
the site's every address: the requests of the tests that no input gets a 5xx
(tests/web/test_any_input.py, tests/ws/test_any_socket.py, and on PostgreSQL
tests/postgres_redis/test_postgres_input.py).

Values are bytes, percent-encoded where they go: so a request can carry what no
browser's form sends (a NUL, bytes that are no UTF-8, a surrogate's encoding).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote_from_bytes

from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import strategies as st

# Each a case that broke something once, or that a number or a name reader may trip on
TRICKY = [
    "",
    "0",
    "1",
    "²",  # str.isdigit says yes, int says no
    "٣",  # an Arabic-Indic three: int reads it
    "١٢",
    "𝟙",
    "-1",
    "+1",
    " 1",
    "1_0",
    "1e3",
    "0x1",
    "NaN",
    "9" * 40,
    "9" * 5000,  # beyond int()'s 4300 digits
    "\x00",
    "a\x00b",
    "\u202e",
    "\ufeff",
    "chance",
    "yatzy",
    "ones",
    "good",
    "perfect",
    "on",
    "fi",
    "public",
    "//evil.example",
    "http://evil.example/",
    "<script>alert(1)</script>",
    "'; DROP TABLE games_game; --",
    "a" * 300,
]
RAW = [b"\xed\xa0\x80", b"\xff\xfe", b"\xc0\xaf", b"%", b"%zz", b"\x00\x00"]

odd_bytes = st.one_of(
    st.sampled_from(TRICKY).map(str.encode),
    st.sampled_from(RAW),
    st.text(max_size=24).map(lambda text: text.encode("utf-8", "surrogatepass")),
    st.integers().map(lambda number: str(number).encode()),
    st.binary(max_size=16),
)

# The fields any of the site's forms and queries read, and one none does
FIELDS = [
    "version",
    "held",
    "die",
    "category",
    "confirm",
    "name",
    "level",
    "seat",
    "language",
    "next",
    "tab",
    "rules",
    "player",
    "page",
    "step",
    "ruleset",
    "players",
    "invites",
    "teams",
    "csrfmiddlewaretoken",
    "unknown",
]

METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH", "TRACE", "FOO"]

BAD_HOSTS = [
    "elsewhere.example",
    "",
    "localhost:99999999",
    "[::1",
    "a b",
    "évil.example",
    "x" * 300,
    "testserver\x00",
    "testserver:80:80",
    "testserver@evil.example",
]


def encoded(value: bytes) -> str:
    return quote_from_bytes(value, safe="")


def form(pairs: list[tuple[str, bytes]]) -> str:
    """``pairs`` as an urlencoded body or query string, each value percent-encoded."""
    return "&".join(f"{name}={encoded(value)}" for name, value in pairs)


form_pairs = st.lists(st.tuples(st.sampled_from(FIELDS), odd_bytes), max_size=6)


@dataclass(frozen=True)
class Route:
    name: str
    parts: tuple[str, ...]  # the pattern, split at its parameters: text, name, text, ...


def _walk(patterns: list, prefix: str = "") -> Iterator[tuple[str, str]]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield str(pattern.name), prefix + str(pattern.pattern)


def every_route() -> list[Route]:
    """Every address of the site, from its URLconf: a new one is fuzzed as it is added."""
    routes = []
    for name, pattern in _walk(get_resolver().url_patterns):
        parts: list[str] = []
        rest = pattern
        while "<" in rest:
            before, _, after = rest.partition("<")
            parameter, _, rest = after.partition(">")
            parts += [before, parameter.rpartition(":")[2]]
        parts.append(rest)
        routes.append(Route(name, tuple(parts)))
    return routes


def path_of(route: Route, values: dict[str, bytes]) -> str:
    """The path of ``route`` with each parameter's value percent-encoded in its place."""
    pieces = [
        encoded(values[part]) if index % 2 else part for index, part in enumerate(route.parts)
    ]
    return "/" + "".join(pieces)

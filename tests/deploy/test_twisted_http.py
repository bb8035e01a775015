"""The workaround in twisted's HTTP server (yatzy_site/twisted_http.py): the same
answers, parsed once per distinct Content-Type."""

from __future__ import annotations

from twisted.web import http

from yatzy_site import twisted_http

HEADERS = [
    b"application/x-www-form-urlencoded",
    b"application/x-www-form-urlencoded; charset=UTF-8",
    b"Multipart/Form-Data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
    b"text/plain",
    b"nonsense",
]


def test_the_site_keeps_the_parsers_answers_and_they_are_the_same() -> None:
    import yatzy_site.asgi  # noqa: F401  (installs it, as daphne loads the site)

    parse = http._parseContentType
    assert hasattr(parse, "cache_info")
    assert [parse(h) for h in HEADERS] == [parse.__wrapped__(h) for h in HEADERS]


def test_a_header_seen_before_is_not_parsed_again() -> None:
    twisted_http.install()
    twisted_http.install()  # a second call changes nothing
    parse = http._parseContentType
    parse.cache_clear()

    for _ in range(20):
        parse(b"application/x-www-form-urlencoded")

    assert (parse.cache_info().misses, parse.cache_info().hits) == (1, 19)
    assert not hasattr(parse.__wrapped__, "cache_info")

"""A workaround in twisted's HTTP server, which daphne serves every request through.

For every request with a body twisted reads the Content-Type header by building an
``email.message.EmailMessage`` (``twisted.web.http._parseContentType``), to decide
whether to parse a form itself (daphne never uses what it parses). The email
package makes a new header class for each header it parses, so each move's POST
built two classes and left them for the garbage collector: together ~5 % of what
the server spends on a move (bench.servercost, docs/performance.md round 7). The
function is pure, and a site sees a handful of distinct Content-Types, so its
answers are kept: the same result, once per distinct header.

Drop this when twisted parses the header without the email package.
"""

from __future__ import annotations

import functools


def install() -> None:
    """Keep the answers of twisted's Content-Type parser (once per process; nothing
    to do in a twisted without it)."""
    from twisted.web import http

    parse = getattr(http, "_parseContentType", None)
    if parse is not None and not hasattr(parse, "cache_info"):
        # A multipart form's boundary makes its header unique: those only pass through.
        http._parseContentType = functools.lru_cache(maxsize=64)(parse)

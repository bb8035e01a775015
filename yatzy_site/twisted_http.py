"""A workaround in twisted's HTTP server, which daphne serves every request through.

For every POST with a body twisted parses the form itself into ``request.args``,
which daphne never reads: daphne hands the raw body to the site, and Django parses
it. Deciding whether a body is a form reads the Content-Type header by building an
``email.message.EmailMessage``, whose email package makes a new header class per
header (~5 % of a move's server cost, round 7 of docs/performance.md, when this
module kept the parser's answers instead), and the URL-encoded body was then parsed
a second time (0.7 %, round 16). Worse, a malformed multipart body made twisted
answer a bare ``400 Bad Request`` and hang up, before the site could say what was
wrong; Django answers it with the site's own page (``handler400``).

Twisted has a switch for this (``Request(parsePOSTFormSubmission=False)``; twisted
26.10, the one installed as this was written, has it); daphne does not set it. ``install`` makes
daphne's requests set it; in a twisted without the switch it does nothing, and the
parsing stays as it was.

Upstream: twisted/twisted#9739 (twisted answers 400 to valid multipart bodies; open),
reported downstream as django/channels#1386 and django/daphne#447 (a form with
non-ASCII field names refused with a bare 400). Drop this when daphne turns the
parsing off itself.
"""

from __future__ import annotations

import functools
import inspect


def install() -> None:
    """Make daphne's requests leave POST bodies unparsed (once per process; nothing to
    do in a twisted without the switch)."""
    from daphne.http_protocol import WebRequest
    from twisted.web import http

    if "parsePOSTFormSubmission" not in inspect.signature(http.Request.__init__).parameters:
        return
    init = WebRequest.__init__
    if getattr(init, "_leaves_forms_unparsed", False):
        return

    @functools.wraps(init)
    def leaving_forms_unparsed(self, *args, **kwargs) -> None:
        kwargs["parsePOSTFormSubmission"] = False
        init(self, *args, **kwargs)

    # the mark read above (mypy knows of no attributes set on a function)
    leaving_forms_unparsed._leaves_forms_unparsed = True  # type: ignore[attr-defined]
    WebRequest.__init__ = leaving_forms_unparsed

"""Logs as one JSON object a line (``YATZY_LOG_FORMAT=json``), for a log collector:
python-json-logger's formatter, with the fields every record has under short names
(``timestamp`` in UTC, ``level``, ``logger``, ``message``), ``exc_info`` holding the
traceback where there is one, and the record's extra fields beside them: Django's
``status_code`` and ``request`` (its method and path) on a refused or failed request,
the access line's (``yatzy_site.monitoring``)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from pythonjsonlogger.json import JsonEncoder, JsonFormatter


class LogEncoder(JsonEncoder):
    """python-json-logger's encoder, which writes what it cannot encode as its
    ``str``; a request as its method and path."""

    def default(self, o: Any) -> Any:
        if isinstance(o, HttpRequest):
            return {"method": o.method, "path": o.path}
        return super().default(o)


def json_lines() -> JsonFormatter:
    """The formatter of ``LOGGING`` under ``YATZY_LOG_FORMAT=json``."""
    return JsonFormatter(
        "{levelname}{name}{message}",
        style="{",
        timestamp=True,
        rename_fields={"levelname": "level", "name": "logger"},
        json_encoder=LogEncoder,
    )

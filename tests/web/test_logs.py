"""The logs as a collector reads them under ``YATZY_LOG_FORMAT=json``: every line the
site writes is one JSON object, with its time, level, logger and message, the request
it is about, the traceback of an error, and an access line per request; the default
stays lines of text for a person."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from datetime import datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from games.models import Seat
from games.rules import TableOptions
from games.services import SeatSpec, create_game
from games.viewer import Viewer
from tests.conftest import ROOT
from tests.deploy.test_settings import environment

# its commands inherit DATABASE_URL and REDIS_URL: on PostgreSQL and Redis in CI's second
# run (tests/backend_free.py)
pytestmark = pytest.mark.backends

# A page that is not there, and an error of the site's with its traceback.
SCRIPT = """
import logging

import django

django.setup()
from django.test import Client

Client(HTTP_HOST="localhost").get("/no-such-page/")
try:
    {}["seat"]
except KeyError:
    logging.getLogger("games").exception("the seat is gone")
"""


def run_site(tmp_path: Path, **env: str) -> list[str]:
    """The lines the script's site writes to its logs."""
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=environment(
            DJANGO_SETTINGS_MODULE="yatzy_site.settings", YATZY_VAR_DIR=str(tmp_path), **env
        ),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    return result.stderr.splitlines()


def test_json_logs_are_one_object_a_line_with_the_request_and_the_traceback(
    tmp_path: Path,
) -> None:
    records = [json.loads(line) for line in run_site(tmp_path, YATZY_LOG_FORMAT="json")]

    by_logger = {record["logger"]: record for record in records}
    assert set(by_logger) == {"yatzy_site.access", "django.request", "games"}
    for record in records:
        assert datetime.fromisoformat(record["timestamp"]).utcoffset() is not None
    missing = by_logger["django.request"]
    assert missing["level"] == "WARNING"
    assert missing["message"] == "Not Found: /no-such-page/"
    assert missing["status_code"] == 404
    assert missing["request"] == {"method": "GET", "path": "/no-such-page/"}
    access = by_logger["yatzy_site.access"]
    assert access["level"] == "INFO"
    assert access["message"] == "GET /no-such-page/ 404"
    assert (access["method"], access["path"], access["status_code"]) == (
        "GET",
        "/no-such-page/",
        404,
    )
    assert access["view"] == "unmatched" and access["duration_ms"] >= 0
    failed = by_logger["games"]
    assert (failed["level"], failed["message"]) == ("ERROR", "the seat is gone")
    assert failed["exc_info"].startswith("Traceback (most recent call last):")
    assert "KeyError: 'seat'" in failed["exc_info"]


def test_by_default_the_logs_are_text_for_a_person(tmp_path: Path) -> None:
    lines = run_site(tmp_path)

    assert lines[0] == "GET /no-such-page/ 404"  # the site's access line, not daphne's
    assert lines[1] == "Not Found: /no-such-page/"
    assert lines[2] == "the seat is gone"
    assert lines[3] == "Traceback (most recent call last):"
    assert lines[-1] == "KeyError: 'seat'"


@pytest.mark.django_db
def test_under_json_logs_the_server_says_what_it_did_as_a_record_and_daphne_logs_no_text(
    settings, claims: list[int], daphne: list[list[str]], caplog: pytest.LogCaptureFixture
) -> None:
    settings.YATZY_LOG_FORMAT = "json"
    out = StringIO()

    with caplog.at_level(logging.INFO):
        call_command("serve", "--port", "8124", stdout=out)

    assert out.getvalue() == ""
    (said,) = [r for r in caplog.records if r.name == "games.management.commands.serve"]
    assert "socket" in said.getMessage()  # what it forgot of the sockets counted, or kept
    assert daphne[0][-3:-1] == ["--verbosity", "0"]  # no access log of its own, in text


@pytest.mark.django_db
def test_by_default_daphne_writes_no_access_log_of_its_own(
    claims: list[int], daphne: list[list[str]]
) -> None:
    out = StringIO()

    call_command("serve", "--port", "8125", stdout=out)

    assert "socket" in out.getvalue()
    assert daphne[0][-3:-1] == ["--verbosity", "0"]  # the site writes the access lines


@pytest.mark.django_db
def test_the_access_log_does_not_give_away_a_personal_links_seat(
    client, caplog: pytest.LogCaptureFixture
) -> None:
    game = create_game(
        Viewer("host-browser"),
        ruleset="yatzy",
        options=TableOptions(),
        seats=[SeatSpec(Seat.Kind.LOCAL, "Ann"), SeatSpec(Seat.Kind.REMOTE, "")],
    )
    token = game.seats.get(position=1).token

    with caplog.at_level(logging.INFO, logger="yatzy_site.access"):
        client.get(f"/g/{game.code}/seat/{token}/")

    (line,) = [r.getMessage() for r in caplog.records if r.name == "yatzy_site.access"]
    assert line.startswith(f"GET /g/{game.code}/seat/…/ ")
    assert token not in caplog.text

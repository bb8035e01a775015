"""Forms through daphne as it comes (no patch of it or of twisted, the HTTP server it
serves through): every form of the site's pages is URL-encoded and read by Django; a
multipart body that cannot be read (none of the site's pages sends one: forged) is
refused with twisted's own 400 (no body) before the site sees it, and changes
nothing.
No patch turns twisted's parsing off: daphne has no switch for it (twisted/twisted#9739,
django/daphne#447).
"""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.servers import Server
from tests.deploy.test_settings import manage


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    var: Path = tmp_path_factory.mktemp("var")
    assert manage("migrate", "--noinput", YATZY_VAR_DIR=str(var)).returncode == 0
    with pytest.MonkeyPatch.context() as env:  # the embedded default, whatever the run's
        env.delenv("DATABASE_URL", raising=False)
        env.delenv("REDIS_URL", raising=False)
        server = Server({"YATZY_VAR_DIR": str(var)}).start()
    yield server
    server.stop()


def _post(server: Server, path: str, content_type: str, body: bytes) -> tuple[int, str]:
    """A POST with the session's CSRF cookie and token, as a page's form sends it."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request("GET", "/")
    home = connection.getresponse()
    home.read()
    cookie = home.getheader("Set-Cookie")
    token = re.search(r"csrftoken=([^;]+)", cookie).group(1)
    connection.request(
        "POST",
        path,
        body=body,
        headers={
            "Content-Type": content_type,
            "Cookie": f"csrftoken={token}",
            "X-CSRFToken": token,
            "Accept-Language": "en",
        },
    )
    answer = connection.getresponse()
    text = answer.read().decode()
    connection.close()
    return answer.status, text


def test_a_multipart_body_that_cannot_be_read_is_refused_and_changes_nothing(
    server: Server,
) -> None:
    status, page = _post(server, "/games/new/", "multipart/form-data", b"no parts at all")

    assert status == 400  # twisted's, with no body: never a 500
    assert "Traceback" not in page
    status, page = _post(server, "/games/new/", "application/x-www-form-urlencoded", b"")
    assert status == 400  # the site goes on: the next form is its to read
    assert "This field is required." in page
    assert "/g/" not in page  # no game was made


def test_a_form_is_still_read(server: Server) -> None:
    status, page = _post(
        server,
        "/games/new/",
        "application/x-www-form-urlencoded",
        b"ruleset=yatzy",
    )

    assert status == 400  # the form, read and refused field by field
    assert "This field is required." in page

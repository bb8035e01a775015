"""The workaround in twisted's HTTP server (yatzy_site/twisted_http.py): daphne's
requests leave their bodies to Django, so a form it cannot read gets the site's own
answer, and a form it can is parsed once, by Django."""

from __future__ import annotations

import http.client
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
from daphne.http_protocol import WebRequest
from twisted.web.test.requesthelper import DummyChannel

from bench.servers import Server
from tests.deploy.test_settings import manage
from yatzy_site import twisted_http


def test_daphnes_requests_leave_their_bodies_unparsed() -> None:
    import yatzy_site.asgi  # noqa: F401  (installs it, as daphne loads the site)

    init = WebRequest.__init__
    twisted_http.install()  # a second call changes nothing
    channel = DummyChannel()
    channel.factory = SimpleNamespace(server=SimpleNamespace(protocol_connected=lambda r: None))

    request = WebRequest(channel)

    assert WebRequest.__init__ is init
    assert request._parsePOSTFormSubmission is False


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


def test_a_multipart_form_the_site_cannot_read_gets_the_sites_page(server: Server) -> None:
    # twisted answered a bare "400 Bad Request" and hung up, before the site saw it
    status, page = _post(server, "/games/new/", "multipart/form-data", b"no parts at all")

    assert status == 400
    assert "Your browser sent something this site cannot read" in page


def test_a_form_is_still_read(server: Server) -> None:
    status, page = _post(
        server,
        "/games/new/",
        "application/x-www-form-urlencoded",
        b"ruleset=yatzy",
    )

    assert status == 400  # the form, read and refused field by field
    assert "Your browser sent something" not in page
    assert "This field is required." in page

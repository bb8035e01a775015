"""With Redis down the site is degraded, not broken: pages and moves go on (sessions
are in the database), new sockets are told to try again later (4503), /healthz says
503 and names the channel layer; with Redis back, all of it recovers by itself.

A Redis of the test's own (redis-server, on a free port, in a temporary directory) is
stopped and started again under a real server process. Without redis-server the test
skips and says so, except under CI, where it fails."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path
from urllib.parse import urlencode

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from bench.servers import Server, free_port
from games.consumers import CLOSE_TRY_AGAIN_LATER
from tests.conftest import NEW_GAME
from tests.deploy.test_settings import manage
from tests.waits import WAIT_S

REDIS_SERVER = shutil.which("redis-server")
VERSION = re.compile(r'data-version="(\d+)"')


class OwnRedis:
    """A redis-server of the test's own, to stop and start again on the same port."""

    def __init__(self, directory: Path) -> None:
        assert REDIS_SERVER is not None
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + WAIT_S
        while not self.answers():
            assert self.process.poll() is None, "redis-server did not start"
            assert time.monotonic() < deadline, "redis-server does not answer"
            time.sleep(0.05)

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)


@pytest.fixture
def redis(tmp_path: Path) -> Iterator[OwnRedis]:
    if REDIS_SERVER is None:
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing: CI must run the degraded-mode test")
        pytest.skip("redis-server is missing (apt-get install redis-server): test skipped")
    own = OwnRedis(tmp_path)
    own.start()
    yield own
    own.stop()


@pytest.fixture
def site(tmp_path: Path, redis: OwnRedis) -> Iterator[Server]:
    """The site on an SQLite database of its own, with ``redis`` for its sessions' cache
    and its channel layer, as the scale-out has them."""
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "REDIS_URL": redis.url,
        "YATZY_VAR_DIR": str(tmp_path),
        "LOG_LEVEL": "CRITICAL",
    }
    migrated = manage("migrate", "--noinput", **env)
    assert migrated.returncode == 0, migrated.stderr
    server = Server(env).start()
    yield server
    server.stop()


class Browser:
    """A browser's cookies and what it asks: answers with their status, never raised."""

    def __init__(self, site: Server) -> None:
        self.site = site
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies))

    def cookie(self, name: str) -> str:
        return next(c.value or "" for c in self.cookies if c.name == name)

    def ask(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str, str]:
        """(status, body, final address) of a GET, or of a POST of ``form`` with the
        CSRF token as htmx sends it."""
        data = None if form is None else urlencode(form).encode()
        request = urllib.request.Request(self.site.url + path, data=data)
        if form is not None:
            request.add_header("X-CSRFToken", self.cookie("csrftoken"))
            request.add_header("HX-Request", "true")
        try:
            with self.opener.open(request, timeout=WAIT_S) as answer:
                return answer.status, answer.read().decode(), answer.url
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode(), refused.url

    def table_socket(self, code: str):
        """A socket of the table page, with this browser's session."""
        headers = {"Origin": self.site.url, "Cookie": f"sessionid={self.cookie('sessionid')}"}
        page = "p" * 22
        return connect(
            f"{self.site.ws_url}/ws/g/{code}/{page}/",
            additional_headers=headers,
            open_timeout=WAIT_S,
        )


def health(site: Server) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"{site.url}/healthz", timeout=WAIT_S) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as down:
        return down.code, down.read().decode()


def version_of(html: str) -> int:
    found = VERSION.search(html)
    assert found, html[:500]
    return int(found.group(1))


def until(condition, what: str) -> None:
    deadline = time.monotonic() + WAIT_S
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.1)


def test_with_redis_down_pages_and_moves_go_on_and_all_recovers_once_it_is_back(
    site: Server, redis: OwnRedis
) -> None:
    with contextlib.ExitStack() as stack:
        check_degraded_and_recovered(site, redis, stack)


def check_degraded_and_recovered(
    site: Server, redis: OwnRedis, stack: contextlib.ExitStack
) -> None:
    alice, visitor = Browser(site), Browser(site)
    assert alice.ask("/")[0] == 200
    status, _, table_url = alice.ask("/games/new/", {**NEW_GAME, "players": "Bob"})
    assert status == 200
    code = table_url.rstrip("/").rsplit("/", 1)[1]
    assert health(site) == (200, "ok")
    watcher = Browser(site)
    assert watcher.ask(f"/g/{code}/")[0] == 200
    open_before = stack.enter_context(watcher.table_socket(code))
    version_of(open_before.recv(timeout=WAIT_S))
    open_before.send("ack 1")

    redis.stop()

    assert health(site) == (503, "down: channel layer")
    status, page, _ = alice.ask(f"/g/{code}/")
    assert status == 200
    version = version_of(page)
    status, table, _ = alice.ask(f"/g/{code}/roll/", {"version": str(version)})
    assert status == 200
    assert version_of(table) == version + 1
    assert visitor.ask("/")[0] == 200  # a new browser's session is made without Redis
    assert visitor.ask(f"/g/{code}/")[0] == 200
    with alice.table_socket(code) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=WAIT_S)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_TRY_AGAIN_LATER

    redis.start()

    until(lambda: health(site) == (200, "ok"), "the health check says ok again")
    with visitor.table_socket(code) as ws:
        assert version_of(ws.recv(timeout=WAIT_S)) == version + 1  # the move made meanwhile
        status, _, _ = alice.ask(f"/g/{code}/hold/", {"version": str(version + 1), "die": "0"})
        assert status == 200
        assert version_of(ws.recv(timeout=WAIT_S)) == version + 2  # pushed live again
    # a socket open all along hears of moves again
    assert version_of(open_before.recv(timeout=WAIT_S)) == version + 2

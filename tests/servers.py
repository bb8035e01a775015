"""Real server processes for tests: daphne serving the site on a free port.

The processes share the test run's database (and Redis, when REDIS_URL is set),
as the web processes of docker-compose.yml share PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_database_url() -> str:
    """DATABASE_URL pointing at the database this test run created."""
    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + connection.settings_dict["NAME"]))


class Server:
    """One daphne process; ``stop``/``kill`` and ``start`` again on the same port."""

    def __init__(self, env: dict[str, str], port: int | None = None) -> None:
        self.port = port or free_port()
        self.env = env
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Server:
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(self.port),
                "yatzy_site.asgi:application",
            ],
            cwd=ROOT,
            env={**os.environ, **self.env},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(self.process.stderr.read().decode()[-2000:])
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise TimeoutError(f"daphne on port {self.port} did not answer")

    def kill(self) -> None:
        """Die at once, as a crashed process would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

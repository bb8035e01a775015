"""Real daphne processes on free ports, for the benchmark and the multi-process tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from yatzy_site.serving import endpoint

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _inherited() -> dict[str, str]:
    """This process's environment, less what only a test process may set."""
    return {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}


class Server:
    """One daphne process serving ``app``; ``kill``/``stop`` and ``start`` again. With
    ``through_serve``, started as the site starts its processes: ``manage.py serve``,
    which settles what the process's predecessor left and then becomes daphne."""

    def __init__(
        self,
        env: dict[str, str],
        app: str = "yatzy_site.asgi:application",
        port: int | None = None,
        wrapper: list[str] | None = None,
        through_serve: bool = False,
    ) -> None:
        if through_serve and (wrapper or app != "yatzy_site.asgi:application"):
            # serve runs the site's application, and execs daphne itself
            raise ValueError("through_serve starts the site itself, unwrapped")
        self.port = port or free_port()
        self.env = env
        self.app = app
        self.wrapper = wrapper or []  # a command to run daphne under (valgrind)
        self.through_serve = through_serve
        self.process: subprocess.Popen[bytes] | None = None
        self.log: tempfile._TemporaryFileWrapper | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self, timeout: float = 30) -> Server:
        # As the site is run: a listen queue long enough for a storm of reconnects
        # (twisted's default of 50 drops the rest, and their browsers wait seconds to
        # try again).
        listen = endpoint("127.0.0.1", self.port)
        command = [*self.wrapper, sys.executable, "-m", "daphne", "-e", listen, self.app]
        if self.through_serve:
            command = [sys.executable, "manage.py", "serve", "--port", str(self.port)]
        # The server's log goes to a file: a pipe nobody reads fills up under load and
        # then blocks the server on its next log line (it froze reconnect storms).
        if self.log is not None:
            self.log.close()
        self.log = tempfile.NamedTemporaryFile(  # noqa: SIM115 (open while the server runs)
            prefix=f"daphne-{self.port}-", suffix=".log"
        )
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**_inherited(), **self.env},
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(self.log_tail())
            try:
                # a slow answer is still an answer: under valgrind /healthz (the database
                # and the channel layer checked) takes seconds
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=30):
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise TimeoutError(f"daphne on port {self.port} did not answer")

    def log_tail(self, size: int = 2000) -> str:
        return Path(self.log.name).read_bytes()[-size:].decode(errors="replace")

    def kill(self) -> None:
        """Die at once, as a crashed process would."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self, timeout: float = 10) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.log is not None:
            self.log.close()
            self.log = None

"""``make run``'s server in real processes: ``manage.py serve`` becomes daphne holding
its claim on the database; a second one started meanwhile stops without touching the
first one's counts; a crash of the first (SIGKILL) frees the claim."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from bench.servers import free_port
from tests.deploy.test_settings import ROOT, environment, manage

# its servers and commands inherit DATABASE_URL and REDIS_URL: on PostgreSQL and Redis in
# CI's second run (tests/backend_free.py)
pytestmark = pytest.mark.backends

A_TABLE = 'Game.objects.create(ruleset="yatzy", host_browser="h")'
A_SEAT = 'Seat.objects.create(game=Game.objects.get(), position=0, name="Bob", kind="remote")'
COUNTED = "Seat.objects.update(connections=1); Game.objects.update(spectators=2)"
COUNTS = "print(Seat.objects.get().connections, Game.objects.get().spectators)"


def shell(var: Path, *lines: str) -> str:
    script = "\n".join(["from games.models import Game, Seat", *lines])
    result = manage("shell", "-v", "0", "-c", script, YATZY_VAR_DIR=str(var))
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def wait_until_it_serves(port: int, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@pytest.mark.slow
def test_a_second_make_run_while_one_serves_stops_and_a_crash_frees_the_database(
    tmp_path: Path,
) -> None:
    var = {"YATZY_VAR_DIR": str(tmp_path)}
    assert manage("migrate", "--noinput", **var).returncode == 0
    shell(tmp_path, A_TABLE, A_SEAT, COUNTED)  # left by a server that was killed
    port = free_port()
    first = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=environment(**var),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        wait_until_it_serves(port)
        assert first.stdout.readline().startswith(
            "Forgot the sockets of 1 seat(s) and the spectators of 1 game(s)"
        )
        assert shell(tmp_path, COUNTS) == "0 0"
        shell(tmp_path, COUNTED)  # now the first server's own sockets

        second = manage("serve", "--port", str(free_port()), **var)
        forced = manage("reset_presence", "--force", **var)

        assert second.returncode == 1
        assert (
            f"A server is already serving this database at http://127.0.0.1:{port}/"
            in second.stderr
        )
        assert forced.returncode == 1
        assert "A server is serving this database" in forced.stderr
        assert shell(tmp_path, COUNTS) == "1 2"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as answer:
            assert answer.status == 200  # the first one serves on
    finally:
        first.send_signal(signal.SIGKILL)  # as a crash would
        first.wait(10)
        first.stdout.close()

    forgot = manage("reset_presence", **var)

    assert forgot.returncode == 0, forgot.stderr
    assert shell(tmp_path, COUNTS) == "0 0"

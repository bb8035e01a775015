"""``make run``'s server tidies by itself: ``manage.py serve`` starts ``manage.py tidy``
beside daphne on the schedule ``YATZY_TIDY_EVERY_S`` sets, and it ends with the server."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from bench.servers import free_port
from tests.deploy.test_serving_alone import shell, wait_until_it_serves
from tests.deploy.test_settings import ROOT, environment, manage
from tests.waits import WAIT_S

# its servers and commands inherit DATABASE_URL and REDIS_URL: on PostgreSQL and Redis in
# CI's second run (tests/backend_free.py)
pytestmark = pytest.mark.backends

LOBBY = 'Game.objects.create(ruleset="yatzy", host_browser="h", code="{code}")'
AGED = (
    "from django.utils import timezone; from datetime import timedelta; "
    "Game.objects.filter(code='{code}').update(created_at=timezone.now() - timedelta(hours=2))"
)
CODES = "print(sorted(Game.objects.values_list('code', flat=True)))"


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


@pytest.mark.slow
def test_the_server_tidies_on_its_schedule_and_its_helper_ends_with_it(tmp_path: Path) -> None:
    var = {"YATZY_VAR_DIR": str(tmp_path)}
    assert manage("migrate", "--noinput", **var).returncode == 0
    shell(tmp_path, LOBBY.format(code="old"), AGED.format(code="old"))
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "serve", "--port", str(port)],
        cwd=ROOT,
        env=environment(**var, YATZY_TIDY_EVERY_S="1", YATZY_KEEP_LOBBY_H="1"),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    said: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [said.put(line) for line in server.stdout], daemon=True).start()

    def until_said(words: str) -> list[str]:
        """The server's lines up to the first with ``words`` (within the tests' wait)."""
        lines = [said.get(timeout=WAIT_S)]
        while words not in lines[-1]:
            lines.append(said.get(timeout=WAIT_S))
        return lines

    try:
        wait_until_it_serves(port)
        first = until_said("Tidied")  # at once: the lobby left from before goes
        assert any("Tidying every 1 s (manage.py tidy)." in line for line in first)
        assert "deleted 1 abandoned lobby(ies)" in first[-1]
        assert shell(tmp_path, CODES) == "[]"
        # a lobby abandoned later goes in one of the next rounds
        shell(tmp_path, LOBBY.format(code="later"), AGED.format(code="later"))
        until_said("deleted 1 abandoned lobby(ies)")
        assert shell(tmp_path, CODES) == "[]"
        helpers = children(server.pid)
        assert len(helpers) == 1
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(WAIT_S)
    helper = helpers.pop()
    deadline = time.monotonic() + WAIT_S
    while os.path.exists(f"/proc/{helper}") and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not os.path.exists(f"/proc/{helper}") or _a_zombie(helper)


def _a_zombie(pid: int) -> bool:
    """Ended, and not yet waited for by its new parent."""
    return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")

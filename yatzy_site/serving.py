"""Which server serves an SQLite database alone: a lock file beside it.

On the embedded default one process serves the site, and it alone counts the sockets
at the tables (``games.presence``). ``manage.py serve`` takes this lock before it
forgets the counts an earlier server left and hands it on to daphne, which holds it
until it exits, however it exits: the kernel drops a dead process's ``flock``. So a
second ``make run`` (or ``manage.py reset_presence``) sees that a server is serving
this database and leaves its counts alone.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from django.conf import settings

LISTEN_BACKLOG = 4096  # a storm of reconnecting browsers overflows twisted's default 50
NOT_WRITTEN = "an address it has not written yet"


def endpoint(host: str, port: int) -> str:
    """daphne's ``-e`` for ``host:port``: as ``make run``, the image and the benchmark
    listen."""
    return f"tcp:port={port}:interface={host}:backlog={LISTEN_BACKLOG}"


def lock_path() -> Path | None:
    """The lock file of the default database, or None where it is not an SQLite file."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return None
    return Path(f"{database['NAME']}.serving")


def claim(address: str) -> int | None:
    """Take the lock for a server about to serve at ``address``: its file descriptor,
    inheritable so that the server started by ``exec`` holds it; None where there is
    no lock (not SQLite). Raises ``AlreadyServing`` when a live server holds it."""
    path = lock_path()
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise AlreadyServing(serving_at() or NOT_WRITTEN) from None
    os.ftruncate(fd, 0)
    os.write(fd, address.encode())
    os.set_inheritable(fd, True)
    return fd


def serving_at() -> str | None:
    """Where the live server that holds the lock serves, as it wrote it; None when no
    server holds it."""
    path = lock_path()
    if path is None or not path.exists():
        return None
    fd = os.open(path, os.O_RDONLY)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return path.read_text(errors="replace").strip() or NOT_WRITTEN
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


class AlreadyServing(Exception):
    def __init__(self, address: str) -> None:
        super().__init__(address)
        self.address = address

"""Which server serves an SQLite database alone: a lock file beside it; and on
PostgreSQL, which named process of several serves under a name (``claim_name``).

On the embedded default one process serves the site, and it alone counts the sockets
at the tables (``games.presence``). ``manage.py serve`` takes this lock before it
forgets the counts an earlier server left and hands it on to daphne, which holds it
until it exits, however it exits: the kernel drops a dead process's ``flock``. So a
second ``make run`` (or ``manage.py reset_presence``) sees that a server is serving
this database and leaves its counts alone.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import time
from pathlib import Path

import psycopg
from django.conf import settings
from django.db import connections

from yatzy_site.env import SQLITE_ENGINE

LISTEN_BACKLOG = 4096  # a storm of reconnecting browsers overflows twisted's default 50
NOT_WRITTEN = "an address it has not written yet"


def endpoint(host: str, port: int) -> str:
    """daphne's ``-e`` for ``host:port``: as ``make run``, the image and the benchmark
    listen."""
    return f"tcp:port={port}:interface={host}:backlog={LISTEN_BACKLOG}"


def lock_path() -> Path | None:
    """The lock file of the default database, or None where it is not an SQLite file."""
    database = settings.DATABASES["default"]
    if database["ENGINE"] != SQLITE_ENGINE:
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


_NAME_CLAIMS: list[psycopg.Connection] = []  # the connections that hold them, open until exec


def claim_name(process: str, wait: float = 5.0) -> None:
    """Claim the name ``process`` (``YATZY_PROCESS``) for this server on PostgreSQL, for
    as long as it and the daphne it becomes by ``exec`` live: a session's advisory lock,
    on a connection of its own whose socket daphne inherits and never uses. PostgreSQL
    drops it when that session ends, however the process ends. Two processes under
    one name would take off each other's live sockets as they start (``presence.
    forget_process``), as ``docker compose up --scale web1=2`` would make them.

    A predecessor that has just exited may hold it a moment longer, so it is tried for
    ``wait`` seconds. Raises ``NameTaken`` when a live session holds it; does nothing
    where the database is not PostgreSQL (SQLite's lock file is for one process, which
    needs no name)."""
    if not _names_lock():
        return
    deadline = time.monotonic() + wait
    while (holder := _name_lock(process)) is None:
        if time.monotonic() >= deadline:
            raise NameTaken(process, *_holder_of(process))
        time.sleep(0.2)
    os.set_inheritable(holder.fileno(), True)
    _NAME_CLAIMS.append(holder)


def release_names() -> None:
    """Let go of the names this process claimed, which it would otherwise hold until it
    exits: ``reset_presence --process`` once done, a ``serve`` that did not become
    daphne (the tests fake ``exec``)."""
    while _NAME_CLAIMS:
        _NAME_CLAIMS.pop().close()


def names_held() -> list[str]:
    """The names (``claim_name``) of the processes serving this database, by their
    sessions: none where it is not PostgreSQL."""
    if not _names_lock():
        return []
    prefix = _session_name("")
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT application_name FROM pg_stat_activity"
            " WHERE datname = current_database() AND starts_with(application_name, %s)"
            " ORDER BY 1",
            [prefix],
        )
        return [name.removeprefix(prefix) for (name,) in cursor.fetchall()]


def _names_lock() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def _session_name(process: str) -> str:
    return f"yatzy process {process}"  # within the 63 bytes PostgreSQL keeps (settings)


def _name_lock(process: str) -> psycopg.Connection | None:
    """A new connection to the database holding the lock of the name ``process``, known
    by its session's application_name; or None (and no connection) when another
    session holds it."""
    digest = hashlib.blake2b(_session_name(process).encode(), digest_size=8).digest()
    # A session of its own, not one of the pool's: the lock lasts as long as the session,
    # which a pooled connection would outlive when handed back.
    params = connections["default"].get_connection_params()
    holder = psycopg.connect(**params, autocommit=True)
    with holder.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s)", [int.from_bytes(digest, signed=True)])
        row = cursor.fetchone()  # one row: a SELECT of one value
        if row is not None and row[0]:
            cursor.execute(
                "SELECT set_config('application_name', %s, false)", [_session_name(process)]
            )
            return holder
    holder.close()
    return None


def _holder_of(process: str) -> tuple[int | None, str]:
    """The session that holds the name: its backend's pid, and where and since when."""
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT pid, client_addr, backend_start FROM pg_stat_activity"
            " WHERE datname = current_database() AND application_name = %s"
            " ORDER BY backend_start LIMIT 1",
            [_session_name(process)],
        )
        row = cursor.fetchone()
    if row is None:  # it ended between the two, or has not named itself yet
        return None, "a session just starting or ending: try again"
    pid, client, since = row
    where = f"from {client}" if client else "on the database's own machine"
    return pid, f"PostgreSQL session {pid} {where}, since {since:%Y-%m-%d %H:%M:%S %Z}"


class NameTaken(Exception):
    def __init__(self, process: str, pid: int | None, holder: str) -> None:
        super().__init__(process)
        self.process = process
        self.pid = pid
        self.holder = holder

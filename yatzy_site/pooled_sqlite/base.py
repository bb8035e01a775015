"""Django's SQLite backend, with the connections a process closes kept for its next
request: the ``ENGINE`` of the embedded default (``yatzy_site.env.sqlite_database``).

Under Django's ASGI handler every request runs in a thread of its own, and Django
closes the request's connection as it ends (``CONN_MAX_AGE`` would keep one per thread,
and the thread is gone). A new SQLite connection reads and parses the whole schema
before its first statement, runs the site's pragmas, registers Django's SQL functions,
and starts with an empty statement cache: kept instead, a move cost 17.93 M
instructions, not 20.77 (``bench.servercost``; the schema's parsing 1.6 M of it,
callgrind by function; docs/performance.md, "The guard"). The
PostgreSQL settings use Django's own pool for the same reason (``env.database_url``);
Django has none for SQLite.

This is the backend subclass Django's documentation describes ("Subclassing the
built-in database backends"): a connection is made as Django makes it (its pragmas,
functions and options), of the class ``PooledConnection`` (sqlite3's public ``factory``),
whose ``close`` puts it back in its pool, rolled back, instead. Django then sets its
autocommit again as for any new connection. A pool keeps at most ``IDLE_MAX``
connections; more, and the one closed is closed for real. A pool belongs to one
database file: a file made anew under the same name (a test database created again)
gets a new pool, and the old one's connections are closed. An in-memory database is
never closed by Django, and is not pooled. A forked process starts without its
parent's pools (``forget_in_child``)."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections import OrderedDict

from django.db.backends.sqlite3 import base

IDLE_MAX = 8  # idle connections a pool keeps: more requests at once than that is rare
FILES_MAX = 4  # database files a process keeps pools for (tests make many; a site, one)


class PooledConnection(sqlite3.Connection):
    """An SQLite connection that goes back to ``pool`` when closed, if it has room."""

    pool: Pool | None = None

    def close(self) -> None:
        pool, self.pool = self.pool, None
        if pool is None or not pool.give_back(self):
            super().close()


class Pool:
    """The idle connections to one database file, taken and given back under a lock."""

    def __init__(self, identity: tuple[int, int]) -> None:
        self.identity = identity  # the file's device and inode
        self.idle: list[PooledConnection] = []
        self.lock = threading.Lock()
        self.closed = False

    def take(self) -> PooledConnection | None:
        with self.lock:
            connection = self.idle.pop() if self.idle else None
        if connection is not None:
            connection.pool = self
        return connection

    def give_back(self, connection: PooledConnection) -> bool:
        """Keep ``connection`` for the next request; False when it is to be closed."""
        if self.closed:  # (read unlocked: a pool closes once, and is never reopened)
            return False
        try:
            if connection.in_transaction:  # a request that ended inside one
                connection.rollback()
            # as Django made it: a schema change that failed half way (a migration)
            # may have left its foreign keys unchecked
            if connection.execute("PRAGMA foreign_keys").fetchone() != (1,):
                return False
        except sqlite3.Error:
            return False
        with self.lock:
            if self.closed or len(self.idle) >= IDLE_MAX:
                return False
            self.idle.append(connection)
            return True

    def close(self) -> None:
        with self.lock:
            self.closed, idle, self.idle = True, self.idle, []
        for connection in idle:
            connection.pool = None
            connection.close()


POOLS: OrderedDict[str, Pool] = OrderedDict()  # by file name, the latest used last
POOLS_LOCK = threading.Lock()
INHERITED: list[PooledConnection] = []  # a forked process's parent's: never used nor closed


def forget_in_child() -> None:
    """A forked process (the solver's workers fork) starts with no pools: SQLite's
    documentation forbids using a connection across a fork, and its parent's are
    kept from the collector, unclosed, so that their closing disturbs nothing of the
    parent's. New locks too: a fork may have come while another thread held one."""
    global POOLS, POOLS_LOCK
    for pool in POOLS.values():
        INHERITED.extend(pool.idle)
        pool.idle, pool.closed, pool.lock = [], True, threading.Lock()
    POOLS, POOLS_LOCK = OrderedDict(), threading.Lock()


os.register_at_fork(after_in_child=forget_in_child)


def pool_of(name: str) -> Pool | None:
    """The pool of the database file ``name`` as it is now; None while it does not
    exist (the connection about to be made creates it)."""
    try:
        found = os.stat(name)
    except OSError:
        return None
    identity = (found.st_dev, found.st_ino)
    stale: list[Pool] = []
    with POOLS_LOCK:
        pool = POOLS.get(name)
        if pool is None or pool.identity != identity:
            if pool is not None:
                stale.append(pool)
            pool = POOLS[name] = Pool(identity)
        POOLS.move_to_end(name)
        while len(POOLS) > FILES_MAX:
            stale.append(POOLS.popitem(last=False)[1])
    for old in stale:
        old.close()
    return pool


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's SQLite backend, its connections taken from and given back to a pool."""

    def get_connection_params(self) -> dict:
        params = super().get_connection_params()
        params["factory"] = PooledConnection
        return params

    def get_new_connection(self, conn_params: dict) -> sqlite3.Connection:
        name = None if self.is_in_memory_db() else str(conn_params["database"])
        pool = pool_of(name) if name else None
        connection = pool.take() if pool else None
        if connection is None:
            connection = super().get_new_connection(conn_params)
            # (a file that did not exist does now: the connection made it)
            connection.pool = pool or (pool_of(name) if name else None)
        return connection

"""The embedded default's SQLite connections, kept from one request to the next
(yatzy_site/pooled_sqlite): what one request leaves on its connection reaches no other.

Each test has a database file of its own, and its own connection handler, as a server
process's requests each have a connection of their own in a thread of their own."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import IntegrityError
from django.db.utils import ConnectionHandler

from yatzy_site.env import sqlite_database

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def atomic(connection) -> Iterator[None]:
    """A transaction on ``connection`` (a handler's own, which ``transaction.atomic``
    does not know): committed, or rolled back by an exception."""
    connection.set_autocommit(False)
    try:
        yield
    except BaseException:
        connection.rollback()
        connection.set_autocommit(True)
        raise
    connection.commit()
    connection.set_autocommit(True)


def request(path: Path, work) -> object:
    """``work(connection)`` as one request of a server process runs it: in a thread of
    its own, with a connection of its own, closed as the request ends."""
    result: dict[str, object] = {}

    def run() -> None:
        connection = ConnectionHandler({"default": sqlite_database(path)})["default"]
        try:
            result["value"] = work(connection)
        except Exception as error:
            result["value"] = error
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return result["value"]


def query(connection, sql: str, *params: object) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


@pytest.fixture
def database(tmp_path: Path, django_db_blocker) -> Iterator[Path]:
    """A database file of the test's own (not the test database pytest-django guards)."""
    path = tmp_path / "site.sqlite3"
    with django_db_blocker.unblock():
        request(path, lambda c: query(c, "CREATE TABLE move (n INTEGER PRIMARY KEY)"))
        request(
            path,
            lambda c: query(
                c,
                "CREATE TABLE score (n INTEGER PRIMARY KEY, move INTEGER NOT NULL "
                "REFERENCES move (n) DEFERRABLE INITIALLY DEFERRED)",
            ),
        )
        yield path


def test_a_request_that_fails_inside_a_transaction_leaves_nothing_to_the_next(database):
    def fails(connection) -> None:
        with atomic(connection):
            query(connection, "INSERT INTO move (n) VALUES (1)")
            raise RuntimeError("the view failed")

    def ends_inside_one(connection) -> None:  # its transaction never committed
        connection.set_autocommit(False)
        query(connection, "INSERT INTO move (n) VALUES (2)")

    assert isinstance(request(database, fails), RuntimeError)
    request(database, ends_inside_one)

    # the next requests start in autocommit, and see neither move
    assert request(database, lambda c: c.get_autocommit()) is True
    assert request(database, lambda c: query(c, "SELECT n FROM move")) == []
    request(database, lambda c: query(c, "INSERT INTO move (n) VALUES (3)"))
    assert request(database, lambda c: query(c, "SELECT n FROM move")) == [(3,)]


def test_every_request_checks_foreign_keys_even_after_one_that_turned_them_off(database):
    def turns_them_off(connection) -> None:  # as a schema change that failed half way
        connection.disable_constraint_checking()

    def scores_a_move_that_is_not_there(connection) -> None:
        with atomic(connection):
            query(connection, "INSERT INTO score (n, move) VALUES (1, 99)")

    for _ in range(3):
        request(database, turns_them_off)
        assert isinstance(request(database, scores_a_move_that_is_not_there), IntegrityError)
    assert request(database, lambda c: query(c, "SELECT n FROM score")) == []


def at_once(path: Path, work, requests: int = 3) -> list[object]:
    """``work`` as ``requests`` requests at once, each holding its connection until
    all have theirs."""
    together = threading.Barrier(requests, timeout=30)
    results: list[object] = [None] * requests

    def run(i: int) -> None:
        def holding(connection):
            connection.ensure_connection()
            together.wait()
            return work(connection)

        results[i] = request(path, holding)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_a_database_made_anew_under_the_same_name_is_the_one_read(database):
    request(database, lambda c: query(c, "INSERT INTO move (n) VALUES (1)"))
    assert at_once(database, lambda c: query(c, "SELECT n FROM move")) == [[(1,)]] * 3

    for leftover in database.parent.glob(database.name + "*"):
        leftover.unlink()  # as a test database is destroyed and created again
    request(database, lambda c: query(c, "CREATE TABLE move (n INTEGER PRIMARY KEY)"))

    assert at_once(database, lambda c: query(c, "SELECT n FROM move")) == [[]] * 3


def test_requests_at_once_each_have_a_connection_of_their_own(database):
    """Twelve requests at once, each twenty transactions: a connection given to two at
    a time would mix their transactions ("cannot start a transaction within a
    transaction", or a move lost with the other's rollback)."""
    start = threading.Barrier(12, timeout=30)
    errors: list[BaseException] = []

    def moves(first: int):
        def work(connection) -> None:
            connection.ensure_connection()
            start.wait()
            for n in range(first, first + 20):
                with atomic(connection):
                    query(connection, "INSERT INTO move (n) VALUES (%s)", n)

        def run() -> None:
            outcome = request(database, work)
            if isinstance(outcome, BaseException):
                errors.append(outcome)

        return run

    for _ in range(3):  # the second and third rounds on the connections the first left
        threads = [threading.Thread(target=moves(100 * i + 10_000 * _)) for i in range(12)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        start.reset()

    assert errors == []
    assert request(database, lambda c: query(c, "SELECT count(*) FROM move")) == [(720,)]


def in_a_forked_process(path: Path, result: multiprocessing.Queue) -> None:
    """The child's side: one request of its own, which moves and says how many changes
    its connection had made before (0: a connection of its own, not its parent's)."""

    def moves(connection) -> int:
        connection.ensure_connection()
        before = connection.connection.total_changes
        query(connection, "INSERT INTO move (n) VALUES (2)")
        return before

    result.put(request(path, moves))


def forking_server(path: str) -> None:
    """A server's process as the solver forks it: requests served (their connections
    pooled), then a fork, whose child serves a request. In a process of its own: this
    test's worker runs other tests' threads, and a fork beside threads may deadlock."""
    request(Path(path), lambda c: query(c, "INSERT INTO move (n) VALUES (1)"))
    fork = multiprocessing.get_context("fork")
    result = fork.Queue()
    child = fork.Process(target=in_a_forked_process, args=(Path(path), result))
    child.start()
    child.join(30)
    print(child.exitcode, result.get(timeout=5))


def test_a_forked_process_has_connections_of_its_own(database):
    """The solver's workers fork the server's process; SQLite forbids using a
    connection across a fork, and the parent's idle ones are in its pool."""
    script = (
        "import sys, django; django.setup(); "
        "from tests.deploy.test_sqlite_connections import forking_server; "
        "forking_server(sys.argv[1])"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "yatzy_site.settings"}
    ran = subprocess.run(
        [sys.executable, "-c", script, str(database)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )

    assert ran.stdout == "0 0\n", ran.stderr  # the child ended well, on a new connection
    # the parent's moves and the child's are both in the database
    assert request(database, lambda c: query(c, "SELECT n FROM move ORDER BY n")) == [(1,), (2,)]

"""The database's flush (after each browser test) tries again when PostgreSQL breaks a
deadlock by aborting it: a live server's statement that holds one table and asks for
another one the flush has already locked (``games/management/commands/flush.py``)."""

from __future__ import annotations

import re
import threading
import time

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection

from games.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.services]


def test_a_flush_aborted_to_break_a_deadlock_is_tried_again(postgres: None) -> None:
    (statement,) = sql_flush(no_style(), connection)
    tables = re.findall(r'"([^"]+)"', statement)
    first, last = tables[0], tables[-1]
    Game.objects.create(ruleset="yatzy", host_browser="b")
    held, done = threading.Event(), threading.Event()

    def server_at_work() -> None:
        """Holds the flush's last table, then asks for its first: a deadlock, which
        PostgreSQL finds from the flush's side (its check comes first, after 1 s)."""
        with psycopg.connect(**connection.get_connection_params()) as other:
            other.execute("SET deadlock_timeout = '30s'")
            other.execute(f'SELECT 1 FROM "{last}" LIMIT 1')
            held.set()
            time.sleep(0.5)  # the flush has locked the first table by now, and waits
            other.execute(f'SELECT 1 FROM "{first}" LIMIT 1')
            other.commit()
        done.set()

    worker = threading.Thread(target=server_at_work)
    worker.start()
    held.wait(10)

    call_command("flush", interactive=False, verbosity=0)

    worker.join(10)
    assert done.is_set()
    assert not Game.objects.exists()

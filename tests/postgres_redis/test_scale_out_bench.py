"""The load benchmark's scale-out setup: with DATABASE_URL and REDIS_URL it runs the site
as two processes on PostgreSQL and Redis (a tiny load; no timing is asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest
from django.db import connection

from tests.bench.test_load_bench import tiny_load, without_services


@pytest.fixture
def bench_services(postgres: None, redis_layer: None) -> Iterator[dict[str, str]]:
    """A database of its own (the benchmark writes its games for real) and a Redis
    database nobody else uses, as the benchmark's environment."""
    name = connection.settings_dict["NAME"] + "_bench"
    admin = urlsplit(os.environ["DATABASE_URL"])._replace(path="/postgres")
    with psycopg.connect(urlunsplit(admin), autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}"')
        server.execute(f'CREATE DATABASE "{name}"')
    database = urlunsplit(admin._replace(path="/" + name))
    redis = urlunsplit(urlsplit(os.environ["REDIS_URL"])._replace(path="/14"))
    yield {**without_services(), "DATABASE_URL": database, "REDIS_URL": redis}
    with psycopg.connect(urlunsplit(admin), autocommit=True) as server:
        server.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_the_benchmark_runs_the_scale_out_setup(
    bench_services: dict[str, str], tmp_path: Path
) -> None:
    report = tiny_load(tmp_path / "results.json", idle=0, env=bench_services)

    assert report["loads"][0]["project"]["processes"] == 2


def test_a_missing_database_is_named_not_a_traceback(postgres: None, redis_layer: None) -> None:
    missing = urlunsplit(urlsplit(os.environ["DATABASE_URL"])._replace(path="/yatzy_no_such_db"))
    env = {**without_services(), "DATABASE_URL": missing, "REDIS_URL": os.environ["REDIS_URL"]}

    result = subprocess.run(
        [sys.executable, "-m", "bench.load", "--rates", "20", "--idle", "0"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert result.returncode == 1
    assert "The benchmark cannot use its database" in result.stderr
    assert "yatzy_no_such_db" in result.stderr and "Traceback" not in result.stderr

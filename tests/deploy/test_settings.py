"""Production settings: complete ones pass ``check --deploy``; broken ones stop the start."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from yatzy_site.env import env_rate

# its servers and commands inherit DATABASE_URL and REDIS_URL: on PostgreSQL and Redis in
# CI's second run (tests/backend_free.py)
pytestmark = pytest.mark.backends

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = {
    "YATZY_PRODUCTION": "1",
    "SECRET_KEY": "a-long-random-secret-key-for-the-deploy-check-0123456789abcdefghij",
    "ALLOWED_HOSTS": "yatzy.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://yatzy.example.org",
    "DATABASE_URL": "postgres://yatzy:secret@db:5432/yatzy",
    "REDIS_URL": "redis://redis:6379/0",
}


def environment(**env: str) -> dict[str, str]:
    """This process's environment less what would leak into a command's settings, plus
    ``env``."""
    leaks = {"DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE"}  # the browser tests set the latter
    clean = {k: v for k, v in os.environ.items() if k not in PRODUCTION and k not in leaks}
    return {**clean, **env}


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_production_settings_pass_the_deploy_check() -> None:
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)

    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize("missing", ["SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"])
def test_production_refuses_to_start_without(missing: str) -> None:
    env = {k: v for k, v in PRODUCTION.items() if k != missing}

    result = manage("check", **env)

    assert result.returncode != 0
    assert f"Set the environment variable {missing}" in result.stderr


@pytest.mark.parametrize(
    ("variable", "value", "says"),
    [
        ("DEBUG", "maybe", "DEBUG must be true or false"),
        ("DATABASE_URL", "mysql://db/yatzy", "DATABASE_URL must start with postgres://"),
        ("DATABASE_URL", "postgres://db:port/yatzy", "DATABASE_URL is malformed"),
        ("REDIS_URL", "localhost:6379", "REDIS_URL must look like redis://"),
        ("YATZY_PROCESS", "w" * 49, "YATZY_PROCESS must be at most 48 letters"),
        ("YATZY_PROCESS", "web 1", "YATZY_PROCESS must be at most 48 letters"),
        ("YATZY_AWAY_BEFORE_SKIP_S", "half a minute", "YATZY_AWAY_BEFORE_SKIP_S must be a whole"),
        ("YATZY_AWAY_BEFORE_SKIP_S", "-1", "YATZY_AWAY_BEFORE_SKIP_S must be 0 or more seconds"),
        ("YATZY_METRICS_ALLOW", "10.0.0.300", "YATZY_METRICS_ALLOW must list IP addresses"),
        ("YATZY_METRICS_ALLOW", "10.0.0.1,prometheus", "not 'prometheus'"),
        ("YATZY_METRICS_TOKEN", "short", "YATZY_METRICS_TOKEN must be at least 16 characters"),
        ("YATZY_LOG_FORMAT", "xml", "YATZY_LOG_FORMAT must be 'text' or 'json'"),
        ("YATZY_LIMIT_CREATE", "30 per minute", "YATZY_LIMIT_CREATE must be a rate such as"),
        ("YATZY_LIMIT_MOVE_PER_ADDRESS", "0/m", "YATZY_LIMIT_MOVE_PER_ADDRESS must be a rate"),
        ("YATZY_LIMIT_SOCKET", "10/0s", "YATZY_LIMIT_SOCKET must be a rate"),
        ("YATZY_LIMITS", "maybe", "YATZY_LIMITS must be true or false"),
        ("YATZY_KEEP_LOBBY_H", "0", "YATZY_KEEP_LOBBY_H must be 1 or more"),
        ("YATZY_KEEP_UNFINISHED_DAYS", "a month", "YATZY_KEEP_UNFINISHED_DAYS must be a whole"),
        ("YATZY_KEEP_SESSIONS_DAYS", "-1", "YATZY_KEEP_SESSIONS_DAYS must be 1 or more"),
        ("YATZY_TIDY_EVERY_S", "-5", "YATZY_TIDY_EVERY_S must be 0 (never) or more"),
    ],
)
def test_a_malformed_value_stops_the_start_naming_the_variable(
    variable: str, value: str, says: str
) -> None:
    result = manage("check", **{**PRODUCTION, variable: value})

    assert result.returncode != 0
    assert says in result.stderr


def test_the_embedded_default_needs_no_settings_at_all(tmp_path: Path) -> None:
    result = manage("check", YATZY_VAR_DIR=str(tmp_path))

    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("value", "rate"),
    [
        ("30/m", (30, 60)),
        ("200/10m", (200, 600)),
        ("5/30", (5, 30)),
        ("2/d", (2, 86400)),
        ("off", None),
    ],
)
def test_a_limit_reads_as_a_count_in_a_period(
    monkeypatch: pytest.MonkeyPatch, value: str, rate: tuple[int, int] | None
) -> None:
    monkeypatch.setenv("YATZY_LIMIT_TEST", value)

    assert env_rate("YATZY_LIMIT_TEST", "1/s") == rate


def test_the_database_url_keeps_its_connection_options() -> None:
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; d = settings.DATABASES['default'];"
        " print(d['NAME'], d['HOST'], d['PORT'], d['USER'], sorted(d['OPTIONS'].items()))",
        **{
            **PRODUCTION,
            "DATABASE_URL": "postgres://yatzy:s%40cret@db:6432/yatzy?sslmode=require",
        },
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.split("\n")[0] == (
        "yatzy db 6432 yatzy [('pool', True), ('sslmode', 'require')]"
    )


def test_a_sqlite_url_names_the_file(tmp_path: Path) -> None:
    database = tmp_path / "yatzy.sqlite3"

    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings; print(settings.DATABASES['default']['NAME'])",
        DATABASE_URL=f"sqlite:///{database}",
        YATZY_VAR_DIR=str(tmp_path),
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(database)


MAIL_BACKEND = (
    "from django.core.mail import get_connection;print(type(get_connection()).__module__)"
)


def test_mail_is_printed_on_the_console_unless_an_smtp_server_is_named(tmp_path: Path) -> None:
    console = manage("shell", "-c", MAIL_BACKEND, YATZY_VAR_DIR=str(tmp_path))
    smtp = manage("shell", "-c", MAIL_BACKEND, YATZY_VAR_DIR=str(tmp_path), EMAIL_HOST="mx")

    assert console.stdout.splitlines()[-1] == "django.core.mail.backends.console", console.stderr
    assert smtp.stdout.splitlines()[-1] == "django.core.mail.backends.smtp", smtp.stderr


def test_a_malformed_mail_setting_stops_the_start() -> None:
    result = manage("check", **{**PRODUCTION, "EMAIL_HOST": "mx", "EMAIL_USE_TLS": "maybe"})

    assert result.returncode != 0
    assert "EMAIL_USE_TLS must be true or false" in result.stderr

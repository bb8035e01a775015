"""Settings for the Yatzy site, read from environment variables.

With nothing set, the site runs on the embedded default: SQLite and the in-memory
channel layer in one process, for local play. ``YATZY_PRODUCTION=1`` makes every
secret and host setting mandatory; ``DATABASE_URL`` and ``REDIS_URL`` switch to
PostgreSQL and Redis.
"""

from __future__ import annotations

import os
import re
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

import django
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from yatzy_site.env import (
    database_from_url,
    env_bool,
    env_int,
    env_list,
    env_networks,
    env_rate,
    env_str,
    redis_url,
    sqlite_database,
)

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("YATZY_VAR_DIR", str(BASE_DIR / "var")))

PRODUCTION = env_bool("YATZY_PRODUCTION", False)
DEBUG = env_bool("DEBUG", False)


def _local_secret_key() -> str:
    """A key made once per checkout, so local sessions survive restarts."""
    path = VAR_DIR / "secret_key"
    if not path.exists():
        VAR_DIR.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


if PRODUCTION:
    SECRET_KEY = env_str("SECRET_KEY")
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
else:
    SECRET_KEY = os.environ.get("SECRET_KEY") or _local_secret_key()
    ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
    CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.staticfiles",
    "django_htmx",
    "channels",
    "games",
    "players",
]
if django.VERSION < (6, 0):
    INSTALLED_APPS.append("template_partials")  # built into Django from 6.0

MIDDLEWARE = [
    "yatzy_site.monitoring.timed",  # first: times every request, static files included
    # (a request over its limits is refused before this chain: yatzy_site/door.py)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "games.language.query_language",  # ?lang= over the cookie and Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "yatzy_site.chain.sync_chain",  # last: the whole chain in one mode (yatzy_site/chain.py)
]
if django.VERSION >= (6, 0):  # the Content-Security-Policy header (SECURE_CSP below)
    MIDDLEWARE.insert(1, "django.middleware.csp.ContentSecurityPolicyMiddleware")

ROOT_URLCONF = "yatzy_site.urls"
CSRF_FAILURE_VIEW = "games.views.access.csrf_failure"  # says so, in the page's language
ASGI_APPLICATION = "yatzy_site.asgi.application"

template_options = {
    "context_processors": [
        "django.template.context_processors.request",
        "django.template.context_processors.i18n",
        "django.contrib.auth.context_processors.auth",
        "games.context_processors.language_next",
    ],
}
if django.VERSION < (6, 0):  # {% partialdef %} in every template, as Django 6 has it
    template_options["builtins"] = ["template_partials.templatetags.partials"]
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": template_options,
    },
    {  # the table a move renders (games/rendering.py): Jinja2 compiles it to Python
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "jinja_templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.templating.environment"},
    },
]

if "DATABASE_URL" in os.environ or PRODUCTION:
    DATABASES = {"default": database_from_url("DATABASE_URL", env_str("DATABASE_URL"))}
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {"default": sqlite_database(VAR_DIR / "db.sqlite3")}
    # A file, not memory, so that racing test threads and test servers share it.
    DATABASES["default"]["TEST"] = {"NAME": VAR_DIR / "test-db.sqlite3"}

if "REDIS_URL" in os.environ or PRODUCTION:
    # The sessions' cache (below) must be one that every server process shares.
    CACHES: dict[str, dict[str, Any]] = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url("REDIS_URL", env_str("REDIS_URL")),
        }
    }
    # The pub/sub layer fans a table update out in 0.26 ms at p50 against 1.4 ms for
    # the core layer, at 4.6x its throughput (bench/channel_layers.py, docs/deploy.md).
    # It keeps no queue, so a browser that misses an update heals on the next one
    # through the version-gap resync.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [redis_url("REDIS_URL", env_str("REDIS_URL"))],
                # Redis's pub/sub is one space for all its databases: sites (or test
                # workers) sharing a Redis keep their groups apart by this
                "prefix": env_str("YATZY_CHANNEL_PREFIX", "asgi"),
            },
        }
    }
    # The limits' counters (games/limits.py), shared by every process so that a browser
    # meets the same limit whichever one serves it. A Redis that does not answer within
    # the timeouts lets the request through rather than hold it.
    CACHES["limits"] = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": CACHES["default"]["LOCATION"],
        "KEY_PREFIX": "limits",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
else:
    # Channels' in-memory layer, with costs that do not grow with the sockets open
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.channel_layer.LocalChannelLayer"}}
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 20_000},  # a session is a few hundred bytes
        },
        # apart from the sessions': a flood of counters must not push sessions out
        "limits": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "limits",
            "OPTIONS": {"MAX_ENTRIES": 100_000},  # a counter is a few dozen bytes
        },
    }

# This server process's name where several share the database (web1, web2 in Compose):
# the sockets it counts at the tables are booked under it, so that the process that
# next starts under the name takes off what this one left counted if it dies
# (games/presence.py). On PostgreSQL a process holds its name while it lives: a second
# one started under it stops (yatzy_site/serving.py).
YATZY_PROCESS = env_str("YATZY_PROCESS", "")
if YATZY_PROCESS and not re.fullmatch(r"[A-Za-z0-9_.-]{1,48}", YATZY_PROCESS):
    # whole in the 63 bytes PostgreSQL keeps of a session's name, which shows who holds it
    raise ImproperlyConfigured(
        "YATZY_PROCESS must be at most 48 letters, digits, '_', '.' or '-' (like web1)."
    )

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", _("English")),
    ("fi", _("Finnish")),
    ("sv", _("Swedish")),
    ("de", _("German")),
    ("it", _("Italian")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
if PRODUCTION:
    STATIC_ROOT = BASE_DIR / "staticfiles"  # filled by collectstatic in the image
else:
    WHITENOISE_USE_FINDERS = True  # serve straight from static/ without collectstatic
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "whitenoise.storage.CompressedManifestStaticFilesStorage"
            if PRODUCTION
            else "django.contrib.staticfiles.storage.StaticFilesStorage"
        )
    },
}

# Content-Security-Policy (Django 6's own; Django 5.2, on Python 3.11, has none to
# send it): scripts, styles, sockets and everything else from the site itself only,
# nothing inline (no <script> or style attribute in any template, and htmx told not to
# add its indicators' <style> nor to evaluate anything: base.html's htmx-config), no
# plugins, no <base>, forms posted to the site only, and no page framed anywhere.
# 'self' covers the site's own WebSocket (ws: and wss: to the same host and port).
SECURE_CSP = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

# A seat's token lives in the session; a session unused this long is removed (tidy).
SESSION_COOKIE_AGE = 60 * 60 * 24 * env_int("YATZY_KEEP_SESSIONS_DAYS", 365)
# Every move reads its session. On the embedded default from the process's own memory
# cache, with the database behind it (one query less a move). With Redis, from the
# database alone: sessions must not depend on Redis being up. cached_db fails a
# request whose session it cannot put back in an unreachable cache, and a session
# written while Redis is down leaves its old copy there, read again once Redis is
# back (a seat taken meanwhile forgotten). docs/deploy.md, "When Redis is down".
# Either takes only session keys Django could have made (yatzy_site/sessions.py).
SESSION_ENGINE = (
    "yatzy_site.db_sessions" if "REDIS_URL" in os.environ or PRODUCTION else "yatzy_site.sessions"
)
SESSION_COOKIE_HTTPONLY = True

# Accounts (players/): optional, on Django's own auth. Its password validators, all
# four; after logging in or out, the home page. Password reset mail goes through
# Django's e-mail settings: printed on the console on the embedded default, sent by
# SMTP once EMAIL_HOST is set (docs/deploy.md, "E-mail").
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
_MAIL_HOST = env_str("EMAIL_HOST", "")
_MAIL_BACKEND = "smtp" if _MAIL_HOST else "console"
_MAIL_OPTIONS: dict[str, Any] = (
    {
        "host": _MAIL_HOST,
        "port": env_int("EMAIL_PORT", 587),
        "username": env_str("EMAIL_HOST_USER", ""),
        "password": env_str("EMAIL_HOST_PASSWORD", ""),
        "use_tls": env_bool("EMAIL_USE_TLS", True),
    }
    if _MAIL_HOST
    else {}
)
if not _MAIL_HOST:
    # A site without a mail server is a site (reset links then go to its log, for its
    # operator to pass on): Django 6.1's deploy check calls the console backend an error.
    SILENCED_SYSTEM_CHECKS = ["mail.E001"]
if django.VERSION >= (6, 1):  # Django 6.1's MAILERS (its EMAIL_* settings are deprecated)
    MAILERS = {
        "default": {
            "BACKEND": f"django.core.mail.backends.{_MAIL_BACKEND}.EmailBackend",
            "OPTIONS": _MAIL_OPTIONS,
        }
    }
else:
    EMAIL_BACKEND = f"django.core.mail.backends.{_MAIL_BACKEND}.EmailBackend"
    if _MAIL_HOST:
        EMAIL_HOST = _MAIL_HOST
        EMAIL_PORT = _MAIL_OPTIONS["port"]
        EMAIL_HOST_USER = _MAIL_OPTIONS["username"]
        EMAIL_HOST_PASSWORD = _MAIL_OPTIONS["password"]
        EMAIL_USE_TLS = _MAIL_OPTIONS["use_tls"]
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Yatzy <webmaster@localhost>")
SESSION_COOKIE_SAMESITE = "Lax"

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    # probed and scraped over plain HTTP inside the network
    SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# "text": each record's message alone, for a person at a terminal; "json": one JSON
# object a line (time, level, logger, message, the request and exception if any), for
# a log collector, with each request's access line written by the site instead of
# daphne's text one (yatzy_site/logs.py, docs/deploy.md).
YATZY_LOG_FORMAT = env_str("YATZY_LOG_FORMAT", "text")
if YATZY_LOG_FORMAT not in {"text", "json"}:
    raise ImproperlyConfigured("YATZY_LOG_FORMAT must be 'text' or 'json'.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"json": {"()": "yatzy_site.logs.json_lines"}},
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            **({"formatter": "json"} if YATZY_LOG_FORMAT == "json" else {}),
        }
    },
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    # Django's own handlers of these (a console one under DEBUG, runserver's) would
    # write their records a second time, in another format: everything goes to the root.
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
    },
}

# Computer players move on each server process's event loop ("thread", the name it has
# always had; "manual": never by themselves, the tests step them), this many
# milliseconds apart.
YATZY_BOT_RUNNER = env_str("YATZY_BOT_RUNNER", "thread")
if YATZY_BOT_RUNNER not in {"thread", "manual"}:
    raise ImproperlyConfigured("YATZY_BOT_RUNNER must be 'thread' or 'manual'.")
YATZY_BOT_DELAY = env_int("YATZY_BOT_DELAY_MS", 900) / 1000
# at a table whose computer players are fast (``Game.computer_pace``)
YATZY_BOT_FAST_DELAY = env_int("YATZY_BOT_FAST_DELAY_MS", 150) / 1000

# Players' records and ratings (players/records.py) are worked out after a game ends on
# a thread of each server process's own ("thread"), or at once where it ends
# ("inline": the tests).
YATZY_RECORDS_RUNNER = env_str("YATZY_RECORDS_RUNNER", "thread")
if YATZY_RECORDS_RUNNER not in {"thread", "inline"}:
    raise ImproperlyConfigured("YATZY_RECORDS_RUNNER must be 'thread' or 'inline'.")

# How long the player to move may have no page open before the host may skip their turn.
YATZY_AWAY_BEFORE_SKIP = env_int("YATZY_AWAY_BEFORE_SKIP_S", 30)
if YATZY_AWAY_BEFORE_SKIP < 0:
    raise ImproperlyConfigured("YATZY_AWAY_BEFORE_SKIP_S must be 0 or more seconds.")

# For the browser tests only (tests/e2e/test_turn_timer_skip.py): a turn timer of this
# many seconds is offered beside the real ones (30 s and up), so that a test sees a
# turn's time run out without waiting half a minute. 0 (unset): none; leave it so.
YATZY_TEST_TURN_TIMER = env_int("YATZY_TEST_TURN_TIMER_S", 0)
if YATZY_TEST_TURN_TIMER < 0:
    raise ImproperlyConfigured("YATZY_TEST_TURN_TIMER_S must be 0 or more seconds.")

# The site's clock runs this many seconds ahead of the machine's (behind, if negative):
# which day's challenge is on, and whether a day's dice seed is revealed, turn on it
# (games/clock.py). For trying a day's end by hand; leave unset on a real site.
YATZY_CLOCK_SHIFT = timedelta(seconds=env_int("YATZY_CLOCK_SHIFT_S", 0))

# Each process keeps the parts of tables it rendered (a scorecard's cells, rows, the
# dice), for the next move that shows the same (games/rendering.py). 0 renders every
# one afresh: slower, and a way to tell a stale rendering from a bug.
YATZY_RENDER_CACHE = env_bool("YATZY_RENDER_CACHE", True)

# Who may read /metrics (yatzy_site/monitoring.py): the addresses and networks listed
# (comma-separated; the address is REMOTE_ADDR, which behind a proxy is daphne's reading
# of X-Forwarded-For), and whoever sends "Authorization: Bearer <YATZY_METRICS_TOKEN>".
# Nobody by default: everyone else is answered as at an address the site does not have.
YATZY_METRICS_ALLOW = env_networks("YATZY_METRICS_ALLOW")
YATZY_METRICS_TOKEN = env_str("YATZY_METRICS_TOKEN", "")
if YATZY_METRICS_TOKEN and len(YATZY_METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("YATZY_METRICS_TOKEN must be at least 16 characters long.")

# Limits (games/limits.py; docs/security.md, "Limits"): how often one browser (its
# session cookie) and one address (IPv6: its /64) may do each kind of thing, as
# count/period (30/m, 600/h, 200/10m) or "off". Generous: no honest player meets them.
# YATZY_LIMITS=0 lifts them all (the test suite does, but for the tests of the limits).
YATZY_LIMITS = env_bool("YATZY_LIMITS", True)
YATZY_RATES = {
    kind: {
        "browser": env_rate(f"YATZY_LIMIT_{kind.upper()}", browser),
        "address": env_rate(f"YATZY_LIMIT_{kind.upper()}_PER_ADDRESS", address),
    }
    for kind, browser, address in [
        ("create", "30/10m", "200/10m"),  # new games, and next games (Play again)
        ("join", "60/10m", "300/10m"),  # taking a seat: the invite link, a personal link
        ("move", "300/m", "3000/m"),  # every action at a table or its lobby
        ("socket", "60/m", "600/m"),  # a table's or lobby's WebSocket connecting
        ("react", "8/m", "80/m"),  # quick reactions at a table: a few, not a flood
        ("account", "10/10m", "30/10m"),  # sign-ups and password reset mails
    ]
}
# Failed log-ins (players/views.py): per username and per address, counted as the
# limits are; past either, the log-in page answers 429 until the window ends, even
# to the right password.
YATZY_FAILURE_RATES = {
    "login": {
        "username": env_rate("YATZY_LIMIT_LOGIN_FAILURES", "5/15m"),
        "address": env_rate("YATZY_LIMIT_LOGIN_FAILURES_PER_ADDRESS", "20/15m"),
    }
}
# A request over a limit is answered after this long (yatzy_site/door.py): a client that
# asks again as soon as it is answered (a flood) is held to a request a second per
# connection, instead of taking the process's time from every table's moves.
YATZY_REFUSAL_DELAY_MS = env_int("YATZY_REFUSAL_DELAY_MS", 1000)

# Retention (games/management/commands/tidy.py; docs/security.md, "Retention"): a lobby
# nobody has touched for YATZY_KEEP_LOBBY_H hours and a game nobody has moved in for
# YATZY_KEEP_UNFINISHED_DAYS days are deleted, with expired sessions; finished games
# stay. ``manage.py serve`` runs ``tidy`` every YATZY_TIDY_EVERY_S seconds beside the
# server (0: never; Compose runs it as a service of its own instead).
YATZY_KEEP_LOBBY_HOURS = env_int("YATZY_KEEP_LOBBY_H", 24)
YATZY_KEEP_UNFINISHED_DAYS = env_int("YATZY_KEEP_UNFINISHED_DAYS", 30)
YATZY_TIDY_EVERY = env_int("YATZY_TIDY_EVERY_S", 0 if PRODUCTION else 3600)
for _name, _value in [
    ("YATZY_KEEP_LOBBY_H", YATZY_KEEP_LOBBY_HOURS),
    ("YATZY_KEEP_UNFINISHED_DAYS", YATZY_KEEP_UNFINISHED_DAYS),
    ("YATZY_KEEP_SESSIONS_DAYS", SESSION_COOKIE_AGE),
]:
    if _value < 1:
        raise ImproperlyConfigured(f"{_name} must be 1 or more.")
if YATZY_TIDY_EVERY < 0:
    raise ImproperlyConfigured("YATZY_TIDY_EVERY_S must be 0 (never) or more seconds.")

# What the table's sockets may hold of a server process (games/readers.py): the data a
# socket was sent and its page has not yet said it read, how long a page may take to
# say so, and how many sockets one browser may keep open to each process. Past either
# of the first two a socket is closed (4408) and its page connects again; past the
# third a new socket is closed (4409) and its page says why.
YATZY_SOCKET_UNREAD_KB = env_int("YATZY_SOCKET_UNREAD_KB", 128)
YATZY_SOCKET_READ_TIMEOUT_S = env_int("YATZY_SOCKET_READ_TIMEOUT_S", 30)
YATZY_SOCKETS_PER_BROWSER = env_int("YATZY_SOCKETS_PER_BROWSER", 20)
if min(YATZY_SOCKET_UNREAD_KB, YATZY_SOCKET_READ_TIMEOUT_S, YATZY_SOCKETS_PER_BROWSER) < 1:
    raise ImproperlyConfigured(
        "YATZY_SOCKET_UNREAD_KB, YATZY_SOCKET_READ_TIMEOUT_S and YATZY_SOCKETS_PER_BROWSER"
        " must each be 1 or more."
    )

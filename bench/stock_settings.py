"""Settings of the stock Django stack: the site's middleware and channel layer, no app."""

from __future__ import annotations

from bench.bare_settings import ALLOWED_HOSTS, CHANNEL_LAYERS, SECRET_KEY, USE_TZ  # noqa: F401
from yatzy_site.settings import (  # noqa: F401
    BASE_DIR,
    CACHES,
    MIDDLEWARE,
    SECURE_CSP,
    STATIC_URL,
    YATZY_LIMITS,
    YATZY_LOG_FORMAT,
    YATZY_RATES,
)

# (auth and contenttypes: the site's middleware reads who is logged in, lazily; a move
# of the stock stack never asks, so it reads no database for it)
INSTALLED_APPS = [
    "channels",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.staticfiles",
]
ROOT_URLCONF = "bench.stock"
STATIC_ROOT = BASE_DIR / "static"  # whitenoise wants a directory
SESSION_ENGINE = "django.contrib.sessions.backends.signed_cookies"  # no database
USE_I18N = True

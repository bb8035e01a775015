"""Settings of the bare stack: the site's channel layer and nothing else."""

from __future__ import annotations

import os

SECRET_KEY = "bench-only"
INSTALLED_APPS = ["channels"]
ALLOWED_HOSTS = ["*"]
USE_TZ = True
if os.environ.get("REDIS_URL"):
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [os.environ["REDIS_URL"]]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

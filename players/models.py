"""An account's side of the site: the player behind a Django user.

Everything the site keeps of a player is keyed by a browser id (``games.viewer``): the
seats it holds, the games it hosts, its daily attempts. An account has a browser id of
its own, given to the session of every device logged in to it, so that those devices
hold the same games and seats; what a browser did before it logged in is moved under
the account's id (``accounts.join_browser``).
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models


def new_browser_id() -> str:
    return secrets.token_urlsafe(16)


class Player(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    # the browser id of every session logged in to the account (``games.viewer``)
    browser_id = models.CharField(max_length=64, unique=True, default=new_browser_id)
    # the profile page: its owner's only, until they make it public
    public = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.user.get_username()

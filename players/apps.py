from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        # an account takes over what its browser did as it logs in (``accounts``); a
        # game over is recorded for its accounts (``records``)
        from players import accounts, records  # noqa: F401

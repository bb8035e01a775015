from __future__ import annotations

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"

    def ready(self) -> None:
        # an account takes over what its browser did as it logs in (``accounts``)
        from players import accounts  # noqa: F401

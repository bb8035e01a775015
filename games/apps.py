from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # the computer players listen for the tables' changes (``broadcast.table_changed``),
        # and so does the Watch pages' list, for the tables anyone may watch
        from games import bots, watching  # noqa: F401

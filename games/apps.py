from __future__ import annotations

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        # the computer players listen for the tables' changes (``broadcast.table_changed``),
        # and so do the live lists: the Watch page's, for the tables anyone may watch, and
        # the Open tables page's, for the rooms anyone may join
        from games import bots, open_tables, watching  # noqa: F401

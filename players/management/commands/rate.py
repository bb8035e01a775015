"""manage.py rate: record the finished games of every account that are not in its
records yet, and analyse those still unrated (a server stopped before it did, or the
solver's tables were missing then)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from players import records
from players.models import Player


class Command(BaseCommand):
    help = "Make the players' missing records and ratings."

    def handle(self, *args: Any, **options: Any) -> None:
        for player_id in Player.objects.values_list("pk", flat=True):
            records.record_player(player_id)
        rated = records.rate_missing()
        self.stdout.write(f"{rated} game(s) rated")

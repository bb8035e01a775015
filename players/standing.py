"""The daily challenge by person: a result of an account's is named by the account,
with its skill rating in the rule set beside it."""

from __future__ import annotations

from dataclasses import replace

from django.urls import reverse

from games.leaderboard import Entry
from players.models import Player, Rating


def named(entries: list[Entry], ruleset: str) -> list[Entry]:
    """``entries`` with each account's result named by its username, its rating and,
    for a public profile, the link to it. Two queries for a day's table."""
    players = {
        player.browser_id: player
        for player in Player.objects.filter(
            browser_id__in={entry.browser for entry in entries}
        ).select_related("user")
    }
    ratings = dict(
        Rating.objects.filter(player__in=players.values(), ruleset=ruleset).values_list(
            "player_id", "mean_loss"
        )
    )
    named_entries = []
    for entry in entries:
        player = players.get(entry.browser)
        if player is None:
            named_entries.append(entry)
            continue
        username = player.user.get_username()
        named_entries.append(
            replace(
                entry,
                name=username,
                account=username,
                rating=ratings.get(player.pk),
                profile=reverse("profile", args=[username]) if player.public else "",
            )
        )
    return named_entries

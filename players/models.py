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


class Record(models.Model):
    """One finished game of a player's, as their profile counts it: written once the
    game is over (``records.record_game``), its loss against perfect play once the
    game is analysed, in the background."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="records")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()  # the player's seat at the game
    ruleset = models.CharField(max_length=20)
    finished_at = models.DateTimeField()
    score = models.SmallIntegerField()
    scorecards = models.PositiveSmallIntegerField()  # at the table
    won = models.BooleanField()  # first, or shared first, at a table of two scorecards or more
    yatzy = models.BooleanField()  # scored five (six) alike in its category
    upper_bonus = models.BooleanField()
    # counts for the rating: a full game (not upper section only) on a scorecard of the
    # player's own (not a team's), none of it played for them by the computer
    rated = models.BooleanField()
    # the points lost against perfect play over the player's decisions, once analysed
    # (None: not yet, or no solver tables for the game's rules)
    lost = models.FloatField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="one_record_per_game"),
        ]
        indexes = [models.Index(fields=["player", "ruleset", "-finished_at"])]

    def __str__(self) -> str:
        return f"{self.player}: {self.ruleset} {self.score}"


class Rating(models.Model):
    """A player's skill rating in one rule set (``rating.rate``): the mean points lost
    against perfect play per game over their last finished rated games."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    ruleset = models.CharField(max_length=20)
    games = models.PositiveSmallIntegerField()  # the games it is the mean of
    mean_loss = models.FloatField()
    standard_error = models.FloatField()
    # the newer half of those games' mean less the older half's (negative: fewer points
    # lost lately); None below ten games
    trend = models.FloatField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "ruleset"], name="one_rating_per_rule_set"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.ruleset} {self.mean_loss:.1f}"

"""The skill rating without luck: per rule set, the mean points a player lost against
perfect play per game, over their last ``WINDOW`` rated games (at least ``FEWEST``),
with its standard error and its trend.

A game's loss is the review's (``games.analysis``): each decision priced by the solver,
the expected final score of the best choice less that of the choice made. The dice
decide what the choices are, never which is best: a lucky roll raises the score and
leaves the loss where it is. What luck still moves is how hard a game's choices were,
which averages out over games; the standard error says by how much.
"""

from __future__ import annotations

import statistics

from players.models import Player, Rating

WINDOW = 50
FEWEST = 5
# below this many games the two halves are too few to tell a trend from chance
TREND_FROM = 10


def rate(player: Player, ruleset: str) -> Rating | None:
    """Work out ``player``'s rating in ``ruleset`` from their records and keep it;
    None (and no rating kept) below ``FEWEST`` analysed games."""
    losses = [
        float(lost or 0.0)  # (none is None: the filter leaves those out; said for mypy)
        for lost in player.records.filter(ruleset=ruleset, rated=True, lost__isnull=False)
        .order_by("-finished_at", "-id")
        .values_list("lost", flat=True)[:WINDOW]
    ]
    if len(losses) < FEWEST:
        Rating.objects.filter(player=player, ruleset=ruleset).delete()
        return None
    half = len(losses) // 2
    trend = None
    if len(losses) >= TREND_FROM:  # newest first: the newer half less the older
        trend = statistics.fmean(losses[:half]) - statistics.fmean(losses[-half:])
    rating, _made = Rating.objects.update_or_create(
        player=player,
        ruleset=ruleset,
        defaults={
            "games": len(losses),
            "mean_loss": statistics.fmean(losses),
            "standard_error": statistics.stdev(losses) / len(losses) ** 0.5,
            "trend": trend,
        },
    )
    return rating

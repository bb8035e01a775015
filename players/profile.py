"""A player's numbers, from their records: per rule set the games, wins, average and
best score, Yatzy and upper-bonus rates, the scores over time as a chart, the rating;
the last games; the people played against most."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass

from django.db.models import Avg, Count, Max, Q
from django.utils.translation import gettext

from games.analysis import HEIGHT, LEFT, RIGHT, TOP, Chart, Line, Tick
from games.models import DailyAttempt, Game
from games.rules import get_ruleset
from games.tableview import RULESET_NAMES
from players.models import Player, Rating

CHARTED = 50  # the latest games a rule set's chart shows
FACED = 200  # the latest games the head to head is counted over
BOTTOM = HEIGHT - 38


@dataclass(frozen=True)
class RuleSetStats:
    ruleset: str
    name: str
    games: int
    won: int
    against_others: int  # games at a table of two scorecards or more
    average: float
    best: int
    yatzy_rate: float
    bonus_rate: float
    rating: Rating | None
    rated_games: int  # analysed so far, of those that count for the rating
    yatzy_name: str  # the rule set's five (six) alike category
    chart: Chart

    @property
    def win_rate(self) -> float | None:
        return self.won / self.against_others if self.against_others else None


@dataclass(frozen=True)
class Opponent:
    name: str
    games: int
    won: int  # by the profile's player
    lost: int


def stats(player: Player) -> list[RuleSetStats]:
    """The player's numbers per rule set they played, the most played first."""
    rows = (
        player.records.values("ruleset")
        .annotate(
            games=Count("id"),
            won=Count("id", filter=Q(won=True)),
            against_others=Count("id", filter=Q(scorecards__gt=1)),
            average=Avg("score"),
            best=Max("score"),
            yatzy=Count("id", filter=Q(yatzy=True)),
            bonus=Count("id", filter=Q(upper_bonus=True)),
            rated_games=Count("id", filter=Q(rated=True, lost__isnull=False)),
        )
        .order_by("-games", "ruleset")
    )
    ratings = {rating.ruleset: rating for rating in player.ratings.all()}
    return [
        RuleSetStats(
            ruleset=row["ruleset"],
            name=str(RULESET_NAMES.get(row["ruleset"], row["ruleset"])),
            games=row["games"],
            won=row["won"],
            against_others=row["against_others"],
            average=row["average"] or 0.0,
            best=row["best"] or 0,
            yatzy_rate=row["yatzy"] / row["games"],
            bonus_rate=row["bonus"] / row["games"],
            rating=ratings.get(row["ruleset"]),
            rated_games=row["rated_games"],
            yatzy_name=_all_alike_name(row["ruleset"]),
            chart=score_chart(player, row["ruleset"]),
        )
        for row in rows
    ]


def _all_alike_name(ruleset: str) -> str:
    rules = get_ruleset(ruleset)
    return gettext(rules.category(rules.all_alike_key).name)


def score_chart(player: Player, ruleset: str) -> Chart:
    """The scores of the player's latest ``CHARTED`` games of ``ruleset``, oldest first,
    in the review chart's form (one line)."""
    latest = player.records.filter(ruleset=ruleset).order_by("-finished_at", "-id")
    scores = list(reversed(latest.values_list("score", flat=True)[:CHARTED]))
    high = max([*scores, 1])
    step = next((s for s in (10, 20, 25, 50, 100) if high / s <= 6), 100)
    top = step * (high // step + 1)

    def x(number: int) -> float:
        return LEFT + (RIGHT - LEFT) * number / max(len(scores) - 1, 1)

    def y(score: float) -> float:
        return round(BOTTOM - (BOTTOM - TOP) * score / top, 1)

    coords = tuple((round(x(i), 2), y(score)) for i, score in enumerate(scores))
    line = Line(
        name=str(RULESET_NAMES.get(ruleset, ruleset)),
        colour="#1f6fb2",
        dash="",
        mark=0,
        points=" ".join(f"{a},{b}" for a, b in coords),
        coords=coords,
    )
    y_ticks = tuple(Tick(y(tick), str(tick)) for tick in range(0, top + 1, step))
    every = max(1, len(scores) // 8)
    x_ticks = tuple(Tick(round(x(i), 2), str(i + 1)) for i in range(0, len(scores), every))
    rows = tuple((i + 1, (float(score),)) for i, score in enumerate(scores))
    return Chart((line,), y_ticks, x_ticks, rows, height=HEIGHT, bottom=BOTTOM)


@dataclass(frozen=True)
class PastGame:
    code: str
    ruleset_name: str
    finished_at: dt.datetime
    score: int
    won: bool
    scorecards: int
    lost: float | None


def last_games(player: Player, most: int = 10) -> list[PastGame]:
    records = player.records.select_related("game").order_by("-finished_at", "-id")[:most]
    return [
        PastGame(
            code=record.game.code,
            ruleset_name=str(RULESET_NAMES.get(record.ruleset, record.ruleset)),
            finished_at=record.finished_at,
            score=record.score,
            won=record.won,
            scorecards=record.scorecards,
            lost=record.lost,
        )
        for record in records
    ]


def head_to_head(player: Player, most: int = 5) -> list[Opponent]:
    """The people (and computer players) the player played against most over their
    latest ``FACED`` games at a table with others, each with the games the player won
    and lost against them (a higher, a lower total; a tie is neither)."""
    records = list(player.records.filter(scorecards__gt=1).order_by("-finished_at", "-id")[:FACED])
    games = Game.objects.filter(pk__in=[r.game_id for r in records]).prefetch_related("seats")
    accounts = dict(
        Player.objects.filter(
            browser_id__in={
                seat.browser_id for game in games for seat in game.seats.all() if seat.browser_id
            }
        ).values_list("browser_id", "user__username")
    )
    mine = {record.game_id: record for record in records}
    played, won, lost = Counter[str](), Counter[str](), Counter[str]()
    for game in games:
        record = mine[game.pk]
        state = game.started_state()
        own_card = state.scorecard_of(
            next(s.player_index for s in game.seats.all() if s.position == record.position) or 0
        )
        seen = set()
        for seat in game.seats.all():
            if seat.player_index is None or seat.position == record.position:
                continue
            card = state.scorecard_of(seat.player_index)
            if card == own_card:
                continue  # a team mate
            # another account's player by its name; a friend at the player's own screen
            # (a hot seat, held by the player's browser) by the name they played under
            theirs_by_account = seat.browser_id != player.browser_id
            name = (theirs_by_account and accounts.get(seat.browser_id)) or seat.shown_name
            if not name or name in seen:
                continue
            seen.add(name)
            played[name] += 1
            theirs = state.totals(card).total
            won[name] += record.score > theirs
            lost[name] += record.score < theirs
    return [
        Opponent(name=name, games=count, won=won[name], lost=lost[name])
        for name, count in sorted(played.items(), key=lambda item: (-item[1], item[0]))[:most]
    ]


def day_streak(player: Player, today: dt.date) -> int:
    """Days in a row, up to today (or yesterday, while today is not played yet), on
    which the player finished a daily challenge (one finished after its day does not
    count: it was played on another)."""
    played = [DailyAttempt.Result.COUNTED, DailyAttempt.Result.PRACTICE]
    days = set(
        DailyAttempt.objects.filter(browser_id=player.browser_id, result__in=played).values_list(
            "challenge__day", flat=True
        )
    )
    day = today if today in days else today - dt.timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= dt.timedelta(days=1)
    return streak

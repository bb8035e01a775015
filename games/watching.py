"""The games anyone may watch: which (``listed``), as the Watch page lists them (``rows``),
pushed live to every Watch page as they change (``WATCH``, a ``games.live_lists.LiveList``).

Listed are the games being played that their players made open to anyone: quick play's
(strangers paired by the site), open tables' (``Game.open_to_anyone``, strangers who
took a seat) and those whose host chose "Anyone may watch" (``Game.watchable``, off by
default). The "public" option is another thing: whether a finished game shows in the
history. A move at a listed table changes the list (its leading score, its round; a
game that starts or ends comes or goes).
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.dispatch import receiver
from django.urls import reverse

from games import broadcast
from games.live_lists import LiveList
from games.models import Game
from games.scorecard import column_heads
from games.tableview import RULESET_NAMES, seat_names

MOST = 50  # games a list shows, the latest started first


def open_to_anyone() -> Q:
    """The games anyone may watch, as a query; ``is_listed``: as a test of one game."""
    return Q(quick_play=True) | Q(open_to_anyone=True) | Q(watchable=True)


def is_listed(game: Game) -> bool:
    return game.among_strangers or game.watchable


def listed() -> QuerySet[Game]:
    """The games being played that anyone may watch, the latest started first."""
    games = Game.objects.filter(open_to_anyone(), status=Game.Status.PLAYING)
    return games.order_by("-started_at", "-id").prefetch_related("seats")[:MOST]


def rows(games: list[Game]) -> list[dict]:
    """What the list says of each game, in the active language: its rules, its
    scorecards with their totals, the leader first, its round, and the way in."""
    found = []
    for game in games:
        state = game.started_state()
        heads = column_heads(state, seat_names(game))
        ranking = state.ranking()
        found.append(
            {
                "url": reverse("table", args=[game.code]),
                "ruleset_name": RULESET_NAMES.get(game.ruleset, game.ruleset),
                "scores": [
                    {"name": heads[index], "total": total, "leads": rank == 1}
                    for rank, index, total in ranking
                ],
                "round": min(state.round + 1, state.rounds),
                "rounds": state.rounds,
            }
        )
    return found


WATCH = LiveList(
    name="the list of games to watch",
    group="watch.list",
    key="games",
    template="games/watch.html#games",
    games=lambda: list(listed()),
    rows=rows,
)


@receiver(broadcast.table_changed)
def on_table_changed(sender: object, code: str, version: int, game: Game | None, **kwargs) -> None:
    """A move committed: a listed game's changes the list (a room waiting for players
    is not on it yet: ``games.open_tables``)."""
    if game is not None and game.status != Game.Status.LOBBY and is_listed(game):
        WATCH.changed()
